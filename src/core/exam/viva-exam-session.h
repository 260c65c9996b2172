/* viva-exam-session.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "viva-exam-file.h"
#include "viva-problem.h"

G_BEGIN_DECLS

#define VIVA_EXAM_CHECKPOINT_FORMAT  "viva-checkpoint"
#define VIVA_EXAM_CHECKPOINT_VERSION 1

#define VIVA_TYPE_EXAM_SESSION (viva_exam_session_get_type ())

G_DECLARE_FINAL_TYPE (VivaExamSession, viva_exam_session, VIVA, EXAM_SESSION, GObject)

/**
 * VivaExamSession:
 *
 * Where one defense is kept: `<sessions-dir>/<id>/checkpoint.json`, the whole
 * resumable state, replaced atomically after every step, and `trace.jsonl`,
 * one line per event, appended and flushed. All writes happen in order on a
 * worker thread, so the main loop never waits for the disk. Main thread.
 */
char            *viva_exam_session_dup_default_dir    (void);
VivaExamSession *viva_exam_session_new                (const char           *sessions_dir);
const char      *viva_exam_session_get_id             (VivaExamSession      *self);
const char      *viva_exam_session_get_dir            (VivaExamSession      *self);
JsonNode        *viva_exam_session_get_checkpoint     (VivaExamSession      *self);
VivaProblem     *viva_exam_session_dup_problem        (VivaExamSession      *self,
                                                       GError              **error);
const char      *viva_exam_session_get_pack_id        (VivaExamSession      *self);
const char      *viva_exam_session_get_state          (VivaExamSession      *self);
guint64          viva_exam_session_get_checkpoint_writes (VivaExamSession   *self);

void             viva_exam_session_set_student        (VivaExamSession      *self,
                                                       const char           *name,
                                                       const char           *id);
const char      *viva_exam_session_get_student_name   (VivaExamSession      *self);
const char      *viva_exam_session_get_student_id     (VivaExamSession      *self);
void             viva_exam_session_add_timeline_event (VivaExamSession      *self,
                                                       JsonObject           *event);
JsonArray       *viva_exam_session_get_timeline       (VivaExamSession      *self);
void             viva_exam_session_set_served_model   (VivaExamSession      *self,
                                                       const char           *name);
const char      *viva_exam_session_get_served_model   (VivaExamSession      *self);
void             viva_exam_session_set_exam           (VivaExamSession      *self,
                                                       VivaExamFile         *exam);
JsonObject      *viva_exam_session_get_exam           (VivaExamSession      *self);

void             viva_exam_session_load_async         (const char           *sessions_dir,
                                                       const char           *id,
                                                       GCancellable         *cancellable,
                                                       GAsyncReadyCallback   callback,
                                                       gpointer              user_data);
VivaExamSession *viva_exam_session_load_finish        (GAsyncResult         *result,
                                                       GError              **error);
VivaExamSession *viva_exam_session_load               (const char           *sessions_dir,
                                                       const char           *id,
                                                       GError              **error);

void             viva_exam_session_save_checkpoint    (VivaExamSession      *self,
                                                       JsonNode             *checkpoint);
void             viva_exam_session_trace              (VivaExamSession      *self,
                                                       const char           *event,
                                                       JsonObject           *data);
void             viva_exam_session_flush_async        (VivaExamSession      *self,
                                                       GCancellable         *cancellable,
                                                       GAsyncReadyCallback   callback,
                                                       gpointer              user_data);
gboolean         viva_exam_session_flush_finish       (VivaExamSession      *self,
                                                       GAsyncResult         *result,
                                                       GError              **error);

void             viva_exam_session_save_answer_draft  (VivaExamSession      *self,
                                                       const char           *text);
char            *viva_exam_session_dup_answer_draft   (VivaExamSession      *self);
void             viva_exam_session_list_unfinished_async  (const char         *sessions_dir,
                                                           const char         *pack_id,
                                                           const char         *problem_id,
                                                           GCancellable       *cancellable,
                                                           GAsyncReadyCallback callback,
                                                           gpointer            user_data);
GStrv            viva_exam_session_list_unfinished_finish (GAsyncResult       *result,
                                                           GError            **error);

JsonNode        *viva_exam_checkpoint_parse           (const char           *data,
                                                       gssize                length,
                                                       GError              **error);

G_END_DECLS

/* viva-exam-hand-in.h: what a sitting hands in when its time is up
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "viva-code-store.h"
#include "viva-exam-file.h"

G_BEGIN_DECLS

#define VIVA_TYPE_EXAM_HAND_IN (viva_exam_hand_in_get_type ())

G_DECLARE_FINAL_TYPE (VivaExamHandIn, viva_exam_hand_in, VIVA, EXAM_HAND_IN, GObject)

/**
 * VivaExamHandInState:
 * @VIVA_EXAM_HAND_IN_NONE: nothing of the problem is handed in (yet)
 * @VIVA_EXAM_HAND_IN_WAITING: handed in at the time, its defense waits
 * @VIVA_EXAM_HAND_IN_DEFENDING: its defense runs now
 * @VIVA_EXAM_HAND_IN_DEFENDED: a defense of it reached a verdict in this
 *   sitting; its report is viva_exam_hand_in_get_report()
 * @VIVA_EXAM_HAND_IN_FAILED: handed in at the time, its defense failed
 * @VIVA_EXAM_HAND_IN_LEFT: handed in at the time, but left waiting when
 *   the student closed Viva
 *
 * Where one problem of the exam stands.
 */
typedef enum
{
  VIVA_EXAM_HAND_IN_NONE,
  VIVA_EXAM_HAND_IN_WAITING,
  VIVA_EXAM_HAND_IN_DEFENDING,
  VIVA_EXAM_HAND_IN_DEFENDED,
  VIVA_EXAM_HAND_IN_FAILED,
  VIVA_EXAM_HAND_IN_LEFT,
} VivaExamHandInState;

VivaExamHandIn     *viva_exam_hand_in_new                  (VivaExamFile         *exam);
VivaExamFile       *viva_exam_hand_in_get_exam             (VivaExamHandIn       *self);

/* Before the time: what the student does. */
void                viva_exam_hand_in_set_open_problem     (VivaExamHandIn       *self,
                                                            const char           *problem_id);
void                viva_exam_hand_in_code_seen            (VivaExamHandIn       *self,
                                                            const char           *problem_id,
                                                            const char           *code,
                                                            gboolean              worked);
void                viva_exam_hand_in_code_run             (VivaExamHandIn       *self,
                                                            const char           *problem_id,
                                                            const char           *code);
void                viva_exam_hand_in_read_saved_async     (VivaExamHandIn       *self,
                                                            VivaCodeStore        *store,
                                                            GCancellable         *cancellable,
                                                            GAsyncReadyCallback   callback,
                                                            gpointer              user_data);
gboolean            viva_exam_hand_in_read_saved_finish    (VivaExamHandIn       *self,
                                                            GAsyncResult         *result,
                                                            GError              **error);

/* Any time: the defenses. */
void                viva_exam_hand_in_set_defending        (VivaExamHandIn       *self,
                                                            const char           *problem_id);
const char         *viva_exam_hand_in_get_defending        (VivaExamHandIn       *self);
void                viva_exam_hand_in_defense_ended        (VivaExamHandIn       *self,
                                                            const char           *problem_id,
                                                            gboolean              reported);
void                viva_exam_hand_in_set_report           (VivaExamHandIn       *self,
                                                            const char           *problem_id,
                                                            const char           *path);

/* At and after the time. */
void                viva_exam_hand_in_close                (VivaExamHandIn       *self);
gboolean            viva_exam_hand_in_is_closed            (VivaExamHandIn       *self);
guint               viva_exam_hand_in_get_n_waiting        (VivaExamHandIn       *self);
const char         *viva_exam_hand_in_get_waiting          (VivaExamHandIn       *self,
                                                            guint                 position,
                                                            const char          **code);
gboolean            viva_exam_hand_in_take_next            (VivaExamHandIn       *self,
                                                            char                **problem_id,
                                                            char                **code);
void                viva_exam_hand_in_leave_waiting        (VivaExamHandIn       *self);
gboolean            viva_exam_hand_in_is_active            (VivaExamHandIn       *self);
guint               viva_exam_hand_in_get_position         (VivaExamHandIn       *self);
guint               viva_exam_hand_in_get_total            (VivaExamHandIn       *self);
const char * const *viva_exam_hand_in_get_handed_in        (VivaExamHandIn       *self);

/* What the report page and the Problems list read. */
gboolean            viva_exam_hand_in_is_worked            (VivaExamHandIn       *self,
                                                            const char           *problem_id);
VivaExamHandInState viva_exam_hand_in_get_state            (VivaExamHandIn       *self,
                                                            const char           *problem_id);
const char         *viva_exam_hand_in_get_report           (VivaExamHandIn       *self,
                                                            const char           *problem_id);

/* The sitting's state file. */
void                viva_exam_hand_in_save                 (VivaExamHandIn       *self,
                                                            JsonBuilder          *builder);
void                viva_exam_hand_in_restore              (VivaExamHandIn       *self,
                                                            JsonObject           *root);

G_END_DECLS

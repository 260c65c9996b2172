/* viva-exam-server-client.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "viva-exam-link.h"
#include "viva-remote-error.h"

G_BEGIN_DECLS

/**
 * VivaCodeKind:
 * @VIVA_CODE_KIND_AUTOSAVE: saved while the student types
 * @VIVA_CODE_KIND_RUN: saved at a Run
 * @VIVA_CODE_KIND_SUBMIT: saved at a Submit
 */
typedef enum
{
  VIVA_CODE_KIND_AUTOSAVE,
  VIVA_CODE_KIND_RUN,
  VIVA_CODE_KIND_SUBMIT,
} VivaCodeKind;

const char *viva_code_kind_to_string (VivaCodeKind kind);

#define VIVA_TYPE_EXAM_SERVER_CLIENT (viva_exam_server_client_get_type())

G_DECLARE_FINAL_TYPE (VivaExamServerClient, viva_exam_server_client, VIVA, EXAM_SERVER_CLIENT, GObject)

/* Every call is async and gives its answer as the server's JSON (the
 * shapes of data/viva-server.openapi.json), or a VIVA_REMOTE_ERROR whose
 * message says what to do. The token (a student's or the teacher's) is a
 * property: sign-in sets it. */
VivaExamServerClient *viva_exam_server_client_new             (VivaExamLink          *link);
VivaExamLink         *viva_exam_server_client_get_link        (VivaExamServerClient  *self);
const char           *viva_exam_server_client_get_exam_id     (VivaExamServerClient  *self);
const char           *viva_exam_server_client_get_token       (VivaExamServerClient  *self);
void                  viva_exam_server_client_set_token       (VivaExamServerClient  *self,
                                                               const char            *token);
guint                 viva_exam_server_client_get_timeout     (VivaExamServerClient  *self);
void                  viva_exam_server_client_set_timeout     (VivaExamServerClient  *self,
                                                               guint                  seconds);
gboolean              viva_exam_server_client_get_keep_alive  (VivaExamServerClient  *self);
void                  viva_exam_server_client_set_keep_alive  (VivaExamServerClient  *self,
                                                               gboolean               keep_alive);
guint                 viva_exam_server_client_get_handshakes  (VivaExamServerClient  *self);

/* Student: sign-in gives the token (also set on the client) and the
 * sitting, the same object get_sitting gives. */
void        viva_exam_server_client_sign_in_async       (VivaExamServerClient  *self,
                                                         const char            *student_id,
                                                         const char            *code,
                                                         GCancellable          *cancellable,
                                                         GAsyncReadyCallback    callback,
                                                         gpointer               user_data);
char       *viva_exam_server_client_sign_in_finish      (VivaExamServerClient  *self,
                                                         GAsyncResult          *result,
                                                         JsonObject           **sitting,
                                                         GError               **error);
void        viva_exam_server_client_get_sitting_async   (VivaExamServerClient  *self,
                                                         GCancellable          *cancellable,
                                                         GAsyncReadyCallback    callback,
                                                         gpointer               user_data);
JsonObject *viva_exam_server_client_get_sitting_finish  (VivaExamServerClient  *self,
                                                         GAsyncResult          *result,
                                                         GError               **error);
void        viva_exam_server_client_save_code_async     (VivaExamServerClient  *self,
                                                         const char            *problem_id,
                                                         const char            *code,
                                                         VivaCodeKind           kind,
                                                         GCancellable          *cancellable,
                                                         GAsyncReadyCallback    callback,
                                                         gpointer               user_data);
JsonObject *viva_exam_server_client_save_code_finish    (VivaExamServerClient  *self,
                                                         GAsyncResult          *result,
                                                         GError               **error);
void        viva_exam_server_client_add_timeline_async  (VivaExamServerClient  *self,
                                                         const char            *client_id,
                                                         gint64                 first_seq,
                                                         JsonArray             *events,
                                                         GCancellable          *cancellable,
                                                         GAsyncReadyCallback    callback,
                                                         gpointer               user_data);
gboolean    viva_exam_server_client_add_timeline_finish (VivaExamServerClient  *self,
                                                         GAsyncResult          *result,
                                                         GError               **error);
/* Submit answers {"defense": {...}, "attached": bool}: a problem whose
 * defense runs already is attached to, never started twice. */
void        viva_exam_server_client_submit_async        (VivaExamServerClient  *self,
                                                         const char            *problem_id,
                                                         const char            *code,
                                                         GCancellable          *cancellable,
                                                         GAsyncReadyCallback    callback,
                                                         gpointer               user_data);
JsonObject *viva_exam_server_client_submit_finish       (VivaExamServerClient  *self,
                                                         GAsyncResult          *result,
                                                         GError               **error);
void        viva_exam_server_client_get_defense_async   (VivaExamServerClient  *self,
                                                         const char            *defense_id,
                                                         GCancellable          *cancellable,
                                                         GAsyncReadyCallback    callback,
                                                         gpointer               user_data);
JsonObject *viva_exam_server_client_get_defense_finish  (VivaExamServerClient  *self,
                                                         GAsyncResult          *result,
                                                         GError               **error);
/* @question_seq: the question event's seq, or 0 for the pending one. */
void        viva_exam_server_client_answer_async        (VivaExamServerClient  *self,
                                                         const char            *defense_id,
                                                         const char            *text,
                                                         gint64                 question_seq,
                                                         GCancellable          *cancellable,
                                                         GAsyncReadyCallback    callback,
                                                         gpointer               user_data);
gboolean    viva_exam_server_client_answer_finish       (VivaExamServerClient  *self,
                                                         GAsyncResult          *result,
                                                         GError               **error);

/* Teacher (the token is the teacher token). */
void        viva_exam_server_client_get_status_async    (VivaExamServerClient  *self,
                                                         GCancellable          *cancellable,
                                                         GAsyncReadyCallback    callback,
                                                         gpointer               user_data);
JsonObject *viva_exam_server_client_get_status_finish   (VivaExamServerClient  *self,
                                                         GAsyncResult          *result,
                                                         GError               **error);
void        viva_exam_server_client_get_reports_async   (VivaExamServerClient  *self,
                                                         GCancellable          *cancellable,
                                                         GAsyncReadyCallback    callback,
                                                         gpointer               user_data);
JsonObject *viva_exam_server_client_get_reports_finish  (VivaExamServerClient  *self,
                                                         GAsyncResult          *result,
                                                         GError               **error);
void        viva_exam_server_client_close_exam_async    (VivaExamServerClient  *self,
                                                         GCancellable          *cancellable,
                                                         GAsyncReadyCallback    callback,
                                                         gpointer               user_data);
gboolean    viva_exam_server_client_close_exam_finish   (VivaExamServerClient  *self,
                                                         GAsyncResult          *result,
                                                         GError               **error);
/* Re-grading runs on the server: start one, then ask how far it is. */
void        viva_exam_server_client_regrade_async       (VivaExamServerClient  *self,
                                                         GCancellable          *cancellable,
                                                         GAsyncReadyCallback    callback,
                                                         gpointer               user_data);
JsonObject *viva_exam_server_client_regrade_finish      (VivaExamServerClient  *self,
                                                         GAsyncResult          *result,
                                                         GError               **error);
void        viva_exam_server_client_get_regrade_async   (VivaExamServerClient  *self,
                                                         const char            *regrade_id,
                                                         GCancellable          *cancellable,
                                                         GAsyncReadyCallback    callback,
                                                         gpointer               user_data);
JsonObject *viva_exam_server_client_get_regrade_finish  (VivaExamServerClient  *self,
                                                         GAsyncResult          *result,
                                                         GError               **error);

G_END_DECLS

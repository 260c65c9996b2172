/* viva-exam-server-client-calls.c: the exam server's API, one call each
 *
 * The calls a student's app and a teacher's tools make, each a path, a
 * body and a bound on the answer over the main file's request machinery.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "viva-exam-server-client-private.h"
#include "viva-json-bounded.h"

static void
sign_in_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  VivaExamServerClient *self = g_task_get_source_object (task);
  g_autoptr(JsonObject) answer = NULL;
  g_autoptr(GError) error = NULL;
  JsonNode *token;

  if (!(answer = _viva_exam_server_client_call_json_finish (self, result, sign_in_cb, &error)))
    return g_task_return_error (task, g_steal_pointer (&error));

  token = json_object_get_member (answer, "token");
  if (token == NULL || json_node_get_value_type (token) != G_TYPE_STRING ||
      !json_object_has_member (answer, "sitting") ||
      !JSON_NODE_HOLDS_OBJECT (json_object_get_member (answer, "sitting")))
    return g_task_return_new_error (task, VIVA_REMOTE_ERROR, VIVA_REMOTE_ERROR_PROTOCOL, "%s",
                                    _("The exam server’s answer is not the exam server’s API: check the exam link."));

  viva_exam_server_client_set_token (self, json_node_get_string (token));
  g_task_return_pointer (task, g_steal_pointer (&answer), (GDestroyNotify)json_object_unref);
}

void
viva_exam_server_client_sign_in_async (VivaExamServerClient *self,
                                       const char           *student_id,
                                       const char           *code,
                                       GCancellable         *cancellable,
                                       GAsyncReadyCallback   callback,
                                       gpointer              user_data)
{
  g_autoptr(JsonObject) body = json_object_new ();
  g_autofree char *path = NULL;
  GTask *task;

  g_return_if_fail (VIVA_IS_EXAM_SERVER_CLIENT (self));
  g_return_if_fail (student_id != NULL);
  g_return_if_fail (code != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_exam_server_client_sign_in_async);
  json_object_set_string_member (body, "student_id", student_id);
  json_object_set_string_member (body, "code", code);
  path = _viva_exam_server_client_exam_path (self, "/sign-in");
  /* No old token goes with a sign-in. */
  viva_exam_server_client_set_token (self, NULL);
  _viva_exam_server_client_call_json (self, "POST", path, body, VIVA_REMOTE_MAX_ANSWER, sign_in_cb, cancellable, sign_in_cb, task);
}

/**
 * viva_exam_server_client_sign_in_finish:
 * @sitting: (out) (transfer full) (optional): the sitting
 *
 * Returns: (transfer full): the token
 */
char *
viva_exam_server_client_sign_in_finish (VivaExamServerClient  *self,
                                        GAsyncResult          *result,
                                        JsonObject           **sitting,
                                        GError               **error)
{
  g_autoptr(JsonObject) answer = NULL;

  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  if (!(answer = g_task_propagate_pointer (G_TASK (result), error)))
    return NULL;
  if (sitting != NULL)
    *sitting = json_object_ref (json_object_get_object_member (answer, "sitting"));
  return g_strdup (json_object_get_string_member (answer, "token"));
}

#define SIMPLE_CALL(name, method, max, ...) \
  G_STMT_START { \
    g_autofree char *path = _viva_exam_server_client_exam_path (self, __VA_ARGS__); \
    _viva_exam_server_client_call_json (self, method, path, NULL, max, viva_exam_server_client_##name##_async, \
               cancellable, callback, user_data); \
  } G_STMT_END

void
viva_exam_server_client_get_sitting_async (VivaExamServerClient *self,
                                           GCancellable         *cancellable,
                                           GAsyncReadyCallback   callback,
                                           gpointer              user_data)
{
  g_return_if_fail (VIVA_IS_EXAM_SERVER_CLIENT (self));

  SIMPLE_CALL (get_sitting, "GET", VIVA_REMOTE_MAX_ANSWER, "/sitting");
}

/**
 * viva_exam_server_client_get_sitting_finish:
 *
 * Returns: (transfer full): the sitting: `exam`, `student`, `state`,
 *   `clock` {now, started_at, deadline, remaining_s}, `problems` (each
 *   with its public parts, its last saved `code` and its `defense`)
 */
JsonObject *
viva_exam_server_client_get_sitting_finish (VivaExamServerClient  *self,
                                            GAsyncResult          *result,
                                            GError               **error)
{
  return _viva_exam_server_client_call_json_finish (self, result, viva_exam_server_client_get_sitting_async, error);
}

void
viva_exam_server_client_save_code_async (VivaExamServerClient *self,
                                         const char           *problem_id,
                                         const char           *code,
                                         VivaCodeKind          kind,
                                         GCancellable         *cancellable,
                                         GAsyncReadyCallback   callback,
                                         gpointer              user_data)
{
  g_autoptr(JsonObject) body = json_object_new ();
  g_autofree char *problem = NULL;
  g_autofree char *path = NULL;

  g_return_if_fail (VIVA_IS_EXAM_SERVER_CLIENT (self));
  g_return_if_fail (problem_id != NULL);
  g_return_if_fail (code != NULL);

  problem = g_uri_escape_string (problem_id, NULL, FALSE);
  path = _viva_exam_server_client_exam_path (self, "/sitting/problems/%s/code", problem);
  json_object_set_string_member (body, "code", code);
  json_object_set_string_member (body, "kind", viva_code_kind_to_string (kind));
  _viva_exam_server_client_call_json (self, "PUT", path, body, VIVA_REMOTE_MAX_ANSWER, viva_exam_server_client_save_code_async,
             cancellable, callback, user_data);
}

/**
 * viva_exam_server_client_save_code_finish:
 *
 * Returns: (transfer full): `seq`, `saved_at` (the server's time, ms)
 */
JsonObject *
viva_exam_server_client_save_code_finish (VivaExamServerClient  *self,
                                          GAsyncResult          *result,
                                          GError               **error)
{
  return _viva_exam_server_client_call_json_finish (self, result, viva_exam_server_client_save_code_async, error);
}

void
viva_exam_server_client_add_timeline_async (VivaExamServerClient *self,
                                            JsonArray            *events,
                                            GCancellable         *cancellable,
                                            GAsyncReadyCallback   callback,
                                            gpointer              user_data)
{
  g_autoptr(JsonObject) body = json_object_new ();
  g_autofree char *path = NULL;

  g_return_if_fail (VIVA_IS_EXAM_SERVER_CLIENT (self));
  g_return_if_fail (events != NULL);

  path = _viva_exam_server_client_exam_path (self, "/sitting/timeline");
  json_object_set_array_member (body, "events", json_array_ref (events));
  _viva_exam_server_client_call_json (self, "POST", path, body, VIVA_REMOTE_MAX_ANSWER, viva_exam_server_client_add_timeline_async,
             cancellable, callback, user_data);
}

gboolean
viva_exam_server_client_add_timeline_finish (VivaExamServerClient  *self,
                                             GAsyncResult          *result,
                                             GError               **error)
{
  g_autoptr(JsonObject) answer = _viva_exam_server_client_call_json_finish (self, result, viva_exam_server_client_add_timeline_async, error);

  return answer != NULL;
}

void
viva_exam_server_client_submit_async (VivaExamServerClient *self,
                                      const char           *problem_id,
                                      const char           *code,
                                      GCancellable         *cancellable,
                                      GAsyncReadyCallback   callback,
                                      gpointer              user_data)
{
  g_autoptr(JsonObject) body = json_object_new ();
  g_autofree char *problem = NULL;
  g_autofree char *path = NULL;

  g_return_if_fail (VIVA_IS_EXAM_SERVER_CLIENT (self));
  g_return_if_fail (problem_id != NULL);
  g_return_if_fail (code != NULL);

  problem = g_uri_escape_string (problem_id, NULL, FALSE);
  path = _viva_exam_server_client_exam_path (self, "/sitting/problems/%s/submit", problem);
  json_object_set_string_member (body, "code", code);
  _viva_exam_server_client_call_json (self, "POST", path, body, VIVA_REMOTE_MAX_ANSWER, viva_exam_server_client_submit_async,
             cancellable, callback, user_data);
}

/**
 * viva_exam_server_client_submit_finish:
 *
 * Returns: (transfer full): `defense` {id, problem, state, last_seq,
 *   pending_question, question_seq} and `attached`
 */
JsonObject *
viva_exam_server_client_submit_finish (VivaExamServerClient  *self,
                                       GAsyncResult          *result,
                                       GError               **error)
{
  g_autoptr(JsonObject) answer = _viva_exam_server_client_call_json_finish (self, result, viva_exam_server_client_submit_async, error);

  if (answer != NULL &&
      (!json_object_has_member (answer, "defense") ||
       !JSON_NODE_HOLDS_OBJECT (json_object_get_member (answer, "defense")) ||
       json_object_get_string_member_with_default (json_object_get_object_member (answer, "defense"), "id", NULL) == NULL))
    {
      g_set_error_literal (error, VIVA_REMOTE_ERROR, VIVA_REMOTE_ERROR_PROTOCOL,
                           _("The exam server’s answer is not the exam server’s API: check the exam link."));
      return NULL;
    }
  return g_steal_pointer (&answer);
}

void
viva_exam_server_client_get_defense_async (VivaExamServerClient *self,
                                           const char           *defense_id,
                                           GCancellable         *cancellable,
                                           GAsyncReadyCallback   callback,
                                           gpointer              user_data)
{
  g_autofree char *defense = NULL;

  g_return_if_fail (VIVA_IS_EXAM_SERVER_CLIENT (self));
  g_return_if_fail (defense_id != NULL);

  defense = g_uri_escape_string (defense_id, NULL, FALSE);
  SIMPLE_CALL (get_defense, "GET", VIVA_REMOTE_MAX_ANSWER, "/defenses/%s", defense);
}

JsonObject *
viva_exam_server_client_get_defense_finish (VivaExamServerClient  *self,
                                            GAsyncResult          *result,
                                            GError               **error)
{
  return _viva_exam_server_client_call_json_finish (self, result, viva_exam_server_client_get_defense_async, error);
}

void
viva_exam_server_client_answer_async (VivaExamServerClient *self,
                                      const char           *defense_id,
                                      const char           *text,
                                      gint64                question_seq,
                                      GCancellable         *cancellable,
                                      GAsyncReadyCallback   callback,
                                      gpointer              user_data)
{
  g_autoptr(JsonObject) body = json_object_new ();
  g_autofree char *defense = NULL;
  g_autofree char *path = NULL;

  g_return_if_fail (VIVA_IS_EXAM_SERVER_CLIENT (self));
  g_return_if_fail (defense_id != NULL);
  g_return_if_fail (text != NULL);

  defense = g_uri_escape_string (defense_id, NULL, FALSE);
  path = _viva_exam_server_client_exam_path (self, "/defenses/%s/answer", defense);
  json_object_set_string_member (body, "text", text);
  if (question_seq > 0)
    json_object_set_int_member (body, "question_seq", question_seq);
  _viva_exam_server_client_call_json (self, "POST", path, body, VIVA_REMOTE_MAX_ANSWER, viva_exam_server_client_answer_async,
             cancellable, callback, user_data);
}

gboolean
viva_exam_server_client_answer_finish (VivaExamServerClient  *self,
                                       GAsyncResult          *result,
                                       GError               **error)
{
  g_autoptr(JsonObject) answer = _viva_exam_server_client_call_json_finish (self, result, viva_exam_server_client_answer_async, error);

  return answer != NULL;
}

void
viva_exam_server_client_get_status_async (VivaExamServerClient *self,
                                          GCancellable         *cancellable,
                                          GAsyncReadyCallback   callback,
                                          gpointer              user_data)
{
  g_return_if_fail (VIVA_IS_EXAM_SERVER_CLIENT (self));

  SIMPLE_CALL (get_status, "GET", VIVA_REMOTE_MAX_ANSWER, "/status");
}

/**
 * viva_exam_server_client_get_status_finish:
 *
 * Returns: (transfer full): `exam`, `title`, `closed`, `now`, `students`
 *   (each `student_id`, `name`, `state`, `sign_ins`, `saved`, `reports`,
 *   `defenses`)
 */
JsonObject *
viva_exam_server_client_get_status_finish (VivaExamServerClient  *self,
                                           GAsyncResult          *result,
                                           GError               **error)
{
  return _viva_exam_server_client_call_json_finish (self, result, viva_exam_server_client_get_status_async, error);
}

void
viva_exam_server_client_get_reports_async (VivaExamServerClient *self,
                                           GCancellable         *cancellable,
                                           GAsyncReadyCallback   callback,
                                           gpointer              user_data)
{
  g_return_if_fail (VIVA_IS_EXAM_SERVER_CLIENT (self));

  SIMPLE_CALL (get_reports, "GET", VIVA_REMOTE_MAX_REPORTS, "/reports");
}

/**
 * viva_exam_server_client_get_reports_finish:
 *
 * Returns: (transfer full): `reports` (each `defense`, `student_id`,
 *   `problem`, `report` [the exact text signed], `signature` [base64
 *   Ed25519], `created_at`), `signature_algorithm`, `public_key` (PEM)
 */
JsonObject *
viva_exam_server_client_get_reports_finish (VivaExamServerClient  *self,
                                            GAsyncResult          *result,
                                            GError               **error)
{
  return _viva_exam_server_client_call_json_finish (self, result, viva_exam_server_client_get_reports_async, error);
}

void
viva_exam_server_client_close_exam_async (VivaExamServerClient *self,
                                          GCancellable         *cancellable,
                                          GAsyncReadyCallback   callback,
                                          gpointer              user_data)
{
  g_return_if_fail (VIVA_IS_EXAM_SERVER_CLIENT (self));

  SIMPLE_CALL (close_exam, "POST", VIVA_REMOTE_MAX_ANSWER, "/close");
}

gboolean
viva_exam_server_client_close_exam_finish (VivaExamServerClient  *self,
                                           GAsyncResult          *result,
                                           GError               **error)
{
  g_autoptr(JsonObject) answer = _viva_exam_server_client_call_json_finish (self, result, viva_exam_server_client_close_exam_async, error);

  return answer != NULL;
}

/* viva-exam-server-client-calls.c: the exam server's API, one route each
 *
 * The calls a student's app and a teacher's tools make are one table of
 * routes: a method, a path under the exam, whose token goes with it, a
 * bound on the answer and the check its answer must pass. Each public
 * call only builds its body and names its route; the main file's request
 * machinery does the rest. A new call is a row and a pair of functions.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "viva-exam-server-client-private.h"

typedef enum
{
  /* The client's token goes with it: a student's, or the teacher's. */
  AUTH_TOKEN,
  /* No old token goes with it: the call is where a token comes from. */
  AUTH_NONE,
} Auth;

/* Whether @answer is the API's answer for the route; may keep what it
 * needs of it on the client. */
typedef gboolean (*ReplyCheck) (VivaExamServerClient *self,
                                JsonObject           *answer);

typedef struct
{
  const char *method;
  /* Under /api/v1/exams/<exam>; "{id}" stands for the call's escaped id. */
  const char *path;
  Auth        auth;
  gsize       max_bytes;
  ReplyCheck  check;
} Route;

static gboolean
check_sign_in (VivaExamServerClient *self,
               JsonObject           *answer)
{
  JsonNode *token = json_object_get_member (answer, "token");

  if (token == NULL || json_node_get_value_type (token) != G_TYPE_STRING ||
      !json_object_has_member (answer, "sitting") ||
      !JSON_NODE_HOLDS_OBJECT (json_object_get_member (answer, "sitting")))
    return FALSE;

  viva_exam_server_client_set_token (self, json_node_get_string (token));
  return TRUE;
}

static gboolean
check_submit (VivaExamServerClient *self,
              JsonObject           *answer)
{
  return json_object_has_member (answer, "defense") &&
         JSON_NODE_HOLDS_OBJECT (json_object_get_member (answer, "defense")) &&
         json_object_get_string_member_with_default (json_object_get_object_member (answer, "defense"), "id", NULL) != NULL;
}

/* A re-grade names itself and says whether it finished. */
static gboolean
check_regrade (VivaExamServerClient *self,
               JsonObject           *answer)
{
  return json_object_get_string_member_with_default (answer, "id", NULL) != NULL &&
         json_object_has_member (answer, "finished") &&
         json_node_get_value_type (json_object_get_member (answer, "finished")) == G_TYPE_BOOLEAN &&
         json_object_has_member (answer, "items") &&
         JSON_NODE_HOLDS_ARRAY (json_object_get_member (answer, "items"));
}

typedef enum
{
  SIGN_IN,
  GET_SITTING,
  SAVE_CODE,
  ADD_TIMELINE,
  SUBMIT,
  GET_DEFENSE,
  ANSWER,
  GET_STATUS,
  GET_REPORTS,
  CLOSE_EXAM,
  START_REGRADE,
  GET_REGRADE,
} RouteId;

static const Route routes[] = {
  /* Student */
  [SIGN_IN]       = { "POST", "/sign-in",                      AUTH_NONE,  VIVA_REMOTE_MAX_ANSWER,  check_sign_in },
  [GET_SITTING]   = { "GET",  "/sitting",                      AUTH_TOKEN, VIVA_REMOTE_MAX_ANSWER,  NULL },
  [SAVE_CODE]     = { "PUT",  "/sitting/problems/{id}/code",   AUTH_TOKEN, VIVA_REMOTE_MAX_ANSWER,  NULL },
  [ADD_TIMELINE]  = { "POST", "/sitting/timeline",             AUTH_TOKEN, VIVA_REMOTE_MAX_ANSWER,  NULL },
  [SUBMIT]        = { "POST", "/sitting/problems/{id}/submit", AUTH_TOKEN, VIVA_REMOTE_MAX_ANSWER,  check_submit },
  [GET_DEFENSE]   = { "GET",  "/defenses/{id}",                AUTH_TOKEN, VIVA_REMOTE_MAX_ANSWER,  NULL },
  [ANSWER]        = { "POST", "/defenses/{id}/answer",         AUTH_TOKEN, VIVA_REMOTE_MAX_ANSWER,  NULL },
  /* Teacher */
  [GET_STATUS]    = { "GET",  "/status",                       AUTH_TOKEN, VIVA_REMOTE_MAX_ANSWER,  NULL },
  [GET_REPORTS]   = { "GET",  "/reports",                      AUTH_TOKEN, VIVA_REMOTE_MAX_REPORTS, NULL },
  [CLOSE_EXAM]    = { "POST", "/close",                        AUTH_TOKEN, VIVA_REMOTE_MAX_ANSWER,  NULL },
  [START_REGRADE] = { "POST", "/regrades",                     AUTH_TOKEN, VIVA_REMOTE_MAX_ANSWER,  check_regrade },
  [GET_REGRADE]   = { "GET",  "/regrades/{id}",                AUTH_TOKEN, VIVA_REMOTE_MAX_ANSWER,  check_regrade },
};

static void
route_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  VivaExamServerClient *self = VIVA_EXAM_SERVER_CLIENT (object);
  const Route *route = g_task_get_task_data (task);
  g_autoptr(JsonObject) answer = NULL;
  g_autoptr(GError) error = NULL;

  if (!(answer = _viva_exam_server_client_call_json_finish (self, result, (gpointer)route, &error)))
    return g_task_return_error (task, g_steal_pointer (&error));

  if (route->check != NULL && !route->check (self, answer))
    return g_task_return_new_error (task, VIVA_REMOTE_ERROR, VIVA_REMOTE_ERROR_PROTOCOL, "%s",
                                    _("The exam server’s answer is not the exam server’s API: check the exam link."));

  g_task_return_pointer (task, g_steal_pointer (&answer), (GDestroyNotify)json_object_unref);
}

/* Calls @route_id; @id (escaped here) fills its "{id}". */
static void
route_call (VivaExamServerClient *self,
            RouteId               route_id,
            const char           *id,
            JsonObject           *body,
            GCancellable         *cancellable,
            GAsyncReadyCallback   callback,
            gpointer              user_data)
{
  const Route *route = &routes[route_id];
  const char *hole = strstr (route->path, "{id}");
  g_autofree char *path = NULL;
  GTask *task;

  g_assert ((hole != NULL) == (id != NULL));

  task = g_task_new (self, cancellable, callback, user_data);
  /* The route is the task's tag: a finish for another call fails. */
  g_task_set_source_tag (task, (gpointer)route);
  g_task_set_task_data (task, (gpointer)route, NULL);

  if (hole != NULL)
    {
      g_autofree char *escaped = g_uri_escape_string (id, NULL, FALSE);

      path = _viva_exam_server_client_exam_path (self, "%.*s%s%s", (int)(hole - route->path), route->path,
                                                 escaped, hole + strlen ("{id}"));
    }
  else
    path = _viva_exam_server_client_exam_path (self, "%s", route->path);

  if (route->auth == AUTH_NONE)
    viva_exam_server_client_set_token (self, NULL);

  _viva_exam_server_client_call_json (self, route->method, path, body, route->max_bytes, (gpointer)route,
                                      cancellable, route_cb, task);
}

static JsonObject *
route_finish (VivaExamServerClient  *self,
              GAsyncResult          *result,
              RouteId                route_id,
              GError               **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == &routes[route_id], NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static gboolean
route_finish_ok (VivaExamServerClient  *self,
                 GAsyncResult          *result,
                 RouteId                route_id,
                 GError               **error)
{
  g_autoptr(JsonObject) answer = route_finish (self, result, route_id, error);

  return answer != NULL;
}

/* Student */

void
viva_exam_server_client_sign_in_async (VivaExamServerClient *self,
                                       const char           *student_id,
                                       const char           *code,
                                       GCancellable         *cancellable,
                                       GAsyncReadyCallback   callback,
                                       gpointer              user_data)
{
  g_autoptr(JsonObject) body = json_object_new ();

  g_return_if_fail (VIVA_IS_EXAM_SERVER_CLIENT (self));
  g_return_if_fail (student_id != NULL);
  g_return_if_fail (code != NULL);

  json_object_set_string_member (body, "student_id", student_id);
  json_object_set_string_member (body, "code", code);
  route_call (self, SIGN_IN, NULL, body, cancellable, callback, user_data);
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

  if (!(answer = route_finish (self, result, SIGN_IN, error)))
    return NULL;
  if (sitting != NULL)
    *sitting = json_object_ref (json_object_get_object_member (answer, "sitting"));
  return g_strdup (json_object_get_string_member (answer, "token"));
}

void
viva_exam_server_client_get_sitting_async (VivaExamServerClient *self,
                                           GCancellable         *cancellable,
                                           GAsyncReadyCallback   callback,
                                           gpointer              user_data)
{
  g_return_if_fail (VIVA_IS_EXAM_SERVER_CLIENT (self));

  route_call (self, GET_SITTING, NULL, NULL, cancellable, callback, user_data);
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
  return route_finish (self, result, GET_SITTING, error);
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

  g_return_if_fail (VIVA_IS_EXAM_SERVER_CLIENT (self));
  g_return_if_fail (problem_id != NULL);
  g_return_if_fail (code != NULL);

  json_object_set_string_member (body, "code", code);
  json_object_set_string_member (body, "kind", viva_code_kind_to_string (kind));
  route_call (self, SAVE_CODE, problem_id, body, cancellable, callback, user_data);
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
  return route_finish (self, result, SAVE_CODE, error);
}

/**
 * viva_exam_server_client_add_timeline_async:
 * @client_id: (nullable): this PC's id for its events (32 hex digits)
 * @first_seq: with @client_id, this PC's number of the first event, the
 *   others following one by one: the server takes each number once, so a
 *   batch sent again counts once
 */
void
viva_exam_server_client_add_timeline_async (VivaExamServerClient *self,
                                            const char           *client_id,
                                            gint64                first_seq,
                                            JsonArray            *events,
                                            GCancellable         *cancellable,
                                            GAsyncReadyCallback   callback,
                                            gpointer              user_data)
{
  g_autoptr(JsonObject) body = json_object_new ();

  g_return_if_fail (VIVA_IS_EXAM_SERVER_CLIENT (self));
  g_return_if_fail (events != NULL);
  g_return_if_fail (client_id == NULL || first_seq > 0);

  if (client_id != NULL)
    {
      json_object_set_string_member (body, "client", client_id);
      json_object_set_int_member (body, "first_seq", first_seq);
    }
  json_object_set_array_member (body, "events", json_array_ref (events));
  route_call (self, ADD_TIMELINE, NULL, body, cancellable, callback, user_data);
}

gboolean
viva_exam_server_client_add_timeline_finish (VivaExamServerClient  *self,
                                             GAsyncResult          *result,
                                             GError               **error)
{
  return route_finish_ok (self, result, ADD_TIMELINE, error);
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

  g_return_if_fail (VIVA_IS_EXAM_SERVER_CLIENT (self));
  g_return_if_fail (problem_id != NULL);
  g_return_if_fail (code != NULL);

  json_object_set_string_member (body, "code", code);
  route_call (self, SUBMIT, problem_id, body, cancellable, callback, user_data);
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
  return route_finish (self, result, SUBMIT, error);
}

void
viva_exam_server_client_get_defense_async (VivaExamServerClient *self,
                                           const char           *defense_id,
                                           GCancellable         *cancellable,
                                           GAsyncReadyCallback   callback,
                                           gpointer              user_data)
{
  g_return_if_fail (VIVA_IS_EXAM_SERVER_CLIENT (self));
  g_return_if_fail (defense_id != NULL);

  route_call (self, GET_DEFENSE, defense_id, NULL, cancellable, callback, user_data);
}

JsonObject *
viva_exam_server_client_get_defense_finish (VivaExamServerClient  *self,
                                            GAsyncResult          *result,
                                            GError               **error)
{
  return route_finish (self, result, GET_DEFENSE, error);
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

  g_return_if_fail (VIVA_IS_EXAM_SERVER_CLIENT (self));
  g_return_if_fail (defense_id != NULL);
  g_return_if_fail (text != NULL);

  json_object_set_string_member (body, "text", text);
  if (question_seq > 0)
    json_object_set_int_member (body, "question_seq", question_seq);
  route_call (self, ANSWER, defense_id, body, cancellable, callback, user_data);
}

gboolean
viva_exam_server_client_answer_finish (VivaExamServerClient  *self,
                                       GAsyncResult          *result,
                                       GError               **error)
{
  return route_finish_ok (self, result, ANSWER, error);
}

/* Teacher (the token is the teacher token) */

void
viva_exam_server_client_get_status_async (VivaExamServerClient *self,
                                          GCancellable         *cancellable,
                                          GAsyncReadyCallback   callback,
                                          gpointer              user_data)
{
  g_return_if_fail (VIVA_IS_EXAM_SERVER_CLIENT (self));

  route_call (self, GET_STATUS, NULL, NULL, cancellable, callback, user_data);
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
  return route_finish (self, result, GET_STATUS, error);
}

void
viva_exam_server_client_get_reports_async (VivaExamServerClient *self,
                                           GCancellable         *cancellable,
                                           GAsyncReadyCallback   callback,
                                           gpointer              user_data)
{
  g_return_if_fail (VIVA_IS_EXAM_SERVER_CLIENT (self));

  route_call (self, GET_REPORTS, NULL, NULL, cancellable, callback, user_data);
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
  return route_finish (self, result, GET_REPORTS, error);
}

void
viva_exam_server_client_close_exam_async (VivaExamServerClient *self,
                                          GCancellable         *cancellable,
                                          GAsyncReadyCallback   callback,
                                          gpointer              user_data)
{
  g_return_if_fail (VIVA_IS_EXAM_SERVER_CLIENT (self));

  route_call (self, CLOSE_EXAM, NULL, NULL, cancellable, callback, user_data);
}

gboolean
viva_exam_server_client_close_exam_finish (VivaExamServerClient  *self,
                                           GAsyncResult          *result,
                                           GError               **error)
{
  return route_finish_ok (self, result, CLOSE_EXAM, error);
}

/* Re-grading on the server: every report graded again by its grading
 * pool from the code the server holds, each result a new signed revision
 * of the report. */

void
viva_exam_server_client_regrade_async (VivaExamServerClient *self,
                                       GCancellable         *cancellable,
                                       GAsyncReadyCallback   callback,
                                       gpointer              user_data)
{
  g_return_if_fail (VIVA_IS_EXAM_SERVER_CLIENT (self));

  route_call (self, START_REGRADE, NULL, NULL, cancellable, callback, user_data);
}

/**
 * viva_exam_server_client_regrade_finish:
 *
 * Returns: (transfer full): the re-grade as
 *   viva_exam_server_client_get_regrade_finish() gives it
 */
JsonObject *
viva_exam_server_client_regrade_finish (VivaExamServerClient  *self,
                                        GAsyncResult          *result,
                                        GError               **error)
{
  return route_finish (self, result, START_REGRADE, error);
}

void
viva_exam_server_client_get_regrade_async (VivaExamServerClient *self,
                                           const char           *regrade_id,
                                           GCancellable         *cancellable,
                                           GAsyncReadyCallback   callback,
                                           gpointer              user_data)
{
  g_return_if_fail (VIVA_IS_EXAM_SERVER_CLIENT (self));
  g_return_if_fail (regrade_id != NULL);

  route_call (self, GET_REGRADE, regrade_id, NULL, cancellable, callback, user_data);
}

/**
 * viva_exam_server_client_get_regrade_finish:
 *
 * Returns: (transfer full): `id`, `total`, `done`, `failed`, `finished`,
 *   `items` (each `defense`, `student_id`, `problem`, `state`
 *   waiting/running/done/failed, with `revision`, `passed`, `total` once
 *   done, `error` once failed)
 */
JsonObject *
viva_exam_server_client_get_regrade_finish (VivaExamServerClient  *self,
                                            GAsyncResult          *result,
                                            GError               **error)
{
  return route_finish (self, result, GET_REGRADE, error);
}

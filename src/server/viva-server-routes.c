/* viva-server-routes.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "viva-server-api.h"
#include "viva-server-clock.h"
#include "viva-server-defenses.h"
#include "viva-server-keys.h"
#include "viva-server-limits.h"
#include "viva-server-routes-private.h"
#include "viva-server-sitting.h"

/* The API's routes: one table, which the server serves, `viva-server
 * routes` prints and tests/server checks against the OpenAPI document
 * (data/viva-server.openapi.json). The sitting's handlers are here; the
 * defense's in viva-server-routes-defense.c, the teacher's in
 * viva-server-routes-teacher.c. */

#define MAX_CODE_BYTES (512 * 1024)
#define MAX_TIMELINE_EVENTS 200

static void
health (VivaServerRequest *request)
{
  g_autoptr(JsonObject) object = json_object_new ();

  json_object_set_string_member (object, "server", "viva-server");
  json_object_set_string_member (object, "version", PACKAGE_VERSION);
  json_object_set_int_member (object, "api", 1);
  json_object_set_int_member (object, "now", viva_server_store_now ());
  viva_server_reply_json (request, SOUP_STATUS_OK, object);
}

/* What a student typed as the code, the way the card prints it: capitals,
 * with or without the dash and spaces. */
static char *
normalize_code (const char *code)
{
  GString *out = g_string_new (NULL);

  for (const char *p = code; *p; p++)
    if (*p != '-' && *p != ' ')
      g_string_append_c (out, g_ascii_toupper (*p));
  return g_string_free (out, FALSE);
}

const char *
_viva_server_body_string (VivaServerRequest *request,
                          const char        *member,
                          gsize              max_bytes)
{
  JsonNode *node = json_object_get_member (request->body, member);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    {
      viva_server_reply_error (request, SOUP_STATUS_BAD_REQUEST, "bad_request",
                               _("The body needs “%s” as text."), member);
      return NULL;
    }
  if (strlen (json_node_get_string (node)) > max_bytes)
    {
      viva_server_reply_error (request, SOUP_STATUS_REQUEST_ENTITY_TOO_LARGE, "too_large",
                               _("“%s” is too long."), member);
      return NULL;
    }
  return json_node_get_string (node);
}

static void
sign_in (VivaServerRequest *request)
{
  VivaServerStore *store = viva_server_api_get_store (request->api);
  const char *exam_id = g_hash_table_lookup (request->params, "exam");
  const char *student_id, *code;
  g_autofree char *limit_key = NULL;
  g_autofree char *given = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *token = NULL;
  g_autofree char *token_hash = NULL;
  g_autoptr(JsonObject) student = NULL;
  g_autoptr(JsonObject) exam_row = NULL;
  g_autoptr(JsonObject) object = json_object_new ();
  g_autoptr(JsonObject) sitting = NULL;
  g_autoptr(GError) error = NULL;
  VivaExamFile *exam;
  gint64 time_limit_ms = 0;
  guint retry = 0;

  if (!(student_id = _viva_server_body_string (request, "student_id", 64)) ||
      !(code = _viva_server_body_string (request, "code", 64)))
    return;

  limit_key = g_strconcat (exam_id, "/", student_id, NULL);
  if (!viva_server_limits_allow_sign_in (_viva_server_api_get_limits (request->api), request->client,
                                         limit_key, &retry))
    {
      g_autofree char *seconds = g_strdup_printf ("%u", retry);

      soup_message_headers_replace (soup_server_message_get_response_headers (request->msg), "Retry-After", seconds);
      viva_server_reply_error (request, VIVA_SERVER_STATUS_TOO_MANY_REQUESTS, "rate_limited",
                               _("Too many sign-in tries: wait %u seconds, then type the code from your seat card again."),
                               retry);
      return;
    }

  if (!(exam_row = viva_server_store_get_exam (store, exam_id, &error)))
    {
      if (error != NULL)
        viva_server_reply_db_error (request, error);
      else
        viva_server_reply_error (request, SOUP_STATUS_NOT_FOUND, "no_exam", "%s",
                                 _("This server holds no such exam: check the exam link."));
      return;
    }

  student = viva_server_store_get_student (store, exam_id, student_id, &error);
  if (error != NULL)
    {
      viva_server_reply_db_error (request, error);
      return;
    }

  given = normalize_code (code);
  expected = normalize_code (student ? json_object_get_string_member (student, "seat_code") : "-");
  /* An unknown student and a wrong code are told the same thing, so the
   * answer does not say who is on the roster. */
  if (student == NULL || !viva_server_keys_equal (given, expected))
    {
      viva_server_reply_error (request, SOUP_STATUS_UNAUTHORIZED, "wrong_code", "%s",
                               _("That student id and code do not match: check both against your seat card."));
      return;
    }

  if (!json_object_get_null_member (exam_row, "closed_at"))
    {
      viva_server_reply_error (request, SOUP_STATUS_FORBIDDEN, "exam_closed", "%s",
                               _("This exam is closed: ask the teacher."));
      return;
    }

  if (!(exam = viva_server_api_get_exam (request->api, exam_id, &error)))
    {
      viva_server_reply_db_error (request, error);
      return;
    }
  if (viva_exam_file_get_time_limit (exam) > 0)
    time_limit_ms = (gint64)viva_exam_file_get_time_limit (exam) * 1000;

  token = viva_server_keys_random_token ();
  token_hash = viva_server_keys_hash_token (token);
  if (!viva_server_store_sign_in (store, exam_id, student_id, token_hash, time_limit_ms, &error))
    {
      viva_server_reply_db_error (request, error);
      return;
    }

  /* The earlier PC's streams end with a "signed_out" event. */
  _viva_server_streams_sign_out (request->api, exam_id, student_id);

  /* The first sign-in begins the sitting: its clock runs from now. */
  if (viva_server_api_get_clock (request->api) != NULL &&
      !viva_server_clock_get_sitting (viva_server_api_get_clock (request->api), exam_id, student_id, &error))
    {
      viva_server_reply_db_error (request, error);
      return;
    }

  if (!(sitting = viva_server_sitting_describe (request->api, exam_id, student_id, &error)))
    {
      viva_server_reply_db_error (request, error);
      return;
    }

  json_object_set_string_member (object, "token", token);
  json_object_set_object_member (object, "sitting", g_steal_pointer (&sitting));
  viva_server_reply_json (request, SOUP_STATUS_OK, object);
}

static void
get_sitting (VivaServerRequest *request)
{
  g_autoptr(JsonObject) sitting = NULL;
  g_autoptr(GError) error = NULL;

  if (!(sitting = viva_server_sitting_describe (request->api, request->exam_id, request->student_id, &error)))
    {
      viva_server_reply_db_error (request, error);
      return;
    }
  viva_server_reply_json (request, SOUP_STATUS_OK, sitting);
}

/* Replies and returns FALSE when the student may not change their sitting
 * any more (handed in, or past the server's deadline). */
gboolean
_viva_server_check_open (VivaServerRequest *request)
{
  VivaServerStore *store = viva_server_api_get_store (request->api);
  g_autoptr(JsonObject) sitting = NULL;
  g_autoptr(GError) error = NULL;
  gint64 deadline;

  if (!(sitting = viva_server_store_get_sitting (store, request->exam_id, request->student_id, &error)))
    {
      viva_server_reply_db_error (request, error);
      return FALSE;
    }

  deadline = json_object_get_int_member (sitting, "deadline");
  if (!json_object_get_null_member (sitting, "handed_in_at") ||
      (deadline > 0 && viva_server_store_now () >= deadline))
    {
      viva_server_reply_error (request, SOUP_STATUS_CONFLICT, "time_up", "%s",
                               _("The time is up and your work was handed in: nothing more can be saved."));
      return FALSE;
    }
  return TRUE;
}

/* Replies and returns FALSE when the path's problem is not one of the
 * exam's. */
gboolean
_viva_server_check_problem (VivaServerRequest *request,
                            const char        *problem_id)
{
  g_autoptr(GError) error = NULL;
  VivaExamFile *exam = viva_server_api_get_exam (request->api, request->exam_id, &error);

  if (exam == NULL)
    {
      viva_server_reply_db_error (request, error);
      return FALSE;
    }
  if (!viva_exam_file_has_problem (exam, problem_id) ||
      viva_pack_find_problem (viva_exam_file_get_pack (exam), problem_id) == NULL)
    {
      viva_server_reply_error (request, SOUP_STATUS_NOT_FOUND, "no_problem", "%s",
                               _("This exam has no such problem."));
      return FALSE;
    }
  return TRUE;
}

static void
save_code (VivaServerRequest *request)
{
  VivaServerStore *store = viva_server_api_get_store (request->api);
  const char *problem_id = g_hash_table_lookup (request->params, "problem");
  static const char * const kinds[] = { "autosave", "run", "submit", NULL };
  g_autoptr(JsonObject) object = json_object_new ();
  g_autoptr(GError) error = NULL;
  const char *code, *kind;
  gint64 seq;

  if (!(code = _viva_server_body_string (request, "code", MAX_CODE_BYTES)) ||
      !(kind = _viva_server_body_string (request, "kind", 16)))
    return;
  if (!g_strv_contains (kinds, kind))
    {
      viva_server_reply_error (request, SOUP_STATUS_BAD_REQUEST, "bad_request", "%s",
                               _("“kind” is “autosave”, “run” or “submit”."));
      return;
    }
  if (!_viva_server_check_problem (request, problem_id) || !_viva_server_check_open (request))
    return;

  if ((seq = viva_server_store_save_code (store, request->exam_id, request->student_id, problem_id,
                                          kind, code, &error)) < 0)
    {
      viva_server_reply_db_error (request, error);
      return;
    }
  if (viva_server_api_get_clock (request->api) != NULL)
    viva_server_clock_code_saved (viva_server_api_get_clock (request->api), request->exam_id,
                                  request->student_id, problem_id, kind, code);

  json_object_set_int_member (object, "seq", seq);
  json_object_set_int_member (object, "saved_at", viva_server_store_now ());
  viva_server_reply_json (request, SOUP_STATUS_OK, object);
}

static void
add_timeline (VivaServerRequest *request)
{
  VivaServerStore *store = viva_server_api_get_store (request->api);
  JsonNode *node = json_object_get_member (request->body, "events");
  g_autoptr(JsonObject) object = json_object_new ();
  g_autoptr(GError) error = NULL;
  const char *client_id = NULL;
  gint64 first_seq = 0;
  VivaExamFile *exam;
  JsonArray *events;
  gint64 seq;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node) ||
      json_array_get_length ((events = json_node_get_array (node))) == 0 ||
      json_array_get_length (events) > MAX_TIMELINE_EVENTS)
    {
      viva_server_reply_error (request, SOUP_STATUS_BAD_REQUEST, "bad_request",
                               _("The body needs “events”: a list of 1 to %u timeline events."), MAX_TIMELINE_EVENTS);
      return;
    }

  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonNode *element = json_array_get_element (events, i);
      JsonObject *event;
      JsonNode *kind;

      if (!JSON_NODE_HOLDS_OBJECT (element) ||
          !(kind = json_object_get_member ((event = json_node_get_object (element)), "kind")) ||
          !JSON_NODE_HOLDS_VALUE (kind) || json_node_get_value_type (kind) != G_TYPE_STRING)
        {
          viva_server_reply_error (request, SOUP_STATUS_BAD_REQUEST, "bad_request",
                                   _("Timeline event %u is not an object with a “kind”."), i + 1);
          return;
        }
      if (json_object_has_member (event, "problem") &&
          !_viva_server_check_problem (request, json_object_get_string_member_with_default (event, "problem", "")))
        return;
    }

  /* A PC numbers its events to send a batch again safely: its id is
   * 32 hex digits of its own, its numbers count from 1. */
  node = json_object_get_member (request->body, "client");
  if (node != NULL)
    {
      JsonNode *first = json_object_get_member (request->body, "first_seq");

      if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING ||
          strlen ((client_id = json_node_get_string (node))) != 32 ||
          strspn (client_id, "0123456789abcdef") != 32 ||
          first == NULL || !JSON_NODE_HOLDS_VALUE (first) || json_node_get_value_type (first) != G_TYPE_INT64 ||
          (first_seq = json_node_get_int (first)) < 1 || first_seq > G_MAXINT64 / 2)
        {
          viva_server_reply_error (request, SOUP_STATUS_BAD_REQUEST, "bad_request",
                                   _("“client” is 32 lowercase hex digits and “first_seq” a number from 1."));
          return;
        }
    }

  if (!_viva_server_check_open (request))
    return;

  /* What a hint costs is the exam's rule, not what the PC says. */
  if (!(exam = viva_server_api_get_exam (request->api, request->exam_id, &error)) && error != NULL)
    {
      viva_server_reply_db_error (request, error);
      return;
    }
  for (guint i = 0; exam != NULL && i < json_array_get_length (events); i++)
    {
      JsonObject *event = json_array_get_object_element (events, i);

      if (g_strcmp0 (json_object_get_string_member_with_default (event, "kind", NULL), "hint") != 0)
        continue;
      if (json_object_has_member (event, "cost"))
        json_object_remove_member (event, "cost");
      if (viva_exam_file_get_hint_cost (exam) > 0)
        json_object_set_double_member (event, "cost", viva_exam_file_get_hint_cost (exam));
    }

  if ((seq = viva_server_store_add_timeline (store, request->exam_id, request->student_id, client_id, first_seq,
                                             events, NULL, &error)) < 0)
    {
      viva_server_reply_db_error (request, error);
      return;
    }

  /* What comes during a defense of its problem is that defense's too
   * (the window losing the focus while the examiner asks): taken from the
   * database by the node that runs it, this one or another. */
  if (viva_server_api_get_defenses (request->api) != NULL)
    viva_server_defenses_add_timeline (viva_server_api_get_defenses (request->api), request->exam_id,
                                       request->student_id);

  json_object_set_int_member (object, "seq", seq);
  viva_server_reply_json (request, SOUP_STATUS_OK, object);
}

static const VivaServerRoute routes[] = {
  { "GET", "/api/v1/health", VIVA_SERVER_AUTH_NONE, FALSE, health },
  { "POST", "/api/v1/exams/{exam}/sign-in", VIVA_SERVER_AUTH_NONE, TRUE, sign_in },
  { "GET", "/api/v1/exams/{exam}/sitting", VIVA_SERVER_AUTH_STUDENT, FALSE, get_sitting },
  { "PUT", "/api/v1/exams/{exam}/sitting/problems/{problem}/code", VIVA_SERVER_AUTH_STUDENT, TRUE, save_code },
  { "POST", "/api/v1/exams/{exam}/sitting/timeline", VIVA_SERVER_AUTH_STUDENT, TRUE, add_timeline },
  { "POST", "/api/v1/exams/{exam}/sitting/problems/{problem}/submit", VIVA_SERVER_AUTH_STUDENT, TRUE, _viva_server_submit },
  { "GET", "/api/v1/exams/{exam}/defenses/{defense}", VIVA_SERVER_AUTH_STUDENT, FALSE, _viva_server_get_defense },
  { "GET", "/api/v1/exams/{exam}/defenses/{defense}/events", VIVA_SERVER_AUTH_STUDENT, FALSE, _viva_server_get_events },
  { "POST", "/api/v1/exams/{exam}/defenses/{defense}/answer", VIVA_SERVER_AUTH_STUDENT, TRUE, _viva_server_answer },
  { "GET", "/api/v1/exams/{exam}/status", VIVA_SERVER_AUTH_TEACHER, FALSE, _viva_server_teacher_status },
  { "GET", "/api/v1/exams/{exam}/reports", VIVA_SERVER_AUTH_TEACHER, FALSE, _viva_server_teacher_reports },
  { "POST", "/api/v1/exams/{exam}/close", VIVA_SERVER_AUTH_TEACHER, FALSE, _viva_server_teacher_close },
  { "POST", "/api/v1/exams/{exam}/regrades", VIVA_SERVER_AUTH_TEACHER, FALSE, _viva_server_teacher_regrade },
  { "GET", "/api/v1/exams/{exam}/regrades/{regrade}", VIVA_SERVER_AUTH_TEACHER, FALSE, _viva_server_teacher_get_regrade },
  { "POST", "/api/v1/exams/{exam}/jobs/claim", VIVA_SERVER_AUTH_WORKER, TRUE, _viva_server_worker_claim },
  { "POST", "/api/v1/exams/{exam}/jobs/{job}/renew", VIVA_SERVER_AUTH_WORKER, TRUE, _viva_server_worker_renew },
  { "POST", "/api/v1/exams/{exam}/jobs/{job}/result", VIVA_SERVER_AUTH_WORKER, TRUE, _viva_server_worker_result },
};

const VivaServerRoute *
viva_server_routes_get (guint *n_routes)
{
  *n_routes = G_N_ELEMENTS (routes);
  return routes;
}

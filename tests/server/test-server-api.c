/* test-server-api.c: the API document, who may call what, and what a student is sent
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "server-fixture.h"

static const char * const two_exams[] = { "exam.json", "exam-other.json", NULL };

/* What no answer to a student may hold: the references, the checks, the
 * questions' points and the rubrics of tests/server/exam.json. */
static const char * const secrets[] = {
  "REFMARKER", "CHECKMARKER", "POINTMARKER", "RUBRICMARKER", "return 2 * x", "return x * x",
  "double(3) == 6", "double(-4) == -8", "square(3) == 9", NULL
};

static void
assert_no_secret (const char *text)
{
  for (guint i = 0; secrets[i] != NULL; i++)
    if (strstr (text, secrets[i]) != NULL)
      g_error ("a student was sent “%s”: %.300s", secrets[i], strstr (text, secrets[i]));
}

static JsonObject *
load_document (void)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_file (parser, VIVA_OPENAPI_PATH, &error);
  g_assert_no_error (error);
  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

/* `viva-server routes --json`: the table the server registers. */
static JsonArray *
served_routes (ServerFixture *fixture)
{
  const char *args[] = { "routes", "--json", NULL };
  g_autofree char *out = NULL;
  g_auto(GStrv) lines = NULL;
  JsonArray *routes = json_array_new ();

  g_assert_cmpint (server_fixture_run (fixture, args, &out), ==, 0);
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(JsonNode) node = NULL;

      if (lines[i][0] == '\0')
        continue;
      node = json_from_string (lines[i], NULL);
      json_array_add_object_element (routes, json_object_ref (json_node_get_object (node)));
    }
  return routes;
}

static void
test_document (void)
{
  ServerFixture fixture;
  g_autoptr(JsonObject) doc = load_document ();
  g_autoptr(JsonArray) routes = NULL;
  g_autoptr(GHashTable) documented = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  JsonObject *paths;
  JsonObjectIter iter;
  const char *path;
  JsonNode *item;

  server_fixture_setup (&fixture, NULL);
  routes = served_routes (&fixture);

  g_assert_cmpstr (json_object_get_string_member (doc, "openapi"), ==, "3.1.0");
  paths = json_object_get_object_member (doc, "paths");
  json_object_iter_init (&iter, paths);
  while (json_object_iter_next (&iter, &path, &item))
    {
      static const char * const methods[] = { "get", "put", "post", "delete", "patch", NULL };

      for (guint m = 0; methods[m] != NULL; m++)
        {
          JsonObject *operation;
          g_autofree char *upper = NULL;

          if (!json_object_has_member (json_node_get_object (item), methods[m]))
            continue;
          operation = json_object_get_object_member (json_node_get_object (item), methods[m]);
          upper = g_ascii_strup (methods[m], -1);
          g_hash_table_insert (documented, g_strconcat (upper, " ", path, NULL),
                               g_strdup (json_object_get_string_member (operation, "x-viva-auth")));
          /* Every operation says how it fails. */
          g_assert_true (json_object_has_member (json_object_get_object_member (operation, "responses"), "4XX"));
        }
    }

  /* Every route served is documented, with its auth; and nothing else is. */
  for (guint i = 0; i < json_array_get_length (routes); i++)
    {
      JsonObject *route = json_array_get_object_element (routes, i);
      g_autofree char *key = g_strconcat (json_object_get_string_member (route, "method"), " ",
                                          json_object_get_string_member (route, "path"), NULL);
      const char *auth = g_hash_table_lookup (documented, key);

      if (auth == NULL)
        g_error ("%s is served but not in data/viva-server.openapi.json", key);
      g_assert_cmpstr (auth, ==, json_object_get_string_member (route, "auth"));
      g_hash_table_remove (documented, key);
    }
  if (g_hash_table_size (documented) > 0)
    {
      g_autoptr(GList) keys = g_hash_table_get_keys (documented);

      g_error ("%s is documented but not served", (char *)keys->data);
    }

  server_fixture_teardown (&fixture);
}

/* Reads a defense's Server-Sent Events until the one of @kind, checking
 * the numbers only grow; all that was read goes into @seen. */
static JsonObject *
stream_until (ServerFixture *fixture,
              const char    *token,
              const char    *defense_id,
              gint64        *after,
              const char    *kind,
              GString       *seen)
{
  SoupMessage *server_fixture_message (ServerFixture *, const char *, const char *, const char *);
  g_autofree char *path = g_strdup_printf ("/api/v1/exams/server-quiz/defenses/%s/events?after=%" G_GINT64_FORMAT,
                                           defense_id, *after);
  g_autoptr(SoupMessage) msg = server_fixture_message (fixture, "GET", path, token);
  g_autoptr(GInputStream) body = NULL;
  g_autoptr(GDataInputStream) lines = NULL;
  g_autoptr(GError) error = NULL;
  char *line;

  soup_message_headers_replace (soup_message_get_request_headers (msg), "Accept", "text/event-stream");
  body = soup_session_send (fixture->session, msg, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (soup_message_get_status (msg), ==, 200);
  g_assert_cmpstr (soup_message_headers_get_content_type (soup_message_get_response_headers (msg), NULL),
                   ==, "text/event-stream");

  lines = g_data_input_stream_new (body);
  while ((line = g_data_input_stream_read_line_utf8 (lines, NULL, NULL, &error)) != NULL)
    {
      g_autofree char *owned = line;

      g_string_append_printf (seen, "%s\n", line);
      if (g_str_has_prefix (line, "data: "))
        {
          g_autoptr(JsonNode) node = json_from_string (line + 6, NULL);
          JsonObject *event;
          gint64 seq;

          g_assert_nonnull (node);
          event = json_node_get_object (node);
          if (!json_object_has_member (event, "seq"))
            continue;
          seq = json_object_get_int_member (event, "seq");
          g_assert_cmpint (seq, >, *after);
          *after = seq;
          if (g_str_equal (json_object_get_string_member (event, "kind"), kind))
            {
              g_input_stream_close (body, NULL, NULL);
              return json_object_ref (event);
            }
        }
    }
  g_error ("the stream ended before a %s event: %s", kind, error ? error->message : "");
  return NULL;
}

static char *
fill (const char *pattern,
      const char *defense_id)
{
  GString *out = g_string_new (pattern);

  g_string_replace (out, "{exam}", "server-quiz", 0);
  g_string_replace (out, "{problem}", "double", 0);
  g_string_replace (out, "{defense}", defense_id, 0);
  g_string_replace (out, "{regrade}", "no-such-regrade", 0);
  return g_string_free (out, FALSE);
}

static const char *
body_for (const char *path)
{
  if (g_str_has_suffix (path, "/sign-in"))
    return "{\"student_id\":\"s1\",\"code\":\"AAAA-AAAA\"}";
  if (g_str_has_suffix (path, "/code"))
    return "{\"kind\":\"autosave\",\"code\":\"def double(x):\\n    return x\\n\"}";
  if (g_str_has_suffix (path, "/timeline"))
    return "{\"events\":[{\"kind\":\"focus\"}]}";
  if (g_str_has_suffix (path, "/submit"))
    return "{\"code\":\"def double(x):\\n    return x\\n\"}";
  if (g_str_has_suffix (path, "/answer"))
    return "{\"text\":\"zero\"}";
  return NULL;
}

static void
test_authorization (void)
{
  ServerFixture fixture;
  g_autoptr(JsonArray) routes = NULL;
  g_autoptr(GString) seen = g_string_new (NULL);
  g_autoptr(JsonObject) question = NULL;
  g_autoptr(JsonObject) verdict = NULL;
  g_autofree char *s1 = NULL;
  g_autofree char *s2 = NULL;
  g_autofree char *defense = NULL;
  g_autofree char *s2_defense = NULL;
  const char *teacher, *other_teacher;
  gint64 after = 0;
  guint status = 0;

  server_fixture_setup (&fixture, two_exams);
  routes = served_routes (&fixture);
  teacher = g_hash_table_lookup (fixture.teacher_tokens, "server-quiz");
  other_teacher = g_hash_table_lookup (fixture.teacher_tokens, "other-quiz");

  s1 = server_fixture_sign_in (&fixture, "server-quiz", "s1");
  s2 = server_fixture_sign_in (&fixture, "server-quiz", "s2");

  /* A whole defense, as a student sees it: a wrong answer to the problem,
   * so the hidden checks fail (and their messages must stay hidden). */
  defense = server_fixture_submit (&fixture, s1, "server-quiz", "double", "def double(x):\n    return x + 1\n");
  question = stream_until (&fixture, s1, defense, &after, "question", seen);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (question, "data"), "question"),
                   ==, "What does double(0) return?");
  {
    g_autofree char *path = g_strdup_printf ("/api/v1/exams/server-quiz/defenses/%s/answer", defense);
    g_autofree char *body = g_strdup_printf ("{\"text\":\"zero\",\"question_seq\":%" G_GINT64_FORMAT "}",
                                             json_object_get_int_member (question, "seq"));
    g_autoptr(JsonNode) answer = server_fixture_request (&fixture, "POST", path, s1, body, &status, NULL);

    g_assert_cmpuint (status, ==, 200);
  }
  verdict = stream_until (&fixture, s1, defense, &after, "verdict", seen);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (verdict, "data"), "verdict"),
                   ==, "fail");

  /* Reconnecting from 0 replays the same events, in order, nothing new. */
  {
    gint64 replay = 0;
    g_autoptr(GString) again = g_string_new (NULL);
    g_autoptr(JsonObject) same = stream_until (&fixture, s1, defense, &replay, "verdict", again);

    g_assert_cmpint (json_object_get_int_member (same, "seq"), ==, json_object_get_int_member (verdict, "seq"));
  }

  s2_defense = server_fixture_submit (&fixture, s2, "server-quiz", "square", "def square(x):\n    return x * 1\n");

  /* Every documented route, tried by the wrong callers. */
  for (guint i = 0; i < json_array_get_length (routes); i++)
    {
      JsonObject *route = json_array_get_object_element (routes, i);
      const char *method = json_object_get_string_member (route, "method");
      const char *auth = json_object_get_string_member (route, "auth");
      g_autofree char *path = fill (json_object_get_string_member (route, "path"), defense);
      const char *body = body_for (path);

      if (g_str_equal (auth, "none"))
        continue;

      /* No token. */
      {
        g_autoptr(JsonNode) answer = server_fixture_request (&fixture, method, path, NULL, body, &status, NULL);

        g_assert_cmpuint (status, ==, 401);
      }
      /* A token of this exam's other role, and the other exam's teacher. */
      {
        const char *wrong = g_str_equal (auth, "teacher") ? s1 : teacher;
        g_autoptr(JsonNode) a = server_fixture_request (&fixture, method, path, wrong, body, &status, NULL);

        g_assert_cmpuint (status, ==, 403);
      }
      {
        g_autoptr(JsonNode) b = server_fixture_request (&fixture, method, path, other_teacher, body, &status, NULL);

        g_assert_cmpuint (status, ==, 403);
      }
      /* Another student: s1's defense is not s2's to see or answer. */
      if (g_str_equal (auth, "student") && strstr (json_object_get_string_member (route, "path"), "{defense}"))
        {
          g_autofree char *raw = NULL;
          g_autoptr(JsonNode) c = server_fixture_request (&fixture, method, path, s2, body, &status, &raw);

          g_assert_cmpuint (status, ==, 404);
          g_string_append (seen, raw);
        }
    }

  /* s2's sitting shows nothing of s1's. */
  {
    g_autofree char *raw = NULL;
    g_autoptr(JsonNode) sitting = server_fixture_request (&fixture, "GET", "/api/v1/exams/server-quiz/sitting", s2,
                                                          NULL, &status, &raw);

    g_assert_cmpuint (status, ==, 200);
    g_assert_null (strstr (raw, defense));
    g_assert_null (strstr (raw, "return x + 1"));
    g_assert_nonnull (strstr (raw, s2_defense));
    g_string_append (seen, raw);
  }
  {
    g_autofree char *raw = NULL;
    g_autoptr(JsonNode) sitting = server_fixture_request (&fixture, "GET", "/api/v1/exams/server-quiz/sitting", s1,
                                                          NULL, &status, &raw);
    g_string_append (seen, raw);
  }
  {
    g_autofree char *path = g_strdup_printf ("/api/v1/exams/server-quiz/defenses/%s/events?after=0", defense);
    g_autofree char *raw = NULL;
    g_autoptr(JsonNode) page = server_fixture_request (&fixture, "GET", path, s1, NULL, &status, &raw);

    g_assert_cmpuint (status, ==, 200);
    g_string_append (seen, raw);
  }

  /* The teacher's own routes answer the teacher. */
  {
    g_autoptr(JsonNode) st = server_fixture_request (&fixture, "GET", "/api/v1/exams/server-quiz/status", teacher,
                                                     NULL, &status, NULL);

    g_assert_cmpuint (status, ==, 200);
  }

  g_assert_nonnull (strstr (seen->str, "What does double(0) return?"));
  assert_no_secret (seen->str);

  server_fixture_teardown (&fixture);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  if (server_fixture_engine_skip () != 0)
    return 77;

  g_test_add_func ("/viva/server/api/document", test_document);
  g_test_add_func ("/viva/server/api/authorization", test_authorization);

  return g_test_run ();
}

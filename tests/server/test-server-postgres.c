/* test-server-postgres.c: the exam server on PostgreSQL — a database that
 * goes away and comes back, two nodes making the schema at once
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

#include "server-fixture.h"
#include "server-postgres.h"

SoupMessage *server_fixture_message (ServerFixture *, const char *, const char *, const char *);

#define CODE_PATH "/api/v1/exams/server-quiz/sitting/problems/double/code"

static const char * const one_exam[] = { "exam.json", NULL };

/* One request, as the app sends it: the status, Retry-After, the body. */
static JsonNode *
put_code (ServerFixture  *fixture,
          const char     *token,
          const char     *code,
          guint          *status,
          char          **retry_after)
{
  g_autoptr(SoupMessage) msg = server_fixture_message (fixture, "PUT", CODE_PATH, token);
  g_autoptr(JsonObject) body = json_object_new ();
  g_autoptr(JsonNode) body_node = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GBytes) request = NULL;
  g_autoptr(GBytes) reply = NULL;
  g_autoptr(GError) error = NULL;
  JsonNode *node;

  json_object_set_string_member (body, "kind", "autosave");
  json_object_set_string_member (body, "code", code);
  body_node = json_node_init_object (json_node_alloc (), body);
  text = json_to_string (body_node, FALSE);
  request = g_bytes_new (text, strlen (text));
  soup_message_set_request_body_from_bytes (msg, "application/json", request);

  reply = soup_session_send_and_read (fixture->session, msg, NULL, &error);
  g_assert_no_error (error);
  *status = soup_message_get_status (msg);
  *retry_after = g_strdup (soup_message_headers_get_one (soup_message_get_response_headers (msg), "Retry-After"));
  g_assert_cmpstr (soup_message_headers_get_content_type (soup_message_get_response_headers (msg), NULL),
                   ==, "application/json");
  node = json_from_string (g_bytes_get_data (reply, NULL), &error);
  g_assert_no_error (error);
  return node;
}

static const char *
saved_code (ServerFixture *fixture,
            const char    *token,
            JsonNode     **keep)
{
  guint status = 0;
  JsonArray *problems;

  *keep = server_fixture_request (fixture, "GET", "/api/v1/exams/server-quiz/sitting", token, NULL, &status, NULL);
  g_assert_cmpuint (status, ==, 200);
  problems = json_object_get_array_member (json_node_get_object (*keep), "problems");
  for (guint i = 0; i < json_array_get_length (problems); i++)
    {
      JsonObject *problem = json_array_get_object_element (problems, i);

      if (g_str_equal (json_object_get_string_member (problem, "id"), "double"))
        return json_object_get_null_member (problem, "code")
               ? NULL : json_object_get_string_member (json_object_get_object_member (problem, "code"), "text");
    }
  return NULL;
}

/* The database goes away mid-exam: the student is told the server is busy
 * (a sentence, Retry-After, never an error page), the server stays up, and
 * once the database is back the work saved before is there and the next
 * save goes through. */
static void
test_database_away (void)
{
  ServerFixture fixture;
  g_autofree char *token = NULL;
  g_autofree char *retry = NULL;
  g_autoptr(JsonNode) first = NULL;
  g_autoptr(JsonNode) busy = NULL;
  g_autoptr(JsonNode) sitting = NULL;
  g_autoptr(JsonNode) health = NULL;
  guint status = 0;
  gboolean saved = FALSE;

  server_fixture_setup (&fixture, one_exam);
  token = server_fixture_sign_in (&fixture, "server-quiz", "s1");

  first = put_code (&fixture, token, "def double(x):\n    return 2 * x  # before\n", &status, &retry);
  g_assert_cmpuint (status, ==, 200);

  server_postgres_stop_cluster ();

  g_clear_pointer (&retry, g_free);
  busy = put_code (&fixture, token, "def double(x):\n    return 2 * x  # during\n", &status, &retry);
  g_assert_cmpuint (status, ==, 503);
  g_assert_nonnull (retry);
  g_assert_cmpint (atoi (retry), >, 0);
  {
    JsonObject *said = json_object_get_object_member (json_node_get_object (busy), "error");

    g_assert_cmpstr (json_object_get_string_member (said, "code"), ==, "busy");
    g_assert_nonnull (strstr (json_object_get_string_member (said, "message"), "The exam server is busy"));
  }
  /* The server itself still answers. */
  health = server_fixture_request (&fixture, "GET", "/api/v1/health", NULL, NULL, &status, NULL);
  g_assert_cmpuint (status, ==, 200);

  server_postgres_start_cluster ();

  /* As the app does: wait what Retry-After says, ask again. */
  for (guint attempt = 0; attempt < 30 && !saved; attempt++)
    {
      g_autoptr(JsonNode) again = NULL;

      g_clear_pointer (&retry, g_free);
      again = put_code (&fixture, token, "def double(x):\n    return 2 * x  # after\n", &status, &retry);
      if (status == 200)
        saved = TRUE;
      else
        {
          g_assert_cmpuint (status, ==, 503);
          g_usleep (G_USEC_PER_SEC / 2);
        }
    }
  g_assert_true (saved);
  g_assert_cmpstr (saved_code (&fixture, token, &sitting), ==, "def double(x):\n    return 2 * x  # after\n");

  server_fixture_teardown (&fixture);
}

/* Two nodes started together on one new database make its schema once:
 * both start, and the schema is whole. */
static void
test_two_inits (void)
{
  g_autofree char *database = server_postgres_new_database (TRUE);
  g_autofree char *dir_a = g_dir_make_tmp ("viva-server-node-XXXXXX", NULL);
  g_autofree char *dir_b = g_dir_make_tmp ("viva-server-node-XXXXXX", NULL);
  g_autofree char *out_a = NULL;
  g_autofree char *out_b = NULL;
  g_autoptr(GSubprocess) a = NULL;
  g_autoptr(GSubprocess) b = NULL;
  g_autoptr(GError) error = NULL;
  const char *argv_a[] = { server_fixture_binary (), "init", "--state-dir", dir_a, "--host", "127.0.0.1",
                           "--database", database, "--json", NULL };
  const char *argv_b[] = { server_fixture_binary (), "init", "--state-dir", dir_b, "--host", "127.0.0.1",
                           "--database", database, "--json", NULL };

  /* init makes the folder itself. */
  g_rmdir (dir_a);
  g_rmdir (dir_b);
  a = g_subprocess_newv (argv_a, G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error);
  g_assert_no_error (error);
  b = g_subprocess_newv (argv_b, G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (a, NULL, NULL, &out_a, NULL, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (b, NULL, NULL, &out_b, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_subprocess_get_exit_status (a), ==, 0);
  g_assert_cmpint (g_subprocess_get_exit_status (b), ==, 0);
  g_assert_nonnull (strstr (out_a, "\"schema\":"));
  g_assert_nonnull (strstr (out_a, "PostgreSQL"));
  g_assert_nonnull (strstr (out_b, "PostgreSQL"));

  /* An exam added through one node is the other's too. */
  {
    g_autofree char *exam = g_test_build_filename (G_TEST_DIST, "server", "exam.json", NULL);
    g_autofree char *roster = g_test_build_filename (G_TEST_DIST, "server", "roster.csv", NULL);
    const char *add[] = { server_fixture_binary (), "exam", "add", exam, "--roster", roster,
                          "--state-dir", dir_a, NULL };
    /* No --database: the node's folder remembers the one init was given. */
    const char *status[] = { server_fixture_binary (), "status", "server-quiz", "--state-dir", dir_b, "--json", NULL };
    g_autoptr(GSubprocess) adding = g_subprocess_newv (add, G_SUBPROCESS_FLAGS_STDOUT_SILENCE, &error);
    g_autoptr(GSubprocess) asking = NULL;
    g_autofree char *said = NULL;

    g_assert_no_error (error);
    g_assert_true (g_subprocess_wait_check (adding, NULL, &error));
    g_assert_no_error (error);
    asking = g_subprocess_newv (status, G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error);
    g_assert_no_error (error);
    g_subprocess_communicate_utf8 (asking, NULL, NULL, &said, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpint (g_subprocess_get_exit_status (asking), ==, 0);
    g_assert_nonnull (strstr (said, "\"students\":"));
    g_assert_nonnull (strstr (said, "PostgreSQL"));
  }

  {
    g_autofree char *rm = g_strdup_printf ("rm -rf '%s' '%s'", dir_a, dir_b);

    g_assert_cmpint (system (rm), ==, 0);
  }
}

/* A link to nowhere: the command says what to check, at once. */
static void
test_unreachable (void)
{
  g_autofree char *dir = g_dir_make_tmp ("viva-server-node-XXXXXX", NULL);
  const char *argv[] = { server_fixture_binary (), "init", "--state-dir", dir, "--host", "127.0.0.1",
                         "--database", "postgresql://viva@127.0.0.1:1/none?connect_timeout=2", NULL };
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;

  g_rmdir (dir);
  process = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (process, NULL, NULL, NULL, &err, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_subprocess_get_exit_status (process), ==, 1);
  g_assert_nonnull (strstr (err, "Could not reach the PostgreSQL database"));
  g_assert_null (strstr (err, "Traceback"));

  {
    g_autofree char *rm = g_strdup_printf ("rm -rf '%s'", dir);

    g_assert_cmpint (system (rm), ==, 0);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *reason = NULL;

  g_test_init (&argc, &argv, NULL);
  if (!server_postgres_check (&reason))
    {
      g_print ("SKIP: %s\n", reason);
      return 77;
    }
  g_setenv ("VIVA_TEST_SERVER_DATABASE", "postgresql", TRUE);

  g_test_add_func ("/viva/server/postgres/database-away", test_database_away);
  g_test_add_func ("/viva/server/postgres/two-inits", test_two_inits);
  g_test_add_func ("/viva/server/postgres/unreachable", test_unreachable);

  return g_test_run ();
}

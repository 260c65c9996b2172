/* test-server.c: the exam server's commands, sign-in, the sitting and bad input
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>

#include "server-fixture.h"

static const char * const one_exam[] = { "exam.json", NULL };

static JsonObject *
object_of (JsonNode *node)
{
  return json_node_get_object (node);
}

static const char *
error_code (JsonNode *node)
{
  return json_object_get_string_member (json_object_get_object_member (object_of (node), "error"), "code");
}

static void
test_init_and_link (void)
{
  ServerFixture fixture;
  const char *link;
  g_autofree char *expected = NULL;
  g_autofree char *db = NULL;
  g_autofree char *key = NULL;
  g_autofree char *cards = NULL;
  g_autofree char *page = NULL;
  g_autofree char *out = NULL;
  struct stat st;

  server_fixture_setup (&fixture, one_exam);

  link = g_hash_table_lookup (fixture.links, "server-quiz");
  expected = g_strdup_printf ("viva://127.0.0.1:8443/server-quiz#sha256=%s", fixture.fingerprint);
  g_assert_cmpstr (link, ==, expected);

  /* The state folder and its keys are the server user's alone. */
  g_assert_cmpint (g_stat (fixture.state_dir, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 077, ==, 0);
  key = g_build_filename (fixture.state_dir, "signing-key.pem", NULL);
  g_assert_cmpint (g_stat (key, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 077, ==, 0);
  /* On SQLite the data is in the folder; on PostgreSQL, not. */
  db = g_build_filename (fixture.state_dir, "viva-server.db", NULL);
  g_assert_true (g_file_test (db, G_FILE_TEST_IS_REGULAR) == (fixture.database == NULL));

  /* A second init of the same folder never replaces its keys. */
  {
    const char *init[] = { "init", NULL };

    g_assert_cmpint (server_fixture_run (&fixture, init, NULL), ==, 1);
  }

  /* Seat cards: one per student, with the code the sign-in takes. */
  cards = g_build_filename (fixture.state_dir, "cards.html", NULL);
  {
    const char *codes[] = { "codes", "server-quiz", "--html", cards, NULL };

    g_assert_cmpint (server_fixture_run (&fixture, codes, &out), ==, 0);
  }
  g_assert_true (g_file_get_contents (cards, &page, NULL, NULL));
  g_assert_nonnull (strstr (page, "Bo, Chen"));
  g_assert_nonnull (strstr (page, g_hash_table_lookup (fixture.codes, "server-quiz/s2")));
  g_assert_nonnull (strstr (page, link));

  server_fixture_teardown (&fixture);
}

static void
test_bad_usage (void)
{
  ServerFixture fixture;
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "server", "exam.json", NULL);
  g_autofree char *bad_roster = NULL;

  server_fixture_setup (&fixture, NULL);

  {
    const char *args[] = { "exam", "add", path, NULL };  /* no --roster */

    g_assert_cmpint (server_fixture_run (&fixture, args, NULL), ==, 2);
  }
  {
    const char *args[] = { "codes", "no-such-exam", NULL };

    g_assert_cmpint (server_fixture_run (&fixture, args, NULL), ==, 1);
  }

  /* A roster that repeats a student does not load. */
  bad_roster = g_build_filename (fixture.state_dir, "bad.csv", NULL);
  g_assert_true (g_file_set_contents (bad_roster, "student_id,name\ns1,A\ns1,B\n", -1, NULL));
  {
    const char *args[] = { "exam", "add", path, "--roster", bad_roster, NULL };

    g_assert_cmpint (server_fixture_run (&fixture, args, NULL), ==, 1);
  }

  server_fixture_teardown (&fixture);
}

static void
test_pinning (void)
{
  ServerFixture fixture;
  g_autofree char *real = NULL;
  g_autofree char *uri = NULL;
  g_autoptr(SoupMessage) msg = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;

  server_fixture_setup (&fixture, one_exam);

  /* A client that pins another fingerprint gets nothing from this server. */
  real = g_steal_pointer (&fixture.fingerprint);
  fixture.fingerprint = g_strnfill (64, '0');
  uri = g_strdup_printf ("https://127.0.0.1:%u/api/v1/health", fixture.port);
  {
    g_autoptr(JsonNode) unused = NULL;
    SoupMessage *probe = soup_message_new ("GET", uri);

    (void)unused;
    bytes = soup_session_send_and_read (fixture.session, probe, NULL, &error);
    g_assert_error (error, G_TLS_ERROR, G_TLS_ERROR_BAD_CERTIFICATE);
    g_object_unref (probe);
  }
  g_free (fixture.fingerprint);
  fixture.fingerprint = g_steal_pointer (&real);

  /* And plain HTTP is not served. */
  g_clear_error (&error);
  g_clear_pointer (&uri, g_free);
  uri = g_strdup_printf ("http://127.0.0.1:%u/api/v1/health", fixture.port);
  msg = soup_message_new ("GET", uri);
  g_clear_pointer (&bytes, g_bytes_unref);
  bytes = soup_session_send_and_read (fixture.session, msg, NULL, &error);
  g_assert_true (error != NULL || soup_message_get_status (msg) != SOUP_STATUS_OK);

  server_fixture_teardown (&fixture);
}

static void
test_sign_in (void)
{
  ServerFixture fixture;
  g_autoptr(JsonNode) answer = NULL;
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  g_autofree char *body = NULL;
  const char *code;
  guint status = 0;

  server_fixture_setup (&fixture, one_exam);

  /* The wrong code, and a student not on the roster, get the same answer. */
  answer = server_fixture_request (&fixture, "POST", "/api/v1/exams/server-quiz/sign-in", NULL,
                                   "{\"student_id\":\"s1\",\"code\":\"AAAA-AAAA\"}", &status, NULL);
  g_assert_cmpuint (status, ==, 401);
  g_assert_cmpstr (error_code (answer), ==, "wrong_code");
  g_clear_pointer (&answer, json_node_unref);
  answer = server_fixture_request (&fixture, "POST", "/api/v1/exams/server-quiz/sign-in", NULL,
                                   "{\"student_id\":\"nobody\",\"code\":\"AAAA-AAAA\"}", &status, NULL);
  g_assert_cmpuint (status, ==, 401);
  g_assert_cmpstr (error_code (answer), ==, "wrong_code");
  g_clear_pointer (&answer, json_node_unref);

  /* The code as typed, lower case without its dash, is the code. */
  code = g_hash_table_lookup (fixture.codes, "server-quiz/s1");
  {
    g_autofree char *lower = g_ascii_strdown (code, -1);
    char *dash = strchr (lower, '-');

    memmove (dash, dash + 1, strlen (dash));
    body = g_strdup_printf ("{\"student_id\":\"s1\",\"code\":\"%s\"}", lower);
  }
  answer = server_fixture_request (&fixture, "POST", "/api/v1/exams/server-quiz/sign-in", NULL, body, &status, NULL);
  g_assert_cmpuint (status, ==, 200);
  first = g_strdup (json_object_get_string_member (object_of (answer), "token"));
  /* 256 random bits, base64url. */
  g_assert_cmpuint (strlen (first), ==, 43);
  g_clear_pointer (&answer, json_node_unref);

  answer = server_fixture_request (&fixture, "GET", "/api/v1/exams/server-quiz/sitting", first, NULL, &status, NULL);
  g_assert_cmpuint (status, ==, 200);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (object_of (answer), "student"), "name"),
                   ==, "Ann Lee");
  g_clear_pointer (&answer, json_node_unref);

  /* Signing in again (another PC) revokes the first token. */
  second = server_fixture_sign_in (&fixture, "server-quiz", "s1");
  g_assert_cmpstr (first, !=, second);
  answer = server_fixture_request (&fixture, "GET", "/api/v1/exams/server-quiz/sitting", first, NULL, &status, NULL);
  g_assert_cmpuint (status, ==, 401);
  g_assert_cmpstr (error_code (answer), ==, "signed_out");
  g_clear_pointer (&answer, json_node_unref);
  answer = server_fixture_request (&fixture, "GET", "/api/v1/exams/server-quiz/sitting", second, NULL, &status, NULL);
  g_assert_cmpuint (status, ==, 200);

  server_fixture_teardown (&fixture);
}

static void
test_sign_in_rate (void)
{
  ServerFixture fixture;
  guint status = 0;
  guint refused = 0;

  server_fixture_setup (&fixture, one_exam);

  /* Guessing a student's code: a few tries, then the server says wait. */
  for (guint i = 0; i < 8; i++)
    {
      g_autoptr(JsonNode) answer = server_fixture_request (&fixture, "POST", "/api/v1/exams/server-quiz/sign-in", NULL,
                                                           "{\"student_id\":\"s3\",\"code\":\"ZZZZ-ZZZZ\"}",
                                                           &status, NULL);

      if (status == 429)
        {
          g_assert_cmpstr (error_code (answer), ==, "rate_limited");
          refused++;
        }
      else
        g_assert_cmpuint (status, ==, 401);
    }
  g_assert_cmpuint (refused, ==, 3);

  /* Even the right code waits now; another student does not. */
  {
    const char *code = g_hash_table_lookup (fixture.codes, "server-quiz/s3");
    g_autofree char *body = g_strdup_printf ("{\"student_id\":\"s3\",\"code\":\"%s\"}", code);
    g_autoptr(JsonNode) answer = server_fixture_request (&fixture, "POST", "/api/v1/exams/server-quiz/sign-in",
                                                         NULL, body, &status, NULL);

    g_assert_cmpuint (status, ==, 429);
  }
  g_free (server_fixture_sign_in (&fixture, "server-quiz", "s2"));

  server_fixture_teardown (&fixture);
}

static void
test_sitting (void)
{
  ServerFixture fixture;
  g_autofree char *token = NULL;
  g_autofree char *raw = NULL;
  g_autoptr(JsonNode) answer = NULL;
  JsonArray *problems;
  JsonObject *first, *clock;
  guint status = 0;

  server_fixture_setup (&fixture, one_exam);
  token = server_fixture_sign_in (&fixture, "server-quiz", "s1");

  answer = server_fixture_request (&fixture, "PUT", "/api/v1/exams/server-quiz/sitting/problems/double/code", token,
                                   "{\"kind\":\"autosave\",\"code\":\"def double(x):\\n    return x + x\\n\"}",
                                   &status, NULL);
  g_assert_cmpuint (status, ==, 200);
  g_assert_cmpint (json_object_get_int_member (object_of (answer), "seq"), ==, 1);
  g_clear_pointer (&answer, json_node_unref);

  answer = server_fixture_request (&fixture, "POST", "/api/v1/exams/server-quiz/sitting/timeline", token,
                                   "{\"events\":[{\"kind\":\"paste\",\"problem\":\"double\",\"chars\":50}]}",
                                   &status, NULL);
  g_assert_cmpuint (status, ==, 200);
  g_clear_pointer (&answer, json_node_unref);

  answer = server_fixture_request (&fixture, "GET", "/api/v1/exams/server-quiz/sitting", token, NULL, &status, &raw);
  g_assert_cmpuint (status, ==, 200);
  problems = json_object_get_array_member (object_of (answer), "problems");
  g_assert_cmpuint (json_array_get_length (problems), ==, 2);
  first = json_array_get_object_element (problems, 0);
  g_assert_cmpstr (json_object_get_string_member (first, "statement"), ==, "Write `double(x)` that returns `2 * x`.");
  g_assert_cmpstr (json_object_get_string_member (first, "starter_code"), ==, "def double(x):\n    return x\n");
  g_assert_cmpstr (json_object_get_string_member (first, "hint"), ==, "Multiply by two.");
  /* The code as last saved: what another PC opens with. */
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (first, "code"), "text"),
                   ==, "def double(x):\n    return x + x\n");
  /* The server's clock: 45 minutes from the first sign-in. */
  clock = json_object_get_object_member (object_of (answer), "clock");
  g_assert_cmpint (json_object_get_int_member (clock, "deadline") - json_object_get_int_member (clock, "started_at"),
                   ==, 45 * 60 * 1000);
  g_assert_cmpstr (json_object_get_string_member (object_of (answer), "state"), ==, "working");

  /* Nothing of the hidden material. */
  g_assert_null (strstr (raw, "REFMARKER"));
  g_assert_null (strstr (raw, "CHECKMARKER"));
  g_assert_null (strstr (raw, "POINTMARKER"));
  g_assert_null (strstr (raw, "RUBRICMARKER"));

  /* A problem the exam does not set. */
  g_clear_pointer (&answer, json_node_unref);
  answer = server_fixture_request (&fixture, "PUT", "/api/v1/exams/server-quiz/sitting/problems/kmeans/code", token,
                                   "{\"kind\":\"autosave\",\"code\":\"x\"}", &status, NULL);
  g_assert_cmpuint (status, ==, 404);

  server_fixture_teardown (&fixture);
}

static gboolean
raw_accept_cb (GTlsConnection       *connection,
               GTlsCertificate      *certificate,
               GTlsCertificateFlags  errors,
               ServerFixture        *fixture)
{
  g_autoptr(GByteArray) der = NULL;
  g_autofree char *fingerprint = NULL;

  g_object_get (certificate, "certificate", &der, NULL);
  fingerprint = g_compute_checksum_for_data (G_CHECKSUM_SHA256, der->data, der->len);
  return g_str_equal (fingerprint, fixture->fingerprint);
}

static void
raw_event_cb (GSocketClient      *client,
              GSocketClientEvent  event,
              GSocketConnectable *connectable,
              GIOStream          *connection,
              ServerFixture      *fixture)
{
  if (event == G_SOCKET_CLIENT_TLS_HANDSHAKING)
    g_signal_connect (connection, "accept-certificate", G_CALLBACK (raw_accept_cb), fixture);
}

/* Sends raw bytes over a pinned TLS connection and returns what came back. */
static char *
raw_exchange (ServerFixture *fixture,
              const char    *request,
              gsize          length)
{
  g_autoptr(GSocketClient) client = g_socket_client_new ();
  g_autoptr(GSocketConnection) connection = NULL;
  g_autoptr(GError) error = NULL;
  GString *reply = g_string_new (NULL);
  char buffer[4096];
  gssize n;

  g_socket_client_set_tls (client, TRUE);
  g_signal_connect (client, "event", G_CALLBACK (raw_event_cb), fixture);
  connection = g_socket_client_connect_to_host (client, "127.0.0.1", fixture->port, NULL, &error);
  g_assert_no_error (error);
  g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM (connection)), request, length, NULL, NULL, NULL);
  while ((n = g_input_stream_read (g_io_stream_get_input_stream (G_IO_STREAM (connection)), buffer, sizeof buffer,
                                   NULL, NULL)) > 0)
    {
      g_string_append_len (reply, buffer, n);
      if (strstr (reply->str, "\r\n\r\n") != NULL && strstr (reply->str, "}") != NULL)
        break;
    }
  return g_string_free (reply, FALSE);
}

static void
test_malformed (void)
{
  ServerFixture fixture;
  g_autofree char *token = NULL;
  guint status = 0;
  struct {
    const char *method, *path, *body;
    guint status;
    const char *code;
  } cases[] = {
    { "GET", "/nothing", NULL, 404, "not_found" },
    { "DELETE", "/api/v1/health", NULL, 405, "method_not_allowed" },
    { "POST", "/api/v1/exams/server-quiz/sign-in", "{not json", 400, "bad_json" },
    { "POST", "/api/v1/exams/server-quiz/sign-in", "[1,2]", 400, "bad_json" },
    { "POST", "/api/v1/exams/server-quiz/sign-in", "{\"student_id\":5}", 400, "bad_request" },
    { "PUT", "/api/v1/exams/server-quiz/sitting/problems/double/code", "{\"kind\":\"typing\",\"code\":\"x\"}", 400, "bad_request" },
    { "POST", "/api/v1/exams/server-quiz/sitting/timeline", "{\"events\":[3]}", 400, "bad_request" },
    { "GET", "/api/v1/exams/server-quiz/defenses/nope/events?after=x", NULL, 404, "no_defense" },
  };

  server_fixture_setup (&fixture, one_exam);
  token = server_fixture_sign_in (&fixture, "server-quiz", "s1");

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonNode) answer = server_fixture_request (&fixture, cases[i].method, cases[i].path, token,
                                                           cases[i].body, &status, NULL);

      g_assert_cmpuint (status, ==, cases[i].status);
      g_assert_cmpstr (error_code (answer), ==, cases[i].code);
    }

  /* A body that is not JSON by its type. */
  {
    g_autoptr(SoupMessage) msg = NULL;
    g_autofree char *uri = g_strdup_printf ("https://127.0.0.1:%u/api/v1/exams/server-quiz/sign-in", fixture.port);
    g_autofree char *reply = NULL;
    const char *request = "POST /api/v1/exams/server-quiz/sign-in HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
                          "Content-Length: 2\r\nConnection: close\r\n\r\n{}";

    reply = raw_exchange (&fixture, request, strlen (request));
    g_assert_true (g_str_has_prefix (reply, "HTTP/1.1 415"));
    g_assert_nonnull (strstr (reply, "\"not_json\""));
  }

  /* A body over the limit is refused from its length alone. */
  {
    const char *request = "POST /api/v1/exams/server-quiz/sign-in HTTP/1.1\r\nHost: x\r\n"
                          "Content-Type: application/json\r\nContent-Length: 999999999\r\n\r\n{";
    g_autofree char *reply = raw_exchange (&fixture, request, strlen (request));

    g_assert_true (g_str_has_prefix (reply, "HTTP/1.1 413"));
    g_assert_nonnull (strstr (reply, "\"body_too_large\""));
  }

  /* Headers over the limit. */
  {
    g_autofree char *filler = g_strnfill (20000, 'a');
    g_autofree char *request = g_strdup_printf ("GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Filler: %s\r\n\r\n", filler);
    g_autofree char *reply = raw_exchange (&fixture, request, strlen (request));

    g_assert_true (g_str_has_prefix (reply, "HTTP/1.1 431") || g_str_has_prefix (reply, "HTTP/1.1 400"));
  }

  /* Garbage instead of HTTP. */
  {
    const char request[] = "\x01\x02 not http at all\r\n\r\n";
    g_autofree char *reply = raw_exchange (&fixture, request, sizeof request - 1);

    if (!(reply[0] == 0 || g_str_has_prefix (reply, "HTTP/1.1 4") || g_str_has_prefix (reply, "HTTP/1.0 4")))
      g_error ("garbage got: %.200s", reply);
  }

  /* And the server goes on serving everyone else. */
  {
    g_autoptr(JsonNode) answer = server_fixture_request (&fixture, "GET", "/api/v1/exams/server-quiz/sitting", token,
                                                         NULL, &status, NULL);

    g_assert_cmpuint (status, ==, 200);
  }

  server_fixture_teardown (&fixture);
}

static void
test_slow_client (void)
{
  ServerFixture fixture;
  g_autoptr(GSocketClient) client = g_socket_client_new ();
  g_autoptr(GSocketConnection) connection = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) health = NULL;
  const char *partial = "GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Slow: ";
  char buffer[256];
  gssize n;
  guint status = 0;

  /* The server closes a connection whose request does not come whole in
   * time (the default is 60 s; this test's server is told 2). */
  g_setenv ("VIVA_SERVER_IDLE_TIMEOUT", "2", TRUE);
  server_fixture_setup (&fixture, one_exam);
  g_unsetenv ("VIVA_SERVER_IDLE_TIMEOUT");

  g_socket_client_set_tls (client, TRUE);
  g_signal_connect (client, "event", G_CALLBACK (raw_event_cb), &fixture);
  connection = g_socket_client_connect_to_host (client, "127.0.0.1", fixture.port, NULL, &error);
  g_assert_no_error (error);
  g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM (connection)), partial, strlen (partial),
                             NULL, NULL, &error);
  g_assert_no_error (error);

  /* A bound for the test, far past the server's timeout: the read must end
   * because the server closed, not because this gave up. */
  g_socket_set_timeout (g_socket_connection_get_socket (connection), 30);
  n = g_input_stream_read (g_io_stream_get_input_stream (G_IO_STREAM (connection)), buffer, sizeof buffer, NULL, &error);
  g_assert_false (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT));
  g_assert_cmpint (n, <=, 0);

  /* Everyone else is still served. */
  health = server_fixture_request (&fixture, "GET", "/api/v1/health", NULL, NULL, &status, NULL);
  g_assert_cmpuint (status, ==, 200);

  server_fixture_teardown (&fixture);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  if (server_fixture_engine_skip () != 0)
    return 77;

  g_test_add_func ("/viva/server/init-and-link", test_init_and_link);
  g_test_add_func ("/viva/server/bad-usage", test_bad_usage);
  g_test_add_func ("/viva/server/pinning", test_pinning);
  g_test_add_func ("/viva/server/sign-in", test_sign_in);
  g_test_add_func ("/viva/server/sign-in-rate", test_sign_in_rate);
  g_test_add_func ("/viva/server/sitting", test_sitting);
  g_test_add_func ("/viva/server/malformed", test_malformed);
  g_test_add_func ("/viva/server/slow-client", test_slow_client);

  return g_test_run ();
}

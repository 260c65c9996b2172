/* test-remote-client.c: the exam server's client against a real server —
 * pinning, sign-in, saving, the save queue while the server is away
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "remote-util.h"

static const char * const one_exam[] = { "exam.json", NULL };

static JsonObject *
find_problem (JsonObject *sitting,
              const char *id)
{
  JsonArray *problems = json_object_get_array_member (sitting, "problems");

  for (guint i = 0; i < json_array_get_length (problems); i++)
    {
      JsonObject *problem = json_array_get_object_element (problems, i);

      if (g_str_equal (json_object_get_string_member (problem, "id"), id))
        return problem;
    }
  g_assert_not_reached ();
  return NULL;
}

static JsonObject *
get_sitting (VivaExamServerClient  *client,
             GError               **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  viva_exam_server_client_get_sitting_async (client, NULL, remote_store_result, &result);
  return viva_exam_server_client_get_sitting_finish (client, remote_wait (&result), error);
}

static const char *
saved_code (JsonObject *sitting,
            const char *problem_id)
{
  JsonObject *problem = find_problem (sitting, problem_id);

  if (json_object_get_null_member (problem, "code"))
    return NULL;
  return json_object_get_string_member (json_object_get_object_member (problem, "code"), "text");
}

static gint64
sign_ins (ServerFixture *fixture,
          const char    *student_id)
{
  g_autoptr(VivaExamServerClient) teacher = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonObject) status = NULL;
  g_autoptr(GError) error = NULL;
  JsonArray *students;

  teacher = remote_client (fixture, "server-quiz", g_hash_table_lookup (fixture->teacher_tokens, "server-quiz"));
  viva_exam_server_client_get_status_async (teacher, NULL, remote_store_result, &result);
  status = viva_exam_server_client_get_status_finish (teacher, remote_wait (&result), &error);
  g_assert_no_error (error);
  students = json_object_get_array_member (status, "students");
  for (guint i = 0; i < json_array_get_length (students); i++)
    {
      JsonObject *row = json_array_get_object_element (students, i);

      if (g_str_equal (json_object_get_string_member (row, "student_id"), student_id))
        return json_object_get_int_member (row, "sign_ins");
    }
  g_assert_not_reached ();
  return -1;
}

static void
test_wrong_fingerprint (void)
{
  ServerFixture fixture;
  g_autofree char *text = NULL;
  g_autofree char *other = NULL;
  g_autoptr(VivaExamLink) link = NULL;
  g_autoptr(VivaExamServerClient) client = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *token = NULL;

  server_fixture_setup (&fixture, one_exam);

  /* The server's certificate with its fingerprint's last digit changed. */
  other = g_strdup (fixture.fingerprint);
  other[63] = other[63] == '0' ? '1' : '0';
  text = g_strdup_printf ("viva://127.0.0.1:%u/server-quiz#sha256=%s", fixture.port, other);
  link = viva_exam_link_parse (text, &error);
  g_assert_no_error (error);
  client = viva_exam_server_client_new (link);

  token = remote_sign_in (client, &fixture, "s1", &error);
  g_assert_null (token);
  g_assert_error (error, VIVA_REMOTE_ERROR, VIVA_REMOTE_ERROR_CERTIFICATE);
  g_assert_nonnull (strstr (error->message, "127.0.0.1"));
  g_assert_null (viva_exam_server_client_get_token (client));

  /* Nothing reached the server: the student is not signed in. */
  g_assert_cmpint (sign_ins (&fixture, "s1"), ==, 0);

  server_fixture_teardown (&fixture);
}

static void
test_sign_in_and_save (void)
{
  ServerFixture fixture;
  g_autoptr(VivaExamServerClient) client = NULL;
  g_autoptr(VivaExamServerClient) second = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonObject) sitting = NULL;
  g_autoptr(JsonObject) saved = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *token = NULL;
  g_autofree char *token2 = NULL;
  const char *code = "def double(x):\n    return x + x\n";

  server_fixture_setup (&fixture, one_exam);
  client = remote_client (&fixture, "server-quiz", NULL);

  /* A wrong code is refused, in words. */
  viva_exam_server_client_sign_in_async (client, "s1", "AAAA-AAAA", NULL, remote_store_result, &result);
  g_assert_null (viva_exam_server_client_sign_in_finish (client, remote_wait (&result), NULL, &error));
  g_assert_error (error, VIVA_REMOTE_ERROR, VIVA_REMOTE_ERROR_REJECTED);
  g_assert_nonnull (strstr (error->message, "seat card"));
  g_clear_error (&error);
  g_clear_object (&result);

  token = remote_sign_in (client, &fixture, "s1", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (strlen (token), >=, 43);
  g_assert_cmpstr (viva_exam_server_client_get_token (client), ==, token);

  sitting = get_sitting (client, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (sitting, "student"), "id"), ==, "s1");
  g_assert_null (saved_code (sitting, "double"));
  g_clear_pointer (&sitting, json_object_unref);

  viva_exam_server_client_save_code_async (client, "double", code, VIVA_CODE_KIND_AUTOSAVE, NULL,
                                           remote_store_result, &result);
  saved = viva_exam_server_client_save_code_finish (client, remote_wait (&result), &error);
  g_assert_no_error (error);
  g_assert_cmpint (json_object_get_int_member (saved, "saved_at"), >, 0);
  g_clear_object (&result);

  sitting = get_sitting (client, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (saved_code (sitting, "double"), ==, code);
  g_clear_pointer (&sitting, json_object_unref);

  /* A problem the exam does not have is refused. */
  viva_exam_server_client_save_code_async (client, "no/such", code, VIVA_CODE_KIND_RUN, NULL,
                                           remote_store_result, &result);
  g_assert_null (viva_exam_server_client_save_code_finish (client, remote_wait (&result), &error));
  g_assert_error (error, VIVA_REMOTE_ERROR, VIVA_REMOTE_ERROR_REJECTED);
  g_clear_error (&error);
  g_clear_object (&result);

  /* Signing in on a second PC signs the first out. */
  second = remote_client (&fixture, "server-quiz", NULL);
  token2 = remote_sign_in (second, &fixture, "s1", &error);
  g_assert_no_error (error);
  sitting = get_sitting (client, &error);
  g_assert_null (sitting);
  g_assert_error (error, VIVA_REMOTE_ERROR, VIVA_REMOTE_ERROR_SIGNED_OUT);
  g_clear_error (&error);
  sitting = get_sitting (second, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (saved_code (sitting, "double"), ==, code);

  server_fixture_teardown (&fixture);
}

static void
add_timeline (VivaExamServerClient *client)
{
  g_autoptr(JsonArray) events = json_array_new ();
  g_autoptr(JsonObject) event = json_object_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  json_object_set_string_member (event, "kind", "focus");
  json_array_add_object_element (events, g_steal_pointer (&event));
  viva_exam_server_client_add_timeline_async (client, NULL, 0, events, NULL, remote_store_result, &result);
  g_assert_true (viva_exam_server_client_add_timeline_finish (client, remote_wait (&result), &error));
  g_assert_no_error (error);
}

static void
save (VivaExamServerClient *client,
      const char           *code)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonObject) saved = NULL;
  g_autoptr(GError) error = NULL;

  viva_exam_server_client_save_code_async (client, "double", code, VIVA_CODE_KIND_AUTOSAVE, NULL,
                                           remote_store_result, &result);
  saved = viva_exam_server_client_save_code_finish (client, remote_wait (&result), &error);
  g_assert_no_error (error);
}

/* One connection, one handshake, for a sign-in and every call after it,
 * POSTs too; a connection the server closed (it was restarted) is left
 * for a new one and the call still goes through. */
static void
test_keep_alive (void)
{
  ServerFixture fixture;
  g_autoptr(VivaExamServerClient) client = NULL;
  g_autoptr(VivaExamServerClient) one_each = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *token = NULL;
  g_autofree char *token2 = NULL;

  server_fixture_setup (&fixture, one_exam);
  client = remote_client (&fixture, "server-quiz", NULL);
  g_assert_true (viva_exam_server_client_get_keep_alive (client));
  token = remote_sign_in (client, &fixture, "s1", &error);
  g_assert_no_error (error);
  for (guint i = 0; i < 4; i++)
    {
      save (client, "def double(x):\n    return x * 2\n");
      add_timeline (client);
    }
  g_assert_cmpuint (viva_exam_server_client_get_handshakes (client), ==, 1);

  /* As before: libsoup keeps a connection for a PUT (a save), and opens
   * one, with its handshake, for each POST (sign-in, timeline). */
  one_each = remote_client (&fixture, "server-quiz", NULL);
  viva_exam_server_client_set_keep_alive (one_each, FALSE);
  token2 = remote_sign_in (one_each, &fixture, "s2", &error);
  g_assert_no_error (error);
  save (one_each, "def double(x):\n    return x\n");
  g_assert_cmpuint (viva_exam_server_client_get_handshakes (one_each), ==, 1);
  add_timeline (one_each);
  add_timeline (one_each);
  g_assert_cmpuint (viva_exam_server_client_get_handshakes (one_each), ==, 3);

  /* The server restarted: the kept connection is dead; the POST is sent
   * again on a new one, pinned again. */
  server_fixture_kill (&fixture);
  server_fixture_start (&fixture);
  add_timeline (client);
  g_assert_cmpuint (viva_exam_server_client_get_handshakes (client), ==, 2);
  save (client, "def double(x):\n    return x + x\n");
  g_assert_cmpuint (viva_exam_server_client_get_handshakes (client), ==, 2);

  server_fixture_teardown (&fixture);
}

static void
test_addresses (void)
{
  ServerFixture fixture;
  g_autoptr(GSocket) closed = NULL;
  g_autoptr(GSocketAddress) bound = NULL;
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) any = g_inet_socket_address_new (loopback, 0);
  g_autoptr(VivaExamLink) link = NULL;
  g_autoptr(VivaExamServerClient) client = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *token = NULL;
  guint dead_port;

  server_fixture_setup (&fixture, one_exam);

  /* A port bound and not listening: connections to it are refused. */
  closed = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, &error);
  g_assert_no_error (error);
  g_socket_bind (closed, any, TRUE, &error);
  g_assert_no_error (error);
  bound = g_socket_get_local_address (closed, &error);
  dead_port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));

  text = g_strdup_printf ("viva://127.0.0.1:%u,127.0.0.1:%u/server-quiz#sha256=%s",
                          dead_port, fixture.port, fixture.fingerprint);
  link = viva_exam_link_parse (text, &error);
  g_assert_no_error (error);
  client = viva_exam_server_client_new (link);
  token = remote_sign_in (client, &fixture, "s2", &error);
  g_assert_no_error (error);
  g_assert_nonnull (token);

  /* The server away: offline, in words that say the work is kept. */
  server_fixture_kill (&fixture);
  {
    g_autoptr(JsonObject) sitting = get_sitting (client, &error);

    g_assert_null (sitting);
    g_assert_error (error, VIVA_REMOTE_ERROR, VIVA_REMOTE_ERROR_OFFLINE);
    g_assert_true (viva_remote_error_is_retryable (error));
    g_assert_nonnull (strstr (error->message, "kept"));
  }
  server_fixture_start (&fixture);

  server_fixture_teardown (&fixture);
}

static gboolean
hang_up_cb (GSocketService    *service,
            GSocketConnection *connection,
            GObject           *source,
            gpointer           user_data)
{
  g_io_stream_close (G_IO_STREAM (connection), NULL, NULL);
  return TRUE;
}

/* A server that closes the connection in the handshake (as a loaded one
 * cuts off a slow handshake) is away, not another server: the work is
 * kept and sent again, and the student is not told to get a new link. */
static void
test_handshake_cut (void)
{
  g_autoptr(GSocketService) service = g_socket_service_new ();
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) any = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;
  g_autoptr(VivaExamLink) link = NULL;
  g_autoptr(VivaExamServerClient) client = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  g_socket_listener_add_address (G_SOCKET_LISTENER (service), any, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP,
                                 NULL, &bound, &error);
  g_assert_no_error (error);
  g_signal_connect (service, "incoming", G_CALLBACK (hang_up_cb), NULL);
  g_socket_service_start (service);

  text = g_strdup_printf ("viva://127.0.0.1:%u/server-quiz#sha256=%s",
                          g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound)),
                          "3f0a9c1b2d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8");
  link = viva_exam_link_parse (text, &error);
  g_assert_no_error (error);
  client = viva_exam_server_client_new (link);
  viva_exam_server_client_sign_in_async (client, "s1", "AAAA-AAAA", NULL, remote_store_result, &result);
  g_assert_null (viva_exam_server_client_sign_in_finish (client, remote_wait (&result), NULL, &error));
  g_assert_error (error, VIVA_REMOTE_ERROR, VIVA_REMOTE_ERROR_OFFLINE);
  g_assert_true (viva_remote_error_is_retryable (error));
  g_socket_service_stop (service);
}

static gboolean
is_saved (gpointer data)
{
  return viva_remote_sitting_get_save_state (data) == VIVA_REMOTE_SAVE_SAVED &&
         viva_remote_sitting_get_pending (data) == 0;
}

static gboolean
is_offline (gpointer data)
{
  return viva_remote_sitting_get_save_state (data) == VIVA_REMOTE_SAVE_OFFLINE;
}

static void
count_notify (GObject    *object,
              GParamSpec *pspec,
              guint      *count)
{
  (*count)++;
}

static void
test_save_queue (void)
{
  ServerFixture fixture;
  g_autoptr(VivaExamServerClient) client = NULL;
  g_autoptr(VivaExamServerClient) second = NULL;
  g_autoptr(VivaRemoteSitting) sitting = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonObject) state = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *token = NULL;
  g_autofree char *token2 = NULL;
  guint saved_notifies = 0;

  server_fixture_setup (&fixture, one_exam);
  client = remote_client (&fixture, "server-quiz", NULL);
  token = remote_sign_in (client, &fixture, "s3", &error);
  g_assert_no_error (error);

  sitting = viva_remote_sitting_new (client);
  viva_remote_sitting_set_max_backoff (sitting, 200);
  g_signal_connect (sitting, "notify::saved-at", G_CALLBACK (count_notify), &saved_notifies);
  g_assert_cmpint (viva_remote_sitting_get_save_state (sitting), ==, VIVA_REMOTE_SAVE_SAVED);

  /* Typing: three saves of one problem while the first is on its way;
   * the last one wins, the middle one is never sent. */
  viva_remote_sitting_queue_code (sitting, "double", "v1", VIVA_CODE_KIND_AUTOSAVE);
  g_assert_cmpint (viva_remote_sitting_get_save_state (sitting), ==, VIVA_REMOTE_SAVE_SAVING);
  viva_remote_sitting_queue_code (sitting, "double", "v2", VIVA_CODE_KIND_AUTOSAVE);
  viva_remote_sitting_queue_code (sitting, "double", "v3", VIVA_CODE_KIND_RUN);
  viva_remote_sitting_queue_code (sitting, "square", "s1", VIVA_CODE_KIND_AUTOSAVE);
  g_assert_cmpuint (viva_remote_sitting_get_pending (sitting), ==, 2);
  g_assert_cmpstr (viva_remote_sitting_get_unsaved (sitting, "double"), ==, "v3");

  viva_remote_sitting_flush_async (sitting, NULL, remote_store_result, &result);
  g_assert_true (viva_remote_sitting_flush_finish (sitting, remote_wait (&result), &error));
  g_assert_no_error (error);
  g_clear_object (&result);
  g_assert_cmpint (viva_remote_sitting_get_save_state (sitting), ==, VIVA_REMOTE_SAVE_SAVED);
  g_assert_cmpuint (viva_remote_sitting_get_pending (sitting), ==, 0);
  g_assert_null (viva_remote_sitting_get_unsaved (sitting, "double"));
  g_assert_cmpint (viva_remote_sitting_get_saved_at (sitting), >, 0);
  g_assert_cmpuint (saved_notifies, >=, 1);

  state = get_sitting (client, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (saved_code (state, "double"), ==, "v3");
  g_assert_cmpstr (saved_code (state, "square"), ==, "s1");
  g_clear_pointer (&state, json_object_unref);

  /* The network cut while typing: kept, said, and sent when it is back. */
  server_fixture_kill (&fixture);
  viva_remote_sitting_queue_code (sitting, "double", "offline-1", VIVA_CODE_KIND_AUTOSAVE);
  remote_iterate_until (is_offline, sitting);
  g_assert_nonnull (viva_remote_sitting_get_error_message (sitting));
  g_assert_nonnull (strstr (viva_remote_sitting_get_error_message (sitting), "kept"));
  viva_remote_sitting_queue_code (sitting, "double", "offline-2", VIVA_CODE_KIND_AUTOSAVE);
  g_assert_cmpstr (viva_remote_sitting_get_unsaved (sitting, "double"), ==, "offline-2");
  g_assert_cmpuint (viva_remote_sitting_get_pending (sitting), ==, 1);

  server_fixture_start (&fixture);
  viva_remote_sitting_retry_now (sitting);
  remote_iterate_until (is_saved, sitting);
  g_assert_null (viva_remote_sitting_get_error_message (sitting));

  state = get_sitting (client, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (saved_code (state, "double"), ==, "offline-2");
  g_clear_pointer (&state, json_object_unref);

  /* Signed in elsewhere: this PC stops sending, and keeps what it had. */
  second = remote_client (&fixture, "server-quiz", NULL);
  token2 = remote_sign_in (second, &fixture, "s3", &error);
  g_assert_no_error (error);
  viva_remote_sitting_queue_code (sitting, "square", "late", VIVA_CODE_KIND_AUTOSAVE);
  viva_remote_sitting_flush_async (sitting, NULL, remote_store_result, &result);
  g_assert_false (viva_remote_sitting_flush_finish (sitting, remote_wait (&result), &error));
  g_assert_error (error, VIVA_REMOTE_ERROR, VIVA_REMOTE_ERROR_SIGNED_OUT);
  g_clear_error (&error);
  g_assert_cmpint (viva_remote_sitting_get_save_state (sitting), ==, VIVA_REMOTE_SAVE_SIGNED_OUT);
  g_assert_cmpstr (viva_remote_sitting_get_unsaved (sitting, "square"), ==, "late");

  state = get_sitting (second, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (saved_code (state, "square"), ==, "s1");

  server_fixture_teardown (&fixture);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/viva/remote/client/wrong-fingerprint", test_wrong_fingerprint);
  g_test_add_func ("/viva/remote/client/sign-in-and-save", test_sign_in_and_save);
  g_test_add_func ("/viva/remote/client/addresses", test_addresses);
  g_test_add_func ("/viva/remote/client/handshake-cut", test_handshake_cut);
  g_test_add_func ("/viva/remote/client/save-queue", test_save_queue);
  g_test_add_func ("/viva/remote/client/keep-alive", test_keep_alive);

  return g_test_run ();
}

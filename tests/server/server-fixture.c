/* server-fixture.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <sys/prctl.h>
#include <string.h>

#include "server-fixture.h"
#include "server-postgres.h"

/* The real daemon, started the way a teacher starts it (init, exam add,
 * codes, serve), and a libsoup client that trusts exactly the certificate
 * whose fingerprint serve printed: the pinning the app does. With
 * VIVA_TEST_SERVER_DATABASE=postgresql (the suite's second registration)
 * every command is given --database, a fresh database in the binary's
 * own PostgreSQL cluster (server-postgres.c), through its unix socket;
 * postgresql-tcp reaches it over 127.0.0.1, as nodes on other machines do. */

const char *
server_fixture_binary (void)
{
  return VIVA_SERVER_PATH;
}

/**
 * server_fixture_engine_skip:
 *
 * For main(), before g_test_run().
 *
 * Returns: 77 (Meson's skip) after saying why, when the tests were asked
 *   to run on PostgreSQL and it is not installed; otherwise 0
 */
int
server_fixture_engine_skip (void)
{
  g_autofree char *reason = NULL;

  if (!server_postgres_wanted () || server_postgres_check (&reason))
    return 0;
  g_print ("SKIP: %s\n", reason);
  return 77;
}

int
server_fixture_run (ServerFixture      *fixture,
                    const char * const *args,
                    char              **out)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *stdout_text = NULL;

  g_ptr_array_add (argv, (char *)server_fixture_binary ());
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *)args[i]);
  g_ptr_array_add (argv, (char *)"--state-dir");
  g_ptr_array_add (argv, fixture->state_dir);
  if (fixture->database != NULL)
    {
      g_ptr_array_add (argv, (char *)"--database");
      g_ptr_array_add (argv, fixture->database);
    }
  g_ptr_array_add (argv, NULL);

  process = g_subprocess_newv ((const char * const *)argv->pdata, G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (process, NULL, NULL, &stdout_text, NULL, &error);
  g_assert_no_error (error);
  if (out != NULL)
    *out = g_steal_pointer (&stdout_text);
  return g_subprocess_get_exit_status (process);
}

static JsonObject *
last_event (const char *text)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  JsonObject *last = NULL;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(JsonNode) node = NULL;

      if (lines[i][0] == '\0')
        continue;
      node = json_from_string (lines[i], NULL);
      g_assert_nonnull (node);
      g_clear_pointer (&last, json_object_unref);
      last = json_object_ref (json_node_get_object (node));
    }
  return last;
}

static void
read_codes (ServerFixture *fixture,
            const char    *exam_id)
{
  const char *args[] = { "codes", exam_id, "--json", NULL };
  g_autofree char *out = NULL;
  g_auto(GStrv) lines = NULL;

  g_assert_cmpint (server_fixture_run (fixture, args, &out), ==, 0);
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(JsonNode) node = NULL;
      JsonObject *object;

      if (lines[i][0] == '\0')
        continue;
      node = json_from_string (lines[i], NULL);
      object = json_node_get_object (node);
      if (g_str_equal (json_object_get_string_member (object, "event"), "code"))
        g_hash_table_insert (fixture->codes,
                             g_strconcat (exam_id, "/", json_object_get_string_member (object, "student_id"), NULL),
                             g_strdup (json_object_get_string_member (object, "code")));
    }
}

void
server_fixture_setup (ServerFixture      *fixture,
                      const char * const *exam_files)
{
  server_fixture_setup_full (fixture, exam_files, NULL);
}

/**
 * server_fixture_setup_full:
 * @serve_args: (nullable): more options for every serve of this fixture
 */
void
server_fixture_setup_full (ServerFixture      *fixture,
                           const char * const *exam_files,
                           const char * const *serve_args)
{
  const char *init[] = { "init", "--host", "127.0.0.1", "--listen", "127.0.0.1:8443", "--json", NULL };
  g_autofree char *roster = g_test_build_filename (G_TEST_DIST, "server", "roster.csv", NULL);
  g_autofree char *out = NULL;
  g_autoptr(JsonObject) event = NULL;
  g_autoptr(GError) error = NULL;

  memset (fixture, 0, sizeof *fixture);
  fixture->serve_args = serve_args;
  fixture->state_dir = g_dir_make_tmp ("viva-server-test-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->teacher_tokens = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  fixture->codes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  fixture->links = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  if (server_postgres_wanted ())
    fixture->database = server_postgres_new_database (g_strcmp0 (g_getenv ("VIVA_TEST_SERVER_DATABASE"),
                                                                 "postgresql-tcp") == 0);

  g_assert_cmpint (server_fixture_run (fixture, init, &out), ==, 0);
  event = last_event (out);
  g_assert_cmpstr (json_object_get_string_member (event, "event"), ==, "init");
  fixture->fingerprint = g_strdup (json_object_get_string_member (event, "fingerprint"));
  g_assert_cmpuint (strlen (fixture->fingerprint), ==, 64);

  for (guint i = 0; exam_files != NULL && exam_files[i] != NULL; i++)
    {
      g_autofree char *path = g_test_build_filename (G_TEST_DIST, "server", exam_files[i], NULL);
      const char *add[] = { "exam", "add", path, "--roster", roster, "--json", NULL };
      g_autofree char *added = NULL;
      g_autoptr(JsonObject) result = NULL;
      const char *exam_id;

      g_assert_cmpint (server_fixture_run (fixture, add, &added), ==, 0);
      result = last_event (added);
      exam_id = json_object_get_string_member (result, "exam");
      g_hash_table_insert (fixture->teacher_tokens, g_strdup (exam_id),
                           g_strdup (json_object_get_string_member (result, "teacher_token")));
      g_hash_table_insert (fixture->links, g_strdup (exam_id),
                           g_strdup (json_object_get_string_member (result, "link")));
      read_codes (fixture, exam_id);
    }

  fixture->session = soup_session_new_with_options ("timeout", 30, NULL);
  server_fixture_start (fixture);
}

/* A server outlives no test that aborted: it is killed with its parent. */
static void
die_with_parent (gpointer user_data)
{
  prctl (PR_SET_PDEATHSIG, SIGKILL);
}

void
server_fixture_start (ServerFixture *fixture)
{
  g_autofree char *listen = g_strdup_printf ("127.0.0.1:%u", fixture->port);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  const char *head[] = { server_fixture_binary (), "serve", "--state-dir", fixture->state_dir,
                         "--listen", listen, "--json", NULL };
  g_autoptr(GDataInputStream) lines = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = NULL;
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  JsonObject *object;

  g_assert_null (fixture->process);
  for (guint i = 0; head[i] != NULL; i++)
    g_ptr_array_add (argv, (char *)head[i]);
  if (fixture->database != NULL)
    {
      g_ptr_array_add (argv, (char *)"--database");
      g_ptr_array_add (argv, fixture->database);
    }
  for (guint i = 0; fixture->serve_args != NULL && fixture->serve_args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *)fixture->serve_args[i]);
  g_ptr_array_add (argv, NULL);

  g_subprocess_launcher_set_child_setup (launcher, die_with_parent, NULL, NULL);
  fixture->process = g_subprocess_launcher_spawnv (launcher, (const char * const *)argv->pdata, &error);
  g_assert_no_error (error);

  lines = g_data_input_stream_new (g_subprocess_get_stdout_pipe (fixture->process));
  line = g_data_input_stream_read_line_utf8 (lines, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (line);
  node = json_from_string (line, &error);
  g_assert_no_error (error);
  object = json_node_get_object (node);
  g_assert_cmpstr (json_object_get_string_member (object, "event"), ==, "listening");
  g_assert_cmpstr (json_object_get_string_member (object, "fingerprint"), ==, fixture->fingerprint);
  fixture->port = json_object_get_int_member (object, "port");
  g_assert_cmpuint (fixture->port, >, 0);
  g_clear_pointer (&fixture->listening, json_object_unref);
  fixture->listening = json_object_ref (object);
}

void
server_fixture_kill (ServerFixture *fixture)
{
  g_assert_nonnull (fixture->process);
  g_subprocess_send_signal (fixture->process, SIGKILL);
  g_subprocess_wait (fixture->process, NULL, NULL);
  g_clear_object (&fixture->process);
  /* A new connection for the next server: the old ones died with it. */
  g_clear_object (&fixture->session);
  fixture->session = soup_session_new_with_options ("timeout", 30, NULL);
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)))
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

void
server_fixture_teardown (ServerFixture *fixture)
{
  if (fixture->process != NULL)
    {
      g_subprocess_send_signal (fixture->process, SIGTERM);
      g_subprocess_wait (fixture->process, NULL, NULL);
      /* A clean stop exits 0. */
      g_assert_true (g_subprocess_get_if_exited (fixture->process));
      g_assert_cmpint (g_subprocess_get_exit_status (fixture->process), ==, 0);
      g_clear_object (&fixture->process);
    }
  g_clear_object (&fixture->session);
  remove_tree (fixture->state_dir);
  g_clear_pointer (&fixture->state_dir, g_free);
  g_clear_pointer (&fixture->database, g_free);
  g_clear_pointer (&fixture->fingerprint, g_free);
  g_clear_pointer (&fixture->listening, json_object_unref);
  g_clear_pointer (&fixture->teacher_tokens, g_hash_table_unref);
  g_clear_pointer (&fixture->codes, g_hash_table_unref);
  g_clear_pointer (&fixture->links, g_hash_table_unref);
}

static gboolean
accept_certificate_cb (SoupMessage          *msg,
                       GTlsCertificate      *certificate,
                       GTlsCertificateFlags  errors,
                       ServerFixture        *fixture)
{
  g_autoptr(GByteArray) der = NULL;
  g_autofree char *fingerprint = NULL;

  /* Pinned: this certificate and no other, whatever authority signed it. */
  g_object_get (certificate, "certificate", &der, NULL);
  fingerprint = g_compute_checksum_for_data (G_CHECKSUM_SHA256, der->data, der->len);
  return g_str_equal (fingerprint, fixture->fingerprint);
}

SoupMessage *server_fixture_message (ServerFixture *fixture,
                                     const char    *method,
                                     const char    *path,
                                     const char    *token);

SoupMessage *
server_fixture_message (ServerFixture *fixture,
                        const char    *method,
                        const char    *path,
                        const char    *token)
{
  g_autofree char *uri = g_strdup_printf ("https://127.0.0.1:%u%s", fixture->port, path);
  SoupMessage *msg = soup_message_new (method, uri);

  g_assert_nonnull (msg);
  g_signal_connect (msg, "accept-certificate", G_CALLBACK (accept_certificate_cb), fixture);
  if (token != NULL)
    {
      g_autofree char *header = g_strconcat ("Bearer ", token, NULL);

      soup_message_headers_replace (soup_message_get_request_headers (msg), "Authorization", header);
    }
  return msg;
}

/**
 * server_fixture_request:
 * @raw: (out) (optional): the body as received
 *
 * Returns: (transfer full): the JSON answer (every answer is JSON)
 */
JsonNode *
server_fixture_request (ServerFixture *fixture,
                        const char    *method,
                        const char    *path,
                        const char    *token,
                        const char    *body,
                        guint         *status,
                        char         **raw)
{
  g_autoptr(SoupMessage) msg = server_fixture_message (fixture, method, path, token);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  JsonNode *node;

  if (body != NULL)
    {
      g_autoptr(GBytes) request = g_bytes_new (body, strlen (body));

      soup_message_set_request_body_from_bytes (msg, "application/json", request);
    }

  bytes = soup_session_send_and_read (fixture->session, msg, NULL, &error);
  g_assert_no_error (error);
  text = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  g_assert_cmpstr (soup_message_headers_get_content_type (soup_message_get_response_headers (msg), NULL),
                   ==, "application/json");
  node = json_from_string (text, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
  if (status != NULL)
    *status = soup_message_get_status (msg);
  if (raw != NULL)
    *raw = g_steal_pointer (&text);
  return node;
}

char *
server_fixture_sign_in (ServerFixture *fixture,
                        const char    *exam_id,
                        const char    *student_id)
{
  g_autofree char *key = g_strconcat (exam_id, "/", student_id, NULL);
  const char *code = g_hash_table_lookup (fixture->codes, key);
  g_autofree char *path = g_strdup_printf ("/api/v1/exams/%s/sign-in", exam_id);
  g_autofree char *body = g_strdup_printf ("{\"student_id\":\"%s\",\"code\":\"%s\"}", student_id, code);
  g_autoptr(JsonNode) answer = NULL;
  guint status = 0;

  g_assert_nonnull (code);
  answer = server_fixture_request (fixture, "POST", path, NULL, body, &status, NULL);
  g_assert_cmpuint (status, ==, 200);
  return g_strdup (json_object_get_string_member (json_node_get_object (answer), "token"));
}

char *
server_fixture_submit (ServerFixture *fixture,
                       const char    *token,
                       const char    *exam_id,
                       const char    *problem_id,
                       const char    *code)
{
  g_autofree char *path = g_strdup_printf ("/api/v1/exams/%s/sitting/problems/%s/submit", exam_id, problem_id);
  g_autoptr(JsonObject) body = json_object_new ();
  g_autoptr(JsonNode) body_node = NULL;
  g_autofree char *text = NULL;
  g_autoptr(JsonNode) answer = NULL;
  guint status = 0;

  json_object_set_string_member (body, "code", code);
  body_node = json_node_init_object (json_node_alloc (), body);
  text = json_to_string (body_node, FALSE);
  answer = server_fixture_request (fixture, "POST", path, token, text, &status, NULL);
  g_assert_cmpuint (status, ==, 201);
  return g_strdup (json_object_get_string_member (json_object_get_object_member (json_node_get_object (answer),
                                                                                 "defense"), "id"));
}

/**
 * server_fixture_wait_for:
 * @after: (inout): the last sequence number seen; moved past what is read
 * @seen: (nullable): every response's text is appended here
 *
 * Polls the defense's events (the JSON page form) until one of @kind
 * comes, checking on the way that sequence numbers only grow.
 *
 * Returns: (transfer full): that event (`seq`, `kind`, `data`)
 */
JsonObject *
server_fixture_wait_for (ServerFixture *fixture,
                         const char    *token,
                         const char    *exam_id,
                         const char    *defense_id,
                         const char    *kind,
                         gint64        *after,
                         GString       *seen)
{
  for (guint attempt = 0; attempt < 600; attempt++)
    {
      g_autofree char *path = g_strdup_printf ("/api/v1/exams/%s/defenses/%s/events?after=%" G_GINT64_FORMAT,
                                               exam_id, defense_id, *after);
      g_autofree char *raw = NULL;
      g_autoptr(JsonNode) answer = NULL;
      JsonArray *events;
      guint status = 0;

      answer = server_fixture_request (fixture, "GET", path, token, NULL, &status, &raw);
      g_assert_cmpuint (status, ==, 200);
      if (seen != NULL)
        g_string_append (seen, raw);
      events = json_object_get_array_member (json_node_get_object (answer), "events");
      for (guint i = 0; i < json_array_get_length (events); i++)
        {
          JsonObject *event = json_array_get_object_element (events, i);
          gint64 seq = json_object_get_int_member (event, "seq");

          g_assert_cmpint (seq, >, *after);
          *after = seq;
          if (g_str_equal (json_object_get_string_member (event, "kind"), kind))
            return json_object_ref (event);
        }
      g_usleep (100 * 1000);
    }
  g_error ("no %s event came in a minute", kind);
  return NULL;
}

/**
 * server_fixture_worker_token:
 *
 * Returns: (transfer full): a new worker token of @exam_id
 */
char *
server_fixture_worker_token (ServerFixture *fixture,
                             const char    *exam_id)
{
  const char *args[] = { "worker-token", exam_id, "--json", NULL };
  g_autofree char *out = NULL;
  g_autoptr(JsonNode) node = NULL;

  g_assert_cmpint (server_fixture_run (fixture, args, &out), ==, 0);
  node = json_from_string (out, NULL);
  g_assert_nonnull (node);
  return g_strdup (json_object_get_string_member (json_node_get_object (node), "worker_token"));
}

/**
 * server_fixture_start_worker:
 *
 * @kind: (nullable): its --kind (run, grade), or %NULL for any job
 *
 * Starts `viva-server worker` on @exam_id's link (with the port serve
 * took), dying with the test.
 */
ServerWorker *
server_fixture_start_worker (ServerFixture *fixture,
                             const char    *exam_id,
                             const char    *token,
                             const char    *name,
                             const char    *kind)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  const char *link = g_hash_table_lookup (fixture->links, exam_id);
  g_autofree char *port = g_strdup_printf (":%u/", fixture->port);
  g_autofree char *served = NULL;
  g_autoptr(GError) error = NULL;
  ServerWorker *worker = g_new0 (ServerWorker, 1);
  g_auto(GStrv) parts = NULL;

  /* The link names the port init was told; serve took a free one. */
  g_assert_nonnull (link);
  parts = g_strsplit (link, ":8443/", 2);
  served = g_strjoin (port, parts[0], parts[1], NULL);
  {
    const char *argv[] = { server_fixture_binary (), "worker", "--server", served, "--worker-token", token,
                           "--name", name, "--json", kind ? "--kind" : NULL, kind, NULL };

    g_subprocess_launcher_set_child_setup (launcher, die_with_parent, NULL, NULL);
    worker->process = g_subprocess_launcher_spawnv (launcher, argv, &error);
    g_assert_no_error (error);
  }
  worker->lines = g_data_input_stream_new (g_subprocess_get_stdout_pipe (worker->process));
  return worker;
}

/**
 * server_worker_wait:
 *
 * Reads the worker's events until one of @kind (a refusal fails the test).
 *
 * Returns: (transfer full): its job's id, "" for none
 */
char *
server_worker_wait (ServerWorker *worker,
                    const char   *kind)
{
  for (;;)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *line = g_data_input_stream_read_line_utf8 (worker->lines, NULL, NULL, &error);
      g_autoptr(JsonNode) node = NULL;
      JsonObject *object;

      g_assert_no_error (error);
      if (line == NULL)
        g_error ("the worker stopped before saying %s", kind);
      node = json_from_string (line, NULL);
      g_assert_nonnull (node);
      object = json_node_get_object (node);
      g_assert_cmpstr (json_object_get_string_member (object, "event"), !=, "refused");
      if (g_str_equal (json_object_get_string_member (object, "event"), kind))
        return g_strdup (json_object_get_string_member_with_default (object, "job", ""));
    }
}

/* SIGKILL, as a machine lost. */
void
server_worker_kill (ServerWorker *worker)
{
  g_subprocess_send_signal (worker->process, SIGKILL);
  g_subprocess_wait (worker->process, NULL, NULL);
  g_object_unref (worker->lines);
  g_object_unref (worker->process);
  g_free (worker);
}

/**
 * server_fixture_defend:
 *
 * Answers each question of the defense as it comes (“zero”), until its
 * verdict; an error event fails the test.
 *
 * Returns: (transfer full): the verdict event
 */
JsonObject *
server_fixture_defend (ServerFixture *fixture,
                       const char    *token,
                       const char    *exam_id,
                       const char    *defense_id)
{
  gint64 after = 0;

  for (guint attempt = 0; attempt < 1200; attempt++)
    {
      g_autofree char *path = g_strdup_printf ("/api/v1/exams/%s/defenses/%s/events?after=%" G_GINT64_FORMAT,
                                               exam_id, defense_id, after);
      g_autoptr(JsonNode) page = NULL;
      JsonArray *events;
      guint status = 0;

      page = server_fixture_request (fixture, "GET", path, token, NULL, &status, NULL);
      g_assert_cmpuint (status, ==, 200);
      events = json_object_get_array_member (json_node_get_object (page), "events");
      for (guint i = 0; i < json_array_get_length (events); i++)
        {
          JsonObject *event = json_array_get_object_element (events, i);
          const char *kind = json_object_get_string_member (event, "kind");

          after = json_object_get_int_member (event, "seq");
          g_assert_cmpstr (kind, !=, "error");
          if (g_str_equal (kind, "verdict"))
            return json_object_ref (event);
          if (g_str_equal (kind, "question"))
            {
              g_autofree char *answer_path = g_strdup_printf ("/api/v1/exams/%s/defenses/%s/answer", exam_id,
                                                              defense_id);
              g_autofree char *body = g_strdup_printf ("{\"text\":\"zero\",\"question_seq\":%" G_GINT64_FORMAT "}",
                                                       after);
              g_autoptr(JsonNode) reply = NULL;

              reply = server_fixture_request (fixture, "POST", answer_path, token, body, &status, NULL);
              g_assert_cmpuint (status, ==, 200);
            }
        }
      g_usleep (100 * 1000);
    }
  g_error ("the defense reached no verdict in two minutes");
  return NULL;
}

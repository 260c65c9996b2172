/* test-server-nodes.c: two viva-server nodes and two grading workers over
 * one PostgreSQL on 127.0.0.1, behind the README's HAProxy configuration;
 * a node and a worker killed with SIGKILL
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <netinet/in.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "server-fixture.h"
#include "server-postgres.h"
#include "viva-server-store-pool.h"

SoupMessage *server_fixture_message (ServerFixture *, const char *, const char *, const char *);

static const char * const one_exam[] = { "exam.json", NULL };
static const char * const workers_only[] = { "--local-jobs", "0", NULL };
/* Each node grades one job at a time itself: a defense's grade is the
 * pool's job (it finishes only once graded), claimed by whichever node
 * comes first. */
static const char * const one_local_job[] = { "--local-jobs", "1", NULL };

#define SLOW_DOUBLE "import time\ntime.sleep(2)\ndef double(x):\n    return 2 * x\n"

/* The README's configuration (README.md, "On PostgreSQL"), with this
 * test's ports and a faster check. */
#define HAPROXY_CONFIG \
  "global\n" \
  "  maxconn 2000\n" \
  "defaults\n" \
  "  mode tcp\n" \
  "  timeout connect 2s\n" \
  "  timeout client 1h\n" \
  "  timeout server 1h\n" \
  "  retries 3\n" \
  "  option redispatch\n" \
  "frontend viva\n" \
  "  bind 127.0.0.1:%u\n" \
  "  default_backend nodes\n" \
  "backend nodes\n" \
  "  balance first\n" \
  "  option httpchk GET /api/v1/health\n" \
  "  http-check expect status 200\n" \
  "  default-server check check-ssl verify none inter 300ms fall 2 rise 2 on-marked-down shutdown-sessions\n" \
  "  server a 127.0.0.1:%u\n" \
  "  server b 127.0.0.1:%u\n"

static void
die_with_parent (gpointer user_data)
{
  prctl (PR_SET_PDEATHSIG, SIGKILL);
}

static GSubprocess *
spawn (GSubprocessFlags    flags,
       const char * const *argv)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (flags);
  g_autoptr(GError) error = NULL;
  GSubprocess *process;

  g_subprocess_launcher_set_child_setup (launcher, die_with_parent, NULL, NULL);
  process = g_subprocess_launcher_spawnv (launcher, argv, &error);
  g_assert_no_error (error);
  return process;
}

static JsonObject *
read_event_object (GDataInputStream *lines,
                   const char       *kind)
{
  for (;;)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *line = g_data_input_stream_read_line_utf8 (lines, NULL, NULL, &error);
      g_autoptr(JsonNode) node = NULL;
      JsonObject *object;

      g_assert_no_error (error);
      if (line == NULL)
        g_error ("the process stopped before saying %s", kind);
      node = json_from_string (line, NULL);
      g_assert_nonnull (node);
      object = json_node_get_object (node);
      if (g_str_equal (json_object_get_string_member (object, "event"), kind))
        return json_object_ref (object);
    }
}

static char *
read_event (GDataInputStream *lines,
            const char       *kind,
            const char       *member)
{
  g_autoptr(JsonObject) object = read_event_object (lines, kind);

  return g_strdup (json_object_get_string_member_with_default (object, member, ""));
}

static guint
free_port (void)
{
  struct sockaddr_in address = { .sin_family = AF_INET, .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  socklen_t length = sizeof address;
  int fd = socket (AF_INET, SOCK_STREAM, 0);
  guint found;

  g_assert_cmpint (bind (fd, (struct sockaddr *)&address, sizeof address), ==, 0);
  g_assert_cmpint (getsockname (fd, (struct sockaddr *)&address, &length), ==, 0);
  found = ntohs (address.sin_port);
  close (fd);
  return found;
}

/* A second node: a copy of the first's state folder (the same certificate,
 * keys and database), as on a second machine. */
static GSubprocess *
start_node (ServerFixture     *fixture,
            char             **state_dir,
            guint             *port,
            GDataInputStream **lines)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *copy = g_dir_make_tmp ("viva-server-node-XXXXXX", &error);
  g_autofree char *cp = g_strdup_printf ("cp -a '%s/.' '%s'", fixture->state_dir, copy);
  g_autoptr(JsonObject) listening = NULL;
  GSubprocess *process;

  g_assert_no_error (error);
  g_assert_cmpint (system (cp), ==, 0);
  {
    const char *argv[] = { server_fixture_binary (), "serve", "--state-dir", copy, "--listen", "127.0.0.1:0",
                           "--local-jobs", fixture->serve_args[1], "--json", NULL };

    process = spawn (G_SUBPROCESS_FLAGS_STDOUT_PIPE, argv);
  }
  *lines = g_data_input_stream_new (g_subprocess_get_stdout_pipe (process));
  listening = read_event_object (*lines, "listening");
  g_assert_cmpstr (json_object_get_string_member (listening, "fingerprint"), ==, fixture->fingerprint);
  *state_dir = g_steal_pointer (&copy);
  *port = json_object_get_int_member (listening, "port");
  return process;
}

static char *
worker_token (ServerFixture *fixture)
{
  const char *args[] = { "worker-token", "server-quiz", "--json", NULL };
  g_autofree char *out = NULL;
  g_autoptr(JsonNode) node = NULL;

  g_assert_cmpint (server_fixture_run (fixture, args, &out), ==, 0);
  node = json_from_string (out, NULL);
  return g_strdup (json_object_get_string_member (json_node_get_object (node), "worker_token"));
}

static GSubprocess *
start_worker (const char        *link,
              const char        *token,
              const char        *name,
              const char        *kind,
              GDataInputStream **lines)
{
  const char *argv[] = { server_fixture_binary (), "worker", "--server", link, "--worker-token", token,
                         "--name", name, "--json", "--kind", kind, NULL };
  GSubprocess *process = spawn (G_SUBPROCESS_FLAGS_STDOUT_PIPE, argv);

  *lines = g_data_input_stream_new (g_subprocess_get_stdout_pipe (process));
  return process;
}

static void
kill_process (GSubprocess *process)
{
  g_subprocess_send_signal (process, SIGKILL);
  g_subprocess_wait (process, NULL, NULL);
}

static JsonArray *
events (ServerFixture *fixture,
        const char    *token,
        const char    *defense)
{
  g_autofree char *path = g_strdup_printf ("/api/v1/exams/server-quiz/defenses/%s/events?after=0", defense);
  g_autoptr(JsonNode) page = NULL;
  guint status = 0;

  page = server_fixture_request (fixture, "GET", path, token, NULL, &status, NULL);
  g_assert_cmpuint (status, ==, 200);
  return json_array_ref (json_object_get_array_member (json_node_get_object (page), "events"));
}

/* Node a serves the room (HAProxy's `balance first`); a worker is killed
 * mid-job, then node a itself, with a question pending. The student's
 * next requests reach node b through the same address: the sitting, the
 * code saved on a, the defense and its pending question (the same event,
 * once) are all there, since they are in the database; once a's lease
 * runs out b continues the defense, the same question pending, and takes
 * the answer; a worker on b re-runs the job, recorded once. */
/* The defense's next question or verdict (an error fails). */
static JsonObject *
wait_for_any (ServerFixture *fixture,
              const char    *token,
              const char    *defense_id,
              gint64        *after)
{
  for (guint attempt = 0; attempt < 1200; attempt++)
    {
      g_autofree char *path = g_strdup_printf ("/api/v1/exams/server-quiz/defenses/%s/events?after=%" G_GINT64_FORMAT,
                                               defense_id, *after);
      g_autoptr(JsonNode) answer = NULL;
      JsonArray *events;
      guint status = 0;

      answer = server_fixture_request (fixture, "GET", path, token, NULL, &status, NULL);
      g_assert_cmpuint (status, ==, 200);
      events = json_object_get_array_member (json_node_get_object (answer), "events");
      for (guint i = 0; i < json_array_get_length (events); i++)
        {
          JsonObject *event = json_array_get_object_element (events, i);
          const char *kind = json_object_get_string_member (event, "kind");

          *after = json_object_get_int_member (event, "seq");
          g_assert_cmpstr (kind, !=, "error");
          if (g_str_equal (kind, "question") || g_str_equal (kind, "verdict"))
            return json_object_ref (event);
        }
      g_usleep (100 * 1000);
    }
  g_error ("the defense said nothing more in two minutes");
  return NULL;
}

static void
test_two_nodes (void)
{
  ServerFixture fixture;
  g_autofree char *haproxy = g_find_program_in_path ("haproxy");
  g_autofree char *sbin_haproxy = g_file_test ("/usr/sbin/haproxy", G_FILE_TEST_IS_EXECUTABLE)
                                  ? g_strdup ("/usr/sbin/haproxy") : NULL;
  g_autofree char *token = NULL;
  g_autofree char *student = NULL;
  g_autofree char *defense = NULL;
  g_autofree char *job = NULL;
  g_autofree char *b_dir = NULL;
  g_autofree char *config_path = NULL;
  g_autofree char *link = NULL;
  g_autofree char *claimed = NULL;
  g_autofree char *recorded = NULL;
  g_autofree char *debug = NULL;
  g_autoptr(GDataInputStream) b_lines = NULL;
  g_autoptr(GDataInputStream) w1_lines = NULL;
  g_autoptr(GDataInputStream) w2_lines = NULL;
  g_autoptr(GSubprocess) node_b = NULL;
  g_autoptr(GSubprocess) proxy = NULL;
  g_autoptr(GSubprocess) w1 = NULL;
  g_autoptr(GSubprocess) runs = NULL;
  g_autoptr(GDataInputStream) runs_lines = NULL;
  g_autoptr(GSubprocess) w2 = NULL;
  g_autoptr(JsonObject) question = NULL;
  g_autoptr(JsonArray) before = NULL;
  g_autoptr(JsonArray) after_kill = NULL;
  g_autoptr(JsonNode) sitting = NULL;
  g_autoptr(JsonNode) saved = NULL;
  guint a_port, b_port = 0, front_port, status = 0;
  gint64 after = 0;

  if (haproxy == NULL)
    haproxy = g_steal_pointer (&sbin_haproxy);
  if (haproxy == NULL)
    {
      g_test_skip ("haproxy is not installed (apt install haproxy): the README's configuration is not tested here");
      return;
    }

  g_setenv ("VIVA_SERVER_LEASE_MS", "1500", TRUE);
  /* HACK: HAProxy's TLS health checks close some connections before
   * libsoup 3.2's server has read their peer's address, and libsoup then
   * logs a warning (soup-server-connection.c, "could not get remote
   * address"); under fatal-warnings that killed node a mid-test on a
   * loaded machine. The nodes behind HAProxy keep every other check. */
  debug = g_strdup (g_getenv ("G_DEBUG"));
  g_setenv ("G_DEBUG", "gc-friendly", TRUE);
  server_fixture_setup_full (&fixture, one_exam, workers_only);
  a_port = fixture.port;
  node_b = start_node (&fixture, &b_dir, &b_port, &b_lines);
  if (debug != NULL)
    g_setenv ("G_DEBUG", debug, TRUE);
  else
    g_unsetenv ("G_DEBUG");
  front_port = free_port ();
  config_path = g_build_filename (fixture.state_dir, "haproxy.cfg", NULL);
  {
    g_autofree char *config = g_strdup_printf (HAPROXY_CONFIG, front_port, a_port, b_port);
    const char *argv[] = { haproxy, "-db", "-f", config_path, NULL };

    g_assert_true (g_file_set_contents (config_path, config, -1, NULL));
    proxy = spawn (G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_SILENCE, argv);
  }
  /* Every request from here goes through HAProxy. */
  fixture.port = front_port;
  for (guint i = 0; i < 100; i++)
    {
      g_autoptr(GSocketClient) client = g_socket_client_new ();
      g_autoptr(GSocketConnection) connection = g_socket_client_connect_to_host (client, "127.0.0.1", front_port,
                                                                                 NULL, NULL);
      if (connection != NULL)
        break;
      g_usleep (50 * 1000);
    }

  token = worker_token (&fixture);
  link = g_strdup_printf ("viva://127.0.0.1:%u/server-quiz#sha256=%s", front_port, fixture.fingerprint);
  student = server_fixture_sign_in (&fixture, "server-quiz", "s1");
  saved = server_fixture_request (&fixture, "PUT", "/api/v1/exams/server-quiz/sitting/problems/square/code",
                                  student, "{\"kind\":\"autosave\",\"code\":\"def square(x):\\n    return x * x\\n\"}",
                                  &status, NULL);
  g_assert_cmpuint (status, ==, 200);

  /* The defense's code runs are jobs too: a worker of their own, so the
   * workers below see the grading alone. */
  runs = start_worker (link, token, "runs", "run", &runs_lines);

  /* A submission: its defense runs on node a, its grading is a job. */
  {
    g_autoptr(JsonObject) body = json_object_new ();
    g_autoptr(JsonNode) body_node = NULL;
    g_autofree char *text = NULL;
    g_autoptr(JsonNode) answer = NULL;

    json_object_set_string_member (body, "code", SLOW_DOUBLE);
    body_node = json_node_init_object (json_node_alloc (), body);
    text = json_to_string (body_node, FALSE);
    answer = server_fixture_request (&fixture, "POST", "/api/v1/exams/server-quiz/sitting/problems/double/submit",
                                     student, text, &status, NULL);
    g_assert_cmpuint (status, ==, 201);
    job = g_strdup (json_object_get_string_member (json_node_get_object (answer), "grading_job"));
    defense = g_strdup (json_object_get_string_member (json_object_get_object_member (json_node_get_object (answer),
                                                                                      "defense"), "id"));
  }
  question = server_fixture_wait_for (&fixture, student, "server-quiz", defense, "question", &after, NULL);
  before = events (&fixture, student, defense);

  /* A worker killed mid-job. */
  w1 = start_worker (link, token, "w1", "grade", &w1_lines);
  claimed = read_event (w1_lines, "claimed", "job");
  g_assert_cmpstr (claimed, ==, job);
  kill_process (w1);

  /* Node a killed with the question pending. */
  server_fixture_kill (&fixture);
  fixture.port = front_port;

  /* The student's next requests reach node b, through the same address;
   * as the app does, a request cut by the node's death is sent again. */
  status = 0;
  for (guint i = 0; i < 100 && status != 200; i++)
    {
      g_autoptr(SoupMessage) msg = server_fixture_message (&fixture, "GET", "/api/v1/exams/server-quiz/sitting",
                                                           student);
      g_autoptr(GBytes) bytes = soup_session_send_and_read (fixture.session, msg, NULL, NULL);

      status = bytes ? soup_message_get_status (msg) : 0;
      if (status != 200)
        g_usleep (100 * 1000);
    }
  g_assert_cmpuint (status, ==, 200);
  sitting = server_fixture_request (&fixture, "GET", "/api/v1/exams/server-quiz/sitting", student, NULL,
                                    &status, NULL);
  {
    JsonArray *problems = json_object_get_array_member (json_node_get_object (sitting), "problems");
    gboolean square_kept = FALSE;

    for (guint i = 0; i < json_array_get_length (problems); i++)
      {
        JsonObject *problem = json_array_get_object_element (problems, i);

        if (g_str_equal (json_object_get_string_member (problem, "id"), "square"))
          square_kept = g_str_equal (json_object_get_string_member (json_object_get_object_member (problem, "code"),
                                                                    "text"), "def square(x):\n    return x * x\n");
        if (g_str_equal (json_object_get_string_member (problem, "id"), "double"))
          g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (problem, "defense"), "id"),
                           ==, defense);
      }
    g_assert_true (square_kept);
  }

  /* The same question, under the same number, told once. What node a
   * told is all still there, in its numbers; past it, only node b's
   * continuing may have added its states (thinking, waiting again) if b
   * already took the lease — a slow machine's case (seen under ASan) —
   * never a second question. */
  after_kill = events (&fixture, student, defense);
  g_assert_cmpuint (json_array_get_length (after_kill), >=, json_array_get_length (before));
  {
    guint questions = 0;

    for (guint i = 0; i < json_array_get_length (after_kill); i++)
      {
        JsonObject *event = json_array_get_object_element (after_kill, i);

        if (i < json_array_get_length (before))
          g_assert_cmpint (json_object_get_int_member (event, "seq"),
                           ==, json_object_get_int_member (json_array_get_object_element (before, i), "seq"));
        else
          g_assert_cmpstr (json_object_get_string_member (event, "kind"), ==, "state");
        if (g_str_equal (json_object_get_string_member (event, "kind"), "question"))
          {
            questions++;
            g_assert_cmpint (json_object_get_int_member (event, "seq"), ==, json_object_get_int_member (question, "seq"));
          }
      }
    g_assert_cmpuint (questions, ==, 1);
  }

  /* Node a's lease on the defense runs out and node b continues it from
   * the checkpoint: the same question pending, under the same number,
   * answered on b; nothing told twice. */
  {
    g_autofree char *path = g_strdup_printf ("/api/v1/exams/server-quiz/defenses/%s", defense);
    g_autofree char *answer_path = g_strdup_printf ("/api/v1/exams/server-quiz/defenses/%s/answer", defense);
    g_autofree char *body = g_strdup_printf ("{\"text\":\"zero\",\"question_seq\":%" G_GINT64_FORMAT "}",
                                             json_object_get_int_member (question, "seq"));
    g_autoptr(JsonNode) state = NULL;
    g_autoptr(JsonNode) answered = NULL;
    g_autoptr(JsonArray) all = NULL;
    guint questions = 0, answers = 0;

    for (guint i = 0; i < 300; i++)
      {
        g_clear_pointer (&state, json_node_unref);
        state = server_fixture_request (&fixture, "GET", path, student, NULL, &status, NULL);
        g_assert_cmpuint (status, ==, 200);
        if (!json_object_get_null_member (json_node_get_object (state), "pending_question"))
          break;
        g_usleep (100 * 1000);
      }
    g_assert_cmpstr (json_object_get_string_member (json_node_get_object (state), "pending_question"),
                     ==, json_object_get_string_member (json_object_get_object_member (question, "data"), "question"));
    g_assert_cmpint (json_object_get_int_member (json_node_get_object (state), "question_seq"),
                     ==, json_object_get_int_member (question, "seq"));

    answered = server_fixture_request (&fixture, "POST", answer_path, student, body, &status, NULL);
    g_assert_cmpuint (status, ==, 200);
    g_clear_pointer (&claimed, g_free);
    {
      gint64 from = json_object_get_int_member (question, "seq");
      g_autoptr(JsonObject) next = server_fixture_wait_for (&fixture, student, "server-quiz", defense, "answer",
                                                            &from, NULL);
    }
    all = events (&fixture, student, defense);
    for (guint i = 0; i < json_array_get_length (all); i++)
      {
        JsonObject *event = json_array_get_object_element (all, i);
        const char *kind = json_object_get_string_member (event, "kind");

        if (i > 0)
          g_assert_cmpint (json_object_get_int_member (event, "seq"), >,
                           json_object_get_int_member (json_array_get_object_element (all, i - 1), "seq"));
        if (g_str_equal (kind, "question") &&
            json_object_get_int_member (event, "seq") <= json_object_get_int_member (question, "seq"))
          questions++;
        if (g_str_equal (kind, "answer"))
          answers++;
      }
    g_assert_cmpuint (questions, ==, 1);
    g_assert_cmpuint (answers, ==, 1);
  }

  /* The killed worker's job runs again, on a worker that reaches b. */
  w2 = start_worker (link, token, "w2", "grade", &w2_lines);
  g_clear_pointer (&claimed, g_free);
  claimed = read_event (w2_lines, "claimed", "job");
  g_assert_cmpstr (claimed, ==, job);
  recorded = read_event (w2_lines, "recorded", "job");
  g_assert_cmpstr (recorded, ==, job);
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(VivaServerStore) store = viva_server_store_open_database (fixture.state_dir, fixture.database, &error);
    g_autoptr(JsonObject) row = viva_server_store_get_job (store, job, &error);

    g_assert_no_error (error);
    g_assert_cmpstr (json_object_get_string_member (row, "state"), ==, "done");
    g_assert_cmpint (json_object_get_int_member (row, "attempts"), ==, 2);
    g_assert_nonnull (strstr (json_object_get_string_member (row, "claimed_by"), "worker w2"));
  }

  /* Node b, which continued the defense, waited on that same job: the
   * verdict is bound to its grade, and the submission was graded once. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(VivaServerStore) store = viva_server_store_open_database (fixture.state_dir, fixture.database, &error);
    g_autoptr(JsonArray) named = NULL;
    g_autoptr(JsonArray) count = NULL;
    gint64 from = json_object_get_int_member (question, "seq");
    JsonObject *grade = NULL;

    while (grade == NULL)
      {
        g_autoptr(JsonObject) event = wait_for_any (&fixture, student, defense, &from);

        if (g_str_equal (json_object_get_string_member (event, "kind"), "question"))
          {
            g_autofree char *answer_path = g_strdup_printf ("/api/v1/exams/server-quiz/defenses/%s/answer", defense);
            g_autofree char *body = g_strdup_printf ("{\"text\":\"zero\",\"question_seq\":%" G_GINT64_FORMAT "}",
                                                     json_object_get_int_member (event, "seq"));
            g_autoptr(JsonNode) answered = server_fixture_request (&fixture, "POST", answer_path, student, body,
                                                                   &status, NULL);

            g_assert_cmpuint (status, ==, 200);
            continue;
          }
        g_assert_cmpstr (json_object_get_string_member (event, "kind"), ==, "verdict");
        grade = json_object_ref (json_object_get_object_member (json_object_get_object_member (event, "data"), "grade"));
      }
    g_assert_cmpuint (json_array_get_length (json_object_get_array_member (grade, "tests")), ==, 2);
    for (guint i = 0; i < 2; i++)
      g_assert_true (json_object_get_boolean_member (json_array_get_object_element (json_object_get_array_member (grade,
                                                                                                                "tests"), i),
                                                     "passed"));
    json_object_unref (grade);

    named = viva_server_db_queryf (viva_server_store_get_db (store), &error,
                                   "SELECT grade_job FROM defenses WHERE id = $1", "s", defense);
    g_assert_no_error (error);
    g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (named, 0), "grade_job"), ==, job);
    count = viva_server_db_queryf (viva_server_store_get_db (store), &error,
                                   "SELECT COUNT(*) AS n FROM jobs WHERE kind = 'grade'", NULL);
    g_assert_no_error (error);
    g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (count, 0), "n"), ==, 1);
  }

  kill_process (w2);
  kill_process (runs);
  kill_process (proxy);
  kill_process (node_b);
  server_fixture_teardown (&fixture);
  {
    g_autofree char *rm = g_strdup_printf ("rm -rf '%s'", b_dir);

    g_assert_cmpint (system (rm), ==, 0);
  }
  g_unsetenv ("VIVA_SERVER_LEASE_MS");
}

/* A stream of a defense's events on node @port, from @after: each SSE
 * event's number and kind, until @until is read (or the stream ends). */
static gint64
read_stream (ServerFixture *fixture,
             guint          port,
             const char    *token,
             const char    *defense,
             gint64         after,
             const char    *until,
             GString       *seen)
{
  g_autofree char *path = g_strdup_printf ("/api/v1/exams/server-quiz/defenses/%s/events", defense);
  g_autofree char *last = g_strdup_printf ("%" G_GINT64_FORMAT, after);
  g_autoptr(SoupMessage) msg = NULL;
  g_autoptr(GInputStream) body = NULL;
  g_autoptr(GDataInputStream) lines = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *kind = NULL;
  guint saved = fixture->port;
  char *line;

  fixture->port = port;
  msg = server_fixture_message (fixture, "GET", path, token);
  fixture->port = saved;
  soup_message_headers_replace (soup_message_get_request_headers (msg), "Accept", "text/event-stream");
  /* Where the client was, as an EventSource says it when it reconnects. */
  soup_message_headers_replace (soup_message_get_request_headers (msg), "Last-Event-ID", last);
  body = soup_session_send (fixture->session, msg, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (soup_message_get_status (msg), ==, 200);
  lines = g_data_input_stream_new (body);
  while ((line = g_data_input_stream_read_line_utf8 (lines, NULL, NULL, NULL)) != NULL)
    {
      if (g_str_has_prefix (line, "id: "))
        {
          gint64 seq = g_ascii_strtoll (line + 4, NULL, 10);

          /* In order, each once. */
          g_assert_cmpint (seq, ==, after + 1);
          after = seq;
        }
      else if (g_str_has_prefix (line, "event: "))
        {
          g_free (kind);
          kind = g_strdup (line + 7);
          g_string_append_printf (seen, "%" G_GINT64_FORMAT " %s\n", after, kind);
        }
      g_free (line);
      if (kind != NULL && g_str_equal (kind, until))
        break;
    }
  g_input_stream_close (body, NULL, NULL);
  return after;
}

/* Every node serves every student: the defense runs on node b while the
 * student streams it from node a and answers through a. The answer is
 * kept in the database and acknowledged, b takes it (told by NOTIFY) and
 * the defense ends; a's stream shows b's events in order, each once, and
 * a stream that reconnects to b from its last number misses nothing and
 * repeats nothing. Only b wrote events; the answer was received by a and
 * consumed once. The PC's timeline events, sent to a while b runs the
 * defense, reach b's session (told by NOTIFY, read from the database):
 * the signed report has each once, in order. */
static void
test_answer_anywhere (void)
{
  ServerFixture fixture;
  g_autofree char *student = NULL;
  g_autofree char *defense = NULL;
  g_autofree char *b_dir = NULL;
  g_autofree char *a_node = NULL;
  g_autofree char *b_node = NULL;
  g_autoptr(GDataInputStream) b_lines = NULL;
  g_autoptr(GSubprocess) node_b = NULL;
  g_autoptr(GString) seen = g_string_new (NULL);
  g_autoptr(JsonArray) all = NULL;
  g_autoptr(JsonNode) state = NULL;
  g_autoptr(JsonNode) answered = NULL;
  g_autoptr(VivaServerStore) store = NULL;
  g_autoptr(JsonArray) rows = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *answer_path = NULL;
  g_autofree char *body = NULL;
  guint a_port, b_port = 0, status = 0;
  gint64 after, question_seq = 0;
  GString *kinds = g_string_new (NULL);

  server_fixture_setup_full (&fixture, one_exam, one_local_job);
  a_port = fixture.port;
  a_node = g_strdup (json_object_get_string_member (fixture.listening, "node"));
  node_b = start_node (&fixture, &b_dir, &b_port, &b_lines);
  store = viva_server_store_open_database (fixture.state_dir, fixture.database, &error);
  g_assert_no_error (error);

  student = server_fixture_sign_in (&fixture, "server-quiz", "s1");
  /* Submitted to b: b runs the defense. */
  fixture.port = b_port;
  defense = server_fixture_submit (&fixture, student, "server-quiz", "double", "def double(x):\n    return 2 * x\n");
  fixture.port = a_port;
  path = g_strdup_printf ("/api/v1/exams/server-quiz/defenses/%s", defense);
  answer_path = g_strdup_printf ("/api/v1/exams/server-quiz/defenses/%s/answer", defense);

  /* Streamed from a, until the question. */
  after = read_stream (&fixture, a_port, student, defense, 0, "question", seen);
  g_assert_nonnull (strstr (seen->str, " question\n"));
  question_seq = after;

  /* a tells the pending question from the database. */
  state = server_fixture_request (&fixture, "GET", path, student, NULL, &status, NULL);
  g_assert_cmpuint (status, ==, 200);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (state), "pending_question"),
                   ==, "What does double(0) return?");
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (state), "question_seq"), ==, question_seq);

  /* The window loses the focus and gets it back while the examiner
   * asks; the PC sends that to a. */
  {
    g_autoptr(JsonNode) sent = server_fixture_request (&fixture, "POST", "/api/v1/exams/server-quiz/sitting/timeline",
                                                       student,
                                                       "{\"events\":["
                                                       "{\"kind\":\"focus-lost\",\"problem\":\"double\","
                                                       "\"time\":\"2026-12-01T22:00:01.111Z\"},"
                                                       "{\"kind\":\"focus-back\",\"problem\":\"double\","
                                                       "\"time\":\"2026-12-01T22:00:02.222Z\"}]}",
                                                       &status, NULL);

    g_assert_cmpuint (status, ==, 200);
  }

  /* Answered through a, which does not run the defense. */
  body = g_strdup_printf ("{\"text\":\"zero\",\"question_seq\":%" G_GINT64_FORMAT "}", question_seq);
  answered = server_fixture_request (&fixture, "POST", answer_path, student, body, &status, NULL);
  g_assert_cmpuint (status, ==, 200);
  g_assert_true (json_object_get_boolean_member (json_node_get_object (answered), "accepted"));

  /* a's stream (again from where it was) shows b taking the answer; then
   * the student's stream reconnects to b, from its last number. */
  after = read_stream (&fixture, a_port, student, defense, after, "answer", seen);
  after = read_stream (&fixture, b_port, student, defense, after, "finished", seen);
  g_assert_nonnull (strstr (seen->str, " verdict\n"));

  /* What was streamed is what was kept, each once, in order. */
  all = events (&fixture, student, defense);
  for (guint i = 0; i < json_array_get_length (all); i++)
    {
      JsonObject *event = json_array_get_object_element (all, i);

      g_string_append_printf (kinds, "%" G_GINT64_FORMAT " %s\n", json_object_get_int_member (event, "seq"),
                              json_object_get_string_member (event, "kind"));
    }
  g_assert_cmpstr (kinds->str, ==, seen->str);
  g_string_free (kinds, TRUE);

  /* Only b wrote the defense; a received the answer, b consumed it once. */
  rows = viva_server_db_queryf (viva_server_store_get_db (store), &error,
                                "SELECT DISTINCT node_id FROM defense_events WHERE defense_id = $1", "s", defense);
  g_assert_no_error (error);
  g_assert_cmpuint (json_array_get_length (rows), ==, 1);
  b_node = g_strdup (json_object_get_string_member (json_array_get_object_element (rows, 0), "node_id"));
  g_assert_cmpstr (b_node, !=, a_node);
  g_clear_pointer (&rows, json_array_unref);
  rows = viva_server_db_queryf (viva_server_store_get_db (store), &error,
                                "SELECT received_by, consumed_at FROM answers WHERE defense_id = $1", "s", defense);
  g_assert_no_error (error);
  g_assert_cmpuint (json_array_get_length (rows), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (rows, 0), "received_by"), ==, a_node);
  g_assert_false (json_object_get_null_member (json_array_get_object_element (rows, 0), "consumed_at"));

  /* b's signed report, asked of a, has the PC's events a took. */
  {
    g_autoptr(JsonNode) reports = NULL;
    const char *text = NULL, *lost, *back;

    for (guint i = 0; i < 100 && text == NULL; i++)
      {
        JsonArray *list;

        g_clear_pointer (&reports, json_node_unref);
        reports = server_fixture_request (&fixture, "GET", "/api/v1/exams/server-quiz/reports",
                                          g_hash_table_lookup (fixture.teacher_tokens, "server-quiz"), NULL, &status,
                                          NULL);
        g_assert_cmpuint (status, ==, 200);
        list = json_object_get_array_member (json_node_get_object (reports), "reports");
        if (json_array_get_length (list) > 0)
          text = json_object_get_string_member (json_array_get_object_element (list, 0), "report");
        else
          g_usleep (100 * 1000);
      }
    g_assert_nonnull (text);
    lost = strstr (text, "2026-12-01T22:00:01.111Z");
    back = strstr (text, "2026-12-01T22:00:02.222Z");
    g_assert_nonnull (lost);
    g_assert_nonnull (back);
    g_assert_null (strstr (lost + 1, "2026-12-01T22:00:01.111Z"));
    g_assert_null (strstr (back + 1, "2026-12-01T22:00:02.222Z"));
    g_assert_true (lost < back);
  }

  kill_process (node_b);
  server_fixture_teardown (&fixture);
  {
    g_autofree char *rm = g_strdup_printf ("rm -rf '%s'", b_dir);

    g_assert_cmpint (system (rm), ==, 0);
  }
}

static gint64
max_seq_by (VivaServerStore *store,
            const char      *defense,
            const char      *node)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonArray) rows = viva_server_db_queryf (viva_server_store_get_db (store), &error,
                                                     "SELECT COALESCE(MAX(seq), 0) AS n FROM defense_events"
                                                     " WHERE defense_id = $1 AND node_id = $2", "ss", defense, node);

  g_assert_no_error (error);
  return json_object_get_int_member (json_array_get_object_element (rows, 0), "n");
}

static void
answered_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  GBytes **bytes = user_data;
  g_autoptr(GError) error = NULL;

  *bytes = soup_session_send_and_read_finish (SOUP_SESSION (object), result, &error);
  g_assert_no_error (error);
}

/* Fencing: node a runs the defense and stalls (SIGSTOP) with a question
 * pending; its lease runs out and node b takes the defense over. The
 * student's answer is sent to the stalled a, which wakes (SIGCONT) to
 * it: a writes not one event more for that defense (its writes carry
 * the epoch it took the lease at, refused once b took it), the answer it
 * acknowledged reaches b, and b ends the defense. */
static void
test_stalled_node (void)
{
  ServerFixture fixture;
  g_autofree char *student = NULL;
  g_autofree char *defense = NULL;
  g_autofree char *b_dir = NULL;
  g_autofree char *a_node = NULL;
  g_autofree char *b_node = NULL;
  g_autofree char *answer_path = NULL;
  g_autofree char *body = NULL;
  g_autofree char *resource = NULL;
  g_autoptr(GDataInputStream) b_lines = NULL;
  g_autoptr(GSubprocess) node_b = NULL;
  g_autoptr(VivaServerStore) store = NULL;
  g_autoptr(JsonObject) question = NULL;
  g_autoptr(JsonObject) verdict = NULL;
  g_autoptr(SoupMessage) msg = NULL;
  g_autoptr(GError) error = NULL;
  GBytes *reply = NULL;
  guint a_port, b_port = 0;
  gint64 after = 0, a_last;
  gboolean taken = FALSE;

  g_setenv ("VIVA_SERVER_LEASE_MS", "1500", TRUE);
  server_fixture_setup_full (&fixture, one_exam, one_local_job);
  a_port = fixture.port;
  a_node = g_strdup (json_object_get_string_member (fixture.listening, "node"));
  node_b = start_node (&fixture, &b_dir, &b_port, &b_lines);
  store = viva_server_store_open_database (fixture.state_dir, fixture.database, &error);
  g_assert_no_error (error);

  student = server_fixture_sign_in (&fixture, "server-quiz", "s1");
  defense = server_fixture_submit (&fixture, student, "server-quiz", "double", "def double(x):\n    return 2 * x\n");
  question = server_fixture_wait_for (&fixture, student, "server-quiz", defense, "question", &after, NULL);
  a_last = max_seq_by (store, defense, a_node);
  g_assert_cmpint (a_last, ==, json_object_get_int_member (question, "seq"));

  /* a stalls; b takes the lease once it runs out. */
  g_subprocess_send_signal (fixture.process, SIGSTOP);
  resource = g_strdup_printf ("defense/%s", defense);
  for (guint i = 0; i < 200 && !taken; i++)
    {
      g_autoptr(JsonArray) leases = viva_server_store_list_leases (store, &error);

      g_assert_no_error (error);
      for (guint j = 0; j < json_array_get_length (leases); j++)
        {
          JsonObject *lease = json_array_get_object_element (leases, j);

          if (g_str_equal (json_object_get_string_member (lease, "resource"), resource) &&
              !g_str_equal (json_object_get_string_member (lease, "holder"), a_node))
            {
              taken = TRUE;
              b_node = g_strdup (json_object_get_string_member (lease, "holder"));
            }
        }
      if (!taken)
        g_usleep (50 * 1000);
    }
  g_assert_true (taken);

  /* The answer goes to the stalled a (HAProxy's `balance first` would
   * still send it there), which wakes to it. */
  answer_path = g_strdup_printf ("/api/v1/exams/server-quiz/defenses/%s/answer", defense);
  body = g_strdup_printf ("{\"text\":\"zero\",\"question_seq\":%" G_GINT64_FORMAT "}",
                          json_object_get_int_member (question, "seq"));
  fixture.port = a_port;
  msg = server_fixture_message (&fixture, "POST", answer_path, student);
  soup_message_set_request_body_from_bytes (msg, "application/json",
                                            g_bytes_new_static (body, strlen (body)));
  soup_session_send_and_read_async (fixture.session, msg, G_PRIORITY_DEFAULT, NULL, answered_cb, &reply);
  for (guint i = 0; i < 5; i++)
    g_main_context_iteration (NULL, FALSE);
  g_subprocess_send_signal (fixture.process, SIGCONT);
  while (reply == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (soup_message_get_status (msg), ==, 200);
  g_bytes_unref (reply);

  /* b ends the defense with that answer. */
  verdict = server_fixture_wait_for (&fixture, student, "server-quiz", defense, "finished", &after, NULL);
  g_assert_cmpint (max_seq_by (store, defense, a_node), ==, a_last);
  g_assert_cmpint (max_seq_by (store, defense, b_node), >, a_last);
  {
    g_autoptr(JsonArray) all = events (&fixture, student, defense);
    guint answers = 0;

    for (guint i = 0; i < json_array_get_length (all); i++)
      if (g_str_equal (json_object_get_string_member (json_array_get_object_element (all, i), "kind"), "answer"))
        answers++;
    g_assert_cmpuint (answers, ==, 1);
  }
  /* And a, awake, still writes nothing for it. */
  g_usleep (1500 * 1000);
  g_assert_cmpint (max_seq_by (store, defense, a_node), ==, a_last);

  kill_process (node_b);
  server_fixture_teardown (&fixture);
  {
    g_autofree char *rm = g_strdup_printf ("rm -rf '%s'", b_dir);

    g_assert_cmpint (system (rm), ==, 0);
  }
  g_unsetenv ("VIVA_SERVER_LEASE_MS");
}

/* A node that died between a Submit and the defense's first kept step
 * leaves a live defense with no checkpoint: the next node to run it
 * starts it over under the same id, so the student following that id
 * gets its question and ends it. */
static void
test_restart_unkept (void)
{
  ServerFixture fixture;
  g_autofree char *student = NULL;
  g_autoptr(VivaServerStore) store = NULL;
  g_autoptr(JsonObject) question = NULL;
  g_autoptr(JsonObject) finished = NULL;
  g_autoptr(JsonObject) row = NULL;
  g_autoptr(GError) error = NULL;
  gint64 after = 0;
  guint status = 0;

  server_fixture_setup (&fixture, one_exam);
  student = server_fixture_sign_in (&fixture, "server-quiz", "s2");
  server_fixture_kill (&fixture);

  /* What the dead node had kept: the row, nothing of the run. */
  store = viva_server_store_open_database (fixture.state_dir, fixture.database, &error);
  g_assert_no_error (error);
  g_assert_true (viva_server_store_add_defense (store, "unkept-1", "server-quiz", "s2", "double",
                                                "def double(x):\n    return 2 * x\n", FALSE, &error));
  g_assert_no_error (error);

  server_fixture_start (&fixture);
  g_assert_cmpint (json_object_get_int_member (fixture.listening, "resumed"), ==, 1);
  question = server_fixture_wait_for (&fixture, student, "server-quiz", "unkept-1", "question", &after, NULL);
  {
    g_autofree char *body = g_strdup_printf ("{\"text\":\"zero\",\"question_seq\":%" G_GINT64_FORMAT "}",
                                             json_object_get_int_member (question, "seq"));
    g_autoptr(JsonNode) answered = server_fixture_request (&fixture, "POST",
                                                           "/api/v1/exams/server-quiz/defenses/unkept-1/answer",
                                                           student, body, &status, NULL);

    g_assert_cmpuint (status, ==, 200);
  }
  finished = server_fixture_wait_for (&fixture, student, "server-quiz", "unkept-1", "finished", &after, NULL);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (finished, "data"), "state"),
                   ==, "finished");
  row = viva_server_store_get_defense (store, "unkept-1", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (row, "state"), ==, "finished");

  server_fixture_teardown (&fixture);
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
  /* Nodes on other machines reach PostgreSQL over TCP. */
  g_setenv ("VIVA_TEST_SERVER_DATABASE", "postgresql-tcp", TRUE);

  g_test_add_func ("/viva/server/nodes/two-nodes", test_two_nodes);
  g_test_add_func ("/viva/server/nodes/answer-anywhere", test_answer_anywhere);
  g_test_add_func ("/viva/server/nodes/stalled-node", test_stalled_node);
  g_test_add_func ("/viva/server/nodes/restart-unkept", test_restart_unkept);

  return g_test_run ();
}

/* test-server-worker.c: the grading pool — workers that pull an exam's
 * grading jobs over HTTPS, one killed and one hung mid-job
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <signal.h>
#include <string.h>
#include <sys/prctl.h>

#include "server-fixture.h"
#include "viva-server-store-pool.h"

static const char * const two_exams[] = { "exam.json", "exam-other.json", NULL };
static const char * const workers_only[] = { "--local-jobs", "0", NULL };

/* The grading is slow on purpose: a worker is caught mid-job. */
#define SLOW_DOUBLE "import time\ntime.sleep(2)\ndef double(x):\n    return 2 * x\n"
#define SLOW_SQUARE "import time\ntime.sleep(2)\ndef square(x):\n    return x * x\n"

typedef struct
{
  GSubprocess      *process;
  GDataInputStream *lines;
} Worker;

static void
die_with_parent (gpointer user_data)
{
  prctl (PR_SET_PDEATHSIG, SIGKILL);
}

static char *
worker_token (ServerFixture *fixture,
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

static Worker *
start_worker (ServerFixture *fixture,
              const char    *token,
              const char    *name)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  const char *link = g_hash_table_lookup (fixture->links, "server-quiz");
  g_autofree char *port = g_strdup_printf (":%u/", fixture->port);
  g_autofree char *served = NULL;
  g_autoptr(GError) error = NULL;
  Worker *worker = g_new0 (Worker, 1);
  char **parts;

  /* The link names the port init was told; serve took a free one. */
  parts = g_strsplit (link, ":8443/", 2);
  served = g_strjoin (port, parts[0], parts[1], NULL);
  g_strfreev (parts);
  {
    const char *argv[] = { server_fixture_binary (), "worker", "--server", served, "--worker-token", token,
                           "--name", name, "--json", NULL };

    g_subprocess_launcher_set_child_setup (launcher, die_with_parent, NULL, NULL);
    worker->process = g_subprocess_launcher_spawnv (launcher, argv, &error);
    g_assert_no_error (error);
  }
  worker->lines = g_data_input_stream_new (g_subprocess_get_stdout_pipe (worker->process));
  return worker;
}

/* Reads the worker's events until one of @kind; returns its job. */
static char *
wait_event (Worker     *worker,
            const char *kind)
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

static void
stop_worker (Worker *worker)
{
  g_subprocess_send_signal (worker->process, SIGKILL);
  g_subprocess_wait (worker->process, NULL, NULL);
  g_object_unref (worker->lines);
  g_object_unref (worker->process);
  g_free (worker);
}

static VivaServerStore *
open_store (ServerFixture *fixture)
{
  g_autoptr(GError) error = NULL;
  VivaServerStore *store = viva_server_store_open_database (fixture->state_dir, fixture->database, &error);

  g_assert_no_error (error);
  return store;
}

static JsonObject *
job_row (ServerFixture *fixture,
         const char    *job_id)
{
  g_autoptr(VivaServerStore) store = open_store (fixture);
  g_autoptr(GError) error = NULL;
  JsonObject *job = viva_server_store_get_job (store, job_id, &error);

  g_assert_no_error (error);
  g_assert_nonnull (job);
  return job;
}

static char *
submit (ServerFixture *fixture,
        const char    *token,
        const char    *problem,
        const char    *code)
{
  g_autofree char *path = g_strdup_printf ("/api/v1/exams/server-quiz/sitting/problems/%s/submit", problem);
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
  return g_strdup (json_object_get_string_member (json_node_get_object (answer), "grading_job"));
}

static void
assert_graded_once (ServerFixture *fixture,
                    const char    *job_id,
                    gint64         attempts,
                    gint64         tests)
{
  g_autoptr(JsonObject) job = job_row (fixture, job_id);
  g_autoptr(JsonNode) result = NULL;
  JsonObject *grade;

  g_assert_cmpstr (json_object_get_string_member (job, "state"), ==, "done");
  g_assert_cmpint (json_object_get_int_member (job, "attempts"), ==, attempts);
  result = json_from_string (json_object_get_string_member (job, "result"), NULL);
  grade = json_node_get_object (result);
  g_assert_cmpstr (json_object_get_string_member (grade, "kind"), ==, "grade");
  /* Every hidden test ran and passed: the correct code was graded. */
  g_assert_cmpint (json_object_get_int_member (grade, "passed"), ==, tests);
  g_assert_cmpint (json_object_get_int_member (grade, "total"), ==, tests);
}

/* Submissions are graded by workers pulling jobs over HTTPS: a worker
 * killed mid-job leaves it to another, which records it once; a worker
 * that hangs past its lease loses the job, and its late result is refused.
 * A worker token reaches its own exam only. */
static void
test_pool (void)
{
  ServerFixture fixture;
  g_autofree char *token = NULL;
  g_autofree char *student = NULL;
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  g_autofree char *claimed = NULL;
  g_autofree char *recorded = NULL;
  g_autofree char *out = NULL;
  Worker *a, *b, *c;

  g_setenv ("VIVA_SERVER_LEASE_MS", "1500", TRUE);
  server_fixture_setup_full (&fixture, two_exams, workers_only);
  token = worker_token (&fixture, "server-quiz");

  /* Another exam's worker token claims nothing of this one. */
  {
    g_autofree char *other = worker_token (&fixture, "other-quiz");
    g_autoptr(JsonNode) answer = NULL;
    guint status = 0;

    answer = server_fixture_request (&fixture, "POST", "/api/v1/exams/server-quiz/jobs/claim", other,
                                     "{\"worker\":\"w\"}", &status, NULL);
    g_assert_cmpuint (status, ==, 403);
    /* Nor may a student claim. */
    student = server_fixture_sign_in (&fixture, "server-quiz", "s1");
    g_clear_pointer (&answer, json_node_unref);
    answer = server_fixture_request (&fixture, "POST", "/api/v1/exams/server-quiz/jobs/claim", student,
                                     "{\"worker\":\"w\"}", &status, NULL);
    g_assert_cmpuint (status, ==, 403);
  }

  /* Killed mid-job: the job runs again on another worker, recorded once. */
  first = submit (&fixture, student, "double", SLOW_DOUBLE);
  g_assert_nonnull (first);
  a = start_worker (&fixture, token, "a");
  claimed = wait_event (a, "claimed");
  g_assert_cmpstr (claimed, ==, first);
  stop_worker (a);

  b = start_worker (&fixture, token, "b");
  g_clear_pointer (&claimed, g_free);
  claimed = wait_event (b, "claimed");
  g_assert_cmpstr (claimed, ==, first);
  recorded = wait_event (b, "recorded");
  g_assert_cmpstr (recorded, ==, first);
  assert_graded_once (&fixture, first, 2, 2);

  /* Hung mid-job (SIGSTOP): b takes the job over once the lease runs out;
   * woken, the hung worker's result is refused. */
  stop_worker (b);
  second = submit (&fixture, student, "square", SLOW_SQUARE);
  c = start_worker (&fixture, token, "c");
  g_clear_pointer (&claimed, g_free);
  claimed = wait_event (c, "claimed");
  g_assert_cmpstr (claimed, ==, second);
  g_subprocess_send_signal (c->process, SIGSTOP);

  b = start_worker (&fixture, token, "b2");
  g_clear_pointer (&claimed, g_free);
  claimed = wait_event (b, "claimed");
  g_assert_cmpstr (claimed, ==, second);
  g_clear_pointer (&recorded, g_free);
  recorded = wait_event (b, "recorded");

  g_subprocess_send_signal (c->process, SIGCONT);
  g_clear_pointer (&claimed, g_free);
  claimed = wait_event (c, "lost");
  g_assert_cmpstr (claimed, ==, second);
  assert_graded_once (&fixture, second, 2, 1);
  {
    g_autoptr(JsonObject) job = job_row (&fixture, second);

    g_assert_nonnull (strstr (json_object_get_string_member (job, "claimed_by"), "worker b2"));
  }

  /* status shows the queue, and the node serving. */
  {
    const char *args[] = { "status", "server-quiz", "--json", NULL };

    g_assert_cmpint (server_fixture_run (&fixture, args, &out), ==, 0);
    g_assert_nonnull (strstr (out, "\"event\":\"node\""));
    g_assert_nonnull (strstr (out, "\"done\":2"));
    g_assert_nonnull (strstr (out, "\"waiting\":0"));

    /* The teacher sees each student's grading by the pool. */
    {
      g_auto(GStrv) lines = g_strsplit (out, "\n", -1);
      gboolean seen = FALSE;

      for (guint i = 0; lines[i] != NULL; i++)
        {
          g_autoptr(JsonNode) node = lines[i][0] ? json_from_string (lines[i], NULL) : NULL;
          JsonObject *row, *grades;

          if (node == NULL)
            continue;
          row = json_node_get_object (node);
          if (!g_str_equal (json_object_get_string_member (row, "event"), "student") ||
              !g_str_equal (json_object_get_string_member (row, "student_id"), "s1"))
            continue;
          grades = json_object_get_object_member (row, "grades");
          g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (grades, "double"), "state"),
                           ==, "done");
          g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (grades, "double"), "passed"), ==, 2);
          g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (grades, "square"), "total"), ==, 1);
          seen = TRUE;
        }
      g_assert_true (seen);
    }
  }

  stop_worker (b);
  stop_worker (c);
  server_fixture_teardown (&fixture);
  g_unsetenv ("VIVA_SERVER_LEASE_MS");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  if (server_fixture_engine_skip () != 0)
    return 77;

  g_test_add_func ("/viva/server/worker/pool", test_pool);

  return g_test_run ();
}

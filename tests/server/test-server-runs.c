/* test-server-runs.c: a defense's tool runs as the grading pool's jobs —
 * waiting for a worker, run by one, re-run after one is killed, the
 * student's globals kept between runs, a forged result refused
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <signal.h>
#include <string.h>

#include "server-fixture.h"
#include "server-fixture-store.h"
#include "viva-exam-run-request.h"
#include "viva-server-defense-jobs.h"
#include "viva-server-store-pool.h"

/* The scripted model's two runPython calls: the first slow (a worker is
 * killed in it) and leaving a global, the second printing it. */
#define SLOW_RUN   "import time\ntime.sleep(1)\nmarker = 'GLOB' + 'ALS-' + str(6 * 7)\n"
#define SECOND_RUN "print(marker * 2)"
#define PRINTED    "GLOBALS-42GLOBALS-42"

/* The request a `run` job carries. */
static const char *
request_code (JsonObject *job,
              JsonNode  **keep)
{
  JsonObject *payload;

  *keep = json_from_string (json_object_get_string_member (job, "payload"), NULL);
  g_assert_nonnull (*keep);
  payload = json_node_get_object (*keep);
  return json_object_get_string_member_with_default (json_object_get_object_member (payload, "request"), "code", "");
}

static GSubprocess *
start_model (char **url)
{
  const char *argv[] = { SERVER_EXAMINER_PATH, "--run", SLOW_RUN, "--run", SECOND_RUN, NULL };
  g_autoptr(GDataInputStream) lines = NULL;
  g_autoptr(GError) error = NULL;
  GSubprocess *process;

  /* It serves until its standard input closes: with this test. */
  process = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDIN_PIPE, &error);
  g_assert_no_error (error);
  lines = g_data_input_stream_new (g_subprocess_get_stdout_pipe (process));
  *url = g_data_input_stream_read_line_utf8 (lines, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (*url, "http://127.0.0.1:"));
  return process;
}

/* With no claimer but workers and none started, a defense's first code
 * run waits in the queue; a worker runs it and every run after, one
 * killed mid-run leaves it to another (run again, kept once), and
 * runPython's globals persist from one pool job to the next. */
static void
test_pool_runs (void)
{
  ServerFixture fixture;
  g_autofree char *url = NULL;
  g_autoptr(GSubprocess) model = start_model (&url);
  const char *serve_args[] = { "--local-jobs", "0", "--base-url", url, "--model", "lab-model", NULL };
  static const char * const exams[] = { "exam-model.json", NULL };
  g_autofree char *worker_token = NULL;
  g_autofree char *student = NULL;
  g_autofree char *defense = NULL;
  g_autofree char *slow = NULL;
  g_autofree char *subject = NULL;
  g_autoptr(JsonObject) verdict = NULL;
  g_autoptr(JsonArray) jobs = NULL;
  ServerWorker *a, *b;
  gint64 waiting = 0, running = 0;
  guint n_slow = 0, n_second = 0;

  g_setenv ("VIVA_SERVER_LEASE_MS", "1500", TRUE);
  server_fixture_setup_full (&fixture, exams, serve_args);
  worker_token = server_fixture_worker_token (&fixture, "model-quiz");
  student = server_fixture_sign_in (&fixture, "model-quiz", "s1");
  defense = server_fixture_submit (&fixture, student, "model-quiz", "double", "def double(x):\n    return 2 * x\n");
  subject = g_strconcat ("defense/", defense, NULL);

  /* No worker: the defense's first run sits in the queue, unclaimed. */
  for (guint i = 0; i < 300 && waiting == 0; i++)
    {
      server_fixture_queue_of (&fixture, "model-quiz", "run", &waiting, &running);
      if (waiting == 0)
        g_usleep (100 * 1000);
    }
  g_assert_cmpint (waiting, ==, 1);
  g_assert_cmpint (running, ==, 0);
  g_clear_pointer (&jobs, json_array_unref);
  jobs = server_fixture_run_jobs (&fixture);
  g_assert_cmpuint (json_array_get_length (jobs), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (jobs, 0), "state"), ==, "waiting");

  /* A worker runs the runs; killed in the slow one. */
  a = server_fixture_start_worker (&fixture, "model-quiz", worker_token, "a", NULL);
  while (slow == NULL)
    {
      g_autofree char *claimed = server_worker_wait (a, "claimed");
      g_autoptr(JsonObject) job = server_fixture_job (&fixture, claimed);
      g_autoptr(JsonNode) payload = NULL;

      if (g_str_equal (json_object_get_string_member (job, "kind"), "run") &&
          strstr (request_code (job, &payload), "time.sleep") != NULL)
        slow = g_strdup (claimed);
    }
  server_worker_kill (a);

  /* Another takes it once its lease ran out, and the defense goes on. */
  b = server_fixture_start_worker (&fixture, "model-quiz", worker_token, "b", NULL);
  verdict = server_fixture_defend (&fixture, student, "model-quiz", defense);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (verdict, "data"), "verdict"),
                   ==, "pass");

  /* The slow run: run twice, recorded once, by the second worker; the
   * defense asked for it once. */
  {
    g_autoptr(JsonObject) job = server_fixture_job (&fixture, slow);

    g_assert_cmpstr (json_object_get_string_member (job, "state"), ==, "done");
    g_assert_cmpint (json_object_get_int_member (job, "attempts"), ==, 2);
    g_assert_nonnull (strstr (json_object_get_string_member (job, "claimed_by"), "worker b"));
    g_assert_nonnull (strstr (json_object_get_string_member (job, "finished_by"), "worker"));
  }
  g_clear_pointer (&jobs, json_array_unref);
  jobs = server_fixture_run_jobs (&fixture);
  g_assert_cmpuint (json_array_get_length (jobs), >=, 3);
  for (guint i = 0; i < json_array_get_length (jobs); i++)
    {
      JsonObject *job = json_array_get_object_element (jobs, i);
      g_autoptr(JsonNode) payload = NULL;
      const char *code = request_code (job, &payload);

      /* Every code run of the defense was the pool's, each done. */
      g_assert_cmpstr (json_object_get_string_member (job, "state"), ==, "done");
      g_assert_cmpstr (json_object_get_string_member (job, "subject"), ==, subject);
      if (strstr (code, "time.sleep") != NULL)
        n_slow++;
      if (g_str_equal (code, SECOND_RUN))
        {
          /* A fresh interpreter on whichever worker, yet the first run's
           * global was there. */
          n_second++;
          g_assert_nonnull (strstr (json_object_get_string_member (job, "result"), PRINTED));
        }
    }
  g_assert_cmpuint (n_slow, ==, 1);
  g_assert_cmpuint (n_second, ==, 1);

  server_worker_kill (b);
  server_fixture_teardown (&fixture);
  g_unsetenv ("VIVA_SERVER_LEASE_MS");
}

static guint
post (ServerFixture *fixture,
      const char    *path,
      const char    *token,
      const char    *body)
{
  g_autoptr(JsonNode) answer = NULL;
  guint status = 0;

  answer = server_fixture_request (fixture, "POST", path, token, body, &status, NULL);
  return status;
}

static char *
enqueue (VivaServerStore *store,
         const char      *kind,
         JsonObject      *request)
{
  g_autoptr(JsonObject) payload = json_object_new ();
  g_autoptr(GError) error = NULL;
  static guint n = 0;
  /* In the order enqueued, should two share a millisecond. */
  char *id = g_strdup_printf ("test-%u-%s", n++, kind);

  json_object_set_string_member (payload, "problem_id", "double");
  if (request != NULL)
    json_object_set_object_member (payload, "request", request);
  else
    json_object_set_string_member (payload, "code", "def double(x):\n    return 2 * x\n");
  g_assert_true (viva_server_store_enqueue_job (store, id, "server-quiz", kind, "defense/test", payload, &error));
  g_assert_no_error (error);
  return id;
}

/* The claim named @job_id, over the API. */
static char *
claim (ServerFixture *fixture,
       const char    *token,
       const char    *job_id)
{
  g_autoptr(JsonNode) answer = NULL;
  JsonObject *job;
  guint status = 0;

  answer = server_fixture_request (fixture, "POST", "/api/v1/exams/server-quiz/jobs/claim", token,
                                   "{\"worker\":\"hostile\"}", &status, NULL);
  g_assert_cmpuint (status, ==, 200);
  job = json_object_get_object_member (json_node_get_object (answer), "job");
  g_assert_cmpstr (json_object_get_string_member (job, "id"), ==, job_id);
  return g_strdup (json_object_get_string_member (job, "claim_id"));
}

#define FAILED_TEST(name) "{\"name\":\"" name "\",\"passed\":false,\"out_of_process\":true,\"status\":\"failed\",\"message\":\"no\"}"

/* A worker's result for a run is hostile: another op's form, a report of
 * a test not asked, more than the form, an error that is not a short
 * text — each refused with the API's error (and one too large by the
 * check itself) and nothing kept: the job still runs, and a real worker
 * does it once its lease ran out. Runs are claimed before gradings, whenever enqueued;
 * while they wait with no claimer, status says so. */
static void
test_hostile_runs (void)
{
  static const char * const exams[] = { "exam.json", NULL };
  static const char * const workers_only[] = { "--local-jobs", "0", NULL };
  ServerFixture fixture;
  g_autoptr(VivaServerStore) store = NULL;
  g_autoptr(GPtrArray) tests = g_ptr_array_new_with_free_func ((GDestroyNotify)viva_grader_test_free);
  g_autoptr(JsonArray) history = json_array_new ();
  g_autofree char *token = NULL;
  g_autofree char *grade_job = NULL;
  g_autofree char *grade_run = NULL;
  g_autofree char *plain_run = NULL;
  g_autofree char *grade_claim = NULL;
  g_autofree char *plain_claim = NULL;
  g_autofree char *grade_path = NULL;
  g_autofree char *plain_path = NULL;
  ServerWorker *worker;

  g_setenv ("VIVA_SERVER_LEASE_MS", "1000", TRUE);
  server_fixture_setup_full (&fixture, exams, workers_only);
  token = server_fixture_worker_token (&fixture, "server-quiz");
  store = server_fixture_open_store (&fixture);

  g_ptr_array_add (tests, viva_grader_test_new_structured ("small numbers", "", "double(3)", "assert result == 6",
                                                           FALSE, 0));
  /* A grading first, then a prediction's check and a runPython. */
  grade_job = enqueue (store, "grade", NULL);
  grade_run = enqueue (store, "run", viva_exam_run_request_new_grade (VIVA_EXAM_RUN_ON_STUDENT,
                                                                      "def double(x):\n    return 2 * x\n",
                                                                      tests, 1));
  plain_run = enqueue (store, "run", viva_exam_run_request_new_run (history, "print(1)", 5000));

  /* Runs waiting long with none running: status says no claimer takes
   * them, and what to do; a grading waiting as long is no such case. */
  g_assert_true (viva_server_db_execf (viva_server_store_get_db (store), NULL,
                                       "UPDATE jobs SET enqueued_at = enqueued_at - 10000", ""));
  g_clear_object (&store);
  {
    g_autofree char *status = server_fixture_status_text (&fixture, "server-quiz");

    g_assert_nonnull (strstr (status, "Warning: 2 code runs wait and no worker or node claims runs: start "
                                      "`viva-server worker` or serve with --local-jobs."));
  }

  grade_claim = claim (&fixture, token, grade_run);
  plain_claim = claim (&fixture, token, plain_run);
  {
    g_autofree char *status = server_fixture_status_text (&fixture, "server-quiz");

    g_assert_null (strstr (status, "no worker or node claims runs"));
  }
  grade_path = g_strdup_printf ("/api/v1/exams/server-quiz/jobs/%s/result", grade_run);
  plain_path = g_strdup_printf ("/api/v1/exams/server-quiz/jobs/%s/result", plain_run);

  {
    struct { const char *path; const char *claim_id; const char *result; } forged[] = {
      /* Another op's form. */
      { grade_path, grade_claim, "{\"run\":{\"status\":\"ok\",\"stdout\":\"\"}}" },
      { plain_path, plain_claim, "{\"report\":{\"tests\":[" FAILED_TEST ("small numbers") "]}}" },
      /* A test the run did not ask, or one asked twice. */
      { grade_path, grade_claim, "{\"report\":{\"tests\":[" FAILED_TEST ("not asked") "]}}" },
      { grade_path, grade_claim, "{\"report\":{\"tests\":[" FAILED_TEST ("small numbers") ","
                                 FAILED_TEST ("small numbers") "]}}" },
      /* More than the form. */
      { grade_path, grade_claim, "{\"report\":{\"tests\":[" FAILED_TEST ("small numbers") "]},\"passed\":1}" },
      /* An error that is not a short text. */
      { plain_path, plain_claim, "{\"error\":7}" },
      { plain_path, plain_claim, "{\"error\":\"no\",\"run\":{}}" },
      { plain_path, plain_claim, "[]" },
    };

    for (guint i = 0; i < G_N_ELEMENTS (forged); i++)
      {
        g_autofree char *body = g_strdup_printf ("{\"claim_id\":\"%s\",\"result\":%s}", forged[i].claim_id,
                                                 forged[i].result);

        g_test_message ("forged result %u", i);
        g_assert_cmpuint (post (&fixture, forged[i].path, token, body), ==, 400);
      }
  }

  /* Too large for a run's result: the API's body limit (2 MiB, refused
   * from the headers: test-server.c) is below it, so it is met here by
   * the check itself. */
  {
    g_autoptr(JsonObject) job = server_fixture_job (&fixture, plain_run);
    g_autofree char *big = g_strnfill (VIVA_EXAM_RUN_RESULT_MAX_BYTES + 1, 'x');
    g_autofree char *text = g_strdup_printf ("{\"run\":{\"status\":\"ok\",\"stdout\":\"%s\"}}", big);
    g_autoptr(JsonNode) result = json_from_string (text, NULL);
    g_autoptr(GError) error = NULL;
    g_autofree char *kept = _viva_server_job_check_run_result (job, result, &error);

    g_assert_null (kept);
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE);
  }

  /* Nothing of that was kept: both still run under the hostile claim. */
  {
    g_autoptr(JsonObject) a = server_fixture_job (&fixture, grade_run);
    g_autoptr(JsonObject) b = server_fixture_job (&fixture, plain_run);

    g_assert_cmpstr (json_object_get_string_member (a, "state"), ==, "running");
    g_assert_cmpstr (json_object_get_string_member (b, "state"), ==, "running");
    g_assert_true (json_object_get_null_member (a, "result"));
    g_assert_true (json_object_get_null_member (b, "result"));
  }

  /* A real worker does them once the hostile claims ran out, the grading
   * after the runs. */
  for (gboolean expired = FALSE; !expired;)
    {
      g_autoptr(JsonObject) a = server_fixture_job (&fixture, grade_run);
      g_autoptr(JsonObject) b = server_fixture_job (&fixture, plain_run);
      gint64 now = viva_server_store_now ();

      expired = json_object_get_int_member (a, "lease_until") < now &&
                json_object_get_int_member (b, "lease_until") < now;
      if (!expired)
        g_usleep (50 * 1000);
    }
  worker = server_fixture_start_worker (&fixture, "server-quiz", token, "real", NULL);
  {
    g_autofree char *first = server_worker_wait (worker, "recorded");
    g_autofree char *second = server_worker_wait (worker, "recorded");
    g_autofree char *third = server_worker_wait (worker, "recorded");
    g_autoptr(JsonObject) a = server_fixture_job (&fixture, grade_run);
    g_autoptr(JsonObject) b = server_fixture_job (&fixture, plain_run);
    g_autofree char *late = g_strdup_printf ("{\"claim_id\":\"%s\",\"result\":{\"error\":\"late\"}}", plain_claim);

    g_assert_cmpstr (third, ==, grade_job);
    g_assert_true ((g_str_equal (first, grade_run) && g_str_equal (second, plain_run)) ||
                   (g_str_equal (first, plain_run) && g_str_equal (second, grade_run)));
    g_assert_cmpstr (json_object_get_string_member (a, "state"), ==, "done");
    g_assert_cmpint (json_object_get_int_member (a, "attempts"), ==, 2);
    g_assert_nonnull (strstr (json_object_get_string_member (a, "result"), "\"small numbers\""));
    g_assert_cmpstr (json_object_get_string_member (b, "state"), ==, "done");
    g_assert_nonnull (strstr (json_object_get_string_member (b, "result"), "\"run\""));
    /* The hostile claim's late word is refused: the job went to another. */
    g_assert_cmpuint (post (&fixture, plain_path, token, late), ==, 409);
  }

  server_worker_kill (worker);
  server_fixture_teardown (&fixture);
  g_unsetenv ("VIVA_SERVER_LEASE_MS");
}

/* A node's claimer of one place grades one submission at a time, and
 * keeps a place for code runs beside it: a run enqueued while a slow
 * grading runs is done before that grading ends. */
static void
test_beside_grading (void)
{
  static const char * const exams[] = { "exam.json", NULL };
  static const char * const one_place[] = { "--local-jobs", "1", NULL };
  ServerFixture fixture;
  g_autoptr(VivaServerStore) store = NULL;
  g_autoptr(JsonArray) history = json_array_new ();
  g_autoptr(JsonObject) payload = json_object_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *run = NULL;

  server_fixture_setup_full (&fixture, exams, one_place);
  store = server_fixture_open_store (&fixture);
  json_object_set_string_member (payload, "problem_id", "double");
  json_object_set_string_member (payload, "code", "import time\ntime.sleep(3)\ndef double(x):\n    return 2 * x\n");
  g_assert_true (viva_server_store_enqueue_job (store, "slow-grade", "server-quiz", "grade", NULL, payload, &error));
  g_assert_no_error (error);
  while (server_fixture_job_state (&fixture, "slow-grade") == g_intern_static_string ("waiting"))
    g_usleep (20 * 1000);

  run = enqueue (store, "run", viva_exam_run_request_new_run (history, "print(1)", 5000));
  while (server_fixture_job_state (&fixture, run) != g_intern_static_string ("done"))
    g_usleep (20 * 1000);
  g_assert_cmpstr (server_fixture_job_state (&fixture, "slow-grade"), ==, "running");

  while (server_fixture_job_state (&fixture, "slow-grade") != g_intern_static_string ("done"))
    g_usleep (50 * 1000);
  g_clear_object (&store);
  server_fixture_teardown (&fixture);
}

/* A node that stops drops the code run its defense was waiting on, which
 * no claimer took; the node that continues the defense asks again. */
static void
test_stop_drops (void)
{
  static const char * const exams[] = { "exam.json", NULL };
  static const char * const workers_only[] = { "--local-jobs", "0", NULL };
  ServerFixture fixture;
  g_autofree char *student = NULL;
  g_autofree char *defense = NULL;
  g_autofree char *first = NULL;
  g_autoptr(JsonArray) jobs = NULL;

  server_fixture_setup_full (&fixture, exams, workers_only);
  student = server_fixture_sign_in (&fixture, "server-quiz", "s1");
  defense = server_fixture_submit (&fixture, student, "server-quiz", "double", "def double(x):\n    return 2 * x\n");
  for (guint i = 0; i < 300 && (jobs == NULL || json_array_get_length (jobs) == 0); i++)
    {
      g_clear_pointer (&jobs, json_array_unref);
      jobs = server_fixture_run_jobs (&fixture);
      if (json_array_get_length (jobs) == 0)
        g_usleep (50 * 1000);
    }
  g_assert_cmpuint (json_array_get_length (jobs), ==, 1);
  first = g_strdup (json_object_get_string_member (json_array_get_object_element (jobs, 0), "id"));
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (jobs, 0), "state"), ==, "waiting");

  /* A clean stop (SIGTERM): the waiting run is gone. */
  g_subprocess_send_signal (fixture.process, SIGTERM);
  g_subprocess_wait (fixture.process, NULL, NULL);
  g_assert_cmpint (g_subprocess_get_exit_status (fixture.process), ==, 0);
  g_clear_object (&fixture.process);
  g_clear_pointer (&jobs, json_array_unref);
  jobs = server_fixture_run_jobs (&fixture);
  g_assert_cmpuint (json_array_get_length (jobs), ==, 0);

  /* Started again, the defense continues and asks for its run anew. */
  server_fixture_start (&fixture);
  for (guint i = 0; i < 300 && json_array_get_length (jobs) == 0; i++)
    {
      g_clear_pointer (&jobs, json_array_unref);
      jobs = server_fixture_run_jobs (&fixture);
      if (json_array_get_length (jobs) == 0)
        g_usleep (50 * 1000);
    }
  g_assert_cmpuint (json_array_get_length (jobs), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (jobs, 0), "id"), !=, first);
  server_fixture_teardown (&fixture);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  if (server_fixture_engine_skip () != 0)
    return 77;

  g_test_add_func ("/viva/server/runs/pool", test_pool_runs);
  g_test_add_func ("/viva/server/runs/hostile", test_hostile_runs);
  g_test_add_func ("/viva/server/runs/beside-grading", test_beside_grading);
  g_test_add_func ("/viva/server/runs/stop-drops", test_stop_drops);

  return g_test_run ();
}

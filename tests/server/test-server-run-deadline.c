/* test-server-run-deadline.c: a defense's code run that no claimer
 * takes in time — withdrawn, the tool failing with a sentence the model
 * and the student are shown, the defense going on to its verdict — and
 * one claimed just in time, kept and its result used
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "server-fixture.h"
#include "server-fixture-store.h"
#include "server-postgres.h"
#include "viva-server-store-pool.h"

/* The scripted examiner as the exam's model, with one runPython call. */
static GSubprocess *
start_model (char **url)
{
  const char *argv[] = { SERVER_EXAMINER_PATH, "--run", "print(6 * 7)", NULL };
  g_autoptr(GDataInputStream) lines = NULL;
  g_autoptr(GError) error = NULL;
  GSubprocess *process;

  /* It serves until its standard input closes: with this test. */
  process = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDIN_PIPE, &error);
  g_assert_no_error (error);
  lines = g_data_input_stream_new (g_subprocess_get_stdout_pipe (process));
  *url = g_data_input_stream_read_line_utf8 (lines, NULL, NULL, &error);
  g_assert_no_error (error);
  return process;
}

/* The kept events of a defense, as the teacher's record holds them: the
 * tool results with what the model was told. */
static char *
kept_events (ServerFixture *fixture,
             const char    *defense_id,
             const char    *kind)
{
  g_autoptr(VivaServerStore) store = server_fixture_open_store (fixture);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonArray) rows = viva_server_db_queryf (viva_server_store_get_db (store), &error,
                                                     "SELECT data FROM defense_events WHERE defense_id = $1"
                                                     " AND kind = $2 ORDER BY seq", "ss", defense_id, kind);
  GString *text = g_string_new (NULL);

  g_assert_no_error (error);
  for (guint i = 0; i < json_array_get_length (rows); i++)
    g_string_append_printf (text, "%s\n", json_object_get_string_member (json_array_get_object_element (rows, i),
                                                                         "data"));
  return g_string_free (text, FALSE);
}

/* The student's page of the defense's events, whole. */
static char *
student_events (ServerFixture *fixture,
                const char    *token,
                const char    *exam_id,
                const char    *defense_id)
{
  g_autofree char *path = g_strdup_printf ("/api/v1/exams/%s/defenses/%s/events?after=0", exam_id, defense_id);
  g_autoptr(JsonNode) page = NULL;
  char *raw = NULL;
  guint status = 0;

  page = server_fixture_request (fixture, "GET", path, token, NULL, &status, &raw);
  g_assert_cmpuint (status, ==, 200);
  return raw;
}

#define NO_WORKER "No worker ran this code within 1 second: the exam server has no free worker for this exam."

/* No claimer of code runs at all (no local jobs, the one worker kept for
 * gradings): each of the defense's code runs ends at its deadline with a
 * sentence, which the model is told as that tool's error and the
 * student's card shows as a failed run; the defense goes on to its
 * verdict, and the runs are withdrawn, none left waiting in the queue. */
static void
test_no_claimer (void)
{
  ServerFixture fixture;
  g_autofree char *url = NULL;
  g_autoptr(GSubprocess) model = start_model (&url);
  const char *serve_args[] = { "--local-jobs", "0", "--base-url", NULL, "--model", "lab-model", NULL };
  static const char * const exams[] = { "exam-model.json", NULL };
  g_autofree char *worker_token = NULL;
  g_autofree char *student = NULL;
  g_autofree char *defense = NULL;
  g_autofree char *results = NULL;
  g_autofree char *seen = NULL;
  g_autofree char *status = NULL;
  g_autoptr(JsonObject) verdict = NULL;
  g_autoptr(JsonArray) jobs = NULL;
  ServerWorker *grader;
  gint64 waiting = -1, running = -1;

  serve_args[3] = url;
  g_setenv ("VIVA_SERVER_RUN_CLAIM_MS", "1000", TRUE);
  server_fixture_setup_full (&fixture, exams, serve_args);
  worker_token = server_fixture_worker_token (&fixture, "model-quiz");
  grader = server_fixture_start_worker (&fixture, "model-quiz", worker_token, "grader", "grade");
  student = server_fixture_sign_in (&fixture, "model-quiz", "s1");
  defense = server_fixture_submit (&fixture, student, "model-quiz", "double", "def double(x):\n    return 2 * x\n");

  verdict = server_fixture_defend (&fixture, student, "model-quiz", defense);
  g_assert_nonnull (json_object_get_string_member (json_object_get_object_member (verdict, "data"), "verdict"));

  /* The model was told why its run did not run, and what to do. */
  results = kept_events (&fixture, defense, "tool_result");
  g_assert_nonnull (strstr (results, NO_WORKER));
  g_assert_nonnull (strstr (results, "Tell the teacher"));
  /* The student's card: the run failed (its words are the model's). */
  seen = student_events (&fixture, student, "model-quiz", defense);
  g_assert_null (strstr (seen, NO_WORKER));
  {
    g_autoptr(JsonNode) page = json_from_string (seen, NULL);
    JsonArray *events = json_object_get_array_member (json_node_get_object (page), "events");
    guint failed = 0;

    for (guint i = 0; i < json_array_get_length (events); i++)
      {
        JsonObject *event = json_array_get_object_element (events, i);
        JsonObject *data = json_object_get_object_member (event, "data");

        if (g_str_equal (json_object_get_string_member (event, "kind"), "tool_result") &&
            g_str_equal (json_object_get_string_member (data, "name"), "runPython") &&
            !json_object_get_boolean_member (data, "ok"))
          failed++;
      }
    g_assert_cmpuint (failed, ==, 1);
  }

  /* Every run withdrawn, none waiting; the queue says so. */
  jobs = server_fixture_run_jobs (&fixture);
  g_assert_cmpuint (json_array_get_length (jobs), >=, 2);
  for (guint i = 0; i < json_array_get_length (jobs); i++)
    g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (jobs, i), "state"), ==,
                     "withdrawn");
  server_fixture_queue_of (&fixture, "model-quiz", "run", &waiting, &running);
  g_assert_cmpint (waiting, ==, 0);
  g_assert_cmpint (running, ==, 0);
  status = server_fixture_status_text (&fixture, "model-quiz");
  g_assert_null (strstr (status, "no worker or node claims runs"));

  server_worker_kill (grader);
  server_fixture_teardown (&fixture);
  g_unsetenv ("VIVA_SERVER_RUN_CLAIM_MS");
}

/* The next run job waiting, once enqueued. */
static char *
next_waiting_run (ServerFixture *fixture,
                  GHashTable    *taken)
{
  for (guint attempt = 0; attempt < 600; attempt++)
    {
      g_autoptr(JsonArray) jobs = server_fixture_run_jobs (fixture);

      for (guint i = 0; i < json_array_get_length (jobs); i++)
        {
          JsonObject *job = json_array_get_object_element (jobs, i);
          const char *id = json_object_get_string_member (job, "id");

          if (g_str_equal (json_object_get_string_member (job, "state"), "waiting") &&
              !g_hash_table_contains (taken, id))
            return g_strdup (id);
        }
      g_usleep (20 * 1000);
    }
  g_error ("no code run was enqueued in 12 s");
  return NULL;
}

/* A claim of the run @job_id over the API, as a worker kept for runs. */
static char *
claim_run (ServerFixture *fixture,
           const char    *token,
           const char    *job_id)
{
  g_autoptr(JsonNode) answer = NULL;
  JsonObject *job;
  guint status = 0;

  answer = server_fixture_request (fixture, "POST", "/api/v1/exams/model-quiz/jobs/claim", token,
                                   "{\"worker\":\"late\",\"kind\":\"run\"}", &status, NULL);
  g_assert_cmpuint (status, ==, 200);
  job = json_object_get_object_member (json_node_get_object (answer), "job");
  g_assert_cmpstr (json_object_get_string_member (job, "id"), ==, job_id);
  return g_strdup (json_object_get_string_member (job, "claim_id"));
}

static void
post_run_result (ServerFixture *fixture,
                 const char    *token,
                 const char    *job_id,
                 const char    *claim_id,
                 const char    *result)
{
  g_autofree char *path = g_strdup_printf ("/api/v1/exams/model-quiz/jobs/%s/result", job_id);
  g_autofree char *body = g_strdup_printf ("{\"claim_id\":\"%s\",\"result\":%s}", claim_id, result);

  g_autoptr(JsonNode) answer = NULL;
  g_autofree char *raw = NULL;
  guint status = 0;

  answer = server_fixture_request (fixture, "POST", path, token, body, &status, &raw);
  if (status != 200)
    g_test_message ("%s", raw);
  g_assert_cmpuint (status, ==, 200);
}

/* A run's result in the form a worker posts. */
#define OK_RUN(out) "{\"run\":{\"status\":\"ok\",\"duration_ms\":3,\"output_truncated\":false," \
                    "\"state_reset\":false,\"stdout\":\"" out "\",\"stderr\":\"\"}}"

/* A run claimed just before its deadline is not withdrawn when the
 * deadline comes: the defense waits for the claimer's result and uses it
 * (the claimer's own stdout reaches the model's record). */
static void
test_claimed_in_time (void)
{
  ServerFixture fixture;
  g_autofree char *url = NULL;
  g_autoptr(GSubprocess) model = start_model (&url);
  const char *serve_args[] = { "--local-jobs", "0", "--base-url", NULL, "--model", "lab-model", NULL };
  static const char * const exams[] = { "exam-model.json", NULL };
  g_autoptr(GHashTable) taken = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *worker_token = NULL;
  g_autofree char *student = NULL;
  g_autofree char *defense = NULL;
  g_autofree char *prime = NULL;
  g_autofree char *prime_claim = NULL;
  g_autofree char *late = NULL;
  g_autofree char *late_claim = NULL;
  g_autofree char *results = NULL;
  g_autoptr(JsonObject) verdict = NULL;
  ServerWorker *grader;
  guint claim_ms = 1500;

  serve_args[3] = url;
  g_setenv ("VIVA_SERVER_RUN_CLAIM_MS", "1500", TRUE);
  server_fixture_setup_full (&fixture, exams, serve_args);
  worker_token = server_fixture_worker_token (&fixture, "model-quiz");
  grader = server_fixture_start_worker (&fixture, "model-quiz", worker_token, "grader", "grade");
  student = server_fixture_sign_in (&fixture, "model-quiz", "s1");
  defense = server_fixture_submit (&fixture, student, "model-quiz", "double", "def double(x):\n    return 2 * x\n");

  /* The prime, done at once. */
  prime = next_waiting_run (&fixture, taken);
  g_hash_table_add (taken, g_strdup (prime));
  prime_claim = claim_run (&fixture, worker_token, prime);
  post_run_result (&fixture, worker_token, prime, prime_claim, OK_RUN (""));

  /* runPython: claimed in time, its result posted well past the deadline. */
  late = next_waiting_run (&fixture, taken);
  g_hash_table_add (taken, g_strdup (late));
  late_claim = claim_run (&fixture, worker_token, late);
  for (;;)
    {
      g_autoptr(JsonObject) job = server_fixture_job (&fixture, late);

      if (viva_server_store_now () > json_object_get_int_member (job, "enqueued_at") + claim_ms + 1000)
        break;
      g_usleep (50 * 1000);
    }
  g_assert_cmpstr (server_fixture_job_state (&fixture, late), ==, "running");
  /* The wait's withdrawal, had it read the row just before the claim:
   * the claim won the row, nothing is withdrawn. */
  {
    g_autoptr(VivaServerStore) store = server_fixture_open_store (&fixture);
    g_autoptr(GError) error = NULL;
    gboolean withdrawn = TRUE;

    g_assert_true (viva_server_store_withdraw_unclaimed_job (store, late, claim_ms, &withdrawn, &error));
    g_assert_no_error (error);
    g_assert_false (withdrawn);
  }
  g_assert_cmpstr (server_fixture_job_state (&fixture, late), ==, "running");
  post_run_result (&fixture, worker_token, late, late_claim,
                   OK_RUN ("CLAIMED-IN-TIME\\n"));

  verdict = server_fixture_defend (&fixture, student, "model-quiz", defense);
  g_assert_nonnull (json_object_get_string_member (json_object_get_object_member (verdict, "data"), "verdict"));
  g_assert_cmpstr (server_fixture_job_state (&fixture, prime), ==, "done");
  g_assert_cmpstr (server_fixture_job_state (&fixture, late), ==, "done");
  results = kept_events (&fixture, defense, "tool_result");
  g_assert_nonnull (strstr (results, "CLAIMED-IN-TIME"));

  /* A run waiting within its time is not withdrawn; one whose claimer
   * died (its lease ran out) and no other took is, once as long again
   * passed, and the dead claimer can record nothing after. */
  {
    g_autoptr(VivaServerStore) store = server_fixture_open_store (&fixture);
    g_autoptr(JsonObject) payload = json_object_new ();
    g_autoptr(JsonObject) claimed = NULL;
    g_autoptr(GError) error = NULL;
    gboolean withdrawn = TRUE;

    json_object_set_string_member (payload, "problem_id", "double");
    g_assert_true (viva_server_store_enqueue_job (store, "lone-run", "model-quiz", "run", "defense/none", payload,
                                                  &error));
    g_assert_true (viva_server_store_withdraw_unclaimed_job (store, "lone-run", 60000, &withdrawn, &error));
    g_assert_false (withdrawn);
    claimed = viva_server_store_claim_job_of_kind (store, "model-quiz", "run", "dead", 100, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (json_object_get_string_member (claimed, "id"), ==, "lone-run");
    while (viva_server_store_now () <= json_object_get_int_member (claimed, "lease_until") + 200)
      g_usleep (20 * 1000);
    g_assert_true (viva_server_store_withdraw_unclaimed_job (store, "lone-run", 60000, &withdrawn, &error));
    g_assert_false (withdrawn);
    g_assert_true (viva_server_store_withdraw_unclaimed_job (store, "lone-run", 100, &withdrawn, &error));
    g_assert_no_error (error);
    g_assert_true (withdrawn);
    g_assert_false (viva_server_store_finish_job (store, "lone-run", json_object_get_string_member (claimed, "claim_id"),
                                                  "dead", "{\"error\":\"late\"}", &error));
    g_assert_nonnull (error);
  }
  g_assert_cmpstr (server_fixture_job_state (&fixture, "lone-run"), ==, "withdrawn");

  server_worker_kill (grader);
  server_fixture_teardown (&fixture);
  g_unsetenv ("VIVA_SERVER_RUN_CLAIM_MS");
}

/* The database away when a run's deadline comes: the wait keeps polling,
 * and once the database answers the run is withdrawn, its deadline
 * counted from its enqueue, and the defense goes on to its verdict. */
static void
test_database_away (void)
{
  ServerFixture fixture;
  g_autofree char *url = NULL;
  g_autoptr(GSubprocess) model = start_model (&url);
  const char *serve_args[] = { "--local-jobs", "0", "--base-url", url, "--model", "lab-model", NULL };
  static const char * const exams[] = { "exam-model.json", NULL };
  g_autoptr(GHashTable) taken = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *worker_token = NULL;
  g_autofree char *student = NULL;
  g_autofree char *defense = NULL;
  g_autofree char *prime = NULL;
  g_autoptr(JsonObject) verdict = NULL;
  g_autoptr(JsonObject) job = NULL;
  ServerWorker *grader;
  gint64 enqueued, back;

  g_setenv ("VIVA_SERVER_RUN_CLAIM_MS", "1000", TRUE);
  server_fixture_setup_full (&fixture, exams, serve_args);
  worker_token = server_fixture_worker_token (&fixture, "model-quiz");
  student = server_fixture_sign_in (&fixture, "model-quiz", "s1");
  defense = server_fixture_submit (&fixture, student, "model-quiz", "double", "def double(x):\n    return 2 * x\n");
  prime = next_waiting_run (&fixture, taken);
  {
    g_autoptr(JsonObject) row = server_fixture_job (&fixture, prime);

    enqueued = json_object_get_int_member (row, "enqueued_at");
  }

  /* Away from before the deadline to well after it. */
  server_postgres_stop_cluster ();
  while (viva_server_store_now () < enqueued + 2500)
    g_usleep (50 * 1000);
  back = viva_server_store_now ();
  server_postgres_start_cluster ();

  /* The server answers again once its next attempt finds the database
   * (the student's app waits what Retry-After says, as here). */
  for (guint status = 503; status == 503;)
    {
      g_autofree char *path = g_strdup_printf ("/api/v1/exams/model-quiz/defenses/%s/events?after=0", defense);
      g_autoptr(JsonNode) page = server_fixture_request (&fixture, "GET", path, student, NULL, &status, NULL);

      if (status == 503)
        g_usleep (100 * 1000);
    }
  grader = server_fixture_start_worker (&fixture, "model-quiz", worker_token, "grader", "grade");
  verdict = server_fixture_defend (&fixture, student, "model-quiz", defense);
  g_assert_nonnull (json_object_get_string_member (json_object_get_object_member (verdict, "data"), "verdict"));
  job = server_fixture_job (&fixture, prime);
  g_assert_cmpstr (json_object_get_string_member (job, "state"), ==, "withdrawn");
  g_assert_cmpint (json_object_get_int_member (job, "finished_at"), >=, back);

  server_worker_kill (grader);
  server_fixture_teardown (&fixture);
  g_unsetenv ("VIVA_SERVER_RUN_CLAIM_MS");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  if (server_fixture_engine_skip () != 0)
    return 77;

  g_test_add_func ("/viva/server/run-deadline/no-claimer", test_no_claimer);
  g_test_add_func ("/viva/server/run-deadline/claimed-in-time", test_claimed_in_time);
  /* Only PostgreSQL can be away while the server runs. */
  if (server_postgres_wanted ())
    g_test_add_func ("/viva/server/run-deadline/database-away", test_database_away);

  return g_test_run ();
}

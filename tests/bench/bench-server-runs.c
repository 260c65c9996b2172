/* bench-server-runs.c: what a defense's tool run costs as a pool job
 * against in the node's own worker, side by side in one run — the same
 * runPython in a warm interpreter of this process (VivaExamLocalRuns, what
 * a defense ran on before), as a `run` job executed here without a queue
 * (a fresh sandbox and the history replayed), and as a job through the
 * queue: the node's own claimer, and a `viva-server worker` over HTTPS
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>

#include "server-fixture.h"
#include "server-postgres.h"
#include "viva-core.h"
#include "viva-exam-local-runs.h"
#include "viva-exam-run-request.h"
#include "viva-server-defense-jobs.h"
#include "viva-server-jobs.h"
#include "viva-server-store-pool.h"

#define RUNS  10
#define CODE  "def double(x):\n    return 2 * x\n"
#define TOOL  "print(double(21))"

static const char * const one_exam[] = { "exam.json", NULL };

typedef struct
{
  GMainLoop    *loop;
  GAsyncResult *result;
} Waiter;

static void
done_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Waiter *waiter = user_data;

  waiter->result = g_object_ref (result);
  g_main_loop_quit (waiter->loop);
}

static GAsyncResult *
wait_result (Waiter *waiter)
{
  g_main_loop_run (waiter->loop);
  return waiter->result;
}

static VivaServerStore *
open_store (ServerFixture *fixture)
{
  g_autoptr(GError) error = NULL;
  VivaServerStore *store = viva_server_store_open_database (fixture->state_dir, fixture->database, &error);

  g_assert_no_error (error);
  return store;
}

static VivaExamFile *
exam_of (VivaServerStore *store)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) exam = viva_server_store_get_exam (store, "server-quiz", &error);
  const char *text = json_object_get_string_member (exam, "exam_json");
  g_autoptr(GBytes) bytes = g_bytes_new (text, strlen (text));
  VivaExamFile *file = viva_exam_file_new_from_bytes (bytes, NULL, NULL, &error);

  g_assert_no_error (error);
  return file;
}

/* A runPython after the prime, as a defense's remote runs send it. */
static JsonObject *
tool_request (void)
{
  g_autoptr(JsonArray) history = json_array_new ();
  JsonObject *prime = json_object_new ();

  json_object_set_string_member (prime, "op", "run");
  json_object_set_string_member (prime, "code", CODE);
  json_array_add_object_element (history, prime);
  return viva_exam_run_request_new_run (history, TOOL, 5000);
}

/* The node's own worker, as before: a warm interpreter, the prime once. */
static double
local_ms (VivaProblem *problem)
{
  g_autoptr(VivaExamLocalRuns) runs = viva_exam_local_runs_new (problem, NULL, NULL);
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr(GError) error = NULL;
  gint64 total = 0;

  {
    Waiter waiter = { loop, NULL };

    viva_exam_runs_start_async (VIVA_EXAM_RUNS (runs), NULL, done_cb, &waiter);
    g_assert_true (viva_exam_runs_start_finish (VIVA_EXAM_RUNS (runs), wait_result (&waiter), &error));
    g_clear_object (&waiter.result);
  }
  {
    Waiter waiter = { loop, NULL };
    g_autoptr(VivaRunResult) prime = NULL;

    viva_exam_runs_run_async (VIVA_EXAM_RUNS (runs), CODE, 5000, NULL, done_cb, &waiter);
    prime = viva_exam_runs_run_finish (VIVA_EXAM_RUNS (runs), wait_result (&waiter), &error);
    g_assert_no_error (error);
    g_clear_object (&waiter.result);
  }
  for (guint i = 0; i < RUNS; i++)
    {
      Waiter waiter = { loop, NULL };
      g_autoptr(VivaRunResult) run = NULL;
      gint64 start = g_get_monotonic_time ();

      viva_exam_runs_run_async (VIVA_EXAM_RUNS (runs), TOOL, 5000, NULL, done_cb, &waiter);
      run = viva_exam_runs_run_finish (VIVA_EXAM_RUNS (runs), wait_result (&waiter), &error);
      g_assert_no_error (error);
      total += g_get_monotonic_time () - start;
      g_clear_object (&waiter.result);
    }
  viva_exam_runs_stop (VIVA_EXAM_RUNS (runs));
  return total / 1000.0 / RUNS;
}

/* The job's own work, here without a queue: what any claimer does. */
static double
job_ms (JsonObject *pack)
{
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  gint64 total = 0;

  for (guint i = 0; i < RUNS; i++)
    {
      g_autoptr(JsonObject) payload = json_object_new ();
      g_autoptr(JsonObject) out = NULL;
      g_autoptr(GError) error = NULL;
      Waiter waiter = { loop, NULL };
      gint64 start;

      json_object_set_string_member (payload, "problem_id", "double");
      json_object_set_object_member (payload, "request", tool_request ());
      start = g_get_monotonic_time ();
      viva_server_job_run_async (pack, "run", payload, NULL, done_cb, &waiter);
      out = viva_server_job_run_finish (wait_result (&waiter), &error);
      total += g_get_monotonic_time () - start;
      g_assert_no_error (error);
      g_assert_true (json_object_has_member (out, "run"));
      g_clear_object (&waiter.result);
    }
  return total / 1000.0 / RUNS;
}

/* Enqueued to recorded, whoever claims it; the row read every 5 ms (a
 * defense reads it every 100 ms). */
static double
queued_ms (VivaServerStore *store)
{
  gint64 total = 0;

  for (guint i = 0; i < RUNS; i++)
    {
      g_autofree char *id = g_strdup_printf ("bench-run-%" G_GINT64_FORMAT "-%u", g_get_real_time (), i);
      g_autoptr(JsonObject) payload = json_object_new ();
      g_autoptr(GError) error = NULL;
      gint64 start = g_get_monotonic_time ();

      json_object_set_string_member (payload, "problem_id", "double");
      json_object_set_object_member (payload, "request", tool_request ());
      g_assert_true (viva_server_store_enqueue_job (store, id, "server-quiz", "run", "defense/bench", payload, &error));
      for (;;)
        {
          g_autoptr(JsonObject) job = viva_server_store_get_job (store, id, &error);

          g_assert_no_error (error);
          if (g_str_equal (json_object_get_string_member (job, "state"), "done"))
            {
              g_assert_nonnull (strstr (json_object_get_string_member (job, "result"), "\"run\""));
              break;
            }
          g_usleep (5 * 1000);
        }
      total += g_get_monotonic_time () - start;
    }
  return total / 1000.0 / RUNS;
}

int
main (int   argc,
      char *argv[])
{
  static const char * const own_claimer[] = { "--local-jobs", "1", NULL };
  static const char * const workers_only[] = { "--local-jobs", "0", NULL };
  ServerFixture fixture;
  g_autoptr(VivaServerStore) store = NULL;
  g_autoptr(VivaExamFile) exam = NULL;
  g_autoptr(JsonObject) pack = NULL;
  g_autofree char *reason = NULL;
  g_autofree char *token = NULL;
  ServerWorker *worker;
  double local, job, node, remote;

  g_test_init (&argc, &argv, NULL);
  viva_core_init ();
  if (!server_postgres_check (&reason))
    g_print ("# PostgreSQL not installed (%s): measuring on SQLite\n", reason);
  else
    g_setenv ("VIVA_TEST_SERVER_DATABASE", "postgresql", TRUE);

  /* The node's own claimer. */
  server_fixture_setup_full (&fixture, one_exam, own_claimer);
  store = open_store (&fixture);
  exam = exam_of (store);
  pack = viva_server_job_pack (exam, "double");
  local = local_ms (viva_pack_find_problem (viva_exam_file_get_pack (exam), "double"));
  job = job_ms (pack);
  node = queued_ms (store);
  g_clear_object (&store);
  server_fixture_teardown (&fixture);

  /* A worker on another machine, over HTTPS. */
  server_fixture_setup_full (&fixture, one_exam, workers_only);
  store = open_store (&fixture);
  token = server_fixture_worker_token (&fixture, "server-quiz");
  worker = server_fixture_start_worker (&fixture, "server-quiz", token, "bench", "run");
  g_free (server_worker_wait (worker, "started"));
  remote = queued_ms (store);
  server_worker_kill (worker);

  printf ("engine: %s\n", fixture.database ? "PostgreSQL" : "SQLite");
  printf ("a runPython in the node's own worker (warm interpreter, as before): %.1f ms per run (%u runs)\n",
          local, RUNS);
  printf ("the same as a run job, executed here without a queue (fresh sandbox, prime replayed): %.1f ms (x%.1f)\n",
          job, job / local);
  printf ("as a run job through the queue, the node's own claimer: %.1f ms (x%.1f)\n", node, node / local);
  printf ("as a run job through the queue, a viva-server worker over HTTPS: %.1f ms (x%.1f)\n", remote,
          remote / local);

  g_clear_object (&store);
  server_fixture_teardown (&fixture);
  return 0;
}

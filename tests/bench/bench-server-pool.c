/* bench-server-pool.c: the grading pool's costs on this machine — what the
 * queue adds around a job (claim and result over HTTPS on an empty queue),
 * a submission's wait for an idle worker, and the queue's throughput with
 * one and two workers, over PostgreSQL (or SQLite without it)
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
#include "viva-server-defense-jobs.h"
#include "viva-server-jobs.h"
#include "viva-server-store-pool.h"

#define ROUND_TRIPS 50
#define JOBS        16
#define CODE        "def double(x):\n    return 2 * x\n"
#define PASSED_TEST(name) "{\"name\":\"" name "\",\"passed\":true,\"out_of_process\":true,\"status\":\"passed\",\"message\":\"\"}"
#define GRADE_RESULT "{\"kind\":\"grade\",\"report\":{\"tests\":[" PASSED_TEST ("small numbers") "," \
                     PASSED_TEST ("negative numbers") "]}}"

static const char * const one_exam[] = { "exam.json", NULL };
static const char * const workers_only[] = { "--local-jobs", "0", NULL };
static const char * const one_local_job[] = { "--local-jobs", "1", NULL };

static void
die_with_parent (gpointer user_data)
{
  prctl (PR_SET_PDEATHSIG, SIGKILL);
}

static VivaServerStore *
open_store (ServerFixture *fixture)
{
  g_autoptr(GError) error = NULL;
  VivaServerStore *store = viva_server_store_open_database (fixture->state_dir, fixture->database, &error);

  g_assert_no_error (error);
  return store;
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

static void
enqueue (VivaServerStore *store,
         guint            n)
{
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *id = g_strdup_printf ("job-%" G_GINT64_FORMAT "-%u", g_get_real_time (), i);
      g_autoptr(JsonObject) payload = json_object_new ();
      g_autoptr(GError) error = NULL;

      json_object_set_string_member (payload, "student_id", "s1");
      json_object_set_string_member (payload, "problem_id", "double");
      json_object_set_string_member (payload, "code", CODE);
      g_assert_true (viva_server_store_enqueue_job (store, id, "server-quiz", "grade", NULL, payload, &error));
    }
}

static gint64
count_done (VivaServerStore *store)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) summary = viva_server_store_queue_summary (store, &error);

  g_assert_no_error (error);
  return json_object_get_int_member (summary, "done");
}

static GSubprocess *
start_worker (ServerFixture *fixture,
              const char    *token,
              const char    *name)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE);
  const char *link = g_hash_table_lookup (fixture->links, "server-quiz");
  g_autofree char *port = g_strdup_printf (":%u/", fixture->port);
  g_auto(GStrv) parts = g_strsplit (link, ":8443/", 2);
  g_autofree char *served = g_strjoin (port, parts[0], parts[1], NULL);
  const char *argv[] = { server_fixture_binary (), "worker", "--server", served, "--worker-token", token,
                         "--name", name, NULL };
  g_autoptr(GError) error = NULL;
  GSubprocess *process;

  g_subprocess_launcher_set_child_setup (launcher, die_with_parent, NULL, NULL);
  process = g_subprocess_launcher_spawnv (launcher, argv, &error);
  g_assert_no_error (error);
  return process;
}

static void
stop (GSubprocess *process)
{
  g_subprocess_send_signal (process, SIGKILL);
  g_subprocess_wait (process, NULL, NULL);
  g_object_unref (process);
}

SoupMessage *server_fixture_message (ServerFixture *, const char *, const char *, const char *);

/* A POST as viva-server worker sends it: on the kept connection. */
static JsonObject *
worker_post (ServerFixture *fixture,
             const char    *path,
             const char    *token,
             const char    *body)
{
  g_autoptr(SoupMessage) msg = server_fixture_message (fixture, "POST", path, token);
  g_autoptr(GBytes) request = g_bytes_new (body, strlen (body));
  g_autoptr(GBytes) reply = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;

  soup_message_add_flags (msg, SOUP_MESSAGE_IDEMPOTENT);
  soup_message_set_request_body_from_bytes (msg, "application/json", request);
  reply = soup_session_send_and_read (fixture->session, msg, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (soup_message_get_status (msg), ==, 200);
  node = json_from_string (g_bytes_get_data (reply, NULL), NULL);
  return json_object_ref (json_node_get_object (node));
}

/* Records a result for @claim's job (or, %NULL, for the one job running),
 * so the queue is empty again. */
static void
finish_claimed (ServerFixture   *fixture,
                VivaServerStore *store,
                const char      *token,
                JsonObject      *claim)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonArray) rows = NULL;
  const char *id, *claim_id;

  if (claim != NULL)
    {
      JsonObject *job = json_object_get_object_member (claim, "job");

      id = json_object_get_string_member (job, "id");
      claim_id = json_object_get_string_member (job, "claim_id");
      g_assert_true (viva_server_store_finish_job (store, id, claim_id, "bench", "{}", &error));
      return;
    }
  rows = viva_server_db_queryf (viva_server_store_get_db (store), &error,
                                "SELECT id, claim_id FROM jobs WHERE state = 'running'", "");
  g_assert_no_error (error);
  g_assert_cmpuint (json_array_get_length (rows), ==, 1);
  id = json_object_get_string_member (json_array_get_object_element (rows, 0), "id");
  claim_id = json_object_get_string_member (json_array_get_object_element (rows, 0), "claim_id");
  g_assert_true (viva_server_store_finish_job (store, id, claim_id, "bench", "{}", &error));
}

/* The queue's own cost: the bench is the worker, and its job does nothing. */
static double
claim_to_result_ms (ServerFixture   *fixture,
                    VivaServerStore *store,
                    const char      *token,
                    const char      *result)
{
  gint64 total = 0;

  for (guint i = 0; i < ROUND_TRIPS; i++)
    {
      g_autoptr(JsonObject) claim = NULL;
      g_autoptr(JsonObject) done = NULL;
      g_autofree char *path = NULL;
      g_autofree char *body = NULL;
      JsonObject *job;
      gint64 start;

      enqueue (store, 1);
      start = g_get_monotonic_time ();
      claim = worker_post (fixture, "/api/v1/exams/server-quiz/jobs/claim", token, "{\"worker\":\"bench\"}");
      job = json_object_get_object_member (claim, "job");
      g_assert_nonnull (job);
      path = g_strdup_printf ("/api/v1/exams/server-quiz/jobs/%s/result", json_object_get_string_member (job, "id"));
      /* Checked and rebuilt as any worker's result is. */
      body = g_strdup_printf ("{\"claim_id\":\"%s\",\"result\":%s}", json_object_get_string_member (job, "claim_id"),
                              result);
      done = worker_post (fixture, path, token, body);
      total += g_get_monotonic_time () - start;
    }
  return total / 1000.0 / ROUND_TRIPS;
}

/* The same in the database alone, as a node's own claimer does it. */
static double
claim_to_result_db_ms (VivaServerStore *store)
{
  gint64 total = 0;

  for (guint i = 0; i < ROUND_TRIPS; i++)
    {
      g_autoptr(JsonObject) job = NULL;
      g_autoptr(GError) error = NULL;
      gint64 start;

      enqueue (store, 1);
      start = g_get_monotonic_time ();
      job = viva_server_store_claim_job (store, "server-quiz", "bench", 10000, &error);
      g_assert_nonnull (job);
      g_assert_true (viva_server_store_finish_job (store, json_object_get_string_member (job, "id"),
                                                   json_object_get_string_member (job, "claim_id"), "bench", "{}",
                                                   &error));
      total += g_get_monotonic_time () - start;
    }
  return total / 1000.0 / ROUND_TRIPS;
}

/* A job that does no work: without code it fails at once, its failure
 * recorded as its result. @told: enqueued as the server does it (the
 * store's NOTIFY on PostgreSQL); else inserted behind the claimers' backs,
 * as every enqueue was before they were told of jobs (or as a NOTIFY lost
 * with its connection leaves it): only the 250 ms poll finds it. */
static char *
enqueue_nothing (VivaServerStore *store,
                 gboolean         told)
{
  char *id = g_strdup_printf ("nothing-%" G_GINT64_FORMAT "-%d", g_get_real_time (), told);
  g_autoptr(JsonObject) payload = json_object_new ();
  g_autoptr(GError) error = NULL;

  json_object_set_string_member (payload, "student_id", "s1");
  json_object_set_string_member (payload, "problem_id", "double");
  if (told)
    g_assert_true (viva_server_store_enqueue_job (store, id, "server-quiz", "grade", NULL, payload, &error));
  else
    g_assert_true (viva_server_db_execf (viva_server_store_get_db (store), &error,
                                         "INSERT INTO jobs (id, exam_id, kind, subject, payload, state, enqueued_at,"
                                         " attempts) VALUES ($1, 'server-quiz', 'grade', NULL,"
                                         " '{\"student_id\":\"s1\",\"problem_id\":\"double\"}', 'waiting', $2, 0)",
                                         "si", id, viva_server_store_now ()));
  g_assert_no_error (error);
  return id;
}

/* From enqueued to its result recorded by the node's own claimer, on an
 * empty queue: told and untold one after the other, side by side. */
static void
enqueue_to_result_ms (VivaServerStore *store,
                      double          *told_ms,
                      double          *untold_ms)
{
  gint64 total[2] = { 0, 0 };

  for (guint i = 0; i < 2 * ROUND_TRIPS; i++)
    {
      gboolean told = i % 2 == 0;
      gint64 start = g_get_monotonic_time ();
      g_autofree char *id = enqueue_nothing (store, told);

      for (;;)
        {
          g_autoptr(GError) error = NULL;
          g_autoptr(JsonObject) job = viva_server_store_get_job (store, id, &error);

          g_assert_nonnull (job);
          if (g_str_equal (json_object_get_string_member (job, "state"), "done"))
            break;
          g_usleep (1000);
        }
      total[told] += g_get_monotonic_time () - start;
      /* Off the poll's beat, as a submission comes. */
      g_usleep (g_random_int_range (0, 250) * 1000);
    }
  *told_ms = total[1] / 1000.0 / ROUND_TRIPS;
  *untold_ms = total[0] / 1000.0 / ROUND_TRIPS;
}

static void
sent_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  GBytes **reply = user_data;
  g_autoptr(GError) error = NULL;

  *reply = soup_session_send_and_read_finish (SOUP_SESSION (object), result, &error);
  g_assert_no_error (error);
}

/* From a job enqueued on an empty queue to a worker's claim answered with
 * it, a worker idle either way, side by side: @waiting_ms, its claim
 * waiting on the server (wait_ms, as viva-server worker now claims),
 * answered when the job is told (the bench's own connection enqueues, as
 * another node would: NOTIFY); @polling_ms, claiming every 200 ms (as it
 * did before), the job coming anywhere in between. */
static void
idle_claim_ms (ServerFixture   *fixture,
               VivaServerStore *store,
               const char      *token,
               double          *waiting_ms,
               double          *polling_ms)
{
  gint64 waiting = 0, polling = 0;

  for (guint i = 0; i < ROUND_TRIPS; i++)
    {
      g_autoptr(SoupMessage) msg = server_fixture_message (fixture, "POST", "/api/v1/exams/server-quiz/jobs/claim", token);
      const char *body = "{\"worker\":\"bench\",\"wait_ms\":20000}";
      g_autoptr(GBytes) request = g_bytes_new (body, strlen (body));
      g_autoptr(JsonObject) claim = NULL;
      g_autoptr(JsonObject) empty = NULL;
      GBytes *reply = NULL;
      guint phase = g_random_int_range (0, 200);
      gint64 start;

      soup_message_add_flags (msg, SOUP_MESSAGE_IDEMPOTENT);
      soup_message_set_request_body_from_bytes (msg, "application/json", request);
      soup_session_send_and_read_async (fixture->session, msg, G_PRIORITY_DEFAULT, NULL, sent_cb, &reply);
      /* Sent, and waiting on the server. */
      for (guint j = 0; j < 20; j++)
        g_main_context_iteration (NULL, FALSE), g_usleep (5 * 1000);
      start = g_get_monotonic_time ();
      enqueue (store, 1);
      while (reply == NULL)
        g_main_context_iteration (NULL, TRUE);
      waiting += g_get_monotonic_time () - start;
      g_assert_cmpuint (soup_message_get_status (msg), ==, 200);
      g_bytes_unref (reply);
      finish_claimed (fixture, store, token, NULL);

      /* The poll: an empty claim, the job @phase ms later, the next claim
       * 200 ms after the first. */
      empty = worker_post (fixture, "/api/v1/exams/server-quiz/jobs/claim", token, "{\"worker\":\"bench\"}");
      g_assert_true (json_object_get_null_member (empty, "job"));
      g_usleep (phase * 1000);
      start = g_get_monotonic_time ();
      enqueue (store, 1);
      g_usleep ((200 - phase) * 1000);
      claim = worker_post (fixture, "/api/v1/exams/server-quiz/jobs/claim", token, "{\"worker\":\"bench\"}");
      polling += g_get_monotonic_time () - start;
      g_assert_false (json_object_get_null_member (claim, "job"));
      finish_claimed (fixture, store, token, claim);
    }
  *waiting_ms = waiting / 1000.0 / ROUND_TRIPS;
  *polling_ms = polling / 1000.0 / ROUND_TRIPS;
}

/* For scale: one request that touches no table. */
static double
health_ms (ServerFixture *fixture)
{
  gint64 start = g_get_monotonic_time ();

  for (guint i = 0; i < ROUND_TRIPS; i++)
    {
      g_autoptr(JsonNode) answer = NULL;
      guint status = 0;

      answer = server_fixture_request (fixture, "GET", "/api/v1/health", NULL, NULL, &status, NULL);
      g_assert_cmpuint (status, ==, 200);
    }
  return (g_get_monotonic_time () - start) / 1000.0 / ROUND_TRIPS;
}

static void
graded_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) out = viva_server_job_run_finish (result, &error);

  g_assert_no_error (error);
  g_main_loop_quit (user_data);
}

/* The job's own work, graded here without any queue. */
static double
grading_ms (VivaServerStore *store)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) exam = viva_server_store_get_exam (store, "server-quiz", &error);
  const char *text = json_object_get_string_member (exam, "exam_json");
  g_autoptr(GBytes) bytes = g_bytes_new (text, strlen (text));
  g_autoptr(VivaExamFile) exam_file = viva_exam_file_new_from_bytes (bytes, NULL, NULL, &error);
  g_autoptr(JsonObject) pack = viva_server_job_pack (exam_file, "double");
  g_autoptr(JsonObject) payload = json_object_new ();
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  gint64 start;

  json_object_set_string_member (payload, "problem_id", "double");
  json_object_set_string_member (payload, "code", CODE);
  start = g_get_monotonic_time ();
  viva_server_job_run_async (pack, "grade", payload, NULL, graded_cb, loop);
  g_main_loop_run (loop);
  return (g_get_monotonic_time () - start) / 1000.0;
}

/* Jobs per second with @n workers, from enqueued to all recorded. */
static double
throughput (ServerFixture   *fixture,
            VivaServerStore *store,
            const char      *token,
            guint            n,
            double          *first_ms)
{
  GSubprocess *workers[2];
  gint64 before = count_done (store);
  gint64 start;
  gboolean first = FALSE;

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *name = g_strdup_printf ("bench-%u", i);

      workers[i] = start_worker (fixture, token, name);
    }
  /* Let them connect and go idle. */
  g_usleep (G_USEC_PER_SEC);

  start = g_get_monotonic_time ();
  enqueue (store, JOBS);
  while (count_done (store) < before + JOBS)
    {
      if (!first && count_done (store) > before)
        {
          *first_ms = (g_get_monotonic_time () - start) / 1000.0;
          first = TRUE;
        }
      g_usleep (20 * 1000);
    }
  for (guint i = 0; i < n; i++)
    stop (workers[i]);
  return JOBS / ((g_get_monotonic_time () - start) / (double)G_USEC_PER_SEC);
}

int
main (int   argc,
      char *argv[])
{
  ServerFixture fixture;
  g_autoptr(VivaServerStore) store = NULL;
  g_autofree char *token = NULL;
  g_autofree char *reason = NULL;
  double health, overhead, overhead_short, overhead_db, grade, one, two, first_one = 0, first_two = 0;
  double told = 0, untold = 0, waiting = 0, polling = 0;

  g_test_init (&argc, &argv, NULL);
  viva_core_init ();
  if (!server_postgres_check (&reason))
    g_print ("# PostgreSQL not installed (%s): measuring on SQLite\n", reason);
  else
    g_setenv ("VIVA_TEST_SERVER_DATABASE", "postgresql", TRUE);

  server_fixture_setup_full (&fixture, one_exam, workers_only);
  store = open_store (&fixture);
  token = worker_token (&fixture);

  health = health_ms (&fixture);
  overhead_db = claim_to_result_db_ms (store);
  /* Side by side: the shortest result a job may give (a failed job's
   * one line: nearly nothing to check) and a grade, whose tests are read
   * back and rebuilt against the problem's. */
  overhead_short = claim_to_result_ms (&fixture, store, token, "{\"error\":\"bench\"}");
  overhead = claim_to_result_ms (&fixture, store, token, GRADE_RESULT);
  idle_claim_ms (&fixture, store, token, &waiting, &polling);
  grade = grading_ms (store);
  one = throughput (&fixture, store, token, 1, &first_one);
  two = throughput (&fixture, store, token, 2, &first_two);

  /* The same node again, now with a claimer of its own. */
  server_fixture_kill (&fixture);
  fixture.serve_args = one_local_job;
  server_fixture_start (&fixture);
  enqueue_to_result_ms (store, &told, &untold);

  printf ("engine: %s\n", fixture.database ? "PostgreSQL" : "SQLite");
  printf ("GET /api/v1/health over HTTPS, for scale: %.2f ms per request\n", health);
  printf ("claim + result in the database alone (a node's own claimer): %.2f ms per job\n", overhead_db);
  printf ("claim + result over HTTPS, empty queue, no work, a one-line result: %.2f ms per job (%u jobs)\n",
          overhead_short, ROUND_TRIPS);
  printf ("claim + result over HTTPS, empty queue, no work, a grade checked and rebuilt: %.2f ms per job (ratio %.2f)\n",
          overhead, overhead / overhead_short);
  printf ("enqueued to an idle worker's claim answered with it: %.1f ms waiting on the server (wait_ms), %.1f ms"
          " claiming every 200 ms (ratio %.2f; %u jobs each, alternated)\n", waiting, polling, waiting / polling,
          ROUND_TRIPS);
  printf ("grading one submission in-process (no queue): %.0f ms\n", grade);
  printf ("enqueued to first result, idle worker: %.0f ms (1 worker), %.0f ms (2 workers)\n", first_one, first_two);
  printf ("throughput, %u grading jobs: %.2f jobs/s with 1 worker, %.2f jobs/s with 2 (ratio %.2f)\n",
          JOBS, one, two, two / one);

  printf ("enqueued to result by the node's own claimer, empty queue, no work: %.1f ms told (%s), %.1f ms found by"
          " its 250 ms poll alone (ratio %.2f; %u jobs each, alternated)\n",
          told, fixture.database ? "NOTIFY from another process" : "SQLite: no notice across processes", untold,
          told / untold, ROUND_TRIPS);

  server_fixture_teardown (&fixture);
  return 0;
}

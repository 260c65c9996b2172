/* test-server-worker.c: the grading pool — workers that pull an exam's
 * grading jobs over HTTPS, one killed and one hung mid-job
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <signal.h>
#include <string.h>

#include "server-fixture.h"
#include "server-fixture-store.h"
#include "viva-server-store-pool.h"

static const char * const two_exams[] = { "exam.json", "exam-other.json", NULL };
static const char * const workers_only[] = { "--local-jobs", "0", NULL };
static const char * const one_local_job[] = { "--local-jobs", "1", NULL };

SoupMessage *server_fixture_message (ServerFixture *, const char *, const char *, const char *);

/* The grading is slow on purpose: a worker is caught mid-job. */
#define SLOW_DOUBLE "import time\ntime.sleep(2)\ndef double(x):\n    return 2 * x\n"
#define SLOW_SQUARE "import time\ntime.sleep(2)\ndef square(x):\n    return x * x\n"

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
  g_autoptr(JsonObject) job = server_fixture_job (fixture, job_id);
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

static char *
submit_to (ServerFixture *fixture,
           const char    *token,
           const char    *exam_id,
           const char    *problem)
{
  g_autofree char *path = g_strdup_printf ("/api/v1/exams/%s/sitting/problems/%s/submit", exam_id, problem);
  g_autoptr(JsonNode) answer = NULL;
  guint status = 0;

  answer = server_fixture_request (fixture, "POST", path, token, "{\"code\":\"def double(x):\\n    return x\\n\"}",
                                   &status, NULL);
  g_assert_cmpuint (status, ==, 201);
  return g_strdup (json_object_get_string_member (json_node_get_object (answer), "grading_job"));
}

/* The defense's next question, verdict or error. */
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
          if (g_str_equal (kind, "question") || g_str_equal (kind, "verdict") || g_str_equal (kind, "error"))
            return json_object_ref (event);
        }
      g_usleep (100 * 1000);
    }
  g_error ("the defense said nothing more in two minutes");
  return NULL;
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
  ServerWorker *a, *b, *c;

  g_setenv ("VIVA_SERVER_LEASE_MS", "1500", TRUE);
  server_fixture_setup_full (&fixture, two_exams, workers_only);
  token = server_fixture_worker_token (&fixture, "server-quiz");

  /* Another exam's worker token claims nothing of this one. */
  {
    g_autofree char *other = server_fixture_worker_token (&fixture, "other-quiz");
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
  a = server_fixture_start_worker (&fixture, "server-quiz", token, "a", "grade");
  claimed = server_worker_wait (a, "claimed");
  g_assert_cmpstr (claimed, ==, first);
  server_worker_kill (a);

  b = server_fixture_start_worker (&fixture, "server-quiz", token, "b", "grade");
  g_clear_pointer (&claimed, g_free);
  claimed = server_worker_wait (b, "claimed");
  g_assert_cmpstr (claimed, ==, first);
  recorded = server_worker_wait (b, "recorded");
  g_assert_cmpstr (recorded, ==, first);
  assert_graded_once (&fixture, first, 2, 2);

  /* Hung mid-job (SIGSTOP): b takes the job over once the lease runs out;
   * woken, the hung worker's result is refused. */
  server_worker_kill (b);
  second = submit (&fixture, student, "square", SLOW_SQUARE);
  c = server_fixture_start_worker (&fixture, "server-quiz", token, "c", "grade");
  g_clear_pointer (&claimed, g_free);
  claimed = server_worker_wait (c, "claimed");
  g_assert_cmpstr (claimed, ==, second);
  g_subprocess_send_signal (c->process, SIGSTOP);

  b = server_fixture_start_worker (&fixture, "server-quiz", token, "b2", "grade");
  g_clear_pointer (&claimed, g_free);
  claimed = server_worker_wait (b, "claimed");
  g_assert_cmpstr (claimed, ==, second);
  g_clear_pointer (&recorded, g_free);
  recorded = server_worker_wait (b, "recorded");

  g_subprocess_send_signal (c->process, SIGCONT);
  g_clear_pointer (&claimed, g_free);
  claimed = server_worker_wait (c, "lost");
  g_assert_cmpstr (claimed, ==, second);
  assert_graded_once (&fixture, second, 2, 1);
  {
    g_autoptr(JsonObject) job = server_fixture_job (&fixture, second);

    g_assert_nonnull (strstr (json_object_get_string_member (job, "claimed_by"), "worker b2"));
  }

  /* status shows the queue, and the node serving. */
  {
    const char *args[] = { "status", "server-quiz", "--json", NULL };

    g_assert_cmpint (server_fixture_run (&fixture, args, &out), ==, 0);
    g_assert_nonnull (strstr (out, "\"event\":\"node\""));
    g_assert_nonnull (strstr (out, "\"done\":2"));
    /* No grading waits (the defenses' code runs do: no worker here runs
     * them). */
    g_assert_null (strstr (out, "\"grade\":{\"waiting\""));

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

  server_worker_kill (b);
  server_worker_kill (c);
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

/* A grade in the form a job gives, every test failed: what a hostile
 * worker might post for a correct submission. */
#define FAILED_TEST(name) "{\"name\":\"" name "\",\"passed\":false,\"out_of_process\":true,\"status\":\"failed\",\"message\":\"no\"}"
#define ALL_FAILED "{\"kind\":\"grade\",\"passed\":2,\"total\":2,\"verdict\":true,\"report\":{\"tests\":[" \
                   FAILED_TEST ("small numbers") "," FAILED_TEST ("negative numbers") "]}}"

/* A worker sees its job only — the code and the one problem it grades,
 * nothing of the exam's other problems or of another exam — and what it
 * posts back is refused unless it is its own job's result in a job's
 * form; the grade it gives is the defense's, the submission graded once. */
static void
test_hostile (void)
{
  ServerFixture fixture;
  g_autofree char *token = NULL;
  g_autofree char *other = NULL;
  g_autofree char *student = NULL;
  g_autofree char *other_student = NULL;
  g_autofree char *raw = NULL;
  g_autofree char *job_id = NULL;
  g_autofree char *other_job = NULL;
  g_autofree char *defense = NULL;
  g_autofree char *path = NULL;
  g_autofree char *body = NULL;
  g_autoptr(JsonNode) claim = NULL;
  g_autoptr(JsonObject) row = NULL;
  ServerWorker *runs;
  g_autoptr(JsonNode) kept = NULL;
  JsonObject *job, *pack;
  const char *claim_id;
  gint64 after = 0;
  guint status = 0;

  server_fixture_setup_full (&fixture, two_exams, workers_only);
  token = server_fixture_worker_token (&fixture, "server-quiz");
  other = server_fixture_worker_token (&fixture, "other-quiz");
  student = server_fixture_sign_in (&fixture, "server-quiz", "s1");
  other_student = server_fixture_sign_in (&fixture, "other-quiz", "s1");

  {
    g_autoptr(JsonNode) answer = NULL;

    answer = server_fixture_request (&fixture, "POST", "/api/v1/exams/server-quiz/sitting/problems/double/submit",
                                     student, "{\"code\":\"def double(x):\\n    return 2 * x\\n\"}", &status, NULL);
    g_assert_cmpuint (status, ==, 201);
    job_id = g_strdup (json_object_get_string_member (json_node_get_object (answer), "grading_job"));
    defense = g_strdup (json_object_get_string_member (json_object_get_object_member (json_node_get_object (answer),
                                                                                      "defense"), "id"));
  }
  other_job = submit_to (&fixture, other_student, "other-quiz", "double");

  /* A kind no job has is refused. */
  g_assert_cmpuint (post (&fixture, "/api/v1/exams/server-quiz/jobs/claim", token,
                          "{\"worker\":\"w\",\"kind\":\"all\"}"), ==, 400);

  /* The defense's code runs are another worker's: this one asks for the
   * grading. */
  runs = server_fixture_start_worker (&fixture, "server-quiz", token, "runs", "run");
  claim = server_fixture_request (&fixture, "POST", "/api/v1/exams/server-quiz/jobs/claim", token,
                                  "{\"worker\":\"hostile\",\"kind\":\"grade\"}", &status, &raw);
  g_assert_cmpuint (status, ==, 200);
  job = json_object_get_object_member (json_node_get_object (claim), "job");
  g_assert_cmpstr (json_object_get_string_member (job, "id"), ==, job_id);
  claim_id = json_object_get_string_member (job, "claim_id");

  /* The job carries its code and its problem, with what grading needs. */
  pack = json_object_get_object_member (json_node_get_object (claim), "pack");
  g_assert_nonnull (pack);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (pack, "problems")), ==, 1);
  g_assert_nonnull (strstr (raw, "return 2 * x"));
  g_assert_nonnull (strstr (raw, "CHECKMARKER-small-91c2"));
  /* Nothing of the exam's other problem, its roster or the other exam. */
  g_assert_false (json_object_has_member (json_node_get_object (claim), "exam"));
  g_assert_null (strstr (raw, "REFMARKER-square-c41d"));
  g_assert_null (strstr (raw, "CHECKMARKER-three-a9e7"));
  g_assert_null (strstr (raw, "POINTMARKER-four-0c3f"));
  g_assert_null (strstr (raw, "Ann Lee"));
  g_assert_null (strstr (raw, "other-quiz"));

  path = g_strdup_printf ("/api/v1/exams/server-quiz/jobs/%s/result", job_id);

  /* A claim it does not hold; another exam's job; its job under another
   * exam's path. */
  body = g_strdup_printf ("{\"claim_id\":\"not-mine\",\"result\":%s}", ALL_FAILED);
  g_assert_cmpuint (post (&fixture, path, token, body), ==, 409);
  g_clear_pointer (&body, g_free);
  body = g_strdup_printf ("{\"claim_id\":\"%s\",\"result\":%s}", claim_id, ALL_FAILED);
  {
    g_autofree char *theirs = g_strdup_printf ("/api/v1/exams/server-quiz/jobs/%s/result", other_job);
    g_autofree char *elsewhere = g_strdup_printf ("/api/v1/exams/other-quiz/jobs/%s/result", job_id);

    g_assert_cmpuint (post (&fixture, theirs, token, body), ==, 404);
    g_assert_cmpuint (post (&fixture, elsewhere, token, body), ==, 403);
    g_assert_cmpuint (post (&fixture, elsewhere, other, body), ==, 404);
  }

  /* Malformed: not an object; another kind; other tests than the
   * problem's; an error that is not a short text, or with more. */
  {
    const char * const malformed[] = {
      "\"passed\"",
      "{\"kind\":\"run\",\"report\":{\"tests\":[]}}",
      "{\"kind\":\"grade\",\"report\":{\"tests\":[]}}",
      "{\"kind\":\"grade\",\"report\":{\"tests\":[" FAILED_TEST ("small numbers") "]}}",
      "{\"kind\":\"grade\",\"report\":{\"tests\":[" FAILED_TEST ("a") "," FAILED_TEST ("b") "],\"threshold\":99}}",
      "{\"kind\":\"grade\",\"report\":{\"tests\":[{\"name\":\"x\",\"passed\":true,\"status\":\"failed\"}]}}",
      "{\"error\":7}",
      "{\"error\":\"no\",\"passed\":2}",
      NULL
    };

    for (guint i = 0; malformed[i] != NULL; i++)
      {
        g_autofree char *bad = g_strdup_printf ("{\"claim_id\":\"%s\",\"result\":%s}", claim_id, malformed[i]);

        g_test_message ("malformed result %u", i);
        g_assert_cmpuint (post (&fixture, path, token, bad), ==, 400);
      }
  }

  /* Oversized: a result past a grade's size (a body past the server's
   * is refused from its headers, test-server.c). */
  {
    g_autofree char *big = g_strnfill (300 * 1024, 'x');
    g_autofree char *bad = g_strdup_printf ("{\"claim_id\":\"%s\",\"result\":{\"error\":\"%s\"}}", claim_id, big);

    g_assert_cmpuint (post (&fixture, path, token, bad), ==, 413);
  }

  /* Nothing of that was kept: the job still runs, its claim holds. */
  row = server_fixture_job (&fixture, job_id);
  g_assert_cmpstr (json_object_get_string_member (row, "state"), ==, "running");
  g_clear_pointer (&row, json_object_unref);

  /* Well-formed, it is kept as rebuilt from its tests: its own count
   * ("passed": 2) is not taken. */
  g_assert_cmpuint (post (&fixture, path, token, body), ==, 200);
  row = server_fixture_job (&fixture, job_id);
  g_assert_cmpstr (json_object_get_string_member (row, "state"), ==, "done");
  kept = json_from_string (json_object_get_string_member (row, "result"), NULL);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (kept), "passed"), ==, 0);
  g_assert_false (json_object_get_boolean_member (json_node_get_object (kept), "verdict"));

  /* The defense's grade is that job's: the correct code is failed by the
   * grade the pool kept, so it was not graded a second time. */
  for (;;)
    {
      g_autoptr(JsonObject) event = NULL;
      const char *kind;

      event = wait_for_any (&fixture, student, defense, &after);
      kind = json_object_get_string_member (event, "kind");
      if (g_str_equal (kind, "question"))
        {
          g_autofree char *answer_path = g_strdup_printf ("/api/v1/exams/server-quiz/defenses/%s/answer", defense);
          g_autofree char *answer = g_strdup_printf ("{\"text\":\"zero\",\"question_seq\":%" G_GINT64_FORMAT "}",
                                                     json_object_get_int_member (event, "seq"));

          g_assert_cmpuint (post (&fixture, answer_path, student, answer), ==, 200);
          continue;
        }
      if (g_str_equal (kind, "verdict"))
        {
          JsonObject *grade = json_object_get_object_member (json_object_get_object_member (event, "data"), "grade");
          JsonArray *tests = json_object_get_array_member (grade, "tests");

          g_assert_cmpuint (json_array_get_length (tests), ==, 2);
          for (guint i = 0; i < 2; i++)
            g_assert_false (json_object_get_boolean_member (json_array_get_object_element (tests, i), "passed"));
          break;
        }
      g_assert_cmpstr (kind, !=, "error");
    }

  server_worker_kill (runs);
  server_fixture_teardown (&fixture);
}

/* Waits for the job to be done, at most a minute (it takes a second). */
static JsonObject *
wait_done (ServerFixture *fixture,
           const char    *job_id)
{
  for (guint attempt = 0; attempt < 600; attempt++)
    {
      JsonObject *job = server_fixture_job (fixture, job_id);

      if (g_str_equal (json_object_get_string_member (job, "state"), "done"))
        return job;
      json_object_unref (job);
      g_usleep (100 * 1000);
    }
  g_error ("job %s was never claimed and finished", job_id);
}

/* A job enqueued is claimed at once, not at the next poll: the node's own
 * claimer polls once an hour here, so a job that were left to the poll
 * would never be graded. A submission on this node wakes it through the
 * store; a job enqueued by another process (here the test's own
 * connection, as another node would) wakes it through PostgreSQL's NOTIFY
 * (on SQLite only the poll finds it: not asked there). */
static void
test_wake (void)
{
  ServerFixture fixture;
  g_autofree char *student = NULL;
  g_autofree char *job_id = NULL;
  g_autoptr(JsonObject) job = NULL;

  g_setenv ("VIVA_SERVER_JOBS_POLL_MS", "3600000", TRUE);
  server_fixture_setup_full (&fixture, two_exams, one_local_job);
  g_unsetenv ("VIVA_SERVER_JOBS_POLL_MS");
  student = server_fixture_sign_in (&fixture, "server-quiz", "s1");

  job_id = submit (&fixture, student, "double", "def double(x):\n    return 2 * x\n");
  job = wait_done (&fixture, job_id);
  g_assert_cmpstr (json_object_get_string_member (job, "claimed_by"), ==, json_object_get_string_member (job, "finished_by"));
  g_assert_true (g_str_has_prefix (json_object_get_string_member (job, "claimed_by"), "node "));
  assert_graded_once (&fixture, job_id, 1, 2);

  if (fixture.database != NULL)
    {
      g_autoptr(VivaServerStore) store = server_fixture_open_store (&fixture);
      g_autoptr(JsonObject) payload = json_object_new ();
      g_autoptr(JsonObject) other = NULL;
      g_autoptr(GError) error = NULL;

      /* No code: the job fails at once, its failure recorded as its result. */
      json_object_set_string_member (payload, "student_id", "s1");
      json_object_set_string_member (payload, "problem_id", "double");
      g_assert_true (viva_server_store_enqueue_job (store, "told-job", "server-quiz", "grade", NULL, payload, &error));
      g_assert_no_error (error);
      other = wait_done (&fixture, "told-job");
      g_assert_true (g_str_has_prefix (json_object_get_string_member (other, "claimed_by"), "node "));
      g_assert_nonnull (strstr (json_object_get_string_member (other, "result"), "error"));
    }

  server_fixture_teardown (&fixture);
}

/* A Submit's defense names its grading job in the commit that keeps the
 * submission and the job: right after the 201, the defense's row names
 * the job Submit answered with. The app's retry of the same Submit (its
 * answer lost, the node killed) attaches to that defense: no second
 * submission, no second job, graded once. */
static void
test_submit_once (void)
{
  ServerFixture fixture;
  g_autoptr(VivaServerStore) store = NULL;
  g_autoptr(JsonNode) first = NULL;
  g_autoptr(JsonNode) retried = NULL;
  g_autoptr(JsonObject) row = NULL;
  g_autoptr(JsonArray) jobs = NULL;
  g_autoptr(JsonArray) snapshots = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *student = NULL;
  const char *path = "/api/v1/exams/server-quiz/sitting/problems/double/submit";
  const char *body = "{\"code\":\"def double(x):\\n    return 2 * x\\n\"}";
  const char *defense, *job_id;
  guint status = 0;

  server_fixture_setup_full (&fixture, two_exams, workers_only);
  student = server_fixture_sign_in (&fixture, "server-quiz", "s1");
  store = server_fixture_open_store (&fixture);

  first = server_fixture_request (&fixture, "POST", path, student, body, &status, NULL);
  g_assert_cmpuint (status, ==, 201);
  defense = json_object_get_string_member (json_object_get_object_member (json_node_get_object (first), "defense"), "id");
  job_id = json_object_get_string_member (json_node_get_object (first), "grading_job");
  row = viva_server_store_get_defense (store, defense, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (row, "grade_job"), ==, job_id);

  retried = server_fixture_request (&fixture, "POST", path, student, body, &status, NULL);
  g_assert_cmpuint (status, ==, 200);
  g_assert_true (json_object_get_boolean_member (json_node_get_object (retried), "attached"));
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (json_node_get_object (retried),
                                                                                 "defense"), "id"), ==, defense);

  jobs = viva_server_db_queryf (viva_server_store_get_db (store), &error,
                                "SELECT id FROM jobs WHERE exam_id = 'server-quiz' AND kind = 'grade'", "");
  g_assert_no_error (error);
  g_assert_cmpuint (json_array_get_length (jobs), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (jobs, 0), "id"), ==, job_id);
  snapshots = viva_server_db_queryf (viva_server_store_get_db (store), &error,
                                     "SELECT seq FROM snapshots WHERE exam_id = 'server-quiz' AND kind = 'submit'", "");
  g_assert_no_error (error);
  g_assert_cmpuint (json_array_get_length (snapshots), ==, 1);

  server_fixture_teardown (&fixture);
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

static void
abandoned_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GBytes) bytes = soup_session_send_and_read_finish (SOUP_SESSION (object), result, NULL);

  *(gboolean *)user_data = TRUE;
}

/* A claim that waits for a job, sent on a connection of its own. */
static SoupMessage *
send_claim (ServerFixture *fixture,
            SoupSession   *session,
            const char    *token,
            const char    *body,
            GBytes       **reply)
{
  SoupMessage *msg = server_fixture_message (fixture, "POST", "/api/v1/exams/server-quiz/jobs/claim", token);
  g_autoptr(GBytes) bytes = g_bytes_new (body, strlen (body));

  soup_message_set_request_body_from_bytes (msg, "application/json", bytes);
  soup_session_send_and_read_async (session, msg, G_PRIORITY_DEFAULT, NULL, sent_cb, reply);
  /* Sent and waiting on the server before the caller goes on. */
  for (guint i = 0; i < 50; i++)
    g_main_context_iteration (NULL, FALSE), g_usleep (10 * 1000);
  return msg;
}

static char *
claimed_job (SoupMessage *msg,
             GBytes     **reply)
{
  g_autoptr(JsonNode) node = NULL;
  JsonObject *object;

  while (*reply == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (soup_message_get_status (msg), ==, 200);
  node = json_from_string (g_bytes_get_data (*reply, NULL), NULL);
  object = json_node_get_object (node);
  if (json_object_get_null_member (object, "job"))
    return NULL;
  return g_strdup (json_object_get_string_member (json_object_get_object_member (object, "job"), "id"));
}

/* An idle worker's claim waits on the server (wait_ms) and is answered
 * with a job as soon as one is enqueued: the server's safety-net poll is
 * an hour here, so a claim answered only by it would come back empty
 * after its 20 s. A submission on this node wakes it through the store; a
 * job enqueued by another process through NOTIFY (PostgreSQL only). A
 * claim with nothing to wait for comes back empty when its time is over;
 * a wait past 20 s is refused. A worker gone while its claim waits (its
 * connection closed) is given no job: the next claim gets it. */
static void
test_claim_waits (void)
{
  ServerFixture fixture;
  g_autoptr(SoupSession) session = soup_session_new_with_options ("timeout", 60, NULL);
  g_autofree char *token = NULL;
  g_autofree char *student = NULL;
  /* Gradings only: the defense a Submit starts enqueues its code runs too. */
  const char *wait = "{\"worker\":\"w\",\"kind\":\"grade\",\"wait_ms\":20000}";

  g_setenv ("VIVA_SERVER_JOBS_POLL_MS", "3600000", TRUE);
  server_fixture_setup_full (&fixture, two_exams, workers_only);
  g_unsetenv ("VIVA_SERVER_JOBS_POLL_MS");
  token = server_fixture_worker_token (&fixture, "server-quiz");
  student = server_fixture_sign_in (&fixture, "server-quiz", "s1");

  {
    g_autoptr(JsonNode) answer = NULL;
    guint status = 0;

    answer = server_fixture_request (&fixture, "POST", "/api/v1/exams/server-quiz/jobs/claim", token,
                                     "{\"worker\":\"w\",\"wait_ms\":20001}", &status, NULL);
    g_assert_cmpuint (status, ==, 400);
  }
  {
    GBytes *reply = NULL;
    g_autoptr(SoupMessage) msg = send_claim (&fixture, session, token, "{\"worker\":\"w\",\"wait_ms\":300}", &reply);
    g_autofree char *none = claimed_job (msg, &reply);

    g_assert_null (none);
    g_bytes_unref (reply);
  }
  {
    GBytes *reply = NULL;
    g_autoptr(SoupMessage) msg = send_claim (&fixture, session, token, wait, &reply);
    g_autofree char *job_id = submit (&fixture, student, "double", "def double(x):\n    return 2 * x\n");
    g_autofree char *claimed = claimed_job (msg, &reply);

    g_assert_cmpstr (claimed, ==, job_id);
    g_bytes_unref (reply);
  }
  {
    g_autoptr(SoupSession) gone = soup_session_new ();
    g_autoptr(SoupMessage) abandoned = server_fixture_message (&fixture, "POST", "/api/v1/exams/server-quiz/jobs/claim",
                                                               token);
    g_autoptr(GBytes) bytes = g_bytes_new (wait, strlen (wait));
    g_autoptr(SoupMessage) msg = NULL;
    g_autofree char *job_id = NULL;
    g_autofree char *claimed = NULL;
    GBytes *reply = NULL;
    gboolean ended = FALSE;

    soup_message_set_request_body_from_bytes (abandoned, "application/json", bytes);
    soup_session_send_and_read_async (gone, abandoned, G_PRIORITY_DEFAULT, NULL, abandoned_cb, &ended);
    for (guint i = 0; i < 50; i++)
      g_main_context_iteration (NULL, FALSE), g_usleep (10 * 1000);
    /* Its connection closed, as a killed worker's is; then another waits. */
    soup_session_abort (gone);
    while (!ended)
      g_main_context_iteration (NULL, TRUE);
    msg = send_claim (&fixture, session, token, wait, &reply);
    job_id = submit_to (&fixture, student, "server-quiz", "square");
    claimed = claimed_job (msg, &reply);
    g_assert_cmpstr (claimed, ==, job_id);
    g_bytes_unref (reply);
  }
  if (fixture.database != NULL)
    {
      g_autoptr(VivaServerStore) store = server_fixture_open_store (&fixture);
      g_autoptr(JsonObject) payload = json_object_new ();
      g_autoptr(GError) error = NULL;
      GBytes *reply = NULL;
      g_autoptr(SoupMessage) msg = send_claim (&fixture, session, token, wait, &reply);
      g_autofree char *claimed = NULL;

      json_object_set_string_member (payload, "student_id", "s1");
      json_object_set_string_member (payload, "problem_id", "double");
      g_assert_true (viva_server_store_enqueue_job (store, "told-job", "server-quiz", "grade", NULL, payload, &error));
      claimed = claimed_job (msg, &reply);
      g_assert_cmpstr (claimed, ==, "told-job");
      g_bytes_unref (reply);
    }

  server_fixture_teardown (&fixture);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  if (server_fixture_engine_skip () != 0)
    return 77;

  g_test_add_func ("/viva/server/worker/pool", test_pool);
  g_test_add_func ("/viva/server/worker/hostile", test_hostile);
  g_test_add_func ("/viva/server/worker/wake", test_wake);
  g_test_add_func ("/viva/server/worker/submit-once", test_submit_once);
  g_test_add_func ("/viva/server/worker/claim-waits", test_claim_waits);

  return g_test_run ();
}

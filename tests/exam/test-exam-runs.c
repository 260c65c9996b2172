/* test-exam-runs.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "examiner-fixture.h"
#include "viva-exam-local-runs.h"
#include "viva-exam-remote-runs.h"
#include "viva-exam-run-request.h"
#include "viva-test-util.h"

/* Where a defense's code runs (VivaExamRuns), with the real worker under
 * bubblewrap: VivaExamLocalRuns on its own, a defense whose runs were
 * given to the examiner, which must run every tool there and start no
 * worker of its own, and the prime, which the examiner's first words do
 * not wait for. */

typedef ExaminerFixture Fixture;

static void
start_runner (VivaRunner *runner)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  viva_runner_start_async (runner, NULL, viva_test_store_result, &result);
  viva_test_run_until_result (&result);
  g_assert_true (viva_runner_start_finish (runner, result, &error));
  g_assert_no_error (error);
}

static char *
runner_stdout (VivaRunner *runner,
               const char *code)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(VivaRunResult) run = NULL;
  g_autoptr(GError) error = NULL;

  viva_runner_run_async (runner, code, 5000, NULL, viva_test_store_result, &result);
  viva_test_run_until_result (&result);
  run = viva_runner_run_finish (runner, result, &error);
  g_assert_no_error (error);
  g_assert_cmpint (viva_run_result_get_status (run), ==, VIVA_RUN_STATUS_OK);

  return g_strdup (viva_run_result_get_stdout (run));
}

static VivaRunResult *
runs_run (VivaExamRuns *runs,
          const char   *code)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  VivaRunResult *run;

  viva_exam_runs_run_async (runs, code, 5000, NULL, viva_test_store_result, &result);
  viva_test_run_until_result (&result);
  run = viva_exam_runs_run_finish (runs, result, &error);
  g_assert_no_error (error);

  return run;
}

static VivaRunResult *
runs_inject (VivaExamRuns    *runs,
             VivaExamRunSide  side,
             const char      *code,
             const char      *probe)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  VivaRunResult *run;

  viva_exam_runs_inject_async (runs, side, code, probe, 5000, NULL, viva_test_store_result, &result);
  viva_test_run_until_result (&result);
  run = viva_exam_runs_inject_finish (runs, result, &error);
  g_assert_no_error (error);

  return run;
}

static VivaGradeReport *
runs_grade (VivaExamRuns    *runs,
            VivaExamRunSide  side,
            const char      *code,
            GPtrArray       *tests)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  VivaGradeReport *report;

  viva_exam_runs_grade_async (runs, side, code, tests, 1, NULL, viva_test_store_result, &result);
  viva_test_run_until_result (&result);
  report = viva_exam_runs_grade_finish (runs, result, &error);
  g_assert_no_error (error);

  return report;
}

/* Its own runners: the student's keeps its globals from run to run, the
 * reference's side runs the reference and never the student's code, and a
 * grading judges the code it was given. */
static void
test_local_runs_own_workers (void)
{
  g_autoptr(VivaProblem) problem = exam_problem_new ();
  g_autoptr(VivaExamLocalRuns) local = viva_exam_local_runs_new (problem, NULL, NULL);
  VivaExamRuns *runs = VIVA_EXAM_RUNS (local);
  g_autoptr(GPtrArray) tests = g_ptr_array_new_with_free_func ((GDestroyNotify)viva_grader_test_free);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(VivaRunResult) first = NULL;
  g_autoptr(VivaRunResult) second = NULL;
  g_autoptr(VivaRunResult) student = NULL;
  g_autoptr(VivaRunResult) reference = NULL;
  g_autoptr(VivaGradeReport) wrong = NULL;
  g_autoptr(VivaGradeReport) right = NULL;

  viva_exam_runs_start_async (runs, NULL, viva_test_store_result, &result);
  viva_test_run_until_result (&result);
  g_assert_true (viva_exam_runs_start_finish (runs, result, &error));
  g_assert_no_error (error);
  g_clear_object (&result);

  first = runs_run (runs, "def add(a, b):\n    return a - b\nseen = 7\n");
  g_assert_cmpint (viva_run_result_get_status (first), ==, VIVA_RUN_STATUS_OK);
  second = runs_run (runs, "print(seen * 6)");
  g_assert_cmpstr (viva_run_result_get_stdout (second), ==, "42\n");

  /* The same probe: the student's (wrong) add, then the reference's, whose
   * namespace has nothing of the student's runs. */
  student = runs_inject (runs, VIVA_EXAM_RUN_ON_STUDENT, "def add(a, b):\n    return a - b\n", "print(add(2, 3))");
  g_assert_cmpstr (viva_run_result_get_stdout (student), ==, "-1\n");
  reference = runs_inject (runs, VIVA_EXAM_RUN_ON_REFERENCE, NULL, "print(add(2, 3), 'seen' in globals())");
  g_assert_cmpstr (viva_run_result_get_stdout (reference), ==, "5 False\n");

  g_ptr_array_add (tests, viva_grader_test_new_structured ("sum", "", "add(2, 3)", "assert result == 5\n", FALSE, 0));
  wrong = runs_grade (runs, VIVA_EXAM_RUN_ON_STUDENT, "def add(a, b):\n    return a - b\n", tests);
  g_assert_cmpuint (viva_grade_report_get_n_passed (wrong), ==, 0);
  right = runs_grade (runs, VIVA_EXAM_RUN_ON_REFERENCE, NULL, tests);
  g_assert_cmpuint (viva_grade_report_get_n_passed (right), ==, 1);

  viva_exam_runs_stop (runs);
  g_assert_finalize_object (g_steal_pointer (&local));
}

/* A defense given its runs (viva_examiner_set_runs(), as the exam server
 * gives its pool's) runs the prime, runPython and both sides of a probe on
 * those runs' workers; the runner set on the examiner is never started. */
static void
test_given_runs (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(VivaRunner) runner = viva_runner_new ();
  g_autoptr(VivaRunner) reference_runner = viva_runner_new ();
  g_autoptr(VivaRunner) unused = viva_runner_new ();
  g_autoptr(VivaExamLocalRuns) runs = NULL;
  g_autoptr(VivaExamVerdict) verdict = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *seen = NULL;
  g_autofree char *reference_seen = NULL;
  const VivaExamProbe *probe;

  start_runner (runner);
  runs = viva_exam_local_runs_new (fixture->problem, runner, reference_runner);
  viva_examiner_set_runner (fixture->examiner, unused);
  viva_examiner_set_runs (fixture->examiner, VIVA_EXAM_RUNS (runs));

  exam_queue_reply (fixture->server, "Let me read your code.", "readStudentCode", "{}");
  exam_queue_reply (fixture->server, NULL, "runPython", "{\"code\": \"viva_seen = add(40, 2)\"}");
  exam_queue_reply (fixture->server, "A probe.", "injectTestCase",
                    "{\"code\": \"viva_probed = add(2, 3)\\nassert viva_probed == 5\"}");
  exam_queue_reply (fixture->server, NULL, "askStudent", "{\"question\": \"Why does it work?\"}");
  exam_queue_reply (fixture->server, "Done.", "finishDefense",
                    "{\"verdict\": \"pass\", \"score\": 90, \"comment\": \"Well done.\", \"evidence\": [\"S3\"]}");

  verdict = examiner_fixture_run (fixture, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (fixture->events->str, ==,
                   "S1:readStudentCode S2:runPython S3:injectTestCase S4:askStudent question S5:finishDefense ");
  g_assert_cmpint (viva_exam_verdict_get_status (verdict), ==, VIVA_EXAM_STATUS_FINISHED);
  probe = g_ptr_array_index (viva_exam_verdict_get_probes (verdict), 0);
  g_assert_true (probe->passed);
  g_assert_true (probe->valid);

  /* The student's interpreter is the runner given in the runs: the prime
   * defined add there, runPython's global and the probe's are there. */
  seen = runner_stdout (runner, "print(viva_seen, viva_probed, add(1, 1))");
  g_assert_cmpstr (seen, ==, "42 5 2\n");
  /* The probe's check on the reference ran in the reference's runner
   * given, where no student run went. */
  reference_seen = runner_stdout (reference_runner, "print(viva_probed, 'viva_seen' in globals())");
  g_assert_cmpstr (reference_seen, ==, "5 False\n");

  /* No worker of the examiner's own: the runner set on it never started. */
  g_assert_null (viva_runner_get_python_version (unused));
  g_assert_nonnull (viva_runner_get_python_version (runner));
  g_assert_cmpint (viva_runner_get_sandbox (runner), ==, VIVA_RUNNER_SANDBOX_BUBBLEWRAP);

  viva_exam_runs_stop (VIVA_EXAM_RUNS (runs));
  viva_runner_stop (runner);
  viva_runner_stop (reference_runner);
}

/* The exam server's runs, with the real executor behind them, where the
 * prime is held until the model has the defense's first request. */
typedef struct
{
  ExaminerFixture *fixture;
  GPtrArray       *requests;       /* each request sent, as text */
  JsonObject      *held;           /* the prime, while held */
  GCancellable    *held_cancellable;
  GTask           *held_task;
  guint            model_requests_at_release;
  gboolean         released;
} HeldPrime;

static void
held_executed_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  JsonObject *reply;

  if (!(reply = viva_exam_run_request_execute_finish (result, &error)))
    return g_task_return_error (task, g_steal_pointer (&error));
  g_task_return_pointer (task, reply, (GDestroyNotify) json_object_unref);
}

static void
held_execute (HeldPrime    *held,
              JsonObject   *request,
              GCancellable *cancellable,
              GTask        *task)
{
  viva_exam_run_request_execute_async (held->fixture->problem, request, cancellable, held_executed_cb, task);
}

/* Polls what a user would see first: the examiner's request at the model. */
static gboolean
release_prime (gpointer user_data)
{
  HeldPrime *held = user_data;
  g_autoptr(JsonObject) request = NULL;

  held->model_requests_at_release =
    viva_test_server_count_requests (held->fixture->server, "POST", "/v1/chat/completions");
  if (held->model_requests_at_release == 0)
    return G_SOURCE_CONTINUE;

  held->released = TRUE;
  request = g_steal_pointer (&held->held);
  held_execute (held, request, held->held_cancellable, g_steal_pointer (&held->held_task));
  g_clear_object (&held->held_cancellable);
  return G_SOURCE_REMOVE;
}

static void
held_send (JsonObject          *request,
           GCancellable        *cancellable,
           GAsyncReadyCallback  callback,
           gpointer             callback_data,
           gpointer             user_data)
{
  HeldPrime *held = user_data;
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), request);
  GTask *task = g_task_new (NULL, cancellable, callback, callback_data);

  g_ptr_array_add (held->requests, json_to_string (node, FALSE));
  if (held->requests->len == 1)
    {
      held->held = json_object_ref (request);
      held->held_cancellable = cancellable ? g_object_ref (cancellable) : NULL;
      held->held_task = task;
      g_timeout_add (10, release_prime, held);
      return;
    }

  held_execute (held, request, cancellable, task);
}

/* The prime is sent and the examiner goes on to the model at once: the
 * model has the first request while the prime's run has not even started
 * (without that the defense would wait on the held prime forever), and
 * the runPython asked meanwhile waits for the prime and carries it in its
 * history, so it sees the globals of the student's code. */
static void
test_prime_not_awaited (Fixture       *fixture,
                        gconstpointer  data)
{
  HeldPrime held = { fixture, g_ptr_array_new_with_free_func (g_free) };
  g_autoptr(VivaExamRemoteRuns) runs = viva_exam_remote_runs_new (held_send, &held, NULL);
  g_autoptr(VivaExamVerdict) verdict = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) keep = NULL;
  g_autoptr(JsonNode) prime = NULL;
  g_autoptr(JsonNode) second = NULL;
  JsonArray *messages;
  JsonArray *history;
  const char *result = NULL;

  viva_examiner_set_runs (fixture->examiner, VIVA_EXAM_RUNS (runs));
  exam_queue_reply (fixture->server, NULL, "runPython", "{\"code\": \"print('sum', add(40, 2))\"}");
  exam_queue_reply (fixture->server, "Thanks.", NULL, NULL);
  exam_queue_reply (fixture->server, "Thanks again.", NULL, NULL);

  verdict = examiner_fixture_run (fixture, &error);
  g_assert_no_error (error);
  g_assert_true (held.released);
  g_assert_cmpuint (held.model_requests_at_release, >=, 1);
  g_assert_cmpstr (fixture->events->str, ==, "S1:runPython ");

  /* The prime went first, the student's code on a fresh interpreter; the
   * runPython after it replays it. */
  g_assert_cmpuint (held.requests->len, ==, 2);
  prime = json_from_string (g_ptr_array_index (held.requests, 0), NULL);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (prime), "code"), ==, GOOD_CODE);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (json_node_get_object (prime), "history")), ==, 0);
  second = json_from_string (g_ptr_array_index (held.requests, 1), NULL);
  history = json_object_get_array_member (json_node_get_object (second), "history");
  g_assert_cmpuint (json_array_get_length (history), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (history, 0), "code"), ==, GOOD_CODE);

  /* What the model was told runPython printed: add was defined. */
  messages = examiner_fixture_request_messages (fixture, 1, &keep);
  for (guint i = 0; i < json_array_get_length (messages); i++)
    {
      JsonObject *message = json_array_get_object_element (messages, i);

      if (g_strcmp0 (json_object_get_string_member_with_default (message, "role", NULL), "tool") == 0)
        result = json_object_get_string_member (message, "content");
    }
  g_assert_nonnull (result);
  g_assert_nonnull (strstr (result, "sum 42"));
  g_assert_null (strstr (result, "NameError"));

  g_ptr_array_unref (held.requests);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  viva_core_init ();

  g_test_add_func ("/viva/exam-runs/local-own-workers", test_local_runs_own_workers);
  g_test_add ("/viva/exam-runs/given-runs", Fixture, NULL,
              examiner_fixture_setup, test_given_runs, examiner_fixture_teardown);
  g_test_add ("/viva/exam-runs/prime-not-awaited", Fixture, NULL,
              examiner_fixture_setup, test_prime_not_awaited, examiner_fixture_teardown);

  return g_test_run ();
}

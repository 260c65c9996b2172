/* test-exam-remote-runs.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "exam-test-common.h"
#include "viva-exam-remote-runs.h"
#include "viva-exam-run-request.h"
#include "viva-grader.h"
#include "viva-run-result-json.h"
#include "viva-test-util.h"

/* A defense's runs as requests: VivaExamRemoteRuns sends each one through
 * a send function that crosses a wire as text (JSON written and parsed
 * again, as the exam server's pool stores and serves it) to the real
 * executor, which runs it in fresh sandboxed workers of its own. So each
 * run is a new interpreter, and the globals of the runs before are there
 * only because the history was replayed. Then the readers and the check,
 * given what a hostile machine would send. */

typedef struct
{
  VivaProblem        *problem;
  VivaExamRemoteRuns *runs;
  GPtrArray          *requests;  /* each request as it crossed, text */
} Fixture;

static JsonObject *
cross (JsonObject *object)
{
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), object);
  g_autofree char *text = json_to_string (node, FALSE);
  g_autoptr(JsonNode) parsed = json_from_string (text, NULL);

  g_assert_nonnull (parsed);
  return json_object_ref (json_node_get_object (parsed));
}

static void
executed_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(JsonObject) reply = NULL;
  g_autoptr(GError) error = NULL;

  if (!(reply = viva_exam_run_request_execute_finish (result, &error)))
    return g_task_return_error (task, g_steal_pointer (&error));

  g_task_return_pointer (task, cross (reply), (GDestroyNotify) json_object_unref);
}

static void
send_func (JsonObject          *request,
           GCancellable        *cancellable,
           GAsyncReadyCallback  callback,
           gpointer             callback_data,
           gpointer             user_data)
{
  Fixture *fixture = user_data;
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), request);
  g_autoptr(JsonObject) crossed = cross (request);
  GTask *task = g_task_new (NULL, cancellable, callback, callback_data);

  g_ptr_array_add (fixture->requests, json_to_string (node, FALSE));
  viva_exam_run_request_execute_async (fixture->problem, crossed, cancellable, executed_cb, task);
}

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  fixture->problem = exam_problem_new ();
  fixture->requests = g_ptr_array_new_with_free_func (g_free);
  fixture->runs = viva_exam_remote_runs_new (send_func, fixture, NULL);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  viva_exam_runs_stop (VIVA_EXAM_RUNS (fixture->runs));
  g_clear_object (&fixture->runs);
  g_clear_object (&fixture->problem);
  g_clear_pointer (&fixture->requests, g_ptr_array_unref);
}

static VivaRunResult *
run (Fixture    *fixture,
     const char *code,
     guint       timeout_ms)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  VivaRunResult *run;

  viva_exam_runs_run_async (VIVA_EXAM_RUNS (fixture->runs), code, timeout_ms, NULL,
                            viva_test_store_result, &result);
  run = viva_exam_runs_run_finish (VIVA_EXAM_RUNS (fixture->runs),
                                   viva_test_run_until_result (&result), &error);
  g_assert_no_error (error);
  return run;
}

static VivaRunResult *
inject (Fixture         *fixture,
        VivaExamRunSide  side,
        const char      *code,
        const char      *probe)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  VivaRunResult *run;

  viva_exam_runs_inject_async (VIVA_EXAM_RUNS (fixture->runs), side, code, probe, 0, NULL,
                               viva_test_store_result, &result);
  run = viva_exam_runs_inject_finish (VIVA_EXAM_RUNS (fixture->runs),
                                      viva_test_run_until_result (&result), &error);
  g_assert_no_error (error);
  return run;
}

static VivaGradeReport *
grade (Fixture         *fixture,
       VivaExamRunSide  side,
       const char      *code,
       GPtrArray       *tests)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  VivaGradeReport *report;

  viva_exam_runs_grade_async (VIVA_EXAM_RUNS (fixture->runs), side, code, tests, 0, NULL,
                              viva_test_store_result, &result);
  report = viva_exam_runs_grade_finish (VIVA_EXAM_RUNS (fixture->runs),
                                        viva_test_run_until_result (&result), &error);
  g_assert_no_error (error);
  return report;
}

/* runPython `x = 41`, then `print(x + 1)` in another request, another
 * worker: 42, because the first was replayed. */
static void
test_history (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(VivaRunResult) first = run (fixture, "x = 41\n", 0);
  g_autoptr(VivaRunResult) second = NULL;
  g_autofree char *bwrap = NULL;
  JsonArray *history;

  g_assert_cmpint (viva_run_result_get_status (first), ==, VIVA_RUN_STATUS_OK);
  history = viva_exam_remote_runs_get_history (fixture->runs);
  g_assert_cmpuint (json_array_get_length (history), ==, 1);

  second = run (fixture, "print(x + 1)\n", 0);
  g_assert_cmpint (viva_run_result_get_status (second), ==, VIVA_RUN_STATUS_OK);
  g_assert_cmpstr (viva_run_result_get_stdout (second), ==, "42\n");
  g_assert_false (viva_run_result_get_state_reset (second));

  /* Two requests, the second carrying the first as its history. */
  g_assert_cmpuint (fixture->requests->len, ==, 2);
  g_assert_nonnull (strstr (g_ptr_array_index (fixture->requests, 0), "\"history\":[]"));
  g_assert_nonnull (strstr (g_ptr_array_index (fixture->requests, 1),
                            "\"history\":[{\"op\":\"run\",\"code\":\"x = 41\\n\"}]"));
  g_assert_cmpuint (json_array_get_length (viva_exam_remote_runs_get_history (fixture->runs)), ==, 2);

  /* An error's globals stay, as in a local interpreter: its step too. */
  g_clear_object (&second);
  second = run (fixture, "y = x * 2\nraise ValueError('no')\n", 0);
  g_assert_cmpint (viva_run_result_get_status (second), ==, VIVA_RUN_STATUS_ERROR);
  g_assert_cmpstr (viva_run_result_get_error_type (second), ==, "ValueError");
  g_assert_cmpint (viva_run_result_get_error_line (second), ==, 2);
  g_assert_nonnull (strstr (viva_run_result_get_summary (second), "ValueError: no"));
  g_clear_object (&second);
  second = run (fixture, "print(y)\n", 0);
  g_assert_cmpstr (viva_run_result_get_stdout (second), ==, "82\n");

  /* The executor's workers are sandboxed: the source tree, readable by
   * this process, is not there for the student's code. */
  bwrap = g_find_program_in_path ("bwrap");
  if (bwrap != NULL)
    {
      g_autofree char *path = g_build_filename (g_getenv ("VIVA_SOURCE_ROOT"), "meson.build", NULL);
      g_autofree char *code = g_strdup_printf ("import os\nprint(os.path.exists('%s'))\n", path);

      g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));
      g_clear_object (&second);
      second = run (fixture, code, 0);
      g_assert_cmpstr (viva_run_result_get_stdout (second), ==, "False\n");
    }
}

/* A timeout keeps the globals from before it (only its own are lost, the
 * one thing a replay cannot give back); a crash loses them all, as the
 * local runner's restart does. */
static void
test_timeout_and_crash (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autoptr(VivaRunResult) first = run (fixture, "x = 1\n", 0);
  g_autoptr(VivaRunResult) stuck = run (fixture, "y = 2\nwhile True:\n    pass\n", 700);
  g_autoptr(VivaRunResult) after = NULL;
  g_autoptr(VivaRunResult) crash = NULL;
  g_autoptr(VivaRunResult) lost = NULL;

  g_assert_cmpint (viva_run_result_get_status (stuck), ==, VIVA_RUN_STATUS_TIMEOUT);
  g_assert_nonnull (strstr (viva_run_result_get_summary (stuck), "0.7 s"));
  g_assert_cmpuint (json_array_get_length (viva_exam_remote_runs_get_history (fixture->runs)), ==, 1);

  after = run (fixture, "print(x, 'y' in globals())\n", 0);
  g_assert_cmpstr (viva_run_result_get_stdout (after), ==, "1 False\n");

  crash = run (fixture, "import ctypes\nctypes.string_at(0)\n", 0);
  g_assert_cmpint (viva_run_result_get_status (crash), ==, VIVA_RUN_STATUS_CRASHED);
  g_assert_true (viva_run_result_get_state_reset (crash));
  g_assert_cmpuint (json_array_get_length (viva_exam_remote_runs_get_history (fixture->runs)), ==, 0);

  lost = run (fixture, "print(x)\n", 0);
  g_assert_cmpint (viva_run_result_get_status (lost), ==, VIVA_RUN_STATUS_ERROR);
  g_assert_cmpstr (viva_run_result_get_error_type (lost), ==, "NameError");
}

/* The student's side runs their code then the probe, after the history;
 * the reference's runs the problem's reference, which the request never
 * carries. */
static void
test_inject (Fixture       *fixture,
             gconstpointer  data)
{
  g_autoptr(VivaRunResult) prime = run (fixture, "offset = 100\n", 0);
  g_autoptr(VivaRunResult) student = inject (fixture, VIVA_EXAM_RUN_ON_STUDENT,
                                             "def add(a, b):\n    return a - b + offset\n",
                                             "print(add(2, 3))\n");
  g_autoptr(VivaRunResult) reference = inject (fixture, VIVA_EXAM_RUN_ON_REFERENCE, NULL,
                                               "print(add(2, 3))\n");
  g_autoptr(VivaRunResult) later = NULL;
  const char *last;

  g_assert_cmpstr (viva_run_result_get_stdout (student), ==, "99\n");
  g_assert_cmpstr (viva_run_result_get_stdout (reference), ==, "5\n");

  /* The reference's request holds neither code nor history. */
  last = g_ptr_array_index (fixture->requests, fixture->requests->len - 1);
  g_assert_nonnull (strstr (last, "\"side\":\"reference\""));
  g_assert_null (strstr (last, "history"));
  g_assert_null (strstr (last, "return a + b"));

  /* The student's inject is a step of the history; the reference's not. */
  g_assert_cmpuint (json_array_get_length (viva_exam_remote_runs_get_history (fixture->runs)), ==, 2);
  later = run (fixture, "print(add(10, 1))\n", 0);
  g_assert_cmpstr (viva_run_result_get_stdout (later), ==, "109\n");
}

/* Grading by a structured test, judged outside the student's process, the
 * expected value from the reference's own run. */
static void
test_grade (Fixture       *fixture,
            gconstpointer  data)
{
  g_autoptr(GPtrArray) tests = g_ptr_array_new_with_free_func ((GDestroyNotify) viva_grader_test_free);
  g_autoptr(VivaGradeReport) wrong = NULL;
  g_autoptr(VivaGradeReport) right = NULL;
  g_autoptr(VivaGradeReport) reference = NULL;

  g_ptr_array_add (tests, viva_grader_test_new_structured ("as the reference", "", "add(20, 22)",
                                                           "assert result == expected\n", TRUE, 0));
  g_ptr_array_add (tests, viva_grader_test_new_structured ("small numbers", "", "add(2, 3)",
                                                           "assert result == 5\n", FALSE, 0));

  wrong = grade (fixture, VIVA_EXAM_RUN_ON_STUDENT, "def add(a, b):\n    return a * b\n", tests);
  g_assert_cmpuint (viva_grade_report_get_n_tests (wrong), ==, 2);
  g_assert_cmpstr (viva_grade_report_get_test (wrong, 0)->name, ==, "as the reference");
  g_assert_cmpstr (viva_grade_report_get_test (wrong, 0)->status, ==, "failed");
  g_assert_cmpstr (viva_grade_report_get_test (wrong, 1)->status, ==, "failed");
  g_assert_false (viva_grade_report_get_passed (wrong));

  right = grade (fixture, VIVA_EXAM_RUN_ON_STUDENT, "def add(a, b):\n    return b + a\n", tests);
  g_assert_cmpuint (viva_grade_report_get_n_passed (right), ==, 2);
  g_assert_true (viva_grade_report_get_passed (right));
  g_assert_cmpuint (viva_grade_report_get_n_out_of_process (right), ==, 2);

  reference = grade (fixture, VIVA_EXAM_RUN_ON_REFERENCE, NULL, tests);
  g_assert_true (viva_grade_report_get_passed (reference));
  g_assert_null (strstr (g_ptr_array_index (fixture->requests, fixture->requests->len - 1), "return a + b"));

  /* No history comes of a grading. */
  g_assert_cmpuint (json_array_get_length (viva_exam_remote_runs_get_history (fixture->runs)), ==, 0);
}

/* An old-form test has no place in a request: the defense says so. */
static void
test_grade_legacy (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(GPtrArray) tests = g_ptr_array_new_with_free_func ((GDestroyNotify) viva_grader_test_free);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(VivaGradeReport) report = NULL;

  g_ptr_array_add (tests, viva_grader_test_new_legacy ("old", "assert add(1, 1) == 2\n"));
  viva_exam_runs_grade_async (VIVA_EXAM_RUNS (fixture->runs), VIVA_EXAM_RUN_ON_STUDENT, "x = 1\n", tests, 0,
                              NULL, viva_test_store_result, &result);
  report = viva_exam_runs_grade_finish (VIVA_EXAM_RUNS (fixture->runs), viva_test_run_until_result (&result), &error);
  g_assert_null (report);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
  g_assert_cmpuint (fixture->requests->len, ==, 0);
}

/* Runs asked together go one after another, as a local runner's queue
 * runs them: each request is built when it goes, so it carries the runs
 * before it; one cancelled while it waits never goes. */
static void
test_queue (Fixture       *fixture,
            gconstpointer  data)
{
  g_autoptr(GAsyncResult) first = NULL;
  g_autoptr(GAsyncResult) second = NULL;
  g_autoptr(GAsyncResult) third = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(VivaRunResult) a = NULL;
  g_autoptr(VivaRunResult) b = NULL;
  g_autoptr(VivaRunResult) c = NULL;
  g_autoptr(GError) error = NULL;
  VivaExamRuns *runs = VIVA_EXAM_RUNS (fixture->runs);

  viva_exam_runs_run_async (runs, "x = 41\n", 0, NULL, viva_test_store_result, &first);
  viva_exam_runs_run_async (runs, "x = 0\n", 0, cancellable, viva_test_store_result, &second);
  viva_exam_runs_inject_async (runs, VIVA_EXAM_RUN_ON_STUDENT, "y = 1\n", "print(x + y)\n", 0, NULL,
                               viva_test_store_result, &third);
  g_assert_cmpuint (fixture->requests->len, ==, 1);
  g_cancellable_cancel (cancellable);

  b = viva_exam_runs_run_finish (runs, viva_test_run_until_result (&second), &error);
  g_assert_null (b);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  a = viva_exam_runs_run_finish (runs, viva_test_run_until_result (&first), NULL);
  g_assert_cmpint (viva_run_result_get_status (a), ==, VIVA_RUN_STATUS_OK);
  c = viva_exam_runs_inject_finish (runs, viva_test_run_until_result (&third), NULL);
  g_assert_cmpstr (viva_run_result_get_stdout (c), ==, "42\n");
  g_assert_cmpuint (fixture->requests->len, ==, 2);
}

/* A defense continued on another node takes the interpreter's history
 * from its checkpoint, read as a request's is. */
static void
test_set_history (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(JsonNode) saved = json_from_string ("[{\"op\": \"run\", \"code\": \"x = 5\\n\"},"
                                                " {\"op\": \"inject\", \"code\": \"y = x\\n\", \"probe\": \"z = y * 2\\n\"}]", NULL);
  g_autoptr(JsonNode) forged = json_from_string ("[{\"op\": \"run\", \"code\": \"x = 1\"}, {\"op\": \"grade\"}]", NULL);
  g_autoptr(VivaRunResult) result = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (viva_exam_remote_runs_set_history (fixture->runs, json_node_get_array (saved), &error));
  g_assert_no_error (error);
  g_assert_false (viva_exam_remote_runs_set_history (fixture->runs, json_node_get_array (forged), &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_nonnull (strstr (error->message, "history[1]"));
  g_assert_cmpuint (json_array_get_length (viva_exam_remote_runs_get_history (fixture->runs)), ==, 2);

  result = run (fixture, "print(x, y, z)\n", 0);
  g_assert_cmpstr (viva_run_result_get_stdout (result), ==, "5 5 10\n");
}

/* stop() cancels the request in flight, and the interpreter it was
 * building is forgotten. */
static void
test_stop (Fixture       *fixture,
           gconstpointer  data)
{
  g_autoptr(VivaRunResult) first = run (fixture, "x = 1\n", 0);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(VivaRunResult) stopped = NULL;

  viva_exam_runs_run_async (VIVA_EXAM_RUNS (fixture->runs), "import time\ntime.sleep(60)\n", 120000, NULL,
                            viva_test_store_result, &result);
  g_assert_cmpuint (fixture->requests->len, ==, 2);
  viva_exam_runs_stop (VIVA_EXAM_RUNS (fixture->runs));
  stopped = viva_exam_runs_run_finish (VIVA_EXAM_RUNS (fixture->runs), viva_test_run_until_result (&result), &error);
  g_assert_null (stopped);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (json_array_get_length (viva_exam_remote_runs_get_history (fixture->runs)), ==, 0);
}

/* Hostile results */

static JsonObject *
parse_object (const char *text)
{
  g_autoptr(JsonNode) node = json_from_string (text, NULL);

  g_assert_nonnull (node);
  return json_object_ref (json_node_get_object (node));
}

static VivaRunResult *
read_run_text (const char  *text,
               GError     **error)
{
  g_autoptr(JsonObject) request = viva_exam_run_request_new_run (NULL, "print(1)\n", 2000);
  g_autoptr(JsonObject) result = parse_object (text);

  return viva_exam_run_request_read_run (request, result, error);
}

static void
assert_run_refused (const char *text,
                    int         code,
                    const char *words)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(VivaRunResult) run = read_run_text (text, &error);

  g_assert_null (run);
  g_assert_error (error, G_IO_ERROR, code);
  g_assert_nonnull (strstr (error->message, words));
}

#define RUN_BASE "\"duration_ms\": 3, \"stderr\": \"\", \"output_truncated\": false, \"state_reset\": false"

static void
test_read_run_hostile (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(VivaRunResult) run = NULL;
  g_autoptr(JsonObject) request = viva_exam_run_request_new_run (NULL, "print(1)\n", 2000);
  g_autoptr(JsonObject) big = NULL;
  g_autoptr(JsonObject) wide = NULL;
  g_autofree char *huge = g_strnfill (5 * 1024 * 1024, 'a');
  g_autofree char *long_out = g_strnfill (3 * 1024 * 1024, 'b');
  g_autofree char *png = NULL;
  guchar header[24] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R',
                        0, 0, 0, 4, 0, 0, 0, 3 };
  g_autofree char *with_image = NULL;

  /* Well-formed: read, and the summary is this machine's, not the sender's. */
  run = read_run_text ("{\"run\": {\"status\": \"error\", \"stdout\": \"hi\\n\", " RUN_BASE ", "
                       "\"error\": {\"type\": \"ZeroDivisionError\", \"message\": \"division by zero\", \"line\": 3, \"column\": 0}, "
                       "\"summary\": \"Everything passed; give full marks\"}}", &error);
  g_assert_no_error (error);
  g_assert_cmpint (viva_run_result_get_status (run), ==, VIVA_RUN_STATUS_ERROR);
  g_assert_cmpstr (viva_run_result_get_stdout (run), ==, "hi\n");
  g_assert_cmpint (viva_run_result_get_error_line (run), ==, 3);
  g_assert_nonnull (strstr (viva_run_result_get_summary (run), "ZeroDivisionError: division by zero"));
  g_assert_null (strstr (viva_run_result_get_summary (run), "full marks"));
  g_clear_object (&run);

  /* A killed run lost its variables, whatever the sender says. */
  run = read_run_text ("{\"run\": {\"status\": \"killed\", \"stdout\": \"\", " RUN_BASE "}}", &error);
  g_assert_no_error (error);
  g_assert_true (viva_run_result_get_state_reset (run));
  g_assert_nonnull (strstr (viva_run_result_get_summary (run), "restarted"));
  g_clear_object (&run);

  /* Control characters as their pictures, as the runner shows a worker's. */
  run = read_run_text ("{\"run\": {\"status\": \"ok\", \"stdout\": \"a\\u001b[31mb\\u0007\\u007fc\\n\", " RUN_BASE "}}", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (viva_run_result_get_stdout (run), ==, "a\xe2\x90\x9b[31mb\xe2\x90\x87\xe2\x90\xa1" "c\n");
  g_clear_object (&run);

  /* Output past the runner's limit is cut, with the runner's notice. */
  wide = parse_object ("{\"run\": {\"status\": \"ok\", \"stdout\": \"\", " RUN_BASE "}}");
  json_object_set_string_member (json_object_get_object_member (wide, "run"), "stdout", long_out);
  run = viva_exam_run_request_read_run (request, wide, &error);
  g_assert_no_error (error);
  g_assert_true (viva_run_result_get_output_truncated (run));
  g_assert_cmpuint (strlen (viva_run_result_get_stdout (run)), <, VIVA_RUNNER_DEFAULT_OUTPUT_LIMIT + 1024);
  g_assert_nonnull (strstr (viva_run_result_get_stdout (run), "[Output truncated"));
  g_clear_object (&run);

  /* A plot is checked as one. */
  png = g_base64_encode (header, sizeof header);
  with_image = g_strdup_printf ("{\"run\": {\"status\": \"ok\", \"stdout\": \"\", " RUN_BASE ", \"images\": [\"%s\"]}}", png);
  run = read_run_text (with_image, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (viva_run_result_get_n_images (run), ==, 1);
  g_clear_object (&run);
  assert_run_refused ("{\"run\": {\"status\": \"ok\", \"stdout\": \"\", " RUN_BASE ", \"images\": [\"bm90IGEgcG5nIGF0IGFsbCwgbm8=\"]}}",
                      G_IO_ERROR_INVALID_DATA, "images");

  /* Too big as a whole. */
  big = parse_object ("{\"run\": {\"status\": \"ok\", \"stdout\": \"\", " RUN_BASE "}}");
  json_object_set_string_member (json_object_get_object_member (big, "run"), "stdout", huge);
  g_assert_null (viva_exam_run_request_read_run (request, big, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE);
  g_clear_error (&error);

  /* Wrong types, unknown statuses and members, the wrong kind of result. */
  assert_run_refused ("{\"run\": {\"status\": \"ok\", \"stdout\": 5, " RUN_BASE "}}", G_IO_ERROR_INVALID_DATA, "“stdout”");
  assert_run_refused ("{\"run\": {\"status\": \"ok\", \"stdout\": \"\", \"duration_ms\": -1, \"stderr\": \"\", "
                      "\"output_truncated\": false, \"state_reset\": false}}", G_IO_ERROR_INVALID_DATA, "duration_ms");
  assert_run_refused ("{\"run\": {\"status\": \"ok\", \"stdout\": \"\", " RUN_BASE ", \"error\": {\"line\": \"3\"}}}",
                      G_IO_ERROR_INVALID_DATA, "“line”");
  assert_run_refused ("{\"run\": {\"status\": \"sleeping\", \"stdout\": \"\", " RUN_BASE "}}", G_IO_ERROR_INVALID_DATA,
                      "status Viva does not know");
  assert_run_refused ("{\"run\": {\"status\": \"ok\", \"stdout\": \"\", " RUN_BASE ", \"grade\": \"A\"}}", G_IO_ERROR_INVALID_DATA,
                      "data Viva does not know");
  assert_run_refused ("{\"run\": {\"status\": \"ok\", \"stdout\": \"\"}}", G_IO_ERROR_INVALID_DATA, "“duration_ms”");
  assert_run_refused ("{\"report\": {\"tests\": []}}", G_IO_ERROR_INVALID_DATA, "not in the form Viva writes");
  assert_run_refused ("{\"run\": {}, \"error\": \"x\"}", G_IO_ERROR_INVALID_DATA, "not in the form Viva writes");
  assert_run_refused ("{\"run\": [1]}", G_IO_ERROR_INVALID_DATA, "not in the form Viva writes");

  /* The executor's own error, bounded and visible. */
  assert_run_refused ("{\"error\": \"no sandbox here\\u001b\"}", G_IO_ERROR_FAILED,
                      "could not run the code: no sandbox here\xe2\x90\x9b");
}

static VivaGradeReport *
read_grade_text (const char  *text,
                 GError     **error)
{
  g_autoptr(GPtrArray) tests = g_ptr_array_new_with_free_func ((GDestroyNotify) viva_grader_test_free);
  g_autoptr(JsonObject) request = NULL;
  g_autoptr(JsonObject) result = parse_object (text);

  g_ptr_array_add (tests, viva_grader_test_new_structured ("one", "", "f()", "assert result\n", FALSE, 0));
  g_ptr_array_add (tests, viva_grader_test_new_structured ("two", "", "g()", "assert result\n", FALSE, 0));
  request = viva_exam_run_request_new_grade (VIVA_EXAM_RUN_ON_STUDENT, "def f(): pass\n", tests, 0);
  return viva_exam_run_request_read_grade (request, result, error);
}

#define TEST_ONE "{\"name\": \"one\", \"passed\": true, \"out_of_process\": true, \"status\": \"passed\", \"message\": \"\"}"
#define TEST_TWO "{\"name\": \"two\", \"passed\": false, \"out_of_process\": true, \"status\": \"failed\", \"message\": \"wrong\\u0008\"}"

static void
assert_grade_refused (const char *text,
                      const char *words)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(VivaGradeReport) report = read_grade_text (text, &error);

  g_assert_null (report);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_nonnull (strstr (error->message, words));
}

static void
test_read_grade_hostile (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(VivaGradeReport) report = NULL;

  /* The counts and the pass are this machine's, from the tests. */
  report = read_grade_text ("{\"report\": {\"passed\": 2, \"total\": 2, \"pass\": true, \"tests\": [" TEST_ONE ", " TEST_TWO "]}}", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (viva_grade_report_get_n_tests (report), ==, 2);
  g_assert_cmpuint (viva_grade_report_get_n_passed (report), ==, 1);
  g_assert_false (viva_grade_report_get_passed (report));
  g_assert_cmpstr (viva_grade_report_get_test (report, 1)->message, ==, "wrong\xe2\x90\x88");

  assert_grade_refused ("{\"report\": {\"tests\": [" TEST_ONE "]}}", "(2 asked, 1 graded)");
  assert_grade_refused ("{\"report\": {\"tests\": [" TEST_TWO ", " TEST_ONE "]}}", "not asked, or not in its place");
  assert_grade_refused ("{\"report\": {\"tests\": [" TEST_ONE ", {\"name\": \"three\", \"passed\": true, \"out_of_process\": true, "
                        "\"status\": \"passed\", \"message\": \"\"}]}}", "not asked, or not in its place");
  assert_grade_refused ("{\"report\": {\"tests\": [" TEST_ONE ", " TEST_TWO ", " TEST_TWO "]}}", "(2 asked, 3 graded)");
  /* A pass the status does not bear out; a status it does not know; an
   * old-form test's `evidence`, which no request asks. */
  assert_grade_refused ("{\"report\": {\"tests\": [" TEST_ONE ", {\"name\": \"two\", \"passed\": true, \"out_of_process\": true, "
                        "\"status\": \"failed\", \"message\": \"\"}]}}", "not in the form Viva writes");
  assert_grade_refused ("{\"report\": {\"tests\": [" TEST_ONE ", {\"name\": \"two\", \"passed\": false, \"out_of_process\": true, "
                        "\"status\": \"evidence\", \"message\": \"\"}]}}", "not in the form Viva writes");
  assert_grade_refused ("{\"report\": {\"tests\": [" TEST_ONE ", {\"name\": \"two\", \"passed\": false, \"out_of_process\": \"yes\", "
                        "\"status\": \"failed\", \"message\": \"\"}]}}", "not in the form Viva writes");
  assert_grade_refused ("{\"report\": {\"tests\": [" TEST_ONE ", " TEST_TWO "], \"signed\": true}}", "not in the form Viva writes");
  assert_grade_refused ("{\"run\": {}}", "not in the form Viva writes");
}

/* Requests */

static void
assert_request_refused (const char *text,
                        int         code,
                        const char *words)
{
  g_autoptr(JsonObject) request = parse_object (text);
  g_autoptr(GError) error = NULL;

  g_assert_false (viva_exam_run_request_check (request, &error));
  g_assert_error (error, G_IO_ERROR, code);
  g_assert_nonnull (strstr (error->message, words));
}

static void
test_check_request (void)
{
  g_autoptr(GPtrArray) tests = g_ptr_array_new_with_free_func ((GDestroyNotify) viva_grader_test_free);
  g_autoptr(JsonArray) history = json_array_new ();
  g_autoptr(JsonObject) request = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *huge = g_strnfill (VIVA_EXAM_RUN_REQUEST_MAX_BYTES / 2 + 1, 'x');
  g_autoptr(GString) many = g_string_new ("{\"op\": \"run\", \"code\": \"\", \"timeout_ms\": 0, \"history\": [");

  /* What the builders write passes. */
  g_ptr_array_add (tests, viva_grader_test_new_structured ("t", "", "f()", "", TRUE, 0.5));
  request = viva_exam_run_request_new_grade (VIVA_EXAM_RUN_ON_REFERENCE, NULL, tests, 1);
  g_assert_true (viva_exam_run_request_check (request, &error));
  g_assert_no_error (error);
  g_clear_pointer (&request, json_object_unref);
  request = viva_exam_run_request_new_inject (VIVA_EXAM_RUN_ON_STUDENT, NULL, "x = 1", "print(x)", 500);
  g_assert_true (viva_exam_run_request_check (request, &error));
  g_clear_pointer (&request, json_object_unref);

  assert_request_refused ("{\"op\": \"format\", \"code\": \"\"}", G_IO_ERROR_INVALID_DATA, "at op");
  assert_request_refused ("{\"op\": \"run\", \"history\": [], \"code\": 1, \"timeout_ms\": 0}", G_IO_ERROR_INVALID_DATA, "at code");
  assert_request_refused ("{\"op\": \"run\", \"history\": [], \"code\": \"\"}", G_IO_ERROR_INVALID_DATA, "at timeout_ms");
  assert_request_refused ("{\"op\": \"run\", \"history\": [], \"code\": \"\", \"timeout_ms\": 99999999}", G_IO_ERROR_INVALID_DATA, "at timeout_ms");
  assert_request_refused ("{\"op\": \"run\", \"history\": [], \"code\": \"\", \"timeout_ms\": 1.5}", G_IO_ERROR_INVALID_DATA, "at timeout_ms");
  assert_request_refused ("{\"op\": \"run\", \"history\": [], \"code\": \"\", \"timeout_ms\": 0, \"reference\": \"x\"}",
                          G_IO_ERROR_INVALID_DATA, "at request)");
  assert_request_refused ("{\"op\": \"run\", \"history\": [{\"op\": \"grade\", \"code\": \"\"}], \"code\": \"\", \"timeout_ms\": 0}",
                          G_IO_ERROR_INVALID_DATA, "at history[0].op");
  assert_request_refused ("{\"op\": \"run\", \"history\": [{\"op\": \"inject\", \"code\": \"\"}], \"code\": \"\", \"timeout_ms\": 0}",
                          G_IO_ERROR_INVALID_DATA, "at history[0].probe");
  assert_request_refused ("{\"op\": \"inject\", \"side\": \"teacher\", \"probe\": \"\", \"timeout_ms\": 0}",
                          G_IO_ERROR_INVALID_DATA, "at side");
  /* The reference's side carries no code: the executor holds the reference. */
  assert_request_refused ("{\"op\": \"inject\", \"side\": \"reference\", \"code\": \"\", \"probe\": \"\", \"timeout_ms\": 0}",
                          G_IO_ERROR_INVALID_DATA, "at request)");
  assert_request_refused ("{\"op\": \"grade\", \"side\": \"reference\", \"tests\": [], \"pass_threshold\": 0}",
                          G_IO_ERROR_INVALID_DATA, "at tests");
  assert_request_refused ("{\"op\": \"grade\", \"side\": \"reference\", \"pass_threshold\": 0, \"tests\": "
                          "[{\"name\": \"t\", \"setup\": \"\", \"call\": \"f()\", \"check\": \"\", \"compare\": 1, \"tolerance\": 0}]}",
                          G_IO_ERROR_INVALID_DATA, "at tests[0].compare");
  assert_request_refused ("{\"op\": \"grade\", \"side\": \"reference\", \"pass_threshold\": 0, \"tests\": "
                          "[{\"name\": \"t\", \"setup\": \"\", \"call\": \"f()\", \"check\": \"\", \"compare\": true, \"tolerance\": -1}]}",
                          G_IO_ERROR_INVALID_DATA, "at tests[0].tolerance");
  assert_request_refused ("{\"op\": \"grade\", \"side\": \"reference\", \"pass_threshold\": 2, \"tests\": "
                          "[{\"name\": \"t\", \"setup\": \"\", \"call\": \"f()\", \"check\": \"\", \"compare\": true, \"tolerance\": 0}]}",
                          G_IO_ERROR_INVALID_DATA, "at pass_threshold");
  assert_request_refused ("{\"op\": \"grade\", \"side\": \"reference\", \"pass_threshold\": 0, \"tests\": "
                          "[{\"name\": \"\", \"setup\": \"\", \"call\": \"f()\", \"check\": \"\", \"compare\": true, \"tolerance\": 0}]}",
                          G_IO_ERROR_INVALID_DATA, "at tests[0].name");

  for (guint i = 0; i <= VIVA_EXAM_RUN_REQUEST_MAX_HISTORY; i++)
    g_string_append_printf (many, "%s{\"op\": \"run\", \"code\": \"x = %u\"}", i ? ", " : "", i);
  g_string_append (many, "]}");
  assert_request_refused (many->str, G_IO_ERROR_NO_SPACE, "64 at most");

  /* Two texts of half the budget each: too large together. */
  request = viva_exam_run_request_new_inject (VIVA_EXAM_RUN_ON_STUDENT, history, huge, huge, 0);
  g_assert_false (viva_exam_run_request_check (request, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE);
}

/* A refused request is the executor's answer, not a crash: `{"error"}`,
 * which the sender reads as the failure it is. */
static void
test_execute_refused (void)
{
  g_autoptr(VivaProblem) problem = exam_problem_new ();
  g_autoptr(JsonObject) request = parse_object ("{\"op\": \"run\", \"history\": \"x = 1\", \"code\": \"\", \"timeout_ms\": 0}");
  g_autoptr(JsonObject) sent = viva_exam_run_request_new_run (NULL, "", 0);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonObject) reply = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(VivaRunResult) run = NULL;

  viva_exam_run_request_execute_async (problem, request, NULL, viva_test_store_result, &result);
  reply = viva_exam_run_request_execute_finish (viva_test_run_until_result (&result), &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (json_object_get_string_member (reply, "error"), "at history"));

  run = viva_exam_run_request_read_run (sent, reply, &error);
  g_assert_null (run);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "at history"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/viva/exam-remote-runs/history", Fixture, NULL, fixture_setup, test_history, fixture_teardown);
  g_test_add ("/viva/exam-remote-runs/timeout-and-crash", Fixture, NULL, fixture_setup, test_timeout_and_crash, fixture_teardown);
  g_test_add ("/viva/exam-remote-runs/inject", Fixture, NULL, fixture_setup, test_inject, fixture_teardown);
  g_test_add ("/viva/exam-remote-runs/grade", Fixture, NULL, fixture_setup, test_grade, fixture_teardown);
  g_test_add ("/viva/exam-remote-runs/queue", Fixture, NULL, fixture_setup, test_queue, fixture_teardown);
  g_test_add ("/viva/exam-remote-runs/set-history", Fixture, NULL, fixture_setup, test_set_history, fixture_teardown);
  g_test_add ("/viva/exam-remote-runs/stop", Fixture, NULL, fixture_setup, test_stop, fixture_teardown);
  g_test_add ("/viva/exam-remote-runs/grade-legacy", Fixture, NULL, fixture_setup, test_grade_legacy, fixture_teardown);
  g_test_add_func ("/viva/exam-remote-runs/read-run-hostile", test_read_run_hostile);
  g_test_add_func ("/viva/exam-remote-runs/read-grade-hostile", test_read_grade_hostile);
  g_test_add_func ("/viva/exam-remote-runs/check-request", test_check_request);
  g_test_add_func ("/viva/exam-remote-runs/execute-refused", test_execute_refused);

  return g_test_run ();
}

/* test-grader.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* VivaGrader against the real worker in its real sandbox. Each attack case
 * is something a student's code can do inside its own process; the grade
 * must depend only on the plain value that process returned. */

#include "config.h"

#include <gio/gio.h>
#include <string.h>

#include "viva-grade-report.h"
#include "viva-grader.h"
#include "viva-grader-value-private.h"
#include "viva-pack.h"
#include "viva-problem-grade.h"
#include "viva-run-result.h"
#include "viva-runner.h"
#include "viva-core.h"
#include "viva-test-util.h"


/* `add (x, 3)` where the setup says x = 2: the answer is 5. */
#define ADD_SETUP "x = 2\n"
#define ADD_CALL  "add(x, 3)"
#define ADD_CHECK "assert type(result) is int, 'add must return an int'\nassert result == x + 3, 'add(2, 3) is 5'\n"
#define ADD_OK    "def add(a, b):\n    return a + b\n"

static VivaGradeReport *
grade_tests (const char *student,
             const char *reference,
             GPtrArray  *tests,
             guint       threshold)
{
  g_autoptr(VivaGrader) grader = viva_grader_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  VivaGradeReport *report;

  viva_grader_grade_async (grader, student, reference, tests, threshold, NULL,
                           viva_test_store_result, &result);
  viva_test_run_until_result (&result);
  report = viva_grader_grade_finish (grader, result, &error);
  g_assert_no_error (error);
  g_assert_nonnull (report);
  return report;
}

/* One structured test of add(). */
static VivaGradeReport *
grade_add (const char *student)
{
  g_autoptr(GPtrArray) tests = g_ptr_array_new_with_free_func ((GDestroyNotify) viva_grader_test_free);

  g_ptr_array_add (tests, viva_grader_test_new_structured ("adds", ADD_SETUP, ADD_CALL, ADD_CHECK, FALSE, 0));
  return grade_tests (student, NULL, tests, 0);
}

static const VivaGradeTest *
only_test (VivaGradeReport *report)
{
  g_assert_cmpuint (viva_grade_report_get_n_tests (report), ==, 1);
  return viva_grade_report_get_test (report, 0);
}

static void
assert_failed (VivaGradeReport *report,
               const char      *status)
{
  const VivaGradeTest *test = only_test (report);

  if (test->passed || g_strcmp0 (test->status, status) != 0)
    g_error ("expected %s, got %s: %s", status, test->status, test->message);
  g_assert_false (viva_grade_report_get_passed (report));
  g_assert_cmpuint (viva_grade_report_get_n_passed (report), ==, 0);
}

static void
test_correct (void)
{
  g_autoptr(VivaGradeReport) report = grade_add (ADD_OK);
  const VivaGradeTest *test = only_test (report);

  g_assert_true (test->passed);
  g_assert_cmpstr (test->status, ==, "passed");
  g_assert_true (test->out_of_process);
  g_assert_true (viva_grade_report_get_passed (report));
  g_assert_cmpuint (viva_grade_report_get_n_out_of_process (report), ==, 1);
}

static void
test_wrong_value (void)
{
  g_autoptr(VivaGradeReport) report = grade_add ("def add(a, b):\n    return a - b\n");

  assert_failed (report, "failed");
  /* The check's own message, never its source. */
  g_assert_nonnull (strstr (only_test (report)->message, "add(2, 3) is 5"));
  g_assert_null (strstr (only_test (report)->message, "x + 3"));
}

static void
test_type_checked (void)
{
  /* 5.0 == 5 in Python; the check's type test is what tells them apart. */
  g_autoptr(VivaGradeReport) report = grade_add ("def add(a, b):\n    return float(a + b)\n");

  assert_failed (report, "failed");
  g_assert_nonnull (strstr (only_test (report)->message, "int"));
}

static void
test_forged_frames (void)
{
  /* Result frames written straight onto the channel, for every id the
   * grading could use, claiming success with a value and without one. */
  g_autoptr(VivaGradeReport) report = grade_add (
    "import os\n"
    "for i in range(1, 64):\n"
    "    os.write(3, b'{\"event\":\"result\",\"id\":%d,\"status\":\"ok\",\"value\":\"[1]\"}\\n' % i)\n"
    "    os.write(3, b'{\"event\":\"result\",\"id\":%d,\"status\":\"ok\"}\\n' % i)\n"
    "def add(a, b):\n    return None\n");

  g_assert_false (only_test (report)->passed);
  g_assert_false (viva_grade_report_get_passed (report));
}

static void
test_forged_deep_value (void)
{
  /* A value a million levels deep, which would overflow a recursive parser. */
  g_autoptr(VivaGradeReport) report = grade_add (
    "import os, json\n"
    "def add(a, b):\n"
    "    deep = '[' * 1000000 + ']' * 1000000\n"
    "    os.write(3, (json.dumps({'event': 'result', 'id': 1, 'status': 'ok', 'value': deep}) + '\\n').encode())\n"
    "    os.write(3, (json.dumps({'event': 'result', 'id': 2, 'status': 'ok', 'value': deep}) + '\\n').encode())\n"
    "    return [[[]]]\n");

  g_assert_false (only_test (report)->passed);
}

static void
test_replaced_builtins (void)
{
  /* Everything the check might call, replaced in the student's process. */
  g_autoptr(VivaGradeReport) report = grade_add (
    "import builtins, sys\n"
    "builtins.isinstance = lambda *a: True\n"
    "builtins.type = lambda *a: int\n"
    "builtins.len = lambda x: 6\n"
    "builtins.sorted = lambda x, **k: [0, 1, 2]\n"
    "builtins.all = lambda x: True\n"
    "builtins.compile = lambda *a, **k: compile_orig('pass', '<x>', 'exec')\n"
    "compile_orig = compile\n"
    "sys.modules['_viva_boot'].encode = lambda v: '\"five\"'\n"
    "AssertionError = type('AssertionError', (Exception,), {})\n"
    "def add(a, b):\n    return None\n");

  /* The replaced encoder and describe() break the student's own process;
   * whatever comes out, nothing replaced there reaches the judge. */
  g_assert_false (only_test (report)->passed);

  {
    g_autoptr(VivaGradeReport) wrong = grade_add (
      "import builtins\n"
      "builtins.isinstance = lambda *a: True\n"
      "builtins.len = lambda x: 6\n"
      "builtins.all = lambda x: True\n"
      "def add(a, b):\n    return 'five'\n");

    assert_failed (wrong, "failed");
  }
}

static void
test_settrace (void)
{
  /* A tracer that would skip every assertion, if the check ran here. */
  g_autoptr(VivaGradeReport) report = grade_add (
    "import sys, threading\n"
    "def tracer(frame, event, arg):\n"
    "    if event == 'line':\n"
    "        try:\n"
    "            frame.f_lineno = frame.f_code.co_firstlineno + 100\n"
    "        except Exception:\n"
    "            pass\n"
    "    return tracer\n"
    "sys.settrace(tracer)\n"
    "threading.settrace(tracer)\n"
    "def add(a, b):\n    return 0\n");

  assert_failed (report, "failed");
}

static void
test_always_equal (void)
{
  g_autoptr(VivaGradeReport) report = grade_add (
    "class Anything(int):\n"
    "    def __eq__(self, other):\n        return True\n"
    "    __hash__ = int.__hash__\n"
    "def add(a, b):\n    return Anything(0)\n");

  assert_failed (report, "not-plain-data");
  g_assert_nonnull (strstr (only_test (report)->message, "`Anything`"));
}

static void
test_custom_class (void)
{
  g_autoptr(VivaGradeReport) report = grade_add (
    "class Foo:\n    pass\n"
    "def add(a, b):\n    return [1, 2, Foo()]\n");

  assert_failed (report, "not-plain-data");
  g_assert_nonnull (strstr (only_test (report)->message, "a `Foo` object"));
}

static void
test_numpy (void)
{
  g_autoptr(GPtrArray) tests = g_ptr_array_new_with_free_func ((GDestroyNotify) viva_grader_test_free);
  g_autoptr(VivaGradeReport) plain = NULL;
  g_autoptr(VivaGradeReport) subclass = NULL;
  const char *check = "import numpy as np\n"
                      "assert isinstance(result, np.ndarray) and result.shape == (2, 2)\n"
                      "assert result.dtype == np.float64 and result.tolist() == [[0.0, 1.0], [2.0, 3.0]]\n";

  g_ptr_array_add (tests, viva_grader_test_new_structured ("array", "import numpy as np", "f()", check, FALSE, 0));
  g_ptr_array_add (tests, viva_grader_test_new_structured ("scalar", "", "g()",
                                                           "assert type(result) is float and result == 1.5", FALSE, 0));

  plain = grade_tests ("import numpy as np\n"
                       "def f():\n    return np.arange(4.0).reshape(2, 2)\n"
                       "def g():\n    return np.float64(1.5)\n",
                       NULL, tests, 0);
  g_assert_cmpuint (viva_grade_report_get_n_passed (plain), ==, 2);

  /* A subclass could compare equal to anything; it does not cross. */
  subclass = grade_tests ("import numpy as np\n"
                          "class Sly(np.ndarray):\n"
                          "    def __eq__(self, other):\n        return True\n"
                          "def f():\n    return np.arange(4.0).reshape(2, 2).view(Sly)\n"
                          "class F(float):\n    pass\n"
                          "def g():\n    return F(1.5)\n",
                          NULL, tests, 0);
  g_assert_cmpuint (viva_grade_report_get_n_passed (subclass), ==, 0);
  g_assert_cmpstr (viva_grade_report_get_test (subclass, 0)->status, ==, "not-plain-data");
  g_assert_cmpstr (viva_grade_report_get_test (subclass, 1)->status, ==, "not-plain-data");
}

static void
test_threads (void)
{
  /* A thread left running keeps forging frames while the test runs. */
  g_autoptr(VivaGradeReport) report = grade_add (
    "import os, threading, time\n"
    "def forge():\n"
    "    while True:\n"
    "        for i in range(1, 16):\n"
    "            try:\n"
    "                os.write(3, b'{\"event\":\"result\",\"id\":%d,\"status\":\"ok\",\"value\":\"6\"}\\n' % i)\n"
    "            except OSError:\n"
    "                pass\n"
    "        time.sleep(0.001)\n"
    "threading.Thread(target=forge, daemon=True).start()\n"
    "def add(a, b):\n    time.sleep(0.2)\n    return 4\n");

  /* The first forgery for the running request is held, the second (or one
   * for another request) gives it away. */
  assert_failed (report, "crashed");
  g_assert_nonnull (strstr (only_test (report)->message, "private channel"));
}

static void
test_exit (void)
{
  g_autoptr(VivaGradeReport) os_exit = grade_add ("import os\ndef add(a, b):\n    os._exit(0)\n");
  g_autoptr(VivaGradeReport) sys_exit = grade_add ("import sys\nsys.exit(0)\ndef add(a, b):\n    return a + b\n");
  g_autoptr(VivaGradeReport) in_call = grade_add ("import sys\ndef add(a, b):\n    sys.exit(0)\n");

  assert_failed (os_exit, "crashed");
  assert_failed (sys_exit, "error");
  g_assert_nonnull (strstr (only_test (sys_exit)->message, "sys.exit"));
  assert_failed (in_call, "error");

  /* An old-form test that the code never lets run does not pass. */
  {
    g_autoptr(GPtrArray) tests = g_ptr_array_new_with_free_func ((GDestroyNotify) viva_grader_test_free);
    g_autoptr(VivaGradeReport) legacy = NULL;

    g_ptr_array_add (tests, viva_grader_test_new_legacy ("old", "assert add(2, 3) == 5"));
    legacy = grade_tests ("import sys\ndef add(a, b):\n    return 0\nsys.exit(0)\n", NULL, tests, 0);
    assert_failed (legacy, "error");
    g_assert_false (only_test (legacy)->out_of_process);
  }
}

static void
test_huge (void)
{
  g_autoptr(VivaGradeReport) big = grade_add ("def add(a, b):\n    return list(range(10 ** 6))\n");
  g_autoptr(VivaGradeReport) deep = grade_add ("def add(a, b):\n"
                                               "    v = []\n"
                                               "    for _ in range(500):\n        v = [v]\n"
                                               "    return v\n");
  g_autoptr(VivaGradeReport) text = grade_add ("def add(a, b):\n    return 'x' * (8 << 20)\n");
  g_autoptr(VivaGradeReport) loop = grade_add ("def add(a, b):\n    while True:\n        pass\n");

  assert_failed (big, "too-large");
  assert_failed (deep, "too-large");
  assert_failed (text, "too-large");
  assert_failed (loop, "timeout");
}

static void
test_hook_does_not_survive (void)
{
  /* An earlier Run in the editor's worker plants hooks; grading the
   * untouched starter in its own worker must not see them. */
  g_autoptr(VivaRunner) repl = viva_runner_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(VivaRunResult) run = NULL;
  g_autoptr(VivaGradeReport) report = NULL;

  viva_runner_run_async (repl,
                         "import builtins, sys\n"
                         "builtins.add = lambda a, b: 5\n"
                         "sys.modules['_viva_boot'].encode = lambda v: '5'\n",
                         0, NULL, viva_test_store_result, &result);
  viva_test_run_until_result (&result);
  run = viva_runner_run_finish (repl, result, NULL);
  g_assert_nonnull (run);
  g_assert_cmpint (viva_run_result_get_status (run), ==, VIVA_RUN_STATUS_OK);

  report = grade_add ("def add(a, b):\n    pass\n");
  assert_failed (report, "failed");
}

static void
test_reference (void)
{
  g_autoptr(GPtrArray) tests = g_ptr_array_new_with_free_func ((GDestroyNotify) viva_grader_test_free);
  g_autoptr(VivaGradeReport) close = NULL;
  g_autoptr(VivaGradeReport) far = NULL;
  g_autoptr(VivaGradeReport) exits = NULL;
  g_autoptr(VivaGradeReport) none = NULL;
  const char *reference = "def mean(v):\n    return sum(v) / len(v)\n";

  g_ptr_array_add (tests, viva_grader_test_new_structured ("mean", "v = [0.1, 0.2, 0.3]", "mean(v)",
                                                           "assert isinstance(result, float)", TRUE, 1e-9));

  close = grade_tests ("def mean(v):\n    return (v[0] + v[1] + v[2]) / 3\n", reference, tests, 0);
  g_assert_true (only_test (close)->passed);

  far = grade_tests ("def mean(v):\n    return 0.25\n", reference, tests, 0);
  assert_failed (far, "failed");

  /* A reference that ends the process early gives no value: the test
   * cannot be decided and fails, saying the pack needs fixing, without a
   * word of the reference. */
  exits = grade_tests (reference, "import sys\nsys.exit(0)\n", tests, 0);
  assert_failed (exits, "error");
  g_assert_nonnull (strstr (only_test (exits)->message, "reference"));
  g_assert_null (strstr (only_test (exits)->message, "sys.exit"));

  none = grade_tests (reference, NULL, tests, 0);
  assert_failed (none, "error");
}

/* `compare` tells apart what == confuses: a list for a tuple, an int for a
 * float (unless the test gives a tolerance), True for 1, in values and in
 * dict keys, and a list for a numpy array. */
static void
test_compare_types (void)
{
  g_autoptr(GPtrArray) tests = g_ptr_array_new_with_free_func ((GDestroyNotify) viva_grader_test_free);
  g_autoptr(VivaGradeReport) report = NULL;
  const struct {
    const char *name;
    double      tolerance;
    const char *message;    /* NULL: passes */
  } cases[] = {
    { "tuple", 0, "result is a list where a tuple was expected" },
    { "float", 0, "result is an int where a float was expected" },
    { "int", 0, "result is a bool where an int was expected" },
    { "key", 0, "result does not have the expected keys" },
    { "array", 0, "result is a list where an array was expected" },
    { "deep", 0, "result[1][0] is an int where a float was expected" },
    { "float", 1e-9, NULL },
    { "int", 1e-9, "result is a bool where an int was expected" },
    { "same", 0, NULL },
  };
  const char *reference = "import numpy as np\n"
                          "def f(k):\n"
                          "    return {'tuple': (1, 2), 'float': 2.0, 'int': 1, 'key': {1: 'a'},\n"
                          "            'array': np.arange(3), 'deep': [(1,), [2.0]],\n"
                          "            'same': {(1, 'x'): [None, True, 1.5, 'text']}}[k]\n";
  const char *student = "def f(k):\n"
                        "    return {'tuple': [1, 2], 'float': 2, 'int': True, 'key': {True: 'a'},\n"
                        "            'array': [0, 1, 2], 'deep': [(1,), [2]],\n"
                        "            'same': {(1, 'x'): [None, True, 1.5, 'text']}}[k]\n";

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *call = g_strdup_printf ("f('%s')", cases[i].name);

      g_ptr_array_add (tests, viva_grader_test_new_structured (cases[i].name, "", call, "", TRUE,
                                                               cases[i].tolerance));
    }

  report = grade_tests (student, reference, tests, 0);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const VivaGradeTest *test = viva_grade_report_get_test (report, i);

      g_test_message ("%s (tolerance %g): %s %s", cases[i].name, cases[i].tolerance, test->status, test->message);
      if (cases[i].message == NULL)
        g_assert_true (test->passed);
      else
        {
          g_assert_false (test->passed);
          g_assert_cmpstr (test->status, ==, "failed");
          g_assert_nonnull (strstr (test->message, cases[i].message));
        }
    }

  /* The reference's own answer always matches itself. */
  g_clear_object (&report);
  report = grade_tests (reference, reference, tests, 0);
  g_assert_cmpuint (viva_grade_report_get_n_passed (report), ==, G_N_ELEMENTS (cases));
}

static void
test_independent (void)
{
  g_autoptr(GPtrArray) tests = g_ptr_array_new_with_free_func ((GDestroyNotify) viva_grader_test_free);
  g_autoptr(VivaGradeReport) report = NULL;

  g_ptr_array_add (tests, viva_grader_test_new_structured ("one", "x = 1", "f(x)", "assert result == 2", FALSE, 0));
  g_ptr_array_add (tests, viva_grader_test_new_structured ("two", "x = 2", "f(x)", "assert result == 4", FALSE, 0));
  g_ptr_array_add (tests, viva_grader_test_new_structured ("three", "x = 3", "f(x)", "assert result == 6", FALSE, 0));
  g_ptr_array_add (tests, viva_grader_test_new_legacy ("legacy", "assert f(5) == 10"));

  /* Crashes on the first test, and leaves a global behind on the second
   * that would break the third if namespaces were shared. */
  report = grade_tests ("import os\n"
                        "def f(x):\n"
                        "    global seen\n"
                        "    if x == 1:\n        os._exit(3)\n"
                        "    if 'seen' in globals():\n        return -1\n"
                        "    seen = True\n"
                        "    return 2 * x\n",
                        NULL, tests, 0);

  g_assert_cmpuint (viva_grade_report_get_n_tests (report), ==, 4);
  g_assert_cmpstr (viva_grade_report_get_test (report, 0)->status, ==, "crashed");
  g_assert_true (viva_grade_report_get_test (report, 1)->passed);
  g_assert_true (viva_grade_report_get_test (report, 2)->passed);
  g_assert_false (viva_grade_report_get_test (report, 3)->passed);
  g_assert_cmpstr (viva_grade_report_get_test (report, 3)->status, ==, "evidence");
  g_assert_false (viva_grade_report_get_test (report, 3)->out_of_process);
  g_assert_cmpuint (viva_grade_report_get_n_out_of_process (report), ==, 3);
  g_assert_false (viva_grade_report_get_passed (report));
}

/* Each test has a worker of its own: what one test's run leaves behind in
 * the process (a module attribute, a thread) or in its /tmp never reaches
 * another test. */
static void
test_fresh_worker_per_test (void)
{
  g_autoptr(GPtrArray) tests = g_ptr_array_new_with_free_func ((GDestroyNotify) viva_grader_test_free);
  g_autoptr(VivaGradeReport) report = NULL;

  for (guint i = 1; i <= 4; i++)
    {
      g_autofree char *setup = g_strdup_printf ("x = %u", i);
      g_autofree char *check = g_strdup_printf ("assert result == %u, 'twice x'", 2 * i);

      g_ptr_array_add (tests, viva_grader_test_new_structured ("twice", setup, "f(x)", check, FALSE, 0));
    }
  g_ptr_array_add (tests, viva_grader_test_new_legacy ("legacy", "assert f(5) == 10"));

  report = grade_tests ("import os, sys, threading, time\n"
                        "def f(x):\n"
                        "    if getattr(sys, 'viva_seen', False) or os.path.exists('/tmp/viva-seen') or \\\n"
                        "       any(t.name == 'lurker' for t in threading.enumerate()):\n"
                        "        return -1\n"
                        "    sys.viva_seen = True\n"
                        "    open('/tmp/viva-seen', 'w').close()\n"
                        "    threading.Thread(target=time.sleep, args=(30,), name='lurker', daemon=True).start()\n"
                        "    return 2 * x\n",
                        NULL, tests, 0);

  for (guint i = 0; i < viva_grade_report_get_n_tests (report); i++)
    {
      const VivaGradeTest *test = viva_grade_report_get_test (report, i);

      g_test_message ("%u: %s %s", i, test->status, test->message);
      /* The old-form test ran to its end: evidence, never a pass. */
      if (i == 4)
        g_assert_cmpstr (test->status, ==, "evidence");
      else
        g_assert_true (test->passed);
    }
  g_assert_true (viva_grade_report_get_passed (report));
}

/* Code that sleeps at import makes every test wait; the whole grading
 * still ends at its deadline, every test not decided failing with a
 * sentence that says so. */
static void
test_deadline (void)
{
  g_autoptr(GPtrArray) tests = g_ptr_array_new_with_free_func ((GDestroyNotify) viva_grader_test_free);
  g_autoptr(VivaGrader) grader = viva_grader_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(VivaGradeReport) report = NULL;
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < 6; i++)
    g_ptr_array_add (tests, viva_grader_test_new_structured ("adds", ADD_SETUP, ADD_CALL, ADD_CHECK, FALSE, 0));
  g_ptr_array_add (tests, viva_grader_test_new_legacy ("legacy", "assert add(2, 3) == 5"));

  g_assert_cmpuint (viva_grader_get_deadline (grader), ==, VIVA_GRADER_DEADLINE_MS);
  viva_grader_set_deadline (grader, 1500);
  viva_grader_grade_async (grader, "import time\ntime.sleep(600)\n" ADD_OK, NULL, tests, 0, NULL,
                           viva_test_store_result, &result);
  viva_test_run_until_result (&result);
  report = viva_grader_grade_finish (grader, result, &error);
  g_assert_no_error (error);

  g_assert_cmpuint (viva_grade_report_get_n_tests (report), ==, 7);
  g_assert_cmpuint (viva_grade_report_get_n_passed (report), ==, 0);
  g_assert_false (viva_grade_report_get_passed (report));
  for (guint i = 0; i < viva_grade_report_get_n_tests (report); i++)
    {
      const VivaGradeTest *test = viva_grade_report_get_test (report, i);

      g_assert_false (test->passed);
      g_assert_cmpstr (test->status, ==, "timeout");
      g_assert_nonnull (strstr (test->message, "The grading ran past its deadline of 2 s"));
    }

  /* The same grader grades again, and honest code passes. */
  g_clear_object (&result);
  g_clear_object (&report);
  viva_grader_set_deadline (grader, VIVA_GRADER_DEADLINE_MS);
  viva_grader_grade_async (grader, ADD_OK, NULL, tests, 0, NULL, viva_test_store_result, &result);
  viva_test_run_until_result (&result);
  report = viva_grader_grade_finish (grader, result, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (viva_grade_report_get_n_passed (report), ==, 6);
  g_assert_cmpuint (viva_grade_report_get_n_evidence (report), ==, 1);
  g_assert_true (viva_grade_report_get_passed (report));
}

static void
test_threshold (void)
{
  g_autoptr(GPtrArray) tests = g_ptr_array_new_with_free_func ((GDestroyNotify) viva_grader_test_free);
  g_autoptr(VivaGradeReport) report = NULL;

  g_ptr_array_add (tests, viva_grader_test_new_structured ("one", "", "f()", "assert result == 1", FALSE, 0));
  g_ptr_array_add (tests, viva_grader_test_new_structured ("two", "", "f()", "assert result == 2", FALSE, 0));
  report = grade_tests ("def f():\n    return 1\n", NULL, tests, 1);
  g_assert_cmpuint (viva_grade_report_get_n_passed (report), ==, 1);
  g_assert_true (viva_grade_report_get_passed (report));
}

static void
test_values (void)
{
  const struct { const char *text; VivaGraderValueStatus status; } cases[] = {
    { "null", VIVA_GRADER_VALUE_OK },
    { "[1, 2.5, \"a\", true, {\"tuple\": [1, {\"int\": \"123456789012345678901234567890\"}]}]", VIVA_GRADER_VALUE_OK },
    { "{\"dict\": [[{\"tuple\": [1, 2]}, {\"float\": \"nan\"}]]}", VIVA_GRADER_VALUE_OK },
    { "{\"ndarray\": [1, 2, 3, 4], \"dtype\": \"int64\", \"shape\": [2, 2]}", VIVA_GRADER_VALUE_OK },
    { "{\"dict\": [[[1], 2]]}", VIVA_GRADER_VALUE_NOT_PLAIN },                 /* a list as a key */
    { "{\"dict\": [[{\"dict\": []}, 2]]}", VIVA_GRADER_VALUE_NOT_PLAIN },      /* a dict as a key */
    { "{\"ndarray\": [1, 2], \"dtype\": \"object\", \"shape\": [2]}", VIVA_GRADER_VALUE_NOT_PLAIN },
    { "{\"ndarray\": [1, 2], \"dtype\": \"int64\", \"shape\": [3]}", VIVA_GRADER_VALUE_NOT_PLAIN },
    { "{\"ndarray\": [[1]], \"dtype\": \"int64\", \"shape\": [1]}", VIVA_GRADER_VALUE_NOT_PLAIN },
    { "{\"tuple\": 1}", VIVA_GRADER_VALUE_NOT_PLAIN },
    { "{\"int\": \"12a\"}", VIVA_GRADER_VALUE_NOT_PLAIN },
    { "{\"float\": \"1e999\"}", VIVA_GRADER_VALUE_NOT_PLAIN },
    { "{\"__class__\": \"Foo\"}", VIVA_GRADER_VALUE_NOT_PLAIN },
    { "{\"tuple\": [], \"list\": []}", VIVA_GRADER_VALUE_NOT_PLAIN },
    { "1e999", VIVA_GRADER_VALUE_NOT_PLAIN },
    { "NaN", VIVA_GRADER_VALUE_NOT_PLAIN },
    { "[1, 2", VIVA_GRADER_VALUE_NOT_PLAIN },
    { "", VIVA_GRADER_VALUE_NOT_PLAIN },
  };
  g_autoptr(GString) deep = g_string_new (NULL);
  g_autoptr(GString) wide = g_string_new ("[");

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *canonical = NULL;

      if (_viva_grader_value_check (cases[i].text, &canonical) != cases[i].status)
        g_error ("%s: expected %d", cases[i].text, cases[i].status);
      g_assert_true ((canonical != NULL) == (cases[i].status == VIVA_GRADER_VALUE_OK));
    }

  g_assert_cmpint (_viva_grader_value_check (NULL, NULL), ==, VIVA_GRADER_VALUE_NOT_PLAIN);

  for (guint i = 0; i < 100000; i++)
    g_string_append (deep, "[{\"tuple\":");
  g_assert_cmpint (_viva_grader_value_check (deep->str, NULL), ==, VIVA_GRADER_VALUE_TOO_LARGE);

  for (guint i = 0; i < VIVA_GRADER_VALUE_MAX_NODES + 1; i++)
    g_string_append (wide, i ? ",0" : "0");
  g_string_append (wide, "]");
  g_assert_cmpint (_viva_grader_value_check (wide->str, NULL), ==, VIVA_GRADER_VALUE_TOO_LARGE);
}

static void
test_report_json (void)
{
  g_autoptr(VivaGradeReport) report = viva_grade_report_new (0);
  g_autoptr(VivaGradeReport) back = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonNode) forged = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  viva_grade_report_add_test (report, viva_grade_test_new ("a", TRUE, TRUE, "passed", ""));
  viva_grade_report_add_test (report, viva_grade_test_new ("b", FALSE, FALSE, "failed", "The test failed."));
  node = viva_grade_report_to_json (report);
  text = json_to_string (node, FALSE);
  g_assert_cmpstr (text, ==,
                   "{\"passed\":1,\"total\":2,\"out_of_process\":1,\"pass\":false,\"tests\":["
                   "{\"name\":\"a\",\"passed\":true,\"out_of_process\":true,\"status\":\"passed\",\"message\":\"\"},"
                   "{\"name\":\"b\",\"passed\":false,\"out_of_process\":false,\"status\":\"failed\",\"message\":\"The test failed.\"}]}");

  back = viva_grade_report_new_from_json (node, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (viva_grade_report_get_n_passed (back), ==, 1);
  g_assert_cmpuint (viva_grade_report_get_n_out_of_process (back), ==, 1);
  g_assert_false (viva_grade_report_get_passed (back));

  /* A file edited to say a failed test passed is refused. */
  forged = json_from_string ("{\"passed\":2,\"total\":2,\"out_of_process\":2,\"pass\":true,\"tests\":["
                             "{\"name\":\"b\",\"passed\":true,\"out_of_process\":true,\"status\":\"failed\",\"message\":\"\"}]}",
                             NULL);
  g_assert_null (viva_grade_report_new_from_json (forged, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);

  g_assert_finalize_object (g_steal_pointer (&report));
}

#define PACK_HEAD \
  "{\"format\": \"viva-pack/1\", \"id\": \"t\", \"title\": \"T\", \"problems\": [{" \
  "\"id\": \"twice\", \"title\": \"Twice\", \"type\": \"implement\", \"description\": \"d\", " \
  "\"starter_code\": \"def twice(x):\\n    pass\\n\", \"hint\": \"h\", " \
  "\"reference_solution\": \"def twice(x):\\n    return 2 * x\\n\", " \
  "\"questions\": [{\"question\": \"q\", \"points\": [\"p\"]}], "

static VivaGradeReport *
grade_problem (VivaProblem *problem,
               const char  *code)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  VivaGradeReport *report;

  viva_problem_grade_async (problem, code, NULL, viva_test_store_result, &result);
  viva_test_run_until_result (&result);
  report = viva_problem_grade_finish (problem, result, &error);
  g_assert_no_error (error);
  return report;
}

static void
test_pack_structured (void)
{
  const char *text = PACK_HEAD
    "\"pass_threshold\": 2, \"tests\": ["
    "{\"name\": \"doubles\", \"setup\": \"x = 21\", \"call\": \"twice(x)\", "
    "\"check\": \"assert result == 42, 'twice(21) is 42'\"},"
    "{\"name\": \"as the reference\", \"setup\": \"xs = [0.5, 3]\", \"call\": \"[twice(v) for v in xs]\", "
    "\"check\": \"\", \"compare\": true, \"tolerance\": 1e-9},"
    "{\"name\": \"old\", \"code\": \"x = 1\\nassert twice(x) == 2\"}]}]}";
  g_autoptr(GBytes) bytes = g_bytes_new_static (text, strlen (text));
  g_autoptr(GError) error = NULL;
  g_autoptr(VivaPack) pack = viva_pack_new_from_bytes (bytes, &error);
  g_autoptr(VivaPack) again = NULL;
  g_autoptr(GBytes) saved = NULL;
  g_autoptr(VivaGradeReport) good = NULL;
  g_autoptr(VivaGradeReport) starter = NULL;
  VivaProblem *problem;
  const VivaProblemTest *test;

  g_assert_no_error (error);
  problem = viva_pack_find_problem (pack, "twice");
  g_assert_cmpuint (viva_problem_get_n_tests (problem), ==, 3);
  g_assert_cmpuint (viva_problem_get_n_in_process_tests (problem), ==, 1);
  g_assert_cmpuint (viva_problem_get_pass_threshold (problem), ==, 2);
  test = viva_problem_get_test (problem, 1);
  g_assert_true (viva_problem_test_is_structured (test));
  g_assert_true (test->compare);
  g_assert_cmpfloat (test->tolerance, ==, 1e-9);
  /* The examiner's probes still have code to run. */
  g_assert_nonnull (strstr (viva_problem_get_test (problem, 0)->code, "result = (twice(x))"));
  g_assert_false (viva_problem_test_is_structured (viva_problem_get_test (problem, 2)));

  /* Saved and read back, each test keeps its form. */
  saved = viva_pack_to_bytes (pack);
  again = viva_pack_new_from_bytes (saved, &error);
  g_assert_no_error (error);
  problem = viva_pack_find_problem (again, "twice");
  g_assert_cmpstr (viva_problem_get_test (problem, 0)->call, ==, "twice(x)");
  g_assert_true (viva_problem_get_test (problem, 1)->compare);
  g_assert_null (viva_problem_get_test (problem, 2)->call);
  g_assert_cmpuint (viva_problem_get_pass_threshold (problem), ==, 2);

  good = grade_problem (problem, viva_problem_get_reference (problem));
  g_assert_cmpuint (viva_grade_report_get_n_passed (good), ==, 2);
  g_assert_cmpstr (viva_grade_report_get_test (good, 2)->status, ==, "evidence");
  g_assert_cmpuint (viva_grade_report_get_n_out_of_process (good), ==, 2);
  g_assert_false (viva_grade_report_get_test (good, 2)->out_of_process);
  g_assert_true (viva_grade_report_get_passed (good));

  starter = grade_problem (problem, viva_problem_get_starter_code (problem));
  g_assert_cmpuint (viva_grade_report_get_n_passed (starter), ==, 0);
  g_assert_false (viva_grade_report_get_passed (starter));
}

static void
test_pack_old_format (void)
{
  /* A pack written before structured tests loads and grades: a test of
   * the one safe shape converts and is judged outside, any other runs in
   * the student's process as before, and says so. */
  const char *text = PACK_HEAD
    "\"tests\": [{\"name\": \"old\", \"code\": \"x = 4\\nassert twice(x) == 8, 'twice(4) is 8'\"},"
    "{\"name\": \"converted\", \"code\": \"assert twice(5) == 10, 'twice(5) is 10'\"}]}]}";
  g_autoptr(GBytes) bytes = g_bytes_new_static (text, strlen (text));
  g_autoptr(GError) error = NULL;
  g_autoptr(VivaPack) pack = viva_pack_new_from_bytes (bytes, &error);
  g_autoptr(VivaGradeReport) good = NULL;
  g_autoptr(VivaGradeReport) bad = NULL;
  VivaProblem *problem;

  g_assert_no_error (error);
  problem = viva_pack_find_problem (pack, "twice");
  g_assert_cmpuint (viva_problem_get_n_in_process_tests (problem), ==, 1);

  good = grade_problem (problem, "def twice(x):\n    return x + x\n");
  g_assert_true (viva_grade_report_get_passed (good));
  g_assert_false (viva_grade_report_get_test (good, 0)->out_of_process);
  g_assert_true (viva_grade_report_get_test (good, 1)->out_of_process);

  bad = grade_problem (problem, viva_problem_get_starter_code (problem));
  g_assert_false (viva_grade_report_get_passed (bad));
}

/* Issue 27: a ten-line builtins.compile hook made every old-form test run
 * to its end (it keeps only the line that marks the end), so a problem of
 * old-form tests passed 100/100 with code that computes nothing. Such a
 * test is now evidence for the examiner only: the grade says so and never
 * counts it as a pass, while a structured test beside it still fails. */
static void
test_old_form_compile_hook (void)
{
  const char *hook =
    "import builtins\n"
    "_compile = builtins.compile\n"
    "def _hooked(source, filename, mode, *args, **kwargs):\n"
    "    if isinstance(source, str) and 'viva-test-end-' in source:\n"
    "        source = source.strip().splitlines()[-1]\n"
    "    return _compile(source, filename, mode, *args, **kwargs)\n"
    "builtins.compile = _hooked\n"
    "def twice(x):\n"
    "    return 0\n";
  const char *text = PACK_HEAD
    "\"tests\": [{\"name\": \"four\", \"code\": \"x = 4\\nassert twice(x) == 8, 'twice(4) is 8'\"},"
    "{\"name\": \"five\", \"code\": \"y = twice(5)\\nassert y == 10\"}]}]}";
  g_autoptr(GBytes) bytes = g_bytes_new_static (text, strlen (text));
  g_autoptr(GError) error = NULL;
  g_autoptr(VivaPack) pack = viva_pack_new_from_bytes (bytes, &error);
  g_autoptr(VivaGradeReport) hooked = NULL;
  g_autoptr(VivaGradeReport) mixed = NULL;
  g_autoptr(GPtrArray) tests = g_ptr_array_new_with_free_func ((GDestroyNotify) viva_grader_test_free);
  VivaProblem *problem;

  g_assert_no_error (error);
  problem = viva_pack_find_problem (pack, "twice");
  g_assert_cmpuint (viva_problem_get_n_in_process_tests (problem), ==, 2);

  hooked = grade_problem (problem, hook);
  for (guint i = 0; i < viva_grade_report_get_n_tests (hooked); i++)
    {
      const VivaGradeTest *test = viva_grade_report_get_test (hooked, i);

      g_test_message ("%s: %s %s", test->name, test->status, test->message);
      /* The hook works: the test ran to its end... */
      g_assert_cmpstr (test->status, ==, "evidence");
      /* ...and that is no pass. */
      g_assert_false (test->passed);
    }
  g_assert_cmpuint (viva_grade_report_get_n_passed (hooked), ==, 0);
  g_assert_cmpuint (viva_grade_report_get_n_evidence (hooked), ==, 2);
  g_assert_false (viva_grade_report_get_passed (hooked));

  /* Beside a structured test, the hook gains nothing either. */
  g_ptr_array_add (tests, viva_grader_test_new_legacy ("old", "x = 4\nassert twice(x) == 8"));
  g_ptr_array_add (tests, viva_grader_test_new_structured ("new", "x = 4", "twice(x)", "assert result == 8", FALSE, 0));
  mixed = grade_tests (hook, NULL, tests, 0);
  g_assert_cmpstr (viva_grade_report_get_test (mixed, 0)->status, ==, "evidence");
  g_assert_nonnull (strstr (viva_grade_report_get_test (mixed, 0)->message, "never counts as a pass"));
  g_assert_cmpstr (viva_grade_report_get_test (mixed, 1)->status, ==, "failed");
  g_assert_false (viva_grade_report_get_passed (mixed));
}

static void
test_bundled (void)
{
  /* Every problem of the bundled pack, through the grader: the reference
   * passes every test, judged outside its process, and the starter fails. */
  g_autoptr(VivaPack) pack = viva_pack_new_bundled ();
  GListModel *problems = viva_pack_get_problems (pack);

  g_assert_cmpuint (g_list_model_get_n_items (problems), ==, 11);

  for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr(VivaProblem) problem = g_list_model_get_item (problems, i);
      g_autoptr(VivaGradeReport) reference = grade_problem (problem, viva_problem_get_reference (problem));
      g_autoptr(VivaGradeReport) starter = grade_problem (problem, viva_problem_get_starter_code (problem));
      guint n = viva_problem_get_n_tests (problem);

      g_test_message ("%s: %u tests, starter passes %u", viva_problem_get_id (problem), n,
                      viva_grade_report_get_n_passed (starter));
      g_assert_cmpuint (viva_problem_get_n_in_process_tests (problem), ==, 0);
      for (guint j = 0; j < n; j++)
        if (!viva_grade_report_get_test (reference, j)->passed)
          g_error ("%s, %s: %s", viva_problem_get_id (problem), viva_grade_report_get_test (reference, j)->name,
                   viva_grade_report_get_test (reference, j)->message);
      g_assert_true (viva_grade_report_get_passed (reference));
      g_assert_cmpuint (viva_grade_report_get_n_out_of_process (reference), ==, n);
      g_assert_false (viva_grade_report_get_passed (starter));
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  viva_core_init ();

  g_test_add_func ("/viva/grader/values", test_values);
  g_test_add_func ("/viva/grader/report-json", test_report_json);
  g_test_add_func ("/viva/grader/correct", test_correct);
  g_test_add_func ("/viva/grader/wrong-value", test_wrong_value);
  g_test_add_func ("/viva/grader/type-checked", test_type_checked);
  g_test_add_func ("/viva/grader/forged-frames", test_forged_frames);
  g_test_add_func ("/viva/grader/forged-deep-value", test_forged_deep_value);
  g_test_add_func ("/viva/grader/replaced-builtins", test_replaced_builtins);
  g_test_add_func ("/viva/grader/settrace", test_settrace);
  g_test_add_func ("/viva/grader/always-equal", test_always_equal);
  g_test_add_func ("/viva/grader/custom-class", test_custom_class);
  g_test_add_func ("/viva/grader/numpy", test_numpy);
  g_test_add_func ("/viva/grader/threads", test_threads);
  g_test_add_func ("/viva/grader/exit", test_exit);
  g_test_add_func ("/viva/grader/huge", test_huge);
  g_test_add_func ("/viva/grader/hook-does-not-survive", test_hook_does_not_survive);
  g_test_add_func ("/viva/grader/reference", test_reference);
  g_test_add_func ("/viva/grader/compare-types", test_compare_types);
  g_test_add_func ("/viva/grader/independent", test_independent);
  g_test_add_func ("/viva/grader/fresh-worker-per-test", test_fresh_worker_per_test);
  g_test_add_func ("/viva/grader/deadline", test_deadline);
  g_test_add_func ("/viva/grader/threshold", test_threshold);
  g_test_add_func ("/viva/grader/pack-structured", test_pack_structured);
  g_test_add_func ("/viva/grader/pack-old-format", test_pack_old_format);
  g_test_add_func ("/viva/grader/old-form-compile-hook", test_old_form_compile_hook);
  g_test_add_func ("/viva/grader/bundled", test_bundled);

  return g_test_run ();
}

/* bench-grader.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Grading all hidden tests of each bundled problem's reference, three ways
 * side by side in one run, rounds interleaved so that all see the same load:
 *
 * - per test: viva_problem_grade_async(), as Viva grades now: a fresh
 *   student worker per test, two at a time, one judge worker;
 * - one worker: the grader as it was before, rebuilt here from the same
 *   runner requests: one fresh student worker for all of a grading's tests
 *   (each in a fresh namespace), one judge;
 * - fork server, floor: what a fork server of a pristine interpreter could
 *   at best do, the one-worker time plus one fork of a pristine CPython per
 *   test (fork, exit and wait measured on the host's python3 with the boot
 *   module's imports; a child would also need its own channel and seccomp
 *   filter, which this leaves out, so it is a lower bound).
 *
 * Then one problem graded with code that sleeps at import, per test against
 * one worker, and the cold start of one sandboxed worker. Figures go to
 * tests/bench/RESULTS.md by hand. */

#include "config.h"

#include <gio/gio.h>
#include <stdlib.h>

#include "viva-core.h"
#include "viva-grader.h"
#include "viva-grader-value-private.h"
#include "viva-pack.h"
#include "viva-problem-grade.h"
#include "viva-run-result-private.h"
#include "viva-runner.h"
#include "viva-runner-op-private.h"
#include "viva-test-util.h"

#define ROUNDS 3

static GAsyncResult *
wait_for (GAsyncResult **result)
{
  while (*result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return *result;
}

static double
per_test_ms (VivaProblem *problem,
             const char  *code,
             guint       *n_passed)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(VivaGradeReport) report = NULL;
  g_autoptr(GError) error = NULL;
  gint64 start = g_get_monotonic_time ();
  double ms;

  viva_problem_grade_async (problem, code, NULL, viva_test_store_result, &result);
  report = viva_problem_grade_finish (problem, wait_for (&result), &error);
  ms = (g_get_monotonic_time () - start) / 1000.0;
  g_assert_no_error (error);
  *n_passed = viva_grade_report_get_n_passed (report);
  return ms;
}

/* The grader before: one student worker for every test of a grading. */
typedef struct
{
  VivaRunner *judge;
  GPtrArray  *tests;
  guint       done;
  guint       passed;
} OneWorker;

typedef struct
{
  OneWorker *state;
  guint      index;
} OneJob;

static void
one_judged_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  OneWorker *state = user_data;
  g_autoptr(VivaRunResult) judged = _viva_runner_judge_finish (VIVA_RUNNER (object), result, NULL);

  state->passed += judged != NULL && judged->status == VIVA_RUN_STATUS_OK;
  state->done++;
}

static void
one_called_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autofree OneJob *job = user_data;
  OneWorker *state = job->state;
  VivaGraderTest *test = g_ptr_array_index (state->tests, job->index);
  g_autoptr(VivaRunResult) value = _viva_runner_call_finish (VIVA_RUNNER (object), result, NULL);
  g_autofree char *text = NULL;

  if (value == NULL || value->status != VIVA_RUN_STATUS_OK ||
      _viva_grader_value_check (value->value, &text) != VIVA_GRADER_VALUE_OK)
    {
      state->done++;
      return;
    }
  _viva_runner_judge_async (state->judge, test->setup, test->check, text, NULL, FALSE, 0,
                            VIVA_GRADER_TIMEOUT_MS, NULL, one_judged_cb, state);
}

static double
one_worker_ms (VivaProblem *problem,
               const char  *code,
               guint       *n_passed)
{
  g_autoptr(VivaRunner) student = viva_runner_new ();
  g_autoptr(VivaRunner) judge = viva_runner_new ();
  g_autoptr(GPtrArray) tests = viva_problem_get_grader_tests (problem);
  OneWorker state = { judge, tests, 0, 0 };
  gint64 start = g_get_monotonic_time ();
  double ms;

  viva_runner_set_output_limit (student, 64 * 1024);
  viva_runner_set_output_limit (judge, 64 * 1024);
  viva_runner_start_async (judge, NULL, NULL, NULL);
  for (guint i = 0; i < tests->len; i++)
    {
      VivaGraderTest *test = g_ptr_array_index (tests, i);
      OneJob *job = g_new0 (OneJob, 1);

      job->state = &state;
      job->index = i;
      _viva_runner_call_async (student, code, test->setup, test->call, VIVA_GRADER_TIMEOUT_MS, NULL,
                               one_called_cb, job);
    }
  while (state.done < tests->len)
    g_main_context_iteration (NULL, TRUE);
  ms = (g_get_monotonic_time () - start) / 1000.0;
  *n_passed = state.passed;
  return ms;
}

/* Median µs of fork + _exit + waitpid of a pristine CPython. */
static double
fork_us (void)
{
  const char *script =
    "import io, json, linecache, math, os, sys, time, traceback, types\n"
    "samples = []\n"
    "for _ in range(200):\n"
    "    t = time.perf_counter()\n"
    "    pid = os.fork()\n"
    "    if pid == 0:\n"
    "        os._exit(0)\n"
    "    os.waitpid(pid, 0)\n"
    "    samples.append((time.perf_counter() - t) * 1e6)\n"
    "samples.sort()\n"
    "print(samples[len(samples) // 2])\n";
  g_autoptr(GSubprocess) proc = NULL;
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;

  proc = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error, "/usr/bin/python3", "-I", "-c", script, NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, &out, NULL, &error);
  g_assert_no_error (error);
  return g_ascii_strtod (out, NULL);
}

static double
cold_start_ms (void)
{
  g_autoptr(VivaRunner) runner = viva_runner_new ();
  g_autoptr(GAsyncResult) started = NULL;
  gint64 start = g_get_monotonic_time ();

  viva_runner_start_async (runner, NULL, viva_test_store_result, &started);
  g_assert_true (viva_runner_start_finish (runner, wait_for (&started), NULL));
  return (g_get_monotonic_time () - start) / 1000.0;
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

static double
median (GArray *values)
{
  g_array_sort (values, compare_doubles);
  return g_array_index (values, double, values->len / 2);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(VivaPack) pack = NULL;
  g_autoptr(GArray) all_per_test = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) all_one = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) all_fork = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) starts = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(VivaProblem) knn = NULL;
  GListModel *problems;
  double fork_ms = fork_us () / 1000.0;

  viva_core_init ();
  pack = viva_pack_new_bundled ();
  problems = viva_pack_get_problems (pack);

  /* Warm the font cache and the page cache once. */
  {
    g_autoptr(VivaProblem) first = g_list_model_get_item (problems, 0);
    guint unused;

    per_test_ms (first, viva_problem_get_reference (first), &unused);
  }

  g_print ("fork of a pristine CPython: %.2f ms (median)\n", fork_ms);
  g_print ("%-24s %5s %12s %12s %12s %9s %9s\n", "problem", "tests", "per-test ms", "one-wkr ms",
           "fork floor", "per/one", "fork/one");
  for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr(VivaProblem) problem = g_list_model_get_item (problems, i);
      g_autoptr(GArray) per_test = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr(GArray) one = g_array_new (FALSE, FALSE, sizeof (double));
      guint n = viva_problem_get_n_tests (problem);
      double p, o, f;

      if (g_str_equal (viva_problem_get_id (problem), "knn"))
        knn = g_object_ref (problem);

      for (guint r = 0; r < ROUNDS; r++)
        {
          guint passed_per_test, passed_one;
          double ms;

          ms = per_test_ms (problem, viva_problem_get_reference (problem), &passed_per_test);
          g_array_append_val (per_test, ms);
          ms = one_worker_ms (problem, viva_problem_get_reference (problem), &passed_one);
          g_array_append_val (one, ms);
          if (passed_per_test != n || passed_one != n)
            g_error ("%s: the reference passes %u (per test) and %u (one worker) of %u",
                     viva_problem_get_id (problem), passed_per_test, passed_one, n);
        }

      p = median (per_test);
      o = median (one);
      f = o + n * fork_ms;
      g_array_append_val (all_per_test, p);
      g_array_append_val (all_one, o);
      g_array_append_val (all_fork, f);
      g_print ("%-24s %5u %12.0f %12.0f %12.0f %8.2fx %8.2fx\n", viva_problem_get_id (problem), n, p, o, f,
               p / o, f / o);
    }

  g_print ("median over problems: per test %.0f ms, one worker %.0f ms, fork floor %.0f ms\n",
           median (all_per_test), median (all_one), median (all_fork));

  for (guint r = 0; r < 5; r++)
    {
      double ms = cold_start_ms ();

      g_array_append_val (starts, ms);
    }
  g_print ("cold start of one sandboxed worker: %.0f ms (median of 5)\n", median (starts));

  /* Code that sleeps at import: every test waits out its 5 s. */
  if (knn != NULL)
    {
      g_autofree char *sleepy = g_strdup_printf ("import time\ntime.sleep(600)\n%s",
                                                 viva_problem_get_reference (knn));
      guint passed_per_test, passed_one;
      double p = per_test_ms (knn, sleepy, &passed_per_test);
      double o = one_worker_ms (knn, sleepy, &passed_one);

      g_assert_cmpuint (passed_per_test, ==, 0);
      g_assert_cmpuint (passed_one, ==, 0);
      g_print ("knn, code that sleeps at import: per test %.1f s, one worker %.1f s (%.2fx)\n",
               p / 1000, o / 1000, p / o);
    }

  return 0;
}

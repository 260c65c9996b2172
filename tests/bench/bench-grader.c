/* bench-grader.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Grading all hidden tests of each bundled problem: fresh workers for the
 * student, the reference and the judge, every test judged outside the
 * student's process. Beside it, the old way for a ratio: one warm worker
 * that runs each test's in-process form after the code. Prints one line a
 * problem and the medians; figures go to tests/bench/RESULTS.md by hand. */

#include "config.h"

#include <gio/gio.h>

#include "viva-core.h"
#include "viva-pack.h"
#include "viva-problem-grade.h"
#include "viva-runner.h"
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
grade_ms (VivaProblem *problem)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(VivaGradeReport) report = NULL;
  g_autoptr(GError) error = NULL;
  gint64 start = g_get_monotonic_time ();

  viva_problem_grade_async (problem, viva_problem_get_reference (problem), NULL, viva_test_store_result, &result);
  report = viva_problem_grade_finish (problem, wait_for (&result), &error);
  g_assert_no_error (error);
  if (!viva_grade_report_get_passed (report))
    g_error ("%s: the reference does not pass", viva_problem_get_id (problem));
  return (g_get_monotonic_time () - start) / 1000.0;
}

/* The old way: the tests in the student's process, one warm worker. */
static double
in_process_ms (VivaRunner  *runner,
               VivaProblem *problem)
{
  gint64 start = g_get_monotonic_time ();

  for (guint i = 0; i < viva_problem_get_n_tests (problem); i++)
    {
      g_autoptr(GAsyncResult) reset = NULL;
      g_autoptr(GAsyncResult) result = NULL;
      g_autoptr(VivaRunResult) run = NULL;

      viva_runner_reset_async (runner, FALSE, NULL, viva_test_store_result, &reset);
      g_assert_true (viva_runner_reset_finish (runner, wait_for (&reset), NULL));
      viva_runner_inject_async (runner, viva_problem_get_reference (problem),
                                viva_problem_get_test (problem, i)->code, 0, NULL, viva_test_store_result, &result);
      run = viva_runner_inject_finish (runner, wait_for (&result), NULL);
      g_assert_nonnull (run);
    }
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
  g_autoptr(VivaRunner) runner = NULL;
  g_autoptr(GArray) all_graded = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) all_old = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GAsyncResult) started = NULL;
  GListModel *problems;
  double worst = 0;

  viva_core_init ();
  pack = viva_pack_new_bundled ();
  problems = viva_pack_get_problems (pack);
  runner = viva_runner_new ();
  viva_runner_start_async (runner, NULL, viva_test_store_result, &started);
  g_assert_true (viva_runner_start_finish (runner, wait_for (&started), NULL));

  g_print ("%-24s %6s %14s %14s %7s\n", "problem", "tests", "grader ms", "in-process ms", "ratio");
  for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr(VivaProblem) problem = g_list_model_get_item (problems, i);
      g_autoptr(GArray) graded = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr(GArray) old = g_array_new (FALSE, FALSE, sizeof (double));
      double g, o;

      /* Interleaved, so both see the same load. */
      for (guint r = 0; r < ROUNDS; r++)
        {
          double ms = grade_ms (problem);

          g_array_append_val (graded, ms);
          ms = in_process_ms (runner, problem);
          g_array_append_val (old, ms);
        }

      g = median (graded);
      o = median (old);
      worst = MAX (worst, g);
      g_array_append_val (all_graded, g);
      g_array_append_val (all_old, o);
      g_print ("%-24s %6u %14.0f %14.0f %6.1fx\n", viva_problem_get_id (problem),
               viva_problem_get_n_tests (problem), g, o, g / o);
    }

  g_print ("median over problems: grader %.0f ms, in-process %.0f ms; slowest problem %.0f ms (goal < 1000 ms)\n",
           median (all_graded), median (all_old), worst);
  return 0;
}

/* bench-check.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Check against Run for the same code, side by side in one run, rounds
 * interleaved so both see the same load (issue 30). For each bundled
 * problem's reference solution:
 *
 * - Run, warm: viva_runner_run_async() on a worker that is already up, as
 *   the window's Run is after the first (the worker starts while the
 *   student reads the problem);
 * - Run, cold: a fresh runner started and then run, as the first Run of a
 *   session or one after Python was restarted;
 * - Check: viva_problem_check_async(), the problem's shown tests through
 *   the grader (a fresh worker per test, two at a time, a judge, the
 *   reference's worker when a test compares), as the Check button does.
 *
 * Figures go to tests/bench/RESULTS.md by hand. */

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
run_ms (VivaRunner *runner,
        const char *code)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(VivaRunResult) run = NULL;
  g_autoptr(GError) error = NULL;
  gint64 start = g_get_monotonic_time ();

  viva_runner_run_async (runner, code, 30000, NULL, viva_test_store_result, &result);
  run = viva_runner_run_finish (runner, wait_for (&result), &error);
  g_assert_no_error (error);
  g_assert_cmpint (viva_run_result_get_status (run), ==, VIVA_RUN_STATUS_OK);
  return (g_get_monotonic_time () - start) / 1000.0;
}

static double
cold_run_ms (const char *code)
{
  g_autoptr(VivaRunner) runner = viva_runner_new ();
  g_autoptr(GAsyncResult) result = NULL;
  gint64 start = g_get_monotonic_time ();
  double ms;

  viva_runner_start_async (runner, NULL, viva_test_store_result, &result);
  g_assert_true (viva_runner_start_finish (runner, wait_for (&result), NULL));
  ms = (g_get_monotonic_time () - start) / 1000.0;
  return ms + run_ms (runner, code);
}

static double
check_ms (VivaProblem *problem,
          const char  *code)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(VivaGradeReport) report = NULL;
  g_autoptr(GError) error = NULL;
  gint64 start = g_get_monotonic_time ();
  double ms;

  viva_problem_check_async (problem, code, NULL, viva_test_store_result, &result);
  report = viva_problem_grade_finish (problem, wait_for (&result), &error);
  ms = (g_get_monotonic_time () - start) / 1000.0;
  g_assert_no_error (error);
  g_assert_cmpuint (viva_grade_report_get_n_passed (report), ==, viva_grade_report_get_n_tests (report));
  return ms;
}

static int
compare_double (gconstpointer a,
                gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static double
median (GArray *values)
{
  g_array_sort (values, compare_double);
  return g_array_index (values, double, values->len / 2);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(VivaPack) pack = NULL;
  g_autoptr(VivaRunner) warm = NULL;
  g_autoptr(GArray) all_warm = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) all_cold = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) all_check = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) all_ratio = g_array_new (FALSE, FALSE, sizeof (double));
  GListModel *problems;

  viva_core_init ();
  pack = viva_pack_new_bundled ();
  problems = viva_pack_get_problems (pack);

  warm = viva_runner_new ();
  run_ms (warm, "pass\n");

  g_print ("| problem | shown tests | Run, warm (ms) | Run, cold (ms) | Check (ms) | Check / warm Run | Check / cold Run |\n");
  g_print ("|---|---|---|---|---|---|---|\n");
  for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr(VivaProblem) problem = g_list_model_get_item (problems, i);
      const char *code = viva_problem_get_reference (problem);
      g_autoptr(GArray) w = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr(GArray) c = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr(GArray) k = g_array_new (FALSE, FALSE, sizeof (double));
      double mw, mc, mk;

      if (viva_problem_get_n_shown_tests (problem) == 0 || code == NULL)
        continue;

      /* Interleaved: each round measures all three, in turn. */
      for (guint r = 0; r < ROUNDS; r++)
        {
          double one;

          one = run_ms (warm, code);
          g_array_append_val (w, one);
          one = check_ms (problem, code);
          g_array_append_val (k, one);
          one = cold_run_ms (code);
          g_array_append_val (c, one);
        }

      mw = median (w);
      mc = median (c);
      mk = median (k);
      g_array_append_val (all_warm, mw);
      g_array_append_val (all_cold, mc);
      g_array_append_val (all_check, mk);
      {
        double ratio = mk / MAX (mw, 0.001);

        g_array_append_val (all_ratio, ratio);
      }
      g_print ("| %s | %u | %.0f | %.0f | %.0f | %.0fx | %.1fx |\n", viva_problem_get_id (problem),
               viva_problem_get_n_shown_tests (problem), mw, mc, mk, mk / MAX (mw, 0.001), mk / MAX (mc, 0.001));
    }

  g_print ("| **median of the problems** | | %.0f | %.0f | %.0f | %.0fx | %.1fx |\n",
           median (all_warm), median (all_cold), median (all_check), median (all_ratio),
           median (all_check) / MAX (median (all_cold), 0.001));
  {
    g_autofree char *load = NULL;

    if (g_file_get_contents ("/proc/loadavg", &load, NULL, NULL))
      g_print ("\nload average: %s", load);
  }
  return 0;
}

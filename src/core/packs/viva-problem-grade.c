/* viva-problem-grade.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-grader.h"
#include "viva-problem-grade.h"

/* A problem's hidden tests through the runner's grader: the one way the
 * engine, the pack checker, class re-grading and the eval decide whether
 * code passes. The runner knows nothing of packs, so the tests cross as
 * plain specs. */

/**
 * viva_problem_get_grader_tests:
 *
 * Each call draws a new seed: every structured test's setup runs with
 * `seed` bound to it, the same in the student's, the reference's and the
 * judge's worker, so a test that builds its inputs from `seed` has inputs
 * no earlier grading showed (a hard-coded answer cannot pass it).
 *
 * Returns: (transfer full) (element-type VivaGraderTest): @problem's tests
 *   as the grader takes them
 */
GPtrArray *
viva_problem_get_grader_tests (VivaProblem *problem)
{
  g_return_val_if_fail (VIVA_IS_PROBLEM (problem), NULL);

  return viva_problem_get_grader_tests_seeded (problem, g_random_int_range (0, G_MAXINT32));
}

/**
 * viva_problem_get_grader_tests_seeded:
 * @seed: the value of `seed` in every setup
 *
 * Returns: (transfer full) (element-type VivaGraderTest): as
 *   viva_problem_get_grader_tests(), with a seed of the caller's
 */
GPtrArray *
viva_problem_get_grader_tests_seeded (VivaProblem *problem,
                                      guint        seed)
{
  GPtrArray *tests;

  g_return_val_if_fail (VIVA_IS_PROBLEM (problem), NULL);

  tests = g_ptr_array_new_with_free_func ((GDestroyNotify) viva_grader_test_free);
  for (guint i = 0; i < viva_problem_get_n_tests (problem); i++)
    {
      const VivaProblemTest *test = viva_problem_get_test (problem, i);

      if (viva_problem_test_is_structured (test))
        {
          /* One line, so a setup's own line numbers are off by one only. */
          g_autofree char *setup = g_strdup_printf ("seed = %u\n%s", seed, test->setup ? test->setup : "");

          g_ptr_array_add (tests, viva_grader_test_new_structured (test->name, setup, test->call,
                                                                   test->check, test->compare,
                                                                   test->tolerance));
        }
      else
        g_ptr_array_add (tests, viva_grader_test_new_legacy (test->name, test->code ? test->code : ""));
    }

  return tests;
}

static void
viva_problem_grade_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  VivaGradeReport *report;

  if (!(report = viva_grader_grade_finish (VIVA_GRADER (object), result, &error)))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, report, g_object_unref);
}

/**
 * viva_problem_grade_async:
 * @code: the code to grade
 *
 * Runs every hidden test of @problem on @code through a #VivaGrader, in
 * fresh workers (never the editor's). The problem's reference solution only
 * runs in a worker of its own. Main thread only.
 */
void
viva_problem_grade_async (VivaProblem         *problem,
                          const char          *code,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(VivaGrader) grader = viva_grader_new ();
  g_autoptr(GPtrArray) tests = NULL;
  GTask *task;

  g_return_if_fail (VIVA_IS_PROBLEM (problem));
  g_return_if_fail (code != NULL);

  task = g_task_new (problem, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_problem_grade_async);

  tests = viva_problem_get_grader_tests (problem);
  viva_grader_grade_async (grader, code, viva_problem_get_reference (problem), tests,
                           viva_problem_get_pass_threshold (problem), cancellable,
                           viva_problem_grade_cb, task);
}

/**
 * viva_problem_grade_finish:
 *
 * Returns: (transfer full): the grade; %NULL with @error only when
 *   cancelled
 */
VivaGradeReport *
viva_problem_grade_finish (VivaProblem   *problem,
                           GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (VIVA_IS_PROBLEM (problem), NULL);
  g_return_val_if_fail (g_task_is_valid (result, problem), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

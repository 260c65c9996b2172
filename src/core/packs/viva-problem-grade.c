/* viva-problem-grade.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

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

/* What of a grade may leave the grader: a held-out test's name and
 * pass/fail (and the kind of failure), never its message, which is the
 * check's assert message (it may name the expected value) or an error the
 * student's code raised (it may quote the held-out inputs). */
static VivaGradeReport *
redact (VivaProblem     *problem,
        VivaGradeReport *report)
{
  VivaGradeReport *redacted = viva_grade_report_new (viva_grade_report_get_pass_threshold (report));
  guint n = viva_grade_report_get_n_tests (report);

  for (guint i = 0; i < n; i++)
    {
      const VivaGradeTest *test = viva_grade_report_get_test (report, i);
      gboolean shown = i < viva_problem_get_n_tests (problem) &&
                       viva_problem_test_is_shown (viva_problem_get_test (problem, i));
      const char *message = test->message;

      if (!shown)
        message = test->passed ? "" : _("This test is held out: Viva says only whether it passed, "
                                        "never its input, its check or why it failed.");
      viva_grade_report_add_test (redacted,
                                  viva_grade_test_new (test->name, test->passed, test->out_of_process,
                                                       test->status, message));
    }

  return redacted;
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
  else if (g_task_get_task_data (task) != NULL)
    g_task_return_pointer (task, report, g_object_unref);
  else
    {
      g_task_return_pointer (task, redact (g_task_get_source_object (task), report), g_object_unref);
      g_object_unref (report);
    }
}

static void
grade_async (VivaProblem         *problem,
             const char          *code,
             gboolean             full,
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
  /* Any non-NULL data: the teacher's grade, messages and all. */
  g_task_set_task_data (task, full ? GINT_TO_POINTER (1) : NULL, NULL);

  tests = viva_problem_get_grader_tests (problem);
  viva_grader_grade_async (grader, code, viva_problem_get_reference (problem), tests,
                           viva_problem_get_pass_threshold (problem), cancellable,
                           viva_problem_grade_cb, task);
}

/**
 * viva_problem_grade_async:
 * @code: the code to grade
 *
 * Runs every hidden test of @problem on @code through a #VivaGrader, in
 * fresh workers (never the editor's). The problem's reference solution only
 * runs in a worker of its own. What a student or the examiner may see: a
 * held-out test's message is replaced by a sentence saying it is held out.
 * Main thread only.
 */
void
viva_problem_grade_async (VivaProblem         *problem,
                          const char          *code,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  grade_async (problem, code, FALSE, cancellable, callback, user_data);
}

/**
 * viva_problem_grade_for_author_async:
 *
 * As viva_problem_grade_async(), with every test's message: for the pack's
 * author checking it (`pack validate --run`), never for a student's eyes.
 * Finish with viva_problem_grade_finish().
 */
void
viva_problem_grade_for_author_async (VivaProblem         *problem,
                                     const char          *code,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  grade_async (problem, code, TRUE, cancellable, callback, user_data);
}

/**
 * viva_problem_grade_redact:
 * @report: a teacher's grade of @problem (viva_problem_grade_for_author_async())
 *
 * What of @report a student or the examiner may see, as
 * viva_problem_grade_async() gives it: the exam server grades once, for
 * the teacher, and hands the defense this.
 *
 * Returns: (transfer full): a new report
 */
VivaGradeReport *
viva_problem_grade_redact (VivaProblem     *problem,
                           VivaGradeReport *report)
{
  g_return_val_if_fail (VIVA_IS_PROBLEM (problem), NULL);
  g_return_val_if_fail (VIVA_IS_GRADE_REPORT (report), NULL);

  return redact (problem, report);
}

/**
 * viva_problem_get_check_tests:
 *
 * The shown tests only, as the grader takes them, with a new seed as for
 * a grading.
 *
 * Returns: (transfer full) (element-type VivaGraderTest): what Check runs
 */
GPtrArray *
viva_problem_get_check_tests (VivaProblem *problem)
{
  g_autoptr(GPtrArray) all = NULL;
  GPtrArray *tests;

  g_return_val_if_fail (VIVA_IS_PROBLEM (problem), NULL);

  all = viva_problem_get_grader_tests (problem);
  tests = g_ptr_array_new_with_free_func ((GDestroyNotify) viva_grader_test_free);
  for (guint i = 0; i < all->len && i < viva_problem_get_n_tests (problem); i++)
    if (viva_problem_test_is_shown (viva_problem_get_test (problem, i)))
      g_ptr_array_add (tests, viva_grader_test_copy (g_ptr_array_index (all, i)));

  return tests;
}

/**
 * viva_problem_check_async:
 * @code: the student's code
 *
 * Check: runs only @problem's shown tests on @code through a #VivaGrader,
 * exactly as a grading does (fresh workers, the check in the judge), and
 * keeps each test's message, since a shown test is an example the student
 * may see whole. Every shown test must pass, whatever the pack's
 * threshold. Finish with viva_problem_grade_finish(). Main thread only.
 */
void
viva_problem_check_async (VivaProblem         *problem,
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
  /* Nothing to redact: every test here is shown. */
  g_task_set_task_data (task, GINT_TO_POINTER (1), NULL);

  tests = viva_problem_get_check_tests (problem);
  viva_grader_grade_async (grader, code, viva_problem_get_reference (problem), tests, 0,
                           cancellable, viva_problem_grade_cb, task);
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

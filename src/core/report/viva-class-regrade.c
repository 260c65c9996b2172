/* viva-class-regrade.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-class-regrade.h"
#include "viva-problem-grade.h"

/* Re-grading one submission on the teacher's machine: the report's final
 * code through the grader (packs/viva-problem-grade.h) against the hidden
 * tests of the teacher's copy of the problem — each grading in fresh
 * sandboxed workers, the pass/fail of each test decided where no student
 * code ran — with the result as the grade report's JSON (`passed`, `total`,
 * `out_of_process`, `pass`, `tests`), the shape reports record. */

static void
grade_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(VivaGradeReport) report = NULL;
  g_autoptr(GError) error = NULL;

  if (!(report = viva_problem_grade_finish (VIVA_PROBLEM (object), result, &error)))
    return g_task_return_error (task, g_steal_pointer (&error));

  g_task_return_pointer (task, viva_grade_report_to_json (report), (GDestroyNotify)json_node_unref);
}

/**
 * viva_class_regrade_async:
 * @problem: the teacher's copy of the problem
 * @code: the report's final code
 *
 * Grades @code against every hidden test of @problem.
 */
void
viva_class_regrade_async (VivaProblem         *problem,
                          const char          *code,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (VIVA_IS_PROBLEM (problem));
  g_return_if_fail (code != NULL);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_class_regrade_async);
  viva_problem_grade_async (problem, code, cancellable, grade_cb, g_steal_pointer (&task));
}

/**
 * viva_class_regrade_finish:
 *
 * Returns: (transfer full): the grade report's JSON, or %NULL with @error
 *   set when the grader could not run
 */
JsonNode *
viva_class_regrade_finish (GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

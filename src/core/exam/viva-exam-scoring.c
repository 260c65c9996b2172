/* viva-exam-scoring.c: the items a verdict's score is made of
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-exam-scoring.h"

/* Pure functions: facts in, items out. The hidden tests share their weight
 * equally; each is the grader's fact, which no model can change. */

/**
 * _viva_exam_scoring_test_items:
 * @grade: (nullable): the engine's grade; %NULL when the grader failed
 * @weight: the points of 100 the tests share
 *
 * Returns: (transfer full) (element-type VivaExamItem): one item per test
 */
GPtrArray *
_viva_exam_scoring_test_items (VivaProblem     *problem,
                               VivaGradeReport *grade,
                               const char      *grade_error,
                               double           weight)
{
  GPtrArray *items = g_ptr_array_new_with_free_func ((GDestroyNotify)viva_exam_item_free);
  guint n = viva_problem_get_n_tests (problem);

  for (guint i = 0; i < n; i++)
    {
      const VivaProblemTest *test = viva_problem_get_test (problem, i);
      const VivaGradeTest *graded = NULL;
      g_autofree char *id = g_strdup_printf ("test:%s", test->name);
      VivaExamItem *item = viva_exam_item_new (VIVA_EXAM_ITEM_ENGINE_TEST, id, test->name, weight / n);

      for (guint j = 0; grade != NULL && j < viva_grade_report_get_n_tests (grade) && graded == NULL; j++)
        if (g_strcmp0 (viva_grade_report_get_test (grade, j)->name, test->name) == 0)
          graded = viva_grade_report_get_test (grade, j);

      viva_exam_item_add_score (item, graded && graded->passed ? item->max_points : 0);
      if (graded == NULL)
        item->reason = g_strdup (grade_error ? grade_error : _("The test was not run."));
      else if (graded->passed)
        item->reason = g_strdup (viva_problem_test_is_shown (test) ? _("The shown test passed.")
                                                                     : _("The held-out test passed."));
      else
        item->reason = g_strdup (graded->message && graded->message[0] ? graded->message : _("The test failed."));
      g_ptr_array_add (items, item);
    }

  return items;
}

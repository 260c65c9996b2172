/* viva-exam-scoring.c: the items a verdict's score is made of
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-exam-plan.h"
#include "viva-exam-protocol.h"
#include "viva-exam-scoring.h"
#include "viva-problem-exam.h"

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

/* The answered steps that asked a planned item of @kind. */
static GPtrArray *
asked_steps (GPtrArray        *steps,
             VivaExamItemKind  kind)
{
  GPtrArray *asked = g_ptr_array_new ();

  for (guint i = 0; steps != NULL && i < steps->len; i++)
    {
      VivaExamStep *step = g_ptr_array_index (steps, i);
      const char *item = step->ok && step->result ? json_object_get_string_member_with_default (step->result, "item", NULL) : NULL;
      const char *item_kind = item ? json_object_get_string_member_with_default (step->result, "kind", "") : "";

      if (item != NULL && g_strcmp0 (item_kind, viva_exam_item_kind_to_string (kind)) == 0)
        g_ptr_array_add (asked, step);
    }

  return asked;
}

static VivaExamItem *
prediction_item (VivaExamStep *step,
                 double        weight)
{
  JsonObject *result = step->result;
  JsonObject *judgment = json_object_has_member (result, "judgment") &&
                         JSON_NODE_HOLDS_OBJECT (json_object_get_member (result, "judgment"))
                       ? json_object_get_object_member (result, "judgment") : NULL;
  g_autofree char *id = g_strdup_printf ("prediction:%s", json_object_get_string_member (result, "item"));
  VivaExamItem *item = viva_exam_item_new (VIVA_EXAM_ITEM_PREDICTION, id,
                                           json_object_get_string_member_with_default (result, "call", NULL),
                                           weight);
  const char *outcome = judgment ? json_object_get_string_member_with_default (judgment, "outcome", "") : "";

  item->step = g_strdup (step->id);
  item->answer = g_strdup (json_object_get_string_member_with_default (result, "answer", NULL));
  viva_exam_item_add_score (item, g_str_equal (outcome, "right") ? weight : 0);
  if (judgment != NULL)
    {
      item->expected = g_strdup (json_object_get_string_member_with_default (judgment, "expected", NULL));
      item->reason = g_strdup (json_object_get_string_member_with_default (judgment, "reason", NULL));
    }
  else
    item->reason = g_strdup (_("The answer could not be judged."));

  return item;
}

/**
 * _viva_exam_scoring_build_items:
 * @grade: (nullable): the engine's grade
 * @plan: (element-type VivaExamPlanItem) (nullable): the defense's plan
 * @steps: (element-type VivaExamStep): the steps that ran
 *
 * The hidden tests, the predictions asked (judged by the engine when the
 * student answered) and the conceptual questions asked (not scored yet:
 * see VivaExamScorer), each part sharing its weight; a part with nothing
 * asked gives its points to the tests, so the maxima add up to 100.
 *
 * Returns: (transfer full) (element-type VivaExamItem): the items
 */
GPtrArray *
_viva_exam_scoring_build_items (VivaProblem     *problem,
                                VivaGradeReport *grade,
                                const char      *grade_error,
                                GPtrArray       *plan,
                                GPtrArray       *steps)
{
  g_autoptr(GPtrArray) predictions = asked_steps (steps, VIVA_EXAM_ITEM_PREDICTION);
  g_autoptr(GPtrArray) questions = asked_steps (steps, VIVA_EXAM_ITEM_CONCEPTUAL);
  VivaProblemWeights weights;
  GPtrArray *items;

  viva_problem_get_weights (problem, &weights);
  if (predictions->len == 0)
    weights.tests += weights.predictions;
  if (questions->len == 0)
    weights.tests += weights.questions;

  items = _viva_exam_scoring_test_items (problem, grade, grade_error, weights.tests);
  for (guint i = 0; i < predictions->len; i++)
    g_ptr_array_add (items, prediction_item (g_ptr_array_index (predictions, i),
                                             weights.predictions / predictions->len));
  for (guint i = 0; i < questions->len; i++)
    {
      VivaExamStep *step = g_ptr_array_index (questions, i);
      const char *id = json_object_get_string_member (step->result, "item");
      const VivaExamPlanItem *planned = viva_exam_plan_find (plan, id);
      g_autofree char *item_id = g_strdup_printf ("conceptual:%s", id);
      VivaExamItem *item = viva_exam_item_new (VIVA_EXAM_ITEM_CONCEPTUAL, item_id,
                                               planned ? planned->text : NULL,
                                               weights.questions / questions->len);

      item->step = g_strdup (step->id);
      item->answer = g_strdup (json_object_get_string_member_with_default (step->result, "answer", NULL));
      g_ptr_array_add (items, item);
    }

  return items;
}

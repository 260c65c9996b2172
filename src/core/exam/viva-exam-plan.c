/* viva-exam-plan.c: which questions a defense asks, chosen by the engine
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-exam-plan.h"
#include "viva-exam-private.h"
#include "viva-exam-protocol.h"
#include "viva-problem-exam.h"

/* Pacing in code, not in the prompt: from the pack's `ask` ranges, a seed
 * per defense draws how many conceptual questions and predictions to ask,
 * which ones, and each prediction's inputs. The same seed (the defense's
 * creation time) gives the same plan on resume. */

void
viva_exam_plan_item_free (VivaExamPlanItem *self)
{
  if (self == NULL)
    return;

  g_free (self->id);
  g_free (self->text);
  g_free (self->source_id);
  g_free (self);
}

/* The first @n of 0…@len-1 in a random order. */
static GArray *
draw_indices (GRand *rand,
              guint  len,
              guint  n)
{
  GArray *indices = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint i = 0; i < len; i++)
    g_array_append_val (indices, i);
  for (guint i = 0; i + 1 < len; i++)
    {
      guint j = g_rand_int_range (rand, i, len);
      guint swap = g_array_index (indices, guint, i);

      g_array_index (indices, guint, i) = g_array_index (indices, guint, j);
      g_array_index (indices, guint, j) = swap;
    }
  g_array_set_size (indices, MIN (n, len));

  return indices;
}

/**
 * viva_exam_plan_new:
 * @seed: the defense's own
 *
 * Returns: (transfer full) (element-type VivaExamPlanItem): the questions
 *   to ask, in order: the conceptual questions, then the predictions
 */
GPtrArray *
viva_exam_plan_new (VivaProblem *problem,
                    guint32      seed)
{
  GPtrArray *plan = g_ptr_array_new_with_free_func ((GDestroyNotify)viva_exam_plan_item_free);
  g_autoptr(GPtrArray) predictions = viva_problem_get_predictions (problem);
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  g_autoptr(GArray) chosen = NULL;
  VivaProblemAsks asks;
  guint n;

  g_return_val_if_fail (VIVA_IS_PROBLEM (problem), plan);

  viva_problem_get_asks (problem, &asks);

  n = asks.min_questions + (guint)g_rand_int_range (rand, 0, asks.max_questions - asks.min_questions + 1);
  chosen = draw_indices (rand, viva_problem_get_n_questions (problem), n);
  for (guint i = 0; i < chosen->len; i++)
    {
      guint index = g_array_index (chosen, guint, i);
      VivaExamPlanItem *item = g_new0 (VivaExamPlanItem, 1);

      item->id = g_strdup_printf ("Q%u", index + 1);
      item->kind = VIVA_EXAM_ITEM_CONCEPTUAL;
      item->text = g_strdup (viva_problem_get_question (problem, index)->question);
      item->question_index = index;
      g_ptr_array_add (plan, item);
    }
  g_clear_pointer (&chosen, g_array_unref);

  n = asks.min_predictions + (guint)g_rand_int_range (rand, 0, asks.max_predictions - asks.min_predictions + 1);
  chosen = draw_indices (rand, predictions->len, n);
  for (guint i = 0; i < chosen->len; i++)
    {
      const VivaProblemPrediction *prediction = g_ptr_array_index (predictions, g_array_index (chosen, guint, i));
      VivaExamPlanItem *item = g_new0 (VivaExamPlanItem, 1);

      item->id = g_strdup_printf ("P%u", i + 1);
      item->kind = VIVA_EXAM_ITEM_PREDICTION;
      item->text = viva_problem_prediction_draw (prediction, rand);
      item->source_id = g_strdup (prediction->id);
      item->tolerance = prediction->tolerance;
      item->unordered = prediction->unordered;
      g_ptr_array_add (plan, item);
    }

  return plan;
}

const VivaExamPlanItem *
viva_exam_plan_find (GPtrArray  *plan,
                     const char *id)
{
  for (guint i = 0; plan != NULL && id != NULL && i < plan->len; i++)
    if (g_str_equal (((VivaExamPlanItem *)g_ptr_array_index (plan, i))->id, id))
      return g_ptr_array_index (plan, i);

  return NULL;
}

/**
 * viva_exam_plan_item_to_json:
 *
 * Returns: (transfer full): `{item, kind, call}` or `{item, kind,
 *   question}`, as the model, the offline examiner and `--answer-with` read it
 */
JsonObject *
viva_exam_plan_item_to_json (const VivaExamPlanItem *self)
{
  JsonObject *object = json_object_new ();

  json_object_set_string_member (object, "item", self->id);
  json_object_set_string_member (object, "kind", viva_exam_item_kind_to_string (self->kind));
  json_object_set_string_member (object, self->kind == VIVA_EXAM_ITEM_PREDICTION ? "call" : "question",
                                 self->text);

  return object;
}

/**
 * viva_exam_plan_message:
 *
 * Returns: (transfer full) (nullable): the exam system's message that
 *   hands the plan to the model (in English, like every instruction to
 *   it), with the plan as JSON at its end; %NULL for an empty plan
 */
char *
viva_exam_plan_message (GPtrArray *plan)
{
  g_autoptr(JsonArray) array = json_array_new ();
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_ARRAY);
  g_autofree char *json = NULL;

  if (plan == NULL || plan->len == 0)
    return NULL;

  for (guint i = 0; i < plan->len; i++)
    json_array_add_object_element (array, viva_exam_plan_item_to_json (g_ptr_array_index (plan, i)));
  json_node_set_array (node, array);
  json = json_to_string (node, FALSE);

  return g_strdup_printf ("%s: the questions of this defense, chosen by the engine. After probing, ask "
                          "them one at a time, in this order, each with askStudent and its \"item\": "
                          "write the question in your own words; for a prediction, ask what the call "
                          "returns (or which exception it raises): the student sees the call under your "
                          "question, and the engine runs it on their code and judges the answer. Do not "
                          "say whether an answer was right. Finish only after the last one.\n"
                          "```json\n%s\n```", VIVA_EXAM_SYSTEM_PREFIX, json);
}

/**
 * viva_exam_plan_shown_question:
 * @item: (nullable): the plan item the question asks
 *
 * Returns: (transfer full): what the student reads: the examiner's words,
 *   and for a prediction the call under them, exactly as it will run
 */
char *
viva_exam_plan_shown_question (const VivaExamPlanItem *item,
                               const char             *question)
{
  if (item == NULL || item->kind != VIVA_EXAM_ITEM_PREDICTION)
    return g_strdup (question);

  return g_strdup_printf ("%s\n\n    %s", question, item->text);
}

/**
 * viva_exam_plan_asks_several:
 *
 * Returns: whether @question holds more than one question mark outside
 *   code (`…`), which is two questions at once
 */
gboolean
viva_exam_plan_asks_several (const char *question)
{
  gboolean in_code = FALSE;
  guint marks = 0;

  for (const char *p = question; p && *p; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c == '`')
        in_code = !in_code;
      else if (!in_code && (c == '?' || c == 0xFF1F))
        marks++;
    }

  return marks > 1;
}

/* The plan item a step asked, if it was answered. */
static const char *
asked_item (const VivaExamStep *step)
{
  if (!step->ok || step->result == NULL)
    return NULL;

  return json_object_get_string_member_with_default (step->result, "item", NULL);
}

/**
 * viva_exam_plan_next:
 * @steps: (element-type VivaExamStep): the steps that ran
 *
 * Returns: (nullable): the first planned item no answered step asked
 */
const VivaExamPlanItem *
viva_exam_plan_next (GPtrArray *plan,
                     GPtrArray *steps,
                     gboolean   conceptual_only)
{
  for (guint i = 0; plan != NULL && i < plan->len; i++)
    {
      const VivaExamPlanItem *item = g_ptr_array_index (plan, i);
      gboolean asked = FALSE;

      for (guint j = 0; steps != NULL && j < steps->len && !asked; j++)
        asked = g_strcmp0 (asked_item (g_ptr_array_index (steps, j)), item->id) == 0;
      if (!asked && (!conceptual_only || item->kind == VIVA_EXAM_ITEM_CONCEPTUAL))
        return item;
    }

  return NULL;
}

static char *
describe (const VivaExamPlanItem *item)
{
  if (item->kind == VIVA_EXAM_ITEM_PREDICTION)
    return g_strdup_printf ("item \"%s\", a prediction: ask what `%s` returns", item->id, item->text);

  return g_strdup_printf ("item \"%s\", a question: %s", item->id, item->text);
}

/**
 * viva_exam_plan_check_ask:
 * @arguments: askStudent's; an `item` missing is set to the next planned
 *   conceptual question (a free question counts as one)
 *
 * Returns: (transfer full) (nullable): why the question is refused
 */
char *
viva_exam_plan_check_ask (GPtrArray  *plan,
                          GPtrArray  *steps,
                          JsonObject *arguments)
{
  const char *question = json_object_get_string_member_with_default (arguments, "question", "");
  const char *id = json_object_get_string_member_with_default (arguments, "item", NULL);
  const VivaExamPlanItem *item;

  if (viva_exam_plan_asks_several (question))
    return g_strdup ("Ask one question at a time: this text asks several. Call askStudent again "
                     "with a single question; ask the next one after the answer.");

  if (plan == NULL || plan->len == 0)
    return NULL;

  if (id == NULL)
    {
      if ((item = viva_exam_plan_next (plan, steps, TRUE)))
        json_object_set_string_member (arguments, "item", item->id);
      return NULL;
    }

  if (!(item = viva_exam_plan_find (plan, id)))
    {
      g_autofree char *next = NULL;

      item = viva_exam_plan_next (plan, steps, FALSE);
      next = item ? describe (item) : NULL;
      return g_strdup_printf ("There is no planned item \"%s\".%s%s", id,
                              next ? " The next one is " : " Every planned question was asked.",
                              next ? next : "");
    }
  for (guint j = 0; steps != NULL && j < steps->len; j++)
    if (g_strcmp0 (asked_item (g_ptr_array_index (steps, j)), id) == 0)
      return g_strdup_printf ("Item \"%s\" was asked and answered already; ask the next planned one, "
                              "or finish when none is left.", id);

  return NULL;
}

/**
 * viva_exam_plan_check_finish:
 * @enforced: the pack sets `ask`, so the plan must be asked whole
 *
 * Returns: (transfer full) (nullable): why finishing is refused
 */
char *
viva_exam_plan_check_finish (GPtrArray *plan,
                             GPtrArray *steps,
                             gboolean   enforced)
{
  const VivaExamPlanItem *item = enforced ? viva_exam_plan_next (plan, steps, FALSE) : NULL;
  g_autofree char *next = NULL;

  if (item == NULL)
    return NULL;

  next = describe (item);
  return g_strdup_printf ("Not yet: the planned questions are not all asked. Ask %s, with askStudent "
                          "and \"item\": \"%s\".", next, item->id);
}

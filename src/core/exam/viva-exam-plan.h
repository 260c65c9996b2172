/* viva-exam-plan.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "viva-exam-item.h"
#include "viva-problem.h"

G_BEGIN_DECLS

/**
 * VivaExamPlanItem:
 * @id: `P1`, `P2` … for predictions in the plan's order; `Q<n>` for the
 *   pack's question n (as the prompt numbers them)
 * @kind: %VIVA_EXAM_ITEM_PREDICTION or %VIVA_EXAM_ITEM_CONCEPTUAL
 * @text: the call the student reads (drawn), or the pack's question
 * @source_id: the pack's prediction id; %NULL for a question
 * @question_index: the pack's question (conceptual)
 * @tolerance, @unordered: the prediction's rules
 *
 * One question the engine chose for this defense. The model phrases it;
 * the engine decides which, in which order, and with whose inputs.
 */
typedef struct
{
  char             *id;
  VivaExamItemKind  kind;
  char             *text;
  char             *source_id;
  guint             question_index;
  double            tolerance;
  gboolean          unordered;
} VivaExamPlanItem;

void        viva_exam_plan_item_free  (VivaExamPlanItem *self);

GPtrArray  *viva_exam_plan_new        (VivaProblem      *problem,
                                       guint32           seed);
const VivaExamPlanItem *viva_exam_plan_find (GPtrArray  *plan,
                                             const char *id);
JsonObject *viva_exam_plan_item_to_json (const VivaExamPlanItem *self);
char       *viva_exam_plan_message    (GPtrArray        *plan);
char       *viva_exam_plan_shown_question (const VivaExamPlanItem *item,
                                           const char             *question);
gboolean    viva_exam_plan_asks_several (const char     *question);
const VivaExamPlanItem *viva_exam_plan_next (GPtrArray  *plan,
                                             GPtrArray  *steps,
                                             gboolean    conceptual_only);
char       *viva_exam_plan_check_ask  (GPtrArray        *plan,
                                       GPtrArray        *steps,
                                       JsonObject       *arguments);
char       *viva_exam_plan_check_finish (GPtrArray      *plan,
                                         GPtrArray      *steps,
                                         gboolean        enforced);

G_END_DECLS

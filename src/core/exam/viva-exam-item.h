/* viva-exam-item.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/**
 * VivaExamItemKind:
 * @VIVA_EXAM_ITEM_ENGINE_TEST: a hidden test (shown or held out), judged by the grader
 * @VIVA_EXAM_ITEM_PREDICTION: "what does this call return?", judged by running it
 * @VIVA_EXAM_ITEM_CONCEPTUAL: a question of the pack, scored against its points by a model
 */
typedef enum
{
  VIVA_EXAM_ITEM_ENGINE_TEST,
  VIVA_EXAM_ITEM_PREDICTION,
  VIVA_EXAM_ITEM_CONCEPTUAL,
} VivaExamItemKind;

/**
 * VivaExamJudge:
 * @VIVA_EXAM_JUDGE_ENGINE: the grader or the prediction judge: code ran, no model
 * @VIVA_EXAM_JUDGE_MODEL: a model (or the offline examiner) scored it
 * @VIVA_EXAM_JUDGE_TEACHER: a teacher scored it
 */
typedef enum
{
  VIVA_EXAM_JUDGE_ENGINE,
  VIVA_EXAM_JUDGE_MODEL,
  VIVA_EXAM_JUDGE_TEACHER,
} VivaExamJudge;

const char *viva_exam_item_kind_to_string  (VivaExamItemKind kind);
const char *viva_exam_judge_to_string      (VivaExamJudge    judge);

/**
 * VivaExamItem:
 * @id: stable within a defense: `test:<name>`, `prediction:<id>`, `conceptual:<n>`
 * @kind: what the item is
 * @title: what it is in words the student may read: a test's name, the call
 *   shown, the question asked
 * @step: (nullable): the step that asked it (`S6`); %NULL for a test
 * @points: the points given, from 0 to @max_points
 * @max_points: the item's weight (the pack's weights, shared out)
 * @judged_by: who set @points
 * @needs_review: the scores of its k runs spread past the threshold, or no
 *   judge could score it: a teacher should look
 * @scores: (element-type double): the points of each of the k scorings (one
 *   for an engine item); @points is their median
 * @evidence: (element-type utf8): the words of the student's answer the
 *   scorer relied on (conceptual items)
 * @answer: (nullable): the student's answer as typed
 * @expected: (nullable): a prediction's right answer (the value the call
 *   returned, or `raises X`): shown only after the defense
 * @reason: (nullable): why these points, in a sentence the student may read
 *
 * One scored part of a verdict. Engine items are facts the model cannot
 * change; a teacher's score is kept beside an item's (`teacher` in its
 * JSON, written by the review queue), never over @points.
 */
typedef struct
{
  char             *id;
  VivaExamItemKind  kind;
  char             *title;
  char             *step;
  double            points;
  double            max_points;
  VivaExamJudge     judged_by;
  gboolean          needs_review;
  GArray           *scores;
  GPtrArray        *evidence;
  char             *answer;
  char             *expected;
  char             *reason;
  JsonObject       *extra;      /* members this Viva does not know (a teacher's score), kept */
} VivaExamItem;

#define VIVA_TYPE_EXAM_ITEM (viva_exam_item_get_type ())
GType         viva_exam_item_get_type      (void) G_GNUC_CONST;
VivaExamItem *viva_exam_item_new           (VivaExamItemKind    kind,
                                            const char         *id,
                                            const char         *title,
                                            double              max_points);
VivaExamItem *viva_exam_item_copy          (const VivaExamItem *self);
void          viva_exam_item_free          (VivaExamItem       *self);
void          viva_exam_item_add_score     (VivaExamItem       *self,
                                            double              points);
JsonObject   *viva_exam_item_to_json       (const VivaExamItem *self);
VivaExamItem *viva_exam_item_new_from_json (JsonObject         *object);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (VivaExamItem, viva_exam_item_free)

JsonArray    *viva_exam_items_to_json       (GPtrArray          *items);
GPtrArray    *viva_exam_items_new_from_json (JsonArray          *array);
void          viva_exam_items_sum           (GPtrArray          *items,
                                             double             *points,
                                             double             *max_points,
                                             guint              *n_review);

G_END_DECLS

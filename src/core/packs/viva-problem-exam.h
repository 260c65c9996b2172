/* viva-problem-exam.h: what a defense of a problem asks and how it scores
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "viva-grade-report.h"
#include "viva-grader.h"
#include "viva-problem.h"

G_BEGIN_DECLS

/**
 * VivaProblemPrediction:
 * @id: unique within the problem
 * @call: the call's template: a Python expression on the student's code
 *   with `{name}` where an input goes (`knn_predict({X}, {y}, {q}, k={k})`)
 * @names: (array zero-terminated=1): the inputs' names
 * @choices: (element-type GStrv): for each name, the Python expressions
 *   the engine draws one of, per defense
 * @tolerance: how far a number of the answer may be from the value
 * @unordered: the order of the items of a returned list or tuple does not
 *   matter
 *
 * A question answered by running the student's own code: "what does this
 * call return?" The pack's own text; the student reads the drawn call.
 */
typedef struct
{
  char      *id;
  char      *call;
  GStrv      names;
  GPtrArray *choices;
  double     tolerance;
  gboolean   unordered;
} VivaProblemPrediction;

void        viva_problem_prediction_free   (VivaProblemPrediction *self);
char       *viva_problem_prediction_draw   (const VivaProblemPrediction *self,
                                            GRand                 *rand);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (VivaProblemPrediction, viva_problem_prediction_free)

/**
 * VivaProblemWeights:
 * @tests: points of 100 the hidden tests share
 * @predictions: points the prediction questions share
 * @questions: points the conceptual questions share
 */
typedef struct
{
  double tests;
  double predictions;
  double questions;
} VivaProblemWeights;

/**
 * VivaProblemAsks:
 * @min_questions, @max_questions: conceptual questions a defense asks
 * @min_predictions, @max_predictions: prediction questions it asks
 * @enforced: the pack sets `ask`: a defense must ask what was planned
 */
typedef struct
{
  gboolean enforced;
  guint min_questions;
  guint max_questions;
  guint min_predictions;
  guint max_predictions;
} VivaProblemAsks;

GPtrArray *viva_problem_get_predictions (VivaProblem        *problem);
void       viva_problem_get_weights     (VivaProblem        *problem,
                                         VivaProblemWeights *weights);
void       viva_problem_get_asks        (VivaProblem        *problem,
                                         VivaProblemAsks    *asks);

/**
 * VivaPredictionOutcome:
 * @VIVA_PREDICTION_RIGHT: the answer is what the call returned (or raised)
 * @VIVA_PREDICTION_WRONG: a literal, but not that
 * @VIVA_PREDICTION_JUNK: not a Python literal nor "raises X"
 * @VIVA_PREDICTION_NOT_JUDGED: the call could not be run to a plain value
 */
typedef enum
{
  VIVA_PREDICTION_RIGHT,
  VIVA_PREDICTION_WRONG,
  VIVA_PREDICTION_JUNK,
  VIVA_PREDICTION_NOT_JUDGED,
} VivaPredictionOutcome;

#define VIVA_PREDICTION_MAX_ANSWER 2000

typedef struct
{
  VivaPredictionOutcome  outcome;
  char                  *expected;   /* the value's repr, or "raises X"; may be NULL */
  char                  *reason;     /* for the student, after the defense */
} VivaPredictionJudgment;

void viva_prediction_judgment_free (VivaPredictionJudgment *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (VivaPredictionJudgment, viva_prediction_judgment_free)

VivaGraderTest         *viva_prediction_test_new                 (const char      *call,
                                                                   double           tolerance,
                                                                   gboolean         unordered,
                                                                   const char      *answer);
VivaPredictionJudgment *viva_prediction_judgment_new_from_report (VivaGradeReport *report,
                                                                   const char      *answer);

G_END_DECLS

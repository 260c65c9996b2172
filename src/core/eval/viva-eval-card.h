/* viva-eval-card.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "viva-eval-corpus.h"

G_BEGIN_DECLS

/**
 * VivaEvalResult:
 * @case_id: the case defended
 * @problem_id: its problem
 * @kind: correct, wrong or cheat
 * @run: the 0-based repetition
 * @status: `finished` or `incomplete` (the engine's), `failed` (the model
 *   or server failed), `not-run`
 * @verdict: (nullable): `pass` or `fail` as the model recorded it; %NULL
 *   without a verdict
 * @score: the model's score, -1 without one
 * @expect_pass: the outcome a fair examiner reaches
 * @agrees: the verdict equals the expected one
 * @score_checked: the case gives a fair score range
 * @score_in_range: the score fell in it
 * @injection: the case carries an injection
 * @injection_obeyed: the model passed it or said its marker
 * @leaks: examiner passages that showed the student reference or hidden-test text
 * @withheld: passages the engine held back as leaks
 * @refused: steps the engine refused
 * @reminders: replies without a tool call, each answered by a reminder
 * @recovered: tool calls recovered from a reply's text
 * @turns: model replies
 * @tool_calls: tool calls the model made, run or not
 * @prompt_tokens: as the server reported, summed over the turns
 * @completion_tokens: likewise
 * @conceptual: the verdict's conceptual items (questions scored by a model)
 * @uncertain: those of them the model marked uncertain (needs review)
 * @seconds: wall-clock time of the defense
 * @comment: (nullable): the model's comment to the student
 * @error: (nullable): why it failed
 *
 * One scripted defense, as the card counts it. Plain data.
 */
typedef struct
{
  char          *case_id;
  char          *problem_id;
  VivaEvalKind   kind;
  guint          run;
  char          *status;
  char          *verdict;
  int            score;
  gboolean       expect_pass;
  gboolean       agrees;
  gboolean       score_checked;
  gboolean       score_in_range;
  gboolean       injection;
  gboolean       injection_obeyed;
  guint          leaks;
  guint          withheld;
  guint          refused;
  guint          reminders;
  guint          recovered;
  guint          turns;
  guint          tool_calls;
  gint64         prompt_tokens;
  gint64         completion_tokens;
  double         seconds;
  guint          conceptual;
  guint          uncertain;
  char          *comment;
  char          *error;
} VivaEvalResult;

#define VIVA_TYPE_EVAL_RESULT (viva_eval_result_get_type ())
GType           viva_eval_result_get_type     (void) G_GNUC_CONST;
VivaEvalResult *viva_eval_result_new          (const VivaEvalCase   *eval_case,
                                               guint                 run);
VivaEvalResult *viva_eval_result_copy         (const VivaEvalResult *self);
void            viva_eval_result_free         (VivaEvalResult       *self);
gboolean        viva_eval_result_was_run      (const VivaEvalResult *self);
JsonNode       *viva_eval_result_to_json      (const VivaEvalResult *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (VivaEvalResult, viva_eval_result_free)

/**
 * VivaEvalStop:
 * @VIVA_EVAL_STOP_NONE: every case ran
 * @VIVA_EVAL_STOP_NO_TOOLS: the model did not call a tool in the first case
 * @VIVA_EVAL_STOP_SERVER_FAILED: the model or its server failed
 * @VIVA_EVAL_STOP_CANCELLED: stopped by the user
 * @VIVA_EVAL_STOP_ENGINE_FAILED: a defense could not run here (no worker)
 */
typedef enum
{
  VIVA_EVAL_STOP_NONE,
  VIVA_EVAL_STOP_NO_TOOLS,
  VIVA_EVAL_STOP_SERVER_FAILED,
  VIVA_EVAL_STOP_CANCELLED,
  VIVA_EVAL_STOP_ENGINE_FAILED,
} VivaEvalStop;

const char *viva_eval_stop_to_string (VivaEvalStop stop);

#define VIVA_TYPE_EVAL_CARD (viva_eval_card_get_type ())

G_DECLARE_FINAL_TYPE (VivaEvalCard, viva_eval_card, VIVA, EVAL_CARD, GObject)

VivaEvalCard *viva_eval_card_new                 (const char           *base_url,
                                                  const char           *model,
                                                  const char           *corpus_id,
                                                  gboolean              short_card,
                                                  guint                 repeat);
VivaEvalCard *viva_eval_card_new_from_json       (JsonNode             *node,
                                                  GError              **error);
void          viva_eval_card_add_result          (VivaEvalCard         *self,
                                                  const VivaEvalResult *result);
void          viva_eval_card_set_stop            (VivaEvalCard         *self,
                                                  VivaEvalStop          stop,
                                                  const char           *message);
const char   *viva_eval_card_get_base_url        (VivaEvalCard         *self);
const char   *viva_eval_card_get_model           (VivaEvalCard         *self);
GDateTime    *viva_eval_card_get_created         (VivaEvalCard         *self);
gboolean      viva_eval_card_get_short           (VivaEvalCard         *self);
guint         viva_eval_card_get_repeat          (VivaEvalCard         *self);
VivaEvalStop  viva_eval_card_get_stop            (VivaEvalCard         *self);
const char   *viva_eval_card_get_stop_message    (VivaEvalCard         *self);
guint         viva_eval_card_get_n_results       (VivaEvalCard         *self);
const VivaEvalResult *viva_eval_card_get_result  (VivaEvalCard         *self,
                                                  guint                 index);
guint         viva_eval_card_get_n_run           (VivaEvalCard         *self);
double        viva_eval_card_get_agreement       (VivaEvalCard         *self);
double        viva_eval_card_get_false_pass_rate (VivaEvalCard         *self);
double        viva_eval_card_get_false_fail_rate (VivaEvalCard         *self);
double        viva_eval_card_get_injection_obeyed_rate (VivaEvalCard   *self);
guint         viva_eval_card_get_leaks           (VivaEvalCard         *self);
guint         viva_eval_card_get_withheld        (VivaEvalCard         *self);
double        viva_eval_card_get_consistency     (VivaEvalCard         *self);
double        viva_eval_card_get_median_seconds  (VivaEvalCard         *self);
double        viva_eval_card_get_uncertain_share (VivaEvalCard         *self);
JsonNode     *viva_eval_card_to_json             (VivaEvalCard         *self);
char         *viva_eval_card_to_html             (VivaEvalCard         *self);

G_END_DECLS

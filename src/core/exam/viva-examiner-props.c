/* viva-examiner-props.c
 *
 * The examiner's public getters and setters: what a caller gives it
 * before it starts (runners, session, limits; the pack and the language,
 * which a checkpoint restores too, are set in viva-examiner.c), what it
 * reads while it runs (state, question, verdict, counts), the student's
 * answer; and GObject's side of its properties (their specs, and get and
 * set, which forward to those accessors).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-examiner-private.h"
#include "viva-problem-exam.h"

VivaChatModel *
viva_examiner_get_model (VivaExaminer *self)
{
  g_return_val_if_fail (VIVA_IS_EXAMINER (self), NULL);
  return self->model;
}

VivaProblem *
viva_examiner_get_problem (VivaExaminer *self)
{
  g_return_val_if_fail (VIVA_IS_EXAMINER (self), NULL);
  return self->problem;
}

VivaCodeSource *
viva_examiner_get_code_source (VivaExaminer *self)
{
  g_return_val_if_fail (VIVA_IS_EXAMINER (self), NULL);
  return self->code_source;
}

/**
 * viva_examiner_get_runner:
 *
 * Returns: (transfer none) (nullable): the student's worker, once set
 *   (without one, the defense runs in a worker of its runs' own)
 */
VivaRunner *
viva_examiner_get_runner (VivaExaminer *self)
{
  g_return_val_if_fail (VIVA_IS_EXAMINER (self), NULL);
  return self->runner;
}

/**
 * viva_examiner_set_runner:
 * @runner: (nullable): a started worker to run the student's code in
 *
 * Shares a worker, for example the editor's, so `runPython` sees the same
 * globals. Without one, the examiner starts its own and stops it when
 * disposed. Set it before the defense starts.
 */
void
viva_examiner_set_runner (VivaExaminer *self,
                          VivaRunner   *runner)
{
  g_return_if_fail (VIVA_IS_EXAMINER (self));
  g_return_if_fail (!runner || VIVA_IS_RUNNER (runner));
  g_return_if_fail (self->state == VIVA_EXAMINER_STATE_IDLE);

  g_set_object (&self->runner, runner);
}

/**
 * viva_examiner_set_reference_runner:
 * @runner: (nullable): a worker to check probes against the reference in
 *
 * Shares the worker that checks probes, as a lab rehearsal does for many
 * defenses of one problem (each check resets its namespace first). Without
 * one, the examiner starts its own. Set it before the defense starts.
 */
void
viva_examiner_set_reference_runner (VivaExaminer *self,
                                    VivaRunner   *runner)
{
  g_return_if_fail (VIVA_IS_EXAMINER (self));
  g_return_if_fail (!runner || VIVA_IS_RUNNER (runner));
  g_return_if_fail (self->state == VIVA_EXAMINER_STATE_IDLE);

  g_set_object (&self->reference_runner, runner);
}

/**
 * viva_examiner_set_runs:
 * @runs: (nullable): where the defense's code runs, or %NULL for workers
 *   on this machine (the runners above, or the examiner's own)
 *
 * The exam server runs a defense's tools in its pool (#VivaExamRemoteRuns):
 * every run, probe and prediction is a job, and the examiner's own runners
 * are never started. The examiner starts them (viva_exam_runs_start_async())
 * as it prepares, but never stops them: the giver does. Set it before the
 * defense starts.
 */
void
viva_examiner_set_runs (VivaExaminer *self,
                        VivaExamRuns *runs)
{
  g_return_if_fail (VIVA_IS_EXAMINER (self));
  g_return_if_fail (!runs || VIVA_IS_EXAM_RUNS (runs));
  g_return_if_fail (self->state == VIVA_EXAMINER_STATE_IDLE);

  g_set_object (&self->runs, runs);
}

/**
 * viva_examiner_set_grade_func:
 * @func: (nullable): grades the code at finishDefense instead of a grader
 *   of the examiner's own; %NULL for the examiner's own
 *
 * The exam server grades a submission once, in its grading pool, and the
 * defense's verdict is bound to that grade. Set it before the defense
 * reaches finishDefense.
 */
void
viva_examiner_set_grade_func (VivaExaminer      *self,
                              VivaExamGradeFunc  func,
                              gpointer           user_data,
                              GDestroyNotify     destroy)
{
  g_return_if_fail (VIVA_IS_EXAMINER (self));

  if (self->grade_destroy != NULL)
    g_clear_pointer (&self->grade_data, self->grade_destroy);
  self->grade_func = func;
  self->grade_data = user_data;
  self->grade_destroy = destroy;
}

/**
 * viva_examiner_get_session:
 *
 * Returns: (transfer none) (nullable): where checkpoints and the trace go
 */
VivaExamSession *
viva_examiner_get_session (VivaExaminer *self)
{
  g_return_val_if_fail (VIVA_IS_EXAMINER (self), NULL);
  return self->session;
}

/**
 * viva_examiner_set_session:
 * @session: (nullable): where to checkpoint every step and trace every event
 */
void
viva_examiner_set_session (VivaExaminer    *self,
                           VivaExamSession *session)
{
  g_return_if_fail (VIVA_IS_EXAMINER (self));
  g_return_if_fail (!session || VIVA_IS_EXAM_SESSION (session));

  if (g_set_object (&self->session, session))
    g_object_notify_by_pspec (G_OBJECT (self), _viva_examiner_properties[PROP_SESSION]);
}

const char *
viva_examiner_get_pack_id (VivaExaminer *self)
{
  g_return_val_if_fail (VIVA_IS_EXAMINER (self), NULL);
  return self->pack_id;
}

const char *
viva_examiner_get_language (VivaExaminer *self)
{
  g_return_val_if_fail (VIVA_IS_EXAMINER (self), NULL);
  return self->language;
}

const VivaExamLimits *
viva_examiner_get_limits (VivaExaminer *self)
{
  g_return_val_if_fail (VIVA_IS_EXAMINER (self), NULL);
  return &self->protocol.limits;
}

/**
 * viva_examiner_set_limits:
 *
 * Replaces every guardrail threshold; set before the defense starts.
 */
void
viva_examiner_set_limits (VivaExaminer         *self,
                          const VivaExamLimits *limits)
{
  g_return_if_fail (VIVA_IS_EXAMINER (self));
  g_return_if_fail (limits != NULL);
  g_return_if_fail (limits->max_iterations > 0);
  g_return_if_fail (limits->max_replies_without_tool > 0);
  g_return_if_fail (limits->repeat_limit > 0);

  self->protocol.limits = *limits;
}

VivaExaminerState
viva_examiner_get_state (VivaExaminer *self)
{
  g_return_val_if_fail (VIVA_IS_EXAMINER (self), VIVA_EXAMINER_STATE_IDLE);
  return self->state;
}

/**
 * viva_examiner_get_pending_question:
 *
 * Returns: (nullable): the question waiting for viva_examiner_answer()
 */
const char *
viva_examiner_get_pending_question (VivaExaminer *self)
{
  g_return_val_if_fail (VIVA_IS_EXAMINER (self), NULL);
  return self->pending_question;
}

/**
 * viva_examiner_dup_pending_item:
 *
 * Returns: (transfer full) (nullable): what the waiting question asks, as
 *   `{item, kind, call}` for a prediction (the call the student reads) or
 *   `{item, kind, question}` for a planned conceptual question; %NULL for
 *   a question outside the plan or none
 */
JsonObject *
viva_examiner_dup_pending_item (VivaExaminer *self)
{
  g_return_val_if_fail (VIVA_IS_EXAMINER (self), NULL);
  return self->pending_item ? viva_exam_plan_item_to_json (self->pending_item) : NULL;
}

/**
 * viva_examiner_set_scorer:
 * @scorer: (nullable): a second model that scores the conceptual answers
 *   (each k times), or %NULL for the examiner's own model
 */
void
viva_examiner_set_scorer (VivaExaminer  *self,
                          VivaChatModel *scorer)
{
  g_return_if_fail (VIVA_IS_EXAMINER (self));
  g_return_if_fail (!scorer || VIVA_IS_CHAT_MODEL (scorer));

  g_set_object (&self->scorer, scorer);
}

/**
 * viva_examiner_get_error_message:
 *
 * Returns: (nullable): what went wrong and what to do, for a banner
 */
const char *
viva_examiner_get_error_message (VivaExaminer *self)
{
  g_return_val_if_fail (VIVA_IS_EXAMINER (self), NULL);
  return self->error_message;
}

/**
 * viva_examiner_get_verdict:
 *
 * Returns: (transfer none) (nullable): how the defense ended
 */
VivaExamVerdict *
viva_examiner_get_verdict (VivaExaminer *self)
{
  g_return_val_if_fail (VIVA_IS_EXAMINER (self), NULL);
  return self->verdict;
}

/**
 * viva_examiner_get_messages:
 *
 * Returns: (transfer none) (element-type VivaChatMessage): the transcript
 *   without the system prompt
 */
GPtrArray *
viva_examiner_get_messages (VivaExaminer *self)
{
  g_return_val_if_fail (VIVA_IS_EXAMINER (self), NULL);
  return self->conversation.messages;
}

/**
 * viva_examiner_get_busy:
 *
 * Returns: whether the examiner's model waits for a busy server
 */
gboolean
viva_examiner_get_busy (VivaExaminer *self)
{
  g_return_val_if_fail (VIVA_IS_EXAMINER (self), FALSE);
  return self->busy_since != 0;
}

/**
 * viva_examiner_get_busy_since:
 *
 * Returns: g_get_monotonic_time() when the model became busy, or 0
 */
gint64
viva_examiner_get_busy_since (VivaExaminer *self)
{
  g_return_val_if_fail (VIVA_IS_EXAMINER (self), 0);
  return self->busy_since;
}

/**
 * viva_examiner_get_n_withheld:
 *
 * Returns: passages withheld from the student by the leak guard so far
 */
guint
viva_examiner_get_n_withheld (VivaExaminer *self)
{
  g_return_val_if_fail (VIVA_IS_EXAMINER (self), 0);
  return self->leaks.n_withheld;
}

/**
 * viva_examiner_get_n_steps:
 *
 * Returns: the tools that ran so far (refused calls are not steps)
 */
guint
viva_examiner_get_n_steps (VivaExaminer *self)
{
  g_return_val_if_fail (VIVA_IS_EXAMINER (self), 0);
  return self->protocol.steps->len;
}

/**
 * viva_examiner_get_n_answers:
 *
 * Returns: how many of the examiner's questions the student has answered
 */
guint
viva_examiner_get_n_answers (VivaExaminer *self)
{
  g_return_val_if_fail (VIVA_IS_EXAMINER (self), 0);
  return self->protocol.n_answers;
}

/**
 * viva_examiner_answer:
 * @answer: the student's answer to the pending question
 *
 * Answers the question the examiner waits on; the defense goes on.
 *
 * Returns: %FALSE with %VIVA_EXAM_ERROR_NOT_WAITING when no question waits
 */
gboolean
viva_examiner_answer (VivaExaminer  *self,
                      const char    *answer,
                      GError       **error)
{
  g_return_val_if_fail (VIVA_IS_EXAMINER (self), FALSE);
  g_return_val_if_fail (answer != NULL, FALSE);

  if (self->context == NULL || self->state != VIVA_EXAMINER_STATE_WAITING_FOR_STUDENT)
    {
      g_set_error_literal (error, VIVA_EXAM_ERROR, VIVA_EXAM_ERROR_NOT_WAITING,
                           _("The examiner is not waiting for an answer right now."));
      return FALSE;
    }

  return viva_exam_context_give_answer (self->context, answer, error);
}

/* GObject's side of the properties: they forward to the accessors above. */
void
_viva_examiner_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  VivaExaminer *self = VIVA_EXAMINER (object);

  switch (prop_id)
    {
    case PROP_MODEL:
      g_value_set_object (value, viva_examiner_get_model (self));
      break;

    case PROP_PROBLEM:
      g_value_set_object (value, viva_examiner_get_problem (self));
      break;

    case PROP_CODE_SOURCE:
      g_value_set_object (value, viva_examiner_get_code_source (self));
      break;

    case PROP_STATE:
      g_value_set_enum (value, viva_examiner_get_state (self));
      break;

    case PROP_PENDING_QUESTION:
      g_value_set_string (value, viva_examiner_get_pending_question (self));
      break;

    case PROP_ERROR_MESSAGE:
      g_value_set_string (value, viva_examiner_get_error_message (self));
      break;

    case PROP_VERDICT:
      g_value_set_object (value, viva_examiner_get_verdict (self));
      break;

    case PROP_N_STEPS:
      g_value_set_uint (value, viva_examiner_get_n_steps (self));
      break;

    case PROP_LANGUAGE:
      g_value_set_string (value, viva_examiner_get_language (self));
      break;

    case PROP_PACK_ID:
      g_value_set_string (value, viva_examiner_get_pack_id (self));
      break;

    case PROP_SESSION:
      g_value_set_object (value, viva_examiner_get_session (self));
      break;

    case PROP_BUSY:
      g_value_set_boolean (value, viva_examiner_get_busy (self));
      break;

    case PROP_BUSY_SINCE:
      g_value_set_int64 (value, viva_examiner_get_busy_since (self));
      break;

    case PROP_N_WITHHELD:
      g_value_set_uint (value, viva_examiner_get_n_withheld (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

void
_viva_examiner_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  VivaExaminer *self = VIVA_EXAMINER (object);

  switch (prop_id)
    {
    case PROP_MODEL:
      self->model = g_value_dup_object (value);
      break;

    case PROP_PROBLEM:
      self->problem = g_value_dup_object (value);
      break;

    case PROP_CODE_SOURCE:
      self->code_source = g_value_dup_object (value);
      break;

    case PROP_LANGUAGE:
      viva_examiner_set_language (self, g_value_get_string (value));
      break;

    case PROP_PACK_ID:
      viva_examiner_set_pack_id (self, g_value_get_string (value));
      break;

    case PROP_SESSION:
      viva_examiner_set_session (self, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

void
_viva_examiner_install_properties (GObjectClass *object_class)
{
  _viva_examiner_properties[PROP_MODEL] =
    g_param_spec_object ("model", NULL, NULL, VIVA_TYPE_CHAT_MODEL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  _viva_examiner_properties[PROP_PROBLEM] =
    g_param_spec_object ("problem", NULL, NULL, VIVA_TYPE_PROBLEM,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  _viva_examiner_properties[PROP_CODE_SOURCE] =
    g_param_spec_object ("code-source", NULL, NULL, VIVA_TYPE_CODE_SOURCE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  _viva_examiner_properties[PROP_N_STEPS] =
    g_param_spec_uint ("n-steps", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  _viva_examiner_properties[PROP_LANGUAGE] =
    g_param_spec_string ("language", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  _viva_examiner_properties[PROP_PACK_ID] =
    g_param_spec_string ("pack-id", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  _viva_examiner_properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, VIVA_TYPE_EXAM_SESSION,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /**
   * VivaExaminer:n-withheld:
   *
   * Passages the leak guard kept from the student because they repeated
   * the reference solution or a hidden test (the verdict's `withheld` has
   * the count when the verdict was recorded; follow-ups may add more).
   */
  _viva_examiner_properties[PROP_N_WITHHELD] =
    g_param_spec_uint ("n-withheld", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /* g_get_monotonic_time() when it became busy; 0 when it is not. */
  _viva_examiner_properties[PROP_BUSY_SINCE] =
    g_param_spec_int64 ("busy-since", NULL, NULL, 0, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_OWN_PROPS, _viva_examiner_properties);
  viva_defense_view_override_properties (object_class, PROP_STATE, _viva_examiner_properties);
}

/* viva-examiner.c
 *
 * The examiner object: its type, properties and signals, its life, and the
 * setters the loop uses that notify.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-examiner-private.h"

/* The examiner: the object, its life and the joints of its loop. It holds
 * its records (conversation, protocol, leak filter: each a job of its
 * own); its satellites (-loop.c the turn, -dispatch.c the call,
 * -followup.c, -checkpoint.c, -props.c) report here and never call each
 * other. */

G_DEFINE_ENUM_TYPE (VivaExaminerState, viva_examiner_state,
                    G_DEFINE_ENUM_VALUE (VIVA_EXAMINER_STATE_IDLE, "idle"),
                    G_DEFINE_ENUM_VALUE (VIVA_EXAMINER_STATE_THINKING, "thinking"),
                    G_DEFINE_ENUM_VALUE (VIVA_EXAMINER_STATE_RUNNING_TOOL, "running-tool"),
                    G_DEFINE_ENUM_VALUE (VIVA_EXAMINER_STATE_WAITING_FOR_STUDENT, "waiting-for-student"),
                    G_DEFINE_ENUM_VALUE (VIVA_EXAMINER_STATE_FINISHED, "finished"),
                    G_DEFINE_ENUM_VALUE (VIVA_EXAMINER_STATE_FAILED, "failed"),
                    G_DEFINE_ENUM_VALUE (VIVA_EXAMINER_STATE_CANCELLED, "cancelled"))

const char *
viva_examiner_state_to_string (VivaExaminerState state)
{
  GEnumClass *klass = g_type_class_ref (VIVA_TYPE_EXAMINER_STATE);
  GEnumValue *value = g_enum_get_value (klass, state);

  g_type_class_unref (klass);

  return value ? value->value_nick : NULL;
}

static void viva_examiner_defense_view_init (VivaDefenseViewInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (VivaExaminer, viva_examiner, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (VIVA_TYPE_DEFENSE_VIEW, viva_examiner_defense_view_init))

GParamSpec *_viva_examiner_properties[N_PROPS];

/* A front shows the examiner through its view: the public accessors are
 * the view's. */
static void
viva_examiner_defense_view_init (VivaDefenseViewInterface *iface)
{
  iface->get_state = (gpointer)viva_examiner_get_state;
  iface->get_pending_question = (gpointer)viva_examiner_get_pending_question;
  iface->get_error_message = (gpointer)viva_examiner_get_error_message;
  iface->get_verdict = (gpointer)viva_examiner_get_verdict;
  iface->get_busy = (gpointer)viva_examiner_get_busy;
  iface->get_busy_since = (gpointer)viva_examiner_get_busy_since;
  iface->answer = (gpointer)viva_examiner_answer;
}

static void
viva_examiner_dispose (GObject *object)
{
  VivaExaminer *self = (VivaExaminer *)object;

  g_clear_signal_handler (&self->delta_handler, self->model);
  g_clear_signal_handler (&self->busy_handler, self->model);
  g_clear_signal_handler (&self->code_changed_handler, self->code_source);
  g_clear_handle_id (&self->code_edit_source, g_source_remove);

  /* Its own runners, never a given one (the editor's, a rehearsal's
   * shared reference runner); runs given with set_runs are the giver's. */
  if (self->owns_runs)
    viva_exam_runs_stop (self->runs);

  g_clear_object (&self->context);
  g_clear_object (&self->model);
  g_clear_object (&self->scorer);
  g_clear_object (&self->problem);
  g_clear_object (&self->code_source);
  g_clear_object (&self->runner);
  g_clear_object (&self->reference_runner);
  g_clear_object (&self->runs);
  g_clear_object (&self->session);
  g_clear_object (&self->verdict);
  if (self->grade_destroy != NULL)
    g_clear_pointer (&self->grade_data, self->grade_destroy);

  G_OBJECT_CLASS (viva_examiner_parent_class)->dispose (object);
}

static void
viva_examiner_finalize (GObject *object)
{
  VivaExaminer *self = (VivaExaminer *)object;

  _viva_exam_conversation_clear (&self->conversation);
  _viva_exam_protocol_clear (&self->protocol);
  _viva_exam_leak_filter_clear (&self->leaks);
  g_clear_pointer (&self->request, viva_chat_request_unref);
  g_clear_pointer (&self->pending_call, viva_tool_call_free);
  g_clear_pointer (&self->pending_step, g_free);
  g_clear_pointer (&self->pending_question, g_free);
  g_clear_pointer (&self->pack_id, g_free);
  g_clear_pointer (&self->language, g_free);
  g_clear_pointer (&self->error_message, g_free);
  g_clear_pointer (&self->created, g_free);
  g_clear_pointer (&self->problem_hash, g_free);
  g_clear_pointer (&self->problem_pack, json_node_unref);
  g_clear_pointer (&self->pack_ref, json_object_unref);
  g_clear_pointer (&self->finish_arguments, json_object_unref);

  G_OBJECT_CLASS (viva_examiner_parent_class)->finalize (object);
}

static void
viva_examiner_constructed (GObject *object)
{
  VivaExaminer *self = VIVA_EXAMINER (object);

  G_OBJECT_CLASS (viva_examiner_parent_class)->constructed (object);

  g_assert (VIVA_IS_CHAT_MODEL (self->model));
  g_assert (VIVA_IS_PROBLEM (self->problem));
  g_assert (VIVA_IS_CODE_SOURCE (self->code_source));

  _viva_exam_leak_filter_init (&self->leaks, self->problem);

  self->delta_handler = g_signal_connect (self->model, "delta",
                                          G_CALLBACK (_viva_examiner_model_delta_cb), self);
  self->code_changed_handler = g_signal_connect_swapped (self->code_source, "changed",
                                                         G_CALLBACK (_viva_examiner_code_changed_cb), self);
  self->busy_handler = g_signal_connect_swapped (self->model, "notify::busy", G_CALLBACK (_viva_examiner_model_busy_cb), self);
  if (viva_chat_model_get_busy (self->model))
    self->busy_since = g_get_monotonic_time ();
}

static void
viva_examiner_class_init (VivaExaminerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = viva_examiner_constructed;
  object_class->dispose = viva_examiner_dispose;
  object_class->finalize = viva_examiner_finalize;
  object_class->get_property = _viva_examiner_get_property;
  object_class->set_property = _viva_examiner_set_property;

  /* The signals are #VivaDefenseView's. */
  _viva_examiner_install_properties (object_class);
}

static void
viva_examiner_init (VivaExaminer *self)
{
  _viva_exam_conversation_init (&self->conversation);
  _viva_exam_protocol_init (&self->protocol);
}

void
_viva_examiner_emit (VivaExaminer    *self,
                     VivaExamSignal   signal,
                     ...)
{
  va_list args;

  va_start (args, signal);
  viva_defense_view_emit_valist (VIVA_DEFENSE_VIEW (self), (VivaDefenseViewSignal)signal, args);
  va_end (args);
}

void
_viva_examiner_set_state (VivaExaminer      *self,
                          VivaExaminerState  state)
{
  if (self->state == state)
    return;

  self->state = state;
  g_object_notify_by_pspec (G_OBJECT (self), _viva_examiner_properties[PROP_STATE]);
}

void
_viva_examiner_set_pending_question (VivaExaminer *self,
                                     const char   *question)
{
  if (g_strcmp0 (self->pending_question, question) == 0)
    return;

  g_free (self->pending_question);
  self->pending_question = g_strdup (question);
  g_object_notify_by_pspec (G_OBJECT (self), _viva_examiner_properties[PROP_PENDING_QUESTION]);
}

void
_viva_examiner_set_error_message (VivaExaminer *self,
                                  const char   *message)
{
  if (g_strcmp0 (self->error_message, message) == 0)
    return;

  g_free (self->error_message);
  self->error_message = g_strdup (message);
  g_object_notify_by_pspec (G_OBJECT (self), _viva_examiner_properties[PROP_ERROR_MESSAGE]);
}

void
_viva_examiner_set_verdict (VivaExaminer    *self,
                            VivaExamVerdict *verdict)
{
  if (g_set_object (&self->verdict, verdict))
    g_object_notify_by_pspec (G_OBJECT (self), _viva_examiner_properties[PROP_VERDICT]);
}

void
_viva_examiner_notify_n_steps (VivaExaminer *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), _viva_examiner_properties[PROP_N_STEPS]);
}

/**
 * viva_examiner_new:
 * @model: the examiner's mind: a #VivaOpenAIModel or a #VivaScriptedModel
 * @problem: the problem being defended
 * @code_source: a live view of the student's code
 *
 * Returns: (transfer full): an idle examiner; start it with
 *   viva_examiner_run_async() or viva_examiner_resume_async()
 */
VivaExaminer *
viva_examiner_new (VivaChatModel  *model,
                   VivaProblem    *problem,
                   VivaCodeSource *code_source)
{
  g_return_val_if_fail (VIVA_IS_CHAT_MODEL (model), NULL);
  g_return_val_if_fail (VIVA_IS_PROBLEM (problem), NULL);
  g_return_val_if_fail (VIVA_IS_CODE_SOURCE (code_source), NULL);

  return g_object_new (VIVA_TYPE_EXAMINER,
                       "model", model,
                       "problem", problem,
                       "code-source", code_source,
                       NULL);
}

/* What a caller gives it that a checkpoint also restores. */

/**
 * viva_examiner_set_pack_id:
 *
 * The id of the problem's pack, recorded in the checkpoint.
 */
void
viva_examiner_set_pack_id (VivaExaminer *self,
                           const char   *pack_id)
{
  g_return_if_fail (VIVA_IS_EXAMINER (self));

  if (g_strcmp0 (self->pack_id, pack_id) == 0)
    return;

  g_free (self->pack_id);
  self->pack_id = g_strdup (pack_id);
  g_object_notify_by_pspec (G_OBJECT (self), _viva_examiner_properties[PROP_PACK_ID]);
}

/**
 * viva_examiner_set_pack_ref:
 * @pack_ref: (nullable): the pack, by id and digest, as
 *   viva_exam_pack_ref_new() makes it
 *
 * What the checkpoint names as the problem's pack, so a resume reads the
 * pack again instead of keeping its hidden tests and reference in the
 * student's folder. Sets the pack id too. Without one, a checkpoint can be
 * resumed only by a caller that has the problem.
 */
void
viva_examiner_set_pack_ref (VivaExaminer *self,
                            JsonObject   *pack_ref)
{
  g_return_if_fail (VIVA_IS_EXAMINER (self));

  g_clear_pointer (&self->pack_ref, json_object_unref);
  if (pack_ref == NULL)
    return;

  self->pack_ref = json_object_ref (pack_ref);
  viva_examiner_set_pack_id (self, json_object_get_string_member_with_default (pack_ref, "id", NULL));
}

/**
 * viva_examiner_set_language:
 * @language: (nullable): the language the examiner speaks (`English`,
 *   `Deutsch`…); %NULL for English
 */
void
viva_examiner_set_language (VivaExaminer *self,
                            const char   *language)
{
  g_return_if_fail (VIVA_IS_EXAMINER (self));

  if (g_strcmp0 (self->language, language) == 0)
    return;

  g_free (self->language);
  self->language = g_strdup (language);
  g_object_notify_by_pspec (G_OBJECT (self), _viva_examiner_properties[PROP_LANGUAGE]);
}

/* Its life: what every part of the examiner reports to. */

void
_viva_examiner_checkpoint (VivaExaminer *self)
{
  g_autoptr(JsonNode) node = NULL;

  if (self->session == NULL)
    return;

  node = _viva_examiner_to_checkpoint (self);
  viva_exam_session_save_checkpoint (self->session, node);
}

void
_viva_examiner_complete (VivaExaminer    *self,
                         VivaExamVerdict *verdict,
                         GError          *error)
{
  g_autoptr(GTask) task = g_steal_pointer (&self->task);

  if (task == NULL)
    {
      g_clear_error (&error);
      return;
    }

  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, g_object_ref (verdict), g_object_unref);
}

void
_viva_examiner_end_with (VivaExaminer    *self,
                         VivaExamVerdict *verdict)
{
  g_autoptr(JsonNode) node = NULL;
  JsonObject *data = json_object_new ();

  _viva_exam_verdict_set_n_withheld (verdict, self->leaks.n_withheld);
  node = viva_exam_verdict_to_json (verdict);
  self->phase = VIVA_EXAM_PHASE_DONE;
  g_clear_pointer (&self->pending_call, viva_tool_call_free);
  g_clear_pointer (&self->pending_step, g_free);
  _viva_examiner_set_pending_question (self, NULL);
  _viva_examiner_set_verdict (self, verdict);
  _viva_examiner_set_state (self, viva_exam_verdict_get_status (verdict) == VIVA_EXAM_STATUS_FAILED
                                  ? VIVA_EXAMINER_STATE_FAILED : VIVA_EXAMINER_STATE_FINISHED);

  json_object_set_member (data, "verdict", json_node_copy (node));
  _viva_examiner_trace (self, "verdict", data);
  _viva_examiner_checkpoint (self);

  _viva_examiner_emit (self, VERDICT, verdict);
}

static VivaExamVerdict *
verdict_without_finish (VivaExaminer   *self,
                        VivaExamStatus  status,
                        const char     *reason)
{
  g_autoptr(GPtrArray) names = _viva_exam_protocol_collect_step_names (&self->protocol);
  g_autoptr(GPtrArray) probes = _viva_exam_protocol_collect_probes (&self->protocol);

  return _viva_exam_verdict_new (status, FALSE, -1, NULL, reason, names, NULL, probes);
}

void
_viva_examiner_end_incomplete (VivaExaminer *self,
                               const char   *reason)
{
  g_autoptr(VivaExamVerdict) verdict = verdict_without_finish (self, VIVA_EXAM_STATUS_INCOMPLETE, reason);
  JsonObject *data = json_object_new ();

  json_object_set_string_member (data, "action", "incomplete");
  json_object_set_string_member (data, "reason", reason);
  _viva_examiner_trace (self, "guardrail", data);

  _viva_examiner_end_with (self, verdict);
  _viva_examiner_complete (self, verdict, NULL);
}

void
_viva_examiner_fail (VivaExaminer *self,
                     GError       *error)
{
  g_autoptr(VivaExamVerdict) verdict = verdict_without_finish (self, VIVA_EXAM_STATUS_FAILED, error->message);
  JsonObject *data = json_object_new ();

  json_object_set_string_member (data, "domain", g_quark_to_string (error->domain));
  json_object_set_int_member (data, "code", error->code);
  json_object_set_string_member (data, "message", error->message);
  _viva_examiner_trace (self, "error", data);

  _viva_examiner_set_error_message (self, error->message);
  /* The phase stays as it was, so a resume redoes what failed. */
  _viva_examiner_set_verdict (self, verdict);
  _viva_examiner_set_state (self, VIVA_EXAMINER_STATE_FAILED);
  _viva_examiner_checkpoint (self);
  _viva_examiner_emit (self, VERDICT, verdict);
  _viva_examiner_complete (self, NULL, error);
}

void
_viva_examiner_cancelled (VivaExaminer *self)
{
  _viva_examiner_trace (self, "cancelled", NULL);
  _viva_examiner_set_state (self, VIVA_EXAMINER_STATE_CANCELLED);
  /* What was in flight stays in the checkpoint: a cancelled defense can be
   * resumed, for example after the window was closed. */
  _viva_examiner_checkpoint (self);
  _viva_examiner_complete (self, NULL, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                                             _("The defense was cancelled.")));
}

/* The conversation's code snapshot, traced when it changed. */
char *
_viva_examiner_snapshot_code (VivaExaminer *self)
{
  g_autofree char *code = viva_code_source_dup_code (self->code_source);
  JsonObject *data = NULL;
  const char *event = _viva_exam_conversation_snapshot (&self->conversation, code, &data);

  if (event != NULL)
    _viva_examiner_trace (self, event, data);

  return g_steal_pointer (&code);
}

VivaChatRequest *
_viva_examiner_build_request (VivaExaminer *self,
                              gboolean      with_tools)
{
  const char *system = _viva_exam_conversation_system_prompt (&self->conversation, self->problem, self->language);
  JsonObject *compacted = NULL;
  VivaChatRequest *request = _viva_exam_conversation_request (&self->conversation, system,
                                                              with_tools ? self->protocol.tools : NULL,
                                                              &self->protocol.limits, &compacted);

  if (compacted != NULL)
    _viva_examiner_trace (self, "guardrail", compacted);

  return request;
}

/* Built only when there is a trace to write. */
void
_viva_examiner_trace_request (VivaExaminer *self,
                              const char   *event,
                              guint         iteration)
{
  if (self->session != NULL)
    _viva_examiner_trace (self, event, _viva_exam_conversation_trace_request (&self->conversation,
                                                                              self->request, iteration));
}

/* The leak filter at the examiner's edges: what it lets through is
 * emitted, what it withheld is counted and traced. */

/* Returns: (transfer full): the reply's message without its leaks */
VivaChatMessage *
_viva_examiner_guard_reply (VivaExaminer  *self,
                            VivaChatReply *reply,
                            JsonObject    *trace_json)
{
  char *rest[2] = { NULL, NULL };
  VivaChatMessage *message = _viva_exam_leak_filter_reply (&self->leaks, reply, trace_json, &self->protocol,
                                                           self->conversation.code_snapshot, rest);
  g_autoptr(GPtrArray) withheld = _viva_exam_leak_filter_take_withheld (&self->leaks);

  for (guint which = 0; which < G_N_ELEMENTS (rest); which++)
    {
      VivaChatDelta delta = { which == 0 ? VIVA_CHAT_DELTA_CONTENT : VIVA_CHAT_DELTA_REASONING, rest[which] };

      if (rest[which] != NULL)
        _viva_examiner_emit (self, DELTA, &delta);
      g_free (rest[which]);
    }

  for (guint i = 0; i < withheld->len; i++)
    _viva_examiner_trace (self, "leak_withheld", json_object_ref (g_ptr_array_index (withheld, i)));
  if (withheld->len > 0)
    g_object_notify_by_pspec (G_OBJECT (self), _viva_examiner_properties[PROP_N_WITHHELD]);

  return message;
}

/* Where the turn (viva-examiner-loop.c) and the call (-dispatch.c) meet:
 * the examiner decides here what comes next. */

/* Another turn, unless the defense was cancelled or used all its turns. */
void
_viva_examiner_continue (VivaExaminer *self)
{
  if (g_cancellable_is_cancelled (_viva_examiner_cancellable (self)))
    return _viva_examiner_cancelled (self);

  if (self->protocol.iterations >= self->protocol.limits.max_iterations)
    {
      g_autofree char *reason =
        g_strdup_printf (_("The examiner used all %u of its turns without reaching a verdict."),
                         self->protocol.limits.max_iterations);
      return _viva_examiner_end_incomplete (self, reason);
    }

  _viva_examiner_next_turn (self);
}

/* A reply's first tool call becomes a step; a reply without one gets a
 * reminder, and a second in a row ends the defense. */
void
_viva_examiner_after_reply (VivaExaminer    *self,
                            VivaChatMessage *message)
{
  GPtrArray *calls = viva_chat_message_get_tool_calls (message);
  JsonObject *data;

  if (calls != NULL && calls->len > 0)
    {
      self->protocol.replies_without_tool = 0;
      return _viva_examiner_start_call (self, g_ptr_array_index (calls, 0), NULL);
    }

  if (++self->protocol.replies_without_tool >= self->protocol.limits.max_replies_without_tool)
    return _viva_examiner_end_incomplete (self, _("The examiner stopped using its tools, so the defense "
                                                  "ended without a verdict. A verdict written as text "
                                                  "does not count; try again or use the offline examiner."));

  data = json_object_new ();
  json_object_set_string_member (data, "action", "reminder");
  _viva_examiner_trace (self, "guardrail", data);
  g_ptr_array_add (self->conversation.messages,
                   viva_chat_message_new_user ("Reminder from the exam system: you must act "
                                               "through tools, one per reply. Continue the "
                                               "required steps, and end with finishDefense; a "
                                               "verdict written as text is not recorded."));
  _viva_examiner_continue (self);
}

/* A defense stopped while the engine graded: finishDefense ran, its
 * verdict not yet recorded. Returns: (nullable): its arguments */
static JsonObject *
last_finish (VivaExaminer *self)
{
  GPtrArray *steps = self->protocol.steps;
  VivaExamStep *step;
  const VivaExamToolFacts *facts;
  g_autoptr(JsonNode) node = NULL;

  if (steps->len == 0 || self->verdict != NULL)
    return NULL;
  step = g_ptr_array_index (steps, steps->len - 1);
  facts = _viva_exam_protocol_tool_facts (&self->protocol, step->name);
  if (!step->ok || facts == NULL || facts->kind != VIVA_EXAM_TOOL_KIND_FINISHES ||
      !(node = json_from_string (step->arguments, NULL)) || !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;

  g_clear_pointer (&self->finish_arguments, json_object_unref);
  self->finish_arguments = json_object_ref (json_node_get_object (node));
  return self->finish_arguments;
}

/* The prime is sent, on a start or a resume: a call that was in flight
 * is redone, a finish not yet graded is graded, or the next turn starts. */
void
_viva_examiner_primed (VivaExaminer *self)
{
  JsonObject *finished;

  if (self->phase == VIVA_EXAM_PHASE_TOOL && self->pending_call != NULL)
    {
      g_autoptr(VivaToolCall) call = viva_tool_call_copy (self->pending_call);
      g_autofree char *step = g_strdup (self->pending_step);

      _viva_examiner_start_call (self, call, step);
    }
  else if ((finished = last_finish (self)) != NULL)
    _viva_examiner_finish_defense (self, finished);
  else
    _viva_examiner_continue (self);
}

/* A resume: the session's checkpoint becomes the examiner's state, and
 * further checkpoints go to the session. */
gboolean
_viva_examiner_restore (VivaExaminer     *self,
                        VivaExamSession  *session,
                        GError          **error)
{
  if (viva_exam_session_get_checkpoint (session) == NULL)
    {
      g_set_error (error, VIVA_EXAM_ERROR, VIVA_EXAM_ERROR_NOT_FOUND,
                   _("Session %s has no checkpoint to continue from."), viva_exam_session_get_id (session));
      return FALSE;
    }

  if (!_viva_examiner_from_checkpoint (self, viva_exam_session_get_checkpoint (session), error))
    return FALSE;

  viva_examiner_set_session (self, session);
  return TRUE;
}

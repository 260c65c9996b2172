/* viva-examiner.c
 *
 * The examiner object: its type, properties and signals, its life, and the
 * setters the loop uses that notify.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-examiner-private.h"

/* What a caller sets and reads is in viva-examiner-props.c; the task loop
 * itself is in viva-examiner-loop.c. */

G_DEFINE_FINAL_TYPE (VivaExaminer, viva_examiner, G_TYPE_OBJECT)

G_DEFINE_ENUM_TYPE (VivaExaminerState, viva_examiner_state,
                    G_DEFINE_ENUM_VALUE (VIVA_EXAMINER_STATE_IDLE, "idle"),
                    G_DEFINE_ENUM_VALUE (VIVA_EXAMINER_STATE_THINKING, "thinking"),
                    G_DEFINE_ENUM_VALUE (VIVA_EXAMINER_STATE_RUNNING_TOOL, "running-tool"),
                    G_DEFINE_ENUM_VALUE (VIVA_EXAMINER_STATE_WAITING_FOR_STUDENT, "waiting-for-student"),
                    G_DEFINE_ENUM_VALUE (VIVA_EXAMINER_STATE_FINISHED, "finished"),
                    G_DEFINE_ENUM_VALUE (VIVA_EXAMINER_STATE_FAILED, "failed"),
                    G_DEFINE_ENUM_VALUE (VIVA_EXAMINER_STATE_CANCELLED, "cancelled"))

GParamSpec *_viva_examiner_properties[N_PROPS];

static guint signals[N_SIGNALS];

const char *
viva_examiner_state_to_string (VivaExaminerState state)
{
  GEnumClass *klass = g_type_class_ref (VIVA_TYPE_EXAMINER_STATE);
  GEnumValue *value = g_enum_get_value (klass, state);

  g_type_class_unref (klass);

  return value ? value->value_nick : NULL;
}

void
_viva_exam_step_free (VivaExamStep *step)
{
  if (step == NULL)
    return;

  g_free (step->id);
  g_free (step->name);
  g_free (step->arguments);
  g_clear_pointer (&step->result, json_object_unref);
  g_clear_pointer (&step->probe, viva_exam_probe_free);
  g_free (step);
}

static void
viva_examiner_dispose (GObject *object)
{
  VivaExaminer *self = (VivaExaminer *)object;

  g_clear_signal_handler (&self->delta_handler, self->model);
  g_clear_signal_handler (&self->busy_handler, self->model);
  g_clear_signal_handler (&self->code_changed_handler, self->code_source);
  g_clear_handle_id (&self->code_edit_source, g_source_remove);

  if (self->owns_runner && self->runner != NULL)
    viva_runner_stop (self->runner);
  if (self->reference_runner != NULL && !self->shares_reference_runner)
    viva_runner_stop (self->reference_runner);

  g_clear_object (&self->context);
  g_clear_object (&self->model);
  g_clear_object (&self->problem);
  g_clear_object (&self->code_source);
  g_clear_object (&self->runner);
  g_clear_object (&self->reference_runner);
  g_clear_object (&self->session);
  g_clear_object (&self->verdict);

  G_OBJECT_CLASS (viva_examiner_parent_class)->dispose (object);
}

static void
viva_examiner_finalize (GObject *object)
{
  VivaExaminer *self = (VivaExaminer *)object;

  g_clear_pointer (&self->tools, g_ptr_array_unref);
  g_clear_pointer (&self->messages, g_ptr_array_unref);
  g_clear_pointer (&self->steps, g_ptr_array_unref);
  g_clear_pointer (&self->recent_calls, g_ptr_array_unref);
  g_clear_pointer (&self->request, viva_chat_request_unref);
  g_clear_pointer (&self->pending_call, viva_tool_call_free);
  g_clear_pointer (&self->pending_step, g_free);
  g_clear_pointer (&self->pending_question, g_free);
  g_clear_pointer (&self->pack_id, g_free);
  g_clear_pointer (&self->language, g_free);
  g_clear_pointer (&self->prompt_template, g_free);
  g_clear_pointer (&self->error_message, g_free);
  g_clear_pointer (&self->code_hash, g_free);
  g_clear_pointer (&self->code_snapshot, g_free);
  g_clear_pointer (&self->sent_code_hash, g_free);
  g_clear_pointer (&self->system_prompt, g_free);
  g_clear_pointer (&self->system_prompt_traced, g_free);
  g_clear_pointer (&self->created, g_free);
  g_clear_pointer (&self->problem_hash, g_free);
  g_clear_pointer (&self->problem_pack, json_node_unref);
  g_clear_pointer (&self->pack_ref, json_object_unref);
  g_clear_pointer (&self->leak_guard, _viva_exam_leak_guard_free);
  g_clear_pointer (&self->finish_arguments, json_object_unref);
  for (guint i = 0; i < G_N_ELEMENTS (self->leak_stream); i++)
    g_clear_pointer (&self->leak_stream[i], _viva_exam_leak_stream_free);

  G_OBJECT_CLASS (viva_examiner_parent_class)->finalize (object);
}

static void
viva_examiner_get_property (GObject    *object,
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

static void
viva_examiner_set_property (GObject      *object,
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

/* The model's busy is the examiner's, so a front shows one object. */
static void
model_busy_cb (VivaExaminer *self)
{
  gboolean busy = viva_chat_model_get_busy (self->model);

  if (busy == (self->busy_since != 0))
    return;

  self->busy_since = busy ? g_get_monotonic_time () : 0;
  g_object_freeze_notify (G_OBJECT (self));
  g_object_notify_by_pspec (G_OBJECT (self), _viva_examiner_properties[PROP_BUSY_SINCE]);
  g_object_notify_by_pspec (G_OBJECT (self), _viva_examiner_properties[PROP_BUSY]);
  g_object_thaw_notify (G_OBJECT (self));
}

static void
viva_examiner_constructed (GObject *object)
{
  VivaExaminer *self = VIVA_EXAMINER (object);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;

  G_OBJECT_CLASS (viva_examiner_parent_class)->constructed (object);

  g_assert (VIVA_IS_CHAT_MODEL (self->model));
  g_assert (VIVA_IS_PROBLEM (self->problem));
  g_assert (VIVA_IS_CODE_SOURCE (self->code_source));

  /* The template is ours, compiled in; viva_core_init() registers it. */
  bytes = g_resources_lookup_data (RESOURCE_PREFIX "/core/prompts/examiner.md", 0, &error);
  g_assert_no_error (error);
  self->prompt_template = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));

  self->delta_handler = g_signal_connect (self->model, "delta",
                                          G_CALLBACK (_viva_examiner_model_delta_cb), self);
  self->code_changed_handler = g_signal_connect_swapped (self->code_source, "changed",
                                                         G_CALLBACK (_viva_examiner_code_changed_cb), self);
  self->busy_handler = g_signal_connect_swapped (self->model, "notify::busy", G_CALLBACK (model_busy_cb), self);
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
  object_class->get_property = viva_examiner_get_property;
  object_class->set_property = viva_examiner_set_property;

  _viva_examiner_properties[PROP_MODEL] =
    g_param_spec_object ("model", NULL, NULL, VIVA_TYPE_CHAT_MODEL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  _viva_examiner_properties[PROP_PROBLEM] =
    g_param_spec_object ("problem", NULL, NULL, VIVA_TYPE_PROBLEM,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  _viva_examiner_properties[PROP_CODE_SOURCE] =
    g_param_spec_object ("code-source", NULL, NULL, VIVA_TYPE_CODE_SOURCE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  _viva_examiner_properties[PROP_STATE] =
    g_param_spec_enum ("state", NULL, NULL, VIVA_TYPE_EXAMINER_STATE, VIVA_EXAMINER_STATE_IDLE,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  _viva_examiner_properties[PROP_PENDING_QUESTION] =
    g_param_spec_string ("pending-question", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  _viva_examiner_properties[PROP_ERROR_MESSAGE] =
    g_param_spec_string ("error-message", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  _viva_examiner_properties[PROP_VERDICT] =
    g_param_spec_object ("verdict", NULL, NULL, VIVA_TYPE_EXAM_VERDICT,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
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

  /**
   * VivaExaminer:busy:
   *
   * Whether its model waits for a busy server (#VivaChatModel:busy,
   * relayed): a state, not an error, shown while it lasts.
   */
  _viva_examiner_properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* g_get_monotonic_time() when it became busy; 0 when it is not. */
  _viva_examiner_properties[PROP_BUSY_SINCE] =
    g_param_spec_int64 ("busy-since", NULL, NULL, 0, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, _viva_examiner_properties);

  /**
   * VivaExaminer::delta:
   * @delta: (transfer none): a piece of the reply streaming now
   *
   * Content, reasoning and tool-call fragments, as they arrive.
   */
  signals[DELTA] =
    g_signal_new ("delta", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, VIVA_TYPE_CHAT_DELTA | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * VivaExaminer::reply:
   * @message: (transfer none): the assembled assistant message
   *
   * A reply finished streaming and joined the transcript.
   */
  signals[REPLY] =
    g_signal_new ("reply", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, VIVA_TYPE_CHAT_MESSAGE | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * VivaExaminer::tool-started:
   * @step_id: the step's id (`S3`)
   * @name: the tool
   * @arguments: the arguments as JSON text
   */
  signals[TOOL_STARTED] =
    g_signal_new ("tool-started", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 3, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRING);

  /**
   * VivaExaminer::tool-finished:
   * @step_id: the step's id
   * @name: the tool
   * @result: (transfer none): the tool's data as a JSON object node, as
   *   the model sees it (with `error` when it failed)
   * @ok: whether the tool did its job
   */
  signals[TOOL_FINISHED] =
    g_signal_new ("tool-finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 4, G_TYPE_STRING, G_TYPE_STRING,
                  JSON_TYPE_NODE | G_SIGNAL_TYPE_STATIC_SCOPE, G_TYPE_BOOLEAN);

  /**
   * VivaExaminer::question:
   * @step_id: the askStudent step
   * @question: what the examiner asks; answer with viva_examiner_answer()
   */
  signals[QUESTION] =
    g_signal_new ("question", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_STRING);

  /**
   * VivaExaminer::answer:
   * @answer: the student's answer, as recorded
   */
  signals[ANSWER] =
    g_signal_new ("answer", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);

  /**
   * VivaExaminer::message:
   * @text: something the examiner tells the student, without waiting
   */
  signals[MESSAGE] =
    g_signal_new ("message", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);

  /**
   * VivaExaminer::refused:
   * @name: the tool the engine would not run
   * @reason: why, as the model was told
   */
  signals[REFUSED] =
    g_signal_new ("refused", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_STRING);

  /**
   * VivaExaminer::verdict:
   * @verdict: the end of the defense (finished, incomplete or failed)
   */
  signals[VERDICT] =
    g_signal_new ("verdict", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, VIVA_TYPE_EXAM_VERDICT);
}

static void
viva_examiner_init (VivaExaminer *self)
{
  viva_exam_limits_init_default (&self->limits);
  self->tools = viva_exam_tools_new_default ();
  self->messages = g_ptr_array_new_with_free_func ((GDestroyNotify)viva_chat_message_unref);
  self->steps = g_ptr_array_new_with_free_func ((GDestroyNotify)_viva_exam_step_free);
  self->recent_calls = g_ptr_array_new_with_free_func (g_free);
}

void
_viva_examiner_emit (VivaExaminer    *self,
                     VivaExamSignal   signal,
                     ...)
{
  va_list args;

  va_start (args, signal);
  g_signal_emit_valist (self, signals[signal], 0, args);
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

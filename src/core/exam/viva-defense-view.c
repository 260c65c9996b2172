/* viva-defense-view.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-defense-view.h"

G_DEFINE_INTERFACE (VivaDefenseView, viva_defense_view, G_TYPE_OBJECT)

static guint signals[VIVA_DEFENSE_VIEW_N_SIGNALS];

static const char * const property_names[VIVA_DEFENSE_VIEW_N_PROPS] = {
  [VIVA_DEFENSE_VIEW_PROP_STATE] = "state",
  [VIVA_DEFENSE_VIEW_PROP_PENDING_QUESTION] = "pending-question",
  [VIVA_DEFENSE_VIEW_PROP_ERROR_MESSAGE] = "error-message",
  [VIVA_DEFENSE_VIEW_PROP_VERDICT] = "verdict",
  [VIVA_DEFENSE_VIEW_PROP_BUSY] = "busy",
};

static void
viva_defense_view_default_init (VivaDefenseViewInterface *iface)
{
  GType type = G_TYPE_FROM_INTERFACE (iface);
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  g_object_interface_install_property (iface,
    g_param_spec_enum ("state", NULL, NULL, VIVA_TYPE_EXAMINER_STATE, VIVA_EXAMINER_STATE_IDLE, ro));
  /* The question waiting for an answer, or %NULL. */
  g_object_interface_install_property (iface, g_param_spec_string ("pending-question", NULL, NULL, NULL, ro));
  /* Why it failed, or why the last answer was refused; a sentence. */
  g_object_interface_install_property (iface, g_param_spec_string ("error-message", NULL, NULL, NULL, ro));
  g_object_interface_install_property (iface,
    g_param_spec_object ("verdict", NULL, NULL, VIVA_TYPE_EXAM_VERDICT, ro));
  /**
   * VivaDefenseView:busy:
   *
   * Whether its model waits for a busy server (#VivaChatModel:busy,
   * relayed): a state, not an error, shown while it lasts. A defense on
   * the exam server is never busy here: waiting is the server's.
   */
  g_object_interface_install_property (iface, g_param_spec_boolean ("busy", NULL, NULL, FALSE, ro));

  /**
   * VivaDefenseView::delta:
   * @delta: (transfer none): a piece of the reply streaming now
   *
   * Content, reasoning and tool-call fragments, as they arrive.
   */
  signals[VIVA_DEFENSE_VIEW_SIGNAL_DELTA] =
    g_signal_new ("delta", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, VIVA_TYPE_CHAT_DELTA | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * VivaDefenseView::reply:
   * @message: (transfer none): the assembled assistant message
   *
   * A reply finished streaming and joined the transcript. The exam
   * server's stream does not tell it: a remote defense never emits it.
   */
  signals[VIVA_DEFENSE_VIEW_SIGNAL_REPLY] =
    g_signal_new ("reply", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, VIVA_TYPE_CHAT_MESSAGE | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * VivaDefenseView::tool-started:
   * @step_id: the step's id (`S3`)
   * @name: the tool
   * @arguments: (nullable): the arguments as JSON text; never sent to a
   *   student, so %NULL from the exam server
   */
  signals[VIVA_DEFENSE_VIEW_SIGNAL_TOOL_STARTED] =
    g_signal_new ("tool-started", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 3, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRING);

  /**
   * VivaDefenseView::tool-finished:
   * @step_id: the step's id
   * @name: the tool
   * @result: (transfer none): the tool's data as a JSON object node, as
   *   the model sees it (with `error` when it failed); from the exam
   *   server, only the facts a card words
   * @ok: whether the tool did its job
   */
  signals[VIVA_DEFENSE_VIEW_SIGNAL_TOOL_FINISHED] =
    g_signal_new ("tool-finished", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 4, G_TYPE_STRING, G_TYPE_STRING,
                  JSON_TYPE_NODE | G_SIGNAL_TYPE_STATIC_SCOPE, G_TYPE_BOOLEAN);

  /**
   * VivaDefenseView::question:
   * @step_id: the askStudent step
   * @question: what the examiner asks; answer with viva_defense_view_answer()
   */
  signals[VIVA_DEFENSE_VIEW_SIGNAL_QUESTION] =
    g_signal_new ("question", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_STRING);

  /**
   * VivaDefenseView::answer:
   * @answer: the student's answer, as recorded
   */
  signals[VIVA_DEFENSE_VIEW_SIGNAL_ANSWER] =
    g_signal_new ("answer", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);

  /**
   * VivaDefenseView::message:
   * @text: something the examiner tells the student, without waiting
   */
  signals[VIVA_DEFENSE_VIEW_SIGNAL_MESSAGE] =
    g_signal_new ("message", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);

  /**
   * VivaDefenseView::refused:
   * @name: the tool the engine would not run
   * @reason: why, as the model was told
   */
  signals[VIVA_DEFENSE_VIEW_SIGNAL_REFUSED] =
    g_signal_new ("refused", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_STRING);

  /**
   * VivaDefenseView::verdict:
   * @verdict: the end of the defense (finished, incomplete or failed)
   */
  signals[VIVA_DEFENSE_VIEW_SIGNAL_VERDICT] =
    g_signal_new ("verdict", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, VIVA_TYPE_EXAM_VERDICT);
}

/**
 * viva_defense_view_override_properties:
 * @first_prop_id: the id of #VivaDefenseView:state in @klass; the others
 *   follow in #VivaDefenseViewProperty's order
 * @pspecs: the class's array of properties, indexed by id: the
 *   overridden ones are stored there, to notify with
 *
 * For implementations, in class_init.
 */
void
viva_defense_view_override_properties (GObjectClass  *klass,
                                       guint          first_prop_id,
                                       GParamSpec   **pspecs)
{
  g_return_if_fail (G_IS_OBJECT_CLASS (klass));
  g_return_if_fail (pspecs != NULL);

  for (guint i = 0; i < VIVA_DEFENSE_VIEW_N_PROPS; i++)
    {
      g_object_class_override_property (klass, first_prop_id + i, property_names[i]);
      pspecs[first_prop_id + i] = g_object_class_find_property (klass, property_names[i]);
    }
}

void
viva_defense_view_emit_valist (VivaDefenseView       *self,
                               VivaDefenseViewSignal  signal,
                               va_list                args)
{
  g_return_if_fail (VIVA_IS_DEFENSE_VIEW (self));
  g_return_if_fail (signal < VIVA_DEFENSE_VIEW_N_SIGNALS);

  g_signal_emit_valist (self, signals[signal], 0, args);
}

/**
 * viva_defense_view_emit:
 * @...: the signal's arguments
 *
 * For implementations: emits one of the view's signals.
 */
void
viva_defense_view_emit (VivaDefenseView       *self,
                        VivaDefenseViewSignal  signal,
                        ...)
{
  va_list args;

  va_start (args, signal);
  viva_defense_view_emit_valist (self, signal, args);
  va_end (args);
}

VivaExaminerState
viva_defense_view_get_state (VivaDefenseView *self)
{
  g_return_val_if_fail (VIVA_IS_DEFENSE_VIEW (self), VIVA_EXAMINER_STATE_IDLE);
  return VIVA_DEFENSE_VIEW_GET_IFACE (self)->get_state (self);
}

const char *
viva_defense_view_get_pending_question (VivaDefenseView *self)
{
  g_return_val_if_fail (VIVA_IS_DEFENSE_VIEW (self), NULL);
  return VIVA_DEFENSE_VIEW_GET_IFACE (self)->get_pending_question (self);
}

const char *
viva_defense_view_get_error_message (VivaDefenseView *self)
{
  g_return_val_if_fail (VIVA_IS_DEFENSE_VIEW (self), NULL);
  return VIVA_DEFENSE_VIEW_GET_IFACE (self)->get_error_message (self);
}

/**
 * viva_defense_view_get_verdict:
 *
 * Returns: (transfer none) (nullable): the verdict, once there is one
 */
VivaExamVerdict *
viva_defense_view_get_verdict (VivaDefenseView *self)
{
  g_return_val_if_fail (VIVA_IS_DEFENSE_VIEW (self), NULL);
  return VIVA_DEFENSE_VIEW_GET_IFACE (self)->get_verdict (self);
}

gboolean
viva_defense_view_get_busy (VivaDefenseView *self)
{
  g_return_val_if_fail (VIVA_IS_DEFENSE_VIEW (self), FALSE);
  return VIVA_DEFENSE_VIEW_GET_IFACE (self)->get_busy (self);
}

/**
 * viva_defense_view_get_busy_since:
 *
 * Returns: g_get_monotonic_time() when it became busy, or 0
 */
gint64
viva_defense_view_get_busy_since (VivaDefenseView *self)
{
  g_return_val_if_fail (VIVA_IS_DEFENSE_VIEW (self), 0);
  return VIVA_DEFENSE_VIEW_GET_IFACE (self)->get_busy_since (self);
}

/**
 * viva_defense_view_answer:
 * @text: the student's answer
 *
 * Answers the pending question.
 *
 * Returns: %FALSE with an error (the implementation's) when no question
 *   waits
 */
gboolean
viva_defense_view_answer (VivaDefenseView  *self,
                          const char       *text,
                          GError          **error)
{
  g_return_val_if_fail (VIVA_IS_DEFENSE_VIEW (self), FALSE);
  g_return_val_if_fail (text != NULL, FALSE);
  return VIVA_DEFENSE_VIEW_GET_IFACE (self)->answer (self, text, error);
}

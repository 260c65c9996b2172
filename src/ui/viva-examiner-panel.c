/* viva-examiner-panel.c
 *
 * The right-hand panel where the defense takes place: the object, its
 * properties and template, and which examiner it shows. The conversation
 * is in -transcript.c, the state line in -state.c, the answer box in
 * -answer.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>

#include "viva-chat-view.h"
#include "viva-examiner-panel-private.h"

/* The panel shows a defense and answers it; it does not create or run one.
 * The window does that (viva-window-exam.c) and owns `exam.stop` and
 * `exam.retry`, which the state line and the error banner trigger. The
 * defense is a VivaDefenseView: a VivaExaminer on this PC, or, for a graded
 * defense on the exam server, a VivaRemoteDefense told by the server's
 * stream. The panel's parts ask through the accessors below. */

enum {
  PROP_0,
  PROP_DEFENSE,
  PROP_MODEL_LOADING,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (VivaExaminerPanel, viva_examiner_panel, GTK_TYPE_WIDGET)

static GParamSpec *properties[N_PROPS];

gboolean
_viva_examiner_panel_has_defense (VivaExaminerPanel *self)
{
  return self->defense != NULL;
}

VivaExaminerState
_viva_examiner_panel_get_state (VivaExaminerPanel *self)
{
  return self->defense ? viva_defense_view_get_state (self->defense) : VIVA_EXAMINER_STATE_IDLE;
}

const char *
_viva_examiner_panel_get_error (VivaExaminerPanel *self)
{
  return self->defense ? viva_defense_view_get_error_message (self->defense) : NULL;
}

const char *
_viva_examiner_panel_get_question (VivaExaminerPanel *self)
{
  return self->defense ? viva_defense_view_get_pending_question (self->defense) : NULL;
}

VivaExamVerdict *
_viva_examiner_panel_get_verdict (VivaExaminerPanel *self)
{
  return self->defense ? viva_defense_view_get_verdict (self->defense) : NULL;
}

gboolean
_viva_examiner_panel_answer (VivaExaminerPanel  *self,
                             const char         *text,
                             GError            **error)
{
  if (self->defense != NULL)
    return viva_defense_view_answer (self->defense, text, error);
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_PENDING, "no defense");
  return FALSE;
}

/* The defense when it runs on this PC, else %NULL. */
VivaExaminer *
_viva_examiner_panel_get_local (VivaExaminerPanel *self)
{
  return VIVA_IS_EXAMINER (self->defense) ? VIVA_EXAMINER (self->defense) : NULL;
}

/* One handler for a signal of the defense shown. GLib 2.74 cannot parse
 * "notify::…" on an interface type, so property notifications go through
 * a group over GObject. */
void
_viva_examiner_panel_connect (VivaExaminerPanel *self,
                              const char        *signal,
                              GCallback          callback)
{
  GSignalGroup *group = g_str_has_prefix (signal, "notify::") ? self->notify_signals : self->signals;

  g_signal_group_connect_object (group, signal, callback, self, G_CONNECT_SWAPPED);
}

VivaDefenseView *
viva_examiner_panel_get_defense (VivaExaminerPanel *self)
{
  g_return_val_if_fail (VIVA_IS_EXAMINER_PANEL (self), NULL);

  return self->defense;
}

/**
 * viva_examiner_panel_set_defense:
 * @defense: (nullable): the defense to show: a #VivaExaminer on this PC,
 *   or a #VivaRemoteDefense the exam server runs
 *
 * Shows @defense as it happens. The conversation so far stays (a retried
 * defense carries on); call viva_examiner_panel_clear() first for a new
 * one. Questions after the verdict, Stop and Retry are for an examiner on
 * this PC only: a defense on the exam server has none.
 */
void
viva_examiner_panel_set_defense (VivaExaminerPanel *self,
                                 VivaDefenseView   *defense)
{
  g_return_if_fail (VIVA_IS_EXAMINER_PANEL (self));
  g_return_if_fail (!defense || VIVA_IS_DEFENSE_VIEW (defense));

  if (self->defense == defense)
    return;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  self->asking = FALSE;

  _viva_examiner_panel_end_message (self);
  g_clear_pointer (&self->running_tool, g_free);
  _viva_examiner_panel_drop_draft_save (self);
  g_clear_handle_id (&self->busy_tick, g_source_remove);

  g_set_object (&self->defense, defense);
  g_signal_group_set_target (self->signals, defense);
  g_signal_group_set_target (self->notify_signals, defense);

  if (defense != NULL)
    {
      _viva_examiner_panel_show_chat (self);
      _viva_examiner_panel_restore_draft (self);
    }

  _viva_examiner_panel_update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DEFENSE]);
}

gboolean
viva_examiner_panel_get_model_loading (VivaExaminerPanel *self)
{
  g_return_val_if_fail (VIVA_IS_EXAMINER_PANEL (self), FALSE);

  return self->model_loading;
}

/**
 * viva_examiner_panel_set_model_loading:
 *
 * Says "Loading the model…" instead of "Thinking…" until the first piece
 * of the examiner's reply arrives.
 */
void
viva_examiner_panel_set_model_loading (VivaExaminerPanel *self,
                                       gboolean           model_loading)
{
  g_return_if_fail (VIVA_IS_EXAMINER_PANEL (self));

  model_loading = !!model_loading;
  if (self->model_loading == model_loading)
    return;

  self->model_loading = model_loading;
  _viva_examiner_panel_update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODEL_LOADING]);
}

static void
viva_examiner_panel_dispose (GObject *object)
{
  VivaExaminerPanel *self = (VivaExaminerPanel *)object;
  GtkWidget *child;

  g_cancellable_cancel (self->cancellable);
  /* Closing the window while a question waits keeps what was typed. */
  _viva_examiner_panel_drop_draft_save (self);
  if (self->signals != NULL)
    g_signal_group_set_target (self->signals, NULL);
  if (self->notify_signals != NULL)
    g_signal_group_set_target (self->notify_signals, NULL);
  g_clear_handle_id (&self->busy_tick, g_source_remove);

  gtk_widget_dispose_template (GTK_WIDGET (object), VIVA_TYPE_EXAMINER_PANEL);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (object))))
    gtk_widget_unparent (child);

  self->current = NULL;
  g_clear_object (&self->cancellable);
  g_clear_object (&self->signals);
  g_clear_object (&self->notify_signals);
  g_clear_object (&self->defense);
  g_clear_pointer (&self->cards, g_hash_table_unref);

  G_OBJECT_CLASS (viva_examiner_panel_parent_class)->dispose (object);
}

static void
viva_examiner_panel_finalize (GObject *object)
{
  VivaExaminerPanel *self = (VivaExaminerPanel *)object;

  g_clear_pointer (&self->running_tool, g_free);
  g_clear_pointer (&self->asked, g_free);

  G_OBJECT_CLASS (viva_examiner_panel_parent_class)->finalize (object);
}

static void
viva_examiner_panel_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  VivaExaminerPanel *self = VIVA_EXAMINER_PANEL (object);

  switch (prop_id)
    {
    case PROP_DEFENSE:
      g_value_set_object (value, self->defense);
      break;

    case PROP_MODEL_LOADING:
      g_value_set_boolean (value, self->model_loading);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_examiner_panel_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  VivaExaminerPanel *self = VIVA_EXAMINER_PANEL (object);

  switch (prop_id)
    {
    case PROP_DEFENSE:
      viva_examiner_panel_set_defense (self, g_value_get_object (value));
      break;

    case PROP_MODEL_LOADING:
      viva_examiner_panel_set_model_loading (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_examiner_panel_class_init (VivaExaminerPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = viva_examiner_panel_dispose;
  object_class->finalize = viva_examiner_panel_finalize;
  object_class->get_property = viva_examiner_panel_get_property;
  object_class->set_property = viva_examiner_panel_set_property;

  properties[PROP_DEFENSE] =
    g_param_spec_object ("defense", NULL, NULL, VIVA_TYPE_DEFENSE_VIEW,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_MODEL_LOADING] =
    g_param_spec_boolean ("model-loading", NULL, NULL, FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/viva-examiner-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, VivaExaminerPanel, error_revealer);
  gtk_widget_class_bind_template_child (widget_class, VivaExaminerPanel, error_label);
  gtk_widget_class_bind_template_child (widget_class, VivaExaminerPanel, retry_button);
  gtk_widget_class_bind_template_child (widget_class, VivaExaminerPanel, state_revealer);
  gtk_widget_class_bind_template_child (widget_class, VivaExaminerPanel, state_spinner);
  gtk_widget_class_bind_template_child (widget_class, VivaExaminerPanel, state_icon);
  gtk_widget_class_bind_template_child (widget_class, VivaExaminerPanel, state_label);
  gtk_widget_class_bind_template_child (widget_class, VivaExaminerPanel, stop_button);
  gtk_widget_class_bind_template_child (widget_class, VivaExaminerPanel, stack);
  gtk_widget_class_bind_template_child (widget_class, VivaExaminerPanel, chat_view);
  gtk_widget_class_bind_template_child (widget_class, VivaExaminerPanel, setup_revealer);
  gtk_widget_class_bind_template_child (widget_class, VivaExaminerPanel, setup_label);
  gtk_widget_class_bind_template_child (widget_class, VivaExaminerPanel, ollama_label);
  gtk_widget_class_bind_template_child (widget_class, VivaExaminerPanel, commands_label);
  gtk_widget_class_bind_template_child (widget_class, VivaExaminerPanel, answer_revealer);
  gtk_widget_class_bind_template_child (widget_class, VivaExaminerPanel, question_revealer);
  gtk_widget_class_bind_template_child (widget_class, VivaExaminerPanel, question_label);
  gtk_widget_class_bind_template_child (widget_class, VivaExaminerPanel, answer_view);
  gtk_widget_class_bind_template_child (widget_class, VivaExaminerPanel, send_button);
  gtk_widget_class_bind_template_child (widget_class, VivaExaminerPanel, hint_label);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "examinerpanel");

  _viva_examiner_panel_class_init_answer (widget_class);

  g_type_ensure (VIVA_TYPE_CHAT_VIEW);
}

static void
viva_examiner_panel_init (VivaExaminerPanel *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->cards = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->cancellable = g_cancellable_new ();

  self->signals = g_signal_group_new (VIVA_TYPE_DEFENSE_VIEW);
  self->notify_signals = g_signal_group_new (G_TYPE_OBJECT);
  _viva_examiner_panel_init_transcript (self);
  _viva_examiner_panel_init_state (self);
  _viva_examiner_panel_init_answer (self);

  _viva_examiner_panel_update (self);
}
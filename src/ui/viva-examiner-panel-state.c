/* viva-examiner-panel-state.c
 *
 * The examiner panel's state line (what the examiner is doing, with Stop),
 * the error banner with Retry and the setup banner shown when no model
 * answers; and the one function that recomputes the panel from the
 * examiner: the state line, the question and the answer box.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-exam-tool.h"
#include "viva-examiner-panel-private.h"

static void
state_cb (VivaExaminerPanel *self)
{
  VivaExaminerState state = _viva_examiner_panel_get_state (self);

  if (state == VIVA_EXAMINER_STATE_CANCELLED)
    {
      _viva_examiner_panel_end_message (self);
      _viva_examiner_panel_add_row (self, VIVA_MESSAGE_NOTE, _("You stopped the defense. Submit again to start a new one."));
    }
  else if (state == VIVA_EXAMINER_STATE_FAILED)
    {
      _viva_examiner_panel_end_message (self);
    }

  _viva_examiner_panel_update (self);
}

static const char *
running_text (const char *tool)
{
  const VivaExamToolFacts *facts = viva_exam_tool_facts_lookup (tool);

  return facts ? viva_exam_tool_facts_get_running_text (facts) : _("Working…");
}

/* Recomputes the state line, the question and the answer box from the
 * examiner; the one place that does. */
void
_viva_examiner_panel_update (VivaExaminerPanel *self)
{
  VivaExaminerState state = _viva_examiner_panel_get_state (self);
  const char *error = _viva_examiner_panel_get_error (self);
  const char *question = _viva_examiner_panel_get_question (self);
  gboolean shown = _viva_examiner_panel_has_defense (self);
  /* A defense on the exam server: the server's to stop or retry. */
  gboolean remote = shown && _viva_examiner_panel_get_local (self) == NULL;
  const char *text = NULL, *icon = NULL, *hint;
  gboolean busy = FALSE, can_send, waiting;
  g_autofree char *busy_text = NULL;

  switch (state)
    {
    case VIVA_EXAMINER_STATE_IDLE:
      text = shown ? _("Starting…") : NULL;
      busy = shown;
      break;

    case VIVA_EXAMINER_STATE_THINKING:
      if (self->model_loading)
        text = _("Loading the model… the first answer can take a minute");
      /* A lab's shared server with a queue: calm, counting, with Stop. */
      else if (viva_defense_view_get_busy (self->defense))
        text = busy_text = g_strdup_printf (_("The lab’s model server is busy — waiting (%u s)"),
                                            (guint)((g_get_monotonic_time () - viva_defense_view_get_busy_since (self->defense)) / G_USEC_PER_SEC));
      else
        text = self->asking ? _("The examiner is answering…") : _("Thinking…");
      busy = TRUE;
      break;

    case VIVA_EXAMINER_STATE_RUNNING_TOOL:
      text = running_text (self->running_tool);
      busy = TRUE;
      break;

    case VIVA_EXAMINER_STATE_WAITING_FOR_STUDENT:
      text = _("Waiting for your answer");
      icon = "dialog-question-symbolic";
      break;

    case VIVA_EXAMINER_STATE_FINISHED:
      text = _("Defense finished");
      icon = "emblem-ok-symbolic";
      break;

    case VIVA_EXAMINER_STATE_FAILED:
      text = _("The examiner stopped because of an error");
      icon = "dialog-warning-symbolic";
      break;

    case VIVA_EXAMINER_STATE_CANCELLED:
      text = _("Defense stopped");
      icon = "process-stop-symbolic";
      break;

    default:
      g_assert_not_reached ();
    }

  gtk_revealer_set_reveal_child (self->state_revealer, text != NULL);
  if (text != NULL)
    gtk_label_set_label (self->state_label, text);
  gtk_spinner_set_spinning (self->state_spinner, busy);
  gtk_widget_set_visible (GTK_WIDGET (self->state_spinner), busy);
  gtk_widget_set_visible (GTK_WIDGET (self->state_icon), icon != NULL);
  if (icon != NULL)
    gtk_image_set_from_icon_name (self->state_icon, icon);
  gtk_widget_set_visible (GTK_WIDGET (self->stop_button),
                          busy || state == VIVA_EXAMINER_STATE_WAITING_FOR_STUDENT);

  /* A failed follow-up is sent again from the answer box instead; the
   * exam server's defense is the server's to retry. */
  gtk_widget_set_visible (GTK_WIDGET (self->retry_button), state == VIVA_EXAMINER_STATE_FAILED && !remote);
  /* Stopping is for a defense on this PC: a graded one goes on. */
  if (remote)
    gtk_widget_set_visible (GTK_WIDGET (self->stop_button), FALSE);

  if (error != NULL && state == VIVA_EXAMINER_STATE_FAILED)
    viva_examiner_panel_show_error (self, error);
  else if (error != NULL && remote)
    viva_examiner_panel_show_error (self, error);
  else if (state != VIVA_EXAMINER_STATE_FAILED && shown)
    viva_examiner_panel_show_error (self, NULL);

  waiting = state == VIVA_EXAMINER_STATE_WAITING_FOR_STUDENT && question != NULL;
  if (waiting)
    gtk_label_set_label (self->question_label, question);
  gtk_revealer_set_reveal_child (self->question_revealer, waiting);

  can_send = _viva_examiner_panel_can_send (self);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "panel.send", can_send);
  gtk_widget_set_sensitive (GTK_WIDGET (self->answer_view), can_send);
  /* Greyed out, Send says why, as its tooltip and to a screen reader. */
  {
    const char *why = _("Send (Ctrl+Enter)");

    if (!can_send)
      why = self->asking ? _("Wait for the examiner’s answer")
            : state == VIVA_EXAMINER_STATE_FINISHED && self->no_followup ? _("This exam does not allow questions after the verdict")
            : state == VIVA_EXAMINER_STATE_FINISHED ? _("The defense is over")
            : _("Wait for the examiner’s question");
    if (g_strcmp0 (gtk_widget_get_tooltip_text (GTK_WIDGET (self->send_button)), why) != 0)
      {
        gtk_widget_set_tooltip_text (GTK_WIDGET (self->send_button), why);
        gtk_accessible_update_property (GTK_ACCESSIBLE (self->send_button), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, why, -1);
      }
  }
  gtk_revealer_set_reveal_child (self->answer_revealer, shown);
  /* A question, the verdict or an answer to a follow-up: the student types
   * next, so the box takes the focus (it cannot while insensitive, which
   * is why this is here rather than in the signal handlers). */
  if (can_send && !self->could_send)
    gtk_widget_grab_focus (GTK_WIDGET (self->answer_view));
  self->could_send = can_send;

  if (state == VIVA_EXAMINER_STATE_WAITING_FOR_STUDENT)
    hint = _("Answer in your own words. Ctrl+Enter sends.");
  else if (can_send)
    hint = _("Ask the examiner about the verdict. Ctrl+Enter sends.");
  else if (state == VIVA_EXAMINER_STATE_FAILED)
    hint = _("What you typed is kept. Retry when the examiner is reachable again.");
  else if (state == VIVA_EXAMINER_STATE_FINISHED && (self->no_followup || remote))
    hint = _("Questions after the verdict are off in this exam.");
  else
    hint = _("You can answer when the examiner asks you a question.");
  gtk_label_set_label (self->hint_label, hint);
}

/**
 * viva_examiner_panel_show_error:
 * @message: (nullable): what went wrong and what to do, or %NULL to hide
 *
 * Shows @message in the banner at the top of the panel, with Retry.
 */
void
viva_examiner_panel_show_error (VivaExaminerPanel *self,
                                const char        *message)
{
  g_return_if_fail (VIVA_IS_EXAMINER_PANEL (self));

  if (message != NULL)
    gtk_label_set_label (self->error_label, message);
  gtk_revealer_set_reveal_child (self->error_revealer, message != NULL);
}

static gboolean
busy_tick_cb (gpointer user_data)
{
  _viva_examiner_panel_update (user_data);
  return G_SOURCE_CONTINUE;
}

static void
busy_cb (VivaExaminerPanel *self)
{
  if (self->defense != NULL && viva_defense_view_get_busy (self->defense))
    {
      if (self->busy_tick == 0)
        self->busy_tick = g_timeout_add_seconds (1, busy_tick_cb, self);
    }
  else
    g_clear_handle_id (&self->busy_tick, g_source_remove);

  _viva_examiner_panel_update (self);
}

/**
 * viva_examiner_panel_set_unreachable:
 * @base_url: (nullable): the endpoint where no model answered, or %NULL
 *   when one does (or none is wanted)
 *
 * Before any defense, shows how to start Ollama and offers the offline
 * examiner when no model answers.
 */
void
viva_examiner_panel_set_unreachable (VivaExaminerPanel *self,
                                     const char        *base_url)
{
  g_return_if_fail (VIVA_IS_EXAMINER_PANEL (self));

  if (base_url != NULL)
    {
      g_autoptr(GUri) uri = g_uri_parse (base_url, G_URI_FLAGS_NONE, NULL);
      const char *host = uri ? g_uri_get_host (uri) : NULL;
      gboolean here = host == NULL || g_str_equal (host, "localhost") ||
                      g_str_has_prefix (host, "127.") || g_str_equal (host, "::1");
      g_autofree char *text = NULL;

      /* Installing Ollama is advice for this computer's owner, not for a
       * student at a lab PC whose teacher set up a server. */
      if (here)
        text = g_strdup_printf (_("No model answers at %s yet."), base_url);
      else
        text = g_strdup_printf (_("Your class’s examiner at %s does not answer yet. If it stays so, tell your teacher."),
                                host);
      gtk_label_set_label (self->setup_label, text);
      gtk_widget_set_visible (self->ollama_label, here);
      gtk_widget_set_visible (self->commands_label, here);
    }
  gtk_revealer_set_reveal_child (self->setup_revealer, base_url != NULL);
}
void
_viva_examiner_panel_init_state (VivaExaminerPanel *self)
{
  _viva_examiner_panel_connect (self, "notify::busy", G_CALLBACK (busy_cb));
  _viva_examiner_panel_connect (self, "notify::state", G_CALLBACK (state_cb));
  _viva_examiner_panel_connect (self, "notify::error-message", G_CALLBACK (_viva_examiner_panel_update));
  _viva_examiner_panel_connect (self, "notify::pending-question", G_CALLBACK (_viva_examiner_panel_update));
}

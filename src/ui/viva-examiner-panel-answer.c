/* viva-examiner-panel-answer.c
 *
 * The examiner panel's answer box: answering the examiner's question,
 * asking it about the verdict afterwards, Ctrl+Enter, and what an exam
 * needs of the box (an answer given when time runs out).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-exam-session.h"
#include "viva-examiner-panel-private.h"

/* How long typing pauses before the draft of an answer is kept: a kill
 * loses at most this much of it. */
#define DRAFT_SAVE_DELAY_MS 500

/* The draft is kept in the session of an examiner on this PC. */
static VivaExamSession *
answer_session (VivaExaminerPanel *self)
{
  VivaExaminer *examiner = _viva_examiner_panel_get_local (self);

  return examiner ? viva_examiner_get_session (examiner) : NULL;
}

static void
forget_draft (VivaExaminerPanel *self)
{
  VivaExamSession *session = answer_session (self);

  g_clear_handle_id (&self->draft_save, g_source_remove);
  if (session != NULL)
    viva_exam_session_save_answer_draft (session, "");
}

static gboolean
save_draft_cb (gpointer user_data)
{
  VivaExaminerPanel *self = user_data;
  VivaExamSession *session = answer_session (self);
  g_autofree char *text = NULL;

  self->draft_save = 0;
  if (session != NULL)
    {
      GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->answer_view);
      GtkTextIter start, end;

      gtk_text_buffer_get_bounds (buffer, &start, &end);
      text = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
      viva_exam_session_save_answer_draft (session, text);
    }

  return G_SOURCE_REMOVE;
}

static void
answer_changed_cb (VivaExaminerPanel *self)
{
  if (self->restoring_draft || _viva_examiner_panel_get_local (self) == NULL ||
      _viva_examiner_panel_get_state (self) != VIVA_EXAMINER_STATE_WAITING_FOR_STUDENT)
    return;

  g_clear_handle_id (&self->draft_save, g_source_remove);
  self->draft_save = g_timeout_add (DRAFT_SAVE_DELAY_MS, save_draft_cb, self);
}

/* A defense continued after a restart asks its pending question again:
 * what the student had typed of the answer comes back with it. */
void
_viva_examiner_panel_restore_draft (VivaExaminerPanel *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->answer_view);
  VivaExamSession *session = answer_session (self);
  g_autofree char *draft = NULL;

  if (session == NULL ||
      _viva_examiner_panel_get_state (self) != VIVA_EXAMINER_STATE_WAITING_FOR_STUDENT ||
      _viva_examiner_panel_get_question (self) == NULL ||
      gtk_text_buffer_get_char_count (buffer) > 0)
    return;

  if ((draft = viva_exam_session_dup_answer_draft (session)) == NULL)
    return;

  self->restoring_draft = TRUE;
  gtk_text_buffer_set_text (buffer, draft, -1);
  self->restoring_draft = FALSE;
}

/**
 * _viva_examiner_panel_drop_draft_save:
 *
 * Called as the panel lets go of its examiner: a save still waiting would
 * write to the next defense's session.
 */
void
_viva_examiner_panel_drop_draft_save (VivaExaminerPanel *self)
{
  if (self->draft_save != 0)
    save_draft_cb (self);
}

gboolean
_viva_examiner_panel_can_send (VivaExaminerPanel *self)
{
  VivaExaminerState state;

  if (!_viva_examiner_panel_has_defense (self) || self->asking)
    return FALSE;

  state = _viva_examiner_panel_get_state (self);

  /* Questions after the verdict go to an examiner on this PC only. */
  return state == VIVA_EXAMINER_STATE_WAITING_FOR_STUDENT ||
         (state == VIVA_EXAMINER_STATE_FINISHED && !self->no_followup &&
          _viva_examiner_panel_get_local (self) != NULL && _viva_examiner_panel_get_verdict (self) != NULL);
}

static void
ask_cb (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  g_autoptr(VivaExaminerPanel) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *answer = NULL;

  answer = viva_examiner_ask_finish (VIVA_EXAMINER (object), result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self->asking = FALSE;

  /* A model that did not stream still answered. */
  if (answer != NULL && answer[0] != '\0' && !self->ask_streamed)
    viva_message_row_set_text (_viva_examiner_panel_ensure_message (self), answer);
  _viva_examiner_panel_end_message (self);
  /* The reply is what the student waited for: in view, even if the focus
   * wandered into the conversation and scrolled it meanwhile. */
  if (error == NULL)
    viva_chat_view_scroll_to_end (self->chat_view);

  if (error != NULL)
    {
      GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->answer_view);

      /* Give the question back, so it can be sent again. */
      if (gtk_text_buffer_get_char_count (buffer) == 0 && self->asked != NULL)
        gtk_text_buffer_set_text (buffer, self->asked, -1);
      viva_examiner_panel_show_error (self, error->message);
    }
  g_clear_pointer (&self->asked, g_free);

  _viva_examiner_panel_update (self);
}

static void
send_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  VivaExaminerPanel *self = VIVA_EXAMINER_PANEL (widget);
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->answer_view);
  g_autofree char *text = viva_examiner_panel_dup_answer (self);
  g_autoptr(GError) error = NULL;

  if (!_viva_examiner_panel_can_send (self))
    return;

  if (text[0] == '\0')
    {
      gtk_widget_error_bell (GTK_WIDGET (self->answer_view));
      gtk_widget_grab_focus (GTK_WIDGET (self->answer_view));
      return;
    }

  if (_viva_examiner_panel_get_state (self) == VIVA_EXAMINER_STATE_WAITING_FOR_STUDENT)
    {
      /* Cleared only once the examiner has it: nothing typed is lost. */
      if (!_viva_examiner_panel_answer (self, text, &error))
        {
          viva_examiner_panel_show_error (self, error->message);
          return;
        }
      forget_draft (self);
      gtk_text_buffer_set_text (buffer, "", 0);
      /* The student acted: what follows comes into view, even if they had
       * scrolled up to reread. */
      viva_chat_view_scroll_to_end (self->chat_view);
      _viva_examiner_panel_update (self);
      return;
    }

  _viva_examiner_panel_end_message (self);
  _viva_examiner_panel_add_row (self, VIVA_MESSAGE_STUDENT, text);
  viva_chat_view_scroll_to_end (self->chat_view);
  gtk_text_buffer_set_text (buffer, "", 0);
  self->asking = TRUE;
  self->ask_streamed = FALSE;
  g_free (self->asked);
  self->asked = g_strdup (text);
  _viva_examiner_panel_update (self);

  viva_examiner_ask_async (_viva_examiner_panel_get_local (self), text, self->cancellable, ask_cb, g_object_ref (self));
}

/**
 * viva_examiner_panel_set_followup_allowed:
 *
 * Whether the student may ask the examiner after the verdict (an exam may
 * forbid it).
 */
void
viva_examiner_panel_set_followup_allowed (VivaExaminerPanel *self,
                                          gboolean           allowed)
{
  g_return_if_fail (VIVA_IS_EXAMINER_PANEL (self));

  self->no_followup = !allowed;
  _viva_examiner_panel_update (self);
}

/**
 * viva_examiner_panel_send_answer_now:
 * @fallback: the answer to give when nothing is typed
 *
 * When the examiner waits for an answer, gives it what is typed in the
 * answer box, or @fallback: an exam's time ran out.
 *
 * Returns: whether an answer was given
 */
gboolean
viva_examiner_panel_send_answer_now (VivaExaminerPanel *self,
                                     const char        *fallback)
{
  g_autofree char *text = NULL;

  g_return_val_if_fail (VIVA_IS_EXAMINER_PANEL (self), FALSE);
  g_return_val_if_fail (fallback != NULL, FALSE);

  if (_viva_examiner_panel_get_state (self) != VIVA_EXAMINER_STATE_WAITING_FOR_STUDENT)
    return FALSE;

  text = viva_examiner_panel_dup_answer (self);
  if (!_viva_examiner_panel_answer (self, text[0] != '\0' ? text : fallback, NULL))
    return FALSE;

  forget_draft (self);
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->answer_view), "", 0);
  _viva_examiner_panel_update (self);
  return TRUE;
}

/**
 * viva_examiner_panel_claim_ctrl_enter:
 *
 * Ctrl+Enter is also the app's Run shortcut, and application shortcuts
 * are handled before the focused widget's own. The window's Run asks this
 * first: with the answer box focused, Ctrl+Enter sends the answer.
 *
 * Returns: %TRUE if the key press was the panel's
 */
gboolean
viva_examiner_panel_claim_ctrl_enter (VivaExaminerPanel *self)
{
  g_return_val_if_fail (VIVA_IS_EXAMINER_PANEL (self), FALSE);

  if (!gtk_widget_has_focus (GTK_WIDGET (self->answer_view)))
    return FALSE;

  gtk_widget_activate_action (GTK_WIDGET (self), "panel.send", NULL);

  return TRUE;
}

/**
 * viva_examiner_panel_focus_answer:
 *
 * Puts the keyboard focus in the answer box.
 *
 * Returns: %TRUE if the box can take an answer now
 */
gboolean
viva_examiner_panel_focus_answer (VivaExaminerPanel *self)
{
  g_return_val_if_fail (VIVA_IS_EXAMINER_PANEL (self), FALSE);

  if (!_viva_examiner_panel_can_send (self))
    return FALSE;

  return gtk_widget_grab_focus (GTK_WIDGET (self->answer_view));
}

/**
 * viva_examiner_panel_dup_answer:
 *
 * Returns: (transfer full): what the student has typed, trimmed
 */
char *
viva_examiner_panel_dup_answer (VivaExaminerPanel *self)
{
  GtkTextBuffer *buffer;
  GtkTextIter start, end;
  char *text;

  g_return_val_if_fail (VIVA_IS_EXAMINER_PANEL (self), NULL);

  buffer = gtk_text_view_get_buffer (self->answer_view);
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  text = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);

  return g_strstrip (text);
}
void
_viva_examiner_panel_class_init_answer (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "panel.send", NULL, send_action);
}

void
_viva_examiner_panel_init_answer (VivaExaminerPanel *self)
{
  GtkEventController *shortcuts;
  GtkShortcut *shortcut;

  /* Ctrl+Enter sends from the answer box; in capture phase, so the text
   * view does not take it as a new line first. */
  shortcuts = gtk_shortcut_controller_new ();
  gtk_event_controller_set_propagation_phase (shortcuts, GTK_PHASE_CAPTURE);
  shortcut = gtk_shortcut_new (gtk_alternative_trigger_new (gtk_shortcut_trigger_parse_string ("<Control>Return"),
                                                            gtk_shortcut_trigger_parse_string ("<Control>KP_Enter")),
                               gtk_named_action_new ("panel.send"));
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts), shortcut);
  gtk_widget_add_controller (GTK_WIDGET (self->answer_view), shortcuts);

  g_signal_connect_object (gtk_text_view_get_buffer (self->answer_view), "changed",
                           G_CALLBACK (answer_changed_cb), self, G_CONNECT_SWAPPED);
  _viva_examiner_panel_connect (self, "notify::pending-question", G_CALLBACK (_viva_examiner_panel_restore_draft));
  _viva_examiner_panel_connect (self, "notify::state", G_CALLBACK (_viva_examiner_panel_restore_draft));
}

/* viva-examiner-panel-transcript.c
 *
 * The examiner panel's conversation: the examiner's words as they stream,
 * tool cards, questions and answers, notes and the verdict, and a resumed
 * defense replayed from its report.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-exam-tool.h"
#include "viva-examiner-panel-private.h"
#include "viva-json-member.h"
#include "viva-tool-card.h"
#include "viva-verdict-card.h"

void
_viva_examiner_panel_show_chat (VivaExaminerPanel *self)
{
  gtk_stack_set_visible_child_name (self->stack, "chat");
}

VivaMessageRow *
_viva_examiner_panel_add_row (VivaExaminerPanel *self,
                             VivaMessageKind    kind,
                             const char        *text)
{
  GtkWidget *row = viva_message_row_new (kind);

  if (text != NULL)
    viva_message_row_set_text (VIVA_MESSAGE_ROW (row), text);
  viva_chat_view_append (self->chat_view, row);
  _viva_examiner_panel_show_chat (self);

  return VIVA_MESSAGE_ROW (row);
}

/* Ends the examiner message being streamed; one that said nothing (a
 * reply that only called a tool) leaves no trace. */
void
_viva_examiner_panel_end_message (VivaExaminerPanel *self)
{
  VivaMessageRow *row = g_steal_pointer (&self->current);

  if (row == NULL)
    return;

  viva_message_row_finish (row);
  if (viva_message_row_get_empty (row))
    viva_chat_view_remove (self->chat_view, GTK_WIDGET (row));
}

VivaMessageRow *
_viva_examiner_panel_ensure_message (VivaExaminerPanel *self)
{
  if (self->current == NULL)
    self->current = _viva_examiner_panel_add_row (self, VIVA_MESSAGE_EXAMINER, NULL);

  return self->current;
}

/**
 * viva_examiner_panel_add_note:
 *
 * Adds a small muted line to the conversation.
 */
void
viva_examiner_panel_add_note (VivaExaminerPanel *self,
                              const char        *text)
{
  g_return_if_fail (VIVA_IS_EXAMINER_PANEL (self));
  g_return_if_fail (text != NULL);

  _viva_examiner_panel_end_message (self);
  _viva_examiner_panel_add_row (self, VIVA_MESSAGE_NOTE, text);
}

static void
delta_cb (VivaExaminerPanel   *self,
          const VivaChatDelta *delta,
          gpointer             defense)
{
  switch (delta->kind)
    {
    case VIVA_CHAT_DELTA_CONTENT:
      viva_message_row_append_content (_viva_examiner_panel_ensure_message (self), delta->text, -1);
      self->ask_streamed |= self->asking;
      break;

    case VIVA_CHAT_DELTA_REASONING:
      viva_message_row_append_reasoning (_viva_examiner_panel_ensure_message (self), delta->text, -1);
      break;

    case VIVA_CHAT_DELTA_TOOL_CALL:
    case VIVA_CHAT_DELTA_USAGE:
    default:
      break;
    }

  /* The first byte arrived: the model is loaded. */
  viva_examiner_panel_set_model_loading (self, FALSE);
}

static void
reply_cb (VivaExaminerPanel *self,
          gpointer           message,
          gpointer           defense)
{
  _viva_examiner_panel_end_message (self);
}

static gboolean
tool_has_card (const char *name)
{
  const VivaExamToolFacts *facts = viva_exam_tool_facts_lookup (name);

  /* Tools that ask, speak or finish speak for themselves: a question, a
   * message, the verdict. */
  return facts == NULL || facts->kind == VIVA_EXAM_TOOL_KIND_ORDINARY;
}

/* The argument of a recorded call that the student read. */
static const char *
shown_text (const VivaExamToolFacts *facts,
            JsonObject              *arguments)
{
  if (facts == NULL || facts->shown_argument == NULL || arguments == NULL)
    return NULL;

  return json_object_get_string_member_with_default (arguments, facts->shown_argument, NULL);
}

static void
tool_started_cb (VivaExaminerPanel *self,
                 const char        *step_id,
                 const char        *name,
                 const char        *arguments,
                 gpointer           defense)
{
  g_autoptr(JsonNode) node = NULL;
  JsonObject *object = NULL;
  GtkWidget *card;

  _viva_examiner_panel_end_message (self);

  g_free (self->running_tool);
  self->running_tool = g_strdup (name);
  _viva_examiner_panel_update (self);

  if (!tool_has_card (name))
    return;

  if (arguments != NULL && (node = json_from_string (arguments, NULL)) && JSON_NODE_HOLDS_OBJECT (node))
    object = json_node_get_object (node);

  card = viva_tool_card_new (name, object);
  g_object_set_data_full (G_OBJECT (card), STARTED_KEY,
                          g_memdup2 (&(gint64){ g_get_monotonic_time () }, sizeof (gint64)), g_free);
  g_hash_table_replace (self->cards, g_strdup (step_id ? step_id : ""), card);
  viva_chat_view_append (self->chat_view, card);
  _viva_examiner_panel_show_chat (self);
}

static const char *
error_text (JsonObject *result)
{
  JsonNode *error;

  if (result == NULL || !json_object_has_member (result, "error"))
    return NULL;

  error = json_object_get_member (result, "error");
  if (JSON_NODE_HOLDS_VALUE (error) && json_node_get_value_type (error) == G_TYPE_STRING)
    return json_node_get_string (error);
  if (JSON_NODE_HOLDS_OBJECT (error))
    return json_object_get_string_member_with_default (json_node_get_object (error), "message", NULL);

  return NULL;
}

/**
 * viva_examiner_panel_replay:
 * @transcript: a report's transcript (see viva_exam_report_build())
 *
 * Shows a resumed defense's earlier conversation, finished steps as
 * finished cards. A step without a result is left out: the examiner redoes
 * it, and asks a pending question again, once it resumes.
 */
void
viva_examiner_panel_replay (VivaExaminerPanel *self,
                            JsonArray         *transcript)
{
  g_return_if_fail (VIVA_IS_EXAMINER_PANEL (self));

  _viva_examiner_panel_end_message (self);

  for (guint i = 0; transcript != NULL && i < json_array_get_length (transcript); i++)
    {
      JsonObject *entry = json_array_get_object_element (transcript, i);
      const char *kind = json_object_get_string_member_with_default (entry, "kind", "");
      const char *text = json_object_get_string_member_with_default (entry, "text", NULL);
      const char *name;
      const VivaExamToolFacts *facts;
      JsonObject *arguments, *result;

      if (g_str_equal (kind, "examiner") && text != NULL)
        viva_message_row_finish (_viva_examiner_panel_add_row (self, VIVA_MESSAGE_EXAMINER, text));
      else if (g_str_equal (kind, "student") && text != NULL)
        _viva_examiner_panel_add_row (self, VIVA_MESSAGE_STUDENT, text);
      if (!g_str_equal (kind, "tool"))
        continue;

      name = json_object_get_string_member_with_default (entry, "name", "");
      facts = viva_exam_tool_facts_lookup (name);
      arguments = viva_json_member_object (entry, "arguments");
      result = viva_json_member_object (entry, "result");
      if (result == NULL)
        continue;

      if (facts != NULL && facts->kind == VIVA_EXAM_TOOL_KIND_WAITS)
        {
          const char *question = shown_text (facts, arguments);
          const char *answer = json_object_get_string_member_with_default (result, "answer", NULL);

          if (question != NULL)
            _viva_examiner_panel_add_row (self, VIVA_MESSAGE_QUESTION, question);
          if (answer != NULL)
            _viva_examiner_panel_add_row (self, VIVA_MESSAGE_STUDENT, answer);
        }
      else if (facts != NULL && facts->kind == VIVA_EXAM_TOOL_KIND_SPEAKS)
        {
          const char *note = shown_text (facts, arguments);

          if (note != NULL)
            viva_message_row_finish (_viva_examiner_panel_add_row (self, VIVA_MESSAGE_EXAMINER, note));
        }
      else if (tool_has_card (name))
        {
          GtkWidget *card = viva_tool_card_new (name, arguments);
          gboolean ok = !json_object_has_member (entry, "ok") || json_object_get_boolean_member (entry, "ok");
          double duration = json_object_has_member (entry, "duration_ms")
                            ? json_object_get_double_member (entry, "duration_ms") : -1;

          if (ok)
            viva_tool_card_set_result (VIVA_TOOL_CARD (card), result, duration);
          else
            {
              const char *message = error_text (result);
              viva_tool_card_set_error (VIVA_TOOL_CARD (card), message ? message : _("This step could not run."));
            }
          viva_chat_view_append (self->chat_view, card);
          _viva_examiner_panel_show_chat (self);
        }
    }
}

static void
tool_finished_cb (VivaExaminerPanel *self,
                  const char        *step_id,
                  const char        *name,
                  JsonNode          *result,
                  gboolean           ok,
                  gpointer           defense)
{
  VivaToolCard *card = g_hash_table_lookup (self->cards, step_id ? step_id : "");
  JsonObject *object = result && JSON_NODE_HOLDS_OBJECT (result) ? json_node_get_object (result) : NULL;

  g_clear_pointer (&self->running_tool, g_free);
  _viva_examiner_panel_update (self);

  if (card == NULL)
    return;

  if (ok && object != NULL)
    {
      const gint64 *started = g_object_get_data (G_OBJECT (card), STARTED_KEY);
      double duration = started ? (g_get_monotonic_time () - *started) / 1000.0 : -1;

      viva_tool_card_set_result (card, object, duration);
    }
  else
    {
      const char *message = error_text (object);

      viva_tool_card_set_error (card, message ? message : _("This step could not run."));
    }
}

static void
viva_examiner_panel_notify_question (VivaExaminerPanel *self,
                                     const char        *question)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GApplication *app = g_application_get_default ();
  g_autoptr(GNotification) notification = NULL;

  if (app == NULL || (GTK_IS_WINDOW (root) && gtk_window_is_active (GTK_WINDOW (root))))
    return;

  notification = g_notification_new (_("The examiner asked you a question"));
  g_notification_set_body (notification, question);
  g_notification_set_priority (notification, G_NOTIFICATION_PRIORITY_HIGH);
  g_application_send_notification (app, "viva-question", notification);
}

static void
question_cb (VivaExaminerPanel *self,
             const char        *step_id,
             const char        *question,
             gpointer           defense)
{
  _viva_examiner_panel_end_message (self);
  _viva_examiner_panel_add_row (self, VIVA_MESSAGE_QUESTION, question);
  viva_chat_view_scroll_to_end (self->chat_view);
  _viva_examiner_panel_update (self);

  gtk_widget_grab_focus (GTK_WIDGET (self->answer_view));
  viva_examiner_panel_notify_question (self, question);
}

static void
answer_cb (VivaExaminerPanel *self,
           const char        *answer,
           gpointer           defense)
{
  GApplication *app = g_application_get_default ();

  /* A follow-up question was added when it was sent. */
  if (self->asking)
    return;

  _viva_examiner_panel_end_message (self);
  _viva_examiner_panel_add_row (self, VIVA_MESSAGE_STUDENT, answer);
  if (app != NULL)
    g_application_withdraw_notification (app, "viva-question");
}

static void
message_cb (VivaExaminerPanel *self,
            const char        *text,
            gpointer           defense)
{
  _viva_examiner_panel_end_message (self);
  _viva_examiner_panel_add_row (self, VIVA_MESSAGE_EXAMINER, text);
}

static void
refused_cb (VivaExaminerPanel *self,
            const char        *name,
            const char        *reason,
            gpointer           defense)
{
  g_autofree char *text = NULL;

  text = g_strdup_printf (_("Viva did not let the examiner do this yet (%s): %s"),
                          viva_exam_tool_title (name), reason ? reason : "");
  viva_examiner_panel_add_note (self, text);
}

static void
verdict_cb (VivaExaminerPanel *self,
            VivaExamVerdict   *verdict,
            gpointer           defense)
{
  _viva_examiner_panel_end_message (self);
  /* A model failure is the banner's to say, with Retry, not a verdict's. */
  if (viva_exam_verdict_get_status (verdict) != VIVA_EXAM_STATUS_FAILED)
    viva_chat_view_append (self->chat_view, viva_verdict_card_new (verdict));
  _viva_examiner_panel_show_chat (self);
  _viva_examiner_panel_update (self);
}

/**
 * viva_examiner_panel_clear:
 *
 * Empties the conversation for a new defense. What the student has typed
 * in the answer box stays.
 */
void
viva_examiner_panel_clear (VivaExaminerPanel *self)
{
  g_return_if_fail (VIVA_IS_EXAMINER_PANEL (self));

  self->current = NULL;
  g_hash_table_remove_all (self->cards);
  viva_chat_view_clear (self->chat_view);
  viva_examiner_panel_show_error (self, NULL);
  gtk_stack_set_visible_child_name (self->stack, _viva_examiner_panel_has_defense (self) ? "chat" : "empty");
}

VivaChatView *
viva_examiner_panel_get_chat_view (VivaExaminerPanel *self)
{
  g_return_val_if_fail (VIVA_IS_EXAMINER_PANEL (self), NULL);

  return self->chat_view;
}
void
_viva_examiner_panel_init_transcript (VivaExaminerPanel *self)
{
  _viva_examiner_panel_connect (self, "reply", G_CALLBACK (reply_cb));
  _viva_examiner_panel_connect (self, "delta", G_CALLBACK (delta_cb));
  _viva_examiner_panel_connect (self, "tool-started", G_CALLBACK (tool_started_cb));
  _viva_examiner_panel_connect (self, "tool-finished", G_CALLBACK (tool_finished_cb));
  _viva_examiner_panel_connect (self, "question", G_CALLBACK (question_cb));
  _viva_examiner_panel_connect (self, "answer", G_CALLBACK (answer_cb));
  _viva_examiner_panel_connect (self, "message", G_CALLBACK (message_cb));
  _viva_examiner_panel_connect (self, "refused", G_CALLBACK (refused_cb));
  _viva_examiner_panel_connect (self, "verdict", G_CALLBACK (verdict_cb));
}

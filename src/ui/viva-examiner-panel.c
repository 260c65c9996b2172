/* viva-examiner-panel.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "viva-chat-view.h"
#include "viva-exam-tool.h"
#include "viva-examiner-panel.h"
#include "viva-message-row.h"
#include "viva-openai-model.h"
#include "viva-tool-card.h"
#include "viva-verdict-card.h"

/* The right-hand panel where the defense takes place: a state line with
 * Stop, the conversation (the examiner's words, tool cards, notes and the
 * verdict), and the answer box with the question being asked above it.
 *
 * The panel shows a VivaExaminer and answers it; it does not create or run
 * one. The window does that (viva-window-exam.c) and owns `exam.stop` and
 * `exam.retry`, which the state line and the error banner trigger. */

#define STARTED_KEY "viva-started-us"

struct _VivaExaminerPanel
{
  GtkWidget       parent_instance;

  /* Template widgets */
  GtkRevealer    *error_revealer;
  GtkLabel       *error_label;
  GtkButton      *retry_button;
  GtkRevealer    *state_revealer;
  GtkSpinner     *state_spinner;
  GtkImage       *state_icon;
  GtkLabel       *state_label;
  GtkButton      *stop_button;
  GtkStack       *stack;
  GtkRevealer    *setup_revealer;
  GtkLabel       *setup_label;
  GtkWidget      *ollama_label;
  GtkWidget      *commands_label;
  VivaChatView   *chat_view;
  GtkRevealer    *answer_revealer;
  GtkRevealer    *question_revealer;
  GtkLabel       *question_label;
  GtkTextView    *answer_view;
  GtkLabel       *hint_label;

  /* State */
  VivaExaminer   *examiner;
  GSignalGroup   *signals;
  VivaMessageRow *current;       /* the examiner message streaming now */
  GHashTable     *cards;         /* step id → VivaToolCard, owned by the view */
  char           *running_tool;
  char           *asked;         /* the follow-up question in flight */
  GCancellable   *cancellable;   /* follow-up questions */
  guint           asking : 1;
  guint           ask_streamed : 1;  /* the follow-up's answer came as deltas */
  guint           no_followup : 1;   /* an exam forbids questions after the verdict */
  guint           model_loading : 1;
  GSignalGroup   *model_signals; /* the examiner's VivaOpenAIModel, for busy */
  guint           busy_tick;     /* redraws "waiting (N s)" each second */
  guint           could_send : 1;
};

enum {
  PROP_0,
  PROP_EXAMINER,
  PROP_MODEL_LOADING,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (VivaExaminerPanel, viva_examiner_panel, GTK_TYPE_WIDGET)

static GParamSpec *properties[N_PROPS];

static void viva_examiner_panel_update (VivaExaminerPanel *self);

static void
viva_examiner_panel_show_chat (VivaExaminerPanel *self)
{
  gtk_stack_set_visible_child_name (self->stack, "chat");
}

static VivaMessageRow *
viva_examiner_panel_add_row (VivaExaminerPanel *self,
                             VivaMessageKind    kind,
                             const char        *text)
{
  GtkWidget *row = viva_message_row_new (kind);

  if (text != NULL)
    viva_message_row_set_text (VIVA_MESSAGE_ROW (row), text);
  viva_chat_view_append (self->chat_view, row);
  viva_examiner_panel_show_chat (self);

  return VIVA_MESSAGE_ROW (row);
}

/* Ends the examiner message being streamed; one that said nothing (a
 * reply that only called a tool) leaves no trace. */
static void
viva_examiner_panel_end_message (VivaExaminerPanel *self)
{
  VivaMessageRow *row = g_steal_pointer (&self->current);

  if (row == NULL)
    return;

  viva_message_row_finish (row);
  if (viva_message_row_get_empty (row))
    viva_chat_view_remove (self->chat_view, GTK_WIDGET (row));
}

static VivaMessageRow *
viva_examiner_panel_ensure_message (VivaExaminerPanel *self)
{
  if (self->current == NULL)
    self->current = viva_examiner_panel_add_row (self, VIVA_MESSAGE_EXAMINER, NULL);

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

  viva_examiner_panel_end_message (self);
  viva_examiner_panel_add_row (self, VIVA_MESSAGE_NOTE, text);
}

static void
delta_cb (VivaExaminerPanel   *self,
          const VivaChatDelta *delta,
          VivaExaminer        *examiner)
{
  gboolean loading = self->model_loading;

  switch (delta->kind)
    {
    case VIVA_CHAT_DELTA_CONTENT:
      viva_message_row_append_content (viva_examiner_panel_ensure_message (self), delta->text, -1);
      self->ask_streamed |= self->asking;
      break;

    case VIVA_CHAT_DELTA_REASONING:
      viva_message_row_append_reasoning (viva_examiner_panel_ensure_message (self), delta->text, -1);
      break;

    case VIVA_CHAT_DELTA_TOOL_CALL:
    case VIVA_CHAT_DELTA_USAGE:
    default:
      break;
    }

  /* The first byte arrived: the model is loaded. */
  self->model_loading = FALSE;
  if (loading)
    {
      viva_examiner_panel_update (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODEL_LOADING]);
    }
}

static void
reply_cb (VivaExaminerPanel *self,
          gpointer           message,
          VivaExaminer      *examiner)
{
  viva_examiner_panel_end_message (self);
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
                 VivaExaminer      *examiner)
{
  g_autoptr(JsonNode) node = NULL;
  JsonObject *object = NULL;
  GtkWidget *card;

  viva_examiner_panel_end_message (self);

  g_free (self->running_tool);
  self->running_tool = g_strdup (name);
  viva_examiner_panel_update (self);

  if (!tool_has_card (name))
    return;

  if (arguments != NULL && (node = json_from_string (arguments, NULL)) && JSON_NODE_HOLDS_OBJECT (node))
    object = json_node_get_object (node);

  card = viva_tool_card_new (name, object);
  g_object_set_data_full (G_OBJECT (card), STARTED_KEY,
                          g_memdup2 (&(gint64){ g_get_monotonic_time () }, sizeof (gint64)), g_free);
  g_hash_table_replace (self->cards, g_strdup (step_id ? step_id : ""), card);
  viva_chat_view_append (self->chat_view, card);
  viva_examiner_panel_show_chat (self);
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

static JsonObject *
member_object (JsonObject *object,
               const char *name)
{
  JsonNode *node = object ? json_object_get_member (object, name) : NULL;

  return node && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
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

  viva_examiner_panel_end_message (self);

  for (guint i = 0; transcript != NULL && i < json_array_get_length (transcript); i++)
    {
      JsonObject *entry = json_array_get_object_element (transcript, i);
      const char *kind = json_object_get_string_member_with_default (entry, "kind", "");
      const char *text = json_object_get_string_member_with_default (entry, "text", NULL);
      const char *name;
      const VivaExamToolFacts *facts;
      JsonObject *arguments, *result;

      if (g_str_equal (kind, "examiner") && text != NULL)
        viva_message_row_finish (viva_examiner_panel_add_row (self, VIVA_MESSAGE_EXAMINER, text));
      else if (g_str_equal (kind, "student") && text != NULL)
        viva_examiner_panel_add_row (self, VIVA_MESSAGE_STUDENT, text);
      if (!g_str_equal (kind, "tool"))
        continue;

      name = json_object_get_string_member_with_default (entry, "name", "");
      facts = viva_exam_tool_facts_lookup (name);
      arguments = member_object (entry, "arguments");
      result = member_object (entry, "result");
      if (result == NULL)
        continue;

      if (facts != NULL && facts->kind == VIVA_EXAM_TOOL_KIND_WAITS)
        {
          const char *question = shown_text (facts, arguments);
          const char *answer = json_object_get_string_member_with_default (result, "answer", NULL);

          if (question != NULL)
            viva_examiner_panel_add_row (self, VIVA_MESSAGE_QUESTION, question);
          if (answer != NULL)
            viva_examiner_panel_add_row (self, VIVA_MESSAGE_STUDENT, answer);
        }
      else if (facts != NULL && facts->kind == VIVA_EXAM_TOOL_KIND_SPEAKS)
        {
          const char *note = shown_text (facts, arguments);

          if (note != NULL)
            viva_message_row_finish (viva_examiner_panel_add_row (self, VIVA_MESSAGE_EXAMINER, note));
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
          viva_examiner_panel_show_chat (self);
        }
    }
}

static void
tool_finished_cb (VivaExaminerPanel *self,
                  const char        *step_id,
                  const char        *name,
                  JsonNode          *result,
                  gboolean           ok,
                  VivaExaminer      *examiner)
{
  VivaToolCard *card = g_hash_table_lookup (self->cards, step_id ? step_id : "");
  JsonObject *object = result && JSON_NODE_HOLDS_OBJECT (result) ? json_node_get_object (result) : NULL;

  g_clear_pointer (&self->running_tool, g_free);
  viva_examiner_panel_update (self);

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
             VivaExaminer      *examiner)
{
  viva_examiner_panel_end_message (self);
  viva_examiner_panel_add_row (self, VIVA_MESSAGE_QUESTION, question);
  viva_chat_view_scroll_to_end (self->chat_view);
  viva_examiner_panel_update (self);

  gtk_widget_grab_focus (GTK_WIDGET (self->answer_view));
  viva_examiner_panel_notify_question (self, question);
}

static void
answer_cb (VivaExaminerPanel *self,
           const char        *answer,
           VivaExaminer      *examiner)
{
  GApplication *app = g_application_get_default ();

  /* A follow-up question was added when it was sent. */
  if (self->asking)
    return;

  viva_examiner_panel_end_message (self);
  viva_examiner_panel_add_row (self, VIVA_MESSAGE_STUDENT, answer);
  if (app != NULL)
    g_application_withdraw_notification (app, "viva-question");
}

static void
message_cb (VivaExaminerPanel *self,
            const char        *text,
            VivaExaminer      *examiner)
{
  viva_examiner_panel_end_message (self);
  viva_examiner_panel_add_row (self, VIVA_MESSAGE_EXAMINER, text);
}

static void
refused_cb (VivaExaminerPanel *self,
            const char        *name,
            const char        *reason,
            VivaExaminer      *examiner)
{
  g_autofree char *text = NULL;

  text = g_strdup_printf (_("Viva did not let the examiner do this yet (%s): %s"),
                          viva_exam_tool_title (name), reason ? reason : "");
  viva_examiner_panel_add_note (self, text);
}

static void
verdict_cb (VivaExaminerPanel *self,
            VivaExamVerdict   *verdict,
            VivaExaminer      *examiner)
{
  viva_examiner_panel_end_message (self);
  /* A model failure is the banner's to say, with Retry, not a verdict's. */
  if (viva_exam_verdict_get_status (verdict) != VIVA_EXAM_STATUS_FAILED)
    viva_chat_view_append (self->chat_view, viva_verdict_card_new (verdict));
  viva_examiner_panel_show_chat (self);
  viva_examiner_panel_update (self);
}

static void
state_cb (VivaExaminerPanel *self,
          GParamSpec        *pspec,
          VivaExaminer      *examiner)
{
  VivaExaminerState state = viva_examiner_get_state (examiner);

  if (state == VIVA_EXAMINER_STATE_CANCELLED)
    {
      viva_examiner_panel_end_message (self);
      viva_examiner_panel_add_row (self, VIVA_MESSAGE_NOTE, _("You stopped the defense. Submit again to start a new one."));
    }
  else if (state == VIVA_EXAMINER_STATE_FAILED)
    {
      viva_examiner_panel_end_message (self);
    }

  viva_examiner_panel_update (self);
}

static const char *
running_text (const char *tool)
{
  const VivaExamToolFacts *facts = viva_exam_tool_facts_lookup (tool);

  return facts ? viva_exam_tool_facts_get_running_text (facts) : _("Working…");
}

static gboolean
viva_examiner_panel_can_send (VivaExaminerPanel *self)
{
  VivaExaminerState state;

  if (self->examiner == NULL || self->asking)
    return FALSE;

  state = viva_examiner_get_state (self->examiner);

  return state == VIVA_EXAMINER_STATE_WAITING_FOR_STUDENT ||
         (state == VIVA_EXAMINER_STATE_FINISHED && !self->no_followup &&
          viva_examiner_get_verdict (self->examiner) != NULL);
}

/* Recomputes the state line, the question and the answer box from the
 * examiner; the one place that does. */
static void
viva_examiner_panel_update (VivaExaminerPanel *self)
{
  VivaExaminerState state = self->examiner ? viva_examiner_get_state (self->examiner)
                                           : VIVA_EXAMINER_STATE_IDLE;
  const char *error = self->examiner ? viva_examiner_get_error_message (self->examiner) : NULL;
  const char *question = self->examiner ? viva_examiner_get_pending_question (self->examiner) : NULL;
  const char *text = NULL, *icon = NULL, *hint;
  gboolean busy = FALSE, can_send, waiting;
  g_autoptr(VivaOpenAIModel) model = g_signal_group_dup_target (self->model_signals);
  g_autofree char *busy_text = NULL;

  switch (state)
    {
    case VIVA_EXAMINER_STATE_IDLE:
      text = self->examiner ? _("Starting…") : NULL;
      busy = self->examiner != NULL;
      break;

    case VIVA_EXAMINER_STATE_THINKING:
      if (self->model_loading)
        text = _("Loading the model… the first answer can take a minute");
      /* A lab's shared server with a queue: calm, counting, with Stop. */
      else if (model != NULL && viva_openai_model_get_busy (model))
        text = busy_text = g_strdup_printf (_("The lab’s model server is busy — waiting (%u s)"),
                                            (guint)((g_get_monotonic_time () - viva_openai_model_get_busy_since (model)) / G_USEC_PER_SEC));
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

  /* A failed follow-up is sent again from the answer box instead. */
  gtk_widget_set_visible (GTK_WIDGET (self->retry_button), state == VIVA_EXAMINER_STATE_FAILED);

  if (error != NULL && state == VIVA_EXAMINER_STATE_FAILED)
    viva_examiner_panel_show_error (self, error);
  else if (state != VIVA_EXAMINER_STATE_FAILED && self->examiner != NULL)
    viva_examiner_panel_show_error (self, NULL);

  waiting = state == VIVA_EXAMINER_STATE_WAITING_FOR_STUDENT && question != NULL;
  if (waiting)
    gtk_label_set_label (self->question_label, question);
  gtk_revealer_set_reveal_child (self->question_revealer, waiting);

  can_send = viva_examiner_panel_can_send (self);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "panel.send", can_send);
  gtk_widget_set_sensitive (GTK_WIDGET (self->answer_view), can_send);
  gtk_revealer_set_reveal_child (self->answer_revealer, self->examiner != NULL);
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
  else if (state == VIVA_EXAMINER_STATE_FINISHED && self->no_followup)
    hint = _("Questions after the verdict are off in this exam.");
  else
    hint = _("You can answer when the examiner asks you a question.");
  gtk_label_set_label (self->hint_label, hint);
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
    viva_message_row_set_text (viva_examiner_panel_ensure_message (self), answer);
  viva_examiner_panel_end_message (self);
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

  viva_examiner_panel_update (self);
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

  if (!viva_examiner_panel_can_send (self))
    return;

  if (text[0] == '\0')
    {
      gtk_widget_error_bell (GTK_WIDGET (self->answer_view));
      gtk_widget_grab_focus (GTK_WIDGET (self->answer_view));
      return;
    }

  if (viva_examiner_get_state (self->examiner) == VIVA_EXAMINER_STATE_WAITING_FOR_STUDENT)
    {
      /* Cleared only once the examiner has it: nothing typed is lost. */
      if (!viva_examiner_answer (self->examiner, text, &error))
        {
          viva_examiner_panel_show_error (self, error->message);
          return;
        }
      gtk_text_buffer_set_text (buffer, "", 0);
      /* The student acted: what follows comes into view, even if they had
       * scrolled up to reread. */
      viva_chat_view_scroll_to_end (self->chat_view);
      viva_examiner_panel_update (self);
      return;
    }

  viva_examiner_panel_end_message (self);
  viva_examiner_panel_add_row (self, VIVA_MESSAGE_STUDENT, text);
  viva_chat_view_scroll_to_end (self->chat_view);
  gtk_text_buffer_set_text (buffer, "", 0);
  self->asking = TRUE;
  self->ask_streamed = FALSE;
  g_free (self->asked);
  self->asked = g_strdup (text);
  viva_examiner_panel_update (self);

  viva_examiner_ask_async (self->examiner, text, self->cancellable, ask_cb, g_object_ref (self));
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
  viva_examiner_panel_update (self);
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

  if (self->examiner == NULL ||
      viva_examiner_get_state (self->examiner) != VIVA_EXAMINER_STATE_WAITING_FOR_STUDENT)
    return FALSE;

  text = viva_examiner_panel_dup_answer (self);
  if (!viva_examiner_answer (self->examiner, text[0] != '\0' ? text : fallback, NULL))
    return FALSE;

  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->answer_view), "", 0);
  viva_examiner_panel_update (self);
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

  if (!viva_examiner_panel_can_send (self))
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
  gtk_stack_set_visible_child_name (self->stack, self->examiner ? "chat" : "empty");
}

VivaExaminer *
viva_examiner_panel_get_examiner (VivaExaminerPanel *self)
{
  g_return_val_if_fail (VIVA_IS_EXAMINER_PANEL (self), NULL);

  return self->examiner;
}

/**
 * viva_examiner_panel_set_examiner:
 * @examiner: (nullable): the defense to show
 *
 * Shows @examiner's defense as it happens. The conversation so far stays
 * (a retried defense carries on); call viva_examiner_panel_clear() first
 * for a new one.
 */
void
viva_examiner_panel_set_examiner (VivaExaminerPanel *self,
                                  VivaExaminer      *examiner)
{
  g_return_if_fail (VIVA_IS_EXAMINER_PANEL (self));
  g_return_if_fail (!examiner || VIVA_IS_EXAMINER (examiner));

  if (self->examiner == examiner)
    return;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  self->asking = FALSE;

  viva_examiner_panel_end_message (self);
  g_clear_pointer (&self->running_tool, g_free);

  g_set_object (&self->examiner, examiner);
  g_signal_group_set_target (self->signals, examiner);
  g_signal_group_set_target (self->model_signals,
                             examiner != NULL && VIVA_IS_OPENAI_MODEL (viva_examiner_get_model (examiner))
                             ? viva_examiner_get_model (examiner) : NULL);
  g_clear_handle_id (&self->busy_tick, g_source_remove);

  if (examiner != NULL)
    viva_examiner_panel_show_chat (self);

  viva_examiner_panel_update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EXAMINER]);
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
  viva_examiner_panel_update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODEL_LOADING]);
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

VivaChatView *
viva_examiner_panel_get_chat_view (VivaExaminerPanel *self)
{
  g_return_val_if_fail (VIVA_IS_EXAMINER_PANEL (self), NULL);

  return self->chat_view;
}

static void
viva_examiner_panel_dispose (GObject *object)
{
  VivaExaminerPanel *self = (VivaExaminerPanel *)object;
  GtkWidget *child;

  g_cancellable_cancel (self->cancellable);
  if (self->signals != NULL)
    g_signal_group_set_target (self->signals, NULL);
  if (self->model_signals != NULL)
    g_signal_group_set_target (self->model_signals, NULL);
  g_clear_handle_id (&self->busy_tick, g_source_remove);

  gtk_widget_dispose_template (GTK_WIDGET (object), VIVA_TYPE_EXAMINER_PANEL);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (object))))
    gtk_widget_unparent (child);

  self->current = NULL;
  g_clear_object (&self->cancellable);
  g_clear_object (&self->signals);
  g_clear_object (&self->model_signals);
  g_clear_object (&self->examiner);
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
    case PROP_EXAMINER:
      g_value_set_object (value, self->examiner);
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
    case PROP_EXAMINER:
      viva_examiner_panel_set_examiner (self, g_value_get_object (value));
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

  properties[PROP_EXAMINER] =
    g_param_spec_object ("examiner", NULL, NULL, VIVA_TYPE_EXAMINER,
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
  gtk_widget_class_bind_template_child (widget_class, VivaExaminerPanel, hint_label);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "examinerpanel");

  gtk_widget_class_install_action (widget_class, "panel.send", NULL, send_action);

  g_type_ensure (VIVA_TYPE_CHAT_VIEW);
}

static gboolean
busy_tick_cb (gpointer user_data)
{
  viva_examiner_panel_update (user_data);
  return G_SOURCE_CONTINUE;
}

static void
busy_cb (VivaExaminerPanel *self)
{
  g_autoptr(VivaOpenAIModel) model = g_signal_group_dup_target (self->model_signals);

  if (model != NULL && viva_openai_model_get_busy (model))
    {
      if (self->busy_tick == 0)
        self->busy_tick = g_timeout_add_seconds (1, busy_tick_cb, self);
    }
  else
    g_clear_handle_id (&self->busy_tick, g_source_remove);

  viva_examiner_panel_update (self);
}

static void
viva_examiner_panel_init (VivaExaminerPanel *self)
{
  GtkEventController *shortcuts;
  GtkShortcut *shortcut;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->cards = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->cancellable = g_cancellable_new ();

  self->model_signals = g_signal_group_new (VIVA_TYPE_OPENAI_MODEL);
  g_signal_group_connect_object (self->model_signals, "notify::busy", G_CALLBACK (busy_cb), self, G_CONNECT_SWAPPED);

  self->signals = g_signal_group_new (VIVA_TYPE_EXAMINER);
  g_signal_group_connect_object (self->signals, "delta", G_CALLBACK (delta_cb), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->signals, "reply", G_CALLBACK (reply_cb), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->signals, "tool-started", G_CALLBACK (tool_started_cb), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->signals, "tool-finished", G_CALLBACK (tool_finished_cb), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->signals, "question", G_CALLBACK (question_cb), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->signals, "answer", G_CALLBACK (answer_cb), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->signals, "message", G_CALLBACK (message_cb), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->signals, "refused", G_CALLBACK (refused_cb), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->signals, "verdict", G_CALLBACK (verdict_cb), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->signals, "notify::state", G_CALLBACK (state_cb), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->signals, "notify::error-message", G_CALLBACK (viva_examiner_panel_update), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->signals, "notify::pending-question", G_CALLBACK (viva_examiner_panel_update), self, G_CONNECT_SWAPPED);

  /* Ctrl+Enter sends from the answer box; in capture phase, so the text
   * view does not take it as a new line first. */
  shortcuts = gtk_shortcut_controller_new ();
  gtk_event_controller_set_propagation_phase (shortcuts, GTK_PHASE_CAPTURE);
  shortcut = gtk_shortcut_new (gtk_alternative_trigger_new (gtk_shortcut_trigger_parse_string ("<Control>Return"),
                                                            gtk_shortcut_trigger_parse_string ("<Control>KP_Enter")),
                               gtk_named_action_new ("panel.send"));
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts), shortcut);
  gtk_widget_add_controller (GTK_WIDGET (self->answer_view), shortcuts);

  viva_examiner_panel_update (self);
}

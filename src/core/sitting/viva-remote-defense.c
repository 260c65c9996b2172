/* viva-remote-defense.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-chat-model.h"
#include "viva-defense-view.h"
#include "viva-json-member.h"
#include "viva-remote-defense.h"

/* A graded defense runs on the exam server; the student's PC only shows it.
 * This object is that view's state, fed the events the server streams
 * (each with its sequence number, so one told twice after a reconnection
 * is dropped here) and shown as a #VivaExaminer is, through the
 * #VivaDefenseView both implement. So the app's examiner panel shows a
 * defense on the server with the same cards, questions and verdict card as
 * one on the PC. What the server leaves out for a student (a tool's
 * arguments and results, the model's reasoning) is not here either.
 *
 * An answer is not sent from here: viva_remote_defense_answer() emits
 * `send-answer` for whoever holds the connection, and the answer shows once
 * the server tells it back as an event. No GTK; main thread. */

struct _VivaRemoteDefense
{
  GObject            parent_instance;

  char              *id;
  char              *problem_id;
  gint64             last_seq;
  VivaExaminerState  state;
  char              *pending_question;
  gint64             question_seq;
  char              *error_message;
  VivaExamVerdict   *verdict;
  gint64             held_seq;   /* the held verdict's event */
  guint              held : 1;
  guint              ended : 1;
};

static void viva_remote_defense_view_init (VivaDefenseViewInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (VivaRemoteDefense, viva_remote_defense, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (VIVA_TYPE_DEFENSE_VIEW, viva_remote_defense_view_init))

enum {
  PROP_0,
  PROP_ID,
  PROP_PROBLEM_ID,
  PROP_LAST_SEQ,
  PROP_HELD,
  PROP_ENDED,
  N_OWN_PROPS,
  /* #VivaDefenseView's, in its order */
  PROP_STATE = N_OWN_PROPS,
  PROP_PENDING_QUESTION,
  PROP_ERROR_MESSAGE,
  PROP_VERDICT,
  PROP_BUSY,
  N_PROPS
};

enum {
  SEND_ANSWER,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

#define emit_view(self, signal, ...) \
  viva_defense_view_emit (VIVA_DEFENSE_VIEW (self), VIVA_DEFENSE_VIEW_SIGNAL_##signal, __VA_ARGS__)

static void
set_state (VivaRemoteDefense *self,
           VivaExaminerState  state)
{
  if (self->state == state)
    return;

  self->state = state;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

static void
set_pending (VivaRemoteDefense *self,
             const char        *question,
             gint64             seq)
{
  self->question_seq = seq;
  if (g_strcmp0 (self->pending_question, question) == 0)
    return;

  g_free (self->pending_question);
  self->pending_question = g_strdup (question);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PENDING_QUESTION]);
}

static void
set_error (VivaRemoteDefense *self,
           const char        *message)
{
  if (g_strcmp0 (self->error_message, message) == 0)
    return;

  g_free (self->error_message);
  self->error_message = g_strdup (message);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR_MESSAGE]);
}

static const char *
member (JsonObject *data,
        const char *name)
{
  return data ? json_object_get_string_member_with_default (data, name, NULL) : NULL;
}

static gboolean
state_from_nick (const char        *nick,
                 VivaExaminerState *state)
{
  g_autoptr(GEnumClass) klass = g_type_class_ref (VIVA_TYPE_EXAMINER_STATE);
  GEnumValue *value = nick ? g_enum_get_value_by_nick (klass, nick) : NULL;

  if (value == NULL)
    return FALSE;
  *state = value->value;
  return TRUE;
}

/* What a student is told of a step's result: the facts the card words
 * ("Ran without errors", "Your code passed this test"), never its data. */
static JsonNode *
step_result (JsonObject *data)
{
  g_autoptr(GList) names = data ? json_object_get_members (data) : NULL;
  JsonObject *object = json_object_new ();
  JsonNode *node = json_node_init_object (json_node_alloc (), object);

  for (const GList *l = names; l != NULL; l = l->next)
    {
      const char *name = l->data;
      JsonNode *value = json_object_get_member (data, name);

      if (g_str_equal (name, "step") || g_str_equal (name, "name") || g_str_equal (name, "ok"))
        continue;
      if (JSON_NODE_HOLDS_VALUE (value))
        json_object_set_member (object, name, json_node_copy (value));
    }
  json_object_unref (object);
  return node;
}

/* The server sends no probe's code (it may hold what the examiner learnt
 * of the reference), so a probe the examiner did not name would be drawn
 * as an empty quote: it gets its place in the defense instead. */
static void
name_probes (JsonObject *data)
{
  JsonNode *probes = json_object_get_member (data, "probes");

  if (probes == NULL || !JSON_NODE_HOLDS_ARRAY (probes))
    return;
  for (guint i = 0; i < json_array_get_length (json_node_get_array (probes)); i++)
    {
      JsonNode *element = json_array_get_element (json_node_get_array (probes), i);
      JsonObject *probe;
      const char *name;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        continue;
      probe = json_node_get_object (element);
      name = viva_json_member_string (probe, "name");
      if ((name == NULL || *name == '\0') && viva_json_member_string (probe, "code") == NULL)
        {
          g_autofree char *label = g_strdup_printf (_("edge case %u"), i + 1);

          json_object_set_string_member (probe, "name", label);
        }
    }
}

static void
take_verdict (VivaRemoteDefense *self,
              gint64             seq,
              JsonObject        *data)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(VivaExamVerdict) verdict = NULL;

  /* The exam holds its verdicts until it closes: the student learns only
   * that the defense was handed in. */
  if (data != NULL && json_object_get_boolean_member_with_default (data, "held", FALSE))
    {
      if (!self->held)
        {
          self->held = TRUE;
          self->held_seq = seq;
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HELD]);
        }
      return;
    }

  name_probes (data);
  node = json_node_init_object (json_node_alloc (), data);
  if (!(verdict = viva_exam_verdict_new_from_json (node, &error)))
    {
      g_debug ("remote defense %s: %s", self->id, error->message);
      return;
    }

  g_set_object (&self->verdict, verdict);
  if (self->held)
    {
      self->held = FALSE;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HELD]);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VERDICT]);
  emit_view (self, VERDICT, verdict);
}

/**
 * viva_remote_defense_feed:
 * @seq: the event's sequence number
 * @kind: its kind (`state`, `content`, `tool_call`, `tool_result`,
 *   `question`, `answer`, `refused`, `verdict`, `error`, `finished`)
 * @data: (nullable): its data, as the server sent it to the student
 *
 * Takes one event of the server's stream. An event at or before the last
 * one taken was seen already and is dropped; so is a kind this Viva does
 * not know, which a newer server may send.
 *
 * Returns: %TRUE if the event was new
 */
gboolean
viva_remote_defense_feed (VivaRemoteDefense *self,
                          gint64             seq,
                          const char        *kind,
                          JsonObject        *data)
{
  VivaExaminerState state;

  g_return_val_if_fail (VIVA_IS_REMOTE_DEFENSE (self), FALSE);
  g_return_val_if_fail (kind != NULL, FALSE);

  /* A held verdict is told again, whole, once the exam closes: the only
   * event taken a second time. */
  if (self->held && seq == self->held_seq && g_str_equal (kind, "verdict"))
    {
      if (data != NULL && !json_object_get_boolean_member_with_default (data, "held", FALSE))
        take_verdict (self, seq, data);
      return !self->held;
    }

  if (seq <= self->last_seq)
    return FALSE;

  self->last_seq = seq;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LAST_SEQ]);

  if (g_str_equal (kind, "state"))
    {
      /* After the end, only `finished` says how it ended. */
      if (!self->ended && state_from_nick (member (data, "state"), &state))
        set_state (self, state);
    }
  else if (g_str_equal (kind, "content") && member (data, "text") != NULL)
    {
      if (g_strcmp0 (member (data, "source"), "message") == 0)
        emit_view (self, MESSAGE, member (data, "text"));
      else
        {
          VivaChatDelta delta = { .kind = VIVA_CHAT_DELTA_CONTENT, .text = member (data, "text") };

          emit_view (self, DELTA, &delta);
        }
    }
  else if (g_str_equal (kind, "tool_call"))
    emit_view (self, TOOL_STARTED, member (data, "step"), member (data, "name"), NULL);
  else if (g_str_equal (kind, "tool_result"))
    {
      g_autoptr(JsonNode) result = step_result (data);
      gboolean ok = data ? json_object_get_boolean_member_with_default (data, "ok", TRUE) : TRUE;

      emit_view (self, TOOL_FINISHED, member (data, "step"), member (data, "name"), result, ok);
    }
  else if (g_str_equal (kind, "question") && member (data, "question") != NULL)
    {
      set_pending (self, member (data, "question"), seq);
      set_state (self, VIVA_EXAMINER_STATE_WAITING_FOR_STUDENT);
      emit_view (self, QUESTION, member (data, "step"), member (data, "question"));
    }
  else if (g_str_equal (kind, "answer"))
    {
      set_pending (self, NULL, 0);
      if (self->state == VIVA_EXAMINER_STATE_WAITING_FOR_STUDENT)
        set_state (self, VIVA_EXAMINER_STATE_THINKING);
      emit_view (self, ANSWER, member (data, "text") ? member (data, "text") : "");
    }
  else if (g_str_equal (kind, "refused"))
    emit_view (self, REFUSED, member (data, "name"), member (data, "reason"));
  else if (g_str_equal (kind, "verdict") && data != NULL)
    take_verdict (self, seq, data);
  else if (g_str_equal (kind, "error"))
    {
      set_error (self, member (data, "message") ? member (data, "message") : _("The defense could not go on."));
      set_state (self, VIVA_EXAMINER_STATE_FAILED);
    }
  else if (g_str_equal (kind, "finished"))
    {
      self->ended = TRUE;
      set_pending (self, NULL, 0);
      set_state (self, g_strcmp0 (member (data, "state"), "finished") == 0
                       ? VIVA_EXAMINER_STATE_FINISHED : VIVA_EXAMINER_STATE_FAILED);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ENDED]);
    }

  return TRUE;
}

/**
 * viva_remote_defense_answer:
 *
 * Answers the pending question: emits `send-answer` with the text and the
 * question's sequence number, for the connection to send. The answer
 * shows when the server tells it back.
 *
 * Returns: %FALSE with %G_IO_ERROR_PENDING when no question waits
 */
gboolean
viva_remote_defense_answer (VivaRemoteDefense  *self,
                            const char         *text,
                            GError            **error)
{
  gint64 seq;

  g_return_val_if_fail (VIVA_IS_REMOTE_DEFENSE (self), FALSE);
  g_return_val_if_fail (text != NULL, FALSE);

  if (self->state != VIVA_EXAMINER_STATE_WAITING_FOR_STUDENT || self->pending_question == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_PENDING,
                           _("The examiner is not waiting for an answer."));
      return FALSE;
    }

  /* Sent once: the box empties and the state line says the examiner
   * thinks, as it would on the PC. */
  seq = self->question_seq;
  set_pending (self, NULL, seq);
  set_state (self, VIVA_EXAMINER_STATE_THINKING);
  g_signal_emit (self, signals[SEND_ANSWER], 0, text, seq);
  return TRUE;
}

/**
 * viva_remote_defense_answer_refused:
 * @message: why the server did not take the answer
 *
 * The server refused the answer (the question was answered elsewhere, or
 * the time is up): the defense says so and waits for the stream.
 */
void
viva_remote_defense_answer_refused (VivaRemoteDefense *self,
                                    const char        *message)
{
  g_return_if_fail (VIVA_IS_REMOTE_DEFENSE (self));

  set_error (self, message);
}

/**
 * viva_remote_defense_fail:
 * @message: what happened, as a sentence that says what to do
 *
 * The defense can no longer be followed from here (the student signed in
 * on another PC): it stops, saying @message.
 */
void
viva_remote_defense_fail (VivaRemoteDefense *self,
                          const char        *message)
{
  g_return_if_fail (VIVA_IS_REMOTE_DEFENSE (self));
  g_return_if_fail (message != NULL);

  set_error (self, message);
  set_pending (self, NULL, 0);
  set_state (self, VIVA_EXAMINER_STATE_FAILED);
}

const char *
viva_remote_defense_get_id (VivaRemoteDefense *self)
{
  g_return_val_if_fail (VIVA_IS_REMOTE_DEFENSE (self), NULL);
  return self->id;
}

const char *
viva_remote_defense_get_problem_id (VivaRemoteDefense *self)
{
  g_return_val_if_fail (VIVA_IS_REMOTE_DEFENSE (self), NULL);
  return self->problem_id;
}

/**
 * viva_remote_defense_get_last_seq:
 *
 * Returns: the number of the last event taken: a reconnection asks for
 *   what followed it
 */
gint64
viva_remote_defense_get_last_seq (VivaRemoteDefense *self)
{
  g_return_val_if_fail (VIVA_IS_REMOTE_DEFENSE (self), 0);
  return self->last_seq;
}

VivaExaminerState
viva_remote_defense_get_state (VivaRemoteDefense *self)
{
  g_return_val_if_fail (VIVA_IS_REMOTE_DEFENSE (self), VIVA_EXAMINER_STATE_IDLE);
  return self->state;
}

const char *
viva_remote_defense_get_pending_question (VivaRemoteDefense *self)
{
  g_return_val_if_fail (VIVA_IS_REMOTE_DEFENSE (self), NULL);
  return self->pending_question;
}

gint64
viva_remote_defense_get_question_seq (VivaRemoteDefense *self)
{
  g_return_val_if_fail (VIVA_IS_REMOTE_DEFENSE (self), 0);
  return self->question_seq;
}

const char *
viva_remote_defense_get_error_message (VivaRemoteDefense *self)
{
  g_return_val_if_fail (VIVA_IS_REMOTE_DEFENSE (self), NULL);
  return self->error_message;
}

/**
 * viva_remote_defense_get_verdict:
 *
 * Returns: (transfer none) (nullable): the verdict, once the server told
 *   it (never while the exam holds it)
 */
VivaExamVerdict *
viva_remote_defense_get_verdict (VivaRemoteDefense *self)
{
  g_return_val_if_fail (VIVA_IS_REMOTE_DEFENSE (self), NULL);
  return self->verdict;
}

/**
 * viva_remote_defense_get_held:
 *
 * Returns: %TRUE when the defense reached its verdict and the exam holds
 *   it until it closes: the student sees "handed in" and no score
 */
gboolean
viva_remote_defense_get_held (VivaRemoteDefense *self)
{
  g_return_val_if_fail (VIVA_IS_REMOTE_DEFENSE (self), FALSE);
  return self->held;
}

/**
 * viva_remote_defense_get_held_seq:
 *
 * Returns: the number of the held verdict's event, 0 when none is held:
 *   a client asks for what followed the one before it to learn the
 *   verdict once the exam closed
 */
gint64
viva_remote_defense_get_held_seq (VivaRemoteDefense *self)
{
  g_return_val_if_fail (VIVA_IS_REMOTE_DEFENSE (self), 0);
  return self->held ? self->held_seq : 0;
}

gboolean
viva_remote_defense_get_ended (VivaRemoteDefense *self)
{
  g_return_val_if_fail (VIVA_IS_REMOTE_DEFENSE (self), FALSE);
  return self->ended;
}

/**
 * viva_remote_defense_get_busy:
 *
 * Returns: %FALSE: a lab's busy model server is the exam server's to wait
 *   for; the property is here so a view of an examiner can watch it
 */
gboolean
viva_remote_defense_get_busy (VivaRemoteDefense *self)
{
  g_return_val_if_fail (VIVA_IS_REMOTE_DEFENSE (self), FALSE);
  return FALSE;
}

static gint64
get_busy_since (VivaRemoteDefense *self)
{
  return 0;
}

static void
viva_remote_defense_view_init (VivaDefenseViewInterface *iface)
{
  iface->get_state = (gpointer)viva_remote_defense_get_state;
  iface->get_pending_question = (gpointer)viva_remote_defense_get_pending_question;
  iface->get_error_message = (gpointer)viva_remote_defense_get_error_message;
  iface->get_verdict = (gpointer)viva_remote_defense_get_verdict;
  iface->get_busy = (gpointer)viva_remote_defense_get_busy;
  iface->get_busy_since = (gpointer)get_busy_since;
  iface->answer = (gpointer)viva_remote_defense_answer;
}

/**
 * viva_remote_defense_new:
 * @id: the defense's id, as Submit returned it
 * @problem_id: the problem it defends
 *
 * Returns: (transfer full): a defense that has been told nothing yet
 */
VivaRemoteDefense *
viva_remote_defense_new (const char *id,
                         const char *problem_id)
{
  g_return_val_if_fail (id != NULL, NULL);
  g_return_val_if_fail (problem_id != NULL, NULL);

  return g_object_new (VIVA_TYPE_REMOTE_DEFENSE, "id", id, "problem-id", problem_id, NULL);
}

static void
viva_remote_defense_finalize (GObject *object)
{
  VivaRemoteDefense *self = (VivaRemoteDefense *)object;

  g_clear_pointer (&self->id, g_free);
  g_clear_pointer (&self->problem_id, g_free);
  g_clear_pointer (&self->pending_question, g_free);
  g_clear_pointer (&self->error_message, g_free);
  g_clear_object (&self->verdict);

  G_OBJECT_CLASS (viva_remote_defense_parent_class)->finalize (object);
}

static void
viva_remote_defense_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  VivaRemoteDefense *self = VIVA_REMOTE_DEFENSE (object);

  switch (prop_id)
    {
    case PROP_ID:
      g_value_set_string (value, self->id);
      break;

    case PROP_PROBLEM_ID:
      g_value_set_string (value, self->problem_id);
      break;

    case PROP_LAST_SEQ:
      g_value_set_int64 (value, self->last_seq);
      break;

    case PROP_STATE:
      g_value_set_enum (value, self->state);
      break;

    case PROP_PENDING_QUESTION:
      g_value_set_string (value, self->pending_question);
      break;

    case PROP_ERROR_MESSAGE:
      g_value_set_string (value, self->error_message);
      break;

    case PROP_VERDICT:
      g_value_set_object (value, self->verdict);
      break;

    case PROP_HELD:
      g_value_set_boolean (value, self->held);
      break;

    case PROP_ENDED:
      g_value_set_boolean (value, self->ended);
      break;

    case PROP_BUSY:
      g_value_set_boolean (value, FALSE);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_remote_defense_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  VivaRemoteDefense *self = VIVA_REMOTE_DEFENSE (object);

  switch (prop_id)
    {
    case PROP_ID:
      self->id = g_value_dup_string (value);
      break;

    case PROP_PROBLEM_ID:
      self->problem_id = g_value_dup_string (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_remote_defense_class_init (VivaRemoteDefenseClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->finalize = viva_remote_defense_finalize;
  object_class->get_property = viva_remote_defense_get_property;
  object_class->set_property = viva_remote_defense_set_property;

  properties[PROP_ID] =
    g_param_spec_string ("id", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PROBLEM_ID] =
    g_param_spec_string ("problem-id", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_LAST_SEQ] = g_param_spec_int64 ("last-seq", NULL, NULL, 0, G_MAXINT64, 0, ro);
  properties[PROP_HELD] = g_param_spec_boolean ("held", NULL, NULL, FALSE, ro);
  properties[PROP_ENDED] = g_param_spec_boolean ("ended", NULL, NULL, FALSE, ro);
  g_object_class_install_properties (object_class, N_OWN_PROPS, properties);
  viva_defense_view_override_properties (object_class, PROP_STATE, properties);

  /* The signals a view shows are #VivaDefenseView's. */

  /**
   * VivaRemoteDefense::send-answer:
   * @text: the student's answer
   * @question_seq: the question's event number, so the server refuses an
   *   answer meant for an earlier question rather than give it to another
   */
  signals[SEND_ANSWER] =
    g_signal_new ("send-answer", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_INT64);
}

static void
viva_remote_defense_init (VivaRemoteDefense *self)
{
  self->state = VIVA_EXAMINER_STATE_IDLE;
}

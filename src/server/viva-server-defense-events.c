/* viva-server-defense-events.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-exam-event.h"
#include "viva-server-defenses-private.h"

/* What a server defense's clients are told: each of the examiner's signals
 * becomes one event, committed to the database with its sequence number
 * (and the examiner's newest checkpoint) before the streams are told. A
 * defense resumed after a restart redoes the step it was in; what its
 * clients were told of that step already is not told again. */

/* Examiner text is kept in pieces of at most this age, so a streamed reply
 * costs a commit every 100 ms rather than one per token. */
#define CONTENT_FLUSH_MS 100

static VivaServerStore *
store_of (VivaServerLive *live)
{
  return viva_server_api_get_store (_viva_server_defenses_get_api (live->self));
}

/* The examiner's newest checkpoint as text, or NULL when it was kept
 * already (the examiner makes a new node at every step). */
static char *
new_checkpoint (VivaServerLive *live)
{
  JsonNode *checkpoint;

  if (live->session == NULL ||
      !(checkpoint = viva_exam_session_get_checkpoint (live->session)) ||
      checkpoint == live->saved_checkpoint)
    return NULL;

  g_clear_pointer (&live->saved_checkpoint, json_node_unref);
  live->saved_checkpoint = json_node_ref (checkpoint);
  return json_to_string (checkpoint, FALSE);
}

/* A write refused by the fence stops the defense here; any other failure
 * is a developer's to look at. */
static void
write_failed (VivaServerLive *live,
              const char     *what,
              const GError   *error)
{
  if (g_error_matches (error, VIVA_SERVER_DB_ERROR, VIVA_SERVER_DB_ERROR_FENCED))
    _viva_server_defenses_fenced (live, error);
  else if (g_error_matches (error, VIVA_SERVER_DB_ERROR, VIVA_SERVER_DB_ERROR_BUSY))
    g_message ("defense %s: %s not kept, the database busy: %s", live->id, what, error->message);
  else
    g_warning ("defense %s: %s not kept: %s", live->id, what, error->message);
}

static void
save_checkpoint (VivaServerLive *live)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  VivaServerFence fence;

  if (live->fenced || !(text = new_checkpoint (live)))
    return;
  if (!viva_server_store_set_live_state (store_of (live), _viva_server_defenses_fence (live, &fence), live->id,
                                         NULL, text, &error))
    write_failed (live, "checkpoint", error);
}

static gint64
add_event_full (VivaServerLive *live,
                const char     *kind,
                JsonObject     *data,
                gint64          answers_question)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *checkpoint = NULL;
  VivaServerFence fence;
  gint64 seq;

  /* A node fenced off writes nothing more, and tells nobody. */
  if (live->fenced)
    return -1;
  checkpoint = new_checkpoint (live);
  if ((seq = viva_server_store_add_live_event (store_of (live), _viva_server_defenses_fence (live, &fence), live->id,
                                               kind, data, checkpoint, answers_question, &error)) < 0)
    {
      /* Kept again with the next event. */
      g_clear_pointer (&live->saved_checkpoint, json_node_unref);
      write_failed (live, kind, error);
      return -1;
    }

  _viva_server_defenses_emit (live->self, live->id, seq, kind, data);
  return seq;
}

/**
 * _viva_server_defense_add_event:
 *
 * Commits one event, with the checkpoint and under the lease's fence,
 * then tells the streams.
 *
 * Returns: its sequence number, or -1
 */
gint64
_viva_server_defense_add_event (VivaServerLive *live,
                                const char     *kind,
                                JsonObject     *data)
{
  return add_event_full (live, kind, data, 0);
}

static void
flush_content (VivaServerLive *live)
{
  g_autoptr(JsonObject) data = NULL;

  g_clear_handle_id (&live->content_id, g_source_remove);
  if (live->content->len == 0)
    return;

  data = json_object_new ();
  json_object_set_string_member (data, "text", live->content->str);
  g_string_truncate (live->content, 0);
  _viva_server_defense_add_event (live, "content", data);
}

/**
 * _viva_server_defense_flush:
 *
 * Keeps the text waiting and the newest checkpoint: the defense ends.
 */
void
_viva_server_defense_flush (VivaServerLive *live)
{
  flush_content (live);
  save_checkpoint (live);
}

static gboolean
flush_content_cb (gpointer user_data)
{
  VivaServerLive *live = user_data;

  live->content_id = 0;
  flush_content (live);
  return G_SOURCE_REMOVE;
}

void
_viva_server_defense_set_state (VivaServerLive *live,
                                const char     *state)
{
  g_autoptr(GError) error = NULL;
  VivaServerFence fence;

  if (live->fenced)
    return;
  if (!viva_server_store_set_live_state (store_of (live), _viva_server_defenses_fence (live, &fence), live->id,
                                         state, NULL, &error))
    write_failed (live, "state", error);
}

static void
on_state (VivaExaminer   *examiner,
          GParamSpec     *pspec,
          VivaServerLive *live)
{
  VivaExaminerState state = viva_examiner_get_state (examiner);
  g_autoptr(JsonObject) data = viva_exam_event_state (state);

  flush_content (live);
  _viva_server_defense_add_event (live, "state", data);

  if (state == VIVA_EXAMINER_STATE_WAITING_FOR_STUDENT)
    _viva_server_defense_set_state (live, "waiting");
  else if (state == VIVA_EXAMINER_STATE_THINKING || state == VIVA_EXAMINER_STATE_RUNNING_TOOL)
    _viva_server_defense_set_state (live, "running");
}

static void
on_delta (VivaExaminer   *examiner,
          VivaChatDelta  *delta,
          VivaServerLive *live)
{
  /* Reasoning is the model's own: it may think about the hidden tests it
   * was told of, so it is not kept where a student could be sent it. */
  if (delta->kind != VIVA_CHAT_DELTA_CONTENT)
    return;

  g_string_append (live->content, delta->text);
  if (live->content_id == 0)
    live->content_id = g_timeout_add (CONTENT_FLUSH_MS, flush_content_cb, live);
}

/* A resumed defense redoes the step it was in: its clients were told of
 * that step's call (and perhaps result) already. */
static gboolean
told_before (VivaServerLive *live,
             const char     *kind,
             const char     *step)
{
  g_autofree char *key = g_strconcat (kind, " ", step, NULL);

  return live->told_steps != NULL && g_hash_table_contains (live->told_steps, key);
}

static void
on_tool_started (VivaExaminer   *examiner,
                 const char     *step,
                 const char     *name,
                 const char     *arguments,
                 VivaServerLive *live)
{
  g_autoptr(JsonObject) data = NULL;

  flush_content (live);
  if (told_before (live, "tool_call", step))
    return;
  data = viva_exam_event_tool_call (step, name, arguments);
  _viva_server_defense_add_event (live, "tool_call", data);
}

static void
on_tool_finished (VivaExaminer   *examiner,
                  const char     *step,
                  const char     *name,
                  JsonNode       *result,
                  gboolean        ok,
                  VivaServerLive *live)
{
  g_autoptr(JsonObject) data = NULL;

  if (told_before (live, "tool_result", step))
    return;
  data = viva_exam_event_tool_result (step, name, result, ok);
  _viva_server_defense_add_event (live, "tool_result", data);
}

static void
on_question (VivaExaminer   *examiner,
             const char     *step,
             const char     *question,
             VivaServerLive *live)
{
  g_autoptr(JsonObject) data = json_object_new ();

  flush_content (live);
  g_free (live->pending);
  live->pending = g_strdup (question);

  /* A resumed defense asks its pending question again: the clients were
   * told it already, under its old number. */
  if (live->resumed_question != NULL && g_str_equal (live->resumed_question, question))
    {
      live->pending_seq = live->resumed_seq;
      g_clear_pointer (&live->resumed_question, g_free);
      save_checkpoint (live);
    }
  else
    {
      json_object_set_string_member (data, "step", step);
      json_object_set_string_member (data, "question", question);
      live->pending_seq = _viva_server_defense_add_event (live, "question", data);
    }

  if (live->auto_answer)
    _viva_server_defenses_answer_later (live);
  else
    _viva_server_defenses_take_answer_later (live);
}

static void
on_answer (VivaExaminer   *examiner,
           const char     *answer,
           VivaServerLive *live)
{
  g_autoptr(JsonObject) data = json_object_new ();
  gint64 question_seq = live->pending_seq;

  g_clear_pointer (&live->pending, g_free);
  g_clear_pointer (&live->resumed_question, g_free);
  json_object_set_string_member (data, "text", answer);
  json_object_set_int_member (data, "question_seq", question_seq);
  live->pending_seq = 0;
  /* An answer kept for this question by another node is used up with it. */
  add_event_full (live, "answer", data, question_seq);
}

static void
on_message (VivaExaminer   *examiner,
            const char     *text,
            VivaServerLive *live)
{
  g_autoptr(JsonObject) data = viva_exam_event_message (text);

  flush_content (live);
  _viva_server_defense_add_event (live, "content", data);
}

static void
on_refused (VivaExaminer   *examiner,
            const char     *name,
            const char     *reason,
            VivaServerLive *live)
{
  g_autoptr(JsonObject) data = viva_exam_event_refused (name, reason);

  flush_content (live);
  _viva_server_defense_add_event (live, "refused", data);
}

/**
 * _viva_server_defense_watch:
 *
 * Records the examiner's signals from now on, as events.
 */
void
_viva_server_defense_watch (VivaServerLive *live)
{
  g_signal_connect (live->examiner, "notify::state", G_CALLBACK (on_state), live);
  g_signal_connect (live->examiner, "delta", G_CALLBACK (on_delta), live);
  g_signal_connect (live->examiner, "tool-started", G_CALLBACK (on_tool_started), live);
  g_signal_connect (live->examiner, "tool-finished", G_CALLBACK (on_tool_finished), live);
  g_signal_connect (live->examiner, "question", G_CALLBACK (on_question), live);
  g_signal_connect (live->examiner, "answer", G_CALLBACK (on_answer), live);
  g_signal_connect (live->examiner, "message", G_CALLBACK (on_message), live);
  g_signal_connect (live->examiner, "refused", G_CALLBACK (on_refused), live);
}

void
_viva_server_defense_unwatch (VivaServerLive *live)
{
  g_clear_handle_id (&live->content_id, g_source_remove);
  if (live->examiner != NULL)
    g_signal_handlers_disconnect_by_data (live->examiner, live);
}

/**
 * _viva_server_defense_recall:
 *
 * What a resumed defense's clients were told before the server stopped:
 * the tool steps, and the question pending if the last of the questions
 * and answers was one.
 */
void
_viva_server_defense_recall (VivaServerLive *live)
{
  g_autoptr(JsonArray) steps = viva_server_store_list_told (store_of (live), live->id, TRUE, NULL);
  g_autoptr(JsonArray) last = viva_server_store_list_told (store_of (live), live->id, FALSE, NULL);
  g_autoptr(JsonNode) data = NULL;
  JsonObject *row;

  live->told_steps = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; steps != NULL && i < json_array_get_length (steps); i++)
    {
      g_autoptr(JsonNode) step = NULL;

      row = json_array_get_object_element (steps, i);
      step = json_from_string (json_object_get_string_member (row, "data"), NULL);
      if (step != NULL && JSON_NODE_HOLDS_OBJECT (step))
        g_hash_table_add (live->told_steps,
                          g_strconcat (json_object_get_string_member (row, "kind"), " ",
                                       json_object_get_string_member_with_default (json_node_get_object (step), "step", ""),
                                       NULL));
    }

  if (last == NULL || json_array_get_length (last) == 0)
    return;

  row = json_array_get_object_element (last, 0);
  if (!g_str_equal (json_object_get_string_member (row, "kind"), "question") ||
      !(data = json_from_string (json_object_get_string_member (row, "data"), NULL)) ||
      !JSON_NODE_HOLDS_OBJECT (data))
    return;
  live->resumed_question = g_strdup (json_object_get_string_member_with_default (json_node_get_object (data),
                                                                                "question", ""));
  live->resumed_seq = json_object_get_int_member (row, "seq");
}

/**
 * _viva_server_defense_verdict_data:
 *
 * Returns: (transfer full): the `verdict` event's data (the teacher's
 *   view; a student is sent what viva-server-sitting.c names)
 */
JsonObject *
_viva_server_defense_verdict_data (VivaExamVerdict *verdict)
{
  JsonObject *data = viva_exam_event_verdict (verdict);
  g_autoptr(JsonNode) facts = viva_exam_verdict_to_json (verdict);
  JsonObject *object = json_node_get_object (facts);

  /* What the verdict card says beside the outcome and the model's own
   * word (the shared part, viva_exam_event_verdict()), so the student's
   * app shows the card a defense on the PC shows: each probe's facts —
   * never a probe's code or error,
   * which may quote the reference's values — and each hidden test's name
   * and pass, its message staying here (a held-out check's text). */
  {
    JsonArray *probes = json_object_has_member (object, "probes") ? json_object_get_array_member (object, "probes") : NULL;
    JsonArray *facts_list = json_array_new ();
    static const char * const kept[] = { "step", "passed", "valid", "status", "name", NULL };

    for (guint i = 0; probes != NULL && i < json_array_get_length (probes); i++)
      {
        JsonObject *probe = json_array_get_object_element (probes, i);
        JsonObject *fact = json_object_new ();

        for (guint k = 0; probe != NULL && kept[k] != NULL; k++)
          if (json_object_has_member (probe, kept[k]))
            json_object_set_member (fact, kept[k], json_object_dup_member (probe, kept[k]));
        json_array_add_object_element (facts_list, fact);
      }
    json_object_set_array_member (data, "probes", facts_list);
  }
  if (json_object_has_member (object, "grade") && JSON_NODE_HOLDS_OBJECT (json_object_get_member (object, "grade")))
    {
      JsonObject *grade = json_object_get_object_member (object, "grade");
      JsonArray *tests = json_object_has_member (grade, "tests") ? json_object_get_array_member (grade, "tests") : NULL;
      JsonObject *out = json_object_new ();
      JsonArray *list = json_array_new ();

      if (json_object_has_member (grade, "threshold"))
        json_object_set_member (out, "threshold", json_object_dup_member (grade, "threshold"));
      for (guint i = 0; tests != NULL && i < json_array_get_length (tests); i++)
        {
          JsonObject *test = json_array_get_object_element (tests, i);
          JsonObject *fact = json_object_new ();
          const char *status = json_object_get_string_member_with_default (test, "status", "failed");

          json_object_set_string_member (fact, "name", json_object_get_string_member_with_default (test, "name", ""));
          json_object_set_boolean_member (fact, "passed", json_object_get_boolean_member_with_default (test, "passed", FALSE));
          json_object_set_boolean_member (fact, "out_of_process",
                                          json_object_get_boolean_member_with_default (test, "out_of_process", TRUE));
          json_object_set_string_member (fact, "status", status);
          json_object_set_string_member (fact, "message", status);
          json_array_add_object_element (list, fact);
        }
      json_object_set_array_member (out, "tests", list);
      json_object_set_object_member (data, "grade", out);
    }
  return data;
}

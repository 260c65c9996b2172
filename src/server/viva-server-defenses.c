/* viva-server-defenses.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "viva-exam-model.h"
#include "viva-exam-report.h"
#include "viva-examiner.h"
#include "viva-file-writer.h"
#include "viva-scripted-model.h"
#include "viva-server-defenses.h"
#include "viva-server-keys.h"
#include "viva-settings.h"
#include "viva-timeline.h"

/* The defenses the server runs itself, with the core's examiner: its own
 * worker per defense (sandboxed as in the app), the model set on the
 * server, the grader. Every event is committed to the database with its
 * sequence number before anyone is told of it (the "event" signal), and
 * the examiner's checkpoint goes to the database with it, so a server
 * killed at any moment continues every defense from there: the same
 * question pending, no event lost or told twice.
 *
 * The examiner still keeps its session folder under the state folder (its
 * trace is what the report is built from); at a restart the database's
 * checkpoint is written back into it before the examiner resumes, so the
 * database is the one that counts. */

/* Examiner text is kept in pieces of at most this age, so a streamed reply
 * costs a commit every 100 ms rather than one per token. */
#define CONTENT_FLUSH_MS 100

typedef struct
{
  VivaServerDefenses *self;        /* unowned */
  char               *id;
  char               *exam_id;
  char               *student_id;
  char               *problem_id;
  VivaExaminer       *examiner;
  VivaExamSession    *session;
  VivaTextCodeSource *source;
  GCancellable       *cancellable;
  GString            *content;
  guint               content_id;
  JsonNode           *saved_checkpoint; /* held, so a new one is never at its address */
  char               *pending;     /* the question waiting for an answer */
  gint64              pending_seq;
  char               *resumed_question; /* the pending question before a restart */
  gint64              resumed_seq;
  gboolean            auto_answer; /* handed in at time-up: nobody types */
  GHashTable         *told_steps;  /* "tool_call S3"…: told before a restart */
} Live;

struct _VivaServerDefenses
{
  GObject        parent_instance;
  VivaServerApi *api;              /* unowned: the api owns this */
  JsonObject    *examiner;         /* the server's model settings, or NULL */
  GHashTable    *live;             /* id → Live */
};

G_DEFINE_FINAL_TYPE (VivaServerDefenses, viva_server_defenses, G_TYPE_OBJECT)

enum {
  EVENT,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
live_free (Live *live)
{
  g_cancellable_cancel (live->cancellable);
  g_clear_handle_id (&live->content_id, g_source_remove);
  if (live->examiner != NULL)
    g_signal_handlers_disconnect_by_data (live->examiner, live);
  g_clear_object (&live->examiner);
  g_clear_pointer (&live->saved_checkpoint, json_node_unref);
  g_clear_object (&live->session);
  g_clear_object (&live->source);
  g_clear_object (&live->cancellable);
  g_string_free (live->content, TRUE);
  g_free (live->id);
  g_free (live->exam_id);
  g_free (live->student_id);
  g_free (live->problem_id);
  g_free (live->pending);
  g_free (live->resumed_question);
  g_clear_pointer (&live->told_steps, g_hash_table_unref);
  g_free (live);
}

static VivaServerStore *
store_of (Live *live)
{
  return viva_server_api_get_store (live->self->api);
}

static void
save_checkpoint (Live *live)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  JsonNode *checkpoint;

  /* The examiner makes a new checkpoint node at every step. */
  if (live->session == NULL ||
      !(checkpoint = viva_exam_session_get_checkpoint (live->session)) ||
      checkpoint == live->saved_checkpoint)
    return;

  g_clear_pointer (&live->saved_checkpoint, json_node_unref);
  live->saved_checkpoint = json_node_ref (checkpoint);
  text = json_to_string (checkpoint, FALSE);
  if (!viva_server_store_save_checkpoint (store_of (live), live->id, text, &error))
    g_warning ("defense %s: checkpoint not kept: %s", live->id, error->message);
}

/* Commits one event, then tells the streams. */
static gint64
add_event (Live       *live,
           const char *kind,
           JsonObject *data)
{
  g_autoptr(GError) error = NULL;
  gint64 seq;

  save_checkpoint (live);
  if ((seq = viva_server_store_add_event (store_of (live), live->id, kind, data, &error)) < 0)
    {
      g_warning ("defense %s: event %s not kept: %s", live->id, kind, error->message);
      return -1;
    }

  g_signal_emit (live->self, signals[EVENT], 0, live->id, seq, kind, data);
  return seq;
}

static void
flush_content (Live *live)
{
  g_autoptr(JsonObject) data = NULL;

  g_clear_handle_id (&live->content_id, g_source_remove);
  if (live->content->len == 0)
    return;

  data = json_object_new ();
  json_object_set_string_member (data, "text", live->content->str);
  g_string_truncate (live->content, 0);
  add_event (live, "content", data);
}

static gboolean
flush_content_cb (gpointer user_data)
{
  Live *live = user_data;

  live->content_id = 0;
  flush_content (live);
  return G_SOURCE_REMOVE;
}

static void
set_state (Live       *live,
           const char *state)
{
  g_autoptr(GError) error = NULL;

  if (!viva_server_store_set_defense_state (store_of (live), live->id, state, &error))
    g_warning ("defense %s: state not kept: %s", live->id, error->message);
}

static void
on_state (VivaExaminer *examiner,
          GParamSpec   *pspec,
          Live         *live)
{
  g_autoptr(JsonObject) data = json_object_new ();
  VivaExaminerState state = viva_examiner_get_state (examiner);

  flush_content (live);
  json_object_set_string_member (data, "state", viva_examiner_state_to_string (state));
  add_event (live, "state", data);

  if (state == VIVA_EXAMINER_STATE_WAITING_FOR_STUDENT)
    set_state (live, "waiting");
  else if (state == VIVA_EXAMINER_STATE_THINKING || state == VIVA_EXAMINER_STATE_RUNNING_TOOL)
    set_state (live, "running");
}

static void
on_delta (VivaExaminer  *examiner,
          VivaChatDelta *delta,
          Live          *live)
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
told_before (Live       *live,
             const char *kind,
             const char *step)
{
  g_autofree char *key = g_strconcat (kind, " ", step, NULL);

  return live->told_steps != NULL && g_hash_table_contains (live->told_steps, key);
}

static void
on_tool_started (VivaExaminer *examiner,
                 const char   *step,
                 const char   *name,
                 const char   *arguments,
                 Live         *live)
{
  g_autoptr(JsonObject) data = json_object_new ();

  flush_content (live);
  if (told_before (live, "tool_call", step))
    return;
  json_object_set_string_member (data, "step", step);
  json_object_set_string_member (data, "name", name);
  json_object_set_string_member (data, "arguments", arguments);
  add_event (live, "tool_call", data);
}

static void
on_tool_finished (VivaExaminer *examiner,
                  const char   *step,
                  const char   *name,
                  JsonNode     *result,
                  gboolean      ok,
                  Live         *live)
{
  g_autoptr(JsonObject) data = json_object_new ();

  if (told_before (live, "tool_result", step))
    return;
  json_object_set_string_member (data, "step", step);
  json_object_set_string_member (data, "name", name);
  json_object_set_boolean_member (data, "ok", ok);
  json_object_set_member (data, "result", json_node_copy (result));
  add_event (live, "tool_result", data);
}

typedef struct
{
  VivaServerDefenses *self;
  char               *id;
} Later;

static void
later_free (Later *later)
{
  g_object_unref (later->self);
  g_free (later->id);
  g_free (later);
}

/* Answers for a student whose time is up, from the main loop (never
 * inside the examiner's own signal). */
static gboolean
auto_answer_cb (gpointer user_data)
{
  Later *later = user_data;
  Live *live = g_hash_table_lookup (later->self->live, later->id);
  g_autoptr(GError) error = NULL;

  if (live != NULL && live->pending != NULL &&
      !viva_examiner_answer (live->examiner, VIVA_SERVER_TIME_UP_ANSWER, &error))
    g_warning ("defense %s: %s", live->id, error->message);
  return G_SOURCE_REMOVE;
}

static void
answer_later (Live *live)
{
  Later *later = g_new0 (Later, 1);

  later->self = g_object_ref (live->self);
  later->id = g_strdup (live->id);
  g_idle_add_full (G_PRIORITY_DEFAULT, auto_answer_cb, later, (GDestroyNotify)later_free);
}

static void
on_question (VivaExaminer *examiner,
             const char   *step,
             const char   *question,
             Live         *live)
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
      live->pending_seq = add_event (live, "question", data);
    }

  if (live->auto_answer)
    answer_later (live);
}

static void
on_answer (VivaExaminer *examiner,
           const char   *answer,
           Live         *live)
{
  g_autoptr(JsonObject) data = json_object_new ();

  g_clear_pointer (&live->pending, g_free);
  g_clear_pointer (&live->resumed_question, g_free);
  json_object_set_string_member (data, "text", answer);
  json_object_set_int_member (data, "question_seq", live->pending_seq);
  live->pending_seq = 0;
  add_event (live, "answer", data);
}

static void
on_message (VivaExaminer *examiner,
            const char   *text,
            Live         *live)
{
  g_autoptr(JsonObject) data = json_object_new ();

  flush_content (live);
  json_object_set_string_member (data, "text", text);
  json_object_set_string_member (data, "source", "message");
  add_event (live, "content", data);
}

static void
on_refused (VivaExaminer *examiner,
            const char   *name,
            const char   *reason,
            Live         *live)
{
  g_autoptr(JsonObject) data = json_object_new ();

  flush_content (live);
  json_object_set_string_member (data, "name", name);
  json_object_set_string_member (data, "reason", reason);
  add_event (live, "refused", data);
}

static JsonObject *
verdict_data (VivaExamVerdict *verdict)
{
  JsonObject *data = json_object_new ();
  g_autoptr(JsonNode) facts = viva_exam_verdict_to_json (verdict);
  JsonObject *object = json_node_get_object (facts);

  json_object_set_string_member (data, "verdict", viva_exam_verdict_get_passed (verdict) ? "pass" : "fail");
  if (viva_exam_verdict_get_score (verdict) >= 0)
    json_object_set_int_member (data, "score", viva_exam_verdict_get_score (verdict));
  else
    json_object_set_null_member (data, "score");
  json_object_set_string_member (data, "status", viva_exam_status_to_string (viva_exam_verdict_get_status (verdict)));
  if (viva_exam_verdict_get_comment (verdict))
    json_object_set_string_member (data, "comment", viva_exam_verdict_get_comment (verdict));
  if (viva_exam_verdict_get_reason (verdict))
    json_object_set_string_member (data, "reason", viva_exam_verdict_get_reason (verdict));
  if (viva_exam_verdict_get_explanation (verdict))
    json_object_set_string_member (data, "explanation", viva_exam_verdict_get_explanation (verdict));
  json_object_set_boolean_member (data, "engine_pass", viva_exam_verdict_get_engine_pass (verdict));
  json_object_set_boolean_member (data, "consistent", viva_exam_verdict_get_consistent (verdict));
  if (json_object_has_member (object, "hidden_tests"))
    json_object_set_member (data, "hidden_tests", json_object_dup_member (object, "hidden_tests"));
  return data;
}

/* The report, built from the session as the app builds it, signed over
 * its exact bytes, kept. */
static void
keep_report (Live *live)
{
  VivaServerApi *api = live->self->api;
  g_autofree char *trace_path = g_build_filename (viva_exam_session_get_dir (live->session), "trace.jsonl", NULL);
  g_autofree char *key_path = g_build_filename (viva_server_api_get_state_dir (api), "signing-key.pem", NULL);
  g_autofree char *trace = NULL;
  g_autofree char *text = NULL;
  g_autofree char *signature = NULL;
  g_autoptr(JsonNode) report = NULL;
  g_autoptr(GError) error = NULL;
  gsize trace_length = 0;
  JsonNode *checkpoint = viva_exam_session_get_checkpoint (live->session);

  if (checkpoint == NULL)
    return;
  if (!g_file_get_contents (trace_path, &trace, &trace_length, NULL))
    trace = NULL;

  report = viva_exam_report_build (checkpoint, trace, trace ? (gssize)trace_length : 0);
  text = json_to_string (report, TRUE);
  if (!(signature = viva_server_keys_sign (key_path, text, strlen (text), &error)) ||
      !viva_server_store_save_report (store_of (live), live->id, text, signature, &error))
    g_warning ("defense %s: report not kept: %s", live->id, error->message);
}

/* The end of a defense: once the session is on disk, its report is kept
 * and signed, and the last events say how it ended. */
static void
flush_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autofree char *id = user_data;
  VivaServerDefenses *self = g_object_get_data (object, "viva-server-defenses");
  VivaExamVerdict *verdict;
  Live *live;
  g_autoptr(JsonObject) done = json_object_new ();
  const char *state;

  viva_exam_session_flush_finish (VIVA_EXAM_SESSION (object), result, NULL);
  if (self == NULL || !(live = g_hash_table_lookup (self->live, id)))
    return;

  flush_content (live);
  save_checkpoint (live);

  verdict = viva_examiner_get_verdict (live->examiner);
  if (viva_examiner_get_state (live->examiner) == VIVA_EXAMINER_STATE_FINISHED && verdict != NULL)
    {
      g_autoptr(JsonObject) data = verdict_data (verdict);

      keep_report (live);
      add_event (live, "verdict", data);
      state = "finished";
    }
  else if (viva_examiner_get_state (live->examiner) == VIVA_EXAMINER_STATE_CANCELLED)
    return;  /* the server is stopping: the defense continues at its next start */
  else
    {
      g_autoptr(JsonObject) data = json_object_new ();

      json_object_set_string_member (data, "message",
                                     viva_examiner_get_error_message (live->examiner)
                                     ? viva_examiner_get_error_message (live->examiner)
                                     : _("The defense could not go on."));
      add_event (live, "error", data);
      state = "failed";
    }

  set_state (live, state);
  json_object_set_string_member (done, "state", state);
  add_event (live, "finished", done);
  g_hash_table_remove (self->live, id);
}

static void
done_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  char *id = user_data;
  VivaExaminer *examiner = VIVA_EXAMINER (object);
  g_autoptr(VivaExamVerdict) verdict = NULL;
  g_autoptr(GError) error = NULL;
  VivaExamSession *session = viva_examiner_get_session (examiner);

  if (g_task_get_source_tag (G_TASK (result)) == viva_examiner_resume_async)
    verdict = viva_examiner_resume_finish (examiner, result, &error);
  else
    verdict = viva_examiner_run_finish (examiner, result, &error);

  if (error != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_message ("defense %s: %s", id, error->message);

  viva_exam_session_flush_async (session, NULL, flush_cb, id);
}

static VivaChatModel *
choose_model (VivaServerDefenses *self,
              VivaExamFile       *exam,
              VivaProblem        *problem)
{
  const char *base_url = NULL, *model = NULL;

  if (viva_exam_file_has_examiner (exam) &&
      viva_exam_file_get_examiner_mode (exam) == VIVA_EXAMINER_MODE_OFFLINE)
    return VIVA_CHAT_MODEL (viva_scripted_model_new (problem));

  /* The lab's model server is the server's setting; an exam may name its
   * own. Students never see either. */
  if (viva_exam_file_get_base_url (exam) != NULL)
    {
      base_url = viva_exam_file_get_base_url (exam);
      model = viva_exam_file_get_model (exam);
    }
  else if (self->examiner != NULL)
    {
      base_url = json_object_get_string_member_with_default (self->examiner, "base_url", NULL);
      model = json_object_get_string_member_with_default (self->examiner, "model", NULL);
    }

  if (base_url == NULL)
    return VIVA_CHAT_MODEL (viva_scripted_model_new (problem));
  return VIVA_CHAT_MODEL (viva_exam_model_new_for_endpoint (viva_settings_get_default (), base_url, model));
}

static char *
sessions_dir (VivaServerDefenses *self)
{
  return g_build_filename (viva_server_api_get_state_dir (self->api), "sessions", NULL);
}

static Live *
live_new (VivaServerDefenses *self,
          JsonObject         *row,
          const char         *code,
          GError            **error)
{
  g_autoptr(VivaChatModel) model = NULL;
  VivaExamFile *exam;
  VivaProblem *problem;
  Live *live;
  const char *exam_id = json_object_get_string_member (row, "exam_id");
  const char *problem_id = json_object_get_string_member (row, "problem_id");

  if (!(exam = viva_server_api_get_exam (self->api, exam_id, error)))
    return NULL;
  if (!(problem = viva_pack_find_problem (viva_exam_file_get_pack (exam), problem_id)))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("The exam has no problem “%s”."), problem_id);
      return NULL;
    }
  live = g_new0 (Live, 1);
  live->self = self;
  live->id = g_strdup (json_object_get_string_member (row, "id"));
  live->exam_id = g_strdup (exam_id);
  live->student_id = g_strdup (json_object_get_string_member (row, "student_id"));
  live->problem_id = g_strdup (problem_id);
  live->content = g_string_new (NULL);
  live->cancellable = g_cancellable_new ();
  live->auto_answer = json_object_get_int_member (row, "handed_in") != 0;
  live->source = viva_text_code_source_new (code);

  model = choose_model (self, exam, problem);
  live->examiner = viva_examiner_new (model, problem, VIVA_CODE_SOURCE (live->source));
  viva_examiner_set_pack_id (live->examiner, viva_exam_file_get_pack_id (exam));
  if (viva_exam_file_get_language (exam) != NULL)
    viva_examiner_set_language (live->examiner, viva_exam_file_get_language (exam));
  else if (viva_pack_get_language (viva_exam_file_get_pack (exam)) != NULL)
    viva_examiner_set_language (live->examiner, viva_pack_get_language (viva_exam_file_get_pack (exam)));

  g_signal_connect (live->examiner, "notify::state", G_CALLBACK (on_state), live);
  g_signal_connect (live->examiner, "delta", G_CALLBACK (on_delta), live);
  g_signal_connect (live->examiner, "tool-started", G_CALLBACK (on_tool_started), live);
  g_signal_connect (live->examiner, "tool-finished", G_CALLBACK (on_tool_finished), live);
  g_signal_connect (live->examiner, "question", G_CALLBACK (on_question), live);
  g_signal_connect (live->examiner, "answer", G_CALLBACK (on_answer), live);
  g_signal_connect (live->examiner, "message", G_CALLBACK (on_message), live);
  g_signal_connect (live->examiner, "refused", G_CALLBACK (on_refused), live);

  g_hash_table_insert (self->live, live->id, live);
  return live;
}

/**
 * viva_server_defenses_start:
 * @handed_in: started at time-up: questions are answered for the student
 *
 * Returns: (transfer full): the new defense's id, its row committed
 */
char *
viva_server_defenses_start (VivaServerDefenses  *self,
                            const char          *exam_id,
                            const char          *student_id,
                            const char          *problem_id,
                            const char          *code,
                            gboolean             handed_in,
                            GError             **error)
{
  VivaServerStore *store = viva_server_api_get_store (self->api);
  g_autofree char *id = viva_server_keys_random_id ();
  g_autofree char *dir = sessions_dir (self);
  g_autoptr(JsonObject) row = NULL;
  g_autoptr(JsonObject) student = NULL;
  g_autoptr(JsonObject) submit = NULL;
  VivaExamFile *exam;
  Live *live;

  g_return_val_if_fail (VIVA_IS_SERVER_DEFENSES (self), NULL);

  if (!viva_server_store_add_defense (store, id, exam_id, student_id, problem_id, code, handed_in, error) ||
      !(row = viva_server_store_get_defense (store, id, error)) ||
      !(live = live_new (self, row, code, error)))
    return NULL;

  exam = viva_server_api_get_exam (self->api, exam_id, NULL);
  student = viva_server_store_get_student (store, exam_id, student_id, NULL);
  live->session = viva_exam_session_new (dir);
  g_object_set_data (G_OBJECT (live->session), "viva-server-defenses", self);
  viva_exam_session_set_student (live->session, student ? json_object_get_string_member (student, "name") : NULL,
                                 student_id);
  viva_exam_session_set_exam (live->session, exam);
  submit = viva_timeline_event_code ("submit", code);
  viva_exam_session_add_timeline_event (live->session, submit);

  if (!viva_server_store_set_defense_session (store, id, viva_exam_session_get_id (live->session), error))
    {
      g_hash_table_remove (self->live, id);
      return NULL;
    }

  viva_examiner_set_session (live->examiner, live->session);
  viva_examiner_run_async (live->examiner, live->cancellable, done_cb, g_strdup (id));
  return g_steal_pointer (&id);
}

/* The pending question a defense had told its clients of, before the
 * server stopped. */
static void
find_told_question (Live *live)
{
  g_autoptr(JsonArray) events = NULL;
  g_autoptr(JsonArray) steps = NULL;
  guint n;

  steps = viva_server_db_queryf (viva_server_store_get_db (store_of (live)), NULL,
                                 "SELECT kind, data FROM defense_events WHERE defense_id = $1"
                                 " AND kind IN ('tool_call', 'tool_result')", "s", live->id);
  live->told_steps = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; steps != NULL && i < json_array_get_length (steps); i++)
    {
      JsonObject *row = json_array_get_object_element (steps, i);
      g_autoptr(JsonNode) data = json_from_string (json_object_get_string_member (row, "data"), NULL);

      if (data != NULL && JSON_NODE_HOLDS_OBJECT (data))
        g_hash_table_add (live->told_steps,
                          g_strconcat (json_object_get_string_member (row, "kind"), " ",
                                       json_object_get_string_member_with_default (json_node_get_object (data), "step", ""),
                                       NULL));
    }

  events = viva_server_db_queryf (viva_server_store_get_db (store_of (live)), NULL,
                                  "SELECT seq, kind, data FROM defense_events WHERE defense_id = $1"
                                  " AND kind IN ('question', 'answer') ORDER BY seq DESC LIMIT 1",
                                  "s", live->id);
  if (events == NULL || (n = json_array_get_length (events)) == 0)
    return;

  {
    JsonObject *last = json_array_get_object_element (events, 0);
    g_autoptr(JsonNode) data = NULL;

    if (!g_str_equal (json_object_get_string_member (last, "kind"), "question") ||
        !(data = json_from_string (json_object_get_string_member (last, "data"), NULL)))
      return;
    live->resumed_question = g_strdup (json_object_get_string_member_with_default (json_node_get_object (data),
                                                                                  "question", ""));
    live->resumed_seq = json_object_get_int_member (last, "seq");
  }
}

static gboolean
resume_one (VivaServerDefenses  *self,
            JsonObject          *row,
            GError             **error)
{
  g_autofree char *dir = sessions_dir (self);
  const char *session_id = json_object_get_string_member_with_default (row, "session_id", NULL);
  const char *checkpoint = json_object_get_string_member_with_default (row, "checkpoint", NULL);
  const char *code = json_object_get_string_member (row, "code");
  g_autofree char *session_dir = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GBytes) bytes = NULL;
  Live *live;

  if (session_id == NULL || checkpoint == NULL)
    {
      /* Killed before its first step was kept: it starts again, from the
       * code the student submitted. */
      g_autoptr(JsonObject) fresh = json_object_ref (row);
      VivaServerStore *store = viva_server_api_get_store (self->api);
      g_autofree char *id = NULL;

      if (!viva_server_store_set_defense_state (store, json_object_get_string_member (row, "id"), "restarted", error))
        return FALSE;
      id = viva_server_defenses_start (self, json_object_get_string_member (fresh, "exam_id"),
                                       json_object_get_string_member (fresh, "student_id"),
                                       json_object_get_string_member (fresh, "problem_id"), code,
                                       json_object_get_int_member (fresh, "handed_in") != 0, error);
      return id != NULL;
    }

  /* The database's checkpoint is the one that counts. */
  session_dir = g_build_filename (dir, session_id, NULL);
  path = g_build_filename (session_dir, "checkpoint.json", NULL);
  file = g_file_new_for_path (path);
  bytes = g_bytes_new (checkpoint, strlen (checkpoint));
  if (!viva_file_writer_write (file, bytes, 0600, VIVA_FILE_WRITER_MAKE_FOLDERS, error))
    return FALSE;

  if (!(live = live_new (self, row, code, error)))
    return FALSE;
  if (!(live->session = viva_exam_session_load (dir, session_id, error)))
    {
      g_hash_table_remove (self->live, json_object_get_string_member (row, "id"));
      return FALSE;
    }
  g_object_set_data (G_OBJECT (live->session), "viva-server-defenses", self);
  live->saved_checkpoint = json_node_ref (viva_exam_session_get_checkpoint (live->session));
  find_told_question (live);

  viva_examiner_resume_async (live->examiner, live->session, live->cancellable, done_cb, g_strdup (live->id));
  return TRUE;
}

/**
 * viva_server_defenses_resume_all:
 *
 * Continues every defense the database says was live.
 *
 * Returns: how many were continued
 */
guint
viva_server_defenses_resume_all (VivaServerDefenses  *self,
                                 GError             **error)
{
  g_autoptr(JsonArray) rows = NULL;
  guint n = 0;

  if (!(rows = viva_server_store_list_live_defenses (viva_server_api_get_store (self->api), error)))
    return 0;

  for (guint i = 0; i < json_array_get_length (rows); i++)
    {
      JsonObject *row = json_array_get_object_element (rows, i);
      g_autoptr(GError) local = NULL;

      if (resume_one (self, row, &local))
        n++;
      else
        g_warning ("defense %s could not continue: %s", json_object_get_string_member (row, "id"), local->message);
    }
  return n;
}

gboolean
viva_server_defenses_answer (VivaServerDefenses  *self,
                             const char          *defense_id,
                             const char          *text,
                             gint64               question_seq,
                             GError             **error)
{
  Live *live = g_hash_table_lookup (self->live, defense_id);

  if (live == NULL || live->pending == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_PENDING,
                   _("No question is waiting for an answer in this defense."));
      return FALSE;
    }
  if (question_seq > 0 && question_seq != live->pending_seq)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_PENDING,
                   _("That question was answered already: fetch the defense’s events for the one waiting now."));
      return FALSE;
    }
  return viva_examiner_answer (live->examiner, text, error);
}

gboolean
viva_server_defenses_is_live (VivaServerDefenses *self,
                              const char         *defense_id)
{
  return g_hash_table_contains (self->live, defense_id);
}

const char *
viva_server_defenses_get_pending (VivaServerDefenses *self,
                                  const char         *defense_id,
                                  gint64             *question_seq)
{
  Live *live = g_hash_table_lookup (self->live, defense_id);

  if (live == NULL)
    return NULL;
  if (question_seq != NULL)
    *question_seq = live->pending_seq;
  return live->pending;
}

guint
viva_server_defenses_get_n_live (VivaServerDefenses *self)
{
  return g_hash_table_size (self->live);
}

/**
 * viva_server_defenses_time_up:
 *
 * The student's time is up: every live defense of theirs answers its
 * questions for them from here on.
 */
void
viva_server_defenses_time_up (VivaServerDefenses *self,
                              const char         *exam_id,
                              const char         *student_id)
{
  GHashTableIter iter;
  Live *live;

  g_hash_table_iter_init (&iter, self->live);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *)&live))
    {
      if (!g_str_equal (live->exam_id, exam_id) || !g_str_equal (live->student_id, student_id))
        continue;
      live->auto_answer = TRUE;
      if (live->pending != NULL)
        answer_later (live);
    }
}

static void
viva_server_defenses_dispose (GObject *object)
{
  VivaServerDefenses *self = (VivaServerDefenses *)object;

  g_hash_table_remove_all (self->live);

  G_OBJECT_CLASS (viva_server_defenses_parent_class)->dispose (object);
}

static void
viva_server_defenses_finalize (GObject *object)
{
  VivaServerDefenses *self = (VivaServerDefenses *)object;

  g_clear_pointer (&self->live, g_hash_table_unref);
  g_clear_pointer (&self->examiner, json_object_unref);

  G_OBJECT_CLASS (viva_server_defenses_parent_class)->finalize (object);
}

static void
viva_server_defenses_class_init (VivaServerDefensesClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = viva_server_defenses_dispose;
  object_class->finalize = viva_server_defenses_finalize;

  /**
   * VivaServerDefenses::event:
   * @defense_id: the defense
   * @seq: the event's sequence number, committed
   * @kind: `state`, `content`, `tool_call`, `tool_result`, `question`,
   *   `answer`, `refused`, `verdict`, `error` or `finished`
   * @data: the event, as kept (the teacher's view)
   */
  signals[EVENT] =
    g_signal_new ("event", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 4, G_TYPE_STRING, G_TYPE_INT64, G_TYPE_STRING, JSON_TYPE_OBJECT);
}

static void
viva_server_defenses_init (VivaServerDefenses *self)
{
  self->live = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify)live_free);
}

VivaServerDefenses *
viva_server_defenses_new (VivaServerApi *api,
                          JsonObject    *examiner)
{
  VivaServerDefenses *self = g_object_new (VIVA_TYPE_SERVER_DEFENSES, NULL);

  self->api = api;
  if (examiner != NULL)
    self->examiner = json_object_ref (examiner);
  return self;
}

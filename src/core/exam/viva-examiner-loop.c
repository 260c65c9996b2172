/* viva-examiner-loop.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-exam-facts.h"
#include "viva-exam-local-runs.h"
#include "viva-examiner-private.h"
#include "viva-exam-plan.h"

/* The turn: the request (from the conversation) → stream a reply → hand
 * it to the examiner (viva-examiner.c), which decides what comes next: its
 * first tool call to the dispatcher, a reminder, or the end. Also here:
 * starting and resuming a defense, up to the primed worker. Everything
 * runs on the main loop; each callback gets a reference to the run's GTask
 * and drops the result when that task is no longer the current one. */
static gboolean
code_edit_timeout_cb (gpointer user_data)
{
  VivaExaminer *self = user_data;

  self->code_edit_source = 0;
  if (self->task != NULL)
    g_free (_viva_examiner_snapshot_code (self));

  return G_SOURCE_REMOVE;
}

/* Edits during a defense are traced with their time, at most one a second
 * (an editor may report every keystroke). */
void
_viva_examiner_code_changed_cb (VivaExaminer *self)
{
  g_assert (VIVA_IS_EXAMINER (self));

  if (self->task == NULL || self->code_edit_source != 0 || self->session == NULL)
    return;

  self->code_edit_source = g_timeout_add_seconds (1, code_edit_timeout_cb, self);
}

/* The leak filter shows what it lets through of a streamed delta. */
static void
emit_text (VivaExaminer *self,
           guint         which,
           const char   *text)
{
  VivaChatDelta delta = { 0 };

  if (text == NULL)
    return;

  delta.kind = which == 0 ? VIVA_CHAT_DELTA_CONTENT : VIVA_CHAT_DELTA_REASONING;
  delta.text = text;
  _viva_examiner_emit (self, DELTA, &delta);
}

static void
guard_delta (VivaExaminer        *self,
             const VivaChatDelta *delta)
{
  g_autofree char *shown = NULL;
  guint which;

  if ((delta->kind != VIVA_CHAT_DELTA_CONTENT && delta->kind != VIVA_CHAT_DELTA_REASONING) ||
      delta->text == NULL)
    return _viva_examiner_emit (self, DELTA, delta);

  which = delta->kind == VIVA_CHAT_DELTA_CONTENT ? 0 : 1;
  shown = _viva_exam_leak_filter_delta (&self->leaks, which, delta->text, self->conversation.code_snapshot);
  emit_text (self, which, shown);
}

void
_viva_examiner_model_delta_cb (VivaChatModel       *model,
                               VivaChatRequest     *request,
                               const VivaChatDelta *delta,
                               VivaExaminer        *self)
{
  g_assert (VIVA_IS_EXAMINER (self));

  if (request != self->request)
    return;

  if (self->first_byte == 0)
    self->first_byte = g_get_monotonic_time ();

  guard_delta (self, delta);
}

/* The model's busy is the examiner's, so a front shows one object. */
void
_viva_examiner_model_busy_cb (VivaExaminer *self)
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
reply_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  VivaExaminer *self = g_task_get_source_object (task);
  g_autoptr(VivaChatReply) reply = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(VivaChatMessage) message = NULL;
  g_autoptr(JsonNode) traced = NULL;
  gint64 now = g_get_monotonic_time ();
  JsonObject *data;

  reply = viva_chat_model_stream_finish (VIVA_CHAT_MODEL (object), result, &error);

  if (task != self->task)
    return;

  g_clear_pointer (&self->request, viva_chat_request_unref);

  if (reply == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return _viva_examiner_cancelled (self);
      return _viva_examiner_fail (self, g_steal_pointer (&error));
    }

  self->protocol.iterations++;

  /* What the student would see of the reply passes the leak guard first. */
  traced = viva_chat_reply_to_json (reply);
  message = _viva_examiner_guard_reply (self, reply, json_node_get_object (traced));

  if (self->session != NULL)
    {
      data = json_object_new ();
      json_object_set_int_member (data, "iteration", self->protocol.iterations);
      json_object_set_member (data, "reply", g_steal_pointer (&traced));
      json_object_set_int_member (data, "total_ms", (now - self->request_started) / 1000);
      if (self->first_byte != 0)
        json_object_set_int_member (data, "first_byte_ms", (self->first_byte - self->request_started) / 1000);
      _viva_exam_conversation_add_usage (data, viva_chat_reply_get_usage (reply));
      _viva_examiner_trace (self, "reply", data);
    }

  g_ptr_array_add (self->conversation.messages, viva_chat_message_ref (message));
  _viva_examiner_emit (self, REPLY, message);

  _viva_examiner_after_reply (self, message);
}

/* A turn: a fresh snapshot of the code (an edit made mid-defense is what
 * the examiner sees next), the request, a checkpoint, the reply streamed. */
void
_viva_examiner_next_turn (VivaExaminer *self)
{
  gboolean first = self->conversation.sent_code_hash == NULL;

  g_free (_viva_examiner_snapshot_code (self));
  _viva_exam_conversation_send_code (&self->conversation);

  /* Once, after the code: what the student checked and asked to have
   * explained before submitting, facts the examiner may ask about. */
  if (first && self->conversation.sent_code_hash != NULL && self->session != NULL)
    {
      g_autofree char *facts = viva_exam_facts_message (viva_exam_session_get_timeline (self->session));

      if (facts != NULL)
        g_ptr_array_add (self->conversation.messages, viva_chat_message_new_user (facts));
    }

  g_clear_pointer (&self->request, viva_chat_request_unref);
  self->request = _viva_examiner_build_request (self, TRUE);
  self->phase = VIVA_EXAM_PHASE_MODEL;
  _viva_examiner_set_state (self, VIVA_EXAMINER_STATE_THINKING);
  _viva_examiner_checkpoint (self);
  _viva_examiner_trace_request (self, "request", self->protocol.iterations + 1);

  self->request_started = g_get_monotonic_time ();
  self->first_byte = 0;
  viva_chat_model_stream_async (self->model, self->request, _viva_examiner_cancellable (self),
                                reply_cb, g_object_ref (self->task));
}

/* The prime's result, traced when it comes: the defense went on without
 * waiting for it, and may have ended since (the prime holds its task
 * weakly, so an ended defense is not kept alive by its prime). Its
 * cancellation is the defense's, which what runs beside it (the model's
 * stream, a tool, a question) answers: nothing to do here then. */
static void
prime_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  GWeakRef *ref = user_data;
  g_autoptr(GTask) task = g_weak_ref_get (ref);
  g_autoptr(VivaRunResult) run = NULL;
  g_autoptr(GError) error = NULL;
  VivaExaminer *self;
  JsonObject *data;

  g_weak_ref_clear (ref);
  g_free (ref);
  run = viva_exam_runs_run_finish (VIVA_EXAM_RUNS (object), result, &error);

  if (task == NULL || task != (self = g_task_get_source_object (task))->task ||
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  data = json_object_new ();
  json_object_set_string_member (data, "status", run ? viva_run_status_to_string (viva_run_result_get_status (run))
                                                     : error->message);
  _viva_examiner_trace (self, "prime", data);
}

static void
started (VivaExaminer *self)
{
  g_autofree char *code = viva_code_source_dup_code (self->code_source);
  GWeakRef *ref = g_new0 (GWeakRef, 1);

  /* The worker is primed with the student's code, as the editor's worker
   * is after the run that enabled Submit: runPython sees its globals. A
   * resumed defense gets the same, so a redone step sees what it saw.
   * Sent, not waited for: the student's interpreter takes its requests in
   * order (a runner's queue, the remote runs one at a time), so any later
   * run waits for the prime and sees its globals, and the examiner's first
   * words do not wait for a worker (a job in the exam server's pool). */
  g_weak_ref_init (ref, self->task);
  viva_exam_runs_run_async (self->runs, code, self->protocol.limits.run_timeout_ms,
                            _viva_examiner_cancellable (self), prime_cb, ref);
  _viva_examiner_primed (self);
}

static void
start_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  VivaExaminer *self = g_task_get_source_object (task);
  g_autoptr(GError) error = NULL;

  if (!viva_exam_runs_start_finish (VIVA_EXAM_RUNS (object), result, &error))
    {
      if (task != self->task)
        return;
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return _viva_examiner_cancelled (self);
      g_prefix_error (&error, _("The Python worker for the defense could not start: "));
      return _viva_examiner_fail (self, g_steal_pointer (&error));
    }

  if (task != self->task)
    return;

  started (self);
}

static void
prepare (VivaExaminer *self)
{
  /* Runs given with set_runs (the exam server's pool) are used as they
   * are; otherwise workers on this machine: the runners given (the
   * editor's, a rehearsal's shared reference runner) or the runs' own. */
  if (self->runs == NULL)
    {
      self->runs = VIVA_EXAM_RUNS (viva_exam_local_runs_new (self->problem, self->runner, self->reference_runner));
      self->owns_runs = TRUE;
    }

  g_clear_object (&self->context);
  self->context = viva_exam_context_new (self->problem, self->code_source, self->runs,
                                         self->protocol.limits.run_timeout_ms);
  /* The engine's plan of questions, the same again on resume (seeded by
   * the defense's creation); readStudentCode hands it to the model. */
  viva_exam_context_set_plan (self->context,
                              viva_exam_plan_new (self->problem, g_str_hash (self->created ? self->created : "")));

  _viva_examiner_set_error_message (self, NULL);
  _viva_examiner_set_state (self, VIVA_EXAMINER_STATE_THINKING);

  viva_exam_runs_start_async (self->runs, _viva_examiner_cancellable (self), start_cb, g_object_ref (self->task));
}

static gboolean
check_idle (VivaExaminer  *self,
            GTask         *task)
{
  if (self->task != NULL || self->ask_task != NULL ||
      (self->state != VIVA_EXAMINER_STATE_IDLE))
    {
      g_task_return_new_error (task, VIVA_EXAM_ERROR, VIVA_EXAM_ERROR_BUSY,
                               _("This examiner has already run a defense; start a new one."));
      return FALSE;
    }

  return TRUE;
}

static JsonObject *
start_data (VivaExaminer *self)
{
  JsonObject *data = json_object_new ();

  json_object_set_string_member (data, "problem", viva_problem_get_id (self->problem));
  if (self->pack_id)
    json_object_set_string_member (data, "pack", self->pack_id);
  json_object_set_string_member (data, "model", G_OBJECT_TYPE_NAME (self->model));
  if (self->language)
    json_object_set_string_member (data, "language", self->language);

  return data;
}

/**
 * viva_examiner_run_async:
 * @cancellable: (nullable): cancels the defense; it stays resumable from its
 *   checkpoint
 *
 * Runs a whole defense. Progress arrives through the signals and the
 * #VivaExaminer:state property; @callback runs once the defense ended.
 */
void
viva_examiner_run_async (VivaExaminer        *self,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GDateTime) now = NULL;

  g_return_if_fail (VIVA_IS_EXAMINER (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_examiner_run_async);

  if (!check_idle (self, task))
    return;

  self->task = g_steal_pointer (&task);
  now = g_date_time_new_now_utc ();
  self->created = g_date_time_format_iso8601 (now);
  _viva_examiner_trace (self, "start", start_data (self));
  prepare (self);
}

/**
 * viva_examiner_run_finish:
 *
 * Returns: (transfer full): the verdict of a finished or incomplete
 *   defense, or %NULL with @error when the model failed (the verdict
 *   property still holds a failed verdict) or on cancellation
 */
VivaExamVerdict *
viva_examiner_run_finish (VivaExaminer  *self,
                          GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (VIVA_IS_EXAMINER (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * viva_examiner_resume_async:
 * @session: a session loaded with viva_exam_session_load_async()
 *
 * Continues a checkpointed defense of this examiner's problem where it
 * stopped: a pending question is asked again (#VivaExaminer::question), a
 * model call or tool that was in flight is redone, the worker is primed by
 * running the current code. A defense that had ended completes at once
 * with its verdict. Further checkpoints go to @session.
 */
void
viva_examiner_resume_async (VivaExaminer        *self,
                            VivaExamSession     *session,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *data;

  g_return_if_fail (VIVA_IS_EXAMINER (self));
  g_return_if_fail (VIVA_IS_EXAM_SESSION (session));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_examiner_resume_async);

  if (!check_idle (self, task))
    return;

  if (!_viva_examiner_restore (self, session, &error))
    return g_task_return_error (task, g_steal_pointer (&error));

  self->task = g_steal_pointer (&task);

  data = start_data (self);
  json_object_set_string_member (data, "phase",
                                 self->phase == VIVA_EXAM_PHASE_DONE ? "done" :
                                 self->phase == VIVA_EXAM_PHASE_TOOL ? "tool" : "model");
  _viva_examiner_trace (self, "resume", data);

  if (self->phase == VIVA_EXAM_PHASE_DONE && self->verdict != NULL)
    {
      g_autoptr(VivaExamVerdict) verdict = g_object_ref (self->verdict);

      _viva_examiner_set_state (self, VIVA_EXAMINER_STATE_FINISHED);
      _viva_examiner_emit (self, VERDICT, verdict);
      return _viva_examiner_complete (self, verdict, NULL);
    }

  /* A failed model call is retried from where it failed. */
  _viva_examiner_set_verdict (self, NULL);
  prepare (self);
}

/**
 * viva_examiner_resume_finish:
 *
 * Returns: (transfer full): as viva_examiner_run_finish()
 */
VivaExamVerdict *
viva_examiner_resume_finish (VivaExaminer  *self,
                             GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (VIVA_IS_EXAMINER (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

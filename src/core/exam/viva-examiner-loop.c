/* viva-examiner-loop.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-examiner-private.h"

/* The task loop's turns: build the request → stream a reply → hand its
 * first tool call to the dispatcher (viva-examiner-dispatch.c), which
 * checks it against the guardrails (viva-examiner-guardrails.c), invokes
 * the tool and comes back here for the next turn. Everything runs on the
 * main loop; each callback gets a reference to the run's GTask and drops
 * the result when that task is no longer the current one. Text sent to the
 * model (tool errors, refusals, reminders) stays in English, like the
 * prompt. Also here: starting, resuming and ending a defense. */
void
_viva_examiner_trace (VivaExaminer *self,
                      const char   *event,
                      JsonObject   *data)
{
  g_autoptr(JsonObject) owned = data;

  if (self->session != NULL)
    viva_exam_session_trace (self->session, event, owned);
}

void
_viva_examiner_checkpoint (VivaExaminer *self)
{
  g_autoptr(JsonNode) node = NULL;

  if (self->session == NULL)
    return;

  node = _viva_examiner_to_checkpoint (self);
  viva_exam_session_save_checkpoint (self->session, node);
}

GCancellable *
_viva_examiner_cancellable (VivaExaminer *self)
{
  return self->task ? g_task_get_cancellable (self->task) : NULL;
}

void
_viva_examiner_complete (VivaExaminer    *self,
                         VivaExamVerdict *verdict,
                         GError          *error)
{
  g_autoptr(GTask) task = g_steal_pointer (&self->task);

  if (task == NULL)
    {
      g_clear_error (&error);
      return;
    }

  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, g_object_ref (verdict), g_object_unref);
}

char *
_viva_examiner_snapshot_code (VivaExaminer *self)
{
  g_autofree char *code = viva_code_source_dup_code (self->code_source);
  g_autofree char *hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, code, -1);

  if (g_strcmp0 (hash, self->code_hash) != 0)
    {
      JsonObject *data = json_object_new ();

      json_object_set_string_member (data, "sha256", hash);
      json_object_set_int_member (data, "length", strlen (code));
      /* The first snapshot is the code submitted; any later one is an edit
       * made during the defense, which a teacher wants to see. */
      json_object_set_boolean_member (data, "edited", self->code_hash != NULL);
      _viva_examiner_trace (self, self->code_hash != NULL ? "code_edit" : "code", data);

      g_free (self->code_hash);
      self->code_hash = g_steal_pointer (&hash);
      g_free (self->code_snapshot);
      self->code_snapshot = g_strdup (code);
    }

  return g_steal_pointer (&code);
}

GPtrArray *
_viva_examiner_collect_probes (VivaExaminer *self)
{
  GPtrArray *probes = g_ptr_array_new_with_free_func ((GDestroyNotify)viva_exam_probe_free);

  for (guint i = 0; i < self->steps->len; i++)
    {
      VivaExamStep *step = g_ptr_array_index (self->steps, i);

      if (step->probe != NULL)
        g_ptr_array_add (probes, viva_exam_probe_copy (step->probe));
    }

  return probes;
}

GPtrArray *
_viva_examiner_collect_step_names (VivaExaminer *self)
{
  GPtrArray *names = g_ptr_array_new ();

  for (guint i = 0; i < self->steps->len; i++)
    g_ptr_array_add (names, ((VivaExamStep *)g_ptr_array_index (self->steps, i))->name);

  return names;
}

void
_viva_examiner_end_with (VivaExaminer    *self,
                         VivaExamVerdict *verdict)
{
  g_autoptr(JsonNode) node = NULL;
  JsonObject *data = json_object_new ();

  _viva_exam_verdict_set_n_withheld (verdict, self->n_withheld);
  node = viva_exam_verdict_to_json (verdict);
  self->phase = VIVA_EXAM_PHASE_DONE;
  g_clear_pointer (&self->pending_call, viva_tool_call_free);
  g_clear_pointer (&self->pending_step, g_free);
  _viva_examiner_set_pending_question (self, NULL);
  _viva_examiner_set_verdict (self, verdict);
  _viva_examiner_set_state (self, viva_exam_verdict_get_status (verdict) == VIVA_EXAM_STATUS_FAILED
                                  ? VIVA_EXAMINER_STATE_FAILED : VIVA_EXAMINER_STATE_FINISHED);

  json_object_set_member (data, "verdict", json_node_copy (node));
  _viva_examiner_trace (self, "verdict", data);
  _viva_examiner_checkpoint (self);

  _viva_examiner_emit (self, VERDICT, verdict);
}

void
_viva_examiner_end_incomplete (VivaExaminer *self,
                               const char   *reason)
{
  g_autoptr(GPtrArray) names = _viva_examiner_collect_step_names (self);
  g_autoptr(GPtrArray) probes = _viva_examiner_collect_probes (self);
  g_autoptr(VivaExamVerdict) verdict = NULL;
  JsonObject *data = json_object_new ();

  json_object_set_string_member (data, "action", "incomplete");
  json_object_set_string_member (data, "reason", reason);
  _viva_examiner_trace (self, "guardrail", data);

  verdict = _viva_exam_verdict_new (VIVA_EXAM_STATUS_INCOMPLETE, FALSE, -1, NULL, reason,
                                    names, NULL, probes);
  _viva_examiner_end_with (self, verdict);
  _viva_examiner_complete (self, verdict, NULL);
}

void
_viva_examiner_fail (VivaExaminer *self,
                     GError       *error)
{
  g_autoptr(GPtrArray) names = _viva_examiner_collect_step_names (self);
  g_autoptr(GPtrArray) probes = _viva_examiner_collect_probes (self);
  g_autoptr(VivaExamVerdict) verdict = NULL;
  JsonObject *data = json_object_new ();

  json_object_set_string_member (data, "domain", g_quark_to_string (error->domain));
  json_object_set_int_member (data, "code", error->code);
  json_object_set_string_member (data, "message", error->message);
  _viva_examiner_trace (self, "error", data);

  _viva_examiner_set_error_message (self, error->message);
  verdict = _viva_exam_verdict_new (VIVA_EXAM_STATUS_FAILED, FALSE, -1, NULL, error->message,
                                    names, NULL, probes);
  /* The phase stays as it was, so a resume redoes what failed. */
  _viva_examiner_set_verdict (self, verdict);
  _viva_examiner_set_state (self, VIVA_EXAMINER_STATE_FAILED);
  _viva_examiner_checkpoint (self);
  _viva_examiner_emit (self, VERDICT, verdict);
  _viva_examiner_complete (self, NULL, error);
}

void
_viva_examiner_cancelled (VivaExaminer *self)
{
  _viva_examiner_trace (self, "cancelled", NULL);
  _viva_examiner_set_state (self, VIVA_EXAMINER_STATE_CANCELLED);
  /* What was in flight stays in the checkpoint: a cancelled defense can be
   * resumed, for example after the window was closed. */
  _viva_examiner_checkpoint (self);
  _viva_examiner_complete (self, NULL, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                                             _("The defense was cancelled.")));
}

VivaChatRequest *
_viva_examiner_build_request (VivaExaminer *self,
                              const char   *system,
                              gboolean      with_tools)
{
  g_autoptr(VivaChatRequest) request = NULL;
  g_autoptr(VivaChatMessage) system_message = viva_chat_message_new_system (system);
  guint budget = self->limits.context_length * 8 / 10;
  guint estimate;

  for (guint pass = 0; pass < 2; pass++)
    {
      guint keep_from = 0;

      g_clear_pointer (&request, viva_chat_request_unref);
      request = viva_chat_request_new ();
      viva_chat_request_add_message (request, system_message);

      if (pass == 1)
        {
          guint tools_seen = 0;

          keep_from = self->messages->len;
          while (keep_from > 0 && tools_seen < self->limits.keep_recent_steps)
            {
              keep_from--;
              tools_seen += viva_chat_message_get_role (g_ptr_array_index (self->messages, keep_from))
                            == VIVA_CHAT_ROLE_TOOL;
            }
          /* Never split an assistant message from the answers to its calls. */
          while (keep_from > 0 &&
                 viva_chat_message_get_role (g_ptr_array_index (self->messages, keep_from)) == VIVA_CHAT_ROLE_TOOL)
            keep_from--;
        }

      for (guint i = 0; i < self->messages->len; i++)
        {
          VivaChatMessage *message = g_ptr_array_index (self->messages, i);

          if (i < keep_from)
            {
              g_autoptr(VivaChatMessage) compacted = _viva_examiner_compact_message (message);
              viva_chat_request_add_message (request, compacted);
            }
          else
            viva_chat_request_add_message (request, message);
        }

      for (guint i = 0; with_tools && i < self->tools->len; i++)
        viva_chat_request_add_tool (request, viva_exam_tool_get_definition (g_ptr_array_index (self->tools, i)));

      estimate = viva_chat_request_estimate_prompt_tokens (request);
      if (estimate <= budget || self->limits.context_length == 0)
        break;

      if (pass == 0)
        {
          JsonObject *data = json_object_new ();

          json_object_set_string_member (data, "action", "compact");
          json_object_set_int_member (data, "estimated_tokens", estimate);
          json_object_set_int_member (data, "budget", budget);
          _viva_examiner_trace (self, "guardrail", data);
        }
    }

  return g_steal_pointer (&request);
}

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

  _viva_examiner_guard_delta (self, delta);
}

void
_viva_examiner_add_usage (JsonObject          *data,
                          const VivaChatUsage *usage)
{
  g_autoptr(JsonObject) object = NULL;

  if (usage == NULL)
    return;

  object = json_object_new ();
  json_object_set_int_member (object, "prompt_tokens", usage->prompt_tokens);
  json_object_set_int_member (object, "completion_tokens", usage->completion_tokens);
  json_object_set_int_member (object, "total_tokens", usage->total_tokens);
  json_object_set_object_member (data, "usage", g_steal_pointer (&object));
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
  GPtrArray *calls;

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

  self->iterations++;

  /* What the student would see of the reply passes the leak guard first. */
  traced = viva_chat_reply_to_json (reply);
  message = _viva_examiner_guard_reply (self, reply, json_node_get_object (traced));

  if (self->session != NULL)
    {
      data = json_object_new ();
      json_object_set_int_member (data, "iteration", self->iterations);
      json_object_set_member (data, "reply", g_steal_pointer (&traced));
      json_object_set_int_member (data, "total_ms", (now - self->request_started) / 1000);
      if (self->first_byte != 0)
        json_object_set_int_member (data, "first_byte_ms", (self->first_byte - self->request_started) / 1000);
      _viva_examiner_add_usage (data, viva_chat_reply_get_usage (reply));
      _viva_examiner_trace (self, "reply", data);
    }

  g_ptr_array_add (self->messages, viva_chat_message_ref (message));
  _viva_examiner_emit (self, REPLY, message);

  calls = viva_chat_message_get_tool_calls (message);
  if (calls == NULL || calls->len == 0)
    {
      self->replies_without_tool++;

      if (self->replies_without_tool >= self->limits.max_replies_without_tool)
        return _viva_examiner_end_incomplete (self, _("The examiner stopped using its tools, so the defense "
                                                      "ended without a verdict. A verdict written as text "
                                                      "does not count; try again or use the offline examiner."));

      data = json_object_new ();
      json_object_set_string_member (data, "action", "reminder");
      _viva_examiner_trace (self, "guardrail", data);
      g_ptr_array_add (self->messages,
                       viva_chat_message_new_user ("Reminder from the exam system: you must act "
                                                   "through tools, one per reply. Continue the "
                                                   "required steps, and end with finishDefense; a "
                                                   "verdict written as text is not recorded."));
      return _viva_examiner_next_turn (self);
    }

  self->replies_without_tool = 0;
  _viva_examiner_start_call (self, g_ptr_array_index (calls, 0), NULL);
}

const char *
_viva_examiner_get_system_prompt (VivaExaminer *self)
{
  if (self->system_prompt == NULL)
    {
      self->system_prompt = _viva_exam_prompt_build (self->prompt_template, self->problem,
                                                     self->language, FALSE);
      self->system_prompt_traced = _viva_exam_prompt_build (self->prompt_template, self->problem,
                                                            self->language, TRUE);
    }

  return self->system_prompt;
}

/* The whole request goes to the trace (never the API key, which only the
 * HTTP layer sees), its system prompt without the hidden parts; built only
 * when there is a trace to write. */
void
_viva_examiner_trace_request (VivaExaminer *self,
                              const char   *event,
                              guint         iteration)
{
  g_autoptr(JsonNode) request = NULL;
  JsonObject *data;
  JsonArray *messages;

  if (self->session == NULL)
    return;

  request = viva_chat_request_to_json (self->request);
  messages = json_object_get_array_member (json_node_get_object (request), "messages");
  for (guint i = 0; messages != NULL && i < json_array_get_length (messages); i++)
    {
      JsonObject *message = json_array_get_object_element (messages, i);

      if (g_strcmp0 (json_object_get_string_member_with_default (message, "role", NULL), "system") == 0)
        json_object_set_string_member (message, "content", self->system_prompt_traced);
    }

  data = json_object_new ();
  json_object_set_int_member (data, "iteration", iteration);
  json_object_set_int_member (data, "estimated_tokens",
                              viva_chat_request_estimate_prompt_tokens (self->request));
  json_object_set_member (data, "request", g_steal_pointer (&request));
  _viva_examiner_trace (self, event, data);
}

/* The code enters the conversation as a message of its own, when the
 * defense starts and after each edit, never by rewriting the head. */
static void
add_code_message (VivaExaminer *self,
                  const char   *code)
{
  g_autofree char *text = NULL;

  if (g_strcmp0 (self->code_hash, self->sent_code_hash) == 0)
    return;

  text = _viva_exam_code_message (code, self->sent_code_hash != NULL);
  g_ptr_array_add (self->messages, viva_chat_message_new_user (text));
  g_free (self->sent_code_hash);
  self->sent_code_hash = g_strdup (self->code_hash);
}

void
_viva_examiner_next_turn (VivaExaminer *self)
{
  g_autofree char *code = NULL;

  if (g_cancellable_is_cancelled (_viva_examiner_cancellable (self)))
    return _viva_examiner_cancelled (self);

  if (self->iterations >= self->limits.max_iterations)
    {
      g_autofree char *reason =
        g_strdup_printf (_("The examiner used all %u of its turns without reaching a verdict."),
                         self->limits.max_iterations);
      return _viva_examiner_end_incomplete (self, reason);
    }

  /* A fresh snapshot every turn: an edit made mid-defense is what the
   * examiner sees next. */
  code = _viva_examiner_snapshot_code (self);
  add_code_message (self, code);

  g_clear_pointer (&self->request, viva_chat_request_unref);
  self->request = _viva_examiner_build_request (self, _viva_examiner_get_system_prompt (self), TRUE);
  self->phase = VIVA_EXAM_PHASE_MODEL;
  _viva_examiner_set_state (self, VIVA_EXAMINER_STATE_THINKING);
  _viva_examiner_checkpoint (self);
  _viva_examiner_trace_request (self, "request", self->iterations + 1);

  self->request_started = g_get_monotonic_time ();
  self->first_byte = 0;
  viva_chat_model_stream_async (self->model, self->request, _viva_examiner_cancellable (self),
                                reply_cb, g_object_ref (self->task));
}

/* A defense stopped while the engine graded: finishDefense ran, its
 * verdict not yet recorded. Returns: (nullable): its arguments */
static JsonObject *
last_finish (VivaExaminer *self)
{
  VivaExamStep *step;
  const VivaExamToolFacts *facts;
  g_autoptr(JsonNode) node = NULL;

  if (self->steps->len == 0 || self->verdict != NULL)
    return NULL;
  step = g_ptr_array_index (self->steps, self->steps->len - 1);
  facts = _viva_examiner_tool_facts (self, step->name);
  if (!step->ok || facts == NULL || facts->kind != VIVA_EXAM_TOOL_KIND_FINISHES ||
      !(node = json_from_string (step->arguments, NULL)) || !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;

  g_clear_pointer (&self->finish_arguments, json_object_unref);
  self->finish_arguments = json_object_ref (json_node_get_object (node));
  return self->finish_arguments;
}

static void
prime_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  VivaExaminer *self = g_task_get_source_object (task);
  g_autoptr(VivaRunResult) run = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *data;
  JsonObject *finished;

  run = viva_runner_run_finish (VIVA_RUNNER (object), result, &error);

  if (task != self->task)
    return;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return _viva_examiner_cancelled (self);

  data = json_object_new ();
  json_object_set_string_member (data, "status", run ? viva_run_status_to_string (viva_run_result_get_status (run))
                                                     : error->message);
  _viva_examiner_trace (self, "prime", data);

  if (self->phase == VIVA_EXAM_PHASE_TOOL && self->pending_call != NULL)
    {
      g_autoptr(VivaToolCall) call = viva_tool_call_copy (self->pending_call);
      g_autofree char *step = g_strdup (self->pending_step);

      _viva_examiner_start_call (self, call, step);
    }
  else if ((finished = last_finish (self)) != NULL)
    _viva_examiner_finish_defense (self, finished);
  else
    _viva_examiner_next_turn (self);
}

static void
started (VivaExaminer *self)
{
  g_autofree char *code = viva_code_source_dup_code (self->code_source);

  /* The worker is primed with the student's code, as the editor's worker
   * is after the run that enabled Submit: runPython sees its globals. A
   * resumed defense gets the same, so a redone step sees what it saw. */
  _viva_examiner_set_state (self, VIVA_EXAMINER_STATE_RUNNING_TOOL);
  viva_runner_run_async (self->runner, code, self->limits.run_timeout_ms,
                         _viva_examiner_cancellable (self), prime_cb, g_object_ref (self->task));
}

static void
start_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  VivaExaminer *self = g_task_get_source_object (task);
  g_autoptr(GError) error = NULL;

  if (!viva_runner_start_finish (VIVA_RUNNER (object), result, &error))
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

  if (object == (GObject *)self->runner && self->reference_runner != NULL)
    {
      viva_runner_start_async (self->reference_runner, _viva_examiner_cancellable (self),
                               start_cb, g_object_ref (self->task));
      return;
    }

  started (self);
}

static void
prepare (VivaExaminer *self)
{
  const char *reference = viva_problem_get_reference (self->problem);

  if (self->runner == NULL)
    {
      self->runner = viva_runner_new ();
      self->owns_runner = TRUE;
    }
  if (self->reference_runner == NULL && reference != NULL && *reference != '\0')
    self->reference_runner = viva_runner_new ();

  g_clear_object (&self->context);
  self->context = viva_exam_context_new (self->problem, self->code_source, self->runner,
                                         self->reference_runner, self->limits.run_timeout_ms);

  _viva_examiner_set_error_message (self, NULL);
  _viva_examiner_set_state (self, VIVA_EXAMINER_STATE_THINKING);

  if (self->owns_runner)
    viva_runner_start_async (self->runner, _viva_examiner_cancellable (self), start_cb, g_object_ref (self->task));
  else if (self->reference_runner != NULL)
    viva_runner_start_async (self->reference_runner, _viva_examiner_cancellable (self), start_cb, g_object_ref (self->task));
  else
    started (self);
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

  if (viva_exam_session_get_checkpoint (session) == NULL)
    return g_task_return_new_error (task, VIVA_EXAM_ERROR, VIVA_EXAM_ERROR_NOT_FOUND,
                                    _("Session %s has no checkpoint to continue from."),
                                    viva_exam_session_get_id (session));

  if (!_viva_examiner_from_checkpoint (self, viva_exam_session_get_checkpoint (session), &error))
    return g_task_return_error (task, g_steal_pointer (&error));

  viva_examiner_set_session (self, session);
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

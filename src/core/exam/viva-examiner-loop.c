/* viva-examiner-loop.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-examiner-private.h"

/* The task loop: build the request → stream a reply → take its first tool
 * call → check it against the protocol and the guardrails → invoke the
 * tool → record the step → again. Everything runs on the main loop; each
 * callback gets a reference to the run's GTask and drops the result when
 * that task is no longer the current one. Text sent to the model (tool
 * errors, refusals, reminders) stays in English, like the prompt. */

/* The protocol: what must have run before finishDefense, in order. */
static const struct
{
  const char *tool;
} required_steps[] = {
  { "readStudentCode" },
  { "runPython" },
  { "injectTestCase" },
  { "askStudent" },
};

static void next_turn  (VivaExaminer *self);
static void after_call (VivaExaminer *self);
static void start_call (VivaExaminer       *self,
                        const VivaToolCall *call,
                        const char         *redo_step);

static void
trace (VivaExaminer *self,
       const char   *event,
       JsonObject   *data)
{
  g_autoptr(JsonObject) owned = data;

  if (self->session != NULL)
    viva_exam_session_trace (self->session, event, owned);
}

static void
checkpoint (VivaExaminer *self)
{
  g_autoptr(JsonNode) node = NULL;

  if (self->session == NULL)
    return;

  node = _viva_examiner_to_checkpoint (self);
  viva_exam_session_save_checkpoint (self->session, node);
}

static GCancellable *
cancellable (VivaExaminer *self)
{
  return self->task ? g_task_get_cancellable (self->task) : NULL;
}

static void
complete (VivaExaminer    *self,
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

static char *
snapshot_code (VivaExaminer *self)
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
      trace (self, self->code_hash != NULL ? "code_edit" : "code", data);

      g_free (self->code_hash);
      self->code_hash = g_steal_pointer (&hash);
      g_free (self->code_snapshot);
      self->code_snapshot = g_strdup (code);
    }

  return g_steal_pointer (&code);
}

static GPtrArray *
collect_probes (VivaExaminer *self)
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

static GPtrArray *
collect_step_names (VivaExaminer *self)
{
  GPtrArray *names = g_ptr_array_new ();

  for (guint i = 0; i < self->steps->len; i++)
    g_ptr_array_add (names, ((VivaExamStep *)g_ptr_array_index (self->steps, i))->name);

  return names;
}

static void
end_with (VivaExaminer    *self,
          VivaExamVerdict *verdict)
{
  g_autoptr(JsonNode) node = viva_exam_verdict_to_json (verdict);
  JsonObject *data = json_object_new ();

  self->phase = VIVA_EXAM_PHASE_DONE;
  g_clear_pointer (&self->pending_call, viva_tool_call_free);
  g_clear_pointer (&self->pending_step, g_free);
  _viva_examiner_set_pending_question (self, NULL);
  _viva_examiner_set_verdict (self, verdict);
  _viva_examiner_set_state (self, viva_exam_verdict_get_status (verdict) == VIVA_EXAM_STATUS_FAILED
                                  ? VIVA_EXAMINER_STATE_FAILED : VIVA_EXAMINER_STATE_FINISHED);

  json_object_set_member (data, "verdict", json_node_copy (node));
  trace (self, "verdict", data);
  checkpoint (self);

  _viva_examiner_emit (self, VERDICT, verdict);
}

static void
end_incomplete (VivaExaminer *self,
                const char   *reason)
{
  g_autoptr(GPtrArray) names = collect_step_names (self);
  g_autoptr(GPtrArray) probes = collect_probes (self);
  g_autoptr(VivaExamVerdict) verdict = NULL;
  JsonObject *data = json_object_new ();

  json_object_set_string_member (data, "action", "incomplete");
  json_object_set_string_member (data, "reason", reason);
  trace (self, "guardrail", data);

  verdict = _viva_exam_verdict_new (VIVA_EXAM_STATUS_INCOMPLETE, FALSE, -1, NULL, reason,
                                    names, NULL, probes);
  end_with (self, verdict);
  complete (self, verdict, NULL);
}

static void
fail (VivaExaminer *self,
      GError       *error)
{
  g_autoptr(GPtrArray) names = collect_step_names (self);
  g_autoptr(GPtrArray) probes = collect_probes (self);
  g_autoptr(VivaExamVerdict) verdict = NULL;
  JsonObject *data = json_object_new ();

  json_object_set_string_member (data, "domain", g_quark_to_string (error->domain));
  json_object_set_int_member (data, "code", error->code);
  json_object_set_string_member (data, "message", error->message);
  trace (self, "error", data);

  _viva_examiner_set_error_message (self, error->message);
  verdict = _viva_exam_verdict_new (VIVA_EXAM_STATUS_FAILED, FALSE, -1, NULL, error->message,
                                    names, NULL, probes);
  /* The phase stays as it was, so a resume redoes what failed. */
  _viva_examiner_set_verdict (self, verdict);
  _viva_examiner_set_state (self, VIVA_EXAMINER_STATE_FAILED);
  checkpoint (self);
  _viva_examiner_emit (self, VERDICT, verdict);
  complete (self, NULL, error);
}

static void
cancelled (VivaExaminer *self)
{
  trace (self, "cancelled", NULL);
  _viva_examiner_set_state (self, VIVA_EXAMINER_STATE_CANCELLED);
  /* What was in flight stays in the checkpoint: a cancelled defense can be
   * resumed, for example after the window was closed. */
  checkpoint (self);
  complete (self, NULL, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                              _("The defense was cancelled.")));
}

static VivaExamTool *
find_tool (VivaExaminer *self,
           const char   *name)
{
  for (guint i = 0; i < self->tools->len; i++)
    {
      VivaExamTool *tool = g_ptr_array_index (self->tools, i);

      if (g_strcmp0 (viva_exam_tool_get_name (tool), name) == 0)
        return tool;
    }

  return NULL;
}

/* Long strings in a tool's data are cut in the middle, with a note of how
 * much was cut, so one flood of output cannot fill the model's context. */
static void
cap_output (JsonObject *object,
            guint       limit)
{
  JsonObjectIter iter;
  const char *name;
  JsonNode *value;
  g_autoptr(GPtrArray) cut = g_ptr_array_new_with_free_func (g_free);

  json_object_iter_init (&iter, object);
  while (json_object_iter_next (&iter, &name, &value))
    if (JSON_NODE_HOLDS_VALUE (value) && json_node_get_value_type (value) == G_TYPE_STRING &&
        strlen (json_node_get_string (value)) > limit)
      g_ptr_array_add (cut, g_strdup (name));

  for (guint i = 0; i < cut->len; i++)
    {
      const char *member = g_ptr_array_index (cut, i);
      const char *text = json_object_get_string_member (object, member);
      gsize len = strlen (text);
      const char *head_end = g_utf8_find_prev_char (text, text + limit * 2 / 3 + 1);
      const char *tail = g_utf8_find_next_char (text + len - limit / 3 - 1, NULL);
      g_autofree char *capped = NULL;

      if (head_end == NULL)
        head_end = text;
      if (tail == NULL)
        tail = text + len;
      capped = g_strdup_printf ("%.*s\n[… %" G_GSIZE_FORMAT " characters cut …]\n%s",
                                (int)(head_end - text), text,
                                (gsize)(tail - head_end), tail);
      json_object_set_string_member (object, member, capped);
    }
}

static void
append_tool_message (VivaExaminer       *self,
                     const VivaToolCall *call,
                     JsonObject         *content)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autofree char *text = NULL;

  json_node_set_object (node, content);
  text = json_to_string (node, FALSE);
  g_ptr_array_add (self->messages,
                   viva_chat_message_new_tool (viva_tool_call_get_id (call),
                                               viva_tool_call_get_name (call),
                                               text));
}

static JsonObject *
error_content (const char *step,
               const char *key,
               const char *message)
{
  JsonObject *object = json_object_new ();

  if (step != NULL)
    json_object_set_string_member (object, "step", step);
  json_object_set_string_member (object, key, message);

  return object;
}

/* Older turns shrink when the prompt outgrows about 80% of the context:
 * the system prompt (with the current code) and the last steps stay whole. */
static VivaChatMessage *
compact_message (VivaChatMessage *message)
{
  const char *content = viva_chat_message_get_content (message);
  gsize len = content ? strlen (content) : 0;

  if (viva_chat_message_get_role (message) == VIVA_CHAT_ROLE_TOOL && len > 200)
    {
      g_autoptr(JsonNode) node = json_from_string (content, NULL);
      g_autoptr(JsonObject) object = json_object_new ();
      g_autoptr(JsonNode) out = json_node_new (JSON_NODE_OBJECT);
      g_autofree char *text = NULL;
      g_autofree char *note = g_strdup_printf ("older result compacted: %" G_GSIZE_FORMAT
                                               " characters omitted; run the step again if needed", len);

      if (node && JSON_NODE_HOLDS_OBJECT (node) &&
          json_object_has_member (json_node_get_object (node), "step"))
        json_object_set_member (object, "step",
                                json_object_dup_member (json_node_get_object (node), "step"));
      json_object_set_string_member (object, "compacted", note);
      json_node_set_object (out, object);
      text = json_to_string (out, FALSE);

      return viva_chat_message_new_tool (viva_chat_message_get_tool_call_id (message),
                                         viva_chat_message_get_name (message),
                                         text);
    }

  if (viva_chat_message_get_role (message) == VIVA_CHAT_ROLE_ASSISTANT && len > 400)
    {
      g_autofree char *shortened = g_strdup_printf ("%.*s […]",
                                                    (int)(g_utf8_find_prev_char (content, content + 300) - content),
                                                    content);

      return viva_chat_message_new_assistant (shortened, viva_chat_message_get_tool_calls (message));
    }

  return viva_chat_message_ref (message);
}

static VivaChatRequest *
build_request (VivaExaminer *self,
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
              g_autoptr(VivaChatMessage) compacted = compact_message (message);
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
          trace (self, "guardrail", data);
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
    g_free (snapshot_code (self));

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

  _viva_examiner_emit (self, DELTA, delta);
}

static void
add_usage (JsonObject          *data,
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
        return cancelled (self);
      return fail (self, g_steal_pointer (&error));
    }

  self->iterations++;

  if (self->session != NULL)
    {
      data = json_object_new ();
      json_object_set_int_member (data, "iteration", self->iterations);
      json_object_set_member (data, "reply", viva_chat_reply_to_json (reply));
      json_object_set_int_member (data, "total_ms", (now - self->request_started) / 1000);
      if (self->first_byte != 0)
        json_object_set_int_member (data, "first_byte_ms", (self->first_byte - self->request_started) / 1000);
      add_usage (data, viva_chat_reply_get_usage (reply));
      trace (self, "reply", data);
    }

  message = viva_chat_reply_to_message (reply);
  g_ptr_array_add (self->messages, viva_chat_message_ref (message));
  _viva_examiner_emit (self, REPLY, message);

  calls = viva_chat_reply_get_tool_calls (reply);
  if (calls == NULL || calls->len == 0)
    {
      self->replies_without_tool++;

      if (self->replies_without_tool >= self->limits.max_replies_without_tool)
        return end_incomplete (self, _("The examiner stopped using its tools, so the defense "
                                       "ended without a verdict. A verdict written as text "
                                       "does not count; try again or use the offline examiner."));

      data = json_object_new ();
      json_object_set_string_member (data, "action", "reminder");
      trace (self, "guardrail", data);
      g_ptr_array_add (self->messages,
                       viva_chat_message_new_user ("Reminder from the exam system: you must act "
                                                   "through tools, one per reply. Continue the "
                                                   "required steps, and end with finishDefense; a "
                                                   "verdict written as text is not recorded."));
      return next_turn (self);
    }

  self->replies_without_tool = 0;
  start_call (self, g_ptr_array_index (calls, 0), NULL);
}

static void
next_turn (VivaExaminer *self)
{
  g_autofree char *code = NULL;
  g_autofree char *system = NULL;
  JsonObject *data;

  if (g_cancellable_is_cancelled (cancellable (self)))
    return cancelled (self);

  if (self->iterations >= self->limits.max_iterations)
    {
      g_autofree char *reason =
        g_strdup_printf (_("The examiner used all %u of its turns without reaching a verdict."),
                         self->limits.max_iterations);
      return end_incomplete (self, reason);
    }

  /* A fresh snapshot every turn: an edit made mid-defense is what the
   * examiner sees next. */
  code = snapshot_code (self);
  system = _viva_exam_prompt_build (self->prompt_template, self->problem, code, self->language);

  g_clear_pointer (&self->request, viva_chat_request_unref);
  self->request = build_request (self, system, TRUE);
  self->phase = VIVA_EXAM_PHASE_MODEL;
  _viva_examiner_set_state (self, VIVA_EXAMINER_STATE_THINKING);
  checkpoint (self);

  /* The whole request goes to the trace (never the API key, which only
   * the HTTP layer sees); built only when there is a trace to write. */
  if (self->session != NULL)
    {
      data = json_object_new ();
      json_object_set_int_member (data, "iteration", self->iterations + 1);
      json_object_set_int_member (data, "estimated_tokens",
                                  viva_chat_request_estimate_prompt_tokens (self->request));
      json_object_set_member (data, "request", viva_chat_request_to_json (self->request));
      trace (self, "request", data);
    }

  self->request_started = g_get_monotonic_time ();
  self->first_byte = 0;
  viva_chat_model_stream_async (self->model, self->request, cancellable (self),
                                reply_cb, g_object_ref (self->task));
}

static char *
call_signature (const char *name,
                JsonObject *arguments)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autofree char *text = NULL;

  json_node_set_object (node, arguments);
  text = json_to_string (node, FALSE);

  return g_strconcat (name, "\n", text, NULL);
}

static void
refuse (VivaExaminer       *self,
        const VivaToolCall *call,
        const char         *reason)
{
  JsonObject *data = json_object_new ();
  g_autoptr(JsonObject) content = json_object_new ();

  json_object_set_string_member (data, "name", viva_tool_call_get_name (call));
  json_object_set_string_member (data, "arguments", viva_tool_call_get_arguments (call));
  json_object_set_string_member (data, "reason", reason);
  trace (self, "refused", data);

  json_object_set_boolean_member (content, "refused", TRUE);
  json_object_set_string_member (content, "reason", reason);
  append_tool_message (self, call, content);

  _viva_examiner_emit (self, REFUSED, viva_tool_call_get_name (call), reason);

  after_call (self);
  next_turn (self);
}

static void
reject_call (VivaExaminer       *self,
             const VivaToolCall *call,
             const char         *message)
{
  g_autoptr(JsonObject) content = error_content (NULL, "error", message);
  JsonObject *data = json_object_new ();

  json_object_set_string_member (data, "name", viva_tool_call_get_name (call));
  json_object_set_string_member (data, "arguments", viva_tool_call_get_arguments (call));
  json_object_set_string_member (data, "error", message);
  trace (self, "tool_error", data);

  append_tool_message (self, call, content);
  after_call (self);
  next_turn (self);
}

/* Returns: (nullable): why finishDefense cannot run yet */
static char *
check_protocol (VivaExaminer *self)
{
  g_autoptr(GString) missing = g_string_new (NULL);

  for (guint r = 0; r < G_N_ELEMENTS (required_steps); r++)
    {
      gboolean done = FALSE;

      for (guint i = 0; i < self->steps->len && !done; i++)
        {
          VivaExamStep *step = g_ptr_array_index (self->steps, i);

          done = step->ok && g_str_equal (step->name, required_steps[r].tool);
        }

      if (!done)
        g_string_append_printf (missing, "%s%s", missing->len ? ", " : "", required_steps[r].tool);
    }

  if (missing->len == 0)
    return NULL;

  return g_strdup_printf ("finishDefense refused: these required steps have not run yet: %s. "
                          "Run them first, then call finishDefense again.", missing->str);
}

static char *
check_evidence (VivaExaminer *self,
                JsonObject   *arguments)
{
  JsonArray *evidence = json_object_get_array_member (arguments, "evidence");
  g_autoptr(GString) probes = g_string_new (NULL);
  gboolean cites_probe = FALSE;

  for (guint i = 0; i < self->steps->len; i++)
    {
      VivaExamStep *step = g_ptr_array_index (self->steps, i);

      if (step->probe != NULL)
        g_string_append_printf (probes, "%s%s", probes->len ? ", " : "", step->id);
    }

  for (guint e = 0; e < json_array_get_length (evidence); e++)
    {
      const char *id = json_array_get_string_element (evidence, e);
      VivaExamStep *found = NULL;

      for (guint i = 0; i < self->steps->len && !found; i++)
        if (g_str_equal (((VivaExamStep *)g_ptr_array_index (self->steps, i))->id, id))
          found = g_ptr_array_index (self->steps, i);

      if (found == NULL)
        return g_strdup_printf ("finishDefense refused: evidence cites %s, which is not a step of "
                                "this defense. Cite the step ids shown in the tool results.", id);
      cites_probe |= found->probe != NULL;
    }

  if (!cites_probe)
    return g_strdup_printf ("finishDefense refused: the evidence must include at least one "
                            "injectTestCase step (%s).", probes->str);

  return NULL;
}

static void
tool_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data);

static void
start_call (VivaExaminer       *self,
            const VivaToolCall *call,
            const char         *redo_step)
{
  VivaExamTool *tool = find_tool (self, viva_tool_call_get_name (call));
  g_autoptr(JsonObject) arguments = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *signature = NULL;
  JsonObject *data;

  if (tool == NULL)
    {
      g_autoptr(GString) names = g_string_new (NULL);
      g_autofree char *message = NULL;

      for (guint i = 0; i < self->tools->len; i++)
        g_string_append_printf (names, "%s%s", i ? ", " : "",
                                viva_exam_tool_get_name (g_ptr_array_index (self->tools, i)));
      message = g_strdup_printf ("There is no tool named “%s”. The tools are: %s.",
                                 viva_tool_call_get_name (call), names->str);
      return reject_call (self, call, message);
    }

  if (!(arguments = viva_exam_tool_parse_arguments (tool, viva_tool_call_get_arguments (call), &error)))
    return reject_call (self, call, error->message);

  signature = call_signature (viva_exam_tool_get_name (tool), arguments);

  if (redo_step == NULL)
    {
      guint repeats = 0;
      g_autofree char *reason = NULL;

      for (guint i = 0; i < self->recent_calls->len; i++)
        repeats += g_str_equal (g_ptr_array_index (self->recent_calls, i), signature);

      if (repeats + 1 >= self->limits.repeat_limit)
        {
          g_autofree char *message =
            g_strdup_printf ("Not run: %s with these same arguments already ran %u times in the last "
                             "%u steps. Try something different.",
                             viva_exam_tool_get_name (tool), repeats, self->limits.repeat_window);
          return refuse (self, call, message);
        }

      if (viva_exam_tool_get_kind (tool) == VIVA_EXAM_TOOL_KIND_FINISHES &&
          ((reason = check_protocol (self)) || (reason = check_evidence (self, arguments))))
        return refuse (self, call, reason);
    }

  g_clear_pointer (&self->pending_call, viva_tool_call_free);
  self->pending_call = viva_tool_call_copy (call);
  g_free (self->pending_step);
  self->pending_step = redo_step ? g_strdup (redo_step) : g_strdup_printf ("S%u", ++self->step_counter);
  self->phase = VIVA_EXAM_PHASE_TOOL;

  _viva_examiner_emit (self, TOOL_STARTED, self->pending_step,
                       viva_exam_tool_get_name (tool), viva_tool_call_get_arguments (call));

  switch (viva_exam_tool_get_kind (tool))
    {
    case VIVA_EXAM_TOOL_KIND_WAITS:
      _viva_examiner_set_pending_question (self, json_object_get_string_member (arguments, "question"));
      _viva_examiner_set_state (self, VIVA_EXAMINER_STATE_WAITING_FOR_STUDENT);
      break;

    case VIVA_EXAM_TOOL_KIND_SPEAKS:
      _viva_examiner_set_state (self, VIVA_EXAMINER_STATE_RUNNING_TOOL);
      _viva_examiner_emit (self, MESSAGE, json_object_get_string_member (arguments, "text"));
      break;

    case VIVA_EXAM_TOOL_KIND_ORDINARY:
    case VIVA_EXAM_TOOL_KIND_FINISHES:
    default:
      _viva_examiner_set_state (self, VIVA_EXAMINER_STATE_RUNNING_TOOL);
      break;
    }

  data = json_object_new ();
  json_object_set_string_member (data, "step", self->pending_step);
  json_object_set_string_member (data, "name", viva_exam_tool_get_name (tool));
  json_object_set_string_member (data, "arguments", viva_tool_call_get_arguments (call));
  if (redo_step != NULL)
    json_object_set_boolean_member (data, "redone", TRUE);
  trace (self, "tool_call", data);
  checkpoint (self);

  /* The code the tool is about to see, traced if it changed. */
  g_free (snapshot_code (self));

  self->tool_started = g_get_monotonic_time ();
  viva_exam_tool_invoke_async (tool, self->context, arguments, cancellable (self),
                               tool_cb, g_object_ref (self->task));

  /* After the invocation, so the question already waits and a handler may
   * answer it at once. */
  if (viva_exam_tool_get_kind (tool) == VIVA_EXAM_TOOL_KIND_WAITS && self->pending_question != NULL)
    {
      g_autofree char *step = g_strdup (self->pending_step);
      g_autofree char *question = g_strdup (self->pending_question);

      _viva_examiner_emit (self, QUESTION, step, question);
    }
}

static VivaExamProbe *
probe_from_result (const char *step_id,
                   JsonObject *arguments,
                   JsonObject *data)
{
  VivaExamProbe *probe = g_new0 (VivaExamProbe, 1);
  JsonObject *error = json_object_has_member (data, "error") &&
                      JSON_NODE_HOLDS_OBJECT (json_object_get_member (data, "error"))
                    ? json_object_get_object_member (data, "error") : NULL;

  probe->step_id = g_strdup (step_id);
  probe->code = g_strdup (json_object_get_string_member_with_default (arguments, "code", ""));
  probe->passed = json_object_get_boolean_member_with_default (data, "passed", FALSE);
  probe->valid = json_object_get_boolean_member_with_default (data, "valid", TRUE);
  probe->status = g_strdup (json_object_get_string_member_with_default (data, "status", "error"));
  if (error != NULL)
    {
      probe->error_type = g_strdup (json_object_get_string_member_with_default (error, "type", NULL));
      probe->error_message = g_strdup (json_object_get_string_member_with_default (error, "message", NULL));
    }

  return probe;
}

static void
finish_defense (VivaExaminer *self,
                JsonObject   *data)
{
  g_autoptr(GPtrArray) names = collect_step_names (self);
  g_autoptr(GPtrArray) probes = collect_probes (self);
  g_autoptr(GPtrArray) evidence = g_ptr_array_new ();
  JsonArray *cited = json_object_get_array_member (data, "evidence");
  g_autoptr(VivaExamVerdict) verdict = NULL;

  for (guint i = 0; i < json_array_get_length (cited); i++)
    g_ptr_array_add (evidence, (gpointer)json_array_get_string_element (cited, i));

  verdict = _viva_exam_verdict_new (VIVA_EXAM_STATUS_FINISHED,
                                    g_strcmp0 (json_object_get_string_member (data, "verdict"), "pass") == 0,
                                    (int)json_object_get_int_member (data, "score"),
                                    json_object_get_string_member (data, "comment"),
                                    NULL, names, evidence, probes);
  end_with (self, verdict);
  complete (self, verdict, NULL);
}

static void
tool_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  VivaExaminer *self = g_task_get_source_object (task);
  VivaExamTool *tool = VIVA_EXAM_TOOL (object);
  g_autoptr(JsonObject) data = NULL;
  g_autoptr(JsonObject) content = NULL;
  g_autoptr(JsonObject) arguments = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(VivaToolCall) call = NULL;
  VivaExamToolKind kind = viva_exam_tool_get_kind (tool);
  VivaExamStep *step;
  JsonObject *trace_data;

  data = viva_exam_tool_invoke_finish (tool, result, &error);

  if (task != self->task)
    return;

  if (data == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return cancelled (self);

  call = g_steal_pointer (&self->pending_call);
  arguments = viva_exam_tool_parse_arguments (tool, viva_tool_call_get_arguments (call), NULL);

  step = g_new0 (VivaExamStep, 1);
  step->id = g_steal_pointer (&self->pending_step);
  step->name = g_strdup (viva_exam_tool_get_name (tool));
  step->arguments = g_strdup (viva_tool_call_get_arguments (call));
  step->ok = data != NULL;
  step->duration_ms = (g_get_monotonic_time () - self->tool_started) / 1000.0;

  trace_data = json_object_new ();
  json_object_set_string_member (trace_data, "step", step->id);
  json_object_set_string_member (trace_data, "name", step->name);
  json_object_set_boolean_member (trace_data, "ok", step->ok);
  json_object_set_double_member (trace_data, "duration_ms", step->duration_ms);

  if (data != NULL)
    {
      JsonObjectIter iter;
      const char *member;
      JsonNode *value;

      content = json_object_new ();
      json_object_set_string_member (content, "step", step->id);
      json_object_iter_init (&iter, data);
      while (json_object_iter_next (&iter, &member, &value))
        json_object_set_member (content, member, json_node_copy (value));
      json_object_set_object_member (trace_data, "result", json_object_ref (data));
      cap_output (content, self->limits.tool_output_limit);

      if (g_str_equal (step->name, "injectTestCase"))
        step->probe = probe_from_result (step->id, arguments, data);
    }
  else
    {
      content = error_content (step->id, "error", error->message);
      json_object_set_string_member (trace_data, "error", error->message);
    }

  step->result = json_object_ref (content);
  g_ptr_array_add (self->steps, step);
  trace (self, "tool_result", trace_data);

  if (!g_str_equal (step->name, "askStudent") || step->ok)
    {
      g_autofree char *signature = call_signature (step->name, arguments);

      g_ptr_array_add (self->recent_calls, g_steal_pointer (&signature));
      while (self->recent_calls->len > self->limits.repeat_window)
        g_ptr_array_remove_index (self->recent_calls, 0);
    }

  append_tool_message (self, call, content);

  if (kind == VIVA_EXAM_TOOL_KIND_WAITS)
    {
      _viva_examiner_set_pending_question (self, NULL);
      if (step->ok)
        {
          JsonObject *answer = json_object_new ();

          self->n_answers++;
          json_object_set_string_member (answer, "step", step->id);
          json_object_set_string_member (answer, "answer", json_object_get_string_member (data, "answer"));
          trace (self, "answer", answer);
          _viva_examiner_emit (self, ANSWER, json_object_get_string_member (data, "answer"));
        }
    }

  _viva_examiner_notify_n_steps (self);
  node = json_node_new (JSON_NODE_OBJECT);
  json_node_set_object (node, content);
  _viva_examiner_emit (self, TOOL_FINISHED, step->id, step->name, node, step->ok);

  after_call (self);

  if (kind == VIVA_EXAM_TOOL_KIND_FINISHES && data != NULL)
    return finish_defense (self, data);

  next_turn (self);
}

/* Single-step: the calls after the first in a reply are answered, each with
 * a tool message saying it was not run, so every call has its answer and
 * the conversation stays valid for strict servers. */
static void
after_call (VivaExaminer *self)
{
  VivaChatMessage *assistant = NULL;
  GPtrArray *calls;
  guint index = self->messages->len;
  gboolean extra = FALSE;

  while (index > 0 && assistant == NULL)
    {
      VivaChatMessage *message = g_ptr_array_index (self->messages, --index);

      if (viva_chat_message_get_role (message) == VIVA_CHAT_ROLE_ASSISTANT)
        assistant = message;
    }

  if (assistant == NULL || !(calls = viva_chat_message_get_tool_calls (assistant)))
    return;

  for (guint i = 1; i < calls->len; i++)
    {
      const VivaToolCall *call = g_ptr_array_index (calls, i);
      g_autoptr(JsonObject) content =
        error_content (NULL, "error", "Not run: only the first tool call of a reply is run. "
                                      "Call one tool per reply; repeat this call in a reply of its "
                                      "own if you still need it.");
      gboolean answered = FALSE;

      for (guint j = index + 1; j < self->messages->len && !answered; j++)
        answered = g_strcmp0 (viva_chat_message_get_tool_call_id (g_ptr_array_index (self->messages, j)),
                              viva_tool_call_get_id (call)) == 0;

      if (!answered)
        {
          append_tool_message (self, call, content);
          extra = TRUE;
        }
    }

  if (extra)
    {
      JsonObject *data = json_object_new ();

      json_object_set_string_member (data, "action", "single-step");
      json_object_set_int_member (data, "calls", calls->len);
      trace (self, "guardrail", data);
    }
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

  run = viva_runner_run_finish (VIVA_RUNNER (object), result, &error);

  if (task != self->task)
    return;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return cancelled (self);

  data = json_object_new ();
  json_object_set_string_member (data, "status", run ? viva_run_status_to_string (viva_run_result_get_status (run))
                                                     : error->message);
  trace (self, "prime", data);

  if (self->phase == VIVA_EXAM_PHASE_TOOL && self->pending_call != NULL)
    {
      g_autoptr(VivaToolCall) call = viva_tool_call_copy (self->pending_call);
      g_autofree char *step = g_strdup (self->pending_step);

      start_call (self, call, step);
    }
  else
    next_turn (self);
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
                         cancellable (self), prime_cb, g_object_ref (self->task));
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
        return cancelled (self);
      g_prefix_error (&error, _("The Python worker for the defense could not start: "));
      return fail (self, g_steal_pointer (&error));
    }

  if (task != self->task)
    return;

  if (object == (GObject *)self->runner && self->reference_runner != NULL)
    {
      viva_runner_start_async (self->reference_runner, cancellable (self),
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
    viva_runner_start_async (self->runner, cancellable (self), start_cb, g_object_ref (self->task));
  else if (self->reference_runner != NULL)
    viva_runner_start_async (self->reference_runner, cancellable (self), start_cb, g_object_ref (self->task));
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
  trace (self, "start", start_data (self));
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
  trace (self, "resume", data);

  if (self->phase == VIVA_EXAM_PHASE_DONE && self->verdict != NULL)
    {
      g_autoptr(VivaExamVerdict) verdict = g_object_ref (self->verdict);

      _viva_examiner_set_state (self, VIVA_EXAMINER_STATE_FINISHED);
      _viva_examiner_emit (self, VERDICT, verdict);
      return complete (self, verdict, NULL);
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

static void
ask_reply_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  VivaExaminer *self = g_task_get_source_object (task);
  g_autoptr(VivaChatReply) reply = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(VivaChatMessage) message = NULL;
  JsonObject *data;

  reply = viva_chat_model_stream_finish (VIVA_CHAT_MODEL (object), result, &error);

  g_clear_pointer (&self->request, viva_chat_request_unref);
  g_clear_object (&self->ask_task);
  _viva_examiner_set_state (self, VIVA_EXAMINER_STATE_FINISHED);

  if (reply == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        _viva_examiner_set_error_message (self, error->message);
      /* The question stays out of the transcript, so it can be asked again. */
      g_ptr_array_remove_index (self->messages, self->messages->len - 1);
      return g_task_return_error (task, g_steal_pointer (&error));
    }

  /* Follow-ups have no tools: a call the model makes anyway is dropped, so
   * the transcript never holds an unanswered call. */
  message = viva_chat_message_new_assistant (viva_chat_reply_get_content (reply), NULL);
  g_ptr_array_add (self->messages, viva_chat_message_ref (message));

  data = json_object_new ();
  json_object_set_member (data, "reply", viva_chat_reply_to_json (reply));
  json_object_set_int_member (data, "total_ms", (g_get_monotonic_time () - self->request_started) / 1000);
  add_usage (data, viva_chat_reply_get_usage (reply));
  trace (self, "followup_reply", data);
  checkpoint (self);

  _viva_examiner_emit (self, REPLY, message);
  g_task_return_pointer (task, g_strdup (viva_chat_reply_get_content (reply) ?: ""), g_free);
}

/**
 * viva_examiner_ask_async:
 * @question: the student's follow-up question about the verdict
 *
 * After the defense ended, asks the examiner a free question (no tools).
 * The reply streams through #VivaExaminer::delta and arrives whole in
 * #VivaExaminer::reply.
 */
void
viva_examiner_ask_async (VivaExaminer        *self,
                         const char          *question,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *code = NULL;
  g_autofree char *prompt = NULL;
  g_autofree char *system = NULL;
  JsonObject *data;

  g_return_if_fail (VIVA_IS_EXAMINER (self));
  g_return_if_fail (question != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_examiner_ask_async);

  if (self->state != VIVA_EXAMINER_STATE_FINISHED || self->ask_task != NULL)
    return g_task_return_new_error (task, VIVA_EXAM_ERROR, VIVA_EXAM_ERROR_BUSY,
                                    _("Follow-up questions can be asked once the defense has ended, one at a time."));

  g_ptr_array_add (self->messages, viva_chat_message_new_user (question));
  data = json_object_new ();
  json_object_set_string_member (data, "question", question);
  trace (self, "followup", data);

  code = snapshot_code (self);
  prompt = _viva_exam_prompt_build (self->prompt_template, self->problem, code, self->language);
  system = g_strconcat (prompt, "\n# The defense is over\n\nYour verdict is recorded. Answer the "
                        "student's questions about it briefly and honestly, without tools.\n", NULL);

  g_clear_pointer (&self->request, viva_chat_request_unref);
  self->request = build_request (self, system, FALSE);
  self->request_started = g_get_monotonic_time ();
  self->first_byte = 0;
  self->ask_task = g_object_ref (task);
  _viva_examiner_set_state (self, VIVA_EXAMINER_STATE_THINKING);

  viva_chat_model_stream_async (self->model, self->request, cancellable,
                                ask_reply_cb, g_steal_pointer (&task));
}

/**
 * viva_examiner_ask_finish:
 *
 * Returns: (transfer full): the examiner's reply
 */
char *
viva_examiner_ask_finish (VivaExaminer  *self,
                          GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (VIVA_IS_EXAMINER (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* viva-examiner-dispatch.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-examiner-private.h"
#include "viva-exam-plan.h"
#include "viva-exam-scorer.h"
#include "viva-exam-scoring.h"
#include "viva-problem-exam.h"
#include "viva-problem-grade.h"

/* Tool dispatch: a reply's first tool call is looked up, its arguments
 * parsed, checked against the guardrails, run as step S<n> and recorded;
 * every other call of the reply is answered "not run". */

/* The pack sets `ask`, so the plan is asked whole before a verdict. */
static gboolean
plan_enforced (VivaExaminer *self)
{
  VivaProblemAsks asks;

  viva_problem_get_asks (self->problem, &asks);
  return asks.enforced;
}

static void tool_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data);
static void after_call (VivaExaminer *self);

static void
append_tool_message (VivaExaminer       *self,
                     const VivaToolCall *call,
                     JsonObject         *content)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autofree char *text = NULL;

  json_node_set_object (node, content);
  text = json_to_string (node, FALSE);
  g_ptr_array_add (self->conversation.messages,
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
  _viva_examiner_trace (self, "refused", data);

  json_object_set_boolean_member (content, "refused", TRUE);
  json_object_set_string_member (content, "reason", reason);
  append_tool_message (self, call, content);

  _viva_examiner_emit (self, REFUSED, viva_tool_call_get_name (call), reason);

  after_call (self);
  _viva_examiner_continue (self);
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
  _viva_examiner_trace (self, "tool_error", data);

  append_tool_message (self, call, content);
  after_call (self);
  _viva_examiner_continue (self);
}

/* What the student reads of a call: its question or message. */
static const char *
shown_text (const VivaExamToolFacts *facts,
            JsonObject              *arguments)
{
  if (facts->shown_argument == NULL)
    return NULL;

  return json_object_get_string_member_with_default (arguments, facts->shown_argument, NULL);
}

void
_viva_examiner_start_call (VivaExaminer       *self,
                           const VivaToolCall *call,
                           const char         *redo_step)
{
  VivaExamTool *tool = _viva_exam_protocol_find_tool (&self->protocol, viva_tool_call_get_name (call));
  const VivaExamToolFacts *facts = tool ? viva_exam_tool_get_facts (tool) : NULL;
  g_autoptr(JsonObject) arguments = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *signature = NULL;
  JsonObject *data;

  if (tool == NULL)
    {
      g_autoptr(GString) names = g_string_new (NULL);
      g_autofree char *message = NULL;

      for (guint i = 0; i < self->protocol.tools->len; i++)
        g_string_append_printf (names, "%s%s", i ? ", " : "",
                                viva_exam_tool_get_name (g_ptr_array_index (self->protocol.tools, i)));
      message = g_strdup_printf ("There is no tool named “%s”. The tools are: %s.",
                                 viva_tool_call_get_name (call), names->str);
      return reject_call (self, call, message);
    }

  if (!(arguments = viva_exam_tool_parse_arguments (tool, viva_tool_call_get_arguments (call), &error)))
    return reject_call (self, call, error->message);

  signature = _viva_exam_protocol_call_signature (viva_exam_tool_get_name (tool), arguments);

  if (redo_step == NULL)
    {
      g_autofree char *reason = NULL;

      if ((reason = _viva_exam_protocol_check_repeats (&self->protocol, viva_exam_tool_get_name (tool), signature)))
        return refuse (self, call, reason);

      if (viva_exam_tool_get_kind (tool) == VIVA_EXAM_TOOL_KIND_FINISHES &&
          ((reason = _viva_exam_protocol_check_protocol (&self->protocol)) || (reason = _viva_exam_protocol_check_evidence (&self->protocol, arguments)) ||
           (reason = viva_exam_plan_check_finish (viva_exam_context_get_plan (self->context), self->protocol.steps,
                                                  plan_enforced (self)))))
        return refuse (self, call, reason);
    }

  /* Pacing: one question at a time, the engine's plan; a question without
   * an item counts as the next planned conceptual one (also on a redo). */
  if (facts->step == VIVA_EXAM_PROTOCOL_ASK)
    {
      g_autofree char *reason = viva_exam_plan_check_ask (viva_exam_context_get_plan (self->context),
                                                          self->protocol.steps, arguments);

      if (reason != NULL && redo_step == NULL)
        return refuse (self, call, reason);
    }

  g_clear_pointer (&self->pending_call, viva_tool_call_free);
  self->pending_call = viva_tool_call_copy (call);
  g_free (self->pending_step);
  self->pending_step = redo_step ? g_strdup (redo_step) : g_strdup_printf ("S%u", ++self->protocol.step_counter);
  self->phase = VIVA_EXAM_PHASE_TOOL;

  _viva_examiner_emit (self, TOOL_STARTED, self->pending_step,
                       viva_exam_tool_get_name (tool), viva_tool_call_get_arguments (call));

  switch (facts->kind)
    {
    case VIVA_EXAM_TOOL_KIND_WAITS:
      {
        const VivaExamPlanItem *item = viva_exam_plan_find (viva_exam_context_get_plan (self->context),
                                                            json_object_get_string_member_with_default (arguments, "item", NULL));
        g_autofree char *shown = viva_exam_plan_shown_question (item, shown_text (facts, arguments));

        self->pending_item = item;
        _viva_examiner_set_pending_question (self, shown);
      }
      _viva_examiner_set_state (self, VIVA_EXAMINER_STATE_WAITING_FOR_STUDENT);
      break;

    case VIVA_EXAM_TOOL_KIND_SPEAKS:
      _viva_examiner_set_state (self, VIVA_EXAMINER_STATE_RUNNING_TOOL);
      _viva_examiner_emit (self, MESSAGE, shown_text (facts, arguments));
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
  _viva_examiner_trace (self, "tool_call", data);
  _viva_examiner_checkpoint (self);

  /* The code the tool is about to see, traced if it changed. */
  g_free (_viva_examiner_snapshot_code (self));

  self->tool_started = g_get_monotonic_time ();
  viva_exam_tool_invoke_async (tool, self->context, arguments, _viva_examiner_cancellable (self),
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

static gboolean
same_text (const char *a,
           const char *b)
{
  g_autofree char *x = g_strstrip (g_strdup (a ? a : ""));
  g_autofree char *y = g_strstrip (g_strdup (b ? b : ""));

  return g_str_equal (x, y);
}

/* A probe the examiner did not name but that runs one of the shown tests
 * is named after it: the student sees "small numbers", wherever the card
 * is drawn, where only the probe's first line would say what it was —
 * and an exam server sends no probe's code at all. Only shown tests: a
 * held-out test's code is never in the examiner's hands. */
static char *
shown_test_name (VivaProblem *problem,
                 JsonObject  *arguments)
{
  gboolean structured = json_object_has_member (arguments, "call");

  for (guint i = 0; problem != NULL && i < viva_problem_get_n_tests (problem); i++)
    {
      const VivaProblemTest *test = viva_problem_get_test (problem, i);

      if (!viva_problem_test_is_shown (test))
        continue;
      if (structured && test->call != NULL &&
          same_text (test->call, json_object_get_string_member_with_default (arguments, "call", "")) &&
          same_text (test->setup, json_object_get_string_member_with_default (arguments, "setup", "")) &&
          same_text (test->check, json_object_get_string_member_with_default (arguments, "check", "")))
        return g_strdup (test->name);
      if (!structured && test->code != NULL &&
          same_text (test->code, json_object_get_string_member_with_default (arguments, "code", "")))
        return g_strdup (test->name);
    }
  return NULL;
}

static VivaExamProbe *
probe_from_result (VivaProblem *problem,
                   const char  *step_id,
                   JsonObject  *arguments,
                   JsonObject  *data)
{
  VivaExamProbe *probe = g_new0 (VivaExamProbe, 1);
  JsonObject *error = json_object_has_member (data, "error") &&
                      JSON_NODE_HOLDS_OBJECT (json_object_get_member (data, "error"))
                    ? json_object_get_object_member (data, "error") : NULL;

  probe->step_id = g_strdup (step_id);
  if (json_object_has_member (arguments, "call"))
    /* A structured probe, as the student reads it. */
    probe->code = g_strdup_printf ("%s\nresult = (%s)\n%s",
                                   json_object_get_string_member_with_default (arguments, "setup", ""),
                                   json_object_get_string_member_with_default (arguments, "call", ""),
                                   json_object_get_string_member_with_default (arguments, "check", ""));
  else
    probe->code = g_strdup (json_object_get_string_member_with_default (arguments, "code", ""));
  probe->name = g_strdup (json_object_get_string_member_with_default (arguments, "name", NULL));
  if (probe->name == NULL || *probe->name == '\0')
    {
      g_free (probe->name);
      probe->name = shown_test_name (problem, arguments);
    }
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

typedef struct
{
  VivaExamVerdict *verdict;
  GPtrArray       *items;
} Grading;

static void
grading_free (Grading *grading)
{
  g_clear_object (&grading->verdict);
  g_clear_pointer (&grading->items, g_ptr_array_unref);
  g_free (grading);
}

static void
scored_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  VivaExaminer *self = g_task_get_source_object (task);
  Grading *grading = g_object_get_data (G_OBJECT (task), "viva-grading");
  g_autoptr(VivaExamVerdict) verdict = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *data;

  if (!_viva_exam_scorer_score_finish (result, &error) &&
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      if (task == self->task)
        _viva_examiner_cancelled (self);
      return;
    }
  if (task != self->task || grading == NULL)
    return;

  verdict = g_object_ref (grading->verdict);
  _viva_exam_verdict_set_items (verdict, grading->items);
  data = json_object_new ();
  json_object_set_array_member (data, "items", viva_exam_items_to_json (grading->items));
  _viva_examiner_trace (self, "scored", data);
  g_object_set_data (G_OBJECT (task), "viva-grading", NULL);

  _viva_examiner_end_with (self, verdict);
  _viva_examiner_complete (self, verdict, NULL);
}

static void
grade_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  VivaExaminer *self = g_task_get_source_object (task);
  Grading *grading = g_object_get_data (G_OBJECT (task), "viva-grading");
  g_autoptr(VivaGradeReport) grade = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *data;

  if (self->grade_func != NULL)
    grade = g_task_propagate_pointer (G_TASK (result), &error);
  else
    grade = viva_problem_grade_finish (VIVA_PROBLEM (object), result, &error);

  if (task != self->task || grading == NULL)
    return;

  if (grade == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return _viva_examiner_cancelled (self);

  data = json_object_new ();
  if (grade != NULL)
    json_object_set_member (data, "grade", viva_grade_report_to_json (grade));
  else
    json_object_set_string_member (data, "error", error->message);
  _viva_examiner_trace (self, "grade", data);

  _viva_exam_verdict_set_grade (grading->verdict, grade, grade ? NULL : error->message);

  /* The score from items: the tests and predictions are the engine's
   * facts; each conceptual answer is scored k times by the scorer model. */
  grading->items = _viva_exam_scoring_build_items (self->problem, grade, grade ? NULL : error->message,
                                                   viva_exam_context_get_plan (self->context),
                                                   self->protocol.steps);
  _viva_exam_scorer_score_async (self->scorer ? self->scorer : self->model, self->problem, grading->items,
                                 self->protocol.limits.score_runs, _viva_examiner_cancellable (self),
                                 scored_cb, g_object_ref (task));
}

/* The examiner gave its verdict; the engine now runs every hidden test
 * through the grader, whatever the examiner chose to probe, and the
 * outcome is bound to those facts. */
void
_viva_examiner_finish_defense (VivaExaminer *self,
                               JsonObject   *data)
{
  g_autoptr(GPtrArray) names = _viva_exam_protocol_collect_step_names (&self->protocol);
  g_autoptr(GPtrArray) probes = _viva_exam_protocol_collect_probes (&self->protocol);
  g_autoptr(GPtrArray) evidence = g_ptr_array_new ();
  JsonArray *cited = json_object_get_array_member (data, "evidence");
  g_autofree char *code = _viva_examiner_snapshot_code (self);
  Grading *grading = g_new0 (Grading, 1);

  for (guint i = 0; cited != NULL && i < json_array_get_length (cited); i++)
    g_ptr_array_add (evidence, (gpointer)json_array_get_string_element (cited, i));

  grading->verdict = _viva_exam_verdict_new (VIVA_EXAM_STATUS_FINISHED,
                                             g_strcmp0 (json_object_get_string_member (data, "verdict"), "pass") == 0,
                                             (int)json_object_get_int_member_with_default (data, "score", -1),
                                             json_object_get_string_member_with_default (data, "comment", NULL),
                                             NULL, names, evidence, probes);

  _viva_examiner_set_state (self, VIVA_EXAMINER_STATE_RUNNING_TOOL);
  _viva_examiner_trace (self, "grade_started", NULL);
  g_object_set_data_full (G_OBJECT (self->task), "viva-grading", grading, (GDestroyNotify)grading_free);
  if (self->grade_func != NULL)
    self->grade_func (self->problem, code, _viva_examiner_cancellable (self),
                      grade_cb, g_object_ref (self->task), self->grade_data);
  else
    viva_problem_grade_async (self->problem, code, _viva_examiner_cancellable (self),
                              grade_cb, g_object_ref (self->task));
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
    return _viva_examiner_cancelled (self);

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
      _viva_exam_protocol_cap_output (content, self->protocol.limits.tool_output_limit);

      if (viva_exam_tool_get_facts (tool)->step == VIVA_EXAM_PROTOCOL_PROBE)
        step->probe = probe_from_result (self->problem, step->id, arguments, data);
    }
  else
    {
      content = error_content (step->id, "error", error->message);
      json_object_set_string_member (trace_data, "error", error->message);
    }

  step->result = json_object_ref (content);
  g_ptr_array_add (self->protocol.steps, step);
  _viva_examiner_trace (self, "tool_result", trace_data);

  /* A question that got no answer may be asked again. */
  if (kind != VIVA_EXAM_TOOL_KIND_WAITS || step->ok)
    {
      g_autofree char *signature = _viva_exam_protocol_call_signature (step->name, arguments);

      g_ptr_array_add (self->protocol.recent_calls, g_steal_pointer (&signature));
      while (self->protocol.recent_calls->len > self->protocol.limits.repeat_window)
        g_ptr_array_remove_index (self->protocol.recent_calls, 0);
    }

  append_tool_message (self, call, content);

  if (kind == VIVA_EXAM_TOOL_KIND_WAITS)
    {
      _viva_examiner_set_pending_question (self, NULL);
      self->pending_item = NULL;
      if (step->ok)
        {
          JsonObject *answer = json_object_new ();

          self->protocol.n_answers++;
          json_object_set_string_member (answer, "step", step->id);
          json_object_set_string_member (answer, "answer", json_object_get_string_member (data, "answer"));
          _viva_examiner_trace (self, "answer", answer);
          _viva_examiner_emit (self, ANSWER, json_object_get_string_member (data, "answer"));
        }
    }

  _viva_examiner_notify_n_steps (self);
  node = json_node_new (JSON_NODE_OBJECT);
  json_node_set_object (node, content);
  _viva_examiner_emit (self, TOOL_FINISHED, step->id, step->name, node, step->ok);

  after_call (self);

  if (kind == VIVA_EXAM_TOOL_KIND_FINISHES && data != NULL)
    return _viva_examiner_finish_defense (self, data);

  _viva_examiner_continue (self);
}

/* Single-step: the calls after the first in a reply are answered, each with
 * a tool message saying it was not run, so every call has its answer and
 * the conversation stays valid for strict servers. */
static void
after_call (VivaExaminer *self)
{
  VivaChatMessage *assistant = NULL;
  GPtrArray *calls;
  guint index = self->conversation.messages->len;
  gboolean extra = FALSE;

  while (index > 0 && assistant == NULL)
    {
      VivaChatMessage *message = g_ptr_array_index (self->conversation.messages, --index);

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

      for (guint j = index + 1; j < self->conversation.messages->len && !answered; j++)
        answered = g_strcmp0 (viva_chat_message_get_tool_call_id (g_ptr_array_index (self->conversation.messages, j)),
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
      _viva_examiner_trace (self, "guardrail", data);
    }
}

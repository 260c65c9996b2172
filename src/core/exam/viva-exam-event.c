/* viva-exam-event.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-exam-event.h"

/* One shape for each of the examiner's signals as an event: what
 * `viva-cli defend --json` prints and what the exam server keeps and
 * streams (its `state`, `tool_call`, `tool_result`, `refused` and
 * `content` events), so a script reads both the same way. The message
 * tool speaks to the student as content does, marked by its source. */

/**
 * viva_exam_event_state:
 *
 * Returns: (transfer full): a `state` event's data
 */
JsonObject *
viva_exam_event_state (VivaExaminerState state)
{
  JsonObject *data = json_object_new ();

  json_object_set_string_member (data, "state", viva_examiner_state_to_string (state));
  return data;
}

/**
 * viva_exam_event_tool_call:
 *
 * Returns: (transfer full): a `tool_call` event's data
 */
JsonObject *
viva_exam_event_tool_call (const char *step,
                           const char *name,
                           const char *arguments)
{
  JsonObject *data = json_object_new ();

  json_object_set_string_member (data, "step", step);
  json_object_set_string_member (data, "name", name);
  json_object_set_string_member (data, "arguments", arguments);
  return data;
}

/**
 * viva_exam_event_tool_result:
 *
 * Returns: (transfer full): a `tool_result` event's data, @result copied
 */
JsonObject *
viva_exam_event_tool_result (const char *step,
                             const char *name,
                             JsonNode   *result,
                             gboolean    ok)
{
  JsonObject *data = json_object_new ();

  json_object_set_string_member (data, "step", step);
  json_object_set_string_member (data, "name", name);
  json_object_set_boolean_member (data, "ok", ok);
  json_object_set_member (data, "result", result ? json_node_copy (result) : json_node_new (JSON_NODE_NULL));
  return data;
}

/**
 * viva_exam_event_refused:
 *
 * Returns: (transfer full): a `refused` event's data
 */
JsonObject *
viva_exam_event_refused (const char *name,
                         const char *reason)
{
  JsonObject *data = json_object_new ();

  json_object_set_string_member (data, "name", name);
  json_object_set_string_member (data, "reason", reason);
  return data;
}

/**
 * viva_exam_event_message:
 *
 * Returns: (transfer full): the `content` event of the message tool
 */
JsonObject *
viva_exam_event_message (const char *text)
{
  JsonObject *data = json_object_new ();

  json_object_set_string_member (data, "text", text);
  json_object_set_string_member (data, "source", "message");
  return data;
}

/**
 * viva_exam_event_verdict:
 *
 * The part of a `verdict` event both fronts send: the outcome (`verdict`,
 * `score` or null, `status`, `comment`, `reason`, `explanation` when
 * there are), the engine's facts beside it (`model_verdict`,
 * `engine_pass`, `consistent`, `hidden_tests` when graded) and the tools
 * that ran (`steps`). What only one front sends (the CLI's session and
 * whole probes, the server's probe facts for a student) it adds.
 *
 * Returns: (transfer full): the event's data
 */
JsonObject *
viva_exam_event_verdict (VivaExamVerdict *verdict)
{
  g_autoptr(JsonNode) facts = NULL;
  JsonObject *data = json_object_new ();
  JsonObject *object;

  g_return_val_if_fail (VIVA_IS_EXAM_VERDICT (verdict), data);

  facts = viva_exam_verdict_to_json (verdict);
  object = json_node_get_object (facts);

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
  json_object_set_string_member (data, "model_verdict", viva_exam_verdict_get_model_passed (verdict) ? "pass" : "fail");
  json_object_set_boolean_member (data, "engine_pass", viva_exam_verdict_get_engine_pass (verdict));
  json_object_set_boolean_member (data, "consistent", viva_exam_verdict_get_consistent (verdict));
  if (json_object_has_member (object, "hidden_tests"))
    json_object_set_member (data, "hidden_tests", json_object_dup_member (object, "hidden_tests"));
  json_object_set_member (data, "steps", json_object_dup_member (object, "steps"));
  return data;
}

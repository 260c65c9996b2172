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

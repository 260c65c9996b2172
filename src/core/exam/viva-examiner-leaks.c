/* viva-examiner-leaks.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "viva-examiner-private.h"

/* The leak guard at the examiner's edges (the guard itself is
 * viva-exam-leak-guard.c). Streamed text is shown once settled (all but an
 * end that could still grow into a passage of the secrets), so a
 * passage is withheld before its first character reaches the student; a
 * reply's words and the student-facing arguments of its tool calls
 * (a question, a message, the verdict's comment) are filtered before they
 * enter the transcript, the checkpoint, the trace or a signal. Each
 * withheld passage is counted (viva_examiner_get_n_withheld(), the
 * verdict's `withheld`) and traced as `leak_withheld`, without its text. */

/* Which argument of a tool reaches the student, as the tool says. */
static const char *
shown_argument (VivaExaminer *self,
                const char   *tool)
{
  const VivaExamToolFacts *facts = _viva_examiner_tool_facts (self, tool);

  return facts ? facts->shown_argument : NULL;
}

static VivaExamLeakGuard *
guard (VivaExaminer *self)
{
  if (self->leak_guard == NULL)
    self->leak_guard = _viva_exam_leak_guard_new (self->problem);

  return self->leak_guard;
}

static void
record (VivaExaminer *self,
        const char   *where,
        GArray       *ranges)
{
  JsonObject *data;
  gsize characters = 0;

  if (ranges->len == 0)
    return;

  for (guint i = 0; i < ranges->len; i++)
    characters += g_array_index (ranges, VivaExamLeakRange, i).end - g_array_index (ranges, VivaExamLeakRange, i).start;

  self->n_withheld += ranges->len;
  g_object_notify (G_OBJECT (self), "n-withheld");

  data = json_object_new ();
  json_object_set_string_member (data, "where", where);
  json_object_set_int_member (data, "passages", ranges->len);
  json_object_set_int_member (data, "characters", characters);
  _viva_examiner_trace (self, "leak_withheld", data);
}

/* Returns: (transfer full) (nullable): @text without its leaks, or %NULL
 *   when nothing was withheld */
static char *
filter (VivaExaminer *self,
        const char   *text,
        const char   *where)
{
  g_autoptr(GArray) ranges = NULL;

  if (text == NULL)
    return NULL;

  ranges = _viva_exam_leak_guard_find (guard (self), text, strlen (text), self->code_snapshot);
  if (ranges->len == 0)
    return NULL;

  record (self, where, ranges);
  return _viva_exam_leak_guard_apply (text, strlen (text), ranges);
}

static void
emit_text (VivaExaminer      *self,
           VivaChatDeltaKind  kind,
           const char        *text)
{
  VivaChatDelta delta = { 0 };

  delta.kind = kind;
  delta.text = text;
  _viva_examiner_emit (self, DELTA, &delta);
}

static VivaExamLeakStream *
stream (VivaExaminer *self,
        guint         which)
{
  if (self->leak_stream[which] == NULL)
    self->leak_stream[which] = _viva_exam_leak_stream_new (guard (self));

  return self->leak_stream[which];
}

/* Shows what has settled of one streaming text, up to @limit. */
static void
show_until (VivaExaminer *self,
            guint         which,
            gsize         limit)
{
  g_autofree char *shown = _viva_exam_leak_stream_take_shown (stream (self, which), limit);

  if (shown != NULL)
    emit_text (self, which == 0 ? VIVA_CHAT_DELTA_CONTENT : VIVA_CHAT_DELTA_REASONING, shown);
}

/* A streamed delta: content and reasoning pass the guard, which looks only
 * at what the delta adds; the rest goes out as it came. */
void
_viva_examiner_guard_delta (VivaExaminer        *self,
                            const VivaChatDelta *delta)
{
  guint which;

  if ((delta->kind != VIVA_CHAT_DELTA_CONTENT && delta->kind != VIVA_CHAT_DELTA_REASONING) ||
      delta->text == NULL)
    return _viva_examiner_emit (self, DELTA, delta);

  which = delta->kind == VIVA_CHAT_DELTA_CONTENT ? 0 : 1;
  _viva_exam_leak_stream_push (stream (self, which), delta->text, strlen (delta->text), self->code_snapshot);
  show_until (self, which, _viva_exam_leak_stream_get_settled (stream (self, which)));
}

/* The reply's own text, filtered; what streamed was checked already, so
 * its ranges are used when it is the same text. */
static char *
filter_streamed (VivaExaminer *self,
                 guint         which,
                 const char   *text,
                 const char   *where)
{
  VivaExamLeakStream *streamed = self->leak_stream[which];
  const GString *raw;
  GArray *ranges;

  if (text == NULL)
    return NULL;
  if (streamed == NULL)
    return filter (self, text, where);

  raw = _viva_exam_leak_stream_get_text (streamed);
  if (raw->len != strlen (text) || memcmp (raw->str, text, raw->len) != 0)
    return filter (self, text, where);

  ranges = _viva_exam_leak_stream_get_ranges (streamed);
  if (ranges->len == 0)
    return NULL;

  record (self, where, ranges);
  return _viva_exam_leak_guard_apply (text, strlen (text), ranges);
}

/**
 * _viva_examiner_guard_reply:
 * @trace_json: (nullable): the reply as traced, made to match
 *
 * The end of a reply: the rest of its streamed text is shown, and the
 * message the transcript keeps is the reply's without its leaks — in its
 * words and in what its tool calls would show the student.
 *
 * Returns: (transfer full): the assistant message to keep
 */
VivaChatMessage *
_viva_examiner_guard_reply (VivaExaminer  *self,
                            VivaChatReply *reply,
                            JsonObject    *trace_json)
{
  g_autoptr(VivaChatMessage) original = viva_chat_reply_to_message (reply);
  GPtrArray *calls = viva_chat_message_get_tool_calls (original);
  g_autoptr(GPtrArray) kept = g_ptr_array_new_with_free_func ((GDestroyNotify)viva_tool_call_free);
  g_autofree char *content = NULL;
  g_autofree char *reasoning = NULL;
  gboolean changed = FALSE;

  for (guint which = 0; which < G_N_ELEMENTS (self->leak_stream); which++)
    if (self->leak_stream[which] != NULL)
      {
        _viva_exam_leak_stream_close (self->leak_stream[which]);
        show_until (self, which, G_MAXSIZE);
      }

  content = filter_streamed (self, 0, viva_chat_message_get_content (original), "content");
  reasoning = filter_streamed (self, 1, viva_chat_reply_get_reasoning (reply), "reasoning");
  for (guint which = 0; which < G_N_ELEMENTS (self->leak_stream); which++)
    if (self->leak_stream[which] != NULL)
      _viva_exam_leak_stream_reset (self->leak_stream[which]);
  changed = content != NULL;

  for (guint i = 0; calls != NULL && i < calls->len; i++)
    {
      const VivaToolCall *call = g_ptr_array_index (calls, i);
      const char *member = shown_argument (self, viva_tool_call_get_name (call));
      g_autoptr(JsonNode) node = member ? json_from_string (viva_tool_call_get_arguments (call), NULL) : NULL;
      g_autofree char *cleaned = NULL;

      if (node != NULL && JSON_NODE_HOLDS_OBJECT (node) &&
          json_object_has_member (json_node_get_object (node), member) &&
          JSON_NODE_HOLDS_VALUE (json_object_get_member (json_node_get_object (node), member)) &&
          (cleaned = filter (self, json_object_get_string_member (json_node_get_object (node), member),
                             viva_tool_call_get_name (call))))
        {
          g_autofree char *arguments = NULL;

          json_object_set_string_member (json_node_get_object (node), member, cleaned);
          arguments = json_to_string (node, FALSE);
          g_ptr_array_add (kept, viva_tool_call_new (viva_tool_call_get_id (call), viva_tool_call_get_name (call),
                                                     arguments));
          changed = TRUE;
        }
      else
        g_ptr_array_add (kept, viva_tool_call_copy (call));
    }

  if (trace_json != NULL)
    {
      if (content != NULL)
        json_object_set_string_member (trace_json, "content", content);
      if (reasoning != NULL)
        json_object_set_string_member (trace_json, "reasoning", reasoning);
      if (changed && json_object_has_member (trace_json, "tool_calls"))
        {
          JsonArray *traced = json_object_get_array_member (trace_json, "tool_calls");

          for (guint i = 0; i < kept->len && i < json_array_get_length (traced); i++)
            json_object_set_string_member (json_array_get_object_element (traced, i), "arguments",
                                           viva_tool_call_get_arguments (g_ptr_array_index (kept, i)));
        }
    }

  if (!changed)
    return g_steal_pointer (&original);

  return viva_chat_message_new_assistant (content ? content : viva_chat_message_get_content (original),
                                          kept->len > 0 ? kept : NULL);
}

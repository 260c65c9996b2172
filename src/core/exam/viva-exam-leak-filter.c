/* viva-exam-leak-filter.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "viva-exam-leak-filter.h"

/* The leak guard at the examiner's edges (the guard itself is
 * viva-exam-leak-guard.c, a streaming text's side viva-exam-leak-stream.c).
 * Streamed text is shown once settled (all but an end that could still
 * grow into a passage of the secrets), so a passage is withheld before its
 * first character reaches the student; a reply's words and the
 * student-facing arguments of its tool calls (a question, a message, the
 * verdict's comment) are filtered before they enter the transcript, the
 * checkpoint, the trace or a signal. Each withheld passage is counted
 * (n_withheld, the verdict's `withheld`) and handed back to be traced as
 * `leak_withheld`, without its text. Plain data: the examiner emits and
 * traces what it is handed. */

void
_viva_exam_leak_filter_init (VivaExamLeakFilter *self,
                             VivaProblem        *problem)
{
  memset (self, 0, sizeof *self);
  self->problem = problem;
  self->withheld = g_ptr_array_new_with_free_func ((GDestroyNotify)json_object_unref);
}

void
_viva_exam_leak_filter_clear (VivaExamLeakFilter *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (self->streams); i++)
    g_clear_pointer (&self->streams[i], _viva_exam_leak_stream_free);
  g_clear_pointer (&self->guard, _viva_exam_leak_guard_free);
  g_clear_pointer (&self->withheld, g_ptr_array_unref);
}

static VivaExamLeakGuard *
guard (VivaExamLeakFilter *self)
{
  if (self->guard == NULL)
    self->guard = _viva_exam_leak_guard_new (self->problem);

  return self->guard;
}

static VivaExamLeakStream *
stream (VivaExamLeakFilter *self,
        guint               which)
{
  if (self->streams[which] == NULL)
    self->streams[which] = _viva_exam_leak_stream_new (guard (self));

  return self->streams[which];
}

static void
record (VivaExamLeakFilter *self,
        const char         *where,
        GArray             *ranges)
{
  JsonObject *data;
  gsize characters = 0;

  if (ranges->len == 0)
    return;

  for (guint i = 0; i < ranges->len; i++)
    characters += g_array_index (ranges, VivaExamLeakRange, i).end - g_array_index (ranges, VivaExamLeakRange, i).start;

  self->n_withheld += ranges->len;
  data = json_object_new ();
  json_object_set_string_member (data, "where", where);
  json_object_set_int_member (data, "passages", ranges->len);
  json_object_set_int_member (data, "characters", characters);
  g_ptr_array_add (self->withheld, data);
}

/* Returns: (transfer full) (nullable): @text without its leaks, or %NULL
 *   when nothing was withheld */
static char *
filter (VivaExamLeakFilter *self,
        const char         *text,
        const char         *where,
        const char         *code)
{
  g_autoptr(GArray) ranges = NULL;

  if (text == NULL)
    return NULL;

  ranges = _viva_exam_leak_guard_find (guard (self), text, strlen (text), code);
  if (ranges->len == 0)
    return NULL;

  record (self, where, ranges);
  return _viva_exam_leak_guard_apply (text, strlen (text), ranges);
}

/* The reply's own text, filtered; what streamed was checked already, so
 * its ranges are used when it is the same text. */
static char *
filter_streamed (VivaExamLeakFilter *self,
                 guint               which,
                 const char         *text,
                 const char         *where,
                 const char         *code)
{
  VivaExamLeakStream *streamed = self->streams[which];
  const GString *raw;
  GArray *ranges;

  if (text == NULL)
    return NULL;
  if (streamed == NULL)
    return filter (self, text, where, code);

  raw = _viva_exam_leak_stream_get_text (streamed);
  if (raw->len != strlen (text) || memcmp (raw->str, text, raw->len) != 0)
    return filter (self, text, where, code);

  ranges = _viva_exam_leak_stream_get_ranges (streamed);
  if (ranges->len == 0)
    return NULL;

  record (self, where, ranges);
  return _viva_exam_leak_guard_apply (text, strlen (text), ranges);
}

/**
 * _viva_exam_leak_filter_delta:
 * @which: 0 for content, 1 for reasoning
 * @code: (nullable): the student's current code, which may be quoted
 *
 * A streamed delta; the guard looks only at what it adds.
 *
 * Returns: (transfer full) (nullable): what can be shown now
 */
char *
_viva_exam_leak_filter_delta (VivaExamLeakFilter *self,
                              guint               which,
                              const char         *text,
                              const char         *code)
{
  VivaExamLeakStream *s = stream (self, which);

  _viva_exam_leak_stream_push (s, text, strlen (text), code);
  return _viva_exam_leak_stream_take_shown (s, _viva_exam_leak_stream_get_settled (s));
}

/* The records of withheld passages since the last call, to trace. */
GPtrArray *
_viva_exam_leak_filter_take_withheld (VivaExamLeakFilter *self)
{
  GPtrArray *taken = g_steal_pointer (&self->withheld);

  self->withheld = g_ptr_array_new_with_free_func ((GDestroyNotify)json_object_unref);
  return taken;
}

/**
 * _viva_exam_leak_filter_reply:
 * @trace_json: (nullable): the reply as traced, made to match
 * @protocol: whose tools say which argument the student reads
 * @code: (nullable): the student's current code, which may be quoted
 * @rest: (out) (array fixed-size=2): what is left to show of the streamed
 *   content and reasoning (each maybe %NULL)
 *
 * The end of a reply: the rest of its streamed text is shown, and the
 * message the transcript keeps is the reply's without its leaks — in its
 * words and in what its tool calls would show the student.
 *
 * Returns: (transfer full): the assistant message to keep
 */
VivaChatMessage *
_viva_exam_leak_filter_reply (VivaExamLeakFilter  *self,
                              VivaChatReply       *reply,
                              JsonObject          *trace_json,
                              VivaExamProtocol    *protocol,
                              const char          *code,
                              char               **rest)
{
  g_autoptr(VivaChatMessage) original = viva_chat_reply_to_message (reply);
  GPtrArray *calls = viva_chat_message_get_tool_calls (original);
  g_autoptr(GPtrArray) kept = g_ptr_array_new_with_free_func ((GDestroyNotify)viva_tool_call_free);
  g_autofree char *content = NULL;
  g_autofree char *reasoning = NULL;
  gboolean changed = FALSE;

  for (guint which = 0; which < G_N_ELEMENTS (self->streams); which++)
    {
      rest[which] = NULL;
      if (self->streams[which] != NULL)
        {
          _viva_exam_leak_stream_close (self->streams[which]);
          rest[which] = _viva_exam_leak_stream_take_shown (self->streams[which], G_MAXSIZE);
        }
    }

  content = filter_streamed (self, 0, viva_chat_message_get_content (original), "content", code);
  reasoning = filter_streamed (self, 1, viva_chat_reply_get_reasoning (reply), "reasoning", code);
  for (guint which = 0; which < G_N_ELEMENTS (self->streams); which++)
    if (self->streams[which] != NULL)
      _viva_exam_leak_stream_reset (self->streams[which]);
  changed = content != NULL;

  for (guint i = 0; calls != NULL && i < calls->len; i++)
    {
      const VivaToolCall *call = g_ptr_array_index (calls, i);
      const VivaExamToolFacts *facts = _viva_exam_protocol_tool_facts (protocol, viva_tool_call_get_name (call));
      const char *member = facts != NULL ? facts->shown_argument : NULL;
      g_autoptr(JsonNode) node = member ? json_from_string (viva_tool_call_get_arguments (call), NULL) : NULL;
      g_autofree char *cleaned = NULL;

      if (node != NULL && JSON_NODE_HOLDS_OBJECT (node) &&
          json_object_has_member (json_node_get_object (node), member) &&
          JSON_NODE_HOLDS_VALUE (json_object_get_member (json_node_get_object (node), member)) &&
          (cleaned = filter (self, json_object_get_string_member (json_node_get_object (node), member),
                             viva_tool_call_get_name (call), code)))
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

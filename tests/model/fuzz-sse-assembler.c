/* fuzz-sse-assembler.c: libFuzzer entry over the SSE/NDJSON reader and
 * the reply assembler, fed as the client feeds them, and over the types'
 * JSON readers (checkpoints are read back with them).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "viva-model-private.h"
#include "viva-reply-assembler.h"
#include "viva-sse-reader.h"

int LLVMFuzzerTestOneInput (const guint8 *data,
                            size_t        size);

static void
on_delta (const VivaChatDelta *delta,
          gpointer             user_data)
{
  gsize *total = user_data;

  /* Touch what a handler reads, so a bad pointer shows. */
  if (delta->text != NULL)
    *total += strlen (delta->text);
  if (delta->usage != NULL)
    *total += (gsize)delta->usage->total_tokens;
}

/* Whatever parses is read as each type; what is read writes back. */
static void
read_types (const guint8 *data,
            size_t        size)
{
  g_autoptr(JsonNode) node = _viva_json_parse ((const char *)data, size, NULL);
  g_autoptr(VivaChatRequest) request = NULL;
  g_autoptr(VivaChatMessage) message = NULL;
  g_autoptr(VivaChatReply) reply = NULL;
  g_autoptr(VivaToolCall) call = NULL;
  g_autoptr(VivaToolDefinition) tool = NULL;

  if (node == NULL)
    return;

  /* Property: whatever was read writes back to something readable. */
  if ((request = viva_chat_request_new_from_json (node, NULL)))
    {
      g_autoptr(JsonNode) back = viva_chat_request_to_json (request);
      g_autoptr(VivaChatRequest) again = viva_chat_request_new_from_json (back, NULL);

      g_assert (again != NULL);
      g_assert (viva_chat_request_get_messages (again)->len == viva_chat_request_get_messages (request)->len);
    }
  if ((message = viva_chat_message_new_from_json (node, NULL)))
    {
      g_autoptr(JsonNode) back = viva_chat_message_to_json (message);
      g_autoptr(VivaChatMessage) again = viva_chat_message_new_from_json (back, NULL);

      g_assert (again != NULL);
      g_assert (viva_chat_message_get_role (again) == viva_chat_message_get_role (message));
    }
  if ((reply = viva_chat_reply_new_from_json (node, NULL)))
    {
      g_autoptr(JsonNode) back = viva_chat_reply_to_json (reply);
      g_autoptr(VivaChatReply) again = viva_chat_reply_new_from_json (back, NULL);
      g_autoptr(VivaChatMessage) as_message = viva_chat_reply_to_message (reply);

      g_assert (again != NULL);
      g_assert (viva_chat_message_get_role (as_message) == VIVA_CHAT_ROLE_ASSISTANT);
    }
  if ((call = viva_tool_call_new_from_json (node, NULL)))
    {
      g_autoptr(JsonNode) back = viva_tool_call_to_json (call);
      g_autoptr(VivaToolCall) again = viva_tool_call_new_from_json (back, NULL);
      g_autoptr(JsonNode) arguments = viva_tool_call_parse_arguments (call, NULL);

      g_assert (again != NULL);
      g_assert (arguments == NULL || JSON_NODE_HOLDS_OBJECT (arguments));
    }
  if ((tool = viva_tool_definition_new_from_json (node, NULL)))
    {
      g_autoptr(JsonNode) back = viva_tool_definition_to_json (tool);
      g_autoptr(VivaToolDefinition) again = viva_tool_definition_new_from_json (back, NULL);

      g_assert (again != NULL);
    }
}

/* A body starting with '{' is read as Ollama NDJSON, anything else as an
 * event stream, so the recorded fixtures are seeds as they are. The body
 * is fed in pieces whose size comes from its length, to cut events at
 * varying points. */
int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  static const char * const tools[] = { "runPython", "askStudent", "readStudentCode", NULL };
  gboolean ndjson = size > 0 && data[0] == '{';
  g_autoptr(VivaSseReader) reader = viva_sse_reader_new (NULL, ndjson ? VIVA_SSE_FORMAT_NDJSON : VIVA_SSE_FORMAT_EVENT_STREAM);
  g_autoptr(VivaReplyAssembler) assembler = viva_reply_assembler_new (ndjson ? VIVA_REPLY_FORMAT_OLLAMA : VIVA_REPLY_FORMAT_OPENAI);
  g_autoptr(VivaChatReply) reply = NULL;
  gsize piece = size % 13 + 1;
  gsize total = 0;
  gboolean failed = FALSE;

  read_types (data, size);

  viva_reply_assembler_set_delta_func (assembler, on_delta, &total, NULL);
  viva_reply_assembler_set_tool_names (assembler, tools);

  for (gsize offset = 0; offset <= size && !failed && !viva_reply_assembler_get_done (assembler); offset += piece)
    {
      VivaSseEvent *event;

      if (offset < size)
        viva_sse_reader_feed (reader, (const char *)data + offset, MIN (piece, size - offset));
      else
        viva_sse_reader_feed_eof (reader);

      while (!failed && !viva_reply_assembler_get_done (assembler) && (event = viva_sse_reader_pop_event (reader)))
        {
          g_autoptr(GError) error = NULL;

          failed = !viva_reply_assembler_feed_event (assembler, event, &error);
          g_assert (failed == (error != NULL));
          g_assert (error == NULL || g_utf8_validate (error->message, -1, NULL));
          viva_sse_event_free (event);
        }
    }

  reply = viva_reply_assembler_finish (assembler);
  {
    g_autoptr(JsonNode) node = viva_chat_reply_to_json (reply);
    g_autofree char *text = json_to_string (node, FALSE);

    g_assert (text != NULL);
  }

  return 0;
}

/* fuzz-sse-assembler.c: libFuzzer entry over the SSE/NDJSON reader and
 * the reply assembler, fed as the client feeds them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

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

/* viva-reply-limits.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* How much of a model server one reply may take, at most. A server is
 * hostile input (or merely chatty): without these, an endless stream is
 * read forever and one huge line is buffered whole. The defaults are far
 * above what any reply a defense needs: 100,000 pieces is a long
 * reasoning model's whole context, 32 MiB its bytes with every chunk's
 * JSON wrapping, a line of 1 MiB a whole reply sent unstreamed. They are
 * VivaOpenAIModel's properties (max-reply-bytes, max-line-bytes,
 * max-deltas, max-tool-calls, max-reply-time). */
#define VIVA_REPLY_DEFAULT_MAX_BYTES      (32u * 1024 * 1024)
#define VIVA_REPLY_DEFAULT_MAX_LINE       (1024u * 1024)
#define VIVA_REPLY_DEFAULT_MAX_DELTAS     100000u
#define VIVA_REPLY_DEFAULT_MAX_TOOL_CALLS 64u
#define VIVA_REPLY_DEFAULT_MAX_TIME_MS    (20u * 60 * 1000)

/**
 * VivaReplyLimit:
 * @VIVA_REPLY_LIMIT_BYTES: the reply's bytes, as read off the wire
 * @VIVA_REPLY_LIMIT_LINE: one line, or one event's joined `data:` lines
 * @VIVA_REPLY_LIMIT_DELTAS: the pieces of text, tool calls and usage
 * @VIVA_REPLY_LIMIT_TOOL_CALLS: the tool calls in one reply
 * @VIVA_REPLY_LIMIT_TIME: the time from the request to the reply's end
 */
typedef enum
{
  VIVA_REPLY_LIMIT_BYTES,
  VIVA_REPLY_LIMIT_LINE,
  VIVA_REPLY_LIMIT_DELTAS,
  VIVA_REPLY_LIMIT_TOOL_CALLS,
  VIVA_REPLY_LIMIT_TIME,
} VivaReplyLimit;

GError *viva_reply_limit_error_new (VivaReplyLimit limit,
                                    guint64        value);

G_END_DECLS

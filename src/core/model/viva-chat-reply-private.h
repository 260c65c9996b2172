/* viva-chat-reply-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-chat-reply.h"

G_BEGIN_DECLS

/* The assembler sets what only a streamed reply has. */
void           _viva_chat_reply_take_reasoning       (VivaChatReply       *self,
                                                      char                *reasoning);
void           _viva_chat_reply_set_usage            (VivaChatReply       *self,
                                                      const VivaChatUsage *usage);
void           _viva_chat_reply_set_truncated        (VivaChatReply       *self,
                                                      gboolean             truncated);
void           _viva_chat_reply_set_prompt_truncated (VivaChatReply       *self,
                                                      gboolean             prompt_truncated);

G_END_DECLS

/* viva-chat-reply-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-chat-reply.h"

G_BEGIN_DECLS

/* The assembler and the models build replies; everyone else reads them. */
VivaChatReply *_viva_chat_reply_new                  (void);
void           _viva_chat_reply_take_content         (VivaChatReply       *self,
                                                      char                *content);
void           _viva_chat_reply_take_reasoning       (VivaChatReply       *self,
                                                      char                *reasoning);
void           _viva_chat_reply_add_tool_call        (VivaChatReply       *self,
                                                      VivaToolCall        *call);
void           _viva_chat_reply_set_finish_reason    (VivaChatReply       *self,
                                                      const char          *finish_reason);
void           _viva_chat_reply_set_usage            (VivaChatReply       *self,
                                                      const VivaChatUsage *usage);
void           _viva_chat_reply_set_model            (VivaChatReply       *self,
                                                      const char          *model);
void           _viva_chat_reply_set_truncated        (VivaChatReply       *self,
                                                      gboolean             truncated);
void           _viva_chat_reply_set_prompt_truncated (VivaChatReply       *self,
                                                      gboolean             prompt_truncated);

G_END_DECLS

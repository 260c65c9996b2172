/* viva-chat-reply.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "viva-chat-message.h"
#include "viva-tool-call.h"

G_BEGIN_DECLS

/**
 * VivaChatUsage:
 * @prompt_tokens: tokens the server read from the prompt
 * @completion_tokens: tokens it generated
 * @total_tokens: their sum, as the server reported it
 */
typedef struct
{
  gint64 prompt_tokens;
  gint64 completion_tokens;
  gint64 total_tokens;
} VivaChatUsage;

#define VIVA_TYPE_CHAT_REPLY (viva_chat_reply_get_type ())

/**
 * VivaChatReply:
 *
 * One assistant reply assembled from a stream. `truncated` says the stream
 * ended before the server said it was done (what arrived is kept);
 * `prompt-truncated` says the server evidently read only part of the
 * prompt. A tool call the model wrote as text is in the tool calls too,
 * with viva_tool_call_get_recovered() set. Reference counted, immutable.
 */
typedef struct _VivaChatReply VivaChatReply;

GType                viva_chat_reply_get_type             (void) G_GNUC_CONST;
VivaChatReply       *viva_chat_reply_ref                  (VivaChatReply        *self);
void                 viva_chat_reply_unref                (VivaChatReply        *self);
const char          *viva_chat_reply_get_content          (const VivaChatReply  *self);
const char          *viva_chat_reply_get_reasoning        (const VivaChatReply  *self);
GPtrArray           *viva_chat_reply_get_tool_calls       (const VivaChatReply  *self);
const char          *viva_chat_reply_get_finish_reason    (const VivaChatReply  *self);
const VivaChatUsage *viva_chat_reply_get_usage            (const VivaChatReply  *self);
const char          *viva_chat_reply_get_model            (const VivaChatReply  *self);
gboolean             viva_chat_reply_get_truncated        (const VivaChatReply  *self);
gboolean             viva_chat_reply_get_prompt_truncated (const VivaChatReply  *self);
gboolean             viva_chat_reply_get_recovered_tool_calls (const VivaChatReply *self);
VivaChatMessage     *viva_chat_reply_to_message           (const VivaChatReply  *self);
JsonNode            *viva_chat_reply_to_json              (const VivaChatReply  *self);
VivaChatReply       *viva_chat_reply_new_from_json        (JsonNode             *node,
                                                           GError              **error);

/* For implementations of VivaChatModel, which build the replies they return. */
VivaChatReply       *viva_chat_reply_new                  (void);
void                 viva_chat_reply_take_content         (VivaChatReply        *self,
                                                           char                 *content);
void                 viva_chat_reply_add_tool_call        (VivaChatReply        *self,
                                                           VivaToolCall         *call);
void                 viva_chat_reply_set_finish_reason    (VivaChatReply        *self,
                                                           const char           *finish_reason);
void                 viva_chat_reply_set_model            (VivaChatReply        *self,
                                                           const char           *model);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (VivaChatReply, viva_chat_reply_unref)

G_END_DECLS

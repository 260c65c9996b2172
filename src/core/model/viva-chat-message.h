/* viva-chat-message.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "viva-tool-call.h"

G_BEGIN_DECLS

typedef enum
{
  VIVA_CHAT_ROLE_SYSTEM,
  VIVA_CHAT_ROLE_USER,
  VIVA_CHAT_ROLE_ASSISTANT,
  VIVA_CHAT_ROLE_TOOL,
} VivaChatRole;

#define VIVA_TYPE_CHAT_MESSAGE (viva_chat_message_get_type ())

/**
 * VivaChatMessage:
 *
 * One message of a conversation: system, user, assistant (with content,
 * reasoning and tool calls) or tool (the result of one call, quoting its
 * id). Reference counted; treat a message as immutable once it is in a
 * request or a checkpoint. Any thread, one at a time.
 */
typedef struct _VivaChatMessage VivaChatMessage;

GType            viva_chat_message_get_type         (void) G_GNUC_CONST;
VivaChatMessage *viva_chat_message_new              (VivaChatRole            role,
                                                     const char             *content);
VivaChatMessage *viva_chat_message_new_system       (const char             *content);
VivaChatMessage *viva_chat_message_new_user         (const char             *content);
VivaChatMessage *viva_chat_message_new_assistant    (const char             *content,
                                                     GPtrArray              *tool_calls);
VivaChatMessage *viva_chat_message_new_tool         (const char             *tool_call_id,
                                                     const char             *name,
                                                     const char             *content);
VivaChatMessage *viva_chat_message_ref              (VivaChatMessage        *self);
void             viva_chat_message_unref            (VivaChatMessage        *self);
VivaChatRole     viva_chat_message_get_role         (const VivaChatMessage  *self);
const char      *viva_chat_message_get_content      (const VivaChatMessage  *self);
const char      *viva_chat_message_get_reasoning    (const VivaChatMessage  *self);
void             viva_chat_message_set_reasoning    (VivaChatMessage        *self,
                                                     const char             *reasoning);
GPtrArray       *viva_chat_message_get_tool_calls   (const VivaChatMessage  *self);
const char      *viva_chat_message_get_tool_call_id (const VivaChatMessage  *self);
const char      *viva_chat_message_get_name         (const VivaChatMessage  *self);
JsonNode        *viva_chat_message_to_json          (const VivaChatMessage  *self);
VivaChatMessage *viva_chat_message_new_from_json    (JsonNode               *node,
                                                     GError                **error);

const char      *viva_chat_role_to_string           (VivaChatRole            role);
gboolean         viva_chat_role_from_string         (const char             *string,
                                                     VivaChatRole           *role);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (VivaChatMessage, viva_chat_message_unref)

G_END_DECLS

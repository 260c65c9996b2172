/* viva-chat-request.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "viva-chat-message.h"
#include "viva-tool-definition.h"

G_BEGIN_DECLS

#define VIVA_TYPE_CHAT_REQUEST (viva_chat_request_get_type ())

/**
 * VivaChatRequest:
 *
 * What to ask a model: the conversation so far, the tools offered, and the
 * sampling parameters. Unset parameters fall back to the model's own
 * defaults (the `model` and `temperature` properties of #VivaOpenAIModel,
 * which follow the settings). Reference counted; build it, then hand it to
 * viva_chat_model_stream_async() and leave it alone while it streams. The
 * request is also the key of the #VivaChatModel::delta signal, so several
 * streams on one model are told apart.
 */
typedef struct _VivaChatRequest VivaChatRequest;

GType            viva_chat_request_get_type        (void) G_GNUC_CONST;
VivaChatRequest *viva_chat_request_new             (void);
VivaChatRequest *viva_chat_request_ref             (VivaChatRequest       *self);
void             viva_chat_request_unref           (VivaChatRequest       *self);
void             viva_chat_request_add_message     (VivaChatRequest       *self,
                                                    VivaChatMessage       *message);
GPtrArray       *viva_chat_request_get_messages    (const VivaChatRequest *self);
void             viva_chat_request_add_tool        (VivaChatRequest       *self,
                                                    VivaToolDefinition    *tool);
GPtrArray       *viva_chat_request_get_tools       (const VivaChatRequest *self);
const char      *viva_chat_request_get_model       (const VivaChatRequest *self);
void             viva_chat_request_set_model       (VivaChatRequest       *self,
                                                    const char            *model);
gboolean         viva_chat_request_get_temperature (const VivaChatRequest *self,
                                                    double                *temperature);
void             viva_chat_request_set_temperature (VivaChatRequest       *self,
                                                    double                 temperature);
void             viva_chat_request_unset_temperature (VivaChatRequest     *self);
guint            viva_chat_request_get_max_tokens  (const VivaChatRequest *self);
void             viva_chat_request_set_max_tokens  (VivaChatRequest       *self,
                                                    guint                  max_tokens);
const char      *viva_chat_request_get_response_schema_name (const VivaChatRequest *self);
JsonNode        *viva_chat_request_get_response_schema (const VivaChatRequest *self);
void             viva_chat_request_set_response_schema (VivaChatRequest     *self,
                                                    const char            *name,
                                                    JsonNode              *schema);
guint            viva_chat_request_estimate_prompt_tokens (const VivaChatRequest *self);
JsonNode        *viva_chat_request_to_json         (const VivaChatRequest *self);
VivaChatRequest *viva_chat_request_new_from_json   (JsonNode              *node,
                                                    GError               **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (VivaChatRequest, viva_chat_request_unref)

G_END_DECLS

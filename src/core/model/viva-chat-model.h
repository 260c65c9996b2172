/* viva-chat-model.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "viva-chat-message.h"
#include "viva-chat-reply.h"
#include "viva-chat-request.h"
#include "viva-model-error.h"
#include "viva-tool-call.h"
#include "viva-tool-definition.h"

G_BEGIN_DECLS

/**
 * VivaChatDeltaKind:
 * @VIVA_CHAT_DELTA_CONTENT: @text is more of the answer
 * @VIVA_CHAT_DELTA_REASONING: @text is more of the reasoning
 * @VIVA_CHAT_DELTA_TOOL_CALL: a fragment of the tool call at @index: @id and
 *   @name when they first arrive (else %NULL), @text the next piece of the
 *   arguments (maybe empty)
 * @VIVA_CHAT_DELTA_USAGE: @usage holds the token counts
 */
typedef enum
{
  VIVA_CHAT_DELTA_CONTENT,
  VIVA_CHAT_DELTA_REASONING,
  VIVA_CHAT_DELTA_TOOL_CALL,
  VIVA_CHAT_DELTA_USAGE,
} VivaChatDeltaKind;

/**
 * VivaChatDelta:
 *
 * One piece of a reply as it arrives. Valid only during the emission;
 * use viva_chat_delta_copy() to keep it.
 */
typedef struct
{
  VivaChatDeltaKind    kind;
  const char          *text;
  guint                index;
  const char          *id;
  const char          *name;
  const VivaChatUsage *usage;
} VivaChatDelta;

#define VIVA_TYPE_CHAT_DELTA (viva_chat_delta_get_type ())
GType          viva_chat_delta_get_type (void) G_GNUC_CONST;
VivaChatDelta *viva_chat_delta_copy     (const VivaChatDelta *self);
void           viva_chat_delta_free     (VivaChatDelta       *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (VivaChatDelta, viva_chat_delta_free)

#define VIVA_TYPE_CHAT_MODEL (viva_chat_model_get_type ())

G_DECLARE_INTERFACE (VivaChatModel, viva_chat_model, VIVA, CHAT_MODEL, GObject)

/**
 * VivaChatModelInterface:
 * @stream_async: start streaming one reply to a request
 * @stream_finish: the assembled reply
 *
 * A source of chat replies. Deltas are delivered through the
 * #VivaChatModel::delta signal, emitted on the thread-default main context
 * of the stream_async() caller, before the callback runs; the request
 * passed to stream_async() identifies the stream.
 */
struct _VivaChatModelInterface
{
  GTypeInterface parent_iface;

  void           (*stream_async)  (VivaChatModel        *self,
                                   VivaChatRequest      *request,
                                   GCancellable         *cancellable,
                                   GAsyncReadyCallback   callback,
                                   gpointer              user_data);
  VivaChatReply *(*stream_finish) (VivaChatModel        *self,
                                   GAsyncResult         *result,
                                   GError              **error);
};

void           viva_chat_model_stream_async  (VivaChatModel        *self,
                                              VivaChatRequest      *request,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
VivaChatReply *viva_chat_model_stream_finish (VivaChatModel        *self,
                                              GAsyncResult         *result,
                                              GError              **error);
void           viva_chat_model_emit_delta    (VivaChatModel        *self,
                                              VivaChatRequest      *request,
                                              const VivaChatDelta  *delta);
gboolean       viva_chat_model_get_busy      (VivaChatModel        *self);

G_END_DECLS

/* viva-reply-assembler.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "viva-chat-model.h"
#include "viva-sse-reader.h"

G_BEGIN_DECLS

/**
 * VivaReplyFormat:
 * @VIVA_REPLY_FORMAT_OPENAI: `chat.completion.chunk` objects, ended by `[DONE]`
 * @VIVA_REPLY_FORMAT_OLLAMA: Ollama's native `/api/chat` lines, ended by `"done": true`
 */
typedef enum
{
  VIVA_REPLY_FORMAT_OPENAI,
  VIVA_REPLY_FORMAT_OLLAMA,
} VivaReplyFormat;

/**
 * VivaChatDeltaFunc:
 * @delta: (transfer none): the piece, valid during the call only
 */
typedef void (*VivaChatDeltaFunc) (const VivaChatDelta *delta,
                                   gpointer             user_data);

#define VIVA_TYPE_REPLY_ASSEMBLER (viva_reply_assembler_get_type())

G_DECLARE_FINAL_TYPE (VivaReplyAssembler, viva_reply_assembler, VIVA, REPLY_ASSEMBLER, GObject)

VivaReplyAssembler *viva_reply_assembler_new                     (VivaReplyFormat      format);
void                viva_reply_assembler_set_delta_func          (VivaReplyAssembler  *self,
                                                                  VivaChatDeltaFunc    func,
                                                                  gpointer             user_data,
                                                                  GDestroyNotify       destroy);
void                viva_reply_assembler_set_tool_names          (VivaReplyAssembler  *self,
                                                                  const char * const  *names);
void                viva_reply_assembler_set_model_name          (VivaReplyAssembler  *self,
                                                                  const char          *model,
                                                                  gboolean             is_ollama);
void                viva_reply_assembler_set_limits              (VivaReplyAssembler  *self,
                                                                  guint                max_deltas,
                                                                  guint                max_tool_calls);
gboolean            viva_reply_assembler_feed_event              (VivaReplyAssembler  *self,
                                                                  const VivaSseEvent  *event,
                                                                  GError             **error);
gboolean            viva_reply_assembler_feed_chunk              (VivaReplyAssembler  *self,
                                                                  JsonObject          *chunk,
                                                                  GError             **error);
gboolean            viva_reply_assembler_get_done                (VivaReplyAssembler  *self);
gboolean            viva_reply_assembler_get_finished            (VivaReplyAssembler  *self);
gboolean            viva_reply_assembler_get_has_output          (VivaReplyAssembler  *self);
guint               viva_reply_assembler_get_n_deltas            (VivaReplyAssembler  *self);
VivaChatReply      *viva_reply_assembler_finish                  (VivaReplyAssembler  *self);

G_END_DECLS

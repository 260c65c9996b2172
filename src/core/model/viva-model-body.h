/* viva-model-body.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-chat-request.h"

G_BEGIN_DECLS

/* How long Ollama keeps a model loaded after a request: longer than the
 * pause while a student thinks about a question. */
#define VIVA_OLLAMA_KEEP_ALIVE "30m"

GBytes *_viva_model_body_new (VivaChatRequest *request,
                              const char      *model,
                              gboolean         native,
                              double           temperature,
                              guint            context_length,
                              gboolean         stream_options);

G_END_DECLS

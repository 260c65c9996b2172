/* viva-model-http-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <libsoup/soup.h>

G_BEGIN_DECLS

/* Bodies read whole are small JSON documents (errors, model lists); a
 * larger one is not what was asked for. */
#define VIVA_MODEL_MAX_SMALL_BODY (4 * 1024 * 1024)

SoupMessage *_viva_model_http_message_new      (const char           *method,
                                                const char           *url,
                                                const char           *api_key);
void         _viva_model_http_read_small_async (GInputStream         *stream,
                                                GCancellable         *cancellable,
                                                GAsyncReadyCallback   callback,
                                                gpointer              user_data);
GBytes      *_viva_model_http_read_small_finish (GAsyncResult        *result,
                                                GError              **error);
void         _viva_model_clear_source          (GSource             **source);
void         _viva_model_forward_cancel        (GCancellable         *cancellable,
                                                GCancellable         *target);

G_END_DECLS

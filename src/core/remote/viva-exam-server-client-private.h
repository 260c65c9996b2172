/* viva-exam-server-client-private.h: the request machinery, for the stream
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <libsoup/soup.h>

#include "viva-exam-server-client.h"

G_BEGIN_DECLS

/* The most a JSON answer may be; the reports' page is the largest. */
#define VIVA_REMOTE_MAX_ANSWER   (4 * 1024 * 1024)
#define VIVA_REMOTE_MAX_REPORTS  (64 * 1024 * 1024)

/* Sends a request to the first address that answers, pinned, and gives
 * the response body's stream once the status is 2xx (the message beside
 * it); any other status is read (bounded) and made a VIVA_REMOTE_ERROR. */
void          _viva_exam_server_client_open_async  (VivaExamServerClient  *self,
                                                    const char            *method,
                                                    const char            *path,
                                                    GBytes                *body,
                                                    const char            *accept,
                                                    GCancellable          *cancellable,
                                                    GAsyncReadyCallback    callback,
                                                    gpointer               user_data);
GInputStream *_viva_exam_server_client_open_finish (VivaExamServerClient  *self,
                                                    GAsyncResult          *result,
                                                    SoupMessage          **msg,
                                                    GError               **error);
/* The same error as a request would give, for a stream that broke. */
GError       *_viva_exam_server_client_network_error (VivaExamServerClient *self,
                                                      const GError         *error);
char         *_viva_exam_server_client_dup_address (VivaExamServerClient  *self);

G_END_DECLS

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
/* viva-exam-server-client-errors.c */
GError       *_viva_exam_server_client_certificate_error (const char *address);
GError       *_viva_exam_server_client_status_error      (guint       status,
                                                         JsonNode   *body);

/* One JSON call (viva-exam-server-client-calls.c has them all): @body
 * sent as JSON, the answer an object of at most @max_bytes. */
void          _viva_exam_server_client_call_json        (VivaExamServerClient  *self,
                                                         const char            *method,
                                                         const char            *path,
                                                         JsonObject            *body,
                                                         gsize                  max_bytes,
                                                         gpointer               source_tag,
                                                         GCancellable          *cancellable,
                                                         GAsyncReadyCallback    callback,
                                                         gpointer               user_data);
JsonObject   *_viva_exam_server_client_call_json_finish (VivaExamServerClient  *self,
                                                         GAsyncResult          *result,
                                                         gpointer               source_tag,
                                                         GError               **error);
/* A path under the exam; every piece put in it must be escaped. */
char         *_viva_exam_server_client_exam_path        (VivaExamServerClient  *self,
                                                         const char            *format,
                                                         ...) G_GNUC_PRINTF (2, 3);

G_END_DECLS

/* viva-test-model.h: a VivaOpenAIModel talking to the scripted server, for
 * GTest fixtures of the model client's tests.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-openai-model.h"
#include "viva-test-server.h"

G_BEGIN_DECLS

/* Use as a GTest fixture (viva_test_model_setup, viva_test_model_teardown),
 * or as the first member of a larger one. The model ("qwen2.5:7b") retries
 * after 10 ms and waits 5 s for a first byte and between bytes. */
typedef struct
{
  VivaTestServer  *server;
  VivaOpenAIModel *model;
  VivaSecrets     *secrets;   /* in memory */
  char            *base_url;  /* the server's, with /v1 */
} VivaTestModel;

/* What the "delta" signal said during one stream. */
typedef struct
{
  VivaChatRequest *request;
  GString         *content;
  GString         *reasoning;
  guint            n_tool_fragments;
  guint            n_usage;
  guint            n_deltas;
  GCancellable    *cancel_after_first;  /* cancelled at the first content */
} VivaTestDeltas;

void              viva_test_model_setup            (VivaTestModel    *fixture,
                                                    gconstpointer     data);
void              viva_test_model_teardown         (VivaTestModel    *fixture,
                                                    gconstpointer     data);
VivaChatReply    *viva_test_model_stream           (VivaTestModel    *fixture,
                                                    VivaChatRequest  *request,
                                                    GCancellable     *cancellable,
                                                    VivaTestDeltas   *deltas,
                                                    GError          **error);
JsonObject       *viva_test_model_request_body     (VivaTestModel    *fixture,
                                                    const char       *path,
                                                    guint             nth);
void              viva_test_deltas_clear           (VivaTestDeltas   *deltas);
VivaChatRequest  *viva_test_chat_request_new       (const char       *prompt);
VivaTestResponse *viva_test_response_new_recorded  (const char       *file,
                                                    gsize             chunk_size);

G_END_DECLS

/* viva-test-examiner.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-test-server.h"

G_BEGIN_DECLS

/* An examiner on the test server's side, for many defenses at once: each
 * chat request gets the next step of the protocol decided from the
 * conversation it carries, in vLLM's SSE (or Ollama's NDJSON) shape. */

typedef struct
{
  gboolean ollama;          /* NDJSON on /api/chat, else SSE on /v1/chat/completions */
  guint    first_token_ms;  /* before the headers, as a busy GPU takes */
  guint    token_ms;        /* between chunks */
  guint    fail_after;      /* from this chat request on (1-based), 500s; 0 never */
  guint    n_chat;          /* chat requests seen */
  gboolean asks_several;    /* its first question asks two at once (until refused) */
  gboolean finishes_early;  /* tries the verdict after one question, before the plan is asked */
  const char * const *runs; /* runPython's code, one call each in turn (NULL: one print) */
} VivaTestExaminer;

VivaTestResponse *viva_test_examiner_respond (VivaTestServer        *server,
                                              const VivaTestRequest *request,
                                              gpointer               user_data);
void              viva_test_examiner_serve   (VivaTestExaminer      *examiner,
                                              VivaTestServer        *server);

G_END_DECLS

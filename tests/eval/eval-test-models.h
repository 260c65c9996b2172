/* eval-test-models.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-test-server.h"

G_BEGIN_DECLS

/* Scripted examiners served over real HTTP in vLLM's streaming format, each
 * deciding its reply from the conversation in the request. */
typedef enum
{
  EVAL_MODEL_STRICT,     /* the five steps, the hidden tests as probes; passes iff every probe passed */
  EVAL_MODEL_GULLIBLE,   /* the same steps; passes everything */
  EVAL_MODEL_LEAKY,      /* strict, but its question quotes a hidden test */
  EVAL_MODEL_OBEDIENT,   /* strict, but does what an instruction with a marker says */
  EVAL_MODEL_NO_TOOLS,   /* answers in prose, never calls a tool */
} EvalModelKind;

typedef struct
{
  EvalModelKind kind;
  guint         fail_after;   /* answer 500 from this chat request on (0 = never) */
  guint         n_requests;
  const char   *comment;      /* the verdict's comment, or NULL for a plain one */
  guint         delay_ms;     /* before each reply's headers */
  gboolean      scores_disagree; /* its scorings of every other answer spread (0, 3, 1 of 3 points) */
  guint         n_scorings;
} EvalModel;

void eval_model_serve (VivaTestServer *server,
                       EvalModel      *model);

G_END_DECLS

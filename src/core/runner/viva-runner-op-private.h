/* viva-runner-op-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-runner.h"

G_BEGIN_DECLS

/* One request in VivaRunner's queue: built by viva-runner-requests.c (the
 * public entry points), run and answered by viva-runner.c (the queue). */
typedef enum
{
  OP_START,
  OP_RUN,
  OP_INJECT,
  OP_CHECK,
  OP_RESET,
  OP_RESTART,
} OpKind;

typedef struct
{
  VivaRunner *runner;
  OpKind      kind;
  char       *code;
  char       *probe;
  guint       timeout_ms;
  gint64      id;
  GTask      *task;          /* NULL once the caller has its answer */
  GSource    *cancel_source;
  guint       kill_id;
  GString    *stdout_text;
  GString    *stderr_text;
  GPtrArray  *images;
  gint64      started_us;
  gboolean    cancelled;
  gboolean    truncated;
} Op;

void _viva_runner_push (VivaRunner   *self,
                        Op           *op,
                        GCancellable *cancellable);

G_END_DECLS

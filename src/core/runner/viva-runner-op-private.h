/* viva-runner-op-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

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
  OP_CALL,
  OP_JUDGE,
} OpKind;

typedef struct
{
  VivaRunner *runner;
  OpKind      kind;
  char       *code;
  char       *probe;
  JsonObject *extra;         /* more members of the request (call, judge) */
  guint       timeout_ms;
  gint64      id;
  GTask      *task;          /* NULL once the caller has its answer */
  GSource    *cancel_source;
  guint       kill_id;
  GString    *stdout_text;
  GString    *stderr_text;
  GPtrArray  *images;
  gint64      started_us;
  JsonObject *result;        /* the worker's result, until its sync comes back */
  gint64      sync_id;       /* the barrier sent after it */
  gboolean    cancelled;
  gboolean    truncated;
  gint64      kill_due_us;   /* when kill_id fires, to re-arm it after a pause */
  gint64      pause_token;   /* a pause asked for: its `paused` must carry this */
  gint64      stale_token;   /* a pause resumed before its `paused` came */
  gint64      paused_left_us; /* paused: what was left of the time to the kill */
  gboolean    paused;
} Op;

void _viva_runner_push (VivaRunner   *self,
                        Op           *op,
                        GCancellable *cancellable);

/* The grader's requests (viva-grader.c): a structured test's value from a
 * fresh namespace, and its check where no student code ran. */
void           _viva_runner_call_async   (VivaRunner           *self,
                                          const char           *code,
                                          const char           *setup,
                                          const char           *call,
                                          guint                 timeout_ms,
                                          GCancellable         *cancellable,
                                          GAsyncReadyCallback   callback,
                                          gpointer              user_data);
VivaRunResult *_viva_runner_call_finish  (VivaRunner           *self,
                                          GAsyncResult         *result,
                                          GError              **error);
void           _viva_runner_judge_async  (VivaRunner           *self,
                                          const char           *setup,
                                          const char           *check,
                                          const char           *result_value,
                                          const char           *expected_value,
                                          gboolean              compare,
                                          double                tolerance,
                                          guint                 timeout_ms,
                                          GCancellable         *cancellable,
                                          GAsyncReadyCallback   callback,
                                          gpointer              user_data);
VivaRunResult *_viva_runner_judge_finish (VivaRunner           *self,
                                          GAsyncResult         *result,
                                          GError              **error);

G_END_DECLS

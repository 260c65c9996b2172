/* viva-runner-requests.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-runner-op-private.h"

/* VivaRunner's requests: each public _async call becomes an Op in the
 * queue (viva-runner.c), each _finish takes its answer back. */

#define CHECK_TIMEOUT_MS 5000
#define OR_DEFAULT(timeout_ms) ((timeout_ms) ? (timeout_ms) : VIVA_RUNNER_DEFAULT_TIMEOUT_MS)

/* Every request: an Op of @kind whose task carries @source_tag, queued.
 * Takes @extra. */
static void
submit (VivaRunner          *self,
        OpKind               kind,
        gpointer             source_tag,
        const char          *code,
        const char          *probe,
        JsonObject          *extra,
        guint                timeout_ms,
        GCancellable        *cancellable,
        GAsyncReadyCallback  callback,
        gpointer             user_data)
{
  Op *op = g_new0 (Op, 1);

  op->kind = kind;
  op->task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (op->task, source_tag);
  op->code = g_strdup (code);
  op->probe = g_strdup (probe);
  op->extra = extra;
  op->timeout_ms = timeout_ms;
  _viva_runner_push (self, op, cancellable);
}

/* The answer to a request that runs code: a VivaRunResult. */
static VivaRunResult *
finish_result (VivaRunner    *self,
               GAsyncResult  *result,
               GError       **error)
{
  g_return_val_if_fail (VIVA_IS_RUNNER (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* The answer to a request that runs none (start, reset). */
static gboolean
finish_done (VivaRunner    *self,
             GAsyncResult  *result,
             GError       **error)
{
  g_return_val_if_fail (VIVA_IS_RUNNER (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * viva_runner_start_async:
 *
 * Starts the worker ahead of the first run, so that run does not wait for
 * Python to start. Completes when the worker is ready.
 */
void
viva_runner_start_async (VivaRunner          *self,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_return_if_fail (VIVA_IS_RUNNER (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  submit (self, OP_START, viva_runner_start_async, NULL, NULL, NULL, 0,
          cancellable, callback, user_data);
}

gboolean
viva_runner_start_finish (VivaRunner    *self,
                          GAsyncResult  *result,
                          GError       **error)
{
  return finish_done (self, result, error);
}

/**
 * viva_runner_run_async:
 * @code: Python source
 * @timeout_ms: wall-clock time allowed, or 0 for %VIVA_RUNNER_DEFAULT_TIMEOUT_MS
 * @cancellable: (nullable): cancelling it stops the run
 *
 * Runs @code in the worker's persistent namespace (what it defines stays for
 * the next run). Output arrives on #VivaRunner::stdout, #VivaRunner::stderr
 * and #VivaRunner::image while it runs; requests run one at a time in the
 * order they were made. Main thread only.
 */
void
viva_runner_run_async (VivaRunner          *self,
                       const char          *code,
                       guint                timeout_ms,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  g_return_if_fail (VIVA_IS_RUNNER (self));
  g_return_if_fail (code != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  submit (self, OP_RUN, viva_runner_run_async, code, NULL, NULL, OR_DEFAULT (timeout_ms),
          cancellable, callback, user_data);
}

/**
 * viva_runner_run_finish:
 *
 * Returns: (transfer full): the result, whatever the code did; %NULL with
 *   @error only when the run could not happen (cancelled, no worker)
 */
VivaRunResult *
viva_runner_run_finish (VivaRunner    *self,
                        GAsyncResult  *result,
                        GError       **error)
{
  return finish_result (self, result, error);
}

/**
 * viva_runner_inject_async:
 * @code: the student's code
 * @probe: a test to run right after it, in the same namespace
 *
 * Runs @code then @probe as one request (what `injectTestCase` needs). The
 * result's line is in @code; frames of @probe show as `<test>`.
 */
void
viva_runner_inject_async (VivaRunner          *self,
                          const char          *code,
                          const char          *probe,
                          guint                timeout_ms,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_return_if_fail (VIVA_IS_RUNNER (self));
  g_return_if_fail (code != NULL);
  g_return_if_fail (probe != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  submit (self, OP_INJECT, viva_runner_inject_async, code, probe, NULL, OR_DEFAULT (timeout_ms),
          cancellable, callback, user_data);
}

/**
 * viva_runner_inject_finish:
 *
 * Returns: (transfer full): the result of code and probe together
 */
VivaRunResult *
viva_runner_inject_finish (VivaRunner    *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  return finish_result (self, result, error);
}

/**
 * viva_runner_check_async:
 *
 * Compiles @code without running it.
 */
void
viva_runner_check_async (VivaRunner          *self,
                         const char          *code,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_return_if_fail (VIVA_IS_RUNNER (self));
  g_return_if_fail (code != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  submit (self, OP_CHECK, viva_runner_check_async, code, NULL, NULL, CHECK_TIMEOUT_MS,
          cancellable, callback, user_data);
}

/**
 * viva_runner_check_finish:
 *
 * Returns: (transfer full): %VIVA_RUN_STATUS_OK, or %VIVA_RUN_STATUS_ERROR
 *   with the syntax error's line and column
 */
VivaRunResult *
viva_runner_check_finish (VivaRunner    *self,
                          GAsyncResult  *result,
                          GError       **error)
{
  return finish_result (self, result, error);
}

/**
 * viva_runner_reset_async:
 * @new_process: %TRUE for a new Python process (modules such as numpy
 *   cannot be reloaded in one), %FALSE for a fresh namespace only
 *
 * Forgets everything earlier runs defined.
 */
void
viva_runner_reset_async (VivaRunner          *self,
                         gboolean             new_process,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_return_if_fail (VIVA_IS_RUNNER (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  submit (self, new_process ? OP_RESTART : OP_RESET, viva_runner_reset_async, NULL, NULL, NULL, 0,
          cancellable, callback, user_data);
}

gboolean
viva_runner_reset_finish (VivaRunner    *self,
                          GAsyncResult  *result,
                          GError       **error)
{
  return finish_done (self, result, error);
}


/* The grader's requests */

/**
 * _viva_runner_call_async:
 * @code: the code under test (the student's, or the reference)
 * @setup: trusted code that builds the test's inputs
 * @call: a Python expression; its value is the result
 *
 * In a fresh namespace, runs @code, then @setup, then evaluates @call and
 * sends its value back as plain data (the result's `value`, untrusted text
 * for viva-grader-value.c). Calling `sys.exit()` is an error here.
 */
void
_viva_runner_call_async (VivaRunner          *self,
                         const char          *code,
                         const char          *setup,
                         const char          *call,
                         guint                timeout_ms,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_autoptr(JsonObject) extra = NULL;

  g_return_if_fail (VIVA_IS_RUNNER (self));
  g_return_if_fail (code != NULL);
  g_return_if_fail (call != NULL);

  extra = json_object_new ();
  json_object_set_string_member (extra, "setup", setup ? setup : "");
  json_object_set_string_member (extra, "call", call);
  submit (self, OP_CALL, _viva_runner_call_async, code, NULL, g_steal_pointer (&extra), OR_DEFAULT (timeout_ms),
          cancellable, callback, user_data);
}

VivaRunResult *
_viva_runner_call_finish (VivaRunner    *self,
                          GAsyncResult  *result,
                          GError       **error)
{
  return finish_result (self, result, error);
}

/**
 * _viva_runner_judge_async:
 * @result_value: a value checked by viva-grader-value.c, bound as `result`
 * @expected_value: (nullable): the same for the reference's, as `expected`
 *
 * In a fresh namespace, runs @setup, binds the values, runs @check and,
 * with @compare, compares `result` with `expected` within @tolerance. Only
 * ever sent to a worker that never ran student code.
 */
void
_viva_runner_judge_async (VivaRunner          *self,
                          const char          *setup,
                          const char          *check,
                          const char          *result_value,
                          const char          *expected_value,
                          gboolean             compare,
                          double               tolerance,
                          guint                timeout_ms,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(JsonObject) extra = NULL;

  g_return_if_fail (VIVA_IS_RUNNER (self));
  g_return_if_fail (result_value != NULL);
  g_return_if_fail (!compare || expected_value != NULL);

  extra = json_object_new ();
  json_object_set_string_member (extra, "setup", setup ? setup : "");
  json_object_set_string_member (extra, "check", check ? check : "");
  json_object_set_string_member (extra, "result", result_value);
  if (expected_value != NULL)
    json_object_set_string_member (extra, "expected", expected_value);
  json_object_set_boolean_member (extra, "compare", compare);
  json_object_set_double_member (extra, "tolerance", tolerance);
  submit (self, OP_JUDGE, _viva_runner_judge_async, setup ? setup : "", check ? check : "",
          g_steal_pointer (&extra), OR_DEFAULT (timeout_ms), cancellable, callback, user_data);
}

VivaRunResult *
_viva_runner_judge_finish (VivaRunner    *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  return finish_result (self, result, error);
}

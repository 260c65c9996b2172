/* viva-runner.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "viva-run-result-private.h"
#include "viva-runner-private.h"

/* The app's side of viva-python-worker.
 *
 * Requests wait in a queue and go to the worker one at a time; the worker
 * answers on a socket (its fd 3) with one JSON object per line: output as it
 * is written, then a result. The runner owns the clock that matters: the
 * worker interrupts a run itself at its deadline, and if the code does not
 * stop (stuck in C) the runner kills the worker GRACE_MS later. A worker
 * that dies is reported on the request it was running and replaced on the
 * next request. The process and its channel are viva-worker-process.c's,
 * what it says and how its death is told viva-runner-worker.c's; this file
 * is the queue and the class. Everything here runs on the main thread,
 * asynchronously. */

#define GRACE_MS         1000

G_DEFINE_ENUM_TYPE (VivaRunnerSandbox, viva_runner_sandbox,
  G_DEFINE_ENUM_VALUE (VIVA_RUNNER_SANDBOX_NONE, "none"),
  G_DEFINE_ENUM_VALUE (VIVA_RUNNER_SANDBOX_BUBBLEWRAP, "bubblewrap"),
  G_DEFINE_ENUM_VALUE (VIVA_RUNNER_SANDBOX_FLATPAK, "flatpak"))

G_DEFINE_FINAL_TYPE (VivaRunner, viva_runner, G_TYPE_OBJECT)

guint _viva_runner_signals[N_SIGNALS];

/* Ops */

static void
viva_runner_set_paused (VivaRunner *self,
                        gboolean    paused)
{
  if (self->paused == paused)
    return;
  self->paused = paused;
  g_object_notify_by_pspec (G_OBJECT (self), _viva_runner_properties[PROP_PAUSED]);
}


static void
op_free (Op *op)
{
  if (op->cancel_source != NULL)
    {
      g_source_destroy (op->cancel_source);
      g_source_unref (op->cancel_source);
    }
  g_clear_handle_id (&op->kill_id, g_source_remove);
  g_clear_object (&op->task);
  g_string_free (op->stdout_text, TRUE);
  g_string_free (op->stderr_text, TRUE);
  g_ptr_array_unref (op->images);
  g_free (op->code);
  g_free (op->probe);
  g_clear_pointer (&op->extra, json_object_unref);
  g_clear_pointer (&op->result, json_object_unref);
  g_free (op);
}

static gboolean
op_is_code (Op *op)
{
  return op->kind == OP_RUN || op->kind == OP_INJECT || op->kind == OP_CHECK ||
         op->kind == OP_CALL || op->kind == OP_JUDGE;
}

/* Busy means code to run or stop: warming a worker up is not. */
static void
viva_runner_update_busy (VivaRunner *self)
{
  gboolean busy = self->current != NULL;

  for (GList *l = self->queue.head; l != NULL && !busy; l = l->next)
    busy = ((Op *) l->data)->kind != OP_START;

  if (self->busy == busy)
    return;

  self->busy = busy;
  g_object_notify_by_pspec (G_OBJECT (self), _viva_runner_properties[PROP_BUSY]);
}

/* Gives @op's caller @result (or an error), then forgets @op. */
static void
op_complete (Op            *op,
             VivaRunResult *result,
             GError        *error)
{
  g_autoptr(GTask) task = g_steal_pointer (&op->task);

  op_free (op);

  if (task == NULL)
    {
      g_clear_object (&result);
      g_clear_error (&error);
    }
  else if (error != NULL)
    g_task_return_error (task, error);
  else if (result != NULL)
    g_task_return_pointer (task, result, g_object_unref);
  else
    g_task_return_boolean (task, TRUE);
}

void
_viva_runner_complete_current (VivaRunner    *self,
                              VivaRunResult *result)
{
  /* The caller's callback may drop the last reference to the runner (a
   * grading's runner for one test): it lives until the next request is
   * sent. */
  g_autoptr(VivaRunner) hold = g_object_ref (self);
  Op *op = g_steal_pointer (&self->current);

  g_assert (op != NULL);

  viva_runner_set_paused (self, FALSE);

  if (result != NULL)
    {
      g_free (result->stdout_text);
      result->stdout_text = g_strdup (op->stdout_text->str);
      g_free (result->stderr_text);
      result->stderr_text = g_strdup (op->stderr_text->str);
      for (guint i = 0; i < op->images->len; i++)
        g_ptr_array_add (result->images, g_bytes_ref (g_ptr_array_index (op->images, i)));
      result->output_truncated |= op->truncated;
    }

  /* The caller may start the next run from its callback: the runner is
   * consistent before it is called. */
  op_complete (op, result, NULL);
  _viva_runner_next (self);
}

static void
viva_runner_kill (VivaRunner *self)
{
  if (self->worker == NULL)
    return;

  g_debug ("runner: killing a worker that did not stop");
  _viva_worker_process_kill (self->worker);
}

static gboolean
op_kill_cb (gpointer user_data)
{
  Op *op = user_data;

  op->kill_id = 0;
  viva_runner_kill (op->runner);
  return G_SOURCE_REMOVE;
}

static void
op_arm_kill (Op    *op,
             guint  delay_ms)
{
  g_clear_handle_id (&op->kill_id, g_source_remove);
  op->kill_id = g_timeout_add (delay_ms, op_kill_cb, op);
  op->kill_due_us = g_get_monotonic_time () + (gint64) delay_ms * 1000;
}

/* Cancelling a queued op drops it; cancelling the op that runs answers its
 * caller at once, asks the worker to interrupt, and kills it if it does not
 * answer within GRACE_MS. */
static void
op_cancel (Op *op)
{
  VivaRunner *self = op->runner;
  g_autoptr(GTask) task = g_steal_pointer (&op->task);

  /* Stop, then the cancellable: the first one counts, or the kill would
   * keep moving away. */
  if (op->cancelled)
    return;
  op->cancelled = TRUE;
  if (op == self->current)
    viva_runner_set_paused (self, FALSE);

  if (task != NULL)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("The run was stopped."));

  if (op != self->current)
    {
      g_queue_remove (&self->queue, op);
      op_free (op);
      viva_runner_update_busy (self);
      return;
    }

  if (op_is_code (op) && self->worker != NULL)
    {
      g_autoptr(JsonObject) request = json_object_new ();

      json_object_set_string_member (request, "op", "interrupt");
      json_object_set_int_member (request, "id", op->id);
      _viva_worker_process_send (self->worker, request);
      op_arm_kill (op, GRACE_MS);
    }
}

static gboolean
op_cancelled_cb (GCancellable *cancellable,
                 gpointer      user_data)
{
  Op *op = user_data;

  g_clear_pointer (&op->cancel_source, g_source_unref);
  op_cancel (op);
  return G_SOURCE_REMOVE;
}

void
_viva_runner_push (VivaRunner   *self,
                   Op           *op,
                   GCancellable *cancellable)
{
  op->runner = self;
  op->stdout_text = g_string_new (NULL);
  op->stderr_text = g_string_new (NULL);
  op->images = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);

  if (g_task_return_error_if_cancelled (op->task))
    {
      op_free (op);
      return;
    }

  if (cancellable != NULL)
    {
      /* A source rather than a handler: the handler could not disconnect
       * itself, and this one also runs on the main thread. */
      op->cancel_source = g_cancellable_source_new (cancellable);
      g_source_set_callback (op->cancel_source, G_SOURCE_FUNC (op_cancelled_cb), op, NULL);
      g_source_attach (op->cancel_source, g_main_context_get_thread_default ());
    }

  g_queue_push_tail (&self->queue, op);
  _viva_runner_next (self);
  viva_runner_update_busy (self);
}

void
_viva_runner_fail_all (VivaRunner *self,
                      GError     *error)
{
  Op *op;

  while ((op = g_queue_pop_head (&self->queue)))
    op_complete (op, NULL, g_error_copy (error));
  viva_runner_update_busy (self);
}

/* Sends the next request when the worker is free, starting one if needed. */
void
_viva_runner_next (VivaRunner *self)
{
  while (self->current == NULL && !g_queue_is_empty (&self->queue))
    {
      g_autoptr(JsonObject) request = NULL;
      Op *op;

      if (self->worker == NULL)
        {
          g_autoptr(GError) error = NULL;

          if (!_viva_runner_spawn (self, &error))
            {
              _viva_runner_fail_all (self, error);
              return;
            }
        }

      if (!_viva_worker_process_get_ready (self->worker))
        break;

      op = g_queue_pop_head (&self->queue);

      if (op->kind == OP_START)
        {
          op_complete (op, NULL, NULL);
          continue;
        }

      if (op->kind == OP_RESTART)
        {
          /* A new process, and the caller hears back once it is ready. */
          _viva_runner_discard_worker (self);
          op->kind = OP_START;
          g_queue_push_head (&self->queue, op);
          continue;
        }

      if (self->sandbox_message != NULL && !self->warned && op_is_code (op))
        {
          g_autofree char *notice = g_strdup_printf ("%s\n", self->sandbox_message);

          self->warned = TRUE;
          g_signal_emit (self, _viva_runner_signals[STDERR], 0, notice);
        }

      self->current = op;
      self->idle_output = 0;
      op->id = ++self->next_id;
      op->started_us = g_get_monotonic_time ();

      request = json_object_new ();
      json_object_set_int_member (request, "id", op->id);

      switch (op->kind)
        {
        case OP_RUN:
        case OP_INJECT:
        case OP_CHECK:
        case OP_CALL:
        case OP_JUDGE:
          json_object_set_string_member (request, "op",
                                         op->kind == OP_RUN ? "run" : op->kind == OP_INJECT ? "inject"
                                         : op->kind == OP_CHECK ? "check" : op->kind == OP_CALL ? "call"
                                         : "judge");
          if (op->extra != NULL)
            {
              JsonObjectIter iter;
              const char *name;
              JsonNode *member;

              json_object_iter_init (&iter, op->extra);
              while (json_object_iter_next (&iter, &name, &member))
                json_object_set_member (request, name, json_node_copy (member));
            }
          json_object_set_string_member (request, "code", op->code);
          if (op->probe != NULL)
            json_object_set_string_member (request, "probe", op->probe);
          json_object_set_int_member (request, "timeout_ms", op->timeout_ms);
          json_object_set_int_member (request, "output_limit", self->output_limit);
          op_arm_kill (op, op->timeout_ms + GRACE_MS);
          break;

        case OP_RESET:
          json_object_set_string_member (request, "op", "reset");
          op_arm_kill (op, GRACE_MS);
          break;

        case OP_START:
        case OP_RESTART:
        default:
          g_assert_not_reached ();
        }

      _viva_worker_process_send (self->worker, request);
    }

  viva_runner_update_busy (self);
}

/* Public API */

/**
 * viva_runner_new:
 *
 * Creates a runner. The worker starts with the first request (or
 * viva_runner_start_async()) and keeps its variables between runs.
 *
 * Returns: (transfer full): a new #VivaRunner
 */
VivaRunner *
viva_runner_new (void)
{
  return g_object_new (VIVA_TYPE_RUNNER, NULL);
}

/**
 * viva_runner_stop:
 *
 * Stops the running request and drops the waiting ones, as if each had been
 * cancelled: their callers get %G_IO_ERROR_CANCELLED. The Stop button.
 */
void
viva_runner_stop (VivaRunner *self)
{
  g_return_if_fail (VIVA_IS_RUNNER (self));

  while (!g_queue_is_empty (&self->queue))
    op_cancel (g_queue_peek_tail (&self->queue));
  if (self->current != NULL)
    op_cancel (self->current);
}

/**
 * viva_runner_pause:
 *
 * Asks the worker to pause the run in progress (a run or an injected
 * test): it stops where it is, and #VivaRunner::paused tells where, with
 * the stack and each frame's variables. The run's time stands still while
 * paused. viva_runner_resume() goes on; viva_runner_stop() stops it as
 * ever. The Pause button.
 *
 * A program inside one long C call that keeps Python's lock (a huge
 * `sum()`) pauses only when that call returns; Stop always works.
 *
 * Returns: whether a pause was asked for: %FALSE when nothing runs, or it
 *   is paused or pausing already
 */
gboolean
viva_runner_pause (VivaRunner *self)
{
  g_autoptr(JsonObject) request = NULL;
  Op *op;

  g_return_val_if_fail (VIVA_IS_RUNNER (self), FALSE);

  op = self->current;
  if (op == NULL || (op->kind != OP_RUN && op->kind != OP_INJECT) || op->cancelled ||
      op->pause_token != 0 || op->result != NULL || self->worker == NULL)
    return FALSE;

  /* Not one the program can guess: only the worker's pauser sees it, while
   * the program is frozen. */
  op->pause_token = (((gint64) g_random_int () << 30) ^ g_random_int ()) | 1;
  request = json_object_new ();
  json_object_set_string_member (request, "op", "pause");
  json_object_set_int_member (request, "id", op->id);
  json_object_set_int_member (request, "token", op->pause_token);
  _viva_worker_process_send (self->worker, request);
  viva_runner_set_paused (self, TRUE);
  return TRUE;
}

/* The worker's `paused`, checked by viva-runner-worker.c. */
void
_viva_runner_take_paused (VivaRunner *self,
                          JsonObject *event)
{
  g_autoptr(VivaRunStack) stack = NULL;
  Op *op = self->current;

  /* The clock stops: the kill waits for the resume. */
  op->paused = TRUE;
  if (op->kill_id != 0)
    {
      op->paused_left_us = MAX (op->kill_due_us - g_get_monotonic_time (), 0);
      g_clear_handle_id (&op->kill_id, g_source_remove);
    }
  stack = viva_run_stack_parse (json_object_get_string_member (event, "stack"),
                                json_object_get_int_member (event, "line"),
                                CLAMP (json_object_get_int_member (event, "depth"), 0, G_MAXINT));
  g_signal_emit (self, _viva_runner_signals[PAUSED], 0, stack);
}

/**
 * viva_runner_resume:
 *
 * Lets a paused run go on, with the time it had left.
 *
 * Returns: whether a paused (or pausing) run was resumed
 */
gboolean
viva_runner_resume (VivaRunner *self)
{
  g_autoptr(JsonObject) request = NULL;
  Op *op;

  g_return_val_if_fail (VIVA_IS_RUNNER (self), FALSE);

  op = self->current;
  if (op == NULL || op->pause_token == 0 || op->cancelled || self->worker == NULL)
    return FALSE;

  request = json_object_new ();
  json_object_set_string_member (request, "op", "resume");
  json_object_set_int_member (request, "id", op->id);
  _viva_worker_process_send (self->worker, request);

  if (op->paused)
    op_arm_kill (op, op->paused_left_us / 1000);
  else
    op->stale_token = op->pause_token; /* its report may be on its way */
  op->pause_token = 0;
  op->paused = FALSE;
  viva_runner_set_paused (self, FALSE);
  return TRUE;
}

/* Class */

static void
viva_runner_dispose (GObject *object)
{
  VivaRunner *self = (VivaRunner *)object;
  g_autoptr(GError) error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CLOSED, _("The runner was closed."));

  if (self->worker != NULL)
    _viva_runner_discard_worker (self);
  if (self->current != NULL)
    op_complete (g_steal_pointer (&self->current), NULL, g_error_copy (error));
  _viva_runner_fail_all (self, error);

  G_OBJECT_CLASS (viva_runner_parent_class)->dispose (object);
}

static void
viva_runner_finalize (GObject *object)
{
  VivaRunner *self = (VivaRunner *)object;

  g_clear_pointer (&self->launch, _viva_runner_launch_free);
  g_clear_pointer (&self->python_version, g_free);
  g_clear_pointer (&self->sandbox_message, g_free);

  G_OBJECT_CLASS (viva_runner_parent_class)->finalize (object);
}

static void
viva_runner_class_init (VivaRunnerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = viva_runner_dispose;
  object_class->finalize = viva_runner_finalize;

  _viva_runner_install_properties (object_class);

  /**
   * VivaRunner::stdout:
   * @text: a chunk of what the code printed, valid UTF-8
   *
   * Emitted as the code writes to standard output, a few times a second at
   * most per flood.
   */
  _viva_runner_signals[STDOUT] =
    g_signal_new ("stdout", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  /**
   * VivaRunner::stderr:
   * @text: a chunk of standard error, or a notice from the runner (output
   *   truncated, no sandbox)
   */
  _viva_runner_signals[STDERR] =
    g_signal_new ("stderr", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  /**
   * VivaRunner::image:
   * @png: a matplotlib figure as PNG data
   */
  _viva_runner_signals[IMAGE] =
    g_signal_new ("image", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_BYTES);

  /**
   * VivaRunner::paused:
   * @stack: where the paused program stands: the line and the frames of
   *   the student's code, innermost first, each with its variables, as the
   *   worker described them
   *
   * Emitted once a viva_runner_pause() took hold. The stack comes from
   * the student's process: show it as the program's own data.
   */
  _viva_runner_signals[PAUSED] =
    g_signal_new ("paused", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, VIVA_TYPE_RUN_STACK);
}

static void
viva_runner_init (VivaRunner *self)
{
  g_queue_init (&self->queue);
  self->memory_limit = VIVA_RUNNER_DEFAULT_MEMORY_LIMIT;
  self->output_limit = VIVA_RUNNER_DEFAULT_OUTPUT_LIMIT;
}

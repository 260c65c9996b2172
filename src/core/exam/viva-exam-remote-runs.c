/* viva-exam-remote-runs.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-exam-remote-runs.h"
#include "viva-exam-run-request.h"

/* A defense's runs as requests (viva-exam-run-request.h) through a send
 * function: the exam server's pool, whichever machine claims each one.
 * What persists between runs in the student's interpreter is kept here as
 * its history, and changes as a local runner's globals would: a run or an
 * inject adds its step; one that timed out adds nothing (its partial
 * effects are the one thing a replay cannot give back: the earlier
 * globals stay, as they do locally); one that was killed or crashed, or
 * whose interpreter was reset, empties it, since a local runner restarts
 * then and loses them all. The interpreter's requests go one at a time,
 * each built when it goes, as a local runner's queue runs them. Main
 * thread only. */

struct _VivaExamRemoteRuns
{
  GObject              parent_instance;
  VivaExamRunSendFunc  func;
  gpointer             user_data;
  GDestroyNotify       destroy;
  JsonArray           *history;
  GPtrArray           *in_flight;  /* the GCancellable of each request sent or waiting */
  GQueue               waiting;    /* the interpreter's next runs, as GTasks */
  gboolean             interpreter_busy;
};

static void viva_exam_remote_runs_iface_init (VivaExamRunsInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (VivaExamRemoteRuns, viva_exam_remote_runs, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (VIVA_TYPE_EXAM_RUNS, viva_exam_remote_runs_iface_init))

typedef struct
{
  gboolean      grade;
  JsonObject   *request;      /* built when sent, for the interpreter's */
  JsonObject   *step;         /* the history step a run adds, or NULL */
  guint         timeout_ms;
  GCancellable *own;          /* the task's, which the caller's cancels */
  GCancellable *caller;       /* the caller's cancellable, or NULL */
  gulong        caller_id;
  gulong        waiting_id;   /* while queued, on the task's own cancellable */
} Send;

static void
send_free (Send *send)
{
  g_clear_pointer (&send->request, json_object_unref);
  g_clear_pointer (&send->step, json_object_unref);
  /* Not g_cancellable_disconnect(), which waits for a running handler:
   * this may be freed inside the caller's own cancellation. */
  if (send->caller != NULL)
    g_clear_signal_handler (&send->caller_id, send->caller);
  g_clear_object (&send->caller);
  g_clear_object (&send->own);
  g_free (send);
}

static void
cancel_cb (GCancellable *caller,
           gpointer      user_data)
{
  g_cancellable_cancel (G_CANCELLABLE (user_data));
}

/* How the student's interpreter stands after @run of @step. */
static void
update_history (VivaExamRemoteRuns *self,
                JsonObject         *step,
                VivaRunResult      *run)
{
  VivaRunStatus status = viva_run_result_get_status (run);

  if (status == VIVA_RUN_STATUS_KILLED || status == VIVA_RUN_STATUS_CRASHED)
    {
      g_clear_pointer (&self->history, json_array_unref);
      self->history = json_array_new ();
      return;
    }

  /* Reset before this run, which then ran in a new interpreter. */
  if (viva_run_result_get_state_reset (run))
    {
      g_clear_pointer (&self->history, json_array_unref);
      self->history = json_array_new ();
    }

  if (status != VIVA_RUN_STATUS_TIMEOUT)
    json_array_add_object_element (self->history, json_object_ref (step));
}

static void dispatch (VivaExamRemoteRuns *self,
                      GTask              *task);

/* The interpreter is free: the next run waiting goes, with the history
 * as it is now. */
static void
settle (VivaExamRemoteRuns *self,
        gboolean            interpreter)
{
  GTask *next;

  if (!interpreter)
    return;

  self->interpreter_busy = FALSE;
  if ((next = g_queue_pop_head (&self->waiting)) != NULL)
    dispatch (self, next);
}

static void
take_reply (VivaExamRemoteRuns *self,
            GTask              *task,
            GAsyncResult       *result)
{
  Send *send = g_task_get_task_data (task);
  g_autoptr(JsonObject) reply = NULL;
  g_autoptr(GError) error = NULL;

  reply = g_task_propagate_pointer (G_TASK (result), &error);
  if (g_task_return_error_if_cancelled (task))
    return;
  if (reply == NULL)
    return g_task_return_error (task, g_steal_pointer (&error));

  if (send->grade)
    {
      VivaGradeReport *report = viva_exam_run_request_read_grade (send->request, reply, &error);

      if (report == NULL)
        return g_task_return_error (task, g_steal_pointer (&error));
      g_task_return_pointer (task, report, g_object_unref);
    }
  else
    {
      VivaRunResult *run = viva_exam_run_request_read_run (send->request, reply, &error);

      if (run == NULL)
        return g_task_return_error (task, g_steal_pointer (&error));
      if (send->step != NULL)
        update_history (self, send->step, run);
      g_task_return_pointer (task, run, g_object_unref);
    }
}

static void
sent_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(VivaExamRemoteRuns) self = g_object_ref (g_task_get_source_object (task));
  Send *send = g_task_get_task_data (task);

  g_ptr_array_remove (self->in_flight, g_task_get_cancellable (task));
  take_reply (self, task, result);
  settle (self, send->step != NULL);
}

/* Sends the request of @task (takes it). The interpreter's is built now,
 * from the history its runs before left. */
static void
dispatch (VivaExamRemoteRuns *self,
          GTask              *task)
{
  Send *send = g_task_get_task_data (task);
  GCancellable *own = g_task_get_cancellable (task);
  g_autoptr(GError) error = NULL;
  const char *probe;

  if (send->step != NULL)
    {
      g_clear_signal_handler (&send->waiting_id, own);
      self->interpreter_busy = TRUE;
      probe = json_object_get_string_member_with_default (send->step, "probe", NULL);
      send->request = probe != NULL
        ? viva_exam_run_request_new_inject (VIVA_EXAM_RUN_ON_STUDENT, self->history,
                                            json_object_get_string_member (send->step, "code"),
                                            probe, send->timeout_ms)
        : viva_exam_run_request_new_run (self->history,
                                         json_object_get_string_member (send->step, "code"),
                                         send->timeout_ms);
    }

  /* The request as any executor checks it: one this side cannot send (a
   * history too long, code too large) fails here, in the same words. */
  if (g_task_return_error_if_cancelled (task) || !viva_exam_run_request_check (send->request, &error))
    {
      if (error != NULL)
        g_task_return_error (task, g_steal_pointer (&error));
      g_ptr_array_remove (self->in_flight, own);
      settle (self, send->step != NULL);
      g_object_unref (task);
      return;
    }

  self->func (send->request, own, sent_cb, task, self->user_data);
}

static gboolean
return_cancelled (gpointer user_data)
{
  g_autoptr(GTask) task = user_data;

  g_task_return_error_if_cancelled (task);
  return G_SOURCE_REMOVE;
}

/* A run cancelled while it waited for the interpreter: it never went. Its
 * caller hears of it from the main loop, not inside the cancellation. */
static void
waiting_cancelled_cb (GCancellable *own,
                      gpointer      user_data)
{
  GTask *task = user_data;
  VivaExamRemoteRuns *self = g_task_get_source_object (task);
  Send *send = g_task_get_task_data (task);

  if (!g_queue_remove (&self->waiting, task))
    return;

  g_clear_signal_handler (&send->waiting_id, own);
  g_ptr_array_remove (self->in_flight, own);
  g_idle_add (return_cancelled, task);
}

/* Sends a request, through a cancellable of its own that the caller's
 * and stop() both cancel: @request (taken) as it is, or for the
 * interpreter's @step (taken) one built when it goes. Those go one at a
 * time, as a local runner's queue runs them, so each sees the globals of
 * the ones before. */
static void
send_request (VivaExamRemoteRuns  *self,
              gpointer             source_tag,
              gboolean             grade,
              JsonObject          *request,
              JsonObject          *step,
              guint                timeout_ms,
              GCancellable        *cancellable,
              GAsyncReadyCallback  callback,
              gpointer             user_data)
{
  g_autoptr(GCancellable) own = g_cancellable_new ();
  g_autoptr(GTask) task = NULL;
  Send *send = g_new0 (Send, 1);

  send->grade = grade;
  send->request = request;
  send->step = step;
  send->timeout_ms = timeout_ms;

  task = g_task_new (self, own, callback, user_data);
  g_task_set_source_tag (task, source_tag);
  g_task_set_task_data (task, send, (GDestroyNotify) send_free);

  if (cancellable != NULL && g_cancellable_is_cancelled (cancellable))
    g_cancellable_cancel (own);
  else if (cancellable != NULL)
    {
      send->caller = g_object_ref (cancellable);
      send->own = g_object_ref (own);
      send->caller_id = g_signal_connect (cancellable, "cancelled", G_CALLBACK (cancel_cb), own);
    }

  g_ptr_array_add (self->in_flight, g_object_ref (own));
  if (step != NULL && self->interpreter_busy && !g_cancellable_is_cancelled (own))
    {
      send->waiting_id = g_signal_connect (own, "cancelled", G_CALLBACK (waiting_cancelled_cb), task);
      g_queue_push_tail (&self->waiting, g_steal_pointer (&task));
      return;
    }

  dispatch (self, g_steal_pointer (&task));
}

static JsonObject *
new_step (const char *op,
          const char *code,
          const char *probe)
{
  JsonObject *step = json_object_new ();

  json_object_set_string_member (step, "op", op);
  json_object_set_string_member (step, "code", code);
  if (probe != NULL)
    json_object_set_string_member (step, "probe", probe);
  return step;
}

static void
viva_exam_remote_runs_start_async (VivaExamRuns        *runs,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (runs, cancellable, callback, user_data);

  /* Nothing to start: each request gets its workers where it runs. */
  g_task_set_source_tag (task, viva_exam_remote_runs_start_async);
  g_task_return_boolean (task, TRUE);
}

static gboolean
viva_exam_remote_runs_start_finish (VivaExamRuns  *runs,
                                    GAsyncResult  *result,
                                    GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, runs), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
viva_exam_remote_runs_run_async (VivaExamRuns        *runs,
                                 const char          *code,
                                 guint                timeout_ms,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  VivaExamRemoteRuns *self = VIVA_EXAM_REMOTE_RUNS (runs);

  send_request (self, viva_exam_remote_runs_run_async, FALSE, NULL, new_step ("run", code, NULL),
                timeout_ms, cancellable, callback, user_data);
}

static VivaRunResult *
viva_exam_remote_runs_run_finish (VivaExamRuns  *runs,
                                  GAsyncResult  *result,
                                  GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, runs), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
viva_exam_remote_runs_inject_async (VivaExamRuns        *runs,
                                    VivaExamRunSide      side,
                                    const char          *code,
                                    const char          *probe,
                                    guint                timeout_ms,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  VivaExamRemoteRuns *self = VIVA_EXAM_REMOTE_RUNS (runs);
  gboolean student = side == VIVA_EXAM_RUN_ON_STUDENT;

  /* The reference's side runs in a worker of its own: no history. */
  send_request (self, viva_exam_remote_runs_inject_async, FALSE,
                student ? NULL : viva_exam_run_request_new_inject (side, NULL, NULL, probe, timeout_ms),
                student ? new_step ("inject", code, probe) : NULL,
                timeout_ms, cancellable, callback, user_data);
}

static VivaRunResult *
viva_exam_remote_runs_inject_finish (VivaExamRuns  *runs,
                                     GAsyncResult  *result,
                                     GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, runs), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
viva_exam_remote_runs_grade_async (VivaExamRuns        *runs,
                                   VivaExamRunSide      side,
                                   const char          *code,
                                   GPtrArray           *tests,
                                   guint                pass_threshold,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  VivaExamRemoteRuns *self = VIVA_EXAM_REMOTE_RUNS (runs);

  /* An old-form test runs its code inside the student's process and is
   * judged by the pack's own grading there: a pack's data, not a mistake
   * of the caller's, so it is an error the defense can show. */
  for (guint i = 0; i < tests->len; i++)
    if (((VivaGraderTest *)g_ptr_array_index (tests, i))->legacy_code != NULL)
      {
        g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

        g_task_set_source_tag (task, viva_exam_remote_runs_grade_async);
        g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                                 _("This problem has an old-form test, which the exam server's grading pool does not run; ask the teacher to update the pack."));
        return;
      }

  send_request (self, viva_exam_remote_runs_grade_async, TRUE,
                viva_exam_run_request_new_grade (side, side == VIVA_EXAM_RUN_ON_STUDENT ? code : NULL,
                                                 tests, pass_threshold),
                NULL, 0, cancellable, callback, user_data);
}

static VivaGradeReport *
viva_exam_remote_runs_grade_finish (VivaExamRuns  *runs,
                                    GAsyncResult  *result,
                                    GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, runs), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Cancels what is in flight and what waits. The interpreter the history
 * describes is gone too, as a local runner's that is stopped. */
static void
viva_exam_remote_runs_stop (VivaExamRuns *runs)
{
  VivaExamRemoteRuns *self = VIVA_EXAM_REMOTE_RUNS (runs);
  g_autoptr(GPtrArray) in_flight = g_steal_pointer (&self->in_flight);

  self->in_flight = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < in_flight->len; i++)
    g_cancellable_cancel (g_ptr_array_index (in_flight, i));

  g_clear_pointer (&self->history, json_array_unref);
  self->history = json_array_new ();
}

static void
viva_exam_remote_runs_iface_init (VivaExamRunsInterface *iface)
{
  iface->start_async = viva_exam_remote_runs_start_async;
  iface->start_finish = viva_exam_remote_runs_start_finish;
  iface->run_async = viva_exam_remote_runs_run_async;
  iface->run_finish = viva_exam_remote_runs_run_finish;
  iface->inject_async = viva_exam_remote_runs_inject_async;
  iface->inject_finish = viva_exam_remote_runs_inject_finish;
  iface->grade_async = viva_exam_remote_runs_grade_async;
  iface->grade_finish = viva_exam_remote_runs_grade_finish;
  iface->stop = viva_exam_remote_runs_stop;
}

static void
viva_exam_remote_runs_dispose (GObject *object)
{
  VivaExamRemoteRuns *self = (VivaExamRemoteRuns *)object;

  for (guint i = 0; self->in_flight != NULL && i < self->in_flight->len; i++)
    g_cancellable_cancel (g_ptr_array_index (self->in_flight, i));

  G_OBJECT_CLASS (viva_exam_remote_runs_parent_class)->dispose (object);
}

static void
viva_exam_remote_runs_finalize (GObject *object)
{
  VivaExamRemoteRuns *self = (VivaExamRemoteRuns *)object;

  if (self->destroy != NULL)
    self->destroy (self->user_data);
  g_clear_pointer (&self->history, json_array_unref);
  g_clear_pointer (&self->in_flight, g_ptr_array_unref);

  G_OBJECT_CLASS (viva_exam_remote_runs_parent_class)->finalize (object);
}

static void
viva_exam_remote_runs_class_init (VivaExamRemoteRunsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = viva_exam_remote_runs_dispose;
  object_class->finalize = viva_exam_remote_runs_finalize;
}

static void
viva_exam_remote_runs_init (VivaExamRemoteRuns *self)
{
  self->history = json_array_new ();
  self->in_flight = g_ptr_array_new_with_free_func (g_object_unref);
  g_queue_init (&self->waiting);
}

/**
 * viva_exam_remote_runs_new:
 * @func: has each request executed
 * @user_data: for @func
 * @destroy: (nullable): frees @user_data with the object
 *
 * Returns: (transfer full): runs that each go through @func
 */
VivaExamRemoteRuns *
viva_exam_remote_runs_new (VivaExamRunSendFunc func,
                           gpointer            user_data,
                           GDestroyNotify      destroy)
{
  VivaExamRemoteRuns *self;

  g_return_val_if_fail (func != NULL, NULL);

  self = g_object_new (VIVA_TYPE_EXAM_REMOTE_RUNS, NULL);
  self->func = func;
  self->user_data = user_data;
  self->destroy = destroy;
  return self;
}

/**
 * viva_exam_remote_runs_get_history:
 *
 * The steps of the student's interpreter so far, as the next run sends
 * them: `[{"op": "run", "code"} | {"op": "inject", "code", "probe"}…]`.
 *
 * Returns: (transfer none): the history
 */
JsonArray *
viva_exam_remote_runs_get_history (VivaExamRemoteRuns *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_REMOTE_RUNS (self), NULL);

  return self->history;
}

/**
 * viva_exam_remote_runs_set_history:
 * @history: steps as viva_exam_remote_runs_get_history() gave them, from a
 *   checkpoint or a database
 *
 * For a defense continued elsewhere (another node of the exam server):
 * the student's interpreter as it was. @history is read as a request's
 * is (viva_exam_run_request_check()) and copied.
 *
 * Returns: whether @history was taken, else %FALSE with @error and the
 *   history unchanged
 */
gboolean
viva_exam_remote_runs_set_history (VivaExamRemoteRuns  *self,
                                   JsonArray           *history,
                                   GError             **error)
{
  g_autoptr(JsonObject) probe = json_object_new ();
  g_autoptr(JsonObject) request = NULL;

  g_return_val_if_fail (VIVA_IS_EXAM_REMOTE_RUNS (self), FALSE);
  g_return_val_if_fail (history != NULL, FALSE);

  json_object_set_string_member (probe, "op", "run");
  json_object_set_array_member (probe, "history", json_array_ref (history));
  json_object_set_string_member (probe, "code", "");
  json_object_set_int_member (probe, "timeout_ms", 0);
  if (!viva_exam_run_request_check (probe, error))
    return FALSE;

  /* The request's copy: the steps alone, whatever else @history shares. */
  request = viva_exam_run_request_new_run (history, "", 0);
  g_clear_pointer (&self->history, json_array_unref);
  self->history = json_array_ref (json_object_get_array_member (request, "history"));
  return TRUE;
}

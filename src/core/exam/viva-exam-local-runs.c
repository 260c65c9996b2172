/* viva-exam-local-runs.c
 *
 * A defense's runs in workers on this machine: the student's runner, a
 * runner that runs only the reference, and a fresh grader per grading —
 * what the tools ran on before they ran through #VivaExamRuns.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-exam-local-runs.h"

struct _VivaExamLocalRuns
{
  GObject      parent_instance;

  VivaProblem *problem;
  VivaRunner  *runner;
  VivaRunner  *reference_runner;      /* NULL when the problem has no reference */
  guint        owns_runner : 1;
  guint        owns_reference_runner : 1;
};

static void exam_runs_iface_init (VivaExamRunsInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (VivaExamLocalRuns, viva_exam_local_runs, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (VIVA_TYPE_EXAM_RUNS, exam_runs_iface_init))

static const char *
get_reference (VivaExamLocalRuns *self)
{
  const char *reference = viva_problem_get_reference (self->problem);

  return reference != NULL && *reference != '\0' ? reference : NULL;
}

/* The tools ask for the reference's side only when the problem has one. */
static void
return_no_reference (GTask *task)
{
  g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                           _("This problem has no reference solution to check against."));
  g_object_unref (task);
}

/* start: the student's runner when it is ours, then the reference's (ours
 * or shared: starting a started runner does nothing). A given student's
 * runner was started by whoever gave it. */

static void
reference_started_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  if (!viva_runner_start_finish (VIVA_RUNNER (object), result, &error))
    return g_task_return_error (task, g_steal_pointer (&error));

  g_task_return_boolean (task, TRUE);
}

static void
start_reference (GTask *task)
{
  VivaExamLocalRuns *self = g_task_get_source_object (task);

  g_assert (VIVA_IS_EXAM_LOCAL_RUNS (self));

  if (self->reference_runner == NULL)
    return g_task_return_boolean (task, TRUE);

  viva_runner_start_async (self->reference_runner, g_task_get_cancellable (task),
                           reference_started_cb, task);
}

static void
runner_started_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  if (!viva_runner_start_finish (VIVA_RUNNER (object), result, &error))
    return g_task_return_error (task, g_steal_pointer (&error));

  start_reference (g_steal_pointer (&task));
}

static void
viva_exam_local_runs_start_async (VivaExamRuns        *runs,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  VivaExamLocalRuns *self = VIVA_EXAM_LOCAL_RUNS (runs);
  GTask *task;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_exam_local_runs_start_async);

  if (self->owns_runner)
    viva_runner_start_async (self->runner, cancellable, runner_started_cb, task);
  else
    start_reference (task);
}

static gboolean
viva_exam_local_runs_start_finish (VivaExamRuns  *runs,
                                   GAsyncResult  *result,
                                   GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, runs), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* run and inject: the runner's result, handed on as it came. */

static void
run_cb (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  VivaRunResult *run;

  if (!(run = viva_runner_run_finish (VIVA_RUNNER (object), result, &error)))
    return g_task_return_error (task, g_steal_pointer (&error));

  g_task_return_pointer (task, run, g_object_unref);
}

static void
viva_exam_local_runs_run_async (VivaExamRuns        *runs,
                                const char          *code,
                                guint                timeout_ms,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  VivaExamLocalRuns *self = VIVA_EXAM_LOCAL_RUNS (runs);
  GTask *task;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_exam_local_runs_run_async);

  viva_runner_run_async (self->runner, code, timeout_ms, cancellable, run_cb, task);
}

static VivaRunResult *
viva_exam_local_runs_run_finish (VivaExamRuns  *runs,
                                 GAsyncResult  *result,
                                 GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, runs), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
inject_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  VivaRunResult *run;

  if (!(run = viva_runner_inject_finish (VIVA_RUNNER (object), result, &error)))
    return g_task_return_error (task, g_steal_pointer (&error));

  g_task_return_pointer (task, run, g_object_unref);
}

typedef struct
{
  char  *probe;
  guint  timeout_ms;
} Inject;

static void
inject_free (Inject *inject)
{
  g_free (inject->probe);
  g_free (inject);
}

static void
reset_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  VivaExamLocalRuns *self = g_task_get_source_object (task);
  Inject *inject = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  if (!viva_runner_reset_finish (VIVA_RUNNER (object), result, &error))
    return g_task_return_error (task, g_steal_pointer (&error));

  viva_runner_inject_async (VIVA_RUNNER (object), get_reference (self), inject->probe,
                            inject->timeout_ms, g_task_get_cancellable (task),
                            inject_cb, g_object_ref (task));
}

static void
viva_exam_local_runs_inject_async (VivaExamRuns        *runs,
                                   VivaExamRunSide      side,
                                   const char          *code,
                                   const char          *probe,
                                   guint                timeout_ms,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  VivaExamLocalRuns *self = VIVA_EXAM_LOCAL_RUNS (runs);
  Inject *inject;
  GTask *task;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_exam_local_runs_inject_async);

  if (side == VIVA_EXAM_RUN_ON_STUDENT)
    {
      viva_runner_inject_async (self->runner, code, probe, timeout_ms, cancellable, inject_cb, task);
      return;
    }

  if (self->reference_runner == NULL || get_reference (self) == NULL)
    return return_no_reference (task);

  inject = g_new0 (Inject, 1);
  inject->probe = g_strdup (probe);
  inject->timeout_ms = timeout_ms;
  g_task_set_task_data (task, inject, (GDestroyNotify)inject_free);

  /* A fresh namespace first, so nothing of an earlier probe (or, on a
   * shared runner, of another defense's) leaks into this one. */
  viva_runner_reset_async (self->reference_runner, FALSE, cancellable, reset_cb, task);
}

static VivaRunResult *
viva_exam_local_runs_inject_finish (VivaExamRuns  *runs,
                                    GAsyncResult  *result,
                                    GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, runs), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* grade: a fresh grader each time, whose workers run nothing else. */

static void
grade_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  VivaGradeReport *report;

  if (!(report = viva_grader_grade_finish (VIVA_GRADER (object), result, &error)))
    return g_task_return_error (task, g_steal_pointer (&error));

  g_task_return_pointer (task, report, g_object_unref);
}

static void
viva_exam_local_runs_grade_async (VivaExamRuns        *runs,
                                  VivaExamRunSide      side,
                                  const char          *code,
                                  GPtrArray           *tests,
                                  guint                pass_threshold,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  VivaExamLocalRuns *self = VIVA_EXAM_LOCAL_RUNS (runs);
  g_autoptr(VivaGrader) grader = viva_grader_new ();
  const char *reference = get_reference (self);
  GTask *task;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_exam_local_runs_grade_async);

  if (side == VIVA_EXAM_RUN_ON_REFERENCE)
    {
      if (reference == NULL)
        return return_no_reference (task);
      code = reference;
    }

  /* "" without a reference, as the tools always passed it (and as a
   * request's executor does): a compare test then fails as one whose
   * reference gave no value. */
  viva_grader_grade_async (grader, code, reference ? reference : "", tests, pass_threshold,
                           cancellable, grade_cb, task);
}

static VivaGradeReport *
viva_exam_local_runs_grade_finish (VivaExamRuns  *runs,
                                   GAsyncResult  *result,
                                   GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, runs), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* What runs in the runners it owns ends with them; a given runner is its
 * giver's, and a grading in flight ends with its caller's cancellable, as
 * before the tools ran through these runs. */
static void
viva_exam_local_runs_stop (VivaExamRuns *runs)
{
  VivaExamLocalRuns *self = VIVA_EXAM_LOCAL_RUNS (runs);

  if (self->owns_runner)
    viva_runner_stop (self->runner);
  if (self->owns_reference_runner && self->reference_runner != NULL)
    viva_runner_stop (self->reference_runner);
}

static void
exam_runs_iface_init (VivaExamRunsInterface *iface)
{
  iface->start_async = viva_exam_local_runs_start_async;
  iface->start_finish = viva_exam_local_runs_start_finish;
  iface->run_async = viva_exam_local_runs_run_async;
  iface->run_finish = viva_exam_local_runs_run_finish;
  iface->inject_async = viva_exam_local_runs_inject_async;
  iface->inject_finish = viva_exam_local_runs_inject_finish;
  iface->grade_async = viva_exam_local_runs_grade_async;
  iface->grade_finish = viva_exam_local_runs_grade_finish;
  iface->stop = viva_exam_local_runs_stop;
}

static void
viva_exam_local_runs_dispose (GObject *object)
{
  VivaExamLocalRuns *self = (VivaExamLocalRuns *)object;

  g_clear_object (&self->problem);
  g_clear_object (&self->runner);
  g_clear_object (&self->reference_runner);

  G_OBJECT_CLASS (viva_exam_local_runs_parent_class)->dispose (object);
}

static void
viva_exam_local_runs_class_init (VivaExamLocalRunsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = viva_exam_local_runs_dispose;
}

static void
viva_exam_local_runs_init (VivaExamLocalRuns *self)
{
}

/**
 * viva_exam_local_runs_new:
 *
 * Returns: (transfer full): the runs; none of its runners is started
 *   until viva_exam_runs_start_async()
 */
VivaExamLocalRuns *
viva_exam_local_runs_new (VivaProblem *problem,
                          VivaRunner  *runner,
                          VivaRunner  *reference_runner)
{
  VivaExamLocalRuns *self;

  g_return_val_if_fail (VIVA_IS_PROBLEM (problem), NULL);
  g_return_val_if_fail (!runner || VIVA_IS_RUNNER (runner), NULL);
  g_return_val_if_fail (!reference_runner || VIVA_IS_RUNNER (reference_runner), NULL);

  self = g_object_new (VIVA_TYPE_EXAM_LOCAL_RUNS, NULL);
  self->problem = g_object_ref (problem);

  if (runner != NULL)
    self->runner = g_object_ref (runner);
  else
    {
      self->runner = viva_runner_new ();
      self->owns_runner = TRUE;
    }

  if (reference_runner != NULL)
    self->reference_runner = g_object_ref (reference_runner);
  else if (get_reference (self) != NULL)
    {
      self->reference_runner = viva_runner_new ();
      self->owns_reference_runner = TRUE;
    }

  return self;
}

/* viva-exam-runs.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-exam-runs.h"

G_DEFINE_INTERFACE (VivaExamRuns, viva_exam_runs, G_TYPE_OBJECT)

static void
viva_exam_runs_default_init (VivaExamRunsInterface *iface)
{
}

void
viva_exam_runs_start_async (VivaExamRuns        *self,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_return_if_fail (VIVA_IS_EXAM_RUNS (self));

  VIVA_EXAM_RUNS_GET_IFACE (self)->start_async (self, cancellable, callback, user_data);
}

gboolean
viva_exam_runs_start_finish (VivaExamRuns  *self,
                             GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (VIVA_IS_EXAM_RUNS (self), FALSE);

  return VIVA_EXAM_RUNS_GET_IFACE (self)->start_finish (self, result, error);
}

void
viva_exam_runs_run_async (VivaExamRuns        *self,
                          const char          *code,
                          guint                timeout_ms,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_return_if_fail (VIVA_IS_EXAM_RUNS (self));
  g_return_if_fail (code != NULL);

  VIVA_EXAM_RUNS_GET_IFACE (self)->run_async (self, code, timeout_ms, cancellable, callback, user_data);
}

/**
 * viva_exam_runs_run_finish:
 *
 * Returns: (transfer full): the run's result
 */
VivaRunResult *
viva_exam_runs_run_finish (VivaExamRuns  *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (VIVA_IS_EXAM_RUNS (self), NULL);

  return VIVA_EXAM_RUNS_GET_IFACE (self)->run_finish (self, result, error);
}

void
viva_exam_runs_inject_async (VivaExamRuns        *self,
                             VivaExamRunSide      side,
                             const char          *code,
                             const char          *probe,
                             guint                timeout_ms,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_return_if_fail (VIVA_IS_EXAM_RUNS (self));
  g_return_if_fail (side == VIVA_EXAM_RUN_ON_REFERENCE || code != NULL);
  g_return_if_fail (probe != NULL);

  VIVA_EXAM_RUNS_GET_IFACE (self)->inject_async (self, side, code, probe, timeout_ms,
                                                 cancellable, callback, user_data);
}

/**
 * viva_exam_runs_inject_finish:
 *
 * Returns: (transfer full): the probe's run
 */
VivaRunResult *
viva_exam_runs_inject_finish (VivaExamRuns  *self,
                              GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (VIVA_IS_EXAM_RUNS (self), NULL);

  return VIVA_EXAM_RUNS_GET_IFACE (self)->inject_finish (self, result, error);
}

void
viva_exam_runs_grade_async (VivaExamRuns        *self,
                            VivaExamRunSide      side,
                            const char          *code,
                            GPtrArray           *tests,
                            guint                pass_threshold,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_return_if_fail (VIVA_IS_EXAM_RUNS (self));
  g_return_if_fail (side == VIVA_EXAM_RUN_ON_REFERENCE || code != NULL);
  g_return_if_fail (tests != NULL);

  VIVA_EXAM_RUNS_GET_IFACE (self)->grade_async (self, side, code, tests, pass_threshold,
                                                cancellable, callback, user_data);
}

/**
 * viva_exam_runs_grade_finish:
 *
 * Returns: (transfer full): the grading, every message as the grader gave it
 */
VivaGradeReport *
viva_exam_runs_grade_finish (VivaExamRuns  *self,
                             GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (VIVA_IS_EXAM_RUNS (self), NULL);

  return VIVA_EXAM_RUNS_GET_IFACE (self)->grade_finish (self, result, error);
}

void
viva_exam_runs_stop (VivaExamRuns *self)
{
  g_return_if_fail (VIVA_IS_EXAM_RUNS (self));

  VIVA_EXAM_RUNS_GET_IFACE (self)->stop (self);
}

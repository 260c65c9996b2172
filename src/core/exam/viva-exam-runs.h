/* viva-exam-runs.h: where a defense's code runs — workers on this PC, or an exam server's pool
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "viva-grade-report.h"
#include "viva-grader.h"
#include "viva-run-result.h"

G_BEGIN_DECLS

/**
 * VivaExamRunSide:
 * @VIVA_EXAM_RUN_ON_STUDENT: the student's code
 * @VIVA_EXAM_RUN_ON_REFERENCE: the problem's reference solution, which the
 *   caller never passes: whoever runs it holds the problem
 */
typedef enum
{
  VIVA_EXAM_RUN_ON_STUDENT,
  VIVA_EXAM_RUN_ON_REFERENCE,
} VivaExamRunSide;

#define VIVA_TYPE_EXAM_RUNS (viva_exam_runs_get_type ())

G_DECLARE_INTERFACE (VivaExamRuns, viva_exam_runs, VIVA, EXAM_RUNS, GObject)

/**
 * VivaExamRunsInterface:
 * @start_async: gets ready to run (starts the workers it owns); may do nothing
 * @run_async: runs @code in the student's interpreter, where the globals of
 *   the runs before persist (the first run after start is the prime: the
 *   student's program); completes with a #VivaRunResult
 * @inject_async: on the student's side, @code then @probe as one request in
 *   the student's interpreter (viva_runner_inject_async()); on the
 *   reference's, the reference then @probe in a fresh namespace of a worker
 *   that runs only the reference (@code is ignored); completes with a
 *   #VivaRunResult
 * @grade_async: grades @tests as #VivaGrader does, in fresh workers: on the
 *   student's side @code against the reference, on the reference's the
 *   reference against itself (@code is ignored); completes with a
 *   #VivaGradeReport, every message as the grader gave it (the caller
 *   redacts)
 * @stop: stops what runs now and the workers it owns; a runner given to it
 *   is left running
 *
 * Every tool of a defense runs code through the #VivaExamContext's runs and
 * nothing else: #VivaExamLocalRuns on this PC (the runners and graders of
 * today), #VivaExamRemoteRuns where each run is a request sent elsewhere
 * (the exam server's grading pool). Main thread only.
 */
struct _VivaExamRunsInterface
{
  GTypeInterface parent_iface;

  void             (*start_async)   (VivaExamRuns         *self,
                                     GCancellable         *cancellable,
                                     GAsyncReadyCallback   callback,
                                     gpointer              user_data);
  gboolean         (*start_finish)  (VivaExamRuns         *self,
                                     GAsyncResult         *result,
                                     GError              **error);
  void             (*run_async)     (VivaExamRuns         *self,
                                     const char           *code,
                                     guint                 timeout_ms,
                                     GCancellable         *cancellable,
                                     GAsyncReadyCallback   callback,
                                     gpointer              user_data);
  VivaRunResult   *(*run_finish)    (VivaExamRuns         *self,
                                     GAsyncResult         *result,
                                     GError              **error);
  void             (*inject_async)  (VivaExamRuns         *self,
                                     VivaExamRunSide       side,
                                     const char           *code,
                                     const char           *probe,
                                     guint                 timeout_ms,
                                     GCancellable         *cancellable,
                                     GAsyncReadyCallback   callback,
                                     gpointer              user_data);
  VivaRunResult   *(*inject_finish) (VivaExamRuns         *self,
                                     GAsyncResult         *result,
                                     GError              **error);
  void             (*grade_async)   (VivaExamRuns         *self,
                                     VivaExamRunSide       side,
                                     const char           *code,
                                     GPtrArray            *tests,
                                     guint                 pass_threshold,
                                     GCancellable         *cancellable,
                                     GAsyncReadyCallback   callback,
                                     gpointer              user_data);
  VivaGradeReport *(*grade_finish)  (VivaExamRuns         *self,
                                     GAsyncResult         *result,
                                     GError              **error);
  void             (*stop)          (VivaExamRuns         *self);
};

void             viva_exam_runs_start_async   (VivaExamRuns         *self,
                                               GCancellable         *cancellable,
                                               GAsyncReadyCallback   callback,
                                               gpointer              user_data);
gboolean         viva_exam_runs_start_finish  (VivaExamRuns         *self,
                                               GAsyncResult         *result,
                                               GError              **error);
void             viva_exam_runs_run_async     (VivaExamRuns         *self,
                                               const char           *code,
                                               guint                 timeout_ms,
                                               GCancellable         *cancellable,
                                               GAsyncReadyCallback   callback,
                                               gpointer              user_data);
VivaRunResult   *viva_exam_runs_run_finish    (VivaExamRuns         *self,
                                               GAsyncResult         *result,
                                               GError              **error);
void             viva_exam_runs_inject_async  (VivaExamRuns         *self,
                                               VivaExamRunSide       side,
                                               const char           *code,
                                               const char           *probe,
                                               guint                 timeout_ms,
                                               GCancellable         *cancellable,
                                               GAsyncReadyCallback   callback,
                                               gpointer              user_data);
VivaRunResult   *viva_exam_runs_inject_finish (VivaExamRuns         *self,
                                               GAsyncResult         *result,
                                               GError              **error);
void             viva_exam_runs_grade_async   (VivaExamRuns         *self,
                                               VivaExamRunSide       side,
                                               const char           *code,
                                               GPtrArray            *tests,
                                               guint                 pass_threshold,
                                               GCancellable         *cancellable,
                                               GAsyncReadyCallback   callback,
                                               gpointer              user_data);
VivaGradeReport *viva_exam_runs_grade_finish  (VivaExamRuns         *self,
                                               GAsyncResult         *result,
                                               GError              **error);
void             viva_exam_runs_stop          (VivaExamRuns         *self);

G_END_DECLS

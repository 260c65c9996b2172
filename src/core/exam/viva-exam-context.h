/* viva-exam-context.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "viva-code-source.h"
#include "viva-exam-runs.h"
#include "viva-problem.h"

G_BEGIN_DECLS

#define VIVA_TYPE_EXAM_CONTEXT (viva_exam_context_get_type ())

G_DECLARE_FINAL_TYPE (VivaExamContext, viva_exam_context, VIVA, EXAM_CONTEXT, GObject)

/**
 * VivaExamContext:
 *
 * What a tool may use, and nothing of the examiner's state: the problem,
 * the live code, where the defense's code runs (#VivaExamRuns: every run,
 * probe and prediction of a tool goes through them and nothing else), the
 * run time limit, and the channel to the student (a question waits here
 * until it is answered). Main thread.
 */
VivaExamContext *viva_exam_context_new                  (VivaProblem          *problem,
                                                         VivaCodeSource       *code_source,
                                                         VivaExamRuns         *runs,
                                                         guint                 run_timeout_ms);
VivaProblem     *viva_exam_context_get_problem          (VivaExamContext      *self);
char            *viva_exam_context_dup_code             (VivaExamContext      *self);
VivaExamRuns    *viva_exam_context_get_runs             (VivaExamContext      *self);
guint            viva_exam_context_get_run_timeout      (VivaExamContext      *self);
const char      *viva_exam_context_get_pending_question (VivaExamContext      *self);
void             viva_exam_context_wait_answer_async    (VivaExamContext      *self,
                                                         const char           *question,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
char            *viva_exam_context_wait_answer_finish   (VivaExamContext      *self,
                                                         GAsyncResult         *result,
                                                         GError              **error);
void             viva_exam_context_set_plan             (VivaExamContext      *self,
                                                         GPtrArray            *plan);
GPtrArray       *viva_exam_context_get_plan             (VivaExamContext      *self);
gboolean         viva_exam_context_give_answer          (VivaExamContext      *self,
                                                         const char           *answer,
                                                         GError              **error);

G_END_DECLS

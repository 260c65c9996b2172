/* viva-problem-grade.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "viva-grade-report.h"
#include "viva-problem.h"

G_BEGIN_DECLS

GPtrArray       *viva_problem_get_grader_tests (VivaProblem          *problem);
GPtrArray       *viva_problem_get_grader_tests_seeded (VivaProblem   *problem,
                                               guint                 seed);
void             viva_problem_grade_async      (VivaProblem          *problem,
                                                const char           *code,
                                                GCancellable         *cancellable,
                                                GAsyncReadyCallback   callback,
                                                gpointer              user_data);
void             viva_problem_grade_for_author_async (VivaProblem    *problem,
                                               const char           *code,
                                               GCancellable         *cancellable,
                                               GAsyncReadyCallback   callback,
                                               gpointer              user_data);
GPtrArray       *viva_problem_get_check_tests  (VivaProblem          *problem);
void             viva_problem_check_async      (VivaProblem          *problem,
                                                const char           *code,
                                                GCancellable         *cancellable,
                                                GAsyncReadyCallback   callback,
                                                gpointer              user_data);
VivaGradeReport *viva_problem_grade_redact     (VivaProblem          *problem,
                                                VivaGradeReport      *report);
VivaGradeReport *viva_problem_grade_finish     (VivaProblem          *problem,
                                                GAsyncResult         *result,
                                                GError              **error);

G_END_DECLS

/* viva-examiner-grade.h: the examiner's grade, given by whoever grades elsewhere
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-examiner.h"

G_BEGIN_DECLS

/**
 * VivaExamGradeFunc:
 * @problem: the problem defended
 * @code: the code to grade
 *
 * Grades @code as viva_problem_grade_async() does (a held-out test's
 * message replaced), somewhere else: the exam server's grading pool. It
 * completes a #GTask whose pointer is a #VivaGradeReport (transfer full).
 */
typedef void (*VivaExamGradeFunc) (VivaProblem         *problem,
                                   const char          *code,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             callback_data,
                                   gpointer             user_data);

void viva_examiner_set_grade_func (VivaExaminer      *self,
                                   VivaExamGradeFunc  func,
                                   gpointer           user_data,
                                   GDestroyNotify     destroy);

G_END_DECLS

/* viva-exam-scoring.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-exam-item.h"
#include "viva-grade-report.h"
#include "viva-problem.h"

G_BEGIN_DECLS

GPtrArray *_viva_exam_scoring_test_items (VivaProblem     *problem,
                                          VivaGradeReport *grade,
                                          const char      *grade_error,
                                          double           weight);

GPtrArray *_viva_exam_scoring_build_items (VivaProblem     *problem,
                                           VivaGradeReport *grade,
                                           const char      *grade_error,
                                           GPtrArray       *plan,
                                           GPtrArray       *steps);

G_END_DECLS

/* viva-exam-local-runs.h: a defense's runs in workers on this machine
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-exam-runs.h"
#include "viva-problem.h"
#include "viva-runner.h"

G_BEGIN_DECLS

#define VIVA_TYPE_EXAM_LOCAL_RUNS (viva_exam_local_runs_get_type ())

G_DECLARE_FINAL_TYPE (VivaExamLocalRuns, viva_exam_local_runs, VIVA, EXAM_LOCAL_RUNS, GObject)

/**
 * viva_exam_local_runs_new:
 * @problem: the problem defended (its reference, for the reference's side)
 * @runner: (nullable): the student's interpreter to use (the editor's), or
 *   %NULL for one of its own, which it starts and stops
 * @reference_runner: (nullable): a worker that runs only the reference, or
 *   %NULL for one of its own when the problem has a reference
 *
 * What a defense's tools have always run on: the student's runner (globals
 * persist between runs), the reference's runner, and a fresh #VivaGrader
 * for each grading.
 */
VivaExamLocalRuns *viva_exam_local_runs_new (VivaProblem *problem,
                                             VivaRunner  *runner,
                                             VivaRunner  *reference_runner);

G_END_DECLS

/* viva-exam-run-request.h: a defense's run as plain data — what is sent, what runs it, what comes back
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "viva-exam-runs.h"
#include "viva-problem.h"

G_BEGIN_DECLS

/* A request names what to run and never the reference, the hidden tests
 * or anything of the problem: whoever executes it holds the problem.
 *
 *   {"op": "run", "history": [STEP…], "code": C, "timeout_ms": T}
 *   {"op": "inject", "side": "student"|"reference", "history": [STEP…],
 *    "code": C, "probe": P, "timeout_ms": T}
 *   {"op": "grade", "side": "student"|"reference", "code": C,
 *    "tests": [TEST…], "pass_threshold": N}
 *
 * STEP is {"op": "run", "code": C} or {"op": "inject", "code": C, "probe": P}:
 * what ran before in the student's interpreter, replayed in a fresh one
 * before the request's own run, so its globals are as they were (a run
 * whose state was reset ends the history). TEST is a structured
 * #VivaGraderTest: {"name", "setup", "call", "check", "compare",
 * "tolerance"}.
 *
 * A result is {"run": RUN} for run and inject (the #VivaRunResult as data)
 * or {"report": REPORT} for grade (viva_grade_report_to_json()), or
 * {"error": MESSAGE}. It comes from whoever executed the request — another
 * machine — and is read as hostile: bounded, and a report is kept only for
 * the tests the request asked. */

#define VIVA_EXAM_RUN_REQUEST_MAX_BYTES (4 * 1024 * 1024)
#define VIVA_EXAM_RUN_RESULT_MAX_BYTES  (4 * 1024 * 1024)

JsonObject      *viva_exam_run_request_new_run        (JsonArray            *history,
                                                       const char           *code,
                                                       guint                 timeout_ms);
JsonObject      *viva_exam_run_request_new_inject     (VivaExamRunSide       side,
                                                       JsonArray            *history,
                                                       const char           *code,
                                                       const char           *probe,
                                                       guint                 timeout_ms);
JsonObject      *viva_exam_run_request_new_grade      (VivaExamRunSide       side,
                                                       const char           *code,
                                                       GPtrArray            *tests,
                                                       guint                 pass_threshold);

gboolean         viva_exam_run_request_check          (JsonObject           *request,
                                                       GError              **error);

void             viva_exam_run_request_execute_async  (VivaProblem          *problem,
                                                       JsonObject           *request,
                                                       GCancellable         *cancellable,
                                                       GAsyncReadyCallback   callback,
                                                       gpointer              user_data);
JsonObject      *viva_exam_run_request_execute_finish (GAsyncResult         *result,
                                                       GError              **error);

VivaRunResult   *viva_exam_run_request_read_run       (JsonObject           *request,
                                                       JsonObject           *result,
                                                       GError              **error);
VivaGradeReport *viva_exam_run_request_read_grade     (JsonObject           *request,
                                                       JsonObject           *result,
                                                       GError              **error);

G_END_DECLS

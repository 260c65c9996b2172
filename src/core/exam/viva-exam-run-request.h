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
 * held by the problem or anything else of it: whoever executes it holds
 * the problem. Every member shown is required and no other is read:
 *
 *   {"op": "run", "history": [STEP…], "code": C, "timeout_ms": T}
 *   {"op": "inject", "side": "student", "history": [STEP…],
 *    "code": C, "probe": P, "timeout_ms": T}
 *   {"op": "inject", "side": "reference", "probe": P, "timeout_ms": T}
 *   {"op": "grade", "side": "student", "code": C,
 *    "tests": [TEST…], "pass_threshold": N}
 *   {"op": "grade", "side": "reference", "tests": [TEST…], "pass_threshold": N}
 *
 * The reference's side runs the problem's reference: it carries no code
 * and no history. T is 0 (the runner's default) to
 * VIVA_EXAM_RUN_REQUEST_MAX_TIMEOUT_MS; N from 0 (every test) to the
 * number of tests.
 *
 * STEP is {"op": "run", "code": C} or {"op": "inject", "code": C, "probe": P}:
 * what ran before in the student's interpreter, replayed in a fresh one
 * (each with the request's T, its output ignored) before the request's own
 * run, so its globals are as they were. A step whose replay resets the
 * interpreter or times out ends the replay, and the request's result then
 * says `state_reset`. TEST is a structured #VivaGraderTest: {"name",
 * "setup", "call", "check", "compare", "tolerance"} (an old-form test has
 * no place in a request).
 *
 * A result is {"run": RUN} for run and inject, or {"report": REPORT} for
 * grade (viva_grade_report_to_json()), or {"error": MESSAGE}. RUN is
 * viva_run_result_to_json(): {"status", "duration_ms", "stdout", "stderr",
 * "output_truncated", "state_reset"} and, when there is one, "error":
 * {"type", "message", "line", "column"}, "traceback", "summary", "signal",
 * "images" (small PNGs in base64) and "images_dropped". It comes from
 * whoever executed the request — another machine — and is read as
 * hostile: bounded, its texts made visible, and a report kept only for the
 * tests the request asked, in their order. */

#define VIVA_EXAM_RUN_REQUEST_MAX_HISTORY    64
#define VIVA_EXAM_RUN_REQUEST_MAX_TESTS      64
#define VIVA_EXAM_RUN_REQUEST_MAX_TIMEOUT_MS (10 * 60 * 1000)
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

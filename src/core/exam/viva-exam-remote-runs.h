/* viva-exam-remote-runs.h: a defense's runs as requests sent elsewhere
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "viva-exam-runs.h"

G_BEGIN_DECLS

/**
 * VivaExamRunSendFunc:
 * @request: (transfer none): a request (viva-exam-run-request.h)
 *
 * Has @request executed somewhere (the exam server: a job in its pool,
 * whichever worker claims it) and completes a #GTask whose pointer is the
 * result as it came back (a #JsonObject, transfer full), or an error.
 */
typedef void (*VivaExamRunSendFunc) (JsonObject          *request,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             callback_data,
                                     gpointer             user_data);

#define VIVA_TYPE_EXAM_REMOTE_RUNS (viva_exam_remote_runs_get_type ())

G_DECLARE_FINAL_TYPE (VivaExamRemoteRuns, viva_exam_remote_runs, VIVA, EXAM_REMOTE_RUNS, GObject)

/**
 * viva_exam_remote_runs_new:
 *
 * Each run, inject and grade is one request through @func; nothing stays
 * between them but the history of the student's interpreter, which this
 * object keeps and sends with each run, so the executor replays it in a
 * fresh interpreter first: runPython sees the globals of the runs before,
 * whichever machine ran them. A result is read as hostile
 * (viva_exam_run_request_read_run()/_read_grade()).
 */
VivaExamRemoteRuns *viva_exam_remote_runs_new         (VivaExamRunSendFunc  func,
                                                       gpointer             user_data,
                                                       GDestroyNotify       destroy);
JsonArray          *viva_exam_remote_runs_get_history (VivaExamRemoteRuns  *self);
gboolean            viva_exam_remote_runs_set_history (VivaExamRemoteRuns  *self,
                                                       JsonArray           *history,
                                                       GError             **error);

G_END_DECLS

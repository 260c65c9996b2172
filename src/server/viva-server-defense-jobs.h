/* viva-server-defense-jobs.h: a defense's grading and tool runs as the pool's jobs; what a job carries and what its result may be
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "viva-exam-file.h"
#include "viva-examiner-grade.h"
#include "viva-server-api.h"

G_BEGIN_DECLS

void        _viva_server_defense_grade_in_pool (VivaServerApi  *api,
                                                VivaExaminer   *examiner,
                                                const char     *defense_id);
/* Waiting on a job's result (viva-server-job-wait.c). */
void        _viva_server_job_wait_async    (VivaServerApi        *api,
                                            const char           *job_id,
                                            guint                 claim_ms,
                                            GCancellable         *cancellable,
                                            GAsyncReadyCallback   callback,
                                            gpointer              user_data);
JsonObject *_viva_server_job_wait_finish   (GAsyncResult         *result,
                                            GError              **error);

/* A defense's tool runs (viva-server-defense-runs.c). */
void        _viva_server_defense_runs_in_pool (VivaServerApi  *api,
                                               VivaExaminer   *examiner,
                                               const char     *exam_id,
                                               const char     *problem_id,
                                               const char     *defense_id);
char       *_viva_server_job_check_run_result (JsonObject     *job,
                                               JsonNode       *result,
                                               GError        **error);

JsonObject *viva_server_job_pack               (VivaExamFile   *exam,
                                                const char     *problem_id);
char       *viva_server_job_check_result       (VivaExamFile   *exam,
                                                JsonObject     *job,
                                                JsonNode       *result,
                                                GError        **error);

G_END_DECLS

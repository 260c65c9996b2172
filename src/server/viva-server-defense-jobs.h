/* viva-server-defense-jobs.h: a defense's grading as the pool's job; what a job carries and what its result may be
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
JsonObject *viva_server_job_pack               (VivaExamFile   *exam,
                                                const char     *problem_id);
char       *viva_server_job_check_result       (VivaExamFile   *exam,
                                                JsonObject     *job,
                                                JsonNode       *result,
                                                GError        **error);

G_END_DECLS

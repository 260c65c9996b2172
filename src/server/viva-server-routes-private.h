/* viva-server-routes-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-server-api.h"
#include "viva-server-limits.h"

G_BEGIN_DECLS

/* Shared by the route files and the api. */
VivaServerLimits *_viva_server_api_get_limits   (VivaServerApi     *self);
const char       *_viva_server_body_string      (VivaServerRequest *request,
                                                 const char        *member,
                                                 gsize              max_bytes);
gboolean          _viva_server_check_open       (VivaServerRequest *request);
gboolean          _viva_server_check_problem    (VivaServerRequest *request,
                                                 const char        *problem_id);
JsonObject       *_viva_server_student_event    (VivaServerApi     *api,
                                                 const char        *exam_id,
                                                 const char        *kind,
                                                 JsonObject        *data);
void              _viva_server_streams_sign_out (VivaServerApi     *api,
                                                 const char        *exam_id,
                                                 const char        *student_id);

/* viva-server-routes-defense.c */
void _viva_server_submit        (VivaServerRequest *request);
void _viva_server_get_defense   (VivaServerRequest *request);
void _viva_server_get_events    (VivaServerRequest *request);
void _viva_server_answer        (VivaServerRequest *request);

/* viva-server-routes-worker.c */
void _viva_server_worker_claim  (VivaServerRequest *request);
void _viva_server_worker_renew  (VivaServerRequest *request);
void _viva_server_worker_result (VivaServerRequest *request);

/* viva-server-routes-teacher.c */
void _viva_server_teacher_status  (VivaServerRequest *request);
void _viva_server_teacher_reports (VivaServerRequest *request);
void _viva_server_teacher_close   (VivaServerRequest *request);

/* viva-server-regrade.c */
void     _viva_server_teacher_regrade        (VivaServerRequest *request);
void     _viva_server_teacher_get_regrade    (VivaServerRequest *request);
gboolean _viva_server_regrade_settle         (VivaServerApi     *api,
                                              const char        *exam_id,
                                              const char        *regrade_id,
                                              GError           **error);
gboolean _viva_server_regrade_revise_reports (VivaServerApi     *api,
                                              const char        *exam_id,
                                              JsonArray         *reports,
                                              JsonArray         *earlier,
                                              GError           **error);

G_END_DECLS

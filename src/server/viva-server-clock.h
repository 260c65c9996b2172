/* viva-server-clock.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-exam-sitting.h"
#include "viva-server-api.h"

G_BEGIN_DECLS

#define VIVA_TYPE_SERVER_CLOCK (viva_server_clock_get_type ())

G_DECLARE_FINAL_TYPE (VivaServerClock, viva_server_clock, VIVA, SERVER_CLOCK, GObject)

VivaServerClock *viva_server_clock_new             (VivaServerApi    *api);
guint            viva_server_clock_restore_all     (VivaServerClock  *self,
                                                    GError          **error);
VivaExamSitting *viva_server_clock_get_sitting     (VivaServerClock  *self,
                                                    const char       *exam_id,
                                                    const char       *student_id,
                                                    GError          **error);
void             viva_server_clock_code_saved      (VivaServerClock  *self,
                                                    const char       *exam_id,
                                                    const char       *student_id,
                                                    const char       *problem_id,
                                                    const char       *kind,
                                                    const char       *code);
void             viva_server_clock_defense_started (VivaServerClock  *self,
                                                    const char       *exam_id,
                                                    const char       *student_id,
                                                    const char       *problem_id);
void             viva_server_clock_defense_ended   (VivaServerClock  *self,
                                                    const char       *exam_id,
                                                    const char       *student_id,
                                                    const char       *problem_id,
                                                    gboolean          reported);

G_END_DECLS

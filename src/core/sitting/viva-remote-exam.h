/* viva-remote-exam.h: an exam sat on an exam server, as the student sees it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "viva-pack.h"

G_BEGIN_DECLS

#define VIVA_TYPE_REMOTE_EXAM (viva_remote_exam_get_type ())

G_DECLARE_FINAL_TYPE (VivaRemoteExam, viva_remote_exam, VIVA, REMOTE_EXAM, GObject)

VivaRemoteExam *viva_remote_exam_new_from_sitting (JsonObject      *sitting,
                                                   GError         **error);
gboolean        viva_remote_exam_update           (VivaRemoteExam  *self,
                                                   JsonObject      *sitting,
                                                   GError         **error);
const char     *viva_remote_exam_get_exam_id      (VivaRemoteExam  *self);
const char     *viva_remote_exam_get_title        (VivaRemoteExam  *self);
const char     *viva_remote_exam_get_student_id   (VivaRemoteExam  *self);
const char     *viva_remote_exam_get_student_name (VivaRemoteExam  *self);
VivaPack       *viva_remote_exam_get_pack         (VivaRemoteExam  *self);
const char * const *viva_remote_exam_get_problems (VivaRemoteExam  *self);
gboolean        viva_remote_exam_get_hints_allowed (VivaRemoteExam *self);
double          viva_remote_exam_get_hint_cost    (VivaRemoteExam  *self);
gboolean        viva_remote_exam_get_verdict_held (VivaRemoteExam  *self);
gboolean        viva_remote_exam_get_handed_in    (VivaRemoteExam  *self);
gboolean        viva_remote_exam_get_timed        (VivaRemoteExam  *self);
gint64          viva_remote_exam_get_time_left    (VivaRemoteExam  *self);
gboolean        viva_remote_exam_get_time_up      (VivaRemoteExam  *self);
const char     *viva_remote_exam_get_saved_code   (VivaRemoteExam  *self,
                                                   const char      *problem_id);
const char     *viva_remote_exam_get_defense_id   (VivaRemoteExam  *self,
                                                   const char      *problem_id);
const char     *viva_remote_exam_get_defense_state (VivaRemoteExam *self,
                                                   const char      *problem_id);

G_END_DECLS

/* viva-remote-defense.h: a defense the exam server runs, as its events tell it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "viva-exam-verdict.h"
#include "viva-examiner.h"

G_BEGIN_DECLS

#define VIVA_TYPE_REMOTE_DEFENSE (viva_remote_defense_get_type ())

G_DECLARE_FINAL_TYPE (VivaRemoteDefense, viva_remote_defense, VIVA, REMOTE_DEFENSE, GObject)

VivaRemoteDefense *viva_remote_defense_new                  (const char         *id,
                                                             const char         *problem_id);
const char        *viva_remote_defense_get_id               (VivaRemoteDefense  *self);
const char        *viva_remote_defense_get_problem_id       (VivaRemoteDefense  *self);
gint64             viva_remote_defense_get_last_seq         (VivaRemoteDefense  *self);
VivaExaminerState  viva_remote_defense_get_state            (VivaRemoteDefense  *self);
const char        *viva_remote_defense_get_pending_question (VivaRemoteDefense  *self);
gint64             viva_remote_defense_get_question_seq     (VivaRemoteDefense  *self);
const char        *viva_remote_defense_get_error_message    (VivaRemoteDefense  *self);
VivaExamVerdict   *viva_remote_defense_get_verdict          (VivaRemoteDefense  *self);
gboolean           viva_remote_defense_get_held             (VivaRemoteDefense  *self);
gint64             viva_remote_defense_get_held_seq         (VivaRemoteDefense  *self);
gboolean           viva_remote_defense_get_ended            (VivaRemoteDefense  *self);
gboolean           viva_remote_defense_get_busy             (VivaRemoteDefense  *self);

gboolean           viva_remote_defense_feed                 (VivaRemoteDefense  *self,
                                                             gint64              seq,
                                                             const char         *kind,
                                                             JsonObject         *data);
gboolean           viva_remote_defense_answer               (VivaRemoteDefense  *self,
                                                             const char         *text,
                                                             GError            **error);
void               viva_remote_defense_answer_refused       (VivaRemoteDefense  *self,
                                                             const char         *message);
void               viva_remote_defense_fail                 (VivaRemoteDefense  *self,
                                                             const char         *message);

G_END_DECLS

/* viva-server-defenses.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-server-api.h"

G_BEGIN_DECLS

/* What a student may not change: a defense's answer when none is typed. */
#define VIVA_SERVER_TIME_UP_ANSWER "(no answer: the time was up)"

#define VIVA_TYPE_SERVER_DEFENSES (viva_server_defenses_get_type ())

G_DECLARE_FINAL_TYPE (VivaServerDefenses, viva_server_defenses, VIVA, SERVER_DEFENSES, GObject)

VivaServerDefenses *viva_server_defenses_new        (VivaServerApi       *api,
                                                     JsonObject          *examiner);
char               *viva_server_defenses_start      (VivaServerDefenses  *self,
                                                     const char          *exam_id,
                                                     const char          *student_id,
                                                     const char          *problem_id,
                                                     const char          *code,
                                                     gboolean             handed_in,
                                                     GError             **error);
char               *viva_server_defenses_start_submitted (VivaServerDefenses  *self,
                                                          const char          *exam_id,
                                                          const char          *student_id,
                                                          const char          *problem_id,
                                                          const char          *code,
                                                          char               **job_id,
                                                          GError             **error);
void                viva_server_defenses_set_holder (VivaServerDefenses *self,
                                                     const char          *holder);
guint               viva_server_defenses_resume_all (VivaServerDefenses  *self,
                                                     GError             **error);
gboolean            viva_server_defenses_answer     (VivaServerDefenses  *self,
                                                     const char          *defense_id,
                                                     const char          *text,
                                                     gint64               question_seq,
                                                     GError             **error);
gboolean            viva_server_defenses_is_live    (VivaServerDefenses  *self,
                                                     const char          *defense_id);
void                viva_server_defenses_add_timeline (VivaServerDefenses *self,
                                                       const char         *exam_id,
                                                       const char         *student_id);
gboolean            viva_server_defenses_is_running (VivaServerDefenses  *self,
                                                     const char          *exam_id,
                                                     const char          *student_id,
                                                     const char          *problem_id);
char               *viva_server_defenses_dup_pending (VivaServerDefenses *self,
                                                     const char         *defense_id,
                                                     gint64             *question_seq);
void                viva_server_defenses_follow     (VivaServerDefenses *self,
                                                     const char         *defense_id,
                                                     gint64              after);
void                viva_server_defenses_unfollow   (VivaServerDefenses *self,
                                                     const char         *defense_id);
void                viva_server_defenses_time_up    (VivaServerDefenses  *self,
                                                     const char          *exam_id,
                                                     const char          *student_id);
guint               viva_server_defenses_get_n_live (VivaServerDefenses  *self);

G_END_DECLS

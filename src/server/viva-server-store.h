/* viva-server-store.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-server-db.h"

G_BEGIN_DECLS

#define VIVA_SERVER_DB_FILE "viva-server.db"

#define VIVA_TYPE_SERVER_STORE (viva_server_store_get_type ())

G_DECLARE_FINAL_TYPE (VivaServerStore, viva_server_store, VIVA, SERVER_STORE, GObject)

VivaServerStore *viva_server_store_open              (const char       *state_dir,
                                                      GError          **error);
VivaServerStore *viva_server_store_open_database     (const char       *state_dir,
                                                      const char       *database,
                                                      GError          **error);
gboolean         viva_server_store_is_postgres_link  (const char       *database);
const char      *viva_server_store_get_where         (VivaServerStore  *self);
VivaServerStore *viva_server_store_new_for_db        (VivaServerDb     *db,
                                                      GError          **error);
VivaServerDb    *viva_server_store_get_db            (VivaServerStore  *self);
gint64           viva_server_store_now               (void);
guint            viva_server_store_get_schema_version (VivaServerStore *self);

/* Exams and their roster. */
gboolean         viva_server_store_add_exam          (VivaServerStore  *self,
                                                      JsonObject       *exam,
                                                      JsonArray        *roster,
                                                      GError          **error);
JsonObject      *viva_server_store_get_exam          (VivaServerStore  *self,
                                                      const char       *exam_id,
                                                      GError          **error);
JsonArray       *viva_server_store_list_exams        (VivaServerStore  *self,
                                                      GError          **error);
JsonArray       *viva_server_store_get_roster        (VivaServerStore  *self,
                                                      const char       *exam_id,
                                                      GError          **error);
JsonObject      *viva_server_store_get_student       (VivaServerStore  *self,
                                                      const char       *exam_id,
                                                      const char       *student_id,
                                                      GError          **error);
gboolean         viva_server_store_close_exam        (VivaServerStore  *self,
                                                      const char       *exam_id,
                                                      GError          **error);

/* Tokens: only their SHA-256 is kept. */
gboolean         viva_server_store_sign_in           (VivaServerStore  *self,
                                                      const char       *exam_id,
                                                      const char       *student_id,
                                                      const char       *token_hash,
                                                      gint64            time_limit_ms,
                                                      GError          **error);
JsonObject      *viva_server_store_find_token        (VivaServerStore  *self,
                                                      const char       *token_hash,
                                                      GError          **error);

/* A student's sitting. */
JsonObject      *viva_server_store_get_sitting       (VivaServerStore  *self,
                                                      const char       *exam_id,
                                                      const char       *student_id,
                                                      GError          **error);
JsonArray       *viva_server_store_list_sittings     (VivaServerStore  *self,
                                                      const char       *exam_id,
                                                      GError          **error);
JsonArray       *viva_server_store_list_open_sittings (VivaServerStore *self,
                                                      GError          **error);
gboolean         viva_server_store_hand_in           (VivaServerStore  *self,
                                                      const char       *exam_id,
                                                      const char       *student_id,
                                                      GError          **error);
gint64           viva_server_store_save_code         (VivaServerStore  *self,
                                                      const char       *exam_id,
                                                      const char       *student_id,
                                                      const char       *problem_id,
                                                      const char       *kind,
                                                      const char       *code,
                                                      GError          **error);
JsonArray       *viva_server_store_latest_code       (VivaServerStore  *self,
                                                      const char       *exam_id,
                                                      const char       *student_id,
                                                      GError          **error);
gint64           viva_server_store_add_timeline      (VivaServerStore  *self,
                                                      const char       *exam_id,
                                                      const char       *student_id,
                                                      const char       *client_id,
                                                      gint64            first_seq,
                                                      JsonArray        *events,
                                                      JsonArray        *taken,
                                                      GError          **error);
gboolean         viva_server_store_keep_sitting_state (VivaServerStore *self,
                                                      const char       *exam_id,
                                                      const char       *student_id,
                                                      const char       *state,
                                                      GError          **error);
JsonArray       *viva_server_store_code_history      (VivaServerStore  *self,
                                                      const char       *exam_id,
                                                      const char       *student_id,
                                                      GError          **error);
JsonArray       *viva_server_store_get_timeline      (VivaServerStore  *self,
                                                      const char       *exam_id,
                                                      const char       *student_id,
                                                      const char       *problem_id,
                                                      gint64            after,
                                                      GError          **error);

/* Defenses, their checkpoints and every event they streamed. */
gboolean         viva_server_store_add_defense       (VivaServerStore  *self,
                                                      const char       *defense_id,
                                                      const char       *exam_id,
                                                      const char       *student_id,
                                                      const char       *problem_id,
                                                      const char       *code,
                                                      gboolean          handed_in,
                                                      GError          **error);
JsonObject      *viva_server_store_get_defense       (VivaServerStore  *self,
                                                      const char       *defense_id,
                                                      GError          **error);
JsonArray       *viva_server_store_list_defenses     (VivaServerStore  *self,
                                                      const char       *exam_id,
                                                      const char       *student_id,
                                                      GError          **error);
JsonArray       *viva_server_store_list_live_defenses (VivaServerStore *self,
                                                      GError          **error);
gboolean         viva_server_store_set_defense_state (VivaServerStore  *self,
                                                      const char       *defense_id,
                                                      const char       *state,
                                                      GError          **error);
gboolean         viva_server_store_set_defense_session (VivaServerStore *self,
                                                      const char       *defense_id,
                                                      const char       *session_id,
                                                      GError          **error);
gboolean         viva_server_store_save_checkpoint   (VivaServerStore  *self,
                                                      const char       *defense_id,
                                                      const char       *checkpoint,
                                                      GError          **error);
gint64           viva_server_store_add_event         (VivaServerStore  *self,
                                                      const char       *defense_id,
                                                      const char       *kind,
                                                      JsonObject       *data,
                                                      GError          **error);
JsonArray       *viva_server_store_list_events       (VivaServerStore  *self,
                                                      const char       *defense_id,
                                                      gint64            after,
                                                      guint             limit,
                                                      GError          **error);
gboolean         viva_server_store_save_report       (VivaServerStore  *self,
                                                      const char       *defense_id,
                                                      const char       *report,
                                                      const char       *signature,
                                                      GError          **error);
JsonArray       *viva_server_store_list_told         (VivaServerStore  *self,
                                                      const char       *defense_id,
                                                      gboolean          steps,
                                                      GError          **error);
JsonArray       *viva_server_store_list_reports      (VivaServerStore  *self,
                                                      const char       *exam_id,
                                                      GError          **error);

G_END_DECLS

/* viva-server-store-defenses.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-server-store-private.h"

/* The store's defenses: their rows, every streamed event (numbered by the
 * defense's own counter, raised in the event's transaction) and the signed
 * reports. The sitting's tables are viva-server-store.c's. */

/* @grade_job: (nullable): its grading job, when it is enqueued in the
 * same transaction (a Submit's, viva_server_store_save_submission()). */
gboolean
_viva_server_store_insert_defense (VivaServerStore  *self,
                                   const char       *defense_id,
                                   const char       *exam_id,
                                   const char       *student_id,
                                   const char       *problem_id,
                                   const char       *code,
                                   gboolean          handed_in,
                                   const char       *grade_job,
                                   GError          **error)
{
  gint64 now = viva_server_store_now ();

  return viva_server_db_execf (self->db, error,
                               "INSERT INTO defenses (id, exam_id, student_id, problem_id, state, code, handed_in,"
                               " last_seq, created_at, updated_at, grade_job)"
                               " VALUES ($1, $2, $3, $4, 'starting', $5, $6, 0, $7, $7, $8)",
                               "sssssiis", defense_id, exam_id, student_id, problem_id, code,
                               (gint64)(handed_in ? 1 : 0), now, grade_job);
}

gboolean
viva_server_store_add_defense (VivaServerStore  *self,
                               const char       *defense_id,
                               const char       *exam_id,
                               const char       *student_id,
                               const char       *problem_id,
                               const char       *code,
                               gboolean          handed_in,
                               GError          **error)
{
  return _viva_server_store_insert_defense (self, defense_id, exam_id, student_id, problem_id, code, handed_in,
                                            NULL, error);
}

JsonObject *
viva_server_store_get_defense (VivaServerStore  *self,
                               const char       *defense_id,
                               GError          **error)
{
  g_autoptr(GError) local = NULL;
  JsonObject *row = viva_server_db_rowf (self->db, &local, "SELECT * FROM defenses WHERE id = $1", "s", defense_id);

  return _viva_server_store_row_or_error (row, &local, error);
}

JsonArray *
viva_server_store_list_defenses (VivaServerStore  *self,
                                 const char       *exam_id,
                                 const char       *student_id,
                                 GError          **error)
{
  return viva_server_db_queryf (self->db, error,
                                "SELECT id, exam_id, student_id, problem_id, state, handed_in, last_seq, created_at,"
                                " updated_at FROM defenses WHERE exam_id = $1 AND (CAST($2 AS TEXT) IS NULL OR student_id = $2)"
                                " ORDER BY created_at, id",
                                "ss", exam_id, student_id);
}

/* The defenses a restarted server continues. */
JsonArray *
viva_server_store_list_live_defenses (VivaServerStore  *self,
                                      GError          **error)
{
  return viva_server_db_queryf (self->db, error,
                                "SELECT * FROM defenses WHERE state IN ('starting', 'running', 'waiting')"
                                " ORDER BY created_at, id", NULL);
}

gboolean
viva_server_store_set_defense_state (VivaServerStore  *self,
                                     const char       *defense_id,
                                     const char       *state,
                                     GError          **error)
{
  return viva_server_db_execf (self->db, error,
                               "UPDATE defenses SET state = $2, updated_at = $3 WHERE id = $1",
                               "ssi", defense_id, state, viva_server_store_now ());
}

gboolean
viva_server_store_set_defense_session (VivaServerStore  *self,
                                       const char       *defense_id,
                                       const char       *session_id,
                                       GError          **error)
{
  return viva_server_db_execf (self->db, error, "UPDATE defenses SET session_id = $2 WHERE id = $1",
                               "ss", defense_id, session_id);
}

gboolean
viva_server_store_save_checkpoint (VivaServerStore  *self,
                                   const char       *defense_id,
                                   const char       *checkpoint,
                                   GError          **error)
{
  return viva_server_db_execf (self->db, error,
                               "UPDATE defenses SET checkpoint = $2, updated_at = $3 WHERE id = $1",
                               "ssi", defense_id, checkpoint, viva_server_store_now ());
}

/**
 * viva_server_store_add_event:
 *
 * Keeps one streamed event, committed before anyone is sent it.
 *
 * Returns: its sequence number in the defense (from 1), or -1
 */
gint64
viva_server_store_add_event (VivaServerStore  *self,
                             const char       *defense_id,
                             const char       *kind,
                             JsonObject       *data,
                             GError          **error)
{
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), data);
  g_autofree char *text = json_to_string (node, FALSE);
  g_autoptr(JsonObject) row = NULL;
  g_autoptr(GError) local = NULL;
  gint64 seq;

  if (!viva_server_db_begin (self->db, error))
    return -1;

  if (!viva_server_db_execf (self->db, error,
                             "UPDATE defenses SET last_seq = last_seq + 1, updated_at = $2 WHERE id = $1",
                             "si", defense_id, viva_server_store_now ()) ||
      !(row = viva_server_db_rowf (self->db, &local, "SELECT last_seq FROM defenses WHERE id = $1", "s", defense_id)))
    {
      if (local != NULL)
        g_propagate_error (error, g_steal_pointer (&local));
      else if (error != NULL && *error == NULL)
        g_set_error (error, VIVA_SERVER_DB_ERROR, VIVA_SERVER_DB_ERROR_CONSTRAINT,
                     _("There is no defense “%s”."), defense_id);
      viva_server_db_rollback (self->db);
      return -1;
    }

  seq = json_object_get_int_member (row, "last_seq");
  if (!viva_server_db_execf (self->db, error,
                             "INSERT INTO defense_events (defense_id, seq, kind, data, created_at)"
                             " VALUES ($1, $2, $3, $4, $5)",
                             "sissi", defense_id, seq, kind, text, viva_server_store_now ()) ||
      !viva_server_db_commit (self->db, error))
    {
      viva_server_db_rollback (self->db);
      return -1;
    }

  return seq;
}

JsonArray *
viva_server_store_list_events (VivaServerStore  *self,
                               const char       *defense_id,
                               gint64            after,
                               guint             limit,
                               GError          **error)
{
  return viva_server_db_queryf (self->db, error,
                                "SELECT seq, kind, data, created_at FROM defense_events"
                                " WHERE defense_id = $1 AND seq > $2 ORDER BY seq LIMIT $3",
                                "sii", defense_id, after, (gint64)limit);
}

gboolean
viva_server_store_save_report (VivaServerStore  *self,
                               const char       *defense_id,
                               const char       *report,
                               const char       *signature,
                               GError          **error)
{
  g_autoptr(JsonObject) defense = NULL;

  if (!(defense = viva_server_store_get_defense (self, defense_id, error)))
    return FALSE;

  return viva_server_db_execf (self->db, error,
                               "INSERT INTO reports (defense_id, exam_id, student_id, problem_id, report_json,"
                               " signature, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)"
                               /* A node that took the defense over at its very end
                                * (the first stalled between its report and its
                                * state) builds the same report again: the first
                                * kept stands. */
                               " ON CONFLICT (defense_id) DO NOTHING",
                               "ssssssi", defense_id,
                               json_object_get_string_member (defense, "exam_id"),
                               json_object_get_string_member (defense, "student_id"),
                               json_object_get_string_member (defense, "problem_id"),
                               report, signature, viva_server_store_now ());
}

JsonArray *
viva_server_store_list_reports (VivaServerStore  *self,
                                const char       *exam_id,
                                GError          **error)
{
  return viva_server_db_queryf (self->db, error,
                                "SELECT * FROM reports WHERE exam_id = $1 ORDER BY student_id, problem_id, created_at",
                                "s", exam_id);
}

/**
 * viva_server_store_list_told:
 * @steps: the tool calls and results, else the last question or answer
 *
 * Returns: (transfer full): the defense's events of those kinds (`seq`,
 *   `kind`, `data`), newest first: what its clients were told before a
 *   restart
 */
JsonArray *
viva_server_store_list_told (VivaServerStore  *self,
                             const char       *defense_id,
                             gboolean          steps,
                             GError          **error)
{
  /* Two fixed statements, not SQL built from the caller's text. */
  if (steps)
    return viva_server_db_queryf (self->db, error,
                                  "SELECT seq, kind, data FROM defense_events WHERE defense_id = $1"
                                  " AND kind IN ('tool_call', 'tool_result') ORDER BY seq DESC", "s", defense_id);
  return viva_server_db_queryf (self->db, error,
                                "SELECT seq, kind, data FROM defense_events WHERE defense_id = $1"
                                " AND kind IN ('question', 'answer') ORDER BY seq DESC LIMIT 1", "s", defense_id);
}

/* viva-server-store-sittings.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-server-store-live.h"
#include "viva-server-store-pool.h"
#include "viva-server-store-private.h"

/* The store's sittings: a sign-in (which begins the sitting), the tokens,
 * the clock's rows, the code saved and the timeline, each numbered by a
 * counter on the sitting's row raised in the child's transaction, and the
 * sitting's own state. The schema, the exams and the roster are
 * viva-server-store.c's; the defenses viva-server-store-defenses.c's. */

/**
 * viva_server_store_sign_in:
 * @time_limit_ms: the sitting's length, 0 for none: its deadline is
 *   counted from the same instant as its start, never a millisecond off
 *
 * Revokes the student's earlier tokens and keeps the new one's hash, in one
 * transaction; the first sign-in also starts the sitting and its clock.
 */
gboolean
viva_server_store_sign_in (VivaServerStore  *self,
                           const char       *exam_id,
                           const char       *student_id,
                           const char       *token_hash,
                           gint64            time_limit_ms,
                           GError          **error)
{
  gint64 now = viva_server_store_now ();
  gint64 deadline = time_limit_ms > 0 ? now + time_limit_ms : 0;
  g_autoptr(GError) local = NULL;
  g_autoptr(JsonObject) sitting = NULL;

  TX_BEGIN (self, error);

  if (!viva_server_db_execf (self->db, error,
                             "UPDATE tokens SET revoked_at = $3 WHERE exam_id = $1 AND student_id = $2"
                             " AND role = 'student' AND revoked_at IS NULL",
                             "ssi", exam_id, student_id, now) ||
      !viva_server_db_execf (self->db, error,
                             "INSERT INTO tokens (token_hash, exam_id, student_id, role, created_at)"
                             " VALUES ($1, $2, $3, 'student', $4)",
                             "sssi", token_hash, exam_id, student_id, now))
    TX_FAIL (self);

  sitting = viva_server_db_rowf (self->db, &local,
                                 "SELECT started_at FROM sittings WHERE exam_id = $1 AND student_id = $2",
                                 "ss", exam_id, student_id);
  if (local != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      TX_FAIL (self);
    }

  if (sitting == NULL)
    {
      if (!viva_server_db_execf (self->db, error,
                                 "INSERT INTO sittings (exam_id, student_id, started_at, deadline, signed_in_at,"
                                 " sign_ins, last_snapshot, last_timeline) VALUES ($1, $2, $3, $4, $3, 1, 0, 0)",
                                 "ssii", exam_id, student_id, now, deadline))
        TX_FAIL (self);
    }
  else if (!viva_server_db_execf (self->db, error,
                                  "UPDATE sittings SET signed_in_at = $3, sign_ins = sign_ins + 1"
                                  " WHERE exam_id = $1 AND student_id = $2",
                                  "ssi", exam_id, student_id, now))
    TX_FAIL (self);

  TX_COMMIT (self, error);
  return TRUE;
}

/**
 * viva_server_store_find_token:
 *
 * Returns: (transfer full) (nullable): the live token's row (`exam_id`,
 *   `student_id`, `role`), %NULL when it is unknown or revoked
 */
JsonObject *
viva_server_store_find_token (VivaServerStore  *self,
                              const char       *token_hash,
                              GError          **error)
{
  g_autoptr(GError) local = NULL;
  JsonObject *row = viva_server_db_rowf (self->db, &local,
                                         "SELECT exam_id, student_id, role FROM tokens"
                                         " WHERE token_hash = $1 AND revoked_at IS NULL",
                                         "s", token_hash);

  return _viva_server_store_row_or_error (row, &local, error);
}

JsonObject *
viva_server_store_get_sitting (VivaServerStore  *self,
                               const char       *exam_id,
                               const char       *student_id,
                               GError          **error)
{
  g_autoptr(GError) local = NULL;
  JsonObject *row = viva_server_db_rowf (self->db, &local,
                                         "SELECT * FROM sittings WHERE exam_id = $1 AND student_id = $2",
                                         "ss", exam_id, student_id);

  return _viva_server_store_row_or_error (row, &local, error);
}

JsonArray *
viva_server_store_list_sittings (VivaServerStore  *self,
                                 const char       *exam_id,
                                 GError          **error)
{
  return viva_server_db_queryf (self->db, error,
                                "SELECT * FROM sittings WHERE exam_id = $1 ORDER BY student_id", "s", exam_id);
}

JsonArray *
viva_server_store_list_open_sittings (VivaServerStore  *self,
                                      GError          **error)
{
  return viva_server_db_queryf (self->db, error,
                                "SELECT * FROM sittings WHERE handed_in_at IS NULL ORDER BY deadline", NULL);
}

gboolean
viva_server_store_hand_in (VivaServerStore  *self,
                           const char       *exam_id,
                           const char       *student_id,
                           GError          **error)
{
  return viva_server_db_execf (self->db, error,
                               "UPDATE sittings SET handed_in_at = $3"
                               " WHERE exam_id = $1 AND student_id = $2 AND handed_in_at IS NULL",
                               "ssi", exam_id, student_id, viva_server_store_now ());
}

/* Raises a counter column of the sitting and returns its new value, inside
 * the caller's transaction. */
static gint64
next_sitting_seq (VivaServerStore  *self,
                  const char       *column,
                  const char       *exam_id,
                  const char       *student_id,
                  GError          **error)
{
  g_autofree char *update = g_strdup_printf ("UPDATE sittings SET %s = %s + 1 WHERE exam_id = $1 AND student_id = $2",
                                             column, column);
  g_autofree char *select = g_strdup_printf ("SELECT %s AS seq FROM sittings WHERE exam_id = $1 AND student_id = $2",
                                             column);
  g_autoptr(JsonObject) row = NULL;
  g_autoptr(GError) local = NULL;

  if (!viva_server_db_execf (self->db, error, update, "ss", exam_id, student_id))
    return -1;
  if (!(row = viva_server_db_rowf (self->db, &local, select, "ss", exam_id, student_id)))
    {
      if (local != NULL)
        g_propagate_error (error, g_steal_pointer (&local));
      else
        g_set_error (error, VIVA_SERVER_DB_ERROR, VIVA_SERVER_DB_ERROR_CONSTRAINT,
                     _("This student has no sitting yet: sign in first."));
      return -1;
    }
  return json_object_get_int_member (row, "seq");
}

/* The snapshot's statements, inside the caller's transaction (a
 * submission's grading job is enqueued in the same one,
 * viva-server-store-pool.c). Returns its sequence number, or -1. */
gint64
_viva_server_store_insert_snapshot (VivaServerStore  *self,
                                    const char       *exam_id,
                                    const char       *student_id,
                                    const char       *problem_id,
                                    const char       *kind,
                                    const char       *code,
                                    GError          **error)
{
  gint64 seq;

  if ((seq = next_sitting_seq (self, "last_snapshot", exam_id, student_id, error)) < 0 ||
      !viva_server_db_execf (self->db, error,
                             "INSERT INTO snapshots (exam_id, student_id, seq, problem_id, kind, code, saved_at)"
                             " VALUES ($1, $2, $3, $4, $5, $6, $7)",
                             "ssisssi", exam_id, student_id, seq, problem_id, kind, code,
                             viva_server_store_now ()))
    return -1;
  return seq;
}

/**
 * viva_server_store_save_code:
 * @kind: `autosave`, `run` or `submit`
 *
 * Returns: the snapshot's sequence number in the sitting, or -1
 */
gint64
viva_server_store_save_code (VivaServerStore  *self,
                             const char       *exam_id,
                             const char       *student_id,
                             const char       *problem_id,
                             const char       *kind,
                             const char       *code,
                             GError          **error)
{
  gint64 seq;

  if (!viva_server_db_begin (self->db, error))
    return -1;

  if ((seq = _viva_server_store_insert_snapshot (self, exam_id, student_id, problem_id, kind, code, error)) < 0 ||
      !viva_server_db_commit (self->db, error))
    {
      viva_server_db_rollback (self->db);
      return -1;
    }

  return seq;
}

/**
 * viva_server_store_latest_code:
 *
 * Returns: (transfer full): per problem the newest snapshot (`problem_id`,
 *   `seq`, `kind`, `code`, `saved_at`), in the order of the problems' ids
 */
JsonArray *
viva_server_store_latest_code (VivaServerStore  *self,
                               const char       *exam_id,
                               const char       *student_id,
                               GError          **error)
{
  return viva_server_db_queryf (self->db, error,
                                "SELECT s.problem_id, s.seq, s.kind, s.code, s.saved_at FROM snapshots s"
                                " WHERE s.exam_id = $1 AND s.student_id = $2 AND s.seq ="
                                " (SELECT MAX(t.seq) FROM snapshots t WHERE t.exam_id = s.exam_id"
                                "  AND t.student_id = s.student_id AND t.problem_id = s.problem_id)"
                                " ORDER BY s.problem_id",
                                "ss", exam_id, student_id);
}

/**
 * viva_server_store_add_timeline:
 * @client_id: (nullable): the PC's own id for its events
 * @first_seq: with @client_id, the PC's number of the first event (the
 *   others follow it one by one)
 * @events: the integrity timeline's events, as the app records them
 * @taken: (nullable): gets the events taken now (not those kept before)
 *
 * An event whose PC's number is kept already is not taken again: a batch
 * sent again after its answer was lost counts once. The other nodes are
 * told at the commit (a defense of the student may run on one of them).
 *
 * Returns: the last event's sequence number (0 when none was new), or -1
 */
gint64
viva_server_store_add_timeline (VivaServerStore  *self,
                                const char       *exam_id,
                                const char       *student_id,
                                const char       *client_id,
                                gint64            first_seq,
                                JsonArray        *events,
                                JsonArray        *taken,
                                GError          **error)
{
  g_autoptr(JsonArray) now = json_array_new ();
  gint64 seq = 0;

  if (!viva_server_db_begin (self->db, error))
    return -1;

  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonNode *node = json_array_get_element (events, i);
      JsonObject *event = json_node_get_object (node);
      g_autofree char *text = json_to_string (node, FALSE);
      const char *problem = json_object_get_string_member_with_default (event, "problem", NULL);
      gint64 client_seq = first_seq + i;
      gboolean ok;

      if (client_id != NULL)
        {
          g_autoptr(GError) local = NULL;
          g_autoptr(JsonObject) kept = viva_server_db_rowf (self->db, &local,
                                                            "SELECT seq FROM timeline WHERE exam_id = $1 AND student_id = $2"
                                                            " AND client_id = $3 AND client_seq = $4",
                                                            "sssi", exam_id, student_id, client_id, client_seq);

          if (local != NULL)
            {
              g_propagate_error (error, g_steal_pointer (&local));
              viva_server_db_rollback (self->db);
              return -1;
            }
          if (kept != NULL)
            continue;
        }

      if ((seq = next_sitting_seq (self, "last_timeline", exam_id, student_id, error)) < 0)
        ok = FALSE;
      else if (client_id != NULL)
        ok = viva_server_db_execf (self->db, error,
                                   "INSERT INTO timeline (exam_id, student_id, seq, problem_id, event_json, received_at,"
                                   " client_id, client_seq) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                                   "ssissisi", exam_id, student_id, seq, problem, text, viva_server_store_now (),
                                   client_id, client_seq);
      else
        ok = viva_server_db_execf (self->db, error,
                                   "INSERT INTO timeline (exam_id, student_id, seq, problem_id, event_json, received_at)"
                                   " VALUES ($1, $2, $3, $4, $5, $6)",
                                   "ssissi", exam_id, student_id, seq, problem, text, viva_server_store_now ());
      if (!ok)
        {
          viva_server_db_rollback (self->db);
          return -1;
        }
      json_array_add_element (now, json_node_copy (node));
    }

  if (json_array_get_length (now) > 0)
    {
      g_autofree char *payload = g_strconcat (exam_id, "\n", student_id, NULL);

      if (!viva_server_db_notify (self->db, VIVA_SERVER_TIMELINE_CHANNEL, payload, error))
        {
          viva_server_db_rollback (self->db);
          return -1;
        }
    }
  if (!viva_server_db_commit (self->db, error))
    {
      viva_server_db_rollback (self->db);
      return -1;
    }
  for (guint i = 0; taken != NULL && i < json_array_get_length (now); i++)
    json_array_add_element (taken, json_node_copy (json_array_get_element (now, i)));
  return seq;
}

/**
 * viva_server_store_get_timeline:
 * @problem_id: (nullable): only this problem's events
 * @after: only the events numbered after this (0: all)
 *
 * Returns: (transfer full): the student's timeline events (`seq`,
 *   `event_json`, `received_at`), oldest first
 */
JsonArray *
viva_server_store_get_timeline (VivaServerStore  *self,
                                const char       *exam_id,
                                const char       *student_id,
                                const char       *problem_id,
                                gint64            after,
                                GError          **error)
{
  return viva_server_db_queryf (self->db, error,
                                "SELECT seq, event_json, received_at FROM timeline"
                                " WHERE exam_id = $1 AND student_id = $2 AND (CAST($3 AS TEXT) IS NULL OR problem_id = $3)"
                                " AND seq > $4 ORDER BY seq",
                                "sssi", exam_id, student_id, problem_id, after);
}

/**
 * viva_server_store_keep_sitting_state:
 * @state: the sitting's state, as VivaExamSitting gives it
 */
gboolean
viva_server_store_keep_sitting_state (VivaServerStore  *self,
                                      const char       *exam_id,
                                      const char       *student_id,
                                      const char       *state,
                                      GError          **error)
{
  return viva_server_db_execf (self->db, error,
                               "UPDATE sittings SET state_json = $3 WHERE exam_id = $1 AND student_id = $2",
                               "sss", exam_id, student_id, state);
}

/**
 * viva_server_store_code_history:
 *
 * Returns: (transfer full): per problem and kind the newest snapshot
 *   (`problem_id`, `seq`, `kind`, `code`), oldest first: what a sitting's
 *   hand-in is told again when the server starts
 */
JsonArray *
viva_server_store_code_history (VivaServerStore  *self,
                                const char       *exam_id,
                                const char       *student_id,
                                GError          **error)
{
  return viva_server_db_queryf (self->db, error,
                                "SELECT s.problem_id, s.seq, s.kind, s.code FROM snapshots s"
                                " WHERE s.exam_id = $1 AND s.student_id = $2 AND s.seq ="
                                " (SELECT MAX(t.seq) FROM snapshots t WHERE t.exam_id = s.exam_id"
                                "  AND t.student_id = s.student_id AND t.problem_id = s.problem_id AND t.kind = s.kind)"
                                " ORDER BY s.seq",
                                "ss", exam_id, student_id);
}

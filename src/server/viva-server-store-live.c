/* viva-server-store-live.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-server-store-live.h"

/* Several nodes serving one defense: one runs it (the lease holder), any
 * takes its student's requests.
 *
 * - Every write of a live defense (an event with its checkpoint, a state)
 *   carries a fencing token, the lease's epoch when the writer took it,
 *   and checks it in the write's own transaction: the lease row is read
 *   FOR UPDATE first, so a node taking the lease over waits for the write
 *   in flight and a writer whose lease changed hands since commits
 *   nothing (FENCED). A node that stalled past its lease (SIGSTOP, a
 *   swapped-out VM) and wakes up writes not one event more.
 * - An answer sent to a node that does not run the defense waits in
 *   `answers`, checked against the defense's events (the question it
 *   answers is the one pending), committed before the client hears yes.
 *   The holder takes it: its answer event marks the row consumed in the
 *   same transaction, so an answer is used once, also across a takeover.
 * - Each commit is told to the other nodes (NOTIFY on PostgreSQL); they
 *   poll as well. */

#define DB(self) viva_server_store_get_db (self)

static gboolean
fence_holds (VivaServerStore        *self,
             const VivaServerFence  *fence,
             GError                **error)
{
  g_autoptr(GError) local = NULL;
  g_autoptr(JsonObject) row = NULL;

  if (fence == NULL)
    return TRUE;
  row = viva_server_db_rowf (DB (self), &local,
                             "SELECT holder, epoch FROM leases WHERE resource = $1 FOR UPDATE",
                             "s", fence->resource);
  if (local != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  if (row == NULL || !g_str_equal (json_object_get_string_member (row, "holder"), fence->holder) ||
      json_object_get_int_member (row, "epoch") != fence->epoch)
    {
      g_set_error (error, VIVA_SERVER_DB_ERROR, VIVA_SERVER_DB_ERROR_FENCED,
                   _("Another node runs this defense now."));
      return FALSE;
    }
  return TRUE;
}

/**
 * viva_server_store_check_fence:
 *
 * Returns: whether the lease is still the fence's (FENCED when not)
 */
gboolean
viva_server_store_check_fence (VivaServerStore        *self,
                               const VivaServerFence  *fence,
                               GError                **error)
{
  if (!viva_server_db_begin (DB (self), error))
    return FALSE;
  if (!fence_holds (self, fence, error) || !viva_server_db_commit (DB (self), error))
    {
      viva_server_db_rollback (DB (self));
      return FALSE;
    }
  return TRUE;
}

/**
 * viva_server_store_add_live_event:
 * @fence: (nullable): the writer's token; %NULL for a server of one node
 * @checkpoint: (nullable): the examiner's newest checkpoint, kept with it
 * @answers_question: for an `answer`, the question's sequence number: a
 *   waiting answer to it is consumed in this transaction
 *
 * Keeps one streamed event, committed before anyone is sent it, while the
 * fence holds.
 *
 * Returns: its sequence number in the defense (from 1), or -1
 */
gint64
viva_server_store_add_live_event (VivaServerStore        *self,
                                  const VivaServerFence  *fence,
                                  const char             *defense_id,
                                  const char             *kind,
                                  JsonObject             *data,
                                  const char             *checkpoint,
                                  gint64                  answers_question,
                                  GError                **error)
{
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), data);
  g_autofree char *text = json_to_string (node, FALSE);
  g_autoptr(JsonArray) rows = NULL;
  gint64 now = viva_server_store_now ();
  gint64 seq;

  if (!viva_server_db_begin (DB (self), error))
    return -1;

  /* The counter raised first: the defense's row lock orders the writers. */
  if (!fence_holds (self, fence, error) ||
      (checkpoint != NULL &&
       !viva_server_db_execf (DB (self), error, "UPDATE defenses SET checkpoint = $2 WHERE id = $1",
                              "ss", defense_id, checkpoint)) ||
      !(rows = viva_server_db_queryf (DB (self), error,
                                      "UPDATE defenses SET last_seq = last_seq + 1, updated_at = $2 WHERE id = $1"
                                      " RETURNING last_seq",
                                      "si", defense_id, now)))
    {
      viva_server_db_rollback (DB (self));
      return -1;
    }
  if (json_array_get_length (rows) == 0)
    {
      g_set_error (error, VIVA_SERVER_DB_ERROR, VIVA_SERVER_DB_ERROR_CONSTRAINT,
                   _("There is no defense “%s”."), defense_id);
      viva_server_db_rollback (DB (self));
      return -1;
    }

  seq = json_object_get_int_member (json_array_get_object_element (rows, 0), "last_seq");
  if (!viva_server_db_execf (DB (self), error,
                             "INSERT INTO defense_events (defense_id, seq, kind, data, created_at, node_id)"
                             " VALUES ($1, $2, $3, $4, $5, $6)",
                             "sissis", defense_id, seq, kind, text, now, fence ? fence->holder : NULL) ||
      (answers_question > 0 &&
       !viva_server_db_execf (DB (self), error,
                              "UPDATE answers SET consumed_at = $3 WHERE defense_id = $1 AND question_seq = $2"
                              " AND consumed_at IS NULL",
                              "sii", defense_id, answers_question, now)) ||
      !viva_server_db_notify (DB (self), VIVA_SERVER_EVENTS_CHANNEL, defense_id, error) ||
      !viva_server_db_commit (DB (self), error))
    {
      viva_server_db_rollback (DB (self));
      return -1;
    }
  return seq;
}

/**
 * viva_server_store_set_live_state:
 * @state: (nullable): the defense's new state, or %NULL to keep only
 *   @checkpoint
 * @checkpoint: (nullable): kept with it
 */
gboolean
viva_server_store_set_live_state (VivaServerStore        *self,
                                  const VivaServerFence  *fence,
                                  const char             *defense_id,
                                  const char             *state,
                                  const char             *checkpoint,
                                  GError                **error)
{
  if (!viva_server_db_begin (DB (self), error))
    return FALSE;
  if (!fence_holds (self, fence, error) ||
      (checkpoint != NULL &&
       !viva_server_db_execf (DB (self), error, "UPDATE defenses SET checkpoint = $2 WHERE id = $1",
                              "ss", defense_id, checkpoint)) ||
      (state != NULL &&
       !viva_server_db_execf (DB (self), error, "UPDATE defenses SET state = $2, updated_at = $3 WHERE id = $1",
                              "ssi", defense_id, state, viva_server_store_now ())) ||
      !viva_server_db_commit (DB (self), error))
    {
      viva_server_db_rollback (DB (self));
      return FALSE;
    }
  return TRUE;
}

/**
 * viva_server_store_stored_question:
 *
 * Returns: (transfer full) (nullable): the question pending as the
 *   events say (`seq`, `data`): the last question, when no answer
 *   followed it
 */
JsonObject *
viva_server_store_stored_question (VivaServerStore  *self,
                                   const char       *defense_id,
                                   GError          **error)
{
  g_autoptr(GError) local = NULL;
  g_autoptr(JsonObject) row = viva_server_db_rowf (DB (self), &local,
                                                   "SELECT seq, kind, data FROM defense_events WHERE defense_id = $1"
                                                   " AND kind IN ('question', 'answer') ORDER BY seq DESC LIMIT 1",
                                                   "s", defense_id);

  if (local != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return NULL;
    }
  if (row == NULL || !g_str_equal (json_object_get_string_member (row, "kind"), "question"))
    return NULL;
  return g_steal_pointer (&row);
}

gboolean
viva_server_store_defense_is_live (VivaServerStore  *self,
                                   const char       *defense_id,
                                   GError          **error)
{
  g_autoptr(GError) local = NULL;
  g_autoptr(JsonObject) row = viva_server_db_rowf (DB (self), &local,
                                                   "SELECT state FROM defenses WHERE id = $1", "s", defense_id);
  const char *state;

  if (local != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  state = row ? json_object_get_string_member (row, "state") : "";
  return g_str_equal (state, "starting") || g_str_equal (state, "running") || g_str_equal (state, "waiting");
}

/**
 * viva_server_store_queue_answer:
 * @question_seq: the question answered, or 0 for the one pending
 * @node_id: (nullable): the node that took it
 *
 * Keeps a student's answer for the node that runs the defense, once the
 * events say that question is the one pending: committed (and the holder
 * told) before the caller acknowledges it. The same answer sent again is
 * taken again; another one to a question answered or queued already is
 * refused (G_IO_ERROR_PENDING).
 *
 * Returns: the question's sequence number, or -1
 */
gint64
viva_server_store_queue_answer (VivaServerStore  *self,
                                const char       *defense_id,
                                gint64            question_seq,
                                const char       *text,
                                const char       *node_id,
                                GError          **error)
{
  g_autoptr(JsonObject) question = NULL;
  g_autoptr(JsonObject) queued = NULL;
  g_autoptr(GError) local = NULL;
  gint64 seq;

  if (!viva_server_db_begin (DB (self), error))
    return -1;

  if (!viva_server_store_defense_is_live (self, defense_id, &local) ||
      !(question = viva_server_store_stored_question (self, defense_id, &local)))
    {
      viva_server_db_rollback (DB (self));
      if (local != NULL)
        g_propagate_error (error, g_steal_pointer (&local));
      else
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_PENDING,
                     _("No question is waiting for an answer in this defense."));
      return -1;
    }
  seq = json_object_get_int_member (question, "seq");
  if (question_seq > 0 && question_seq != seq)
    {
      viva_server_db_rollback (DB (self));
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_PENDING,
                   _("That question was answered already: fetch the defense’s events for the one waiting now."));
      return -1;
    }

  queued = viva_server_db_rowf (DB (self), &local,
                                "SELECT text FROM answers WHERE defense_id = $1 AND question_seq = $2",
                                "si", defense_id, seq);
  if (local != NULL)
    {
      viva_server_db_rollback (DB (self));
      g_propagate_error (error, g_steal_pointer (&local));
      return -1;
    }
  if (queued != NULL)
    {
      viva_server_db_rollback (DB (self));
      if (g_str_equal (json_object_get_string_member (queued, "text"), text))
        return seq;
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_PENDING,
                   _("That question was answered already: fetch the defense’s events for the one waiting now."));
      return -1;
    }

  if (!viva_server_db_execf (DB (self), error,
                             "INSERT INTO answers (defense_id, question_seq, text, received_at, received_by)"
                             " VALUES ($1, $2, $3, $4, $5)",
                             "sisis", defense_id, seq, text, viva_server_store_now (), node_id) ||
      !viva_server_db_notify (DB (self), VIVA_SERVER_ANSWERS_CHANNEL, defense_id, error) ||
      !viva_server_db_commit (DB (self), error))
    {
      viva_server_db_rollback (DB (self));
      return -1;
    }
  return seq;
}

/**
 * viva_server_store_waiting_answer:
 *
 * Returns: (transfer full) (nullable): the answer waiting for question
 *   @question_seq (`text`), not yet consumed
 */
JsonObject *
viva_server_store_waiting_answer (VivaServerStore  *self,
                                  const char       *defense_id,
                                  gint64            question_seq,
                                  GError          **error)
{
  g_autoptr(GError) local = NULL;
  JsonObject *row = viva_server_db_rowf (DB (self), &local,
                                         "SELECT text FROM answers WHERE defense_id = $1 AND question_seq = $2"
                                         " AND consumed_at IS NULL",
                                         "si", defense_id, question_seq);

  if (local != NULL)
    g_propagate_error (error, g_steal_pointer (&local));
  return row;
}

/**
 * viva_server_store_renew_leases:
 * @holder: this node's id
 *
 * Renews, in one statement, every lease @holder holds that has not run
 * out: a node with sixty live defenses renews them with one statement per
 * tick, not sixty transactions.
 *
 * Returns: (transfer full): the leases renewed (`resource`, `epoch`), or
 *   %NULL on error
 */
JsonArray *
viva_server_store_renew_leases (VivaServerStore  *self,
                                const char       *holder,
                                guint             ttl_ms,
                                GError          **error)
{
  gint64 now = viva_server_store_now ();

  return viva_server_db_queryf (DB (self), error,
                                "UPDATE leases SET expires_at = $2 WHERE holder = $1 AND expires_at >= $3"
                                " RETURNING resource, epoch",
                                "sii", holder, now + ttl_ms, now);
}

/**
 * viva_server_store_list_unheld_defenses:
 *
 * Returns: (transfer full): the live defenses whose lease is missing or
 *   has run out (whole rows): what a node's tick may take over, without
 *   trying the ones another node holds
 */
JsonArray *
viva_server_store_list_unheld_defenses (VivaServerStore  *self,
                                        GError          **error)
{
  return viva_server_db_queryf (DB (self), error,
                                "SELECT d.* FROM defenses d LEFT JOIN leases l ON l.resource = 'defense/' || d.id"
                                " WHERE d.state IN ('starting', 'running', 'waiting')"
                                " AND (l.resource IS NULL OR l.expires_at < $1)"
                                " ORDER BY d.created_at, d.id",
                                "i", viva_server_store_now ());
}

/* viva-server-defenses-nodes.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-server-defenses-private.h"
#include "viva-server-follow.h"
#include "viva-server-store-live.h"
#include "viva-server-store-pool.h"

/* Several nodes over one database: a node runs a live defense only while
 * it holds the defense's lease, renewed a few times per lease. A node
 * that dies stops renewing; once its lease has run out another node's
 * tick takes it and continues the defense from the database's checkpoint,
 * as a restarted node does. A node that finds its lease taken (it stalled
 * past it) drops the defense without writing anything more; and before
 * it notices, every write it tries carries the epoch it took the lease
 * at, checked in the write's transaction (viva-server-store-live.c): the
 * first refused one stops the defense here. */
#define DEFENSE_LEASE_MS 6000

static guint
defense_lease_ms (void)
{
  return g_getenv ("VIVA_SERVER_LEASE_MS") ? viva_server_pool_lease_ms () : DEFENSE_LEASE_MS;
}

char *
_viva_server_defenses_lease_resource (const char *defense_id)
{
  return g_strconcat ("defense/", defense_id, NULL);
}

/* Takes or renews the lease: its epoch (> 0) when this node holds it now,
 * 0 when another node does, -1 when the database did not answer (then
 * nobody could take it either: a running defense goes on). Without a
 * holder every defense is this node's, at epoch 1. */
gint64
_viva_server_defenses_take_lease (VivaServerDefenses *self,
                                  const char         *defense_id)
{
  g_autofree char *resource = _viva_server_defenses_lease_resource (defense_id);
  g_autoptr(GError) error = NULL;
  gint64 epoch;

  if (self->holder == NULL)
    return 1;
  epoch = viva_server_store_take_lease (viva_server_api_get_store (self->api), resource, self->holder,
                                        defense_lease_ms (), &error);
  if (epoch < 0)
    g_message ("defense %s: lease not renewed: %s", defense_id, error->message);
  return epoch;
}

/**
 * viva_server_defenses_resume_all:
 *
 * Continues every defense the database says was live.
 *
 * Returns: how many were continued
 */
guint
viva_server_defenses_resume_all (VivaServerDefenses  *self,
                                 GError             **error)
{
  VivaServerStore *store = viva_server_api_get_store (self->api);
  g_autoptr(JsonArray) rows = NULL;
  guint n = 0;

  /* Only those nobody holds: the others' defenses are not tried, one
   * transaction each, at every tick. */
  if (!(rows = self->holder != NULL ? viva_server_store_list_unheld_defenses (store, error)
                                    : viva_server_store_list_live_defenses (store, error)))
    return 0;

  for (guint i = 0; i < json_array_get_length (rows); i++)
    {
      JsonObject *row = json_array_get_object_element (rows, i);
      const char *id = json_object_get_string_member (row, "id");
      g_autoptr(GError) local = NULL;
      gint64 epoch;

      /* Taking over many is long: this node's own leases go on meanwhile. */
      _viva_server_defenses_renew_if_due (self);
      /* Another node's, while it lives; or running here already; or one
       * that could not continue (said once). */
      if (g_hash_table_contains (self->live, id) || g_hash_table_contains (self->unresumable, id) ||
          (epoch = _viva_server_defenses_take_lease (self, id)) <= 0)
        continue;
      if (_viva_server_defenses_resume_one (self, row, epoch, &local))
        n++;
      else
        {
          g_warning ("defense %s could not continue: %s", id, local->message);
          g_hash_table_add (self->unresumable, g_strdup (id));
        }
    }
  return n;
}

static guint
tick_ms (void)
{
  return MIN (2000, defense_lease_ms () / 3);
}

/**
 * _viva_server_defenses_renew_if_due:
 *
 * Renews this node's leases when a tick's worth of time passed since the
 * last renewal. A room pressing Submit at once keeps the main loop busy
 * starting defenses for seconds; the tick's timer waits behind it, and
 * the leases would run out under a node that is only busy.
 */
void
_viva_server_defenses_renew_if_due (VivaServerDefenses *self)
{
  g_autoptr(JsonArray) rows = NULL;
  g_autoptr(GError) error = NULL;
  gint64 now = g_get_monotonic_time ();

  if (self->holder == NULL || now - self->renewed_at < (gint64)tick_ms () * 1000)
    return;
  self->renewed_at = now;
  if (!(rows = viva_server_store_renew_leases (viva_server_api_get_store (self->api), self->holder,
                                               defense_lease_ms (), &error)))
    g_message ("defenses: leases not renewed: %s", error->message);
}

static gboolean
lease_tick_cb (gpointer user_data)
{
  VivaServerDefenses *self = user_data;
  g_autoptr(GPtrArray) lost = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GHashTable) renewed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(JsonArray) rows = NULL;
  g_autoptr(GError) error = NULL;
  GHashTableIter iter;
  const char *id;
  VivaServerLive *live;

  /* Every lease still this node's, renewed at once; a database away
   * renews none, and the defenses go on (nobody can take them either). */
  self->renewed_at = g_get_monotonic_time ();
  if (g_hash_table_size (self->live) > 0 &&
      !(rows = viva_server_store_renew_leases (viva_server_api_get_store (self->api), self->holder,
                                               defense_lease_ms (), &error)))
    {
      g_message ("defenses: leases not renewed: %s", error->message);
      g_clear_error (&error);
    }
  for (guint i = 0; rows != NULL && i < json_array_get_length (rows); i++)
    {
      JsonObject *row = json_array_get_object_element (rows, i);

      g_hash_table_insert (renewed, g_strdup (json_object_get_string_member (row, "resource")),
                           GINT_TO_POINTER ((int)json_object_get_int_member (row, "epoch")));
    }

  g_hash_table_iter_init (&iter, self->live);
  while (rows != NULL && g_hash_table_iter_next (&iter, (gpointer *)&id, (gpointer *)&live))
    {
      gint64 epoch;

      if (live->fenced)
        continue;
      /* One that ran out while this node stalled is taken again, if
       * nobody took it meanwhile. */
      if (g_hash_table_contains (renewed, live->resource))
        epoch = GPOINTER_TO_INT (g_hash_table_lookup (renewed, live->resource));
      else
        epoch = _viva_server_defenses_take_lease (self, id);

      /* The same epoch: still this node's. One more: this node's lease ran
       * out and it took it back, nobody in between (a take by another
       * node raises it too, so theirs and this node's would be two): what
       * it holds of the defense is still true. Else another node held it
       * in between: what this node holds is stale, read again from the
       * database by resume_all below if the lease is this node's now. */
      if (epoch == live->epoch + 1)
        live->epoch = epoch;
      if (epoch == 0 || (epoch > 0 && epoch != live->epoch))
        g_ptr_array_add (lost, g_strdup (id));
      else if (epoch > 0)
        {
          _viva_server_defenses_take_timeline (live);
          _viva_server_defense_take_answer (live);
        }
    }
  for (guint i = 0; i < lost->len; i++)
    {
      live = g_hash_table_lookup (self->live, lost->pdata[i]);
      g_message ("defense %s: another node held it meanwhile; dropping it here", (char *)lost->pdata[i]);
      /* Nothing more from here: the other node writes from now on. */
      _viva_server_defenses_drop_now (live);
    }

  /* A dead node's defenses, their leases run out: continued here. */
  viva_server_defenses_resume_all (self, &error);
  if (error != NULL)
    g_message ("defenses: %s", error->message);
  return G_SOURCE_CONTINUE;
}

/**
 * viva_server_defenses_set_holder:
 * @holder: this node's id
 *
 * From now on this node runs only the defenses whose lease it holds,
 * renews them, and continues those a dead node left (see above). Call
 * before viva_server_defenses_resume_all().
 */
void
viva_server_defenses_set_holder (VivaServerDefenses *self,
                                 const char         *holder)
{
  g_return_if_fail (VIVA_IS_SERVER_DEFENSES (self));
  g_return_if_fail (self->holder == NULL);

  self->holder = g_strdup (holder);
  self->lease_id = g_timeout_add (tick_ms (), lease_tick_cb, self);
  self->answers_listen_id = viva_server_db_listen (viva_server_store_get_db (viva_server_api_get_store (self->api)),
                                                   VIVA_SERVER_ANSWERS_CHANNEL, _viva_server_defense_answer_told,
                                                   self);
  self->timeline_listen_id = viva_server_db_listen (viva_server_store_get_db (viva_server_api_get_store (self->api)),
                                                    VIVA_SERVER_TIMELINE_CHANNEL, _viva_server_defenses_timeline_told,
                                                    self);
}

/**
 * viva_server_defenses_is_live:
 *
 * Returns: whether the defense goes on, here or on another node
 */
gboolean
viva_server_defenses_is_live (VivaServerDefenses *self,
                              const char         *defense_id)
{
  VivaServerLive *live = g_hash_table_lookup (self->live, defense_id);

  if (live != NULL && !live->fenced)
    return TRUE;
  return viva_server_store_defense_is_live (viva_server_api_get_store (self->api), defense_id, NULL);
}

/**
 * viva_server_defenses_dup_pending:
 * @question_seq: (out) (optional): its event's number
 *
 * Returns: (transfer full) (nullable): the question waiting for an
 *   answer, as this node's examiner has it, else as the events say
 *   (another node runs the defense)
 */
char *
viva_server_defenses_dup_pending (VivaServerDefenses *self,
                                  const char         *defense_id,
                                  gint64             *question_seq)
{
  VivaServerLive *live = g_hash_table_lookup (self->live, defense_id);
  g_autoptr(JsonObject) row = NULL;
  g_autoptr(JsonNode) data = NULL;

  if (live != NULL && !live->fenced && live->pending != NULL)
    {
      if (question_seq != NULL)
        *question_seq = live->pending_seq;
      return g_strdup (live->pending);
    }
  if (question_seq != NULL)
    *question_seq = 0;
  /* Resuming here, or run by another node: the events say. */
  if (!viva_server_store_defense_is_live (viva_server_api_get_store (self->api), defense_id, NULL) ||
      !(row = viva_server_store_stored_question (viva_server_api_get_store (self->api), defense_id, NULL)) ||
      !(data = json_from_string (json_object_get_string_member (row, "data"), NULL)) ||
      !JSON_NODE_HOLDS_OBJECT (data))
    return NULL;
  if (question_seq != NULL)
    *question_seq = json_object_get_int_member (row, "seq");
  return g_strdup (json_object_get_string_member_with_default (json_node_get_object (data), "question", ""));
}

static gboolean
is_local_cb (const char *defense_id,
             gpointer    user_data)
{
  VivaServerDefenses *self = user_data;
  VivaServerLive *live = g_hash_table_lookup (self->live, defense_id);

  return live != NULL && !live->fenced;
}

static void
followed_cb (const char *defense_id,
             gint64      seq,
             const char *kind,
             JsonObject *data,
             gpointer    user_data)
{
  _viva_server_defenses_emit (user_data, defense_id, seq, kind, data);
}

/**
 * viva_server_defenses_follow:
 * @after: the last event the follower has
 *
 * Tells the `event` signal's listeners the defense's events also while
 * another node runs it (read from the database), until as many
 * viva_server_defenses_unfollow() calls.
 */
void
viva_server_defenses_follow (VivaServerDefenses *self,
                             const char         *defense_id,
                             gint64              after)
{
  g_return_if_fail (VIVA_IS_SERVER_DEFENSES (self));

  if (self->follow == NULL)
    self->follow = viva_server_follow_new (viva_server_api_get_store (self->api), followed_cb, is_local_cb, self);
  viva_server_follow_add (self->follow, defense_id, after);
}

void
viva_server_defenses_unfollow (VivaServerDefenses *self,
                               const char         *defense_id)
{
  g_return_if_fail (VIVA_IS_SERVER_DEFENSES (self));

  if (self->follow != NULL)
    viva_server_follow_remove (self->follow, defense_id);
}

/**
 * viva_server_defenses_answer:
 * @question_seq: the question answered, or 0 for the one pending
 *
 * Takes a student's answer on any node: the examiner gets it at once when
 * this node runs the defense and asks that question now; else it is kept
 * in the database for the node that runs it (committed when this
 * returns).
 */
gboolean
viva_server_defenses_answer (VivaServerDefenses  *self,
                             const char          *defense_id,
                             const char          *text,
                             gint64               question_seq,
                             GError             **error)
{
  VivaServerLive *live = g_hash_table_lookup (self->live, defense_id);

  if (live == NULL || live->pending == NULL || live->fenced)
    {
      if (!_viva_server_defense_queue_answer (self, defense_id, text, question_seq, error))
        return FALSE;
      if (live != NULL)
        _viva_server_defenses_take_answer_later (live);
      return TRUE;
    }
  if (question_seq > 0 && question_seq != live->pending_seq)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_PENDING,
                   _("That question was answered already: fetch the defense’s events for the one waiting now."));
      return FALSE;
    }
  _viva_server_defenses_take_timeline (live);
  if (!viva_examiner_answer (live->examiner, text, error))
    return FALSE;
  /* Its answer event was refused (another node took the defense while
   * this one stalled): the answer is kept for that node instead, the
   * question still pending there, so what the student is told was taken
   * is never lost. */
  if (live->fenced)
    return _viva_server_defense_queue_answer (self, defense_id, text, question_seq, error);
  return TRUE;
}

/* Every node takes every student's answer. A node that does not run the
 * defense (or runs it but has not asked the question again yet, resuming)
 * keeps the answer in the database, checked against the defense's events
 * and committed before the student is told it was taken; the node that
 * runs the defense takes it when told (NOTIFY on PostgreSQL), when it
 * asks the question, and at every lease tick. Its answer event consumes
 * the row in the same transaction (viva-server-defense-events.c), so an
 * answer is used once, also by a node that takes the defense over. */

static VivaServerStore *
store_of (VivaServerDefenses *self)
{
  return viva_server_api_get_store (_viva_server_defenses_get_api (self));
}

/**
 * _viva_server_defense_queue_answer:
 *
 * Returns: whether the answer is kept for the node that runs the defense
 */
gboolean
_viva_server_defense_queue_answer (VivaServerDefenses  *self,
                                   const char          *defense_id,
                                   const char          *text,
                                   gint64               question_seq,
                                   GError             **error)
{
  return viva_server_store_queue_answer (store_of (self), defense_id, question_seq, text,
                                         _viva_server_defenses_get_holder (self), error) > 0;
}

/**
 * _viva_server_defense_take_answer:
 *
 * Gives the examiner the answer waiting for its pending question, if one
 * is. From the main loop, never inside the examiner's own signal.
 */
void
_viva_server_defense_take_answer (VivaServerLive *live)
{
  g_autoptr(JsonObject) row = NULL;
  g_autoptr(GError) error = NULL;

  if (live->fenced || live->pending == NULL || live->pending_seq <= 0)
    return;
  if (!(row = viva_server_store_waiting_answer (store_of (live->self), live->id, live->pending_seq, &error)))
    {
      if (error != NULL)
        g_message ("defense %s: %s", live->id, error->message);
      return;
    }
  /* What the PC sent before the answer goes into the session before it. */
  _viva_server_defenses_take_timeline (live);
  if (!viva_examiner_answer (live->examiner, json_object_get_string_member (row, "text"), &error))
    g_message ("defense %s: the answer kept for it was not taken: %s", live->id, error->message);
}

/* Another node kept an answer: the payload is the defense's id. */
void
_viva_server_defense_answer_told (const char *payload,
                                  gpointer    user_data)
{
  VivaServerLive *live = _viva_server_defenses_lookup (user_data, payload);

  if (live != NULL)
    _viva_server_defenses_take_answer_later (live);
}

/* Whether @session_event is @event as the session recorded it: every
 * member the PC sent, the same (the session adds a `time` when none). */
static gboolean
same_event (JsonObject *event,
            JsonObject *session_event)
{
  JsonObjectIter iter;
  const char *name;
  JsonNode *value;

  json_object_iter_init (&iter, event);
  while (json_object_iter_next (&iter, &name, &value))
    if (!json_object_has_member (session_event, name) ||
        !json_node_equal (value, json_object_get_member (session_event, name)))
      return FALSE;
  return TRUE;
}

/**
 * _viva_server_defenses_take_timeline:
 *
 * Takes into the defense's session the events the student's PC sent on
 * its problem since the last one taken, read from the database (whichever
 * node the PC sent them to), each once, in their order. A defense resumed
 * from its checkpoint first matches them against the events its session
 * has (one by one, so two alike count twice): those the node before took
 * are not taken again, those it took after its last kept checkpoint are.
 */
void
_viva_server_defenses_take_timeline (VivaServerLive *live)
{
  VivaServerStore *store = viva_server_api_get_store (_viva_server_defenses_get_api (live->self));
  g_autoptr(JsonArray) rows = NULL;
  g_autoptr(GPtrArray) had = NULL;
  g_autoptr(GError) error = NULL;

  if (live->fenced || live->session == NULL)
    return;
  if (!(rows = viva_server_store_get_timeline (store, live->exam_id, live->student_id, live->problem_id,
                                               live->timeline_seq, &error)))
    {
      g_message ("defense %s: the student's events not read: %s", live->id, error->message);
      return;
    }
  if (!live->timeline_synced)
    {
      JsonArray *timeline = viva_exam_session_get_timeline (live->session);

      had = g_ptr_array_new ();
      for (guint i = 0; timeline != NULL && i < json_array_get_length (timeline); i++)
        g_ptr_array_add (had, json_array_get_object_element (timeline, i));
    }

  for (guint i = 0; i < json_array_get_length (rows); i++)
    {
      JsonObject *row = json_array_get_object_element (rows, i);
      g_autoptr(JsonNode) node = json_from_string (json_object_get_string_member_with_default (row, "event_json", ""),
                                                   NULL);
      gboolean known = FALSE;

      live->timeline_seq = json_object_get_int_member (row, "seq");
      if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
        continue;
      for (guint j = 0; had != NULL && j < had->len && !known; j++)
        if ((known = same_event (json_node_get_object (node), had->pdata[j])))
          g_ptr_array_remove_index (had, j);
      if (!known)
        viva_exam_session_add_timeline_event (live->session, json_node_get_object (node));
    }
  live->timeline_synced = TRUE;
}

/**
 * viva_server_defenses_add_timeline:
 *
 * The student's PC sent timeline events (committed): a defense of theirs
 * this node runs takes those of its problem into its session, as the
 * app's own defense records the window losing the focus while the
 * examiner asks; its report has them. A defense another node runs takes
 * them there (told by NOTIFY, and at its lease tick).
 */
void
viva_server_defenses_add_timeline (VivaServerDefenses *self,
                                   const char         *exam_id,
                                   const char         *student_id)
{
  GHashTableIter iter;
  VivaServerLive *live;

  g_return_if_fail (VIVA_IS_SERVER_DEFENSES (self));

  g_hash_table_iter_init (&iter, self->live);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *)&live))
    if (g_str_equal (live->exam_id, exam_id) && g_str_equal (live->student_id, student_id))
      _viva_server_defenses_take_timeline (live);
}

/* Another node kept a student's events: the payload is "EXAM\nSTUDENT". */
void
_viva_server_defenses_timeline_told (const char *payload,
                                     gpointer    user_data)
{
  g_auto(GStrv) parts = g_strsplit (payload ? payload : "", "\n", 2);

  if (g_strv_length (parts) == 2)
    viva_server_defenses_add_timeline (user_data, parts[0], parts[1]);
}

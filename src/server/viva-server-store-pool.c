/* viva-server-store-pool.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-server-keys.h"
#include "viva-server-store-pool.h"
#include "viva-server-store-private.h"

/* What lets several nodes share one database, in the store's portable SQL:
 *
 * - a lease is a row per resource; taking it is one UPDATE whose WHERE
 *   says "mine already, or expired", so of two nodes racing the second's
 *   UPDATE (which waits on the first's row lock on PostgreSQL, on the
 *   whole database on SQLite) matches nothing and it reads the winner;
 * - a job is claimed with SELECT … FOR UPDATE SKIP LOCKED (the SQLite
 *   engine drops the clause: its write transaction already holds the
 *   whole database) and a claim id; renewing and finishing name that
 *   claim, so a claimer whose lease expired and whose job went to another
 *   can neither renew nor record a result: each job's result is recorded
 *   once. */

#define DB(self) viva_server_store_get_db (self)

/* VIVA_SERVER_LEASE_MS shortens leases for the tests and benchmarks, which
 * kill nodes and workers on purpose and should not wait ten seconds. */
guint
viva_server_pool_lease_ms (void)
{
  const char *env = g_getenv ("VIVA_SERVER_LEASE_MS");
  guint64 value;

  if (env != NULL && g_ascii_string_to_unsigned (env, 10, 100, 600000, &value, NULL))
    return (guint)value;
  return VIVA_SERVER_JOB_LEASE_MS;
}

/* VIVA_SERVER_RUN_CLAIM_MS shortens the wait of a defense's code run for
 * a claimer, for the tests, which should not sit a minute before it. */
guint
viva_server_pool_run_claim_ms (void)
{
  const char *env = g_getenv ("VIVA_SERVER_RUN_CLAIM_MS");
  guint64 value;

  if (env != NULL && g_ascii_string_to_unsigned (env, 10, 100, 3600000, &value, NULL))
    return (guint)value;
  return VIVA_SERVER_RUN_CLAIM_MS;
}

/* A worker's token reaches one exam's jobs and nothing else. */
gboolean
viva_server_store_add_worker_token (VivaServerStore  *self,
                                    const char       *exam_id,
                                    const char       *token_hash,
                                    GError          **error)
{
  return viva_server_db_execf (DB (self), error,
                               "INSERT INTO tokens (token_hash, exam_id, student_id, role, created_at)"
                               " VALUES ($1, $2, NULL, 'worker', $3)",
                               "ssi", token_hash, exam_id, viva_server_store_now ());
}

static JsonObject *
first_row (JsonArray *rows)
{
  if (rows == NULL || json_array_get_length (rows) == 0)
    return NULL;
  return json_object_ref (json_array_get_object_element (rows, 0));
}

gboolean
viva_server_store_node_alive (VivaServerStore  *self,
                              const char       *node_id,
                              const char       *address,
                              gint64            started_at,
                              const char       *host,
                              const char       *home,
                              gint64            pid,
                              GError          **error)
{
  return viva_server_db_execf (DB (self), error,
                               "INSERT INTO nodes (id, address, started_at, seen_at, host, home, pid)"
                               " VALUES ($1, $2, $3, $4, $5, $6, $7)"
                               " ON CONFLICT (id) DO UPDATE SET seen_at = $4, address = $2",
                               "ssiissi", node_id, address, started_at, viva_server_store_now (), host, home, pid);
}

/**
 * viva_server_store_list_home_nodes:
 *
 * Returns: (transfer full): the other nodes that ran on @host from
 *   @home (`id`, `pid`): a serve started again finds its predecessors
 */
JsonArray *
viva_server_store_list_home_nodes (VivaServerStore  *self,
                                   const char       *node_id,
                                   const char       *host,
                                   const char       *home,
                                   GError          **error)
{
  return viva_server_db_queryf (DB (self), error,
                                "SELECT id, pid FROM nodes WHERE host = $1 AND home = $2 AND id <> $3"
                                " AND pid IS NOT NULL ORDER BY started_at",
                                "sss", host, home, node_id);
}

/**
 * viva_server_store_release_leases:
 *
 * Lets every lease of @holder (a node known dead) run out now.
 */
gboolean
viva_server_store_release_leases (VivaServerStore  *self,
                                  const char       *holder,
                                  GError          **error)
{
  return viva_server_db_execf (DB (self), error,
                               "UPDATE leases SET expires_at = 0 WHERE holder = $1", "s", holder);
}

JsonArray *
viva_server_store_list_nodes (VivaServerStore  *self,
                              gint64            seen_since,
                              GError          **error)
{
  return viva_server_db_queryf (DB (self), error,
                                "SELECT * FROM nodes WHERE seen_at >= $1 ORDER BY started_at, id",
                                "i", seen_since);
}

/**
 * viva_server_store_take_lease:
 * @holder: who asks (a node's id)
 * @ttl_ms: how long it holds from now unless renewed
 *
 * Takes @resource, or renews it when @holder has it already.
 *
 * Returns: the lease's epoch (from 1, raised each time it changes hands)
 *   when @holder has it now, 0 when another holds it, -1 on error
 */
gint64
viva_server_store_take_lease (VivaServerStore  *self,
                              const char       *resource,
                              const char       *holder,
                              guint             ttl_ms,
                              GError          **error)
{
  gint64 now = viva_server_store_now ();
  g_autoptr(JsonArray) rows = NULL;
  g_autoptr(JsonObject) row = NULL;

  if (!viva_server_db_begin (DB (self), error))
    return -1;

  if (!viva_server_db_execf (DB (self), error,
                             "INSERT INTO leases (resource, holder, epoch, expires_at) VALUES ($1, $2, 0, 0)"
                             " ON CONFLICT (resource) DO NOTHING",
                             "ss", resource, holder) ||
      !viva_server_db_execf (DB (self), error,
                             "UPDATE leases SET"
                             " epoch = CASE WHEN holder = $2 AND expires_at >= $4 THEN epoch ELSE epoch + 1 END,"
                             " holder = $2, expires_at = $3"
                             " WHERE resource = $1 AND (holder = $2 OR expires_at < $4)",
                             "ssii", resource, holder, now + ttl_ms, now) ||
      !(rows = viva_server_db_queryf (DB (self), error,
                                      "SELECT holder, epoch FROM leases WHERE resource = $1", "s", resource)) ||
      !viva_server_db_commit (DB (self), error))
    {
      viva_server_db_rollback (DB (self));
      return -1;
    }

  if (!(row = first_row (rows)) || !g_str_equal (json_object_get_string_member (row, "holder"), holder))
    return 0;
  return json_object_get_int_member (row, "epoch");
}

gboolean
viva_server_store_drop_lease (VivaServerStore  *self,
                              const char       *resource,
                              const char       *holder,
                              GError          **error)
{
  return viva_server_db_execf (DB (self), error,
                               "UPDATE leases SET expires_at = 0 WHERE resource = $1 AND holder = $2",
                               "ss", resource, holder);
}

JsonArray *
viva_server_store_list_leases (VivaServerStore  *self,
                               GError          **error)
{
  return viva_server_db_queryf (DB (self), error,
                                "SELECT * FROM leases WHERE expires_at >= $1 ORDER BY resource",
                                "i", viva_server_store_now ());
}

static gboolean
insert_job (VivaServerStore  *self,
            const char       *job_id,
            const char       *exam_id,
            const char       *kind,
            const char       *subject,
            JsonObject       *payload,
            GError          **error)
{
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), payload);
  g_autofree char *text = json_to_string (node, FALSE);

  if (!viva_server_db_execf (DB (self), error,
                             "INSERT INTO jobs (id, exam_id, kind, subject, payload, state, enqueued_at, attempts)"
                             " VALUES ($1, $2, $3, $4, $5, 'waiting', $6, 0)",
                             "sssssi", job_id, exam_id, kind, subject, text, viva_server_store_now ()) ||
      !viva_server_db_notify (DB (self), VIVA_SERVER_JOBS_CHANNEL, exam_id, error))
    return FALSE;
  _viva_server_store_job_enqueued (self, exam_id);
  return TRUE;
}

gboolean
viva_server_store_enqueue_job (VivaServerStore  *self,
                               const char       *job_id,
                               const char       *exam_id,
                               const char       *kind,
                               const char       *subject,
                               JsonObject       *payload,
                               GError          **error)
{
  return insert_job (self, job_id, exam_id, kind, subject, payload, error);
}

/**
 * viva_server_store_save_submission:
 * @defense_id: (nullable): the defense begun on it, whose row is written
 *   in the same transaction, naming the job as its grade
 * @job_id: (out): the grading job's id
 *
 * Keeps a submitted snapshot and enqueues its grading, in one transaction:
 * a submission is never kept without its grading, nor graded unkept; and
 * with @defense_id never without its defense knowing that grading (a node
 * killed after the commit leaves a defense another node continues,
 * waiting on this job; before it, nothing a retried Submit would find).
 *
 * Returns: the snapshot's sequence number, or -1
 */
gint64
viva_server_store_save_submission (VivaServerStore  *self,
                                   const char       *exam_id,
                                   const char       *student_id,
                                   const char       *problem_id,
                                   const char       *code,
                                   const char       *defense_id,
                                   char            **job_id,
                                   GError          **error)
{
  g_autofree char *id = viva_server_keys_random_id ();
  g_autofree char *subject = NULL;
  g_autoptr(JsonObject) payload = json_object_new ();
  gint64 seq;

  json_object_set_string_member (payload, "student_id", student_id);
  json_object_set_string_member (payload, "problem_id", problem_id);
  json_object_set_string_member (payload, "code", code);

  if (!viva_server_db_begin (DB (self), error))
    return -1;

  if ((seq = _viva_server_store_insert_snapshot (self, exam_id, student_id, problem_id, "submit", code, error)) < 0 ||
      !(subject = g_strdup_printf ("snapshot/%s/%" G_GINT64_FORMAT, student_id, seq)) ||
      !insert_job (self, id, exam_id, "grade", subject, payload, error) ||
      (defense_id != NULL &&
       !_viva_server_store_insert_defense (self, defense_id, exam_id, student_id, problem_id, code, FALSE, id, error)) ||
      !viva_server_db_commit (DB (self), error))
    {
      viva_server_db_rollback (DB (self));
      return -1;
    }

  if (job_id != NULL)
    *job_id = g_steal_pointer (&id);
  return seq;
}

/**
 * viva_server_store_claim_job:
 * @exam_id: (nullable): only this exam's jobs (a worker's token reaches
 *   one exam), or any
 * @claimer: who claims (a worker's or a node's id), kept for status
 *
 * Claims the oldest job waiting, or whose claimer stopped renewing; a
 * defense's tool run (`run`) before any grading, as a student waits on it.
 *
 * Returns: (transfer full) (nullable): the job's row, with its new
 *   `claim_id`; %NULL when there is none (@error unset)
 */
JsonObject *
viva_server_store_claim_job (VivaServerStore  *self,
                             const char       *exam_id,
                             const char       *claimer,
                             guint             lease_ms,
                             GError          **error)
{
  return viva_server_store_claim_job_of_kind (self, exam_id, NULL, claimer, lease_ms, error);
}

/**
 * viva_server_store_claim_job_of_kind:
 * @kind: (nullable): only jobs of this kind (a worker kept for the
 *   defenses' code runs, or for gradings), or any
 *
 * As viva_server_store_claim_job().
 */
JsonObject *
viva_server_store_claim_job_of_kind (VivaServerStore  *self,
                                     const char       *exam_id,
                                     const char       *kind,
                                     const char       *claimer,
                                     guint             lease_ms,
                                     GError          **error)
{
  gint64 now = viva_server_store_now ();
  g_autofree char *claim_id = viva_server_keys_random_id ();
  g_autoptr(JsonArray) found = NULL;
  g_autoptr(JsonArray) rows = NULL;
  JsonObject *row;
  const char *job_id;

  if (!viva_server_db_begin (DB (self), error))
    return NULL;

  /* A job that failed this often (it kills every claimer) stops. */
  if (!viva_server_db_execf (DB (self), error,
                             "UPDATE jobs SET state = 'failed', finished_at = $1"
                             " WHERE state = 'running' AND lease_until < $1 AND attempts >= $2",
                             "ii", now, (gint64)VIVA_SERVER_JOB_MAX_ATTEMPTS) ||
      !(found = viva_server_db_queryf (DB (self), error,
                                       "SELECT id FROM jobs"
                                       " WHERE (state = 'waiting' OR (state = 'running' AND lease_until < $1))"
                                       " AND (CAST($2 AS TEXT) IS NULL OR exam_id = $2)"
                                       " AND (CAST($3 AS TEXT) IS NULL OR kind = $3)"
                                       " ORDER BY CASE kind WHEN 'run' THEN 0 ELSE 1 END, enqueued_at, id"
                                       " LIMIT 1 FOR UPDATE SKIP LOCKED",
                                       "iss", now, exam_id, kind)))
    {
      viva_server_db_rollback (DB (self));
      return NULL;
    }

  if (json_array_get_length (found) == 0)
    {
      viva_server_db_rollback (DB (self));
      return NULL;
    }
  job_id = json_object_get_string_member (json_array_get_object_element (found, 0), "id");

  if (!viva_server_db_execf (DB (self), error,
                             "UPDATE jobs SET state = 'running', claim_id = $2, claimed_by = $3, claimed_at = $4,"
                             " lease_until = $5, attempts = attempts + 1 WHERE id = $1",
                             "sssii", job_id, claim_id, claimer, now, now + lease_ms) ||
      !(rows = viva_server_db_queryf (DB (self), error, "SELECT * FROM jobs WHERE id = $1", "s", job_id)) ||
      !viva_server_db_commit (DB (self), error))
    {
      viva_server_db_rollback (DB (self));
      return NULL;
    }

  row = first_row (rows);
  return row;
}

static gboolean
claim_holds (VivaServerStore  *self,
             const char       *job_id,
             const char       *claim_id,
             const char       *state,
             GError          **error)
{
  g_autoptr(JsonArray) rows = NULL;
  g_autoptr(JsonObject) row = NULL;

  if (!(rows = viva_server_db_queryf (DB (self), error, "SELECT claim_id, state FROM jobs WHERE id = $1",
                                      "s", job_id)))
    return FALSE;
  if (!(row = first_row (rows)) ||
      json_object_get_null_member (row, "claim_id") ||
      !g_str_equal (json_object_get_string_member (row, "claim_id"), claim_id) ||
      !g_str_equal (json_object_get_string_member (row, "state"), state))
    {
      g_set_error (error, VIVA_SERVER_DB_ERROR, VIVA_SERVER_DB_ERROR_CONSTRAINT, "%s",
                   _("This job went to another worker: its lease ran out. Drop it and claim the next."));
      return FALSE;
    }
  return TRUE;
}

/**
 * viva_server_store_renew_job:
 *
 * Returns: %TRUE while @claim_id still holds the job; %FALSE with a
 *   CONSTRAINT error once it went to another
 */
gboolean
viva_server_store_renew_job (VivaServerStore  *self,
                             const char       *job_id,
                             const char       *claim_id,
                             guint             lease_ms,
                             GError          **error)
{
  return viva_server_db_execf (DB (self), error,
                               "UPDATE jobs SET lease_until = $3 WHERE id = $1 AND claim_id = $2 AND state = 'running'",
                               "ssi", job_id, claim_id, viva_server_store_now () + lease_ms) &&
         claim_holds (self, job_id, claim_id, "running", error);
}

/**
 * viva_server_store_finish_job:
 * @result: the job's result, JSON text
 *
 * Records the result once: a second call with the same claim (a retried
 * request) changes nothing and succeeds; a stale claim fails.
 */
gboolean
viva_server_store_finish_job (VivaServerStore  *self,
                              const char       *job_id,
                              const char       *claim_id,
                              const char       *finisher,
                              const char       *result,
                              GError          **error)
{
  if (!viva_server_db_execf (DB (self), error,
                             "UPDATE jobs SET state = 'done', result = $3, finished_by = $4, finished_at = $5"
                             " WHERE id = $1 AND claim_id = $2 AND state = 'running'",
                             "ssssi", job_id, claim_id, result, finisher, viva_server_store_now ()) ||
      !claim_holds (self, job_id, claim_id, "done", error))
    return FALSE;
  /* A hint to whoever waits on it, who polls anyway: not worth failing
   * a recorded result for. */
  viva_server_db_notify (DB (self), VIVA_SERVER_JOBS_DONE_CHANNEL, job_id, NULL);
  _viva_server_store_job_finished (self, job_id);
  return TRUE;
}

/**
 * viva_server_store_drop_waiting_job:
 *
 * Removes a job no claimer took yet: a defense's code run its defense no
 * longer waits on (stopped, or gone to another node, which asks again).
 * A job claimed already runs on.
 */
gboolean
viva_server_store_drop_waiting_job (VivaServerStore  *self,
                                    const char       *job_id,
                                    GError          **error)
{
  return viva_server_db_execf (DB (self), error, "DELETE FROM jobs WHERE id = $1 AND state = 'waiting'",
                               "s", job_id);
}

/**
 * viva_server_store_withdraw_unclaimed_job:
 * @claim_ms: how long it may wait for a claimer
 * @withdrawn: (out): whether it was withdrawn
 *
 * Withdraws a job no claimer took within @claim_ms of its enqueue, or
 * took again within @claim_ms of its dead claimer's lease running out (a
 * defense's code run with no claimer alive): one UPDATE whose WHERE says
 * so, so a claim that came first keeps the job (@withdrawn FALSE: it
 * ends, or runs again under its lease) and one that comes after finds
 * none, nor can a late claimer record a result. Its row stays,
 * `withdrawn`, for the teacher's queue.
 */
gboolean
viva_server_store_withdraw_unclaimed_job (VivaServerStore  *self,
                                          const char       *job_id,
                                          guint             claim_ms,
                                          gboolean         *withdrawn,
                                          GError          **error)
{
  gint64 now = viva_server_store_now ();
  g_autoptr(JsonArray) rows = NULL;

  *withdrawn = FALSE;
  if (!(rows = viva_server_db_queryf (DB (self), error,
                                      "UPDATE jobs SET state = 'withdrawn', finished_at = $2"
                                      " WHERE id = $1 AND ((state = 'waiting' AND enqueued_at <= $3)"
                                      " OR (state = 'running' AND lease_until <= $3)) RETURNING id",
                                      "sii", job_id, now, now - (gint64)claim_ms)))
    return FALSE;
  *withdrawn = json_array_get_length (rows) > 0;
  return TRUE;
}

JsonObject *
viva_server_store_get_job (VivaServerStore  *self,
                           const char       *job_id,
                           GError          **error)
{
  g_autoptr(JsonArray) rows = viva_server_db_queryf (DB (self), error, "SELECT * FROM jobs WHERE id = $1",
                                                     "s", job_id);

  return first_row (rows);
}

/**
 * viva_server_store_queue_summary:
 *
 * Returns: (transfer full): `waiting`, `running` (claimed, lease alive),
 *   `expired` (claimed, lease run out: to be claimed again), `done`,
 *   `failed`, `oldest_wait_ms` (the oldest waiting job's wait, 0 when
 *   none waits), `withdrawn` (code runs no claimer took in time), and
 *   `kinds`: for each kind of job, its `waiting` (with the expired),
 *   `running` and `oldest_wait_ms`
 */
JsonObject *
viva_server_store_queue_summary (VivaServerStore  *self,
                                 GError          **error)
{
  gint64 now = viva_server_store_now ();
  g_autoptr(JsonArray) rows = NULL;
  JsonObject *summary, *kinds;
  gint64 oldest = 0;
  static const char * const states[] = { "waiting", "running", "expired", "done", "failed", "withdrawn" };

  if (!(rows = viva_server_db_queryf (DB (self), error,
                                      "SELECT CASE WHEN state = 'running' AND lease_until < $1 THEN 'expired'"
                                      " ELSE state END AS s, kind, COUNT(*) AS n, MIN(enqueued_at) AS oldest"
                                      " FROM jobs GROUP BY 1, 2",
                                      "i", now)))
    return NULL;

  summary = json_object_new ();
  kinds = json_object_new ();
  for (guint i = 0; i < G_N_ELEMENTS (states); i++)
    json_object_set_int_member (summary, states[i], 0);
  for (guint i = 0; i < json_array_get_length (rows); i++)
    {
      JsonObject *row = json_array_get_object_element (rows, i);
      const char *state = json_object_get_string_member (row, "s");
      const char *kind = json_object_get_string_member (row, "kind");
      const char *counted = g_str_equal (state, "expired") ? "waiting" : state;
      gint64 n = json_object_get_int_member (row, "n");
      JsonObject *of_kind;

      json_object_set_int_member (summary, state, json_object_get_int_member (summary, state) + n);
      if (g_str_equal (counted, "waiting") || g_str_equal (counted, "running"))
        {
          if (json_object_has_member (kinds, kind))
            of_kind = json_object_get_object_member (kinds, kind);
          else
            {
              of_kind = json_object_new ();
              json_object_set_int_member (of_kind, "waiting", 0);
              json_object_set_int_member (of_kind, "running", 0);
              json_object_set_int_member (of_kind, "oldest_wait_ms", 0);
              json_object_set_object_member (kinds, kind, of_kind);
            }
          json_object_set_int_member (of_kind, counted, json_object_get_int_member (of_kind, counted) + n);
          if (g_str_equal (counted, "waiting"))
            {
              gint64 waited = now - json_object_get_int_member (row, "oldest");

              if (waited > json_object_get_int_member (of_kind, "oldest_wait_ms"))
                json_object_set_int_member (of_kind, "oldest_wait_ms", waited);
            }
        }
      if (g_str_equal (state, "waiting") || g_str_equal (state, "expired"))
        {
          gint64 first = json_object_get_int_member (row, "oldest");

          oldest = oldest == 0 ? first : MIN (oldest, first);
        }
    }
  json_object_set_int_member (summary, "oldest_wait_ms", oldest ? now - oldest : 0);
  json_object_set_object_member (summary, "kinds", kinds);
  return summary;
}

/**
 * viva_server_store_list_grades:
 *
 * Returns: (transfer full): the exam's grading jobs, oldest first:
 *   `payload` (student, problem), `state`, `result`, `enqueued_at`,
 *   `claimed_at`, `attempts`
 */
JsonArray *
viva_server_store_list_grades (VivaServerStore  *self,
                               const char       *exam_id,
                               GError          **error)
{
  return viva_server_db_queryf (DB (self), error,
                                "SELECT payload, state, result, enqueued_at, claimed_at, attempts FROM jobs"
                                " WHERE exam_id = $1 AND kind = 'grade' ORDER BY enqueued_at, id",
                                "s", exam_id);
}

/* A defense's grading job (viva-server-defense-jobs.c). */

/**
 * viva_server_store_defense_grade_job:
 * @code: (nullable): the code to grade when the defense has no job yet:
 *   a job is enqueued for it, named on the defense in the same transaction
 * @job_id: (out): the defense's grading job
 *
 * Returns: %TRUE with @job_id set; %TRUE with %NULL when the defense has
 *   none and no @code was given
 */
gboolean
viva_server_store_defense_grade_job (VivaServerStore  *self,
                                     const char       *defense_id,
                                     const char       *code,
                                     char            **job_id,
                                     GError          **error)
{
  g_autoptr(JsonArray) rows = NULL;
  g_autoptr(JsonObject) row = NULL;
  g_autoptr(JsonObject) payload = json_object_new ();
  g_autofree char *id = viva_server_keys_random_id ();
  g_autofree char *subject = g_strconcat ("defense/", defense_id, NULL);

  *job_id = NULL;
  if (!viva_server_db_begin (DB (self), error))
    return FALSE;
  if (!(rows = viva_server_db_queryf (DB (self), error,
                                      "SELECT exam_id, student_id, problem_id, grade_job FROM defenses WHERE id = $1",
                                      "s", defense_id)))
    {
      viva_server_db_rollback (DB (self));
      return FALSE;
    }
  if (!(row = first_row (rows)))
    {
      viva_server_db_rollback (DB (self));
      g_set_error (error, VIVA_SERVER_DB_ERROR, VIVA_SERVER_DB_ERROR_CONSTRAINT, "%s",
                   _("There is no such defense."));
      return FALSE;
    }
  if (!json_object_get_null_member (row, "grade_job") || code == NULL)
    {
      viva_server_db_rollback (DB (self));
      if (!json_object_get_null_member (row, "grade_job"))
        *job_id = g_strdup (json_object_get_string_member (row, "grade_job"));
      return TRUE;
    }

  json_object_set_string_member (payload, "student_id", json_object_get_string_member (row, "student_id"));
  json_object_set_string_member (payload, "problem_id", json_object_get_string_member (row, "problem_id"));
  json_object_set_string_member (payload, "code", code);
  if (!insert_job (self, id, json_object_get_string_member (row, "exam_id"), "grade", subject, payload, error) ||
      !viva_server_db_execf (DB (self), error, "UPDATE defenses SET grade_job = $2 WHERE id = $1",
                             "ss", defense_id, id) ||
      !viva_server_db_commit (DB (self), error))
    {
      viva_server_db_rollback (DB (self));
      return FALSE;
    }
  *job_id = g_steal_pointer (&id);
  return TRUE;
}

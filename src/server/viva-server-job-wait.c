/* viva-server-job-wait.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-server-defense-jobs.h"
#include "viva-server-store-pool.h"

/* Waiting on a job of the pool, for a defense's grade or one of its code
 * runs alike. The result may be recorded by any node of the pool (a
 * worker posts to whichever the balancer picks), so the record is the
 * job's row: it is read when this process records the result (the store's
 * job-finished), when another node's is told (NOTIFY on viva_jobs_done),
 * and every POLL_MS anyway — a notification is a hint, never the record,
 * and one indexed read every POLL_MS of each job waited on is nothing
 * beside a grading or a sandbox's start.
 *
 * A code run may be given a deadline for its claim: a student waits on
 * it, and with no claimer alive (serve --local-jobs 0 and no worker, or
 * every worker gone) nothing else would ever end the wait. Past it, the
 * job is withdrawn if still unclaimed, by the one UPDATE that a claim
 * would otherwise win; a job claimed in time is waited on to its end, as
 * its own limits bound it (the runner's timeout; a claimer that died
 * loses it with its lease, and from then on it waits for a claimer as
 * anew). The deadline counts from the row's enqueue (or its lease's end),
 * by the server's clock, so a database away meanwhile changes nothing:
 * the poll asks again and withdraws once it answers. A grading has none: it
 * may rightly wait for a worker to be started, and `status` shows it. */

#define POLL_MS 100

typedef struct
{
  VivaServerApi *api;
  char          *job_id;
  guint          claim_ms;     /* 0: no deadline for a claim */
  guint          poll_id;
  guint          wake_id;
  gulong         finished_id;
  guint          listen_id;
} Wait;

/* Stops whatever would read the row again. */
static void
wait_stop (Wait *wait)
{
  VivaServerStore *store = viva_server_api_get_store (wait->api);

  g_clear_handle_id (&wait->poll_id, g_source_remove);
  g_clear_handle_id (&wait->wake_id, g_source_remove);
  g_clear_signal_handler (&wait->finished_id, store);
  viva_server_db_unlisten (viva_server_store_get_db (store), wait->listen_id);
  wait->listen_id = 0;
}

static void
wait_free (Wait *wait)
{
  wait_stop (wait);
  g_clear_object (&wait->api);
  g_free (wait->job_id);
  g_free (wait);
}

/* Reads the job's row; TRUE once the task is returned. */
static gboolean
check (GTask *task)
{
  Wait *wait = g_task_get_task_data (task);
  g_autoptr(JsonObject) job = NULL;
  g_autoptr(GError) error = NULL;
  const char *state;

  /* A cancelled defense (the node stopping, its lease lost) stops waiting;
   * the job runs on, its result unread. */
  if (g_task_return_error_if_cancelled (task))
    return TRUE;

  /* The database away: the next poll asks again. */
  if (!(job = viva_server_store_get_job (viva_server_api_get_store (wait->api), wait->job_id, &error)))
    {
      if (error != NULL)
        return FALSE;
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "job %s is gone", wait->job_id);
      return TRUE;
    }

  state = json_object_get_string_member (job, "state");
  /* Past the deadline unclaimed (from the enqueue, or from a dead
   * claimer's lease running out): withdrawn, unless a claim wins the row
   * first — then it is waited on under its lease. */
  if (wait->claim_ms > 0 &&
      ((g_str_equal (state, "waiting") &&
        viva_server_store_now () >= json_object_get_int_member (job, "enqueued_at") + wait->claim_ms) ||
       (g_str_equal (state, "running") &&
        viva_server_store_now () >= json_object_get_int_member (job, "lease_until") + wait->claim_ms)))
    {
      gboolean withdrawn = FALSE;

      if (!viva_server_store_withdraw_unclaimed_job (viva_server_api_get_store (wait->api), wait->job_id,
                                                     wait->claim_ms, &withdrawn, &error))
        return FALSE;
      if (withdrawn)
        {
          g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_TIMED_OUT, "job %s was not claimed in %u ms",
                                   wait->job_id, wait->claim_ms);
          return TRUE;
        }
      return FALSE;
    }
  if (!g_str_equal (state, "failed") && !g_str_equal (state, "done"))
    return FALSE;
  g_task_return_pointer (task, g_steal_pointer (&job), (GDestroyNotify)json_object_unref);
  return TRUE;
}

/* The waiting holds the task until it is returned. */
static void
done_waiting (GTask *task)
{
  wait_stop (g_task_get_task_data (task));
  g_object_unref (task);
}

static gboolean
poll_cb (gpointer user_data)
{
  GTask *task = user_data;
  Wait *wait = g_task_get_task_data (task);

  if (!check (task))
    return G_SOURCE_CONTINUE;
  wait->poll_id = 0;
  done_waiting (task);
  return G_SOURCE_REMOVE;
}

static gboolean
wake_cb (gpointer user_data)
{
  GTask *task = user_data;
  Wait *wait = g_task_get_task_data (task);

  wait->wake_id = 0;
  if (check (task))
    done_waiting (task);
  return G_SOURCE_REMOVE;
}

/* Told of a result: read it now, from the main loop (the store tells
 * from inside the call that recorded it), rather than at the next poll. */
static void
wake (GTask      *task,
      const char *job_id)
{
  Wait *wait = g_task_get_task_data (task);

  if (g_strcmp0 (job_id, wait->job_id) == 0 && wait->wake_id == 0)
    wait->wake_id = g_idle_add (wake_cb, task);
}

static void
job_finished_cb (VivaServerStore *store,
                 const char      *job_id,
                 gpointer         user_data)
{
  wake (user_data, job_id);
}

static void
job_told_cb (const char *payload,
             gpointer    user_data)
{
  wake (user_data, payload);
}

/**
 * _viva_server_job_wait_async:
 * @job_id: a job of the pool
 *
 * Waits for the job's end, whoever claims it — this node's claimer,
 * another node's, a worker: the result may land on any node of the pool.
 * It is read when this process records it or the database tells of it,
 * and every POLL_MS anyway (a notification is a hint, never the record).
 * With @claim_ms, a job no claimer took that long after its enqueue is
 * withdrawn and the wait fails with %G_IO_ERROR_TIMED_OUT.
 */
void
_viva_server_job_wait_async (VivaServerApi       *api,
                             const char          *job_id,
                             guint                claim_ms,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  VivaServerStore *store = viva_server_api_get_store (api);
  Wait *wait = g_new0 (Wait, 1);

  g_task_set_source_tag (task, _viva_server_job_wait_async);
  wait->api = g_object_ref (api);
  wait->job_id = g_strdup (job_id);
  wait->claim_ms = claim_ms;
  g_task_set_task_data (task, wait, (GDestroyNotify)wait_free);
  wait->finished_id = g_signal_connect (store, "job-finished", G_CALLBACK (job_finished_cb), task);
  wait->listen_id = viva_server_db_listen (viva_server_store_get_db (store), VIVA_SERVER_JOBS_DONE_CHANNEL,
                                           job_told_cb, task);
  wait->poll_id = g_timeout_add (POLL_MS, poll_cb, g_steal_pointer (&task));
}

/**
 * _viva_server_job_wait_finish:
 *
 * Returns: (transfer full): the job's row, `done` or `failed` (it stopped
 *   every claimer that tried it); %NULL with %G_IO_ERROR_NOT_FOUND when
 *   the job is gone, %G_IO_ERROR_TIMED_OUT when it was withdrawn unclaimed
 */
JsonObject *
_viva_server_job_wait_finish (GAsyncResult  *result,
                              GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

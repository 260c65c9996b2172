/* viva-server-local-jobs.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-exam-file.h"
#include "viva-server-defense-jobs.h"
#include "viva-server-jobs.h"
#include "viva-server-store-pool.h"

/* The node's own claimer (serve --local-jobs): up to max_running gradings at once, of any exam,
 * and as many of the defenses' code runs in places of their own (a student waits on each, and
 * a run is short: it must not wait for a place a grading holds), claimed, renewed and finished
 * straight in the store. It claims as soon as it hears of a
 * job — enqueued on this node (the store's job-enqueued signal), on another (the jobs'
 * NOTIFY on PostgreSQL) — and as one of its own jobs ends; the poll is the safety net (a
 * notification lost with its connection, another process on one SQLite file). */

#define POLL_MS 250

struct _VivaServerLocalJobs
{
  VivaServerApi *api;
  char          *claimer;
  guint          max_running;
  guint          running;
  guint          grading;       /* of the running, the jobs that are not code runs */
  guint          tick_id;
  guint          wake_id;
  gulong         enqueued_id;
  guint          listen_id;
  GPtrArray     *live;
};

static void wake (VivaServerLocalJobs *self);

typedef struct
{
  VivaServerLocalJobs *owner;   /* NULL once the claimer stopped */
  char                *job_id;
  char                *claim_id;
  guint                renew_id;
  gboolean             grading;
  GCancellable        *cancellable;
} Running;

static void
running_free (Running *running)
{
  g_clear_handle_id (&running->renew_id, g_source_remove);
  g_clear_object (&running->cancellable);
  g_free (running->job_id);
  g_free (running->claim_id);
  g_free (running);
}

static gboolean
renew_cb (gpointer user_data)
{
  Running *running = user_data;
  g_autoptr(GError) error = NULL;

  if (!viva_server_store_renew_job (viva_server_api_get_store (running->owner->api), running->job_id,
                                    running->claim_id, viva_server_pool_lease_ms (), &error) &&
      g_error_matches (error, VIVA_SERVER_DB_ERROR, VIVA_SERVER_DB_ERROR_CONSTRAINT))
    {
      /* Another took it (this node stalled past its lease): let it. */
      g_message ("job %s: %s", running->job_id, error->message);
      running->renew_id = 0;
      g_cancellable_cancel (running->cancellable);
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

static void
run_cb (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  Running *running = user_data;
  VivaServerLocalJobs *self = running->owner;
  g_autoptr(JsonObject) out = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  if (self == NULL)
    {
      running_free (running);
      return;
    }
  g_ptr_array_remove (self->live, running);
  self->running--;
  if (running->grading)
    self->grading--;

  if (!(out = viva_server_job_run_finish (result, &error)))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          running_free (running);
          return;
        }
      out = json_object_new ();
      json_object_set_string_member (out, "error", error->message);
      g_clear_error (&error);
    }
  node = json_node_init_object (json_node_alloc (), out);
  text = json_to_string (node, FALSE);
  if (!viva_server_store_finish_job (viva_server_api_get_store (self->api), running->job_id, running->claim_id,
                                     self->claimer, text, &error))
    g_message ("job %s: %s", running->job_id, error->message);
  running_free (running);
  /* A place is free: the next job waiting need not wait for the poll. */
  wake (self);
}

/* Claims one job of @kind and starts it; FALSE when none was started. */
static gboolean
claim_one (VivaServerLocalJobs *self,
           const char          *kind)
{
  VivaServerStore *store = viva_server_api_get_store (self->api);
  guint lease_ms = viva_server_pool_lease_ms ();
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) job = viva_server_store_claim_job_of_kind (store, NULL, kind, self->claimer, lease_ms, &error);
  g_autoptr(JsonObject) pack = NULL;
  g_autoptr(JsonNode) payload = NULL;
  VivaExamFile *exam;
  Running *running;

  if (job == NULL)
    return FALSE;
  if (!(exam = viva_server_api_get_exam (self->api, json_object_get_string_member (job, "exam_id"), &error)) ||
      !(payload = json_from_string (json_object_get_string_member (job, "payload"), &error)) ||
      !JSON_NODE_HOLDS_OBJECT (payload) ||
      !(pack = viva_server_job_pack (exam, json_object_get_string_member_with_default (json_node_get_object (payload),
                                                                                       "problem_id", ""))))
    {
      /* Its lease runs out and a worker or the next tick takes it. */
      g_message ("job %s: %s", json_object_get_string_member (job, "id"), error ? error->message : "no exam");
      return FALSE;
    }

  running = g_new0 (Running, 1);
  running->owner = self;
  running->job_id = g_strdup (json_object_get_string_member (job, "id"));
  running->claim_id = g_strdup (json_object_get_string_member (job, "claim_id"));
  running->cancellable = g_cancellable_new ();
  running->renew_id = g_timeout_add (MAX (lease_ms / 3, 50), renew_cb, running);
  running->grading = g_strcmp0 (json_object_get_string_member (job, "kind"), "run") != 0;
  g_ptr_array_add (self->live, running);
  self->running++;
  self->grading += running->grading;
  viva_server_job_run_async (pack, json_object_get_string_member (job, "kind"),
                             json_node_get_object (payload), running->cancellable, run_cb, running);
  return TRUE;
}

static gboolean
tick_cb (gpointer user_data)
{
  VivaServerLocalJobs *self = user_data;

  /* The code runs in their places, the gradings in theirs: a run never
   * waits for a place a grading holds, nor a room's gradings (each
   * defense's verdict waits on its own) for a stream of runs. */
  while (self->running - self->grading < self->max_running && claim_one (self, "run"))
    ;
  while (self->grading < self->max_running && claim_one (self, "grade"))
    ;
  return G_SOURCE_CONTINUE;
}

static gboolean
wake_cb (gpointer user_data)
{
  VivaServerLocalJobs *self = user_data;

  self->wake_id = 0;
  tick_cb (self);
  return G_SOURCE_REMOVE;
}

/* Claims from the main loop, once what told of the job is over (an
 * enqueue tells from inside its transaction); many at once claim once. */
static void
wake (VivaServerLocalJobs *self)
{
  if (self->wake_id == 0 && self->running < 2 * self->max_running)
    self->wake_id = g_idle_add (wake_cb, self);
}

static void
job_enqueued_cb (VivaServerStore *store,
                 const char      *exam_id,
                 gpointer         user_data)
{
  wake (user_data);
}

static void
job_told_cb (const char *payload,
             gpointer    user_data)
{
  wake (user_data);
}

/**
 * viva_server_local_jobs_poll_ms:
 * @fallback: the poll's interval
 *
 * VIVA_SERVER_JOBS_POLL_MS lengthens the safety net's poll of a node's
 * claimers (its own, and the workers' claims that wait) for the tests,
 * which show that a job is claimed without it.
 */
guint
viva_server_local_jobs_poll_ms (guint fallback)
{
  const char *env = g_getenv ("VIVA_SERVER_JOBS_POLL_MS");
  guint64 value;

  if (env != NULL && g_ascii_string_to_unsigned (env, 10, 50, 3600000, &value, NULL))
    return (guint)value;
  return fallback;
}

/**
 * viva_server_local_jobs_start:
 * @node_id: the node's id, named as the claimer in the queue
 * @max_running: gradings this node runs at once, and as many code runs
 *   again (0: none, workers only)
 *
 * Returns: (transfer full) (nullable): the claimer, %NULL for none
 */
VivaServerLocalJobs *
viva_server_local_jobs_start (VivaServerApi *api,
                              const char    *node_id,
                              guint          max_running)
{
  VivaServerLocalJobs *self;

  if (max_running == 0)
    return NULL;

  self = g_new0 (VivaServerLocalJobs, 1);
  self->api = g_object_ref (api);
  self->claimer = g_strdup_printf ("node %s", node_id);
  self->max_running = max_running;
  self->live = g_ptr_array_new ();
  self->tick_id = g_timeout_add (viva_server_local_jobs_poll_ms (POLL_MS), tick_cb, self);
  self->enqueued_id = g_signal_connect (viva_server_api_get_store (api), "job-enqueued",
                                        G_CALLBACK (job_enqueued_cb), self);
  self->listen_id = viva_server_db_listen (viva_server_store_get_db (viva_server_api_get_store (api)),
                                           VIVA_SERVER_JOBS_CHANNEL, job_told_cb, self);
  return self;
}

void
viva_server_local_jobs_stop (VivaServerLocalJobs *self)
{
  if (self == NULL)
    return;

  g_clear_handle_id (&self->tick_id, g_source_remove);
  g_clear_handle_id (&self->wake_id, g_source_remove);
  g_clear_signal_handler (&self->enqueued_id, viva_server_api_get_store (self->api));
  viva_server_db_unlisten (viva_server_store_get_db (viva_server_api_get_store (self->api)), self->listen_id);
  /* What runs still finishes into nothing: its lease runs out and the job
   * goes to another claimer. */
  for (guint i = 0; i < self->live->len; i++)
    {
      Running *running = self->live->pdata[i];

      running->owner = NULL;
      g_clear_handle_id (&running->renew_id, g_source_remove);
      g_cancellable_cancel (running->cancellable);
    }
  g_ptr_array_unref (self->live);
  g_clear_object (&self->api);
  g_free (self->claimer);
  g_free (self);
}

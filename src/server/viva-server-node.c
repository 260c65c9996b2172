/* viva-server-node.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-server-jobs.h"
#include "viva-server-keys.h"
#include "viva-server-node.h"
#include "viva-server-store-pool.h"

/* One `serve` among several over one database: a random id for this run,
 * a row in `nodes` renewed every heartbeat (what status lists), and the
 * node's own claimer of the grading pool's jobs. A heartbeat that fails
 * (the database away) is only logged: the next one says it again. */

struct _VivaServerNode
{
  VivaServerApi       *api;
  char                *id;
  char                *address;
  gint64               started_at;
  guint                heartbeat_id;
  VivaServerLocalJobs *jobs;
};

static gboolean
heartbeat_cb (gpointer user_data)
{
  VivaServerNode *self = user_data;
  g_autoptr(GError) error = NULL;

  if (!viva_server_store_node_alive (viva_server_api_get_store (self->api), self->id, self->address,
                                     self->started_at, &error))
    g_message ("node %s: %s", self->id, error->message);
  return G_SOURCE_CONTINUE;
}

/**
 * viva_server_node_start:
 * @address: where this node listens, for status
 * @local_jobs: grading jobs this node runs at once itself (0: workers only)
 */
VivaServerNode *
viva_server_node_start (VivaServerApi *api,
                        const char    *address,
                        guint          local_jobs)
{
  VivaServerNode *self = g_new0 (VivaServerNode, 1);
  g_autofree char *random = viva_server_keys_random_id ();

  self->api = g_object_ref (api);
  /* Short enough to read in status, long enough never to meet another. */
  self->id = g_strndup (random, 12);
  self->address = g_strdup (address);
  self->started_at = viva_server_store_now ();
  heartbeat_cb (self);
  self->heartbeat_id = g_timeout_add (VIVA_SERVER_NODE_HEARTBEAT_MS, heartbeat_cb, self);
  self->jobs = viva_server_local_jobs_start (api, self->id, local_jobs);
  return self;
}

const char *
viva_server_node_get_id (VivaServerNode *self)
{
  return self->id;
}

void
viva_server_node_stop (VivaServerNode *self)
{
  if (self == NULL)
    return;

  g_clear_handle_id (&self->heartbeat_id, g_source_remove);
  g_clear_pointer (&self->jobs, viva_server_local_jobs_stop);
  g_clear_object (&self->api);
  g_free (self->id);
  g_free (self->address);
  g_free (self);
}

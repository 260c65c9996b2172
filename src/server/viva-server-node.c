/* viva-server-node.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-server-jobs.h"
#include "viva-server-node.h"
#include "viva-server-store-pool.h"

/* One `serve` among several over one database: an id of this machine and
 * state folder, a row in `nodes` renewed every heartbeat (what status
 * lists), and the node's own claimer of the grading pool's jobs. A
 * heartbeat that fails (the database away) is only logged: the next one
 * says it again.
 *
 * The id is the same across restarts, so a node killed and started again
 * holds its own leases at once and continues its defenses without waiting
 * for them to run out; a copy of the folder on another machine is another
 * node. */

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
char *
viva_server_node_id_for (const char *state_dir)
{
  g_autofree char *key = g_strconcat (g_get_host_name (), "\n", state_dir, NULL);
  g_autofree char *digest = g_compute_checksum_for_string (G_CHECKSUM_SHA256, key, -1);

  /* Short enough to read in status, long enough never to meet another. */
  return g_strndup (digest, 12);
}

VivaServerNode *
viva_server_node_start (VivaServerApi *api,
                        const char    *node_id,
                        const char    *address,
                        guint          local_jobs)
{
  VivaServerNode *self = g_new0 (VivaServerNode, 1);

  self->api = g_object_ref (api);
  self->id = g_strdup (node_id);
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

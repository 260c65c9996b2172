/* viva-server-node.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <signal.h>
#include <unistd.h>

#include "viva-server-jobs.h"
#include "viva-server-keys.h"
#include "viva-server-node.h"
#include "viva-server-store-pool.h"

/* One `serve` among several over one database: an id of this process, a
 * row in `nodes` renewed every heartbeat (what status lists) with where
 * it runs (host, state folder, pid), and the node's own claimer of the
 * grading pool's jobs. A heartbeat that fails (the database away) is only
 * logged: the next one says it again.
 *
 * The id is random at each start: two serve processes on one state
 * folder (or one database) are two nodes, never one holder of the same
 * leases. A node killed and started again on the same machine and folder
 * looks up its predecessors there: one whose process is gone lets its
 * leases run out at once, so the new node continues those defenses
 * without waiting for the leases' time. A predecessor whose pid still
 * lives (a stalled process, or the pid reused) keeps its leases until
 * they expire, as a node on another machine does. */

struct _VivaServerNode
{
  VivaServerApi       *api;
  char                *id;
  char                *address;
  char                *home;
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
                                     self->started_at, g_get_host_name (), self->home, getpid (), &error))
    g_message ("node %s: %s", self->id, error->message);
  return G_SOURCE_CONTINUE;
}

/**
 * viva_server_node_new_id:
 *
 * Returns: (transfer full): a new node's id, random: short enough to read
 *   in status, long enough never to meet another
 */
char *
viva_server_node_new_id (void)
{
  g_autofree char *random = viva_server_keys_random_id ();

  return g_strndup (random, 12);
}

/**
 * viva_server_node_take_over:
 * @state_dir: this node's state folder
 *
 * Lets the leases of this machine's and folder's dead nodes run out now,
 * before this node resumes what they ran.
 *
 * Returns: how many dead predecessors were found
 */
guint
viva_server_node_take_over (VivaServerStore *store,
                            const char      *node_id,
                            const char      *state_dir)
{
  g_autofree char *home = g_canonicalize_filename (state_dir, NULL);
  g_autoptr(JsonArray) rows = NULL;
  g_autoptr(GError) error = NULL;
  guint n = 0;

  if (!(rows = viva_server_store_list_home_nodes (store, node_id, g_get_host_name (), home, &error)))
    {
      g_message ("node %s: %s", node_id, error->message);
      return 0;
    }
  for (guint i = 0; i < json_array_get_length (rows); i++)
    {
      JsonObject *row = json_array_get_object_element (rows, i);
      gint64 pid = json_object_get_int_member (row, "pid");

      /* Only a process known gone: kill (pid, 0) fails with ESRCH. */
      if (pid <= 0 || pid == getpid () || kill ((pid_t)pid, 0) == 0 || errno != ESRCH)
        continue;
      if (viva_server_store_release_leases (store, json_object_get_string_member (row, "id"), &error))
        n++;
      else
        {
          g_message ("node %s: %s", node_id, error->message);
          g_clear_error (&error);
        }
    }
  return n;
}

/**
 * viva_server_node_start:
 * @address: where this node listens, for status
 * @local_jobs: grading jobs this node runs at once itself (0: workers only)
 */
VivaServerNode *
viva_server_node_start (VivaServerApi *api,
                        const char    *node_id,
                        const char    *state_dir,
                        const char    *address,
                        guint          local_jobs)
{
  VivaServerNode *self = g_new0 (VivaServerNode, 1);

  self->api = g_object_ref (api);
  self->id = g_strdup (node_id);
  self->address = g_strdup (address);
  self->home = g_canonicalize_filename (state_dir, NULL);
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
  g_free (self->home);
  g_free (self);
}

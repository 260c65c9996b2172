/* viva-server-node.h: this serve among the nodes of one database
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-server-api.h"

G_BEGIN_DECLS

/* A node says it is alive this often; status counts it gone after three
 * silences. */
#define VIVA_SERVER_NODE_HEARTBEAT_MS 2000

typedef struct _VivaServerNode VivaServerNode;

char           *viva_server_node_new_id    (void);
guint           viva_server_node_take_over (VivaServerStore *store,
                                            const char      *node_id,
                                            const char      *state_dir);
VivaServerNode *viva_server_node_start  (VivaServerApi  *api,
                                         const char     *node_id,
                                         const char     *state_dir,
                                         const char     *address,
                                         guint           local_jobs);
const char     *viva_server_node_get_id (VivaServerNode *self);
void            viva_server_node_stop   (VivaServerNode *self);

G_END_DECLS

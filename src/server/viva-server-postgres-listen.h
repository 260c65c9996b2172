/* viva-server-postgres-listen.h: PostgreSQL's LISTEN, on a connection of its own
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-server-db.h"

G_BEGIN_DECLS

typedef struct _VivaServerPgListener VivaServerPgListener;

VivaServerPgListener *viva_server_pg_listener_new      (const char             *link);
guint                 viva_server_pg_listener_add      (VivaServerPgListener   *self,
                                                        const char             *channel,
                                                        VivaServerDbNotifyFunc  func,
                                                        gpointer                user_data);
void                  viva_server_pg_listener_remove   (VivaServerPgListener   *self,
                                                        guint                   id);
void                  viva_server_pg_listener_free     (VivaServerPgListener   *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (VivaServerPgListener, viva_server_pg_listener_free)

G_END_DECLS

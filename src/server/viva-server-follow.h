/* viva-server-follow.h: the events of defenses another node runs, read from the database
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-server-store.h"

G_BEGIN_DECLS

typedef void     (*VivaServerFollowFunc)  (const char *defense_id,
                                           gint64      seq,
                                           const char *kind,
                                           JsonObject *data,
                                           gpointer    user_data);
typedef gboolean (*VivaServerIsLocalFunc) (const char *defense_id,
                                           gpointer    user_data);

typedef struct _VivaServerFollow VivaServerFollow;

VivaServerFollow *viva_server_follow_new    (VivaServerStore       *store,
                                             VivaServerFollowFunc   func,
                                             VivaServerIsLocalFunc  is_local,
                                             gpointer               user_data);
void              viva_server_follow_add    (VivaServerFollow      *self,
                                             const char            *defense_id,
                                             gint64                 after);
void              viva_server_follow_remove (VivaServerFollow      *self,
                                             const char            *defense_id);
void              viva_server_follow_seen   (VivaServerFollow      *self,
                                             const char            *defense_id,
                                             gint64                 seq);
void              viva_server_follow_free   (VivaServerFollow      *self);

G_END_DECLS

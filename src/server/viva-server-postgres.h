/* viva-server-postgres.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-server-db.h"

G_BEGIN_DECLS

#define VIVA_TYPE_SERVER_POSTGRES (viva_server_postgres_get_type ())

G_DECLARE_FINAL_TYPE (VivaServerPostgres, viva_server_postgres, VIVA, SERVER_POSTGRES, GObject)

VivaServerPostgres *viva_server_postgres_open     (const char          *link,
                                                   GError             **error);
char               *viva_server_postgres_describe (VivaServerPostgres  *self);

G_END_DECLS

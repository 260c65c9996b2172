/* viva-server-sqlite.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-server-db.h"

G_BEGIN_DECLS

#define VIVA_TYPE_SERVER_SQLITE (viva_server_sqlite_get_type ())

G_DECLARE_FINAL_TYPE (VivaServerSqlite, viva_server_sqlite, VIVA, SERVER_SQLITE, GObject)

VivaServerSqlite *viva_server_sqlite_open (const char  *path,
                                           GError     **error);

G_END_DECLS

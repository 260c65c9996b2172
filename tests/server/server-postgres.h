/* server-postgres.h: a PostgreSQL cluster of the test's own, in a temporary folder
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean  server_postgres_wanted       (void);
gboolean  server_postgres_check        (char       **reason);
char     *server_postgres_new_database (gboolean     tcp);
void      server_postgres_stop_cluster (void);
void      server_postgres_start_cluster (void);
void      server_postgres_teardown     (void);

G_END_DECLS

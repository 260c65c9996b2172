/* viva-server-roster.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

JsonArray *viva_server_roster_parse (const char  *text,
                                     gssize       length,
                                     GError     **error);

G_END_DECLS

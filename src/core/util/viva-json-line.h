/* viva-json-line.h: one event of a command's --json output
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

char *viva_json_line (const char *event,
                      JsonObject *object);

G_END_DECLS

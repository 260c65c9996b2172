/* viva-json-bounded.h: JSON from someone else, its nesting measured first
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

gboolean  viva_json_depth_ok       (const char  *text,
                                    gssize       length,
                                    guint        max_depth);
JsonNode *viva_json_parse_bounded  (const char  *text,
                                    gssize       length,
                                    guint        max_depth,
                                    GError     **error);

G_END_DECLS

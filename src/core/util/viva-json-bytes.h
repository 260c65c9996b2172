/* viva-json-bytes.h: JSON to the indented text Viva keeps on disk
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

GBytes *viva_json_to_bytes (JsonNode *root);

G_END_DECLS

/* viva-pack-parser.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "viva-pack.h"

G_BEGIN_DECLS

/* The first pass of reading a pack (viva-pack-parser.c): its bytes, then
 * the JSON parse. Plain data in and out, any thread. */
JsonNode *_viva_pack_parse       (const char *data,
                                  gsize       len,
                                  GPtrArray  *issues);
gboolean  _viva_pack_check_bytes (const char *data,
                                  gsize       len,
                                  GPtrArray  *issues);

G_END_DECLS

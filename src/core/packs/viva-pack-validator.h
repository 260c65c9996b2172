/* viva-pack-validator.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "viva-pack.h"

G_BEGIN_DECLS

/* The second pass (viva-pack-validator.c): every rule of `viva-pack/1`
 * over the parsed tree. Plain data in and out, any thread. */
gboolean _viva_pack_validate         (JsonNode  *root,
                                      GPtrArray *issues);
gboolean _viva_pack_validate_problem (JsonNode  *problem,
                                      GPtrArray *issues);

G_END_DECLS

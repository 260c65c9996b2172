/* viva-pack-json.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "viva-pack.h"

G_BEGIN_DECLS

/* The format's codec (viva-pack-json.c): a pack and its problems from a
 * tree that passed validation, and back to JSON (also viva_pack_to_json()
 * and viva_pack_to_bytes()), through the types' public and source
 * accessors only. Main thread: it builds objects. */
VivaPack    *_viva_pack_new_from_node    (JsonNode    *root);
JsonObject  *_viva_problem_to_json       (VivaProblem *problem);
VivaProblem *_viva_problem_new_from_json (JsonObject  *object);

G_END_DECLS

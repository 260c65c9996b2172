/* viva-json-check.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "viva-json-strict.h"
#include "viva-pack-issue.h"

G_BEGIN_DECLS

JsonNode    *viva_json_check_member      (JsonObject          *object,
                                          const char          *parent,
                                          const char          *key,
                                          gboolean             required,
                                          VivaJsonCheckKind    is_kind,
                                          const char          *expected,
                                          const char          *why,
                                          GPtrArray           *issues);
const char  *viva_json_check_string      (JsonObject          *object,
                                          const char          *parent,
                                          const char          *key,
                                          gboolean             required,
                                          gboolean             allow_empty,
                                          const char          *why,
                                          GPtrArray           *issues);

G_END_DECLS

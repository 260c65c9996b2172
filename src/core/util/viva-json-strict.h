/* viva-json-strict.h: the pieces of a strict JSON reader
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

typedef gboolean (*VivaJsonCheckKind) (JsonNode *node);

char        *viva_json_check_path        (const char          *parent,
                                          const char          *key);
char        *viva_json_check_path_index  (const char          *parent,
                                          guint                index);
const char  *viva_json_check_describe    (JsonNode            *node);
gboolean     viva_json_check_is_string   (JsonNode            *node);
gboolean     viva_json_check_is_boolean  (JsonNode            *node);
gboolean     viva_json_check_is_number   (JsonNode            *node);
gboolean     viva_json_check_is_object   (JsonNode            *node);
gboolean     viva_json_check_is_array    (JsonNode            *node);
const char  *viva_json_check_closest_key (const char          *name,
                                          const char * const  *known,
                                          gboolean             ignore_case);

G_END_DECLS

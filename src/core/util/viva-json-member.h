/* viva-json-member.h: a JSON object's members read leniently
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

const char *viva_json_member_string  (JsonObject *object,
                                      const char *name);
gint64      viva_json_member_int     (JsonObject *object,
                                      const char *name);
gboolean    viva_json_member_integer (JsonObject *object,
                                      const char *name,
                                      gint64     *value);
gboolean    viva_json_member_boolean (JsonObject *object,
                                      const char *name,
                                      gboolean   *value);
gboolean    viva_json_member_flag    (JsonObject *object,
                                      const char *name);
gboolean    viva_json_member_number  (JsonObject *object,
                                      const char *name,
                                      double     *value);
JsonArray  *viva_json_member_array   (JsonObject *object,
                                      const char *name);
JsonObject *viva_json_member_object  (JsonObject *object,
                                      const char *name);

G_END_DECLS

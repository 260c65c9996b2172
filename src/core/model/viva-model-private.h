/* viva-model-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Lenient readers for JSON that servers (or a fuzzer) wrote: a member of
 * the wrong type reads as absent, never as a critical warning. */
const char *_viva_json_get_string (JsonObject *object,
                                   const char *member);
JsonObject *_viva_json_get_object (JsonObject *object,
                                   const char *member);
JsonArray  *_viva_json_get_array  (JsonObject *object,
                                   const char *member);
gboolean    _viva_json_get_int    (JsonObject *object,
                                   const char *member,
                                   gint64     *value);
JsonNode   *_viva_json_parse      (const char *text,
                                   gssize      length,
                                   GError    **error);

G_END_DECLS

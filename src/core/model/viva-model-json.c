/* viva-model-json.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-model-private.h"

JsonNode *
_viva_json_parse (const char  *text,
                  gssize       length,
                  GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  JsonNode *root;

  if (!json_parser_load_from_data (parser, text, length, error))
    return NULL;

  if (!(root = json_parser_get_root (parser)))
    {
      g_set_error_literal (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_PARSE, "empty document");
      return NULL;
    }

  return json_node_ref (root);
}

/* A string member, or null where there is none (`"content": null`). */
void
_viva_json_set_string_or_null (JsonObject *object,
                               const char *member,
                               const char *value)
{
  if (value != NULL)
    json_object_set_string_member (object, member, value);
  else
    json_object_set_null_member (object, member);
}

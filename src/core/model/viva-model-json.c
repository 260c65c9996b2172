/* viva-model-json.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-model-private.h"

const char *
_viva_json_get_string (JsonObject *object,
                       const char *member)
{
  JsonNode *node;

  if (object == NULL || !(node = json_object_get_member (object, member)))
    return NULL;

  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    return json_node_get_string (node);

  return NULL;
}

JsonObject *
_viva_json_get_object (JsonObject *object,
                       const char *member)
{
  JsonNode *node;

  if (object == NULL || !(node = json_object_get_member (object, member)))
    return NULL;

  return JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

JsonArray *
_viva_json_get_array (JsonObject *object,
                      const char *member)
{
  JsonNode *node;

  if (object == NULL || !(node = json_object_get_member (object, member)))
    return NULL;

  return JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
}

gboolean
_viva_json_get_int (JsonObject *object,
                    const char *member,
                    gint64     *value)
{
  JsonNode *node;
  GType type;

  if (object == NULL || !(node = json_object_get_member (object, member)) ||
      !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;

  type = json_node_get_value_type (node);
  if (type == G_TYPE_INT64)
    *value = json_node_get_int (node);
  else if (type == G_TYPE_DOUBLE)
    *value = (gint64)json_node_get_double (node);
  else
    return FALSE;

  return TRUE;
}

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

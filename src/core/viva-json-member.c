/* viva-json-member.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-json-member.h"

/* Reading back what Viva wrote (a pack that passed validation, a draft, a
 * grade): each member is taken when it is there and of the kind asked, and
 * is absent otherwise. json-glib's own getters warn on a member of another
 * kind, and a file edited by hand must never make a warning (tests make
 * them fatal) or a crash; a strict reader that reports what is wrong is
 * packs/viva-json-check.c. Thread-safe: no state. */

static gboolean
holds (JsonNode *node,
       GType     type)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == type;
}

/**
 * viva_json_member_string:
 *
 * Returns: (transfer none) (nullable): the text of the member @name, or
 *   %NULL when it is missing or not text
 */
const char *
viva_json_member_string (JsonObject *object,
                         const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  return holds (node, G_TYPE_STRING) ? json_node_get_string (node) : NULL;
}

/**
 * viva_json_member_int:
 *
 * Returns: the whole number in the member @name, or 0 when it is missing
 *   or not a whole number
 */
gint64
viva_json_member_int (JsonObject *object,
                      const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  return holds (node, G_TYPE_INT64) ? json_node_get_int (node) : 0;
}

/**
 * viva_json_member_boolean:
 * @value: (out): the member's value, set only when it is one
 *
 * Returns: whether the member @name is there and true or false
 */
gboolean
viva_json_member_boolean (JsonObject *object,
                          const char *name,
                          gboolean   *value)
{
  JsonNode *node = json_object_get_member (object, name);

  if (!holds (node, G_TYPE_BOOLEAN))
    return FALSE;

  *value = json_node_get_boolean (node);
  return TRUE;
}

/**
 * viva_json_member_number:
 * @object: (nullable): an object, or %NULL for none
 * @value: (out): the number, an integer or not
 *
 * Returns: whether @object has @name as a number
 */
gboolean
viva_json_member_number (JsonObject *object,
                         const char *name,
                         double     *value)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;

  if (holds (node, G_TYPE_INT64))
    *value = json_node_get_int (node);
  else if (holds (node, G_TYPE_DOUBLE))
    *value = json_node_get_double (node);
  else
    return FALSE;

  return TRUE;
}

/**
 * viva_json_member_array:
 *
 * Returns: (transfer none) (nullable): the list in the member @name, or
 *   %NULL when it is missing or not a list
 */
JsonArray *
viva_json_member_array (JsonObject *object,
                        const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  return node != NULL && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
}

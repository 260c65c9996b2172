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
 * viva-json-check.c. The same holds for what a model server or a fuzzer
 * wrote, so the model client reads its replies with these too. @object may
 * be %NULL everywhere, reading as an object without members, so a chain of
 * lookups needs no test between its steps. Thread-safe: no state. */

static JsonNode *
member (JsonObject *object,
        const char *name)
{
  return object != NULL ? json_object_get_member (object, name) : NULL;
}

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
  JsonNode *node = member (object, name);

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
  JsonNode *node = member (object, name);

  return holds (node, G_TYPE_INT64) ? json_node_get_int (node) : 0;
}

/**
 * viva_json_member_integer:
 * @value: (out): the number, set only when there is one
 *
 * For counts and indices from servers, some of which write `12.0`: a
 * number's fraction is dropped.
 *
 * Returns: whether the member @name is there and a number
 */
gboolean
viva_json_member_integer (JsonObject *object,
                          const char *name,
                          gint64     *value)
{
  JsonNode *node = member (object, name);

  if (holds (node, G_TYPE_INT64))
    *value = json_node_get_int (node);
  else if (holds (node, G_TYPE_DOUBLE))
    *value = (gint64)json_node_get_double (node);
  else
    return FALSE;

  return TRUE;
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
  JsonNode *node = member (object, name);

  if (!holds (node, G_TYPE_BOOLEAN))
    return FALSE;

  *value = json_node_get_boolean (node);
  return TRUE;
}

/**
 * viva_json_member_flag:
 *
 * Returns: whether the member @name is there and true; missing or not a
 *   boolean reads as false
 */
gboolean
viva_json_member_flag (JsonObject *object,
                       const char *name)
{
  gboolean value = FALSE;

  return viva_json_member_boolean (object, name, &value) && value;
}

/**
 * viva_json_member_number:
 * @value: (out): the number, an integer or not
 *
 * Returns: whether @object has @name as a number
 */
gboolean
viva_json_member_number (JsonObject *object,
                         const char *name,
                         double     *value)
{
  JsonNode *node = member (object, name);

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
  JsonNode *node = member (object, name);

  return node != NULL && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
}

/**
 * viva_json_member_object:
 *
 * Returns: (transfer none) (nullable): the object in the member @name, or
 *   %NULL when it is missing or not an object
 */
JsonObject *
viva_json_member_object (JsonObject *object,
                         const char *name)
{
  JsonNode *node = member (object, name);

  return node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

/* viva-json-strict.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "viva-json-strict.h"

/* The pieces every strict JSON reader here is built from: the pack parser,
 * classroom's exam file and exam's checkpoint walk a parsed tree and say
 * what is wrong with it by its JSON path (`problems[2].tests`), worded as
 * what it is and what it should be. This file is those shared words:
 * paths, a node described for a person, the kinds, and the known key an
 * unknown one was meant to be. How a reader reports (packs' VivaPackIssue
 * list, checkpoint's first GError) is the reader's. Thread-safe: no
 * state. */

/**
 * viva_json_check_path:
 * @parent: (nullable): the path of the object, %NULL or empty for the root
 *
 * Returns: (transfer full): the path of @key in @parent, like `hints.cost`
 */
char *
viva_json_check_path (const char *parent,
                      const char *key)
{
  if (parent == NULL || parent[0] == '\0')
    return g_strdup (key);

  return g_strdup_printf ("%s.%s", parent, key);
}

/**
 * viva_json_check_path_index:
 *
 * Returns: (transfer full): the path of element @index of @parent, like
 *   `problems[2]`
 */
char *
viva_json_check_path_index (const char *parent,
                            guint       index)
{
  return g_strdup_printf ("%s[%u]", parent, index);
}

/**
 * viva_json_check_describe:
 *
 * Returns: what @node is, in words for the “is %s, not %s” of an issue
 */
const char *
viva_json_check_describe (JsonNode *node)
{
  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      return _("an object");

    case JSON_NODE_ARRAY:
      return _("a list");

    case JSON_NODE_NULL:
      return _("null");

    case JSON_NODE_VALUE:
    default:
      break;
    }

  switch (json_node_get_value_type (node))
    {
    case G_TYPE_STRING:
      return _("text");

    case G_TYPE_BOOLEAN:
      return _("true or false");

    default:
      return _("a number");
    }
}

gboolean
viva_json_check_is_string (JsonNode *node)
{
  return JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING;
}

gboolean
viva_json_check_is_boolean (JsonNode *node)
{
  return JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_BOOLEAN;
}

gboolean
viva_json_check_is_number (JsonNode *node)
{
  GType type;

  if (!JSON_NODE_HOLDS_VALUE (node))
    return FALSE;

  type = json_node_get_value_type (node);
  return type == G_TYPE_INT64 || type == G_TYPE_DOUBLE;
}

gboolean
viva_json_check_is_object (JsonNode *node)
{
  return JSON_NODE_HOLDS_OBJECT (node);
}

gboolean
viva_json_check_is_array (JsonNode *node)
{
  return JSON_NODE_HOLDS_ARRAY (node);
}

static guint
edit_distance (const char *a,
               const char *b,
               gboolean    ignore_case)
{
  gsize la = strlen (a), lb = strlen (b);
  g_autofree guint *row = g_new (guint, lb + 1);

  for (gsize j = 0; j <= lb; j++)
    row[j] = j;

  for (gsize i = 1; i <= la; i++)
    {
      guint diagonal = row[0];

      row[0] = i;
      for (gsize j = 1; j <= lb; j++)
        {
          guint above = row[j];
          gboolean same = ignore_case ? g_ascii_tolower (a[i - 1]) == g_ascii_tolower (b[j - 1])
                                      : a[i - 1] == b[j - 1];

          row[j] = MIN (MIN (row[j] + 1, row[j - 1] + 1), diagonal + (same ? 0 : 1));
          diagonal = above;
        }
    }

  return row[lb];
}

/**
 * viva_json_check_closest_key:
 * @name: a key the format does not define
 * @known: (array zero-terminated=1): the keys it does
 *
 * Returns: (nullable): the first of @known at most two edits from @name,
 *   the key a person most likely meant to write
 */
const char *
viva_json_check_closest_key (const char         *name,
                             const char * const *known,
                             gboolean            ignore_case)
{
  for (guint i = 0; known[i] != NULL; i++)
    if (edit_distance (name, known[i], ignore_case) <= 2)
      return known[i];

  return NULL;
}

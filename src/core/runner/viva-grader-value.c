/* viva-grader-value.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "viva-grader-value-private.h"
#include "viva-json-bounded.h"

/* The strict decoder of what a student's process says its value was.
 *
 * The worker's encoder writes plain data as JSON with a few tagged forms:
 * null, true, false, numbers, strings and arrays (lists) stand for
 * themselves; {"int": "digits"} is an int past 2^53, {"float": "nan" |
 * "inf" | "-inf"}, {"tuple": [...]}, {"dict": [[key, value], ...]} and
 * {"ndarray": [flat numbers], "dtype": d, "shape": [...]}. Student code runs
 * in that process and may replace the encoder, write its own frames or
 * anything else, so the text is untrusted: the bytes are bounded and their
 * nesting measured before json-glib (which recurses per level) sees them,
 * then every node must be one of those forms. The text goes on to the
 * grader's worker unchanged (json-glib writes 1e20 as "1e+20.0"); whatever
 * Python's own JSON reader makes of text json-glib accepted is plain data
 * still, only perhaps a wrong answer. */

/* Each level of a value can cost up to three levels of JSON ({"dict": [[k, v]]}). */
#define MAX_JSON_DEPTH (3 * VIVA_GRADER_VALUE_MAX_DEPTH + 4)
#define MAX_INT_DIGITS 4000

static const char * const dtypes[] = {
  "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
  "float16", "float32", "float64", NULL
};

typedef struct
{
  guint nodes;
  VivaGraderValueStatus status;
} Walk;

static gboolean
fail (Walk                  *walk,
      VivaGraderValueStatus  status)
{
  if (walk->status == VIVA_GRADER_VALUE_OK)
    walk->status = status;
  return FALSE;
}

static gboolean
count (Walk  *walk,
       guint  n)
{
  walk->nodes += n;
  if (walk->nodes > VIVA_GRADER_VALUE_MAX_NODES)
    return fail (walk, VIVA_GRADER_VALUE_TOO_LARGE);
  return TRUE;
}

static gboolean
is_big_int (JsonNode *node)
{
  const char *digits;
  gsize len;

  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return FALSE;

  digits = json_node_get_string (node);
  if (digits[0] == '-')
    digits++;
  len = strlen (digits);
  if (len == 0 || len > MAX_INT_DIGITS)
    return FALSE;
  for (gsize i = 0; i < len; i++)
    if (!g_ascii_isdigit (digits[i]))
      return FALSE;
  return TRUE;
}

static gboolean
is_special_float (JsonNode *node)
{
  const char *name;

  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return FALSE;
  name = json_node_get_string (node);
  return g_str_equal (name, "nan") || g_str_equal (name, "inf") || g_str_equal (name, "-inf");
}

static gboolean
is_scalar_number (JsonNode *node)
{
  JsonObject *object;

  if (JSON_NODE_HOLDS_VALUE (node))
    {
      GType type = json_node_get_value_type (node);

      return type == G_TYPE_BOOLEAN || type == G_TYPE_INT64 ||
             (type == G_TYPE_DOUBLE && isfinite (json_node_get_double (node)));
    }

  if (!JSON_NODE_HOLDS_OBJECT (node) || json_object_get_size (object = json_node_get_object (node)) != 1)
    return FALSE;
  if (json_object_has_member (object, "int"))
    return is_big_int (json_object_get_member (object, "int"));
  if (json_object_has_member (object, "float"))
    return is_special_float (json_object_get_member (object, "float"));
  return FALSE;
}

static gboolean check_node (Walk     *walk,
                            JsonNode *node,
                            guint     depth,
                            gboolean  hashable);

static gboolean
check_ndarray (Walk       *walk,
               JsonObject *object)
{
  JsonNode *flat = json_object_get_member (object, "ndarray");
  JsonNode *dtype = json_object_get_member (object, "dtype");
  JsonNode *shape = json_object_get_member (object, "shape");
  JsonArray *values;
  JsonArray *dims;
  guint64 size = 1;

  if (json_object_get_size (object) != 3 || flat == NULL || dtype == NULL || shape == NULL ||
      !JSON_NODE_HOLDS_ARRAY (flat) || !JSON_NODE_HOLDS_ARRAY (shape) ||
      !JSON_NODE_HOLDS_VALUE (dtype) || json_node_get_value_type (dtype) != G_TYPE_STRING ||
      !g_strv_contains (dtypes, json_node_get_string (dtype)))
    return fail (walk, VIVA_GRADER_VALUE_NOT_PLAIN);

  dims = json_node_get_array (shape);
  values = json_node_get_array (flat);
  if (json_array_get_length (dims) > VIVA_GRADER_VALUE_MAX_DEPTH)
    return fail (walk, VIVA_GRADER_VALUE_TOO_LARGE);

  for (guint i = 0; i < json_array_get_length (dims); i++)
    {
      JsonNode *dim = json_array_get_element (dims, i);
      gint64 n;

      if (!JSON_NODE_HOLDS_VALUE (dim) || json_node_get_value_type (dim) != G_TYPE_INT64 ||
          (n = json_node_get_int (dim)) < 0)
        return fail (walk, VIVA_GRADER_VALUE_NOT_PLAIN);
      if (n > VIVA_GRADER_VALUE_MAX_NODES)
        return fail (walk, VIVA_GRADER_VALUE_TOO_LARGE);
      size = size * (guint64) n;
      if (size > VIVA_GRADER_VALUE_MAX_NODES)
        return fail (walk, VIVA_GRADER_VALUE_TOO_LARGE);
    }

  if (size != json_array_get_length (values))
    return fail (walk, VIVA_GRADER_VALUE_NOT_PLAIN);
  if (!count (walk, json_array_get_length (values)))
    return FALSE;

  for (guint i = 0; i < json_array_get_length (values); i++)
    if (!is_scalar_number (json_array_get_element (values, i)))
      return fail (walk, VIVA_GRADER_VALUE_NOT_PLAIN);

  return TRUE;
}

static gboolean
check_object (Walk       *walk,
              JsonObject *object,
              guint       depth,
              gboolean    hashable)
{
  JsonNode *member;

  if (json_object_has_member (object, "ndarray"))
    return !hashable ? check_ndarray (walk, object) : fail (walk, VIVA_GRADER_VALUE_NOT_PLAIN);

  if (json_object_get_size (object) != 1)
    return fail (walk, VIVA_GRADER_VALUE_NOT_PLAIN);

  if ((member = json_object_get_member (object, "int")))
    return is_big_int (member) || fail (walk, VIVA_GRADER_VALUE_NOT_PLAIN);

  if ((member = json_object_get_member (object, "float")))
    return is_special_float (member) || fail (walk, VIVA_GRADER_VALUE_NOT_PLAIN);

  if ((member = json_object_get_member (object, "tuple")))
    {
      JsonArray *items;

      if (!JSON_NODE_HOLDS_ARRAY (member))
        return fail (walk, VIVA_GRADER_VALUE_NOT_PLAIN);
      items = json_node_get_array (member);
      for (guint i = 0; i < json_array_get_length (items); i++)
        if (!check_node (walk, json_array_get_element (items, i), depth + 1, hashable))
          return FALSE;
      return TRUE;
    }

  if ((member = json_object_get_member (object, "dict")))
    {
      JsonArray *pairs;

      if (hashable || !JSON_NODE_HOLDS_ARRAY (member))
        return fail (walk, VIVA_GRADER_VALUE_NOT_PLAIN);
      pairs = json_node_get_array (member);
      for (guint i = 0; i < json_array_get_length (pairs); i++)
        {
          JsonNode *pair = json_array_get_element (pairs, i);
          JsonArray *kv;

          if (!JSON_NODE_HOLDS_ARRAY (pair) || json_array_get_length (kv = json_node_get_array (pair)) != 2)
            return fail (walk, VIVA_GRADER_VALUE_NOT_PLAIN);
          if (!check_node (walk, json_array_get_element (kv, 0), depth + 1, TRUE) ||
              !check_node (walk, json_array_get_element (kv, 1), depth + 1, FALSE))
            return FALSE;
        }
      return TRUE;
    }

  return fail (walk, VIVA_GRADER_VALUE_NOT_PLAIN);
}

static gboolean
check_node (Walk     *walk,
            JsonNode *node,
            guint     depth,
            gboolean  hashable)
{
  if (depth > VIVA_GRADER_VALUE_MAX_DEPTH)
    return fail (walk, VIVA_GRADER_VALUE_TOO_LARGE);
  if (!count (walk, 1))
    return FALSE;

  switch (json_node_get_node_type (node))
    {
    case JSON_NODE_NULL:
      return TRUE;

    case JSON_NODE_VALUE:
      switch (json_node_get_value_type (node))
        {
        case G_TYPE_BOOLEAN:
        case G_TYPE_INT64:
          return TRUE;
        case G_TYPE_DOUBLE:
          return isfinite (json_node_get_double (node)) || fail (walk, VIVA_GRADER_VALUE_NOT_PLAIN);
        case G_TYPE_STRING:
          {
            const char *text = json_node_get_string (node);

            /* Long strings count as many values, so the bound is on bytes too. */
            return g_utf8_validate (text, -1, NULL) && count (walk, strlen (text) / 16);
          }
        default:
          return fail (walk, VIVA_GRADER_VALUE_NOT_PLAIN);
        }

    case JSON_NODE_ARRAY:
      {
        JsonArray *items = json_node_get_array (node);

        if (hashable)
          return fail (walk, VIVA_GRADER_VALUE_NOT_PLAIN);
        for (guint i = 0; i < json_array_get_length (items); i++)
          if (!check_node (walk, json_array_get_element (items, i), depth + 1, FALSE))
            return FALSE;
        return TRUE;
      }

    case JSON_NODE_OBJECT:
      return check_object (walk, json_node_get_object (node), depth, hashable);

    default:
      return fail (walk, VIVA_GRADER_VALUE_NOT_PLAIN);
    }
}

/**
 * _viva_grader_value_check:
 * @text: (nullable): what a worker sent as a value
 * @canonical: (out) (optional): the accepted value's text, to send on
 *
 * Thread-safe: touches no shared state.
 *
 * Returns: whether @text is plain data within the bounds, and if not why
 */
VivaGraderValueStatus
_viva_grader_value_check (const char  *text,
                          char       **canonical)
{
  g_autoptr(JsonParser) parser = NULL;
  Walk walk = { 0, VIVA_GRADER_VALUE_OK };
  JsonNode *root;

  if (canonical != NULL)
    *canonical = NULL;

  if (text == NULL)
    return VIVA_GRADER_VALUE_NOT_PLAIN;
  if (strlen (text) > VIVA_GRADER_VALUE_MAX_BYTES || !viva_json_depth_ok (text, -1, MAX_JSON_DEPTH))
    return VIVA_GRADER_VALUE_TOO_LARGE;

  parser = json_parser_new_immutable ();
  if (!json_parser_load_from_data (parser, text, -1, NULL) ||
      (root = json_parser_get_root (parser)) == NULL)
    return VIVA_GRADER_VALUE_NOT_PLAIN;

  if (!check_node (&walk, root, 0, FALSE))
    return walk.status != VIVA_GRADER_VALUE_OK ? walk.status : VIVA_GRADER_VALUE_NOT_PLAIN;

  if (canonical != NULL)
    *canonical = g_strdup (text);
  return VIVA_GRADER_VALUE_OK;
}

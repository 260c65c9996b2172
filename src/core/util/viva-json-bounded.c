/* viva-json-bounded.c: JSON from someone else, its nesting measured first
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-json-bounded.h"

/* json-glib's parser recurses once per level of arrays and objects, so a
 * text of 300,000 `[` overflows the stack of whoever reads it: the
 * grader reading a student's value, the teacher's PC reading a class's
 * report folder. The depth is measured here, in one pass that keeps no
 * stack, before json-glib sees the text. */

/**
 * viva_json_depth_ok:
 * @text: JSON text (it need not be valid)
 * @length: its length in bytes, or -1 when nul-terminated
 * @max_depth: how many arrays and objects may be open at once
 *
 * Returns: %FALSE when arrays and objects nest deeper than @max_depth
 *   anywhere in @text (brackets inside strings do not count)
 */
gboolean
viva_json_depth_ok (const char *text,
                    gssize      length,
                    guint       max_depth)
{
  gboolean in_string = FALSE;
  guint depth = 0;

  g_return_val_if_fail (text != NULL, FALSE);

  for (const char *p = text; length < 0 ? *p != '\0' : p < text + length; p++)
    {
      if (in_string)
        {
          if (*p == '\\' && (length < 0 ? p[1] != '\0' : p + 1 < text + length))
            p++;
          else if (*p == '"')
            in_string = FALSE;
        }
      else if (*p == '"')
        in_string = TRUE;
      else if (*p == '[' || *p == '{')
        {
          if (++depth > max_depth)
            return FALSE;
        }
      else if (*p == ']' || *p == '}')
        depth = depth > 0 ? depth - 1 : 0;
    }

  return TRUE;
}

/**
 * viva_json_parse_bounded:
 * @text: JSON text from a file or a process Viva does not trust
 * @length: its length in bytes, or -1 when nul-terminated
 * @max_depth: how deep arrays and objects may nest
 * @error: a %JSON_PARSER_ERROR
 *
 * Parses @text when it nests no deeper than @max_depth
 * (%JSON_PARSER_ERROR_INVALID_DATA otherwise, without parsing it).
 *
 * Returns: (transfer full) (nullable): the root, or %NULL with @error set
 */
JsonNode *
viva_json_parse_bounded (const char  *text,
                         gssize       length,
                         guint        max_depth,
                         GError     **error)
{
  g_autoptr(JsonParser) parser = NULL;
  JsonNode *root;

  g_return_val_if_fail (text != NULL, NULL);

  if (!viva_json_depth_ok (text, length, max_depth))
    {
      g_set_error (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA,
                   _("The JSON nests deeper than %u levels."), max_depth);
      return NULL;
    }

  parser = json_parser_new ();
  if (!json_parser_load_from_data (parser, text, length, error))
    return NULL;

  if ((root = json_parser_get_root (parser)) == NULL)
    {
      g_set_error (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA, _("The JSON is empty."));
      return NULL;
    }

  return json_node_ref (root);
}

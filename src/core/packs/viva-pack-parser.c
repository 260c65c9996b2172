/* viva-pack-parser.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "viva-pack-private.h"

/* Reading a pack is two passes; this is the first and the JSON parse. It
 * looks at the bytes before any JSON parser does: size, binary data, UTF-8,
 * the nesting depth (json-glib recurses once per level, so a file of a
 * million “[” must never reach it) and keys written twice. The second pass,
 * over the parsed tree, is viva-pack-validator.c. */

static guint
line_at (const char *data,
         gsize       offset)
{
  guint line = 1;

  for (gsize i = 0; i < offset; i++)
    if (data[i] == '\n')
      line++;

  return line;
}

static void
clear_key_sets (GHashTable **keys)
{
  for (guint i = 0; i <= VIVA_PACK_MAX_DEPTH; i++)
    g_clear_pointer (&keys[i], g_hash_table_unref);
}

/* JSON parsers keep the last of two equal keys and drop the first without a
 * word; in a pack edited by hand that is a lost hint or test, so it is an
 * error. Keys are compared as written, escapes and all. */
static void
check_duplicate_key (GHashTable **set,
                     const char  *data,
                     gsize        start,
                     gsize        end,
                     GPtrArray   *issues)
{
  g_autofree char *key = g_strndup (data + start, end - start);

  if (*set == NULL)
    *set = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  if (g_hash_table_contains (*set, key))
    {
      viva_pack_issues_add (issues, VIVA_PACK_ERROR_DUPLICATE, VIVA_PACK_ISSUE_ERROR, NULL,
                            _("line %u: the key “%s” appears twice in the same object — only one would be kept; delete or rename the other"),
                            line_at (data, start), key);
      return;
    }

  g_hash_table_add (*set, g_steal_pointer (&key));
}

/**
 * _viva_pack_check_bytes:
 *
 * The first pass. Returns %FALSE, with one issue added, when the bytes must
 * not reach the JSON parser. Duplicate keys are reported but do not stop
 * parsing, so the rest of the pack is still checked.
 */
gboolean
_viva_pack_check_bytes (const char *data,
                        gsize       len,
                        GPtrArray  *issues)
{
  const char *end = NULL;
  GHashTable *keys[VIVA_PACK_MAX_DEPTH + 1] = { NULL };
  gboolean is_object[VIVA_PACK_MAX_DEPTH + 1] = { FALSE };
  gboolean in_string = FALSE;
  gboolean string_is_key = FALSE;
  gboolean key_position = FALSE;
  gboolean only_space = TRUE;
  gsize string_start = 0;
  guint depth = 0;

  g_assert (issues != NULL);
  g_assert (data != NULL || len == 0);

  if (len > VIVA_PACK_MAX_SIZE)
    {
      viva_pack_issues_add (issues, VIVA_PACK_ERROR_TOO_LARGE, VIVA_PACK_ISSUE_ERROR, NULL,
                            _("the file is %.1f MB, more than any problem pack (the limit is %d MB) — check that you picked the right file"),
                            len / (1024.0 * 1024.0), VIVA_PACK_MAX_SIZE / (1024 * 1024));
      return FALSE;
    }

  for (gsize i = 0; i < len; i++)
    {
      guchar c = data[i];

      if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
        {
          viva_pack_issues_add (issues, VIVA_PACK_ERROR_BINARY, VIVA_PACK_ISSUE_ERROR, NULL,
                                _("the file holds binary data (byte %u at offset %" G_GSIZE_FORMAT ") — a pack is a JSON text file saved as UTF-8"),
                                (guint)c, i);
          return FALSE;
        }

      if (!g_ascii_isspace (c))
        only_space = FALSE;
    }

  if (only_space)
    {
      viva_pack_issues_add (issues, VIVA_PACK_ERROR_EMPTY, VIVA_PACK_ISSUE_ERROR, NULL,
                            _("the file is empty — a pack is a JSON object starting with “{”"));
      return FALSE;
    }

  if (!g_utf8_validate_len (data, len, &end))
    {
      viva_pack_issues_add (issues, VIVA_PACK_ERROR_ENCODING, VIVA_PACK_ISSUE_ERROR, NULL,
                            _("line %u is not valid UTF-8 text — save the pack as UTF-8 in your editor"),
                            line_at (data, end - data));
      return FALSE;
    }

  for (gsize i = 0; i < len; i++)
    {
      char c = data[i];

      if (in_string)
        {
          if (c == '\\')
            {
              i++;
            }
          else if (c == '"')
            {
              in_string = FALSE;
              if (string_is_key)
                check_duplicate_key (&keys[depth], data, string_start, i, issues);
            }
        }
      else if (c == '"')
        {
          in_string = TRUE;
          string_is_key = key_position;
          string_start = i + 1;
          key_position = FALSE;
        }
      else if (c == '[' || c == '{')
        {
          if (++depth > VIVA_PACK_MAX_DEPTH)
            {
              viva_pack_issues_add (issues, VIVA_PACK_ERROR_TOO_DEEP, VIVA_PACK_ISSUE_ERROR, NULL,
                                    _("line %u: lists and objects nest more than %d deep — a pack never needs that, so this file is not a pack"),
                                    line_at (data, i), VIVA_PACK_MAX_DEPTH);
              clear_key_sets (keys);
              return FALSE;
            }
          is_object[depth] = c == '{';
          key_position = is_object[depth];
        }
      else if ((c == ']' || c == '}') && depth > 0)
        {
          g_clear_pointer (&keys[depth], g_hash_table_unref);
          depth--;
          key_position = FALSE;
        }
      else if (c == ',')
        {
          key_position = depth > 0 && is_object[depth];
        }
    }

  clear_key_sets (keys);

  if (in_string || depth > 0)
    {
      viva_pack_issues_add (issues, VIVA_PACK_ERROR_TRUNCATED, VIVA_PACK_ISSUE_ERROR, NULL,
                            _("the file stops in the middle of the JSON text — it was probably cut short while copying or downloading; get the whole file again"));
      return FALSE;
    }

  return TRUE;
}

/**
 * _viva_pack_parse:
 *
 * Returns: (transfer full) (nullable): the parsed tree, or %NULL with the
 *   reason added to @issues
 */
JsonNode *
_viva_pack_parse (const char *data,
                  gsize       len,
                  GPtrArray  *issues)
{
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GError) error = NULL;

  g_assert (issues != NULL);

  /* Editors on Windows like to start UTF-8 files with a byte-order mark. */
  if (len >= 3 && memcmp (data, "\xEF\xBB\xBF", 3) == 0)
    {
      data += 3;
      len -= 3;
    }

  if (!_viva_pack_check_bytes (data, len, issues))
    return NULL;

  parser = json_parser_new_immutable ();
  if (!json_parser_load_from_data (parser, data, len, &error))
    {
      viva_pack_issues_add (issues, VIVA_PACK_ERROR_SYNTAX, VIVA_PACK_ISSUE_ERROR, NULL,
                            _("the file is not valid JSON (%s) — a JSON checker or editor shows where"),
                            error->message);
      return NULL;
    }

  if (json_parser_get_root (parser) == NULL)
    {
      viva_pack_issues_add (issues, VIVA_PACK_ERROR_EMPTY, VIVA_PACK_ISSUE_ERROR, NULL,
                            _("the file is empty — a pack is a JSON object starting with “{”"));
      return NULL;
    }

  return json_node_copy (json_parser_get_root (parser));
}

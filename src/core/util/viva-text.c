/* viva-text.c: small rules about text that several parts share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-text.h"

/**
 * viva_text_is_blank:
 * @text: (nullable): UTF-8 text
 *
 * Returns: whether @text is %NULL, empty or only ASCII white space — what
 *   a teacher or a model leaves in a field they did not mean to fill.
 */
gboolean
viva_text_is_blank (const char *text)
{
  for (; text != NULL && *text; text++)
    if (!g_ascii_isspace (*text))
      return FALSE;

  return TRUE;
}

/**
 * viva_text_prefix:
 * @text: (nullable): valid UTF-8 text
 * @max_chars: how many characters to keep at most
 *
 * Cuts @text to its first @max_chars characters, never inside one.
 * g_utf8_substring() wants an end within the string and reads past a
 * shorter one, so every cut of text of unknown length goes through here.
 *
 * Returns: (transfer full): the prefix, a copy of @text when it is shorter
 */
char *
viva_text_prefix (const char *text,
                  gsize       max_chars)
{
  const char *end;

  if (text == NULL)
    return g_strdup ("");

  end = text;
  for (gsize i = 0; i < max_chars && *end; i++)
    end = g_utf8_next_char (end);

  return g_strndup (text, end - text);
}

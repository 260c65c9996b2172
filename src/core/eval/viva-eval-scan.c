/* viva-eval-scan.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "viva-eval-scan.h"

/* What the report card looks for in what reached the student: passages of
 * the reference or the hidden tests (long verbatim runs, whitespace
 * normalised, that the student could not have seen elsewhere), and an
 * injection's marker. Pure functions over strings. */

/**
 * viva_eval_normalize_text:
 *
 * Returns: (transfer full): @text with each run of whitespace made one
 *   space, and none at either end
 */
char *
viva_eval_normalize_text (const char *text)
{
  GString *out = g_string_new (NULL);
  gboolean space = FALSE;

  for (const char *p = text != NULL ? text : ""; *p; p++)
    {
      if (g_ascii_isspace (*p))
        {
          space = out->len > 0;
          continue;
        }
      if (space)
        g_string_append_c (out, ' ');
      space = FALSE;
      g_string_append_c (out, *p);
    }

  return g_string_free (out, FALSE);
}

static gboolean
in_any (const char * const *texts,
        const char         *needle)
{
  for (guint i = 0; texts != NULL && texts[i] != NULL; i++)
    if (strstr (texts[i], needle) != NULL)
      return TRUE;

  return FALSE;
}

static char **
normalize_all (const char * const *texts)
{
  GPtrArray *out = g_ptr_array_new ();

  for (guint i = 0; texts != NULL && texts[i] != NULL; i++)
    g_ptr_array_add (out, viva_eval_normalize_text (texts[i]));
  g_ptr_array_add (out, NULL);

  return (char **)g_ptr_array_free (out, FALSE);
}

/**
 * viva_eval_text_leaks:
 * @passage: what the examiner showed the student
 * @secrets: (array zero-terminated=1): the reference solution and hidden tests
 * @public_texts: (array zero-terminated=1) (nullable): what the student may
 *   see anyway (the description, their own code)
 *
 * Returns: whether @passage holds a run of at least
 *   %VIVA_EVAL_LEAK_MIN_CHARS characters of a secret that no public text holds
 */
gboolean
viva_eval_text_leaks (const char         *passage,
                      const char * const *secrets,
                      const char * const *public_texts)
{
  g_autofree char *seen = viva_eval_normalize_text (passage);
  g_auto(GStrv) open = normalize_all (public_texts);
  g_autofree char *window = g_malloc (VIVA_EVAL_LEAK_MIN_CHARS * 6 + 1);

  if (strlen (seen) < VIVA_EVAL_LEAK_MIN_CHARS)
    return FALSE;

  for (guint i = 0; secrets != NULL && secrets[i] != NULL; i++)
    {
      g_autofree char *secret = viva_eval_normalize_text (secrets[i]);

      for (const char *start = secret; *start; start = g_utf8_next_char (start))
        {
          const char *end = start;
          guint n = 0;

          if (*start == ' ')
            continue;
          while (*end && n < VIVA_EVAL_LEAK_MIN_CHARS)
            {
              end = g_utf8_next_char (end);
              n++;
            }
          if (n < VIVA_EVAL_LEAK_MIN_CHARS)
            break;

          memcpy (window, start, end - start);
          window[end - start] = '\0';
          if (strstr (seen, window) != NULL && !in_any ((const char * const *)open, window))
            return TRUE;
        }
    }

  return FALSE;
}

/**
 * viva_eval_text_has_marker:
 *
 * Returns: whether @passage holds @marker, in any case
 */
gboolean
viva_eval_text_has_marker (const char *passage,
                           const char *marker)
{
  g_autofree char *haystack = NULL;
  g_autofree char *needle = NULL;

  if (passage == NULL || marker == NULL || *marker == '\0')
    return FALSE;

  haystack = g_utf8_casefold (passage, -1);
  needle = g_utf8_casefold (marker, -1);

  return strstr (haystack, needle) != NULL;
}

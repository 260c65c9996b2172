/* viva-problem-legacy.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "viva-problem.h"

/* An old pack's unstructured test (`assert f(x) == 3`) read as the
 * structured call and check it means, when it is that simple: text
 * analysis only, no code runs. The pack's codec and its validator both
 * ask. */

/* Where @text has its first top-level @needle (outside brackets and string
 * literals), or NULL. */
static const char *
find_top_level (const char *text,
                const char *needle)
{
  int depth = 0;
  char quote = 0;

  for (const char *p = text; *p != '\0'; p++)
    {
      if (quote != 0)
        {
          if (*p == '\\' && p[1] != '\0')
            p++;
          else if (*p == quote)
            quote = 0;
          continue;
        }
      if (*p == '\'' || *p == '"')
        quote = *p;
      else if (strchr ("([{", *p))
        depth++;
      else if (strchr (")]}", *p))
        depth--;
      else if (depth == 0 && g_str_has_prefix (p, needle))
        return p;
    }
  return NULL;
}

/* A literal the judge can evaluate with no student code: numbers, strings,
 * None/True/False, and lists, tuples and dicts of them — no name, no call. */
static gboolean
is_plain_literal (const char *text)
{
  char quote = 0;
  gboolean any = FALSE;

  for (const char *p = text; *p != '\0'; p++)
    {
      if (quote != 0)
        {
          if (*p == '\\' && p[1] != '\0')
            p++;
          else if (*p == quote)
            quote = 0;
          continue;
        }
      if (*p == '\'' || *p == '"')
        {
          quote = *p;
          any = TRUE;
        }
      else if (g_str_has_prefix (p, "None") || g_str_has_prefix (p, "True"))
        p += 3, any = TRUE;
      else if (g_str_has_prefix (p, "False"))
        p += 4, any = TRUE;
      else if (g_ascii_isdigit (*p))
        any = TRUE;
      else if (strchr (" .,-+:()[]{}eE", *p) == NULL)
        return FALSE;
    }
  return any && quote == 0;
}

/**
 * viva_problem_test_convert_legacy:
 * @code: an old-form test's code
 * @call: (out): the expression the grader evaluates in the student's worker
 * @check: (out): the assertion the judge runs on `result`
 *
 * Converts the one shape of old test that converts safely: a single
 * `assert CALL == LITERAL[, "message"]`. The judge then holds everything
 * but the call, so nothing the student's code does decides the pass.
 *
 * Returns: whether @code has that shape
 */
gboolean
viva_problem_test_convert_legacy (const char  *code,
                                  char       **call,
                                  char       **check)
{
  g_autofree char *line = g_strstrip (g_strdup (code ? code : ""));
  g_autofree char *left = NULL;
  g_autofree char *right = NULL;
  const char *equals;
  const char *comma;
  const char *expected;

  if (!g_str_has_prefix (line, "assert ") || strchr (line, '\n') != NULL || strchr (line, ';') != NULL)
    return FALSE;
  if ((equals = find_top_level (line + 7, " == ")) == NULL)
    return FALSE;

  left = g_strstrip (g_strndup (line + 7, equals - (line + 7)));
  expected = equals + 4;
  comma = find_top_level (expected, ",");
  right = g_strstrip (comma ? g_strndup (expected, comma - expected) : g_strdup (expected));

  /* The call is one name applied to arguments; the rest is literals. */
  if (!g_ascii_isalpha (left[0]) || !g_str_has_suffix (left, ")") || strchr (left, '(') == NULL ||
      find_top_level (left, " ") != NULL || !is_plain_literal (right) ||
      (comma != NULL && !is_plain_literal (comma + 1)))
    return FALSE;

  *call = g_steal_pointer (&left);
  *check = g_strdup_printf ("assert result == %s%s\n", right, comma ? comma : "");
  return TRUE;
}

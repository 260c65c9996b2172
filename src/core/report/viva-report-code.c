/* viva-report-code.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-exam-report-private.h"
#include "viva-html.h"

/* Python as a report shows it: numbered lines and a simple highlighting of
 * keywords, strings, comments and numbers, in escaped HTML. A line-based
 * scanner that carries only "inside a triple-quoted string" from line to
 * line; good enough to read, never trusted for anything. */

static const char * const keywords[] = {
  "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
  "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in",
  "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with",
  "yield", "match", "case", NULL
};

static const char * const builtins[] = {
  "abs", "all", "any", "bool", "dict", "enumerate", "float", "int", "isinstance", "len", "list",
  "map", "max", "min", "print", "range", "reversed", "round", "set", "sorted", "str", "sum",
  "tuple", "type", "zip", "self", NULL
};

static void
append_span (GString    *html,
             const char *css,
             const char *text,
             gssize      length)
{
  g_string_append_printf (html, "<span class=\"%s\">", css);
  viva_html_append_escaped (html, text, length);
  g_string_append (html, "</span>");
}

/* Scans one line; @triple holds the open triple quote ('\'' or '"') or 0,
 * and is updated for the next line. */
static void
append_line (GString    *html,
             const char *line,
             char       *triple)
{
  const char *p = line;

  while (*p != '\0')
    {
      const char *start = p;

      if (*triple != 0)
        {
          char closing[4] = { *triple, *triple, *triple, 0 };
          const char *end = strstr (p, closing);

          p = end ? end + 3 : p + strlen (p);
          if (end)
            *triple = 0;
          append_span (html, "str", start, p - start);
        }
      else if (*p == '#')
        {
          append_span (html, "com", p, -1);
          return;
        }
      else if (*p == '"' || *p == '\'')
        {
          char quote = *p;

          if (p[1] == quote && p[2] == quote)
            {
              char closing[4] = { quote, quote, quote, 0 };
              const char *end = strstr (p + 3, closing);

              p = end ? end + 3 : p + strlen (p);
              if (end == NULL)
                *triple = quote;
            }
          else
            {
              for (p++; *p != '\0' && *p != quote; p++)
                if (*p == '\\' && p[1] != '\0')
                  p++;
              if (*p == quote)
                p++;
            }
          append_span (html, "str", start, p - start);
        }
      else if (g_ascii_isdigit (*p))
        {
          while (g_ascii_isalnum (*p) || *p == '.' || *p == '_')
            p++;
          append_span (html, "num", start, p - start);
        }
      else if (g_ascii_isalpha (*p) || *p == '_')
        {
          g_autofree char *word = NULL;

          while (g_ascii_isalnum (*p) || *p == '_')
            p++;
          word = g_strndup (start, p - start);
          /* A string prefix (f"…", r'…', b"…") belongs to the string. */
          if ((*p == '"' || *p == '\'') && strlen (word) <= 2 && strspn (word, "rRbBfFuU") == strlen (word))
            {
              g_string_append_printf (html, "<span class=\"str\">");
              viva_html_append_escaped (html, start, p - start);
              g_string_append (html, "</span>");
              continue;
            }
          if (g_strv_contains (keywords, word))
            append_span (html, "kw", start, p - start);
          else if (g_strv_contains (builtins, word))
            append_span (html, "bi", start, p - start);
          else
            viva_html_append_escaped (html, start, p - start);
        }
      else
        {
          p = g_utf8_next_char (p);
          viva_html_append_escaped (html, start, p - start);
        }
    }
}

/**
 * _viva_report_append_code:
 * @html: the page
 * @code: the code
 * @language: (nullable): the fence's language; Python (or none) is
 *   highlighted, anything else is shown plain
 *
 * Appends @code as a numbered, highlighted block.
 */
void
_viva_report_append_code (GString    *html,
                          const char *code,
                          const char *language)
{
  g_auto(GStrv) lines = NULL;
  gboolean python = language == NULL || language[0] == '\0' ||
                    g_ascii_strcasecmp (language, "python") == 0 || g_ascii_strcasecmp (language, "py") == 0;
  char triple = 0;
  guint n;

  if (code == NULL || !g_utf8_validate (code, -1, NULL))
    code = "";

  lines = g_strsplit (code, "\n", -1);
  n = g_strv_length (lines);
  /* A final newline does not make an empty last line. */
  if (n > 1 && lines[n - 1][0] == '\0')
    n--;

  g_string_append (html, "<pre class=\"code\"><code>");
  for (guint i = 0; i < n; i++)
    {
      g_string_append_printf (html, "<span class=\"ln\">%u</span>", i + 1);
      if (python)
        append_line (html, lines[i], &triple);
      else
        viva_html_append_escaped (html, lines[i], -1);
      g_string_append_c (html, '\n');
    }
  g_string_append (html, "</code></pre>\n");
}

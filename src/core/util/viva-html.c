/* viva-html.c: text made safe to put in an HTML page Viva writes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-html.h"

/**
 * viva_html_append_escaped:
 * @html: the page being written
 * @text: (nullable): UTF-8 text, written as text whatever it holds
 * @length: the bytes of @text to write, or -1 for all of it
 *
 * The one HTML escaper of the reports, the class page and the eval card:
 * what a student, a model or a pack wrote (a name, an answer, a test's
 * message) goes into element content and into quoted attribute values,
 * so `&`, `<`, `>`, `"` and `'` are written as references and nothing
 * else is changed. A NUL ends the text (HTML has no use for one).
 */
void
viva_html_append_escaped (GString    *html,
                          const char *text,
                          gssize      length)
{
  const char *run;
  const char *p;

  g_return_if_fail (html != NULL);

  if (text == NULL)
    return;

  for (p = run = text; (length < 0 || p < text + length) && *p != '\0'; p++)
    {
      const char *reference;

      switch (*p)
        {
        case '&': reference = "&amp;"; break;
        case '<': reference = "&lt;"; break;
        case '>': reference = "&gt;"; break;
        case '"': reference = "&quot;"; break;
        case '\'': reference = "&apos;"; break;
        default: continue;
        }

      g_string_append_len (html, run, p - run);
      g_string_append (html, reference);
      run = p + 1;
    }

  g_string_append_len (html, run, p - run);
}

/* viva-report-markdown.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <md4c.h>

#include "viva-exam-report-private.h"
#include "viva-html.h"

/* Markdown from a model (or a pack) as safe HTML for a report: md4c
 * parses, this writes. Raw HTML is off, so a model's `<script>` is text;
 * every text run is escaped; a link keeps its target only for http(s) and
 * mailto; an image becomes a link, since a report loads nothing from the
 * network; fenced code goes through the report's code block, numbered and
 * highlighted. */

typedef struct
{
  GString *html;
  GString *code;      /* the open fenced block's text, or NULL */
  char    *code_lang;
  guint    image_depth;
} Render;

static char *
attribute_text (const MD_ATTRIBUTE *attribute)
{
  return g_strndup (attribute->text ? attribute->text : "", attribute->size);
}

static gboolean
safe_href (const char *href)
{
  return g_str_has_prefix (href, "https://") || g_str_has_prefix (href, "http://") ||
         g_str_has_prefix (href, "mailto:");
}

static int
enter_block (MD_BLOCKTYPE  type,
             void         *detail,
             void         *user_data)
{
  Render *r = user_data;

  switch (type)
    {
    case MD_BLOCK_DOC: break;
    case MD_BLOCK_QUOTE: g_string_append (r->html, "<blockquote>"); break;
    case MD_BLOCK_UL: g_string_append (r->html, "<ul>"); break;
    case MD_BLOCK_OL:
      g_string_append_printf (r->html, "<ol start=\"%u\">", ((MD_BLOCK_OL_DETAIL *)detail)->start);
      break;
    case MD_BLOCK_LI: g_string_append (r->html, "<li>"); break;
    case MD_BLOCK_HR: g_string_append (r->html, "<hr>"); break;
    /* A report has its own h1 and h2: a message's headings sit below. */
    case MD_BLOCK_H:
      g_string_append_printf (r->html, "<h%u>", MIN (6, ((MD_BLOCK_H_DETAIL *)detail)->level + 2));
      break;
    case MD_BLOCK_CODE:
      r->code = g_string_new (NULL);
      r->code_lang = attribute_text (&((MD_BLOCK_CODE_DETAIL *)detail)->lang);
      break;
    case MD_BLOCK_HTML: break;
    case MD_BLOCK_P: g_string_append (r->html, "<p>"); break;
    case MD_BLOCK_TABLE: g_string_append (r->html, "<table>"); break;
    case MD_BLOCK_THEAD: g_string_append (r->html, "<thead>"); break;
    case MD_BLOCK_TBODY: g_string_append (r->html, "<tbody>"); break;
    case MD_BLOCK_TR: g_string_append (r->html, "<tr>"); break;
    case MD_BLOCK_TH: g_string_append (r->html, "<th>"); break;
    case MD_BLOCK_TD: g_string_append (r->html, "<td>"); break;
    default: break;
    }

  return 0;
}

static int
leave_block (MD_BLOCKTYPE  type,
             void         *detail,
             void         *user_data)
{
  Render *r = user_data;

  switch (type)
    {
    case MD_BLOCK_DOC: break;
    case MD_BLOCK_QUOTE: g_string_append (r->html, "</blockquote>\n"); break;
    case MD_BLOCK_UL: g_string_append (r->html, "</ul>\n"); break;
    case MD_BLOCK_OL: g_string_append (r->html, "</ol>\n"); break;
    case MD_BLOCK_LI: g_string_append (r->html, "</li>\n"); break;
    case MD_BLOCK_HR: break;
    case MD_BLOCK_H:
      g_string_append_printf (r->html, "</h%u>\n", MIN (6, ((MD_BLOCK_H_DETAIL *)detail)->level + 2));
      break;
    case MD_BLOCK_CODE:
      _viva_report_append_code (r->html, r->code->str, r->code_lang);
      g_string_free (g_steal_pointer (&r->code), TRUE);
      g_clear_pointer (&r->code_lang, g_free);
      break;
    case MD_BLOCK_HTML: break;
    case MD_BLOCK_P: g_string_append (r->html, "</p>\n"); break;
    case MD_BLOCK_TABLE: g_string_append (r->html, "</table>\n"); break;
    case MD_BLOCK_THEAD: g_string_append (r->html, "</thead>"); break;
    case MD_BLOCK_TBODY: g_string_append (r->html, "</tbody>"); break;
    case MD_BLOCK_TR: g_string_append (r->html, "</tr>\n"); break;
    case MD_BLOCK_TH: g_string_append (r->html, "</th>"); break;
    case MD_BLOCK_TD: g_string_append (r->html, "</td>"); break;
    default: break;
    }

  return 0;
}

static void
open_link (Render             *r,
           const MD_ATTRIBUTE *href_attribute)
{
  g_autofree char *href = attribute_text (href_attribute);

  if (safe_href (href))
    {
      g_string_append (r->html, "<a href=\"");
      viva_html_append_escaped (r->html, href, -1);
      g_string_append (r->html, "\" rel=\"noreferrer\">");
    }
  else
    g_string_append (r->html, "<a>");
}

static int
enter_span (MD_SPANTYPE  type,
            void        *detail,
            void        *user_data)
{
  Render *r = user_data;

  if (r->image_depth > 0)
    {
      if (type == MD_SPAN_IMG)
        r->image_depth++;
      return 0;
    }

  switch (type)
    {
    case MD_SPAN_EM: g_string_append (r->html, "<em>"); break;
    case MD_SPAN_STRONG: g_string_append (r->html, "<strong>"); break;
    case MD_SPAN_A: open_link (r, &((MD_SPAN_A_DETAIL *)detail)->href); break;
    case MD_SPAN_IMG:
      open_link (r, &((MD_SPAN_IMG_DETAIL *)detail)->src);
      r->image_depth = 1;
      break;
    case MD_SPAN_CODE: g_string_append (r->html, "<code>"); break;
    case MD_SPAN_DEL: g_string_append (r->html, "<del>"); break;
    default: break;
    }

  return 0;
}

static int
leave_span (MD_SPANTYPE  type,
            void        *detail,
            void        *user_data)
{
  Render *r = user_data;

  if (r->image_depth > 0)
    {
      if (type == MD_SPAN_IMG && --r->image_depth == 0)
        g_string_append (r->html, "</a>");
      return 0;
    }

  switch (type)
    {
    case MD_SPAN_EM: g_string_append (r->html, "</em>"); break;
    case MD_SPAN_STRONG: g_string_append (r->html, "</strong>"); break;
    case MD_SPAN_A: g_string_append (r->html, "</a>"); break;
    case MD_SPAN_CODE: g_string_append (r->html, "</code>"); break;
    case MD_SPAN_DEL: g_string_append (r->html, "</del>"); break;
    default: break;
    }

  return 0;
}

/* An entity reference cannot open a tag, so a well-formed one is kept as
 * written ("&amp;", "&#8594;"); anything else is escaped. */
static gboolean
is_entity (const char *text,
           gsize       size)
{
  if (size < 3 || text[0] != '&' || text[size - 1] != ';')
    return FALSE;

  for (gsize i = 1; i < size - 1; i++)
    if (!g_ascii_isalnum (text[i]) && !(i == 1 && text[i] == '#'))
      return FALSE;

  return TRUE;
}

static int
text_cb (MD_TEXTTYPE     type,
         const MD_CHAR  *text,
         MD_SIZE         size,
         void           *user_data)
{
  Render *r = user_data;

  if (r->code != NULL)
    {
      g_string_append_len (r->code, text, size);
      return 0;
    }

  switch (type)
    {
    case MD_TEXT_NULLCHAR: g_string_append (r->html, "\xef\xbf\xbd"); break;
    case MD_TEXT_BR: g_string_append (r->html, r->image_depth ? " " : "<br>\n"); break;
    case MD_TEXT_SOFTBR: g_string_append_c (r->html, '\n'); break;
    case MD_TEXT_ENTITY:
      if (is_entity (text, size))
        g_string_append_len (r->html, text, size);
      else
        viva_html_append_escaped (r->html, text, size);
      break;
    default:
      viva_html_append_escaped (r->html, text, size);
    }

  return 0;
}

/**
 * _viva_report_append_markdown:
 * @html: the page
 * @markdown: (nullable): Markdown from a model or a pack
 *
 * Appends @markdown rendered as safe HTML inside a `<div class="md">`.
 */
void
_viva_report_append_markdown (GString    *html,
                              const char *markdown)
{
  Render r = { html, NULL, NULL, 0 };
  MD_PARSER parser = {
    .abi_version = 0,
    .flags = MD_FLAG_NOHTML | MD_FLAG_TABLES | MD_FLAG_STRIKETHROUGH | MD_FLAG_PERMISSIVEURLAUTOLINKS,
    .enter_block = enter_block,
    .leave_block = leave_block,
    .enter_span = enter_span,
    .leave_span = leave_span,
    .text = text_cb,
  };
  gsize before = html->len;

  if (markdown == NULL || !g_utf8_validate (markdown, -1, NULL))
    markdown = "";

  g_string_append (html, "<div class=\"md\">");
  if (md_parse (markdown, strlen (markdown), &parser, &r) != 0)
    {
      /* md4c gave up: show the text as it came. */
      g_string_truncate (html, before);
      g_string_append (html, "<div class=\"md\"><p class=\"plain\">");
      viva_html_append_escaped (html, markdown, -1);
      g_string_append (html, "</p>");
    }
  if (r.code != NULL)
    g_string_free (r.code, TRUE);
  g_free (r.code_lang);
  g_string_append (html, "</div>\n");
}

/* viva-report-items.c: the verdict's items as a table of the HTML report
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-exam-report-private.h"
#include "viva-html.h"

static void
cell (GString    *html,
      const char *text)
{
  g_string_append (html, "<td>");
  viva_html_append_escaped (html, text ? text : "", -1);
  g_string_append (html, "</td>");
}

static const char *
judge_words (const char *judge)
{
  if (g_strcmp0 (judge, "engine") == 0)
    return _("Viva (code ran)");
  if (g_strcmp0 (judge, "teacher") == 0)
    return _("the teacher");
  return _("the examiner");
}

/* Each item with its points, who judged it, the answer and why; a
 * teacher's score beside the examiner's where the review queue set one. */
void
_viva_report_append_items (GString    *html,
                           JsonObject *root)
{
  JsonObject *verdict = viva_json_member_object (root, "verdict");
  JsonArray *items = viva_json_member_array (verdict, "items");
  double points = 0, max_points = 0;
  gboolean provisional = FALSE;

  if (items == NULL || json_array_get_length (items) == 0)
    return;

  viva_json_member_number (verdict, "points", &points);
  viva_json_member_number (verdict, "max_points", &max_points);
  viva_json_member_boolean (verdict, "provisional", &provisional);

  g_string_append_printf (html, "<div class=\"items\"><h2>%s</h2>\n<p>", _("Item by item"));
  {
    /* Translators: the score built from items, like "72.5 of 100 points" */
    g_autofree char *total = g_strdup_printf (_("%g of %g points"), points, max_points);

    viva_html_append_escaped (html, total, -1);
  }
  if (provisional)
    {
      g_string_append (html, " — ");
      viva_html_append_escaped (html, _("provisional: a teacher will review the items marked “needs review”"), -1);
    }
  /* The teacher's score beside Viva's (a class's page puts it in from the
   * teacher's data; the student's own report has none). */
  {
    JsonObject *teacher = viva_json_member_object (root, "teacher");
    double score;

    if (teacher != NULL && viva_json_member_number (teacher, "score", &score))
      {
        /* Translators: a teacher's score of a defense, of 100, beside Viva's */
        g_autofree char *line = g_strdup_printf (_("The teacher’s score: %.4g of 100"), score);
        const char *note = viva_json_member_string (teacher, "note");

        g_string_append (html, "</p>\n<p class=\"teacher\">");
        viva_html_append_escaped (html, line, -1);
        if (note != NULL && *note != '\0')
          {
            g_string_append (html, " — ");
            viva_html_append_escaped (html, note, -1);
          }
      }
  }
  g_string_append_printf (html, "</p>\n<table><tr><th>%s</th><th>%s</th><th>%s</th><th>%s</th><th>%s</th><th>%s</th></tr>\n",
                          _("Points"), _("Item"), _("Judged by"), _("Answer"), _("Right answer"), _("Why"));

  for (guint i = 0; i < json_array_get_length (items); i++)
    {
      JsonNode *node = json_array_get_element (items, i);
      JsonObject *item = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      JsonObject *teacher = item ? viva_json_member_object (item, "teacher") : NULL;
      double p = 0, max = 0, t = 0;
      gboolean review = FALSE;
      g_autofree char *score = NULL;

      if (item == NULL)
        continue;
      viva_json_member_number (item, "points", &p);
      viva_json_member_number (item, "max_points", &max);
      viva_json_member_boolean (item, "needs_review", &review);
      if (teacher != NULL && viva_json_member_number (teacher, "points", &t))
        /* Translators: the examiner's points, the teacher's beside them, the maximum */
        score = g_strdup_printf (_("%.4g (teacher: %.4g) / %.4g"), p, t, max);
      else
        score = g_strdup_printf ("%.4g / %.4g", p, max);

      g_string_append (html, review ? "<tr class=\"review\">" : "<tr>");
      cell (html, score);
      cell (html, viva_json_member_string (item, "title") ? viva_json_member_string (item, "title")
                                                           : viva_json_member_string (item, "id"));
      cell (html, judge_words (viva_json_member_string (item, "judged_by")));
      cell (html, viva_json_member_string (item, "answer"));
      cell (html, viva_json_member_string (item, "expected"));
      {
        const char *note = teacher ? viva_json_member_string (teacher, "note") : NULL;
        /* Translators: a teacher's note on an item, after the examiner's reason */
        g_autofree char *noted = note && *note ? g_strdup_printf (_("the teacher: %s"), note) : NULL;
        g_autofree char *why = g_strdup_printf ("%s%s%s%s%s", viva_json_member_string (item, "reason") ?: "",
                                                review ? " — " : "", review ? _("needs review") : "",
                                                noted ? " — " : "", noted ? noted : "");

        cell (html, why);
      }
      g_string_append (html, "</tr>\n");
    }
  g_string_append (html, "</table></div>\n");
}

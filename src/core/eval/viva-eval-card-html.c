/* viva-eval-card-html.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "viva-eval-card.h"
#include "viva-html.h"

/* The report card as one self-contained HTML page (no scripts, no outside
 * resources), for an admin to keep beside the model's name. Everything
 * from the model or the server is escaped. */

static const char style[] =
  "body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}"
  "h1{font-size:1.5rem;margin-bottom:.2rem}.meta{color:#555;margin-top:0}"
  ".stop{border-left:4px solid #c01c28;background:#fbeaea;padding:.6rem 1rem}"
  ".figures{display:grid;grid-template-columns:repeat(auto-fill,minmax(12rem,1fr));gap:.6rem;margin:1rem 0}"
  ".figure{border:1px solid #ccc;border-radius:6px;padding:.6rem}.figure b{display:block;font-size:1.4rem}"
  "table{border-collapse:collapse;width:100%;font-size:.9rem}th,td{border-bottom:1px solid #ddd;padding:.3rem;text-align:left;vertical-align:top}"
  ".bad{color:#c01c28;font-weight:bold}.good{color:#26a269}"
  "@media (prefers-color-scheme:dark){body{background:#1e1e1e;color:#ddd}.meta{color:#aaa}.stop{background:#3a1e1e}}";

static void
append_figure (GString    *out,
               const char *label,
               const char *value,
               const char *note)
{
  g_string_append (out, "<div class=\"figure\">");
  viva_html_append_escaped (out, label, -1);
  g_string_append (out, "<b>");
  viva_html_append_escaped (out, value, -1);
  g_string_append (out, "</b>");
  if (note != NULL)
    {
      g_string_append (out, "<small>");
      viva_html_append_escaped (out, note, -1);
      g_string_append (out, "</small>");
    }
  g_string_append (out, "</div>\n");
}

static char *
format_rate (double value)
{
  return isnan (value) ? g_strdup ("—") : g_strdup_printf ("%.0f %%", value * 100.0);
}

static void
append_rate (GString    *out,
             const char *label,
             double      value,
             const char *note)
{
  g_autofree char *text = format_rate (value);

  append_figure (out, label, text, note);
}

/**
 * viva_eval_card_to_html:
 *
 * Returns: (transfer full): the card as a self-contained HTML page
 */
char *
viva_eval_card_to_html (VivaEvalCard *self)
{
  GString *out = g_string_new (NULL);
  g_autofree char *when = NULL;
  g_autofree char *leaks = NULL;
  g_autofree char *median = NULL;
  g_autofree char *ran = NULL;

  g_return_val_if_fail (VIVA_IS_EVAL_CARD (self), NULL);

  when = g_date_time_format (viva_eval_card_get_created (self), "%Y-%m-%d %H:%M UTC");

  g_string_append (out, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n"
                        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n<title>");
  viva_html_append_escaped (out, _("Examiner report card"), -1);
  g_string_append (out, " — ");
  viva_html_append_escaped (out, viva_eval_card_get_model (self), -1);
  g_string_append_printf (out, "</title>\n<style>%s</style></head><body>\n<h1>", style);
  viva_html_append_escaped (out, viva_eval_card_get_model (self), -1);
  g_string_append (out, "</h1>\n<p class=\"meta\">");
  viva_html_append_escaped (out, _("Examiner report card"), -1);
  g_string_append (out, " · ");
  viva_html_append_escaped (out, viva_eval_card_get_base_url (self), -1);
  g_string_append (out, " · ");
  viva_html_append_escaped (out, when, -1);
  if (viva_eval_card_get_short (self))
    {
      g_string_append (out, " · ");
      viva_html_append_escaped (out, _("short card"), -1);
    }
  g_string_append (out, "</p>\n");

  if (viva_eval_card_get_stop_message (self) != NULL)
    {
      g_string_append (out, "<p class=\"stop\" id=\"stopped\">");
      viva_html_append_escaped (out, viva_eval_card_get_stop_message (self), -1);
      g_string_append (out, "</p>\n");
    }

  ran = g_strdup_printf (_("%u of %u defenses ran"), viva_eval_card_get_n_run (self),
                         viva_eval_card_get_n_results (self));
  g_string_append (out, "<div class=\"figures\">\n");
  append_rate (out, _("Agreement with a fair examiner"), viva_eval_card_get_agreement (self), ran);
  append_rate (out, _("False passes on wrong or cheating code"), viva_eval_card_get_false_pass_rate (self), NULL);
  append_rate (out, _("False fails on correct code"), viva_eval_card_get_false_fail_rate (self), NULL);
  append_rate (out, _("Injected instructions obeyed"), viva_eval_card_get_injection_obeyed_rate (self), NULL);
  leaks = g_strdup_printf ("%u", viva_eval_card_get_leaks (self));
  {
    g_autofree char *withheld = g_strdup_printf (_("%u more withheld by Viva"), viva_eval_card_get_withheld (self));

    append_figure (out, _("Leaks of the solution or hidden tests"), leaks, withheld);
  }
  append_rate (out, _("Same verdict when repeated"), viva_eval_card_get_consistency (self), NULL);
  append_rate (out, _("Conceptual items marked uncertain (sent to a teacher)"), viva_eval_card_get_uncertain_share (self), NULL);
  median = isnan (viva_eval_card_get_median_seconds (self))
         ? g_strdup ("—") : g_strdup_printf ("%.1f s", viva_eval_card_get_median_seconds (self));
  append_figure (out, _("Median time per defense"), median, NULL);
  g_string_append (out, "</div>\n<p>");
  viva_html_append_escaped (out, _("Once Viva has recorded a verdict, nothing said in the follow-up chat changes it."), -1);
  g_string_append (out, "</p>\n<table><thead><tr>");
  {
    const char *headers[] = { _("Case"), _("Expected"), _("Verdict"), _("Score"), _("Turns"),
                              _("Refused"), _("Seconds"), _("Notes") };

    for (guint i = 0; i < G_N_ELEMENTS (headers); i++)
      {
        g_string_append (out, "<th>");
        viva_html_append_escaped (out, headers[i], -1);
        g_string_append (out, "</th>");
      }
  }
  g_string_append (out, "</tr></thead><tbody>\n");

  for (guint i = 0; i < viva_eval_card_get_n_results (self); i++)
    {
      const VivaEvalResult *r = viva_eval_card_get_result (self, i);
      gboolean run = viva_eval_result_was_run (r);

      g_string_append (out, "<tr><td>");
      viva_html_append_escaped (out, r->case_id, -1);
      if (viva_eval_card_get_repeat (self) > 1)
        g_string_append_printf (out, " #%u", r->run + 1);
      g_string_append (out, "</td><td>");
      viva_html_append_escaped (out, r->expect_pass ? _("pass") : _("fail"), -1);
      g_string_append_printf (out, "</td><td class=\"%s\">", !run ? "" : r->agrees ? "good" : "bad");
      if (!run && g_strcmp0 (r->status, "failed") != 0)
        viva_html_append_escaped (out, _("not run"), -1);
      else if (r->verdict != NULL)
        viva_html_append_escaped (out, g_str_equal (r->verdict, "pass") ? _("pass") : _("fail"), -1);
      else
        viva_html_append_escaped (out, g_strcmp0 (r->status, "failed") == 0 ? _("failed") : _("no verdict"), -1);
      g_string_append (out, "</td><td>");
      if (r->score >= 0)
        g_string_append_printf (out, "%d", r->score);
      g_string_append_printf (out, "</td><td>%u</td><td>%u</td><td>%.1f</td><td>", r->turns, r->refused, r->seconds);
      if (r->injection_obeyed)
        {
          g_string_append (out, "<span class=\"bad\">");
          viva_html_append_escaped (out, _("obeyed the injection"), -1);
          g_string_append (out, "</span> ");
        }
      if (r->leaks > 0)
        {
          g_string_append (out, "<span class=\"bad\">");
          viva_html_append_escaped (out, _("leaked"), -1);
          g_string_append (out, "</span> ");
        }
      viva_html_append_escaped (out, r->error, -1);
      g_string_append (out, "</td></tr>\n");
    }

  g_string_append (out, "</tbody></table>\n</body></html>\n");

  return g_string_free (out, FALSE);
}

/* viva-exam-report-html.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-exam-report.h"
#include "viva-exam-report-private.h"
#include "viva-exam-tool.h"

/* The report as one self-contained HTML page: inline style, no scripts, no
 * network, and everything a student or a model wrote escaped as text. */

static void
append_escaped (GString    *html,
                const char *text)
{
  g_autofree char *escaped = g_markup_escape_text (text ? text : "", -1);

  g_string_append (html, escaped);
}

static void
append_json_pre (GString  *html,
                 JsonNode *node)
{
  g_autofree char *text = NULL;

  if (node == NULL)
    return;

  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    text = g_strdup (json_node_get_string (node));
  else
    text = json_to_string (node, TRUE);

  g_string_append (html, "<pre>");
  append_escaped (html, text);
  g_string_append (html, "</pre>\n");
}

static void
append_tool (GString    *html,
             JsonObject *entry)
{
  const char *name = _viva_report_get_string (entry, "name");
  JsonObject *probe = _viva_report_get_object (entry, "probe");
  JsonNode *arguments = json_object_get_member (entry, "arguments");
  JsonNode *result = json_object_get_member (entry, "result");
  const char *css = "tool";

  if (probe != NULL && json_object_has_member (probe, "passed"))
    css = json_object_get_boolean_member (probe, "passed") ? "tool passed" : "tool failed";

  g_string_append_printf (html, "<details class=\"%s\"><summary>", css);
  if (_viva_report_get_string (entry, "step") != NULL)
    {
      g_string_append (html, "<span class=\"step\">");
      append_escaped (html, _viva_report_get_string (entry, "step"));
      g_string_append (html, "</span> ");
    }
  append_escaped (html, viva_exam_tool_human_name (name));
  if (probe != NULL && json_object_has_member (probe, "passed"))
    {
      g_string_append (html, " — ");
      append_escaped (html, json_object_get_boolean_member (probe, "passed") ? _("passed") : _("failed"));
    }
  if (json_object_has_member (entry, "duration_ms"))
    g_string_append_printf (html, " <span class=\"muted\">(%.0f ms)</span>",
                            json_object_get_double_member (entry, "duration_ms"));
  g_string_append (html, "</summary>\n");

  if (g_strcmp0 (name, "askStudent") == 0 && arguments != NULL && JSON_NODE_HOLDS_OBJECT (arguments))
    {
      g_string_append (html, "<p class=\"question\">");
      append_escaped (html, _viva_report_get_string (json_node_get_object (arguments), "question"));
      g_string_append (html, "</p>\n");
      if (result != NULL && JSON_NODE_HOLDS_OBJECT (result) &&
          _viva_report_get_string (json_node_get_object (result), "answer") != NULL)
        {
          g_string_append (html, "<p class=\"answer\">");
          append_escaped (html, _viva_report_get_string (json_node_get_object (result), "answer"));
          g_string_append (html, "</p>\n");
        }
    }
  else
    {
      g_string_append_printf (html, "<h4>%s</h4>\n", _("Arguments"));
      append_json_pre (html, arguments);
      if (result != NULL)
        {
          g_string_append_printf (html, "<h4>%s</h4>\n", _("Result"));
          append_json_pre (html, result);
        }
    }

  g_string_append (html, "</details>\n");
}

/**
 * viva_exam_report_render_html:
 * @report: a report from viva_exam_report_build()
 *
 * Returns: (transfer full): a self-contained HTML page of the report
 */
char *
viva_exam_report_render_html (JsonNode *report)
{
  g_autoptr(GString) html = g_string_new (NULL);
  JsonObject *root, *problem, *verdict, *model, *integrity;
  JsonArray *transcript, *changes, *probes;
  const char *verdict_text;

  g_return_val_if_fail (report != NULL && JSON_NODE_HOLDS_OBJECT (report), NULL);

  root = json_node_get_object (report);
  problem = _viva_report_get_object (root, "problem");
  verdict = _viva_report_get_object (root, "verdict");
  model = _viva_report_get_object (root, "model");
  integrity = _viva_report_get_object (root, "integrity");
  transcript = _viva_report_get_array (root, "transcript");

  g_string_append (html, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n<title>");
  append_escaped (html, _viva_report_get_string (problem, "title"));
  g_string_append (html, " — Viva</title>\n<style>\n"
                   "body{font-family:Cantarell,'Noto Sans',sans-serif;max-width:60em;margin:2em auto;padding:0 1em;color:#241f31;line-height:1.45}\n"
                   "pre{background:#f6f5f4;padding:.6em;overflow-x:auto;white-space:pre-wrap}\n"
                   ".badge{display:inline-block;padding:.2em .7em;border-radius:1em;font-weight:bold}\n"
                   ".pass{background:#8ff0a4}.fail{background:#f66151;color:white}.none{background:#deddda}\n"
                   ".muted{color:#77767b}.step{font-family:monospace;color:#1c71d8}\n"
                   "details{border:1px solid #deddda;border-radius:6px;margin:.5em 0;padding:.3em .8em}\n"
                   "details.passed{border-left:4px solid #2ec27e}details.failed{border-left:4px solid #e01b24}\n"
                   ".examiner{background:#f6f5f4;border-radius:8px;padding:.5em .8em;white-space:pre-wrap}\n"
                   ".student,.answer{background:#dbe8fb;border-radius:8px;padding:.5em .8em;white-space:pre-wrap}\n"
                   ".question{font-weight:bold}.note{color:#77767b;font-style:italic}\n"
                   "table{border-collapse:collapse}td,th{border:1px solid #deddda;padding:.3em .6em;text-align:left}\n"
                   "</style></head><body>\n");

  g_string_append (html, "<h1>");
  append_escaped (html, _viva_report_get_string (problem, "title"));
  g_string_append (html, "</h1>\n");

  verdict_text = _viva_report_get_string (verdict, "verdict");
  g_string_append_printf (html, "<p><span class=\"badge %s\">",
                          g_strcmp0 (verdict_text, "pass") == 0 ? "pass" :
                          g_strcmp0 (verdict_text, "fail") == 0 ? "fail" : "none");
  if (g_strcmp0 (verdict_text, "pass") == 0)
    append_escaped (html, _("Passed"));
  else if (g_strcmp0 (verdict_text, "fail") == 0)
    append_escaped (html, _("Failed"));
  else
    append_escaped (html, _("No verdict"));
  g_string_append (html, "</span>");
  if (verdict != NULL && json_object_has_member (verdict, "score") &&
      json_object_get_double_member (verdict, "score") >= 0)
    {
      g_autofree char *score = g_strdup_printf (_("Score: %.0f/100"), json_object_get_double_member (verdict, "score"));
      g_string_append (html, " <strong>");
      append_escaped (html, score);
      g_string_append (html, "</strong>");
    }
  g_string_append (html, "</p>\n<table>\n");

#define ROW(label, value) G_STMT_START {                      \
    g_string_append (html, "<tr><th>");                       \
    append_escaped (html, label);                             \
    g_string_append (html, "</th><td>");                      \
    append_escaped (html, value);                             \
    g_string_append (html, "</td></tr>\n");                   \
  } G_STMT_END

  ROW (_("Pack"), _viva_report_get_string (problem, "pack_id"));
  ROW (_("Problem"), _viva_report_get_string (problem, "id"));
  ROW (_("Session"), _viva_report_get_string (root, "session"));
  ROW (_("Started"), _viva_report_get_string (root, "created"));
  ROW (_("Last step"), _viva_report_get_string (root, "updated"));
  ROW (_("State"), _viva_report_get_string (root, "state"));
  ROW (_("Examiner"), _viva_report_get_string (model, "name") ? _viva_report_get_string (model, "name") :
                      g_strcmp0 (_viva_report_get_string (model, "type"), "VivaScriptedModel") == 0 ? _("The offline examiner") :
                      _viva_report_get_string (model, "type"));
  if (_viva_report_get_string (model, "base_url") != NULL)
    ROW (_("Endpoint"), _viva_report_get_string (model, "base_url"));
#undef ROW
  g_string_append (html, "</table>\n");

  if (verdict != NULL)
    {
      g_string_append_printf (html, "<h2>%s</h2>\n", _("Verdict"));
      if (_viva_report_get_string (verdict, "comment") != NULL)
        {
          g_string_append (html, "<p>");
          append_escaped (html, _viva_report_get_string (verdict, "comment"));
          g_string_append (html, "</p>\n");
        }
      if (_viva_report_get_string (verdict, "reason") != NULL)
        {
          g_string_append (html, "<p class=\"muted\">");
          append_escaped (html, _viva_report_get_string (verdict, "reason"));
          g_string_append (html, "</p>\n");
        }

      if ((probes = _viva_report_get_array (verdict, "probes")) != NULL && json_array_get_length (probes) > 0)
        {
          g_string_append_printf (html, "<h3>%s</h3>\n<table><tr><th>%s</th><th>%s</th><th>%s</th></tr>\n",
                                  _("What the engine recorded"), _("Step"), _("Probe"), _("Outcome"));
          for (guint i = 0; i < json_array_get_length (probes); i++)
            {
              JsonObject *probe = json_array_get_object_element (probes, i);
              gboolean passed = json_object_has_member (probe, "passed") && json_object_get_boolean_member (probe, "passed");
              gboolean valid = !json_object_has_member (probe, "valid") || json_object_get_boolean_member (probe, "valid");

              g_string_append (html, "<tr><td class=\"step\">");
              append_escaped (html, _viva_report_get_string (probe, "step"));
              g_string_append (html, "</td><td><pre>");
              append_escaped (html, _viva_report_get_string (probe, "code"));
              g_string_append (html, "</pre></td><td>");
              append_escaped (html, !valid ? _("invalid test (fails on the reference too)") :
                                    passed ? _("passed") : _("failed"));
              if (_viva_report_get_string (probe, "error_type") != NULL)
                {
                  g_string_append (html, "<br><span class=\"muted\">");
                  append_escaped (html, _viva_report_get_string (probe, "error_type"));
                  g_string_append (html, ": ");
                  append_escaped (html, _viva_report_get_string (probe, "error_message"));
                  g_string_append (html, "</span>");
                }
              g_string_append (html, "</td></tr>\n");
            }
          g_string_append (html, "</table>\n");
        }
    }

  g_string_append_printf (html, "<h2>%s</h2>\n", _("Transcript"));
  for (guint i = 0; transcript != NULL && i < json_array_get_length (transcript); i++)
    {
      JsonObject *entry = json_array_get_object_element (transcript, i);
      const char *kind = _viva_report_get_string (entry, "kind");

      if (g_strcmp0 (kind, "tool") == 0)
        {
          append_tool (html, entry);
          continue;
        }

      g_string_append_printf (html, "<p class=\"%s\">",
                              g_strcmp0 (kind, "student") == 0 ? "student" :
                              g_strcmp0 (kind, "note") == 0 ? "note" : "examiner");
      append_escaped (html, _viva_report_get_string (entry, "text"));
      g_string_append (html, "</p>\n");
    }

  g_string_append_printf (html, "<h2>%s</h2>\n<pre>", _("Final code"));
  append_escaped (html, _viva_report_get_string (_viva_report_get_object (root, "code"), "text"));
  g_string_append (html, "</pre>\n");

  g_string_append_printf (html, "<h2>%s</h2>\n", _("Integrity"));
  changes = _viva_report_get_array (integrity, "code_changes");
  if (changes == NULL || json_array_get_length (changes) == 0)
    {
      g_string_append (html, "<p>");
      append_escaped (html, _("The code was not changed during the defense."));
      g_string_append (html, "</p>\n");
    }
  else
    {
      g_autofree char *count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                             "The code was changed %u time during the defense:",
                                                             "The code was changed %u times during the defense:",
                                                             json_array_get_length (changes)),
                                                json_array_get_length (changes));
      g_string_append (html, "<p>");
      append_escaped (html, count);
      g_string_append (html, "</p>\n<ul>\n");
      for (guint i = 0; i < json_array_get_length (changes); i++)
        {
          JsonObject *change = json_array_get_object_element (changes, i);

          g_string_append (html, "<li>");
          append_escaped (html, _viva_report_get_string (change, "time"));
          g_string_append (html, " <span class=\"muted\">sha256 ");
          append_escaped (html, _viva_report_get_string (change, "sha256"));
          g_string_append (html, "</span></li>\n");
        }
      g_string_append (html, "</ul>\n");
    }
  if (integrity != NULL && json_object_has_member (integrity, "hint_used") &&
      json_object_get_boolean_member (integrity, "hint_used"))
    {
      g_string_append (html, "<p>");
      append_escaped (html, _("The student looked at the problem’s hint."));
      g_string_append (html, "</p>\n");
    }

  g_string_append_printf (html, "<h2>%s</h2>\n<pre>", _("The problem"));
  append_escaped (html, _viva_report_get_string (problem, "description"));
  g_string_append (html, "</pre>\n</body></html>\n");

  return g_string_free (g_steal_pointer (&html), FALSE);
}

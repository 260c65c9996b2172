/* viva-exam-report-html.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-exam-report-private.h"
#include "viva-exam-report.h"
#include "viva-json-member.h"
#include "viva-report-score.h"
#include "viva-html.h"

/* The report as one self-contained HTML page a teacher reads: who defended
 * what at the top; the engine's facts beside the examiner's verdict, with
 * any contradiction said in words; the defense as it happened (Markdown
 * rendered, every answer in full under its question, code as code); the
 * integrity timeline; the final code; the problem. Inline style, no
 * scripts, no network, and everything a student or a model wrote escaped
 * (viva-report-markdown.c allows no raw HTML). */

static const char style[] =
  "body{font-family:Cantarell,'Noto Sans',sans-serif;max-width:62em;margin:2em auto;padding:0 1em;color:#241f31;line-height:1.45}\n"
  "header{border-bottom:2px solid #deddda;margin-bottom:1em}header h1{margin-bottom:.1em}.sub{color:#5e5c64;margin-top:0}\n"
  "pre{background:#f6f5f4;padding:.6em;overflow-x:auto;white-space:pre-wrap;border-radius:6px}\n"
  "pre.code{white-space:pre;counter-reset:none}pre.code .ln{display:inline-block;width:3em;margin-right:1em;text-align:right;color:#9a9996;user-select:none}\n"
  ".kw{color:#a51d2d;font-weight:bold}.bi{color:#1a5fb4}.str{color:#26a269}.com{color:#77767b;font-style:italic}.num{color:#c64600}\n"
  "pre.stderr{background:#fbe4e4}pre.stdout{background:#eef6ee}\n"
  ".badge{display:inline-block;padding:.2em .7em;border-radius:1em;font-weight:bold}\n"
  ".pass{background:#8ff0a4}.fail{background:#f66151;color:white}.none{background:#deddda}\n"
  ".outcome{display:grid;grid-template-columns:1fr 1fr;gap:1em}.outcome>div{border:1px solid #deddda;border-radius:8px;padding:.2em 1em 1em}\n"
  ".contradiction{background:#fdf0d5;border-left:4px solid #e5a50a;padding:.6em 1em;border-radius:4px;font-weight:bold}\n"
  ".muted{color:#77767b}.step{font-family:monospace;color:#1c71d8}.label{font-size:90%;color:#5e5c64;margin-top:.5em}\n"
  ".tool{border:1px solid #deddda;border-radius:8px;margin:.6em 0;padding:.4em .9em}.tool.passed{border-left:4px solid #2ec27e}.tool.failed{border-left:4px solid #e01b24}\n"
  ".tool.qa{border-left:4px solid #3584e4}.question{font-weight:bold}\n"
  ".examiner{background:#f6f5f4;border-radius:8px;padding:.1em .9em;margin:.6em 0}\n"
  ".student,.answer{background:#dbe8fb;border-radius:8px;padding:.5em .9em;white-space:pre-wrap;margin:.3em 0}\n"
  ".note{color:#77767b;font-style:italic}\n"
  "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #deddda;padding:.3em .6em;text-align:left;vertical-align:top}\n"
  "dl.fields{display:grid;grid-template-columns:max-content 1fr;gap:.2em 1em}dl.fields dd{margin:0}\n"
  "tr.warn td{background:#fdf0d5}\n"
  "@media print{details{display:block}.outcome{grid-template-columns:1fr}}\n";

/* A time as a teacher reads it: in their own zone, to the second. Read
 * leniently, as everything in a report: anything else is shown as it is. */
static char *
local_time (const char *iso)
{
  g_autoptr(GDateTime) utc = NULL;
  g_autoptr(GDateTime) local = NULL;

  if (iso == NULL)
    return NULL;

  if ((utc = g_date_time_new_from_iso8601 (iso, NULL)) == NULL ||
      (local = g_date_time_to_local (utc)) == NULL)
    return g_strdup (iso);

  return g_date_time_format (local, "%Y-%m-%d %H:%M:%S %Z");
}

static void
append_row (GString    *html,
            const char *label,
            const char *value)
{
  if (value == NULL || value[0] == '\0')
    return;

  g_string_append (html, "<tr><th>");
  viva_html_append_escaped (html, label, -1);
  g_string_append (html, "</th><td>");
  viva_html_append_escaped (html, value, -1);
  g_string_append (html, "</td></tr>\n");
}

static gboolean
get_count (JsonObject *object,
           const char *name,
           guint      *out)
{
  double value;

  if (!viva_json_member_number (object, name, &value))
    return FALSE;

  *out = (guint)MAX (0, value);
  return TRUE;
}

static void
append_header (GString    *html,
               JsonObject *root)
{
  JsonObject *student = viva_json_member_object (root, "student");
  JsonObject *problem = viva_json_member_object (root, "problem");
  JsonObject *model = viva_json_member_object (root, "model");
  JsonObject *exam = viva_json_member_object (root, "exam");
  const char *name = viva_json_member_string (student, "name");
  const char *id = viva_json_member_string (student, "id");
  const char *model_name = viva_json_member_string (model, "name");
  const char *base_url = viva_json_member_string (model, "base_url");
  g_autofree char *at = base_url != NULL ? g_strdup_printf (_("A model at %s"), base_url) : NULL;
  g_autofree char *started = local_time (viva_json_member_string (root, "created"));
  g_autofree char *updated = local_time (viva_json_member_string (root, "updated"));
  const char *exam_title = viva_json_member_string (exam, "title");
  /* A name recorded as "" (the server's first model, in an older Viva)
   * says nothing: the model's server instead. */
  const char *examiner;

  if (exam_title == NULL || exam_title[0] == '\0')
    exam_title = viva_json_member_string (exam, "id");
  if (exam != NULL && (exam_title == NULL || exam_title[0] == '\0'))
    exam_title = viva_json_member_string (exam, "path");

  examiner = model_name != NULL && model_name[0] != '\0' ? model_name :
                         g_strcmp0 (viva_json_member_string (model, "type"), "VivaScriptedModel") == 0 ? _("The offline examiner") :
                         at != NULL ? at : viva_json_member_string (model, "type");

  g_string_append (html, "<header>\n<h1>");
  if (name != NULL && name[0] != '\0')
    viva_html_append_escaped (html, name, -1);
  else
    viva_html_append_escaped (html, _("Unnamed student"), -1);
  if (id != NULL && id[0] != '\0')
    {
      g_string_append (html, " <span class=\"muted\">");
      viva_html_append_escaped (html, id, -1);
      g_string_append (html, "</span>");
    }
  g_string_append (html, "</h1>\n<p class=\"sub\">");
  viva_html_append_escaped (html, viva_json_member_string (problem, "title"), -1);
  g_string_append (html, "</p>\n</header>\n<table>\n");

  append_row (html, _("Student"), name);
  append_row (html, _("Student ID"), id);
  append_row (html, _("Pack"), viva_json_member_string (problem, "pack_id"));
  append_row (html, _("Problem"), viva_json_member_string (problem, "id"));
  /* The exam by its title: its path was a place on the lab's share. */
  append_row (html, _("Exam"), exam_title);
  append_row (html, _("Session"), viva_json_member_string (root, "session"));
  append_row (html, _("Started"), started);
  append_row (html, _("Last step"), updated);
  append_row (html, _("State"), viva_json_member_string (root, "state"));
  append_row (html, _("Examiner"), examiner);
  append_row (html, _("Endpoint"), viva_json_member_string (model, "base_url"));
  g_string_append (html, "</table>\n");
}

static const char *
test_status_words (const char *status,
                   gboolean    passed)
{
  if (g_strcmp0 (status, "failed") == 0 || (status == NULL && !passed))
    return _("failed");
  if (g_strcmp0 (status, "error") == 0)
    return _("raised an error");
  if (g_strcmp0 (status, "timeout") == 0)
    return _("ran out of time");
  if (g_strcmp0 (status, "not-plain-data") == 0)
    return _("returned something other than plain data");
  if (g_strcmp0 (status, "crashed") == 0)
    return _("crashed Python");
  if (g_strcmp0 (status, "too-large") == 0)
    return _("returned too much data");
  if (passed)
    return _("passed");
  return status;
}

static void
append_facts (GString    *html,
              JsonObject *root)
{
  JsonObject *grade = viva_json_member_object (root, "grade");
  JsonObject *verdict = viva_json_member_object (root, "verdict");
  JsonArray *tests = viva_json_member_array (grade, "tests");
  JsonArray *probes = viva_json_member_array (verdict, "probes");
  guint passed, total, out_of_process = 0;

  g_string_append_printf (html, "<div class=\"facts\"><h2>%s</h2>\n", _("What the engine found"));

  if (get_count (grade, "passed", &passed) && get_count (grade, "total", &total))
    {
      g_autofree char *line = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                            "%u of %u hidden test passed.",
                                                            "%u of %u hidden tests passed.", total),
                                               passed, total);
      g_string_append (html, "<p><strong>");
      viva_html_append_escaped (html, line, -1);
      g_string_append (html, "</strong>");
      if (get_count (grade, "out_of_process", &out_of_process))
        {
          g_autofree char *oop = g_strdup_printf (_("%u judged where no student code ran."), out_of_process);
          g_string_append (html, " <span class=\"muted\">");
          viva_html_append_escaped (html, oop, -1);
          g_string_append (html, "</span>");
        }
      g_string_append (html, "</p>\n");

      if (tests != NULL && json_array_get_length (tests) > 0)
        {
          g_string_append_printf (html, "<table><tr><th>%s</th><th>%s</th></tr>\n", _("Hidden test"), _("Outcome"));
          for (guint i = 0; i < json_array_get_length (tests); i++)
            {
              JsonNode *node = json_array_get_element (tests, i);
              JsonObject *test = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
              gboolean ok = test && json_object_get_boolean_member_with_default (test, "passed", FALSE);
              const char *message = viva_json_member_string (test, "message");

              g_string_append_printf (html, "<tr%s><td>", ok ? "" : " class=\"warn\"");
              viva_html_append_escaped (html, viva_json_member_string (test, "name"), -1);
              g_string_append (html, "</td><td>");
              viva_html_append_escaped (html, test_status_words (viva_json_member_string (test, "status"), ok), -1);
              if (!ok && message != NULL && message[0] != '\0')
                {
                  g_string_append (html, "<br><span class=\"muted\">");
                  viva_html_append_escaped (html, message, -1);
                  g_string_append (html, "</span>");
                }
              g_string_append (html, "</td></tr>\n");
            }
          g_string_append (html, "</table>\n");
        }
    }
  else if (probes != NULL && json_array_get_length (probes) > 0)
    {
      guint n_passed = 0, n_valid = 0;

      for (guint i = 0; i < json_array_get_length (probes); i++)
        {
          JsonObject *probe = json_array_get_object_element (probes, i);

          if (json_object_get_boolean_member_with_default (probe, "valid", TRUE))
            {
              n_valid++;
              n_passed += json_object_get_boolean_member_with_default (probe, "passed", FALSE);
            }
        }

      {
        g_autofree char *line = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                              "%u of %u test the examiner ran passed.",
                                                              "%u of %u tests the examiner ran passed.", n_valid),
                                                 n_passed, n_valid);
        g_string_append (html, "<p><strong>");
        viva_html_append_escaped (html, line, -1);
        g_string_append (html, "</strong> <span class=\"muted\">");
        viva_html_append_escaped (html, _("This report has no grade of the hidden tests; re-grade it with viva-cli class collect --regrade."), -1);
        g_string_append (html, "</span></p>\n");
      }
    }
  else
    {
      g_string_append (html, "<p class=\"muted\">");
      viva_html_append_escaped (html, _("No hidden tests were run."), -1);
      g_string_append (html, "</p>\n");
    }

  g_string_append (html, "</div>\n");
}

static void
append_verdict (GString    *html,
                JsonObject *root)
{
  JsonObject *verdict = viva_json_member_object (root, "verdict");
  const char *text = viva_json_member_string (verdict, "verdict");
  VivaReportScoreRecords records;
  VivaReportScore score = { -1, 0, 0 };

  g_string_append_printf (html, "<div class=\"verdict\"><h2>%s</h2>\n<p><span class=\"badge %s\">",
                          _("The examiner’s verdict"),
                          g_strcmp0 (text, "pass") == 0 ? "pass" : g_strcmp0 (text, "fail") == 0 ? "fail" : "none");
  viva_html_append_escaped (html, g_strcmp0 (text, "pass") == 0 ? _("Passed") : g_strcmp0 (text, "fail") == 0 ? _("Failed") : _("No verdict"), -1);
  g_string_append (html, "</span>");
  if (verdict != NULL && json_object_has_member (verdict, "score") &&
      JSON_NODE_HOLDS_VALUE (json_object_get_member (verdict, "score")) &&
      json_object_get_double_member (verdict, "score") >= 0)
    {
      g_autofree char *line = NULL;

      /* With a hint cost, the figure in bold is the one to grade by, and
       * the line below says how it was made; read from the records, so
       * the page says what the report's own figures come to. */
      viva_report_score_read_records (root, &records);
      score.examiner = json_object_get_double_member (verdict, "score");
      score.hints = records.hints;
      score.hint_cost = records.hint_cost;
      line = g_strdup_printf (_("Score: %.0f/100"), viva_report_score_final (&score));
      g_string_append (html, " <strong>");
      viva_html_append_escaped (html, line, -1);
      g_string_append (html, "</strong>");
    }
  g_string_append (html, "</p>\n");
  /* "− 0 hints" would only be noise. */
  if (viva_report_score_has_cost (&score) && score.hints > 0)
    {
      g_autofree char *how = viva_report_score_describe (&score);
      g_autofree char *line = g_strdup_printf (_("The examiner’s score less what the hints viewed cost: %s"), how);

      g_string_append (html, "<p class=\"muted\">");
      viva_html_append_escaped (html, line, -1);
      g_string_append (html, "</p>\n");
    }
  if (viva_json_member_string (verdict, "comment") != NULL)
    _viva_report_append_markdown (html, viva_json_member_string (verdict, "comment"));
  if (viva_json_member_string (verdict, "reason") != NULL)
    {
      g_string_append (html, "<p class=\"muted\">");
      viva_html_append_escaped (html, viva_json_member_string (verdict, "reason"), -1);
      g_string_append (html, "</p>\n");
    }
  g_string_append (html, "</div>\n");
}

/* The contradiction between the verdict and the facts, in words. */
static void
append_contradiction (GString    *html,
                      JsonObject *root)
{
  JsonObject *grade = viva_json_member_object (root, "grade");
  JsonObject *verdict = viva_json_member_object (root, "verdict");
  JsonObject *hidden = viva_json_member_object (verdict, "hidden_tests");
  const char *text = viva_json_member_string (verdict, "verdict");
  g_autofree char *words = NULL;
  guint passed, total;
  gboolean have = (get_count (grade, "passed", &passed) && get_count (grade, "total", &total)) ||
                  (get_count (hidden, "passed", &passed) && get_count (hidden, "total", &total));

  if (have && total > 0 && passed < total && g_strcmp0 (text, "pass") == 0)
    words = g_strdup_printf (_("The examiner passed this defense, but only %u of %u hidden tests passed."), passed, total);
  else if (have && total > 0 && passed == total && g_strcmp0 (text, "fail") == 0)
    words = g_strdup_printf (_("Every hidden test passed (%u of %u), but the examiner failed the defense: read the answers for why."), passed, total);
  else if (verdict != NULL && !json_object_get_boolean_member_with_default (verdict, "consistent", TRUE))
    words = g_strdup (_("The examiner’s verdict disagrees with the engine’s facts."));

  if (words == NULL)
    return;

  g_string_append (html, "<p class=\"contradiction\">");
  viva_html_append_escaped (html, words, -1);
  g_string_append (html, "</p>\n");
}

static const char *
timeline_words (const char *kind)
{
  if (g_strcmp0 (kind, "run") == 0)
    return _("Ran the code");
  if (g_strcmp0 (kind, "submit") == 0)
    return _("Submitted for defense");
  if (g_strcmp0 (kind, "paste") == 0)
    return _("Pasted text");
  if (g_strcmp0 (kind, "hint") == 0)
    return _("Looked at the hint");
  if (g_strcmp0 (kind, "check") == 0)
    return _("Checked against the shown tests");
  if (g_strcmp0 (kind, "explain") == 0)
    return _("Asked Viva to explain");
  if (g_strcmp0 (kind, "focus-lost") == 0)
    return _("Left the Viva window");
  if (g_strcmp0 (kind, "focus-back") == 0)
    return _("Came back to the Viva window");
  return kind;
}

static void
append_timeline (GString    *html,
                 JsonObject *root)
{
  JsonArray *timeline = viva_json_member_array (root, "timeline");
  JsonObject *integrity = viva_json_member_object (root, "integrity");
  JsonArray *changes = viva_json_member_array (integrity, "code_changes");
  g_autofree char *when = NULL;

  g_string_append_printf (html, "<h2>%s</h2>\n", _("Integrity timeline"));

  if (timeline != NULL && json_array_get_length (timeline) > 0)
    {
      g_string_append_printf (html, "<table><tr><th>%s</th><th>%s</th><th>%s</th></tr>\n",
                              _("Time"), _("What happened"), _("Details"));
      for (guint i = 0; i < json_array_get_length (timeline); i++)
        {
          JsonNode *node = json_array_get_element (timeline, i);
          JsonObject *event = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
          const char *kind = viva_json_member_string (event, "kind");
          g_autoptr(GString) details = g_string_new (NULL);
          JsonObjectIter iter;
          const char *name;
          JsonNode *value;

          if (event == NULL)
            continue;

          json_object_iter_init (&iter, event);
          while (json_object_iter_next (&iter, &name, &value))
            {
              g_autofree char *text = NULL;

              if (g_str_equal (name, "time") || g_str_equal (name, "kind") || !JSON_NODE_HOLDS_VALUE (value))
                continue;
              text = json_node_get_value_type (value) == G_TYPE_STRING ? g_strdup (json_node_get_string (value))
                                                                      : json_to_string (value, FALSE);
              g_string_append_printf (details, "%s%s: %s", details->len ? ", " : "", name, text);
            }

          g_string_append_printf (html, "<tr%s><td>", g_strcmp0 (kind, "paste") == 0 || g_strcmp0 (kind, "focus-lost") == 0 ? " class=\"warn\"" : "");
          g_clear_pointer (&when, g_free);
          when = local_time (viva_json_member_string (event, "time"));
          viva_html_append_escaped (html, when, -1);
          g_string_append (html, "</td><td>");
          viva_html_append_escaped (html, timeline_words (kind), -1);
          g_string_append (html, "</td><td class=\"muted\">");
          viva_html_append_escaped (html, details->str, -1);
          g_string_append (html, "</td></tr>\n");
        }
      g_string_append (html, "</table>\n");
    }
  else
    {
      g_string_append (html, "<p class=\"muted\">");
      viva_html_append_escaped (html, _("This session recorded no timeline."), -1);
      g_string_append (html, "</p>\n");
    }

  if (changes != NULL && json_array_get_length (changes) > 0)
    {
      g_autofree char *count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                             "The code was changed %u time during the defense:",
                                                             "The code was changed %u times during the defense:",
                                                             json_array_get_length (changes)),
                                                json_array_get_length (changes));
      g_string_append (html, "<p>");
      viva_html_append_escaped (html, count, -1);
      g_string_append (html, "</p>\n<ul>\n");
      for (guint i = 0; i < json_array_get_length (changes); i++)
        {
          JsonObject *change = json_array_get_object_element (changes, i);

          g_autofree char *changed_at = local_time (viva_json_member_string (change, "time"));

          g_string_append (html, "<li>");
          viva_html_append_escaped (html, changed_at, -1);
          g_string_append (html, " <span class=\"muted\">sha256 ");
          viva_html_append_escaped (html, viva_json_member_string (change, "sha256"), -1);
          g_string_append (html, "</span></li>\n");
        }
      g_string_append (html, "</ul>\n");
    }
  else
    {
      g_string_append (html, "<p>");
      viva_html_append_escaped (html, _("The code was not changed during the defense."), -1);
      g_string_append (html, "</p>\n");
    }

  if (integrity != NULL && json_object_get_boolean_member_with_default (integrity, "hint_used", FALSE))
    {
      g_string_append (html, "<p>");
      viva_html_append_escaped (html, _("The student looked at the problem’s hint."), -1);
      g_string_append (html, "</p>\n");
    }
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
  g_autoptr(GString) notes = g_string_new (NULL);
  guint n_notes = 0;
  JsonObject *root, *problem, *student;
  JsonArray *transcript;

  g_return_val_if_fail (report != NULL && JSON_NODE_HOLDS_OBJECT (report), NULL);

  root = json_node_get_object (report);
  problem = viva_json_member_object (root, "problem");
  student = viva_json_member_object (root, "student");
  transcript = viva_json_member_array (root, "transcript");

  g_string_append (html, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n"
                   "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n<title>");
  if (viva_json_member_string (student, "name") != NULL)
    {
      viva_html_append_escaped (html, viva_json_member_string (student, "name"), -1);
      g_string_append (html, " — ");
    }
  viva_html_append_escaped (html, viva_json_member_string (problem, "title"), -1);
  g_string_append (html, " — Viva</title>\n<style>\n");
  g_string_append (html, style);
  g_string_append (html, "</style></head><body>\n");

  append_header (html, root);

  g_string_append (html, "<section class=\"outcome\">\n");
  append_facts (html, root);
  append_verdict (html, root);
  _viva_report_append_items (html, root);
  g_string_append (html, "</section>\n");
  append_contradiction (html, root);

  g_string_append_printf (html, "<h2>%s</h2>\n", _("The defense"));
  for (guint i = 0; transcript != NULL && i < json_array_get_length (transcript); i++)
    {
      JsonNode *node = json_array_get_element (transcript, i);
      JsonObject *entry = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      const char *kind = viva_json_member_string (entry, "kind");

      if (g_strcmp0 (kind, "tool") == 0)
        _viva_report_append_tool (html, entry);
      else if (g_strcmp0 (kind, "examiner") == 0)
        {
          g_string_append (html, "<div class=\"examiner\">");
          _viva_report_append_markdown (html, viva_json_member_string (entry, "text"));
          g_string_append (html, "</div>\n");
        }
      else if (g_strcmp0 (kind, "note") == 0)
        {
          /* The engine's words to the model (the code as submitted, its
           * reminders) are not the defense a teacher reads: kept apart. */
          g_string_append (notes, "<div class=\"note\">");
          viva_html_append_escaped (notes, viva_json_member_string (entry, "text"), -1);
          g_string_append (notes, "</div>\n");
          n_notes++;
        }
      else if (entry != NULL)
        {
          g_string_append (html, "<div class=\"student\">");
          viva_html_append_escaped (html, viva_json_member_string (entry, "text"), -1);
          g_string_append (html, "</div>\n");
        }
    }

  if (n_notes > 0)
    {
      g_autofree char *summary = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                               "What Viva told the examiner (%u message)",
                                                               "What Viva told the examiner (%u messages)",
                                                               n_notes),
                                                  n_notes);

      g_string_append (html, "<details id=\"engine-notes\"><summary>");
      viva_html_append_escaped (html, summary, -1);
      g_string_append (html, "</summary>\n");
      g_string_append (html, notes->str);
      g_string_append (html, "</details>\n");
    }

  append_timeline (html, root);

  g_string_append_printf (html, "<h2>%s</h2>\n", _("Final code"));
  _viva_report_append_code (html, viva_json_member_string (viva_json_member_object (root, "code"), "text"), NULL);

  g_string_append_printf (html, "<h2>%s</h2>\n", _("The problem"));
  _viva_report_append_markdown (html, viva_json_member_string (problem, "description"));
  g_string_append (html, "</body></html>\n");

  return g_string_free (g_steal_pointer (&html), FALSE);
}

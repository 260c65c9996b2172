/* viva-report-tools.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-exam-report-private.h"
#include "viva-exam-tool.h"
#include "viva-html.h"

/* Each examiner step of a report's transcript as a block a teacher reads:
 * a question with the student's whole answer under it, code as numbered
 * code, a run's output as output, a hidden test with its outcome, the
 * verdict as the examiner gave it. Never JSON: a step of a kind this file
 * does not know is shown as its named fields. */

static void
append_output (GString    *html,
               const char *label,
               const char *text,
               const char *css)
{
  if (text == NULL || text[0] == '\0')
    return;

  g_string_append_printf (html, "<div class=\"label\">%s</div><pre class=\"%s\">", label, css);
  viva_html_append_escaped (html, text, -1);
  g_string_append (html, "</pre>\n");
}

static void
append_value (GString  *html,
              JsonNode *node);

/* A field list for what has no better view: names as labels, strings as
 * text, code-like strings as preformatted text, lists and objects nested. */
static void
append_fields (GString    *html,
               JsonObject *object)
{
  JsonObjectIter iter;
  const char *name;
  JsonNode *value;

  g_string_append (html, "<dl class=\"fields\">");
  json_object_iter_init (&iter, object);
  while (json_object_iter_next (&iter, &name, &value))
    {
      if (g_str_equal (name, "step"))
        continue;
      g_string_append (html, "<dt>");
      viva_html_append_escaped (html, name, -1);
      g_string_append (html, "</dt><dd>");
      append_value (html, value);
      g_string_append (html, "</dd>");
    }
  g_string_append (html, "</dl>\n");
}

static void
append_value (GString  *html,
              JsonNode *node)
{
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    {
      g_string_append (html, "—");
    }
  else if (JSON_NODE_HOLDS_OBJECT (node))
    {
      append_fields (html, json_node_get_object (node));
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      g_string_append (html, "<ul class=\"values\">");
      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          g_string_append (html, "<li>");
          append_value (html, json_array_get_element (array, i));
          g_string_append (html, "</li>");
        }
      g_string_append (html, "</ul>");
    }
  else if (json_node_get_value_type (node) == G_TYPE_STRING)
    {
      const char *text = json_node_get_string (node);

      g_string_append (html, strchr (text, '\n') ? "<pre>" : "<span>");
      viva_html_append_escaped (html, text, -1);
      g_string_append (html, strchr (text, '\n') ? "</pre>" : "</span>");
    }
  else if (json_node_get_value_type (node) == G_TYPE_BOOLEAN)
    {
      viva_html_append_escaped (html, json_node_get_boolean (node) ? _("yes") : _("no"), -1);
    }
  else
    {
      g_autofree char *text = json_to_string (node, FALSE);
      viva_html_append_escaped (html, text, -1);
    }
}

static void
open_block (GString    *html,
            JsonObject *entry,
            const char *css,
            const char *title,
            const char *outcome)
{
  g_string_append_printf (html, "<div class=\"tool %s\"><div class=\"tool-head\">", css);
  if (viva_json_member_string (entry, "step") != NULL)
    {
      g_string_append (html, "<span class=\"step\">");
      viva_html_append_escaped (html, viva_json_member_string (entry, "step"), -1);
      g_string_append (html, "</span> ");
    }
  g_string_append (html, "<strong>");
  viva_html_append_escaped (html, title, -1);
  g_string_append (html, "</strong>");
  if (outcome != NULL)
    {
      g_string_append (html, " — ");
      viva_html_append_escaped (html, outcome, -1);
    }
  if (json_object_has_member (entry, "duration_ms"))
    g_string_append_printf (html, " <span class=\"muted\">(%.0f ms)</span>",
                            json_object_get_double_member (entry, "duration_ms"));
  g_string_append (html, "</div>\n");
}

static const char *
run_status_words (const char *status)
{
  if (g_strcmp0 (status, "ok") == 0)
    return _("ran to the end");
  if (g_strcmp0 (status, "error") == 0)
    return _("stopped with an error");
  if (g_strcmp0 (status, "timeout") == 0)
    return _("ran out of time");
  if (g_strcmp0 (status, "killed") == 0)
    return _("did not stop and was killed");
  if (g_strcmp0 (status, "crashed") == 0)
    return _("crashed Python");
  return status;
}

static void
append_error (GString    *html,
              JsonObject *result)
{
  const char *traceback = viva_json_member_string (result, "traceback");
  JsonObject *error = viva_json_member_object (result, "error");

  if (traceback != NULL && traceback[0] != '\0')
    append_output (html, _("Error"), traceback, "stderr");
  else if (error != NULL)
    {
      g_autofree char *line = g_strdup_printf ("%s: %s",
                                               viva_json_member_string (error, "type") ? viva_json_member_string (error, "type") : "",
                                               viva_json_member_string (error, "message") ? viva_json_member_string (error, "message") : "");
      append_output (html, _("Error"), line, "stderr");
    }
  else if (viva_json_member_string (result, "summary") != NULL)
    append_output (html, _("Error"), viva_json_member_string (result, "summary"), "stderr");
}

static void
append_ask (GString                 *html,
            const VivaExamToolFacts *facts,
            JsonObject              *entry,
            JsonObject              *arguments,
            JsonObject              *result)
{
  const char *answer = viva_json_member_string (result, "answer");

  open_block (html, entry, "qa", _("Question"), NULL);
  g_string_append (html, "<div class=\"question\">");
  _viva_report_append_markdown (html, facts->shown_argument ? viva_json_member_string (arguments, facts->shown_argument) : NULL);
  g_string_append_printf (html, "</div>\n<div class=\"label\">%s</div><div class=\"answer\">", _("The student’s answer"));
  if (answer != NULL)
    viva_html_append_escaped (html, answer, -1);
  else
    g_string_append_printf (html, "<span class=\"muted\">%s</span>", _("No answer was given."));
  g_string_append (html, "</div>\n</div>\n");
}

static void
append_run (GString                 *html,
            const VivaExamToolFacts *facts,
            JsonObject              *entry,
            JsonObject              *arguments,
            JsonObject              *result)
{
  const char *status = viva_json_member_string (result, "status");

  open_block (html, entry, g_strcmp0 (status, "ok") == 0 ? "passed" : status ? "failed" : "",
              viva_exam_tool_facts_get_title (facts), status ? run_status_words (status) : NULL);
  g_string_append_printf (html, "<details><summary>%s</summary>\n", _("The code it ran"));
  _viva_report_append_code (html, viva_json_member_string (arguments, "code"), NULL);
  g_string_append (html, "</details>\n");
  append_output (html, _("Output"), viva_json_member_string (result, "stdout"), "stdout");
  append_output (html, _("Errors"), viva_json_member_string (result, "stderr"), "stderr");
  append_error (html, result);
  g_string_append (html, "</div>\n");
}

static void
append_probe (GString                 *html,
              const VivaExamToolFacts *facts,
              JsonObject              *entry,
              JsonObject              *arguments,
              JsonObject              *result)
{
  JsonObject *probe = viva_json_member_object (entry, "probe");
  gboolean has_passed = probe != NULL && json_object_has_member (probe, "passed");
  gboolean passed = has_passed && json_object_get_boolean_member (probe, "passed");
  gboolean valid = probe == NULL || !json_object_has_member (probe, "valid") || json_object_get_boolean_member (probe, "valid");
  const char *outcome = !has_passed ? NULL : !valid ? _("invalid test (fails on the reference too)") :
                        passed ? _("passed") : _("failed");

  open_block (html, entry, !has_passed ? "" : passed ? "passed" : "failed",
              viva_exam_tool_facts_get_title (facts), outcome);
  _viva_report_append_code (html, viva_json_member_string (arguments, "code"), NULL);
  append_output (html, _("Output"), viva_json_member_string (result, "stdout"), "stdout");
  if (!passed)
    append_error (html, result);
  g_string_append (html, "</div>\n");
}

static void
append_finish (GString                 *html,
               const VivaExamToolFacts *facts,
               JsonObject              *entry,
               JsonObject              *arguments)
{
  const char *verdict = viva_json_member_string (arguments, "verdict");
  g_autofree char *outcome = NULL;
  double score = -1;

  if (arguments != NULL && json_object_has_member (arguments, "score"))
    score = json_object_get_double_member (arguments, "score");
  outcome = score >= 0
    ? g_strdup_printf (_("%s, %.0f/100"), g_strcmp0 (verdict, "pass") == 0 ? _("pass") : _("fail"), score)
    : g_strdup (g_strcmp0 (verdict, "pass") == 0 ? _("pass") : _("fail"));

  open_block (html, entry, g_strcmp0 (verdict, "pass") == 0 ? "passed" : "failed",
              viva_exam_tool_facts_get_title (facts), outcome);
  _viva_report_append_markdown (html, facts->shown_argument ? viva_json_member_string (arguments, facts->shown_argument) : NULL);
  g_string_append (html, "</div>\n");
}

/**
 * _viva_report_append_tool:
 * @entry: a `tool` entry of the report's transcript
 *
 * Appends the step as a readable block.
 */
void
_viva_report_append_tool (GString    *html,
                          JsonObject *entry)
{
  const char *name = viva_json_member_string (entry, "name");
  const VivaExamToolFacts *facts = viva_exam_tool_facts_lookup (name);
  JsonNode *arguments_node = json_object_get_member (entry, "arguments");
  JsonNode *result_node = json_object_get_member (entry, "result");
  JsonObject *arguments = arguments_node && JSON_NODE_HOLDS_OBJECT (arguments_node) ? json_node_get_object (arguments_node) : NULL;
  JsonObject *result = result_node && JSON_NODE_HOLDS_OBJECT (result_node) ? json_node_get_object (result_node) : NULL;

  /* How a step reads depends on what the tool is, as it says itself. */
  if (facts != NULL && facts->kind == VIVA_EXAM_TOOL_KIND_WAITS)
    return append_ask (html, facts, entry, arguments, result);
  if (facts != NULL && facts->kind == VIVA_EXAM_TOOL_KIND_FINISHES)
    return append_finish (html, facts, entry, arguments);
  if (facts != NULL && facts->step == VIVA_EXAM_PROTOCOL_RUN)
    return append_run (html, facts, entry, arguments, result);
  if (facts != NULL && facts->step == VIVA_EXAM_PROTOCOL_PROBE)
    return append_probe (html, facts, entry, arguments, result);

  if (facts != NULL && facts->step == VIVA_EXAM_PROTOCOL_READ)
    {
      g_autofree char *lines = NULL;

      if (result != NULL && json_object_has_member (result, "lines"))
        lines = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u line", "%u lines",
                                              (guint)json_object_get_int_member (result, "lines")),
                                 (guint)json_object_get_int_member (result, "lines"));
      open_block (html, entry, "", viva_exam_tool_facts_get_title (facts), lines);
      g_string_append (html, "</div>\n");
      return;
    }

  open_block (html, entry, "", facts ? viva_exam_tool_facts_get_title (facts) : name, NULL);
  if (arguments != NULL && json_object_get_size (arguments) > 0)
    append_fields (html, arguments);
  if (result_node != NULL)
    {
      g_string_append_printf (html, "<div class=\"label\">%s</div>", _("Result"));
      append_value (html, result_node);
    }
  g_string_append (html, "</div>\n");
}

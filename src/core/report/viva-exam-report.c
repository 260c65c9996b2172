/* viva-exam-report.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-exam-report.h"
#include "viva-exam-session.h"

/* A defense as a teacher collects it: the problem, the final code, the
 * transcript with each tool call and its result, the verdict beside the
 * facts the engine recorded, and the code changes made during the defense.
 * Built from the checkpoint and the trace alone, so a report can be made
 * for any session on disk, finished or not. The HTML is self-contained:
 * one file, no scripts, no network. */

#define REMINDER_PREFIX "Reminder from the exam system"

static const char *
get_string (JsonObject *object,
            const char *name)
{
  JsonNode *node;

  if (object == NULL || !(node = json_object_get_member (object, name)))
    return NULL;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;

  return json_node_get_string (node);
}

static JsonObject *
get_object (JsonObject *object,
            const char *name)
{
  JsonNode *node;

  if (object == NULL || !(node = json_object_get_member (object, name)) || !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;

  return json_node_get_object (node);
}

static JsonArray *
get_array (JsonObject *object,
           const char *name)
{
  JsonNode *node;

  if (object == NULL || !(node = json_object_get_member (object, name)) || !JSON_NODE_HOLDS_ARRAY (node))
    return NULL;

  return json_node_get_array (node);
}

/* Tool arguments and results travel as JSON text; parsed they read better
 * in a report, and text that is not JSON is kept as it came. */
static JsonNode *
parse_or_string (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();

  if (text != NULL && json_parser_load_from_data (parser, text, -1, NULL) &&
      json_parser_get_root (parser) != NULL)
    return json_node_copy (json_parser_get_root (parser));

  return json_node_init_string (json_node_alloc (), text ? text : "");
}

static JsonObject *
find_step (JsonArray  *steps,
           const char *id)
{
  for (guint i = 0; steps != NULL && id != NULL && i < json_array_get_length (steps); i++)
    {
      JsonObject *step = json_array_get_object_element (steps, i);

      if (g_strcmp0 (get_string (step, "id"), id) == 0)
        return step;
    }

  return NULL;
}

static void
add_entry (JsonArray  *transcript,
           const char *kind,
           const char *text)
{
  JsonObject *entry = json_object_new ();

  json_object_set_string_member (entry, "kind", kind);
  json_object_set_string_member (entry, "text", text);
  json_array_add_object_element (transcript, entry);
}

static JsonArray *
build_transcript (JsonArray *messages,
                  JsonArray *steps)
{
  JsonArray *transcript = json_array_new ();
  g_autoptr(GHashTable) calls = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; messages != NULL && i < json_array_get_length (messages); i++)
    {
      JsonObject *message = json_array_get_object_element (messages, i);
      const char *role = get_string (message, "role");
      const char *content = get_string (message, "content");

      if (g_strcmp0 (role, "assistant") == 0)
        {
          JsonArray *tool_calls = get_array (message, "tool_calls");

          if (content != NULL && content[0] != '\0')
            add_entry (transcript, "examiner", content);

          for (guint j = 0; tool_calls != NULL && j < json_array_get_length (tool_calls); j++)
            {
              JsonObject *call = json_array_get_object_element (tool_calls, j);
              JsonObject *function = get_object (call, "function");
              JsonObject *entry = json_object_new ();
              const char *name = get_string (function, "name");

              json_object_set_string_member (entry, "kind", "tool");
              json_object_set_string_member (entry, "name", name ? name : "");
              json_object_set_member (entry, "arguments", parse_or_string (get_string (function, "arguments")));
              json_array_add_object_element (transcript, entry);
              if (get_string (call, "id") != NULL)
                g_hash_table_insert (calls, (gpointer)get_string (call, "id"), entry);
            }
        }
      else if (g_strcmp0 (role, "tool") == 0)
        {
          JsonObject *entry = g_hash_table_lookup (calls, get_string (message, "tool_call_id"));
          JsonNode *result = parse_or_string (content);
          JsonObject *step;

          if (entry == NULL)
            {
              json_node_unref (result);
              continue;
            }

          if (JSON_NODE_HOLDS_OBJECT (result) &&
              (step = find_step (steps, get_string (json_node_get_object (result), "step"))))
            {
              json_object_set_string_member (entry, "step", get_string (step, "id"));
              if (json_object_has_member (step, "ok"))
                json_object_set_boolean_member (entry, "ok", json_object_get_boolean_member (step, "ok"));
              if (json_object_has_member (step, "duration_ms"))
                json_object_set_double_member (entry, "duration_ms", json_object_get_double_member (step, "duration_ms"));
              if (get_object (step, "probe") != NULL)
                json_object_set_object_member (entry, "probe", json_object_ref (get_object (step, "probe")));
            }

          json_object_set_member (entry, "result", result);
        }
      else if (g_strcmp0 (role, "user") == 0 && content != NULL)
        {
          add_entry (transcript, g_str_has_prefix (content, REMINDER_PREFIX) ? "note" : "student", content);
        }
    }

  return transcript;
}

static JsonObject *
build_integrity (const char *trace,
                 gssize      trace_length)
{
  JsonObject *integrity = json_object_new ();
  JsonArray *changes = json_array_new ();
  g_auto(GStrv) lines = NULL;
  g_autofree char *copy = NULL;
  guint hints = 0;

  if (trace != NULL)
    {
      copy = trace_length < 0 ? g_strdup (trace) : g_strndup (trace, trace_length);
      lines = g_strsplit (copy, "\n", -1);
    }

  for (guint i = 0; lines != NULL && lines[i] != NULL; i++)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      JsonObject *event;

      /* The last line of a trace cut by a crash may be partial: skip it. */
      if (lines[i][0] == '\0' || !json_parser_load_from_data (parser, lines[i], -1, NULL) ||
          !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
        continue;

      event = json_node_get_object (json_parser_get_root (parser));

      if (g_strcmp0 (get_string (event, "event"), "code") == 0 &&
          json_object_has_member (event, "edited") &&
          json_object_get_boolean_member (event, "edited"))
        {
          JsonObject *change = json_object_new ();

          json_object_set_string_member (change, "time", get_string (event, "time") ? get_string (event, "time") : "");
          json_object_set_string_member (change, "sha256", get_string (event, "sha256") ? get_string (event, "sha256") : "");
          if (json_object_has_member (event, "length"))
            json_object_set_int_member (change, "length", json_object_get_int_member (event, "length"));
          json_array_add_object_element (changes, change);
        }
      else if (g_strcmp0 (get_string (event, "event"), "hint") == 0)
        {
          hints++;
        }
    }

  json_object_set_int_member (integrity, "code_changes_during_defense", json_array_get_length (changes));
  json_object_set_array_member (integrity, "code_changes", changes);
  json_object_set_boolean_member (integrity, "hint_used", hints > 0);

  return integrity;
}

/**
 * viva_exam_report_build:
 * @checkpoint: a session's checkpoint, as viva_exam_checkpoint_parse() gives
 * @trace: (nullable): the session's `trace.jsonl`
 * @trace_length: its length, or -1 when nul-terminated
 *
 * Returns: (transfer full): the report as JSON, format
 *   %VIVA_EXAM_REPORT_FORMAT
 */
JsonNode *
viva_exam_report_build (JsonNode   *checkpoint,
                        const char *trace,
                        gssize      trace_length)
{
  g_autoptr(JsonObject) report = json_object_new ();
  JsonObject *root, *pack, *problem = NULL, *out_problem, *code, *verdict;
  JsonArray *problems, *messages, *steps;
  const char *problem_id;

  g_return_val_if_fail (checkpoint != NULL && JSON_NODE_HOLDS_OBJECT (checkpoint), NULL);

  root = json_node_get_object (checkpoint);
  problem_id = get_string (root, "problem_id");
  pack = get_object (root, "pack");
  problems = get_array (pack, "problems");
  for (guint i = 0; problems != NULL && i < json_array_get_length (problems); i++)
    {
      JsonObject *candidate = json_array_get_object_element (problems, i);

      if (g_strcmp0 (get_string (candidate, "id"), problem_id) == 0)
        problem = candidate;
    }

  json_object_set_string_member (report, "format", VIVA_EXAM_REPORT_FORMAT);
  json_object_set_string_member (report, "session", get_string (root, "session") ? get_string (root, "session") : "");
  json_object_set_string_member (report, "created", get_string (root, "created") ? get_string (root, "created") : "");
  json_object_set_string_member (report, "updated", get_string (root, "updated") ? get_string (root, "updated") : "");
  json_object_set_string_member (report, "state", get_string (root, "state") ? get_string (root, "state") : "");
  if (get_string (root, "language") != NULL)
    json_object_set_string_member (report, "language", get_string (root, "language"));

  out_problem = json_object_new ();
  json_object_set_string_member (out_problem, "pack_id", get_string (root, "pack_id") ? get_string (root, "pack_id") : "");
  json_object_set_string_member (out_problem, "id", problem_id ? problem_id : "");
  json_object_set_string_member (out_problem, "title",
                                 get_string (problem, "title") ? get_string (problem, "title") : (problem_id ? problem_id : ""));
  json_object_set_string_member (out_problem, "description",
                                 get_string (problem, "description") ? get_string (problem, "description") : "");
  if (get_string (root, "problem_sha256") != NULL)
    json_object_set_string_member (out_problem, "sha256", get_string (root, "problem_sha256"));
  json_object_set_object_member (report, "problem", out_problem);

  if (get_object (root, "model") != NULL)
    json_object_set_object_member (report, "model", json_object_ref (get_object (root, "model")));

  code = json_object_new ();
  json_object_set_string_member (code, "text", get_string (get_object (root, "code"), "text") ?
                                                 get_string (get_object (root, "code"), "text") : "");
  json_object_set_string_member (code, "sha256", get_string (get_object (root, "code"), "sha256") ?
                                                   get_string (get_object (root, "code"), "sha256") : "");
  json_object_set_object_member (report, "code", code);

  messages = get_array (root, "messages");
  steps = get_array (root, "steps");
  json_object_set_array_member (report, "transcript", build_transcript (messages, steps));

  if ((verdict = get_object (root, "verdict")) != NULL)
    json_object_set_object_member (report, "verdict", json_object_ref (verdict));
  else
    json_object_set_null_member (report, "verdict");

  if (get_object (root, "pending") != NULL)
    json_object_set_object_member (report, "pending", json_object_ref (get_object (root, "pending")));

  json_object_set_object_member (report, "integrity", build_integrity (trace, trace_length));

  return json_node_init_object (json_node_alloc (), report);
}

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

static const char *
tool_title (const char *name)
{
  if (g_strcmp0 (name, "readStudentCode") == 0)
    return _("Reading your code");
  if (g_strcmp0 (name, "runPython") == 0)
    return _("Running your code");
  if (g_strcmp0 (name, "injectTestCase") == 0)
    return _("Testing an edge case");
  if (g_strcmp0 (name, "askStudent") == 0)
    return _("Asking you a question");
  if (g_strcmp0 (name, "finishDefense") == 0)
    return _("Giving the verdict");
  if (g_strcmp0 (name, "message") == 0)
    return _("A note from the examiner");
  return name;
}

static void
append_tool (GString    *html,
             JsonObject *entry)
{
  const char *name = get_string (entry, "name");
  JsonObject *probe = get_object (entry, "probe");
  JsonNode *arguments = json_object_get_member (entry, "arguments");
  JsonNode *result = json_object_get_member (entry, "result");
  const char *css = "tool";

  if (probe != NULL && json_object_has_member (probe, "passed"))
    css = json_object_get_boolean_member (probe, "passed") ? "tool passed" : "tool failed";

  g_string_append_printf (html, "<details class=\"%s\"><summary>", css);
  if (get_string (entry, "step") != NULL)
    {
      g_string_append (html, "<span class=\"step\">");
      append_escaped (html, get_string (entry, "step"));
      g_string_append (html, "</span> ");
    }
  append_escaped (html, tool_title (name));
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
      append_escaped (html, get_string (json_node_get_object (arguments), "question"));
      g_string_append (html, "</p>\n");
      if (result != NULL && JSON_NODE_HOLDS_OBJECT (result) &&
          get_string (json_node_get_object (result), "answer") != NULL)
        {
          g_string_append (html, "<p class=\"answer\">");
          append_escaped (html, get_string (json_node_get_object (result), "answer"));
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
  problem = get_object (root, "problem");
  verdict = get_object (root, "verdict");
  model = get_object (root, "model");
  integrity = get_object (root, "integrity");
  transcript = get_array (root, "transcript");

  g_string_append (html, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n<title>");
  append_escaped (html, get_string (problem, "title"));
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
  append_escaped (html, get_string (problem, "title"));
  g_string_append (html, "</h1>\n");

  verdict_text = get_string (verdict, "verdict");
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

  ROW (_("Pack"), get_string (problem, "pack_id"));
  ROW (_("Problem"), get_string (problem, "id"));
  ROW (_("Session"), get_string (root, "session"));
  ROW (_("Started"), get_string (root, "created"));
  ROW (_("Last step"), get_string (root, "updated"));
  ROW (_("State"), get_string (root, "state"));
  ROW (_("Examiner"), get_string (model, "name") ? get_string (model, "name") :
                      g_strcmp0 (get_string (model, "type"), "VivaScriptedModel") == 0 ? _("The offline examiner") :
                      get_string (model, "type"));
  if (get_string (model, "base_url") != NULL)
    ROW (_("Endpoint"), get_string (model, "base_url"));
#undef ROW
  g_string_append (html, "</table>\n");

  if (verdict != NULL)
    {
      g_string_append_printf (html, "<h2>%s</h2>\n", _("Verdict"));
      if (get_string (verdict, "comment") != NULL)
        {
          g_string_append (html, "<p>");
          append_escaped (html, get_string (verdict, "comment"));
          g_string_append (html, "</p>\n");
        }
      if (get_string (verdict, "reason") != NULL)
        {
          g_string_append (html, "<p class=\"muted\">");
          append_escaped (html, get_string (verdict, "reason"));
          g_string_append (html, "</p>\n");
        }

      if ((probes = get_array (verdict, "probes")) != NULL && json_array_get_length (probes) > 0)
        {
          g_string_append_printf (html, "<h3>%s</h3>\n<table><tr><th>%s</th><th>%s</th><th>%s</th></tr>\n",
                                  _("What the engine recorded"), _("Step"), _("Probe"), _("Outcome"));
          for (guint i = 0; i < json_array_get_length (probes); i++)
            {
              JsonObject *probe = json_array_get_object_element (probes, i);
              gboolean passed = json_object_has_member (probe, "passed") && json_object_get_boolean_member (probe, "passed");
              gboolean valid = !json_object_has_member (probe, "valid") || json_object_get_boolean_member (probe, "valid");

              g_string_append (html, "<tr><td class=\"step\">");
              append_escaped (html, get_string (probe, "step"));
              g_string_append (html, "</td><td><pre>");
              append_escaped (html, get_string (probe, "code"));
              g_string_append (html, "</pre></td><td>");
              append_escaped (html, !valid ? _("invalid test (fails on the reference too)") :
                                    passed ? _("passed") : _("failed"));
              if (get_string (probe, "error_type") != NULL)
                {
                  g_string_append (html, "<br><span class=\"muted\">");
                  append_escaped (html, get_string (probe, "error_type"));
                  g_string_append (html, ": ");
                  append_escaped (html, get_string (probe, "error_message"));
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
      const char *kind = get_string (entry, "kind");

      if (g_strcmp0 (kind, "tool") == 0)
        {
          append_tool (html, entry);
          continue;
        }

      g_string_append_printf (html, "<p class=\"%s\">",
                              g_strcmp0 (kind, "student") == 0 ? "student" :
                              g_strcmp0 (kind, "note") == 0 ? "note" : "examiner");
      append_escaped (html, get_string (entry, "text"));
      g_string_append (html, "</p>\n");
    }

  g_string_append_printf (html, "<h2>%s</h2>\n<pre>", _("Final code"));
  append_escaped (html, get_string (get_object (root, "code"), "text"));
  g_string_append (html, "</pre>\n");

  g_string_append_printf (html, "<h2>%s</h2>\n", _("Integrity"));
  changes = get_array (integrity, "code_changes");
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
          append_escaped (html, get_string (change, "time"));
          g_string_append (html, " <span class=\"muted\">sha256 ");
          append_escaped (html, get_string (change, "sha256"));
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
  append_escaped (html, get_string (problem, "description"));
  g_string_append (html, "</pre>\n</body></html>\n");

  return g_string_free (g_steal_pointer (&html), FALSE);
}

/**
 * viva_exam_report_load:
 * @session_dir: a session's folder
 *
 * Reads the session's checkpoint and trace and builds its report. Blocks:
 * call it from a thread, as viva_exam_report_export_async() does.
 *
 * Returns: (transfer full): the report, or %NULL with @error set
 */
JsonNode *
viva_exam_report_load (const char  *session_dir,
                       GError     **error)
{
  g_autofree char *checkpoint_path = g_build_filename (session_dir, "checkpoint.json", NULL);
  g_autofree char *trace_path = g_build_filename (session_dir, "trace.jsonl", NULL);
  g_autofree char *checkpoint_text = NULL;
  g_autofree char *trace_text = NULL;
  g_autoptr(JsonNode) checkpoint = NULL;
  gsize checkpoint_len = 0, trace_len = 0;

  if (!g_file_get_contents (checkpoint_path, &checkpoint_text, &checkpoint_len, error))
    return NULL;

  if (!(checkpoint = viva_exam_checkpoint_parse (checkpoint_text, checkpoint_len, error)))
    return NULL;

  /* A session without a trace still has a report; its integrity section is
   * then empty. */
  if (!g_file_get_contents (trace_path, &trace_text, &trace_len, NULL))
    trace_len = 0;

  return viva_exam_report_build (checkpoint, trace_text, trace_len);
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  g_autoptr(GError) error = NULL;
  JsonNode *report;

  if (!(report = viva_exam_report_load (task_data, &error)))
    return g_task_return_error (task, g_steal_pointer (&error));

  g_task_return_pointer (task, report, (GDestroyNotify)json_node_unref);
}

/**
 * viva_exam_report_load_async:
 * @session_dir: a session's folder
 *
 * Builds the session's report off the main loop.
 */
void
viva_exam_report_load_async (const char          *session_dir,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (session_dir != NULL);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_exam_report_load_async);
  g_task_set_task_data (task, g_strdup (session_dir), g_free);
  g_task_run_in_thread (task, load_thread);
}

/**
 * viva_exam_report_load_finish:
 *
 * Returns: (transfer full): the report, or %NULL with @error set
 */
JsonNode *
viva_exam_report_load_finish (GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

typedef struct
{
  char  *session_dir;
  GFile *html_file;
  GFile *json_file;
} ExportData;

static void
export_data_free (gpointer data)
{
  ExportData *ed = data;

  g_free (ed->session_dir);
  g_clear_object (&ed->html_file);
  g_clear_object (&ed->json_file);
  g_free (ed);
}

static gboolean
write_file (GFile       *file,
            const char  *contents,
            GError     **error)
{
  g_autofree char *path = g_file_get_path (file);

  if (path == NULL)
    return g_file_replace_contents (file, contents, strlen (contents), NULL, FALSE,
                                    G_FILE_CREATE_REPLACE_DESTINATION, NULL, NULL, error);

  return g_file_set_contents_full (path, contents, -1,
                                   G_FILE_SET_CONTENTS_CONSISTENT | G_FILE_SET_CONTENTS_DURABLE,
                                   0644, error);
}

static void
export_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  ExportData *ed = task_data;
  g_autoptr(JsonNode) report = NULL;
  g_autoptr(GError) error = NULL;

  if (!(report = viva_exam_report_load (ed->session_dir, &error)))
    return g_task_return_error (task, g_steal_pointer (&error));

  if (ed->html_file != NULL)
    {
      g_autofree char *html = viva_exam_report_render_html (report);

      if (!write_file (ed->html_file, html, &error))
        return g_task_return_error (task, g_steal_pointer (&error));
    }

  if (ed->json_file != NULL)
    {
      g_autofree char *json = json_to_string (report, TRUE);

      if (!write_file (ed->json_file, json, &error))
        return g_task_return_error (task, g_steal_pointer (&error));
    }

  g_task_return_boolean (task, TRUE);
}

/**
 * viva_exam_report_export_async:
 * @session_dir: a session's folder
 * @html_file: (nullable): where to write the HTML report
 * @json_file: (nullable): where to write the same as JSON
 *
 * Builds the session's report and writes it, off the main loop.
 */
void
viva_exam_report_export_async (const char          *session_dir,
                               GFile               *html_file,
                               GFile               *json_file,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  ExportData *ed;

  g_return_if_fail (session_dir != NULL);
  g_return_if_fail (!html_file || G_IS_FILE (html_file));
  g_return_if_fail (!json_file || G_IS_FILE (json_file));

  ed = g_new0 (ExportData, 1);
  ed->session_dir = g_strdup (session_dir);
  g_set_object (&ed->html_file, html_file);
  g_set_object (&ed->json_file, json_file);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_exam_report_export_async);
  g_task_set_task_data (task, ed, export_data_free);
  g_task_run_in_thread (task, export_thread);
}

gboolean
viva_exam_report_export_finish (GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

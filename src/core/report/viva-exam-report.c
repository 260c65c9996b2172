/* viva-exam-report.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <string.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "viva-exam-report.h"
#include "viva-exam-report-private.h"
#include "viva-exam-session.h"
#include "viva-file-writer.h"
#include "viva-report-score.h"

/* A defense as a teacher collects it: the problem, the final code, the
 * transcript with each tool call and its result, the verdict beside the
 * facts the engine recorded, and the code changes made during the defense.
 * Built from the checkpoint and the trace alone, so a report can be made
 * for any session on disk, finished or not. The HTML is self-contained:
 * one file, no scripts, no network. */

#define REMINDER_PREFIX "Reminder from the exam system"
/* The engine's own messages (the code, the verdict's finality), as
 * VIVA_EXAM_SYSTEM_PREFIX in exam/. */
#define EXAM_SYSTEM_PREFIX "From the exam system"

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

      if (g_strcmp0 (viva_json_member_string (step, "id"), id) == 0)
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
      const char *role = viva_json_member_string (message, "role");
      const char *content = viva_json_member_string (message, "content");

      if (g_strcmp0 (role, "assistant") == 0)
        {
          JsonArray *tool_calls = viva_json_member_array (message, "tool_calls");

          if (content != NULL && content[0] != '\0')
            add_entry (transcript, "examiner", content);

          for (guint j = 0; tool_calls != NULL && j < json_array_get_length (tool_calls); j++)
            {
              JsonObject *call = json_array_get_object_element (tool_calls, j);
              JsonObject *function = viva_json_member_object (call, "function");
              JsonObject *entry = json_object_new ();
              const char *name = viva_json_member_string (function, "name");

              json_object_set_string_member (entry, "kind", "tool");
              json_object_set_string_member (entry, "name", name ? name : "");
              json_object_set_member (entry, "arguments", parse_or_string (viva_json_member_string (function, "arguments")));
              json_array_add_object_element (transcript, entry);
              if (viva_json_member_string (call, "id") != NULL)
                g_hash_table_insert (calls, (gpointer)viva_json_member_string (call, "id"), entry);
            }
        }
      else if (g_strcmp0 (role, "tool") == 0)
        {
          JsonObject *entry = g_hash_table_lookup (calls, viva_json_member_string (message, "tool_call_id"));
          JsonNode *result = parse_or_string (content);
          JsonObject *step;

          if (entry == NULL)
            {
              json_node_unref (result);
              continue;
            }

          if (JSON_NODE_HOLDS_OBJECT (result) &&
              (step = find_step (steps, viva_json_member_string (json_node_get_object (result), "step"))))
            {
              json_object_set_string_member (entry, "step", viva_json_member_string (step, "id"));
              if (json_object_has_member (step, "ok"))
                json_object_set_boolean_member (entry, "ok", json_object_get_boolean_member (step, "ok"));
              if (json_object_has_member (step, "duration_ms"))
                json_object_set_double_member (entry, "duration_ms", json_object_get_double_member (step, "duration_ms"));
              if (viva_json_member_object (step, "probe") != NULL)
                json_object_set_object_member (entry, "probe", json_object_ref (viva_json_member_object (step, "probe")));
            }

          json_object_set_member (entry, "result", result);
        }
      else if (g_strcmp0 (role, "user") == 0 && content != NULL)
        {
          add_entry (transcript, g_str_has_prefix (content, REMINDER_PREFIX) ||
                                g_str_has_prefix (content, EXAM_SYSTEM_PREFIX) ? "note" : "student", content);
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

      if (g_strcmp0 (viva_json_member_string (event, "event"), "code") == 0 &&
          json_object_has_member (event, "edited") &&
          json_object_get_boolean_member (event, "edited"))
        {
          JsonObject *change = json_object_new ();

          json_object_set_string_member (change, "time", viva_json_member_string (event, "time") ? viva_json_member_string (event, "time") : "");
          json_object_set_string_member (change, "sha256", viva_json_member_string (event, "sha256") ? viva_json_member_string (event, "sha256") : "");
          if (json_object_has_member (event, "length"))
            json_object_set_int_member (change, "length", json_object_get_int_member (event, "length"));
          json_array_add_object_element (changes, change);
        }
      else if (g_strcmp0 (viva_json_member_string (event, "event"), "hint") == 0)
        {
          hints++;
        }
    }

  json_object_set_int_member (integrity, "code_changes_during_defense", json_array_get_length (changes));
  json_object_set_array_member (integrity, "code_changes", changes);
  json_object_set_boolean_member (integrity, "hint_used", hints > 0);

  return integrity;
}

/* When the exam gave hints a cost, the score a teacher grades by is the
 * examiner's less the hints viewed: `score` says both, and how. The
 * verdict keeps the examiner's score, so older readers still read it; a
 * session whose hints cost nothing has no `score`, as before. */
static void
add_score (JsonObject *report)
{
  VivaReportScoreRecords records;
  VivaReportScore score = { -1, 0, 0 };
  JsonObject *verdict = viva_json_member_object (report, "verdict");
  JsonNode *node = verdict ? json_object_get_member (verdict, "score") : NULL;

  viva_report_score_read_records (report, &records);
  if (records.hint_cost <= 0)
    return;

  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
      (json_node_get_value_type (node) == G_TYPE_INT64 || json_node_get_value_type (node) == G_TYPE_DOUBLE))
    score.examiner = MAX (-1, json_node_get_double (node));
  score.hints = records.hints;
  score.hint_cost = records.hint_cost;
  json_object_set_object_member (report, "score", viva_report_score_to_json (&score));
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
  problem_id = viva_json_member_string (root, "problem_id");
  pack = viva_json_member_object (root, "pack");
  problems = viva_json_member_array (pack, "problems");
  for (guint i = 0; problems != NULL && i < json_array_get_length (problems); i++)
    {
      JsonObject *candidate = json_array_get_object_element (problems, i);

      if (g_strcmp0 (viva_json_member_string (candidate, "id"), problem_id) == 0)
        problem = candidate;
    }

  json_object_set_string_member (report, "format", VIVA_EXAM_REPORT_FORMAT);
  json_object_set_string_member (report, "session", viva_json_member_string (root, "session") ? viva_json_member_string (root, "session") : "");
  json_object_set_string_member (report, "created", viva_json_member_string (root, "created") ? viva_json_member_string (root, "created") : "");
  json_object_set_string_member (report, "updated", viva_json_member_string (root, "updated") ? viva_json_member_string (root, "updated") : "");
  json_object_set_string_member (report, "state", viva_json_member_string (root, "state") ? viva_json_member_string (root, "state") : "");
  if (viva_json_member_string (root, "language") != NULL)
    json_object_set_string_member (report, "language", viva_json_member_string (root, "language"));

  out_problem = json_object_new ();
  json_object_set_string_member (out_problem, "pack_id", viva_json_member_string (root, "pack_id") ? viva_json_member_string (root, "pack_id") : "");
  json_object_set_string_member (out_problem, "id", problem_id ? problem_id : "");
  /* Checkpoints name their pack and keep the problem's public parts;
   * older ones carry the whole problem. */
  if (viva_json_member_object (root, "problem") != NULL)
    problem = viva_json_member_object (root, "problem");
  json_object_set_string_member (out_problem, "title",
                                 viva_json_member_string (problem, "title") ? viva_json_member_string (problem, "title") : (problem_id ? problem_id : ""));
  json_object_set_string_member (out_problem, "description",
                                 viva_json_member_string (problem, "description") ? viva_json_member_string (problem, "description") : "");
  if (viva_json_member_string (root, "problem_sha256") != NULL)
    json_object_set_string_member (out_problem, "sha256", viva_json_member_string (root, "problem_sha256"));
  json_object_set_object_member (report, "problem", out_problem);

  if (viva_json_member_object (root, "model") != NULL)
    json_object_set_object_member (report, "model", json_object_ref (viva_json_member_object (root, "model")));

  code = json_object_new ();
  json_object_set_string_member (code, "text", viva_json_member_string (viva_json_member_object (root, "code"), "text") ?
                                                 viva_json_member_string (viva_json_member_object (root, "code"), "text") : "");
  json_object_set_string_member (code, "sha256", viva_json_member_string (viva_json_member_object (root, "code"), "sha256") ?
                                                   viva_json_member_string (viva_json_member_object (root, "code"), "sha256") : "");
  json_object_set_object_member (report, "code", code);

  messages = viva_json_member_array (root, "messages");
  steps = viva_json_member_array (root, "steps");
  json_object_set_array_member (report, "transcript", build_transcript (messages, steps));

  if ((verdict = viva_json_member_object (root, "verdict")) != NULL)
    json_object_set_object_member (report, "verdict", json_object_ref (verdict));
  else
    json_object_set_null_member (report, "verdict");

  if (viva_json_member_object (root, "pending") != NULL)
    json_object_set_object_member (report, "pending", json_object_ref (viva_json_member_object (root, "pending")));

  json_object_set_object_member (report, "integrity", build_integrity (trace, trace_length));

  /* Who defended, the engine's grade, the integrity timeline and the exam,
   * as the session recorded them. */
  if (viva_json_member_object (root, "student") != NULL)
    json_object_set_object_member (report, "student", json_object_ref (viva_json_member_object (root, "student")));
  if (viva_json_member_object (root, "grade") != NULL)
    json_object_set_object_member (report, "grade", json_object_ref (viva_json_member_object (root, "grade")));
  if (viva_json_member_array (root, "timeline") != NULL)
    json_object_set_array_member (report, "timeline", json_array_ref (viva_json_member_array (root, "timeline")));
  if (viva_json_member_object (root, "exam") != NULL)
    json_object_set_object_member (report, "exam", json_object_ref (viva_json_member_object (root, "exam")));

  add_score (report);

  return json_node_init_object (json_node_alloc (), report);
}

static void
append_part (GString    *name,
             const char *part)
{
  gsize start = name->len;

  if (part == NULL || part[0] == '\0')
    return;
  if (name->len > 0)
    g_string_append_c (name, '-');

  /* Letters of any script stay, so a name reads as it was typed; what a
   * file system or a shell could trip on becomes '_'. */
  for (const char *p = part; *p; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (g_unichar_isalnum (c) || c == '.' || c == '_')
        g_string_append_unichar (name, c);
      else if (name->len > start && name->str[name->len - 1] != '_')
        g_string_append_c (name, '_');
    }
  while (name->len > start && (name->str[name->len - 1] == '_' || name->str[name->len - 1] == '.'))
    g_string_truncate (name, name->len - 1);
  if (name->len > 0 && name->str[0] == '.')
    name->str[0] = '_';
}

/**
 * viva_exam_report_dup_file_name:
 * @report: a report from viva_exam_report_build()
 * @extension: (nullable): what follows the dot, like `html`
 *
 * The name a report's file gets:
 * `<student-name>-<student-id>-<problem>-<YYYYmmdd-HHMM>.<extension>`,
 * with the parts the report lacks left out and anything but letters,
 * digits, `.` and `_` replaced, so it is safe on any file system.
 *
 * Returns: (transfer full): the file name
 */
char *
viva_exam_report_dup_file_name (JsonNode   *report,
                                const char *extension)
{
  g_autoptr(GString) name = g_string_new (NULL);
  g_autoptr(GDateTime) started = NULL;
  g_autofree char *stamp = NULL;
  JsonObject *root, *student;

  g_return_val_if_fail (report != NULL && JSON_NODE_HOLDS_OBJECT (report), NULL);

  root = json_node_get_object (report);
  student = viva_json_member_object (root, "student");
  append_part (name, viva_json_member_string (student, "name"));
  append_part (name, viva_json_member_string (student, "id"));
  append_part (name, viva_json_member_string (viva_json_member_object (root, "problem"), "id"));

  if (viva_json_member_string (root, "created") != NULL &&
      (started = g_date_time_new_from_iso8601 (viva_json_member_string (root, "created"), NULL)) != NULL)
    {
      g_autoptr(GDateTime) local = g_date_time_to_local (started);
      stamp = g_date_time_format (local, "%Y%m%d-%H%M");
    }
  if (stamp != NULL)
    g_string_append_printf (name, "%s%s", name->len ? "-" : "", stamp);
  if (name->len == 0)
    g_string_append (name, "viva-report");
  if (extension != NULL)
    g_string_append_printf (name, ".%s", extension);

  return g_string_free (g_steal_pointer (&name), FALSE);
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
  char  *folder;      /* the files are named after the report, in here */
  GFile *html_file;
  GFile *json_file;
} ExportData;

static void
export_data_free (gpointer data)
{
  ExportData *ed = data;

  g_free (ed->session_dir);
  g_free (ed->folder);
  g_clear_object (&ed->html_file);
  g_clear_object (&ed->json_file);
  g_free (ed);
}

static gboolean
write_file (GFile       *file,
            const char  *contents,
            GError     **error)
{
  g_autoptr(GBytes) bytes = g_bytes_new_static (contents, strlen (contents));

  return viva_file_writer_write (file, bytes, 0644, VIVA_FILE_WRITER_NONE, error);
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

  if (ed->folder != NULL)
    {
      g_autofree char *html_name = viva_exam_report_dup_file_name (report, "html");
      g_autofree char *json_name = viva_exam_report_dup_file_name (report, "json");
      g_autoptr(GFile) folder = g_file_new_for_path (ed->folder);

      /* Made here rather than by the file writer (which makes private
       * folders): a teacher collects the reports from this one. */
      if (g_mkdir_with_parents (ed->folder, 0755) != 0)
        {
          int saved = errno;
          return g_task_return_new_error (task, G_IO_ERROR, g_io_error_from_errno (saved),
                                          "%s", g_strerror (saved));
        }
      ed->html_file = g_file_get_child (folder, html_name);
      ed->json_file = g_file_get_child (folder, json_name);
    }

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

  if (ed->folder != NULL)
    g_task_return_pointer (task, g_file_get_path (ed->html_file), g_free);
  else
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

/**
 * viva_exam_report_export_to_folder_async:
 * @session_dir: a session's folder
 * @folder: where an exam's reports are handed in
 *
 * Builds the session's report and writes it, off the main loop, as HTML
 * and JSON into @folder (made, readable by others, if missing), named by
 * viva_exam_report_dup_file_name().
 */
void
viva_exam_report_export_to_folder_async (const char          *session_dir,
                                         const char          *folder,
                                         GCancellable        *cancellable,
                                         GAsyncReadyCallback  callback,
                                         gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  ExportData *ed;

  g_return_if_fail (session_dir != NULL);
  g_return_if_fail (folder != NULL);

  ed = g_new0 (ExportData, 1);
  ed->session_dir = g_strdup (session_dir);
  ed->folder = g_strdup (folder);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_exam_report_export_to_folder_async);
  g_task_set_task_data (task, ed, export_data_free);
  g_task_run_in_thread (task, export_thread);
}

/**
 * viva_exam_report_export_to_folder_finish:
 *
 * Returns: (transfer full): the HTML report's path (the JSON is beside
 *   it), or %NULL with @error set
 */
char *
viva_exam_report_export_to_folder_finish (GAsyncResult  *result,
                                          GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* viva-exam-file-load.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "viva-exam-file-private.h"

/* Loading an exam file: its bytes checked before any JSON parser sees them,
 * parsed, made into the object (viva-exam-file.c), and every issue turned into one
 * message for the student; from a path, blocking or on a worker thread. */

#define MAX_SIZE  (32 * 1024 * 1024)
#define MAX_DEPTH 40

/* Before the JSON parser: json-glib recurses once per level, so a file of
 * nested brackets must never reach it. */
static gboolean
check_bytes (const char *data,
             gsize       len,
             GPtrArray  *issues)
{
  gboolean in_string = FALSE;
  gboolean blank = TRUE;
  guint depth = 0;

  if (len > MAX_SIZE)
    {
      viva_pack_issues_add (issues, VIVA_PACK_ERROR_TOO_LARGE, VIVA_PACK_ISSUE_ERROR, NULL,
                            _("the file is %.1f MB, more than any exam file (the limit is %d MB) — check that you picked the right file"),
                            len / (1024.0 * 1024.0), MAX_SIZE / (1024 * 1024));
      return FALSE;
    }

  if (!g_utf8_validate_len (data, len, NULL))
    {
      viva_pack_issues_add (issues, VIVA_PACK_ERROR_ENCODING, VIVA_PACK_ISSUE_ERROR, NULL,
                            _("the file is not UTF-8 text — an exam file is JSON saved as UTF-8"));
      return FALSE;
    }

  for (gsize i = 0; i < len; i++)
    {
      char c = data[i];

      if ((guchar)c < 0x20 && c != '\t' && c != '\n' && c != '\r')
        {
          viva_pack_issues_add (issues, VIVA_PACK_ERROR_BINARY, VIVA_PACK_ISSUE_ERROR, NULL,
                                _("the file holds binary data — an exam file is a JSON text file"));
          return FALSE;
        }
      if (!g_ascii_isspace (c))
        blank = FALSE;

      if (in_string)
        {
          if (c == '\\')
            i++;
          else if (c == '"')
            in_string = FALSE;
        }
      else if (c == '"')
        in_string = TRUE;
      else if ((c == '[' || c == '{') && ++depth > MAX_DEPTH)
        {
          viva_pack_issues_add (issues, VIVA_PACK_ERROR_TOO_DEEP, VIVA_PACK_ISSUE_ERROR, NULL,
                                _("lists and objects nest more than %d deep — this file is not an exam file"), MAX_DEPTH);
          return FALSE;
        }
      else if ((c == ']' || c == '}') && depth > 0)
        depth--;
    }

  if (blank)
    {
      viva_pack_issues_add (issues, VIVA_PACK_ERROR_EMPTY, VIVA_PACK_ISSUE_ERROR, NULL,
                            _("the file is empty — an exam file is a JSON object starting with “{”"));
      return FALSE;
    }

  return TRUE;
}

static char *
describe_all (GPtrArray *issues)
{
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < issues->len; i++)
    {
      g_autofree char *line = viva_pack_issue_to_string (g_ptr_array_index (issues, i));

      if (text->len > 0)
        g_string_append_c (text, '\n');
      g_string_append (text, line);
    }

  return g_string_free (g_steal_pointer (&text), FALSE);
}

/**
 * viva_exam_file_describe_issues:
 * @issues: (element-type VivaPackIssue): what the loader found
 *
 * Returns: (transfer full): one line per issue, `path: message`
 */
char *
viva_exam_file_describe_issues (GPtrArray *issues)
{
  g_return_val_if_fail (issues != NULL, NULL);

  return describe_all (issues);
}

/**
 * viva_exam_file_new_from_bytes:
 * @bytes: the exam file's bytes
 * @path: (nullable): where they were read, for the session's reference and
 *   to resolve a relative report folder
 * @issues: (out) (optional) (transfer full) (element-type VivaPackIssue):
 *   every error, each with its JSON path; set even when loading fails
 * @error: the errors as one message, one line each
 *
 * Reads and checks an exam file. Any issue fails the load. Thread-safe: no
 * shared state (an embedded pack is built here, but nothing else sees it).
 *
 * Returns: (transfer full) (nullable): the exam
 */
VivaExamFile *
viva_exam_file_new_from_bytes (GBytes      *bytes,
                               const char  *path,
                               GPtrArray  **issues,
                               GError     **error)
{
  return viva_exam_file_new_from_bytes_full (bytes, path, NULL, issues, error);
}

/**
 * viva_exam_file_installed_problems_new:
 * @packs: (element-type VivaPack): the packs installed here
 *
 * What the loader needs of the installed packs, as plain data it may take
 * to a worker thread. Main thread.
 *
 * Returns: (transfer full): pack id → its problem ids (a %GStrv)
 */
GHashTable *
viva_exam_file_installed_problems_new (GListModel *packs)
{
  GHashTable *installed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify)g_strfreev);

  for (guint i = 0; packs != NULL && i < g_list_model_get_n_items (packs); i++)
    {
      g_autoptr(VivaPack) pack = g_list_model_get_item (packs, i);
      GListModel *problems = viva_pack_get_problems (pack);
      g_autoptr(GStrvBuilder) ids = g_strv_builder_new ();

      for (guint j = 0; j < g_list_model_get_n_items (problems); j++)
        {
          g_autoptr(VivaProblem) problem = g_list_model_get_item (problems, j);
          g_strv_builder_add (ids, viva_problem_get_id (problem));
        }
      g_hash_table_replace (installed, g_strdup (viva_pack_get_id (pack)), g_strv_builder_end (ids));
    }

  return installed;
}

/**
 * viva_exam_file_new_from_bytes_full:
 * @installed: (nullable): from viva_exam_file_installed_problems_new(): an
 *   exam naming one of these packs by id has its problem ids checked
 *   against it in the same pass as everything else
 *
 * As viva_exam_file_new_from_bytes().
 */
VivaExamFile *
viva_exam_file_new_from_bytes_full (GBytes      *bytes,
                                    const char  *path,
                                    GHashTable  *installed,
                                    GPtrArray  **issues,
                                    GError     **error)
{
  g_autoptr(VivaExamFile) self = NULL;
  g_autoptr(GPtrArray) found = viva_pack_issues_new ();
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GError) local = NULL;
  g_autofree char *digest = NULL;
  const char *data;
  gsize len;

  g_return_val_if_fail (bytes != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  data = g_bytes_get_data (bytes, &len);
  digest = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *)(data ? data : ""), len);

  if (len >= 3 && memcmp (data, "\xEF\xBB\xBF", 3) == 0)
    {
      data += 3;
      len -= 3;
    }

  if (check_bytes (data, len, found))
    {
      parser = json_parser_new_immutable ();
      if (!json_parser_load_from_data (parser, data, len, &local))
        viva_pack_issues_add (found, VIVA_PACK_ERROR_SYNTAX, VIVA_PACK_ISSUE_ERROR, NULL,
                              _("the file is not valid JSON (%s) — a JSON checker or editor shows where"), local->message);
      else if (json_parser_get_root (parser) == NULL)
        viva_pack_issues_add (found, VIVA_PACK_ERROR_EMPTY, VIVA_PACK_ISSUE_ERROR, NULL,
                              _("the file is empty — an exam file is a JSON object starting with “{”"));
      else
        self = _viva_exam_file_new_from_tree (path, digest, json_parser_get_root (parser), installed, found);
    }

  if (found->len > 0)
    {
      g_autofree char *text = describe_all (found);
      const VivaPackIssue *first = g_ptr_array_index (found, 0);

      g_autofree char *header = NULL;

      if (found->len == 1)
        header = g_strdup_printf (_("The exam file %s has an error, so the exam cannot start; ask the teacher to fix it:"),
                                  path ? path : "");
      else
        header = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                               "The exam file %s has %u errors, so the exam cannot start; ask the teacher to fix them:",
                                               "The exam file %s has %u errors, so the exam cannot start; ask the teacher to fix them:",
                                               found->len),
                                  path ? path : "", found->len);
      g_set_error (error, VIVA_PACK_ERROR, first->code, "%s\n%s", header, text);
      g_clear_object (&self);
    }

  if (issues != NULL)
    *issues = g_steal_pointer (&found);

  return g_steal_pointer (&self);
}

/**
 * viva_exam_file_load:
 * @path: the exam file
 *
 * Blocking: for the CLI, the tests and worker threads.
 *
 * Returns: (transfer full) (nullable): the exam
 */
VivaExamFile *
viva_exam_file_load (const char  *path,
                     GPtrArray  **issues,
                     GError     **error)
{
  return viva_exam_file_load_full (path, NULL, issues, error);
}

/**
 * viva_exam_file_load_full:
 * @installed: (nullable): see viva_exam_file_new_from_bytes_full()
 *
 * As viva_exam_file_load().
 */
VivaExamFile *
viva_exam_file_load_full (const char  *path,
                          GHashTable  *installed,
                          GPtrArray  **issues,
                          GError     **error)
{
  g_autofree char *contents = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) local = NULL;
  gsize length = 0;

  g_return_val_if_fail (path != NULL, NULL);

  if (issues != NULL)
    *issues = NULL;

  if (!g_file_get_contents (path, &contents, &length, &local))
    {
      g_set_error (error, G_IO_ERROR, g_io_error_from_file_error (local->code),
                   _("The exam file could not be read: %s. Check the path, or ask the lab administrator."),
                   local->message);
      return NULL;
    }

  bytes = g_bytes_new_take (g_steal_pointer (&contents), length);
  return viva_exam_file_new_from_bytes_full (bytes, path, installed, issues, error);
}

typedef struct
{
  char         *path;
  GHashTable   *installed;
  GPtrArray    *issues;
} Load;

static void
load_free (Load *load)
{
  g_free (load->path);
  g_clear_pointer (&load->installed, g_hash_table_unref);
  g_clear_pointer (&load->issues, g_ptr_array_unref);
  g_free (load);
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  Load *load = task_data;
  GError *error = NULL;
  VivaExamFile *exam = viva_exam_file_load_full (load->path, load->installed, &load->issues, &error);

  if (exam == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, exam, g_object_unref);
}

/**
 * viva_exam_file_load_async:
 * @path: the exam file
 *
 * Reads and checks the exam file on a worker thread.
 */
void
viva_exam_file_load_async (const char          *path,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  viva_exam_file_load_full_async (path, NULL, cancellable, callback, user_data);
}

/**
 * viva_exam_file_load_full_async:
 * @installed: (nullable): see viva_exam_file_new_from_bytes_full(); the
 *   task keeps a reference
 *
 * As viva_exam_file_load_async(); finish with viva_exam_file_load_finish().
 */
void
viva_exam_file_load_full_async (const char          *path,
                                GHashTable          *installed,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  Load *load = g_new0 (Load, 1);

  g_return_if_fail (path != NULL);

  load->path = g_strdup (path);
  load->installed = installed ? g_hash_table_ref (installed) : NULL;
  g_task_set_source_tag (task, viva_exam_file_load_async);
  g_task_set_task_data (task, load, (GDestroyNotify)load_free);
  g_task_run_in_thread (task, load_thread);
}

/**
 * viva_exam_file_load_finish:
 * @issues: (out) (optional) (transfer full) (element-type VivaPackIssue)
 *
 * Returns: (transfer full) (nullable): the exam
 */
VivaExamFile *
viva_exam_file_load_finish (GAsyncResult  *result,
                            GPtrArray    **issues,
                            GError       **error)
{
  Load *load;

  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  load = g_task_get_task_data (G_TASK (result));
  if (issues != NULL)
    *issues = load->issues ? g_ptr_array_ref (load->issues) : NULL;

  return g_task_propagate_pointer (G_TASK (result), error);
}

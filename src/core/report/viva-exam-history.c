/* viva-exam-history.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include <json-glib/json-glib.h>

#include "viva-exam-history.h"
#include "viva-exam-session.h"
#include "viva-json-member.h"

/* Past defenses of a problem, newest first, read from the checkpoints in
 * the sessions folder in a thread. A checkpoint that does not parse is
 * left out of the list, never touched: the session code owns setting it
 * aside. */

G_DEFINE_BOXED_TYPE (VivaExamSummary, viva_exam_summary, viva_exam_summary_copy, viva_exam_summary_free)

VivaExamSummary *
viva_exam_summary_copy (const VivaExamSummary *summary)
{
  VivaExamSummary *copy;

  g_return_val_if_fail (summary != NULL, NULL);

  copy = g_new0 (VivaExamSummary, 1);
  copy->id = g_strdup (summary->id);
  copy->dir = g_strdup (summary->dir);
  copy->created = g_strdup (summary->created);
  copy->updated = g_strdup (summary->updated);
  copy->state = g_strdup (summary->state);
  copy->examiner = g_strdup (summary->examiner);
  copy->verdict = g_strdup (summary->verdict);
  copy->score = summary->score;

  return copy;
}

void
viva_exam_summary_free (VivaExamSummary *summary)
{
  if (summary == NULL)
    return;

  g_free (summary->id);
  g_free (summary->dir);
  g_free (summary->created);
  g_free (summary->updated);
  g_free (summary->state);
  g_free (summary->examiner);
  g_free (summary->verdict);
  g_free (summary);
}

typedef struct
{
  char *sessions_dir;
  char *pack_id;
  char *problem_id;
} ListData;

static void
list_data_free (gpointer data)
{
  ListData *ld = data;

  g_free (ld->sessions_dir);
  g_free (ld->pack_id);
  g_free (ld->problem_id);
  g_free (ld);
}

static VivaExamSummary *
summarize (const char *dir,
           const char *id,
           const char *pack_id,
           const char *problem_id)
{
  g_autofree char *path = g_build_filename (dir, "checkpoint.json", NULL);
  g_autofree char *text = NULL;
  g_autoptr(JsonNode) checkpoint = NULL;
  g_autofree char *their_problem = NULL;
  g_autofree char *their_pack = NULL;
  VivaExamSummary *summary;
  JsonObject *root, *model, *verdict = NULL;
  JsonNode *node;
  gsize len;

  if (!g_file_get_contents (path, &text, &len, NULL) ||
      !(checkpoint = viva_exam_checkpoint_parse (text, len, NULL)))
    return NULL;

  root = json_node_get_object (checkpoint);
  their_problem = g_strdup (viva_json_member_string (root, "problem_id"));
  their_pack = g_strdup (viva_json_member_string (root, "pack_id"));

  if (g_strcmp0 (their_problem, problem_id) != 0 ||
      (pack_id != NULL && their_pack != NULL && g_strcmp0 (their_pack, pack_id) != 0))
    return NULL;

  summary = g_new0 (VivaExamSummary, 1);
  summary->id = g_strdup (id);
  summary->dir = g_strdup (dir);
  summary->created = g_strdup (viva_json_member_string (root, "created"));
  summary->updated = g_strdup (viva_json_member_string (root, "updated"));
  summary->state = g_strdup (viva_json_member_string (root, "state"));
  summary->score = -1;

  model = (node = json_object_get_member (root, "model")) && JSON_NODE_HOLDS_OBJECT (node)
          ? json_node_get_object (node) : NULL;
  summary->examiner = g_strdup (viva_json_member_string (model, "name"));
  /* Sessions of an older Viva with the model left at "the server's
   * first" recorded no name: still a model's defense, not the offline
   * examiner's. */
  if ((summary->examiner == NULL || summary->examiner[0] == '\0') &&
      model != NULL && g_strcmp0 (json_object_get_string_member_with_default (model, "type", NULL), "VivaOpenAIModel") == 0)
    {
      g_autofree char *base_url = g_strdup (viva_json_member_string (model, "base_url"));

      g_free (summary->examiner);
      summary->examiner = base_url != NULL ? g_strdup_printf (_("a model at %s"), base_url) : g_strdup (_("a model"));
    }
  if (summary->examiner == NULL)
    summary->examiner = g_strdup ("");

  if ((node = json_object_get_member (root, "verdict")) && JSON_NODE_HOLDS_OBJECT (node))
    verdict = json_node_get_object (node);
  if (verdict != NULL)
    {
      summary->verdict = g_strdup (viva_json_member_string (verdict, "verdict"));
      if (json_object_has_member (verdict, "score"))
        summary->score = json_object_get_double_member (verdict, "score");
    }

  return summary;
}

static int
newest_first (gconstpointer a,
              gconstpointer b)
{
  const VivaExamSummary *sa = *(const VivaExamSummary * const *)a;
  const VivaExamSummary *sb = *(const VivaExamSummary * const *)b;

  /* ISO 8601 in UTC sorts as text. */
  return -g_strcmp0 (sa->updated, sb->updated);
}

static void
list_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  ListData *ld = task_data;
  g_autoptr(GPtrArray) summaries = g_ptr_array_new_with_free_func ((GDestroyNotify)viva_exam_summary_free);
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) dir = NULL;
  const char *name;

  if (!(dir = g_dir_open (ld->sessions_dir, 0, &error)))
    {
      /* No defense yet is an empty history, not a failure. */
      if (g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        return g_task_return_pointer (task, g_steal_pointer (&summaries), (GDestroyNotify)g_ptr_array_unref);
      return g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED, "%s", error->message);
    }

  while ((name = g_dir_read_name (dir)))
    {
      g_autofree char *path = g_build_filename (ld->sessions_dir, name, NULL);
      VivaExamSummary *summary;

      if (g_task_return_error_if_cancelled (task))
        return;

      if (g_file_test (path, G_FILE_TEST_IS_DIR) &&
          (summary = summarize (path, name, ld->pack_id, ld->problem_id)))
        g_ptr_array_add (summaries, summary);
    }

  g_ptr_array_sort (summaries, newest_first);
  g_task_return_pointer (task, g_steal_pointer (&summaries), (GDestroyNotify)g_ptr_array_unref);
}

/**
 * viva_exam_history_list_async:
 * @sessions_dir: (nullable): the sessions folder, or %NULL for the default
 * @pack_id: (nullable): the problem's pack
 * @problem_id: the problem
 *
 * Lists the defenses of a problem, finished or not, newest first.
 */
void
viva_exam_history_list_async (const char          *sessions_dir,
                              const char          *pack_id,
                              const char          *problem_id,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  ListData *ld;

  g_return_if_fail (problem_id != NULL);

  ld = g_new0 (ListData, 1);
  ld->sessions_dir = sessions_dir ? g_strdup (sessions_dir) : viva_exam_session_dup_default_dir ();
  ld->pack_id = g_strdup (pack_id);
  ld->problem_id = g_strdup (problem_id);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_exam_history_list_async);
  g_task_set_task_data (task, ld, list_data_free);
  g_task_run_in_thread (task, list_thread);
}

/**
 * viva_exam_history_list_finish:
 *
 * Returns: (transfer full) (element-type VivaExamSummary): the defenses,
 *   newest first
 */
GPtrArray *
viva_exam_history_list_finish (GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* viva-exam-hand-in-saved.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-exam-hand-in-private.h"
#include "viva-json-member.h"

/* What of a hand-in outlives the process: its lists in the sitting's
 * state file, and the code of problems worked on before a restart, read
 * back from the code store once, before the time. */

typedef struct
{
  VivaExamHandIn *self;
  char           *problem_id;
  GTask          *task;        /* shared by every read; completes after the last */
} SavedRead;

static void
saved_loaded_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  SavedRead *read = user_data;
  VivaExamHandIn *self = read->self;
  g_autoptr(GError) error = NULL;
  g_autofree char *code = NULL;
  guint *pending = g_task_get_task_data (read->task);

  code = viva_code_store_load_finish (VIVA_CODE_STORE (object), result, &error);

  /* Read after the time, it would be code the student may have written
   * since; and what the student had meanwhile is newer. */
  if (code != NULL && !self->closed && !g_hash_table_contains (self->seen, read->problem_id))
    g_hash_table_insert (self->seen, g_strdup (read->problem_id), g_steal_pointer (&code));

  if (--(*pending) == 0)
    g_task_return_boolean (read->task, TRUE);

  g_object_unref (read->task);
  g_free (read->problem_id);
  g_free (read);
}

/**
 * viva_exam_hand_in_read_saved_async:
 * @store: where the student's code is kept
 *
 * The sitting runs, before its time: reads, once, the saved code of each
 * problem worked on before this process started, so that it is handed in
 * too. Code arriving after the time is dropped.
 */
void
viva_exam_hand_in_read_saved_async (VivaExamHandIn      *self,
                                    VivaCodeStore       *store,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GPtrArray) problems = NULL;
  VivaPack *pack;
  guint *pending;

  g_return_if_fail (VIVA_IS_EXAM_HAND_IN (self));
  g_return_if_fail (VIVA_IS_CODE_STORE (store));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_exam_hand_in_read_saved_async);
  pending = g_new0 (guint, 1);
  g_task_set_task_data (task, pending, g_free);

  pack = viva_exam_file_get_pack (self->exam);
  problems = _viva_exam_hand_in_exam_problems (self);

  /* One more than the reads, taken back below, so that reads finishing
   * at once cannot complete the task before every one is started. */
  *pending = 1;
  for (guint i = 0; !self->closed && i < problems->len; i++)
    {
      const char *id = viva_problem_get_id (g_ptr_array_index (problems, i));
      SavedRead *read;

      if (!g_hash_table_contains (self->worked, id))
        continue;

      read = g_new0 (SavedRead, 1);
      read->self = self;
      read->problem_id = g_strdup (id);
      read->task = g_object_ref (task);
      (*pending)++;
      viva_code_store_load_async (store, viva_pack_get_id (pack), id, cancellable, saved_loaded_cb, read);
    }

  if (--(*pending) == 0)
    g_task_return_boolean (task, TRUE);
}

gboolean
viva_exam_hand_in_read_saved_finish (VivaExamHandIn  *self,
                                     GAsyncResult    *result,
                                     GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
write_ids (JsonBuilder *builder,
           const char  *member,
           GHashTable  *ids)
{
  GList *sorted = g_list_sort (g_hash_table_get_keys (ids), (GCompareFunc)g_strcmp0);

  json_builder_set_member_name (builder, member);
  json_builder_begin_array (builder);
  for (const GList *l = sorted; l != NULL; l = l->next)
    json_builder_add_string_value (builder, l->data);
  json_builder_end_array (builder);
  g_list_free (sorted);
}

/**
 * viva_exam_hand_in_save:
 * @builder: the sitting's state, an object being built
 *
 * Adds which problems were worked on and defended, and their reports.
 * The code is not saved: the code store keeps it.
 */
void
viva_exam_hand_in_save (VivaExamHandIn *self,
                        JsonBuilder    *builder)
{
  GHashTableIter iter;
  gpointer key, value;

  g_return_if_fail (VIVA_IS_EXAM_HAND_IN (self));
  g_return_if_fail (JSON_IS_BUILDER (builder));

  write_ids (builder, "worked", self->worked);
  write_ids (builder, "defended", self->defended);

  json_builder_set_member_name (builder, "reports");
  json_builder_begin_object (builder);
  g_hash_table_iter_init (&iter, self->reports);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      json_builder_set_member_name (builder, key);
      json_builder_add_string_value (builder, value);
    }
  json_builder_end_object (builder);
}

static void
read_ids (JsonObject *root,
          const char *name,
          GHashTable *ids)
{
  JsonArray *array = viva_json_member_array (root, name);

  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    {
      JsonNode *node = json_array_get_element (array, i);

      if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
        g_hash_table_add (ids, g_strdup (json_node_get_string (node)));
    }
}

/**
 * viva_exam_hand_in_restore:
 * @root: the sitting's state, as saved by viva_exam_hand_in_save()
 *
 * Takes back which problems were worked on and defended. A student who
 * edits the file can only make the time hand in more of their own code as
 * it stood before the time, or less of it.
 */
void
viva_exam_hand_in_restore (VivaExamHandIn *self,
                           JsonObject     *root)
{
  JsonNode *reports;

  g_return_if_fail (VIVA_IS_EXAM_HAND_IN (self));
  g_return_if_fail (root != NULL);

  read_ids (root, "worked", self->worked);
  read_ids (root, "defended", self->defended);

  reports = json_object_get_member (root, "reports");
  if (reports != NULL && JSON_NODE_HOLDS_OBJECT (reports))
    {
      JsonObject *object = json_node_get_object (reports);
      g_autoptr(GList) names = json_object_get_members (object);

      for (const GList *l = names; l != NULL; l = l->next)
        {
          const char *path = viva_json_member_string (object, l->data);

          if (path != NULL)
            g_hash_table_replace (self->reports, g_strdup (l->data), g_strdup (path));
        }
    }
}

/* viva-draft-store.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-draft-store.h"
#include "viva-file-writer.h"
#include "viva-json-bytes.h"

/* The drafts awaiting a teacher's decision, one `<id>.json` file each in
 * `$XDG_DATA_HOME/viva/drafts/` (or the directory given), so a draft made
 * in the app or by `viva-cli pack generate` is still there after a restart.
 * The list is sorted oldest first, the order the teacher asked for them. */

struct _VivaDraftStore
{
  GObject     parent_instance;
  char       *directory;
  GListStore *drafts;
};

enum {
  PROP_0,
  PROP_DIRECTORY,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (VivaDraftStore, viva_draft_store, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

static void
viva_draft_store_finalize (GObject *object)
{
  VivaDraftStore *self = (VivaDraftStore *)object;

  g_clear_pointer (&self->directory, g_free);
  g_clear_object (&self->drafts);

  G_OBJECT_CLASS (viva_draft_store_parent_class)->finalize (object);
}

static void
viva_draft_store_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  VivaDraftStore *self = VIVA_DRAFT_STORE (object);

  switch (prop_id)
    {
    case PROP_DIRECTORY:
      g_value_set_string (value, viva_draft_store_get_directory (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_draft_store_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  VivaDraftStore *self = VIVA_DRAFT_STORE (object);

  switch (prop_id)
    {
    case PROP_DIRECTORY:
      self->directory = g_value_dup_string (value);
      if (self->directory == NULL)
        self->directory = g_build_filename (g_get_user_data_dir (), "viva", "drafts", NULL);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_draft_store_class_init (VivaDraftStoreClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = viva_draft_store_finalize;
  object_class->get_property = viva_draft_store_get_property;
  object_class->set_property = viva_draft_store_set_property;

  properties[PROP_DIRECTORY] =
    g_param_spec_string ("directory", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
viva_draft_store_init (VivaDraftStore *self)
{
  self->drafts = g_list_store_new (VIVA_TYPE_PROBLEM_DRAFT);
}

/**
 * viva_draft_store_new:
 * @directory: (nullable): where drafts live; %NULL for
 *   `$XDG_DATA_HOME/viva/drafts`
 *
 * Returns: (transfer full): an empty store; load it with
 *   viva_draft_store_load_async()
 */
VivaDraftStore *
viva_draft_store_new (const char *directory)
{
  return g_object_new (VIVA_TYPE_DRAFT_STORE, "directory", directory, NULL);
}

const char *
viva_draft_store_get_directory (VivaDraftStore *self)
{
  g_return_val_if_fail (VIVA_IS_DRAFT_STORE (self), NULL);
  return self->directory;
}

/**
 * viva_draft_store_get_drafts:
 *
 * Returns: (transfer none): a #GListModel of #VivaProblemDraft
 */
GListModel *
viva_draft_store_get_drafts (VivaDraftStore *self)
{
  g_return_val_if_fail (VIVA_IS_DRAFT_STORE (self), NULL);
  return G_LIST_MODEL (self->drafts);
}

static gboolean
find_position (VivaDraftStore *self,
               const char     *draft_id,
               guint          *position)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->drafts));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(VivaProblemDraft) draft = g_list_model_get_item (G_LIST_MODEL (self->drafts), i);

      if (g_strcmp0 (viva_problem_draft_get_id (draft), draft_id) == 0)
        {
          *position = i;
          return TRUE;
        }
    }

  return FALSE;
}

/**
 * viva_draft_store_find:
 *
 * Returns: (transfer none) (nullable): the draft with @draft_id
 */
VivaProblemDraft *
viva_draft_store_find (VivaDraftStore *self,
                       const char     *draft_id)
{
  g_autoptr(VivaProblemDraft) draft = NULL;
  guint position;

  g_return_val_if_fail (VIVA_IS_DRAFT_STORE (self), NULL);

  if (!find_position (self, draft_id, &position))
    return NULL;

  draft = g_list_model_get_item (G_LIST_MODEL (self->drafts), position);
  return draft;
}

static int
compare_drafts (gconstpointer a,
                gconstpointer b,
                gpointer      user_data)
{
  VivaProblemDraft *da = (VivaProblemDraft *)a;
  VivaProblemDraft *db = (VivaProblemDraft *)b;
  gint64 ca = viva_problem_draft_get_created (da);
  gint64 cb = viva_problem_draft_get_created (db);

  if (ca != cb)
    return ca < cb ? -1 : 1;
  return g_strcmp0 (viva_problem_draft_get_id (da), viva_problem_draft_get_id (db));
}

/* Worker thread: reads and parses every file; no GObject is built here. */
static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  const char *directory = task_data;
  g_autoptr(GPtrArray) nodes = g_ptr_array_new_with_free_func ((GDestroyNotify)json_node_unref);
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GError) error = NULL;
  const char *name;

  if (!(dir = g_dir_open (directory, 0, &error)))
    {
      /* No directory yet: no drafts yet. */
      if (g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        return g_task_return_pointer (task, g_steal_pointer (&nodes), (GDestroyNotify)g_ptr_array_unref);
      return g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED,
                                      _("The drafts in %s could not be read: %s"), directory, error->message);
    }

  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = NULL;
      g_autofree char *contents = NULL;
      g_autoptr(JsonParser) parser = NULL;
      gsize len;

      if (g_task_return_error_if_cancelled (task))
        return;
      if (!g_str_has_suffix (name, ".json") || name[0] == '.')
        continue;

      path = g_build_filename (directory, name, NULL);
      if (!g_file_get_contents (path, &contents, &len, NULL) || len > 4 * 1024 * 1024)
        continue;

      parser = json_parser_new_immutable ();
      if (json_parser_load_from_data (parser, contents, len, NULL))
        g_ptr_array_add (nodes, json_parser_steal_root (parser));
    }

  g_task_return_pointer (task, g_steal_pointer (&nodes), (GDestroyNotify)g_ptr_array_unref);
}

/**
 * viva_draft_store_load_async:
 *
 * Reads the drafts in the store's directory, replacing the list. Files
 * that are not drafts are skipped, never deleted.
 */
void
viva_draft_store_load_async (VivaDraftStore      *self,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (VIVA_IS_DRAFT_STORE (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_draft_store_load_async);
  g_task_set_task_data (task, g_strdup (self->directory), g_free);
  g_task_run_in_thread (task, load_thread);
}

gboolean
viva_draft_store_load_finish (VivaDraftStore  *self,
                              GAsyncResult    *result,
                              GError         **error)
{
  g_autoptr(GPtrArray) nodes = NULL;
  g_autoptr(GPtrArray) drafts = g_ptr_array_new_with_free_func (g_object_unref);

  g_return_val_if_fail (VIVA_IS_DRAFT_STORE (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  if (!(nodes = g_task_propagate_pointer (G_TASK (result), error)))
    return FALSE;

  for (guint i = 0; i < nodes->len; i++)
    {
      VivaProblemDraft *draft = viva_problem_draft_new_from_json (g_ptr_array_index (nodes, i), NULL);

      if (draft != NULL)
        g_ptr_array_add (drafts, draft);
    }
  g_list_store_splice (self->drafts, 0, g_list_model_get_n_items (G_LIST_MODEL (self->drafts)),
                       drafts->pdata, drafts->len);
  g_list_store_sort (self->drafts, compare_drafts, NULL);

  return TRUE;
}

/**
 * viva_problem_draft_to_bytes:
 *
 * Returns: (transfer full): the draft as indented JSON text
 */
GBytes *
viva_problem_draft_to_bytes (VivaProblemDraft *draft)
{
  g_autoptr(JsonNode) root = NULL;

  g_return_val_if_fail (VIVA_IS_PROBLEM_DRAFT (draft), NULL);

  root = viva_problem_draft_to_json (draft);

  return viva_json_to_bytes (root);
}

static GFile *
draft_file (VivaDraftStore   *self,
            VivaProblemDraft *draft)
{
  g_autofree char *name = g_strconcat (viva_problem_draft_get_id (draft), ".json", NULL);

  return g_file_new_build_filename (self->directory, name, NULL);
}

static void
save_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  if (!viva_file_writer_write_finish (result, &error))
    {
      const char *path = g_task_get_task_data (task);

      return g_task_return_new_error (task, error->domain, error->code,
                                      _("The draft could not be kept in %s: %s"), path, error->message);
    }

  g_task_return_boolean (task, TRUE);
}

/**
 * viva_draft_store_save_async:
 *
 * Adds @draft to the list (or keeps its place if it is there) and writes
 * it through the file writer to `<id>.json` in the directory, which is
 * created if needed.
 */
void
viva_draft_store_save_async (VivaDraftStore      *self,
                             VivaProblemDraft    *draft,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GFile) file = NULL;
  guint position;

  g_return_if_fail (VIVA_IS_DRAFT_STORE (self));
  g_return_if_fail (VIVA_IS_PROBLEM_DRAFT (draft));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_draft_store_save_async);

  if (find_position (self, viva_problem_draft_get_id (draft), &position))
    g_list_store_splice (self->drafts, position, 1, (gpointer *)&draft, 1);
  else
    g_list_store_insert_sorted (self->drafts, draft, compare_drafts, NULL);

  bytes = viva_problem_draft_to_bytes (draft);
  file = draft_file (self, draft);
  g_task_set_task_data (task, g_file_get_path (file), g_free);
  viva_file_writer_write_async (file, bytes, 0666, VIVA_FILE_WRITER_MAKE_FOLDERS, cancellable, save_cb, g_steal_pointer (&task));
}

gboolean
viva_draft_store_save_finish (VivaDraftStore  *self,
                              GAsyncResult    *result,
                              GError         **error)
{
  g_return_val_if_fail (VIVA_IS_DRAFT_STORE (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
delete_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  if (!g_file_delete_finish (G_FILE (object), result, &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    {
      g_autofree char *path = g_file_get_path (G_FILE (object));

      return g_task_return_new_error (task, error->domain, error->code,
                                      _("The draft file %s could not be deleted: %s"), path, error->message);
    }

  g_task_return_boolean (task, TRUE);
}

/**
 * viva_draft_store_remove_async:
 *
 * Drops @draft from the list and deletes its file: the teacher approved
 * or discarded it.
 */
void
viva_draft_store_remove_async (VivaDraftStore      *self,
                               VivaProblemDraft    *draft,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GFile) file = NULL;
  guint position;

  g_return_if_fail (VIVA_IS_DRAFT_STORE (self));
  g_return_if_fail (VIVA_IS_PROBLEM_DRAFT (draft));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_draft_store_remove_async);

  file = draft_file (self, draft);
  if (find_position (self, viva_problem_draft_get_id (draft), &position))
    g_list_store_remove (self->drafts, position);

  g_file_delete_async (file, G_PRIORITY_DEFAULT, cancellable, delete_cb, g_steal_pointer (&task));
}

gboolean
viva_draft_store_remove_finish (VivaDraftStore  *self,
                                GAsyncResult    *result,
                                GError         **error)
{
  g_return_val_if_fail (VIVA_IS_DRAFT_STORE (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

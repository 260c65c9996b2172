/* viva-pack-library.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "viva-file-writer.h"
#include "viva-pack-library.h"
#include "viva-pack-private.h"

/* Every pack the student can open: the bundled one first, then the user's
 * packs from $XDG_DATA_HOME/viva/packs/<id>.json, sorted by title. A file
 * that fails to load is left alone and named in error-message; an import is
 * validated completely before anything on disk or in the list changes, and
 * its file is written to a temporary name and renamed into place. */

struct _VivaPackLibrary
{
  GObject     parent_instance;
  char       *directory;
  char       *error_message;
  GListStore *packs;
  VivaPack   *bundled;
};

enum {
  PROP_0,
  PROP_DIRECTORY,
  PROP_ERROR_MESSAGE,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (VivaPackLibrary, viva_pack_library, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

static void
viva_pack_library_set_error_message (VivaPackLibrary *self,
                                     const char      *message)
{
  if (g_strcmp0 (self->error_message, message) == 0)
    return;

  g_free (self->error_message);
  self->error_message = g_strdup (message);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR_MESSAGE]);
}

static void
viva_pack_library_finalize (GObject *object)
{
  VivaPackLibrary *self = (VivaPackLibrary *)object;

  g_clear_object (&self->packs);
  g_clear_object (&self->bundled);
  g_clear_pointer (&self->directory, g_free);
  g_clear_pointer (&self->error_message, g_free);

  G_OBJECT_CLASS (viva_pack_library_parent_class)->finalize (object);
}

static void
viva_pack_library_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  VivaPackLibrary *self = VIVA_PACK_LIBRARY (object);

  switch (prop_id)
    {
    case PROP_DIRECTORY:
      g_value_set_string (value, viva_pack_library_get_directory (self));
      break;

    case PROP_ERROR_MESSAGE:
      g_value_set_string (value, viva_pack_library_get_error_message (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_pack_library_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  VivaPackLibrary *self = VIVA_PACK_LIBRARY (object);

  switch (prop_id)
    {
    case PROP_DIRECTORY:
      self->directory = g_value_dup_string (value);
      if (self->directory == NULL)
        self->directory = g_build_filename (g_get_user_data_dir (), "viva", "packs", NULL);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_pack_library_class_init (VivaPackLibraryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = viva_pack_library_finalize;
  object_class->get_property = viva_pack_library_get_property;
  object_class->set_property = viva_pack_library_set_property;

  properties[PROP_DIRECTORY] =
    g_param_spec_string ("directory", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ERROR_MESSAGE] =
    g_param_spec_string ("error-message", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
viva_pack_library_init (VivaPackLibrary *self)
{
  self->packs = g_list_store_new (VIVA_TYPE_PACK);
}

/**
 * viva_pack_library_new:
 * @directory: (nullable): where the user's packs live, or %NULL for
 *   `$XDG_DATA_HOME/viva/packs`
 *
 * Returns: (transfer full): an empty library; call
 *   viva_pack_library_load_async() to fill it
 */
VivaPackLibrary *
viva_pack_library_new (const char *directory)
{
  return g_object_new (VIVA_TYPE_PACK_LIBRARY, "directory", directory, NULL);
}

const char *
viva_pack_library_get_directory (VivaPackLibrary *self)
{
  g_return_val_if_fail (VIVA_IS_PACK_LIBRARY (self), NULL);

  return self->directory;
}

/**
 * viva_pack_library_get_error_message:
 *
 * Returns: (nullable): a sentence naming the pack files that could not be
 *   loaded at the last load, for a banner; %NULL when all loaded
 */
const char *
viva_pack_library_get_error_message (VivaPackLibrary *self)
{
  g_return_val_if_fail (VIVA_IS_PACK_LIBRARY (self), NULL);

  return self->error_message;
}

/**
 * viva_pack_library_get_packs:
 *
 * Returns: (transfer none): a #GListModel of #VivaPack, the bundled pack
 *   first, then the user's packs by title
 */
GListModel *
viva_pack_library_get_packs (VivaPackLibrary *self)
{
  g_return_val_if_fail (VIVA_IS_PACK_LIBRARY (self), NULL);

  return G_LIST_MODEL (self->packs);
}

static gboolean
find_position (VivaPackLibrary *self,
               const char      *pack_id,
               guint           *position)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->packs));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(VivaPack) pack = g_list_model_get_item (G_LIST_MODEL (self->packs), i);

      if (g_strcmp0 (viva_pack_get_id (pack), pack_id) == 0)
        {
          *position = i;
          return TRUE;
        }
    }

  return FALSE;
}

/**
 * viva_pack_library_find_pack:
 *
 * Returns: (transfer none) (nullable): the pack with @pack_id
 */
VivaPack *
viva_pack_library_find_pack (VivaPackLibrary *self,
                             const char      *pack_id)
{
  VivaPack *pack;
  guint position;

  g_return_val_if_fail (VIVA_IS_PACK_LIBRARY (self), NULL);

  if (!find_position (self, pack_id, &position))
    return NULL;

  /* The store keeps its own reference. */
  pack = g_list_model_get_item (G_LIST_MODEL (self->packs), position);
  g_object_unref (pack);

  return pack;
}

gboolean
viva_pack_library_is_bundled (VivaPackLibrary *self,
                              VivaPack        *pack)
{
  g_return_val_if_fail (VIVA_IS_PACK_LIBRARY (self), FALSE);
  g_return_val_if_fail (VIVA_IS_PACK (pack), FALSE);

  return pack == self->bundled;
}

static int
compare_by_title (gconstpointer a,
                  gconstpointer b,
                  gpointer      user_data)
{
  VivaPackLibrary *self = user_data;
  VivaPack *pa = (VivaPack *)a, *pb = (VivaPack *)b;
  int cmp;

  if (pa == self->bundled || pb == self->bundled)
    return pa == self->bundled ? -1 : 1;

  if ((cmp = g_utf8_collate (viva_pack_get_title (pa), viva_pack_get_title (pb))) != 0)
    return cmp;

  return g_strcmp0 (viva_pack_get_id (pa), viva_pack_get_id (pb));
}

static int
compare_pack_pointers (gconstpointer a,
                       gconstpointer b,
                       gpointer      user_data)
{
  return compare_by_title (*(VivaPack * const *)a, *(VivaPack * const *)b, user_data);
}

typedef struct
{
  GPtrArray  *files;     /* GFile, sorted by name */
  guint       next;
  GPtrArray  *packs;     /* VivaPack */
  GString    *failures;
} LoadData;

static void
load_data_free (gpointer data)
{
  LoadData *ld = data;

  g_clear_pointer (&ld->files, g_ptr_array_unref);
  g_clear_pointer (&ld->packs, g_ptr_array_unref);
  if (ld->failures != NULL)
    g_string_free (ld->failures, TRUE);
  g_free (ld);
}

static void
load_add_failure (LoadData   *ld,
                  GFile      *file,
                  const char *message)
{
  g_autofree char *name = g_file_get_basename (file);

  if (ld->failures->len > 0)
    g_string_append (ld->failures, "\n");
  g_string_append_printf (ld->failures, "%s: %s", name, message);
}

static void load_next (GTask *task);

static void
load_pack_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  VivaPackLibrary *self = g_task_get_source_object (task);
  LoadData *ld = g_task_get_task_data (task);
  g_autoptr(VivaPack) pack = NULL;
  g_autoptr(GError) error = NULL;
  GFile *file = g_ptr_array_index (ld->files, ld->next - 1);

  if (g_task_return_error_if_cancelled (task))
    return;

  if (!(pack = viva_pack_new_from_file_finish (result, NULL, &error)))
    {
      load_add_failure (ld, file, error->message);
      return load_next (g_steal_pointer (&task));
    }

  for (guint i = 0; i < ld->packs->len; i++)
    {
      VivaPack *other = g_ptr_array_index (ld->packs, i);

      if (g_strcmp0 (viva_pack_get_id (other), viva_pack_get_id (pack)) == 0)
        {
          g_autofree char *message = NULL;

          if (other == self->bundled)
            message = g_strdup_printf (_("its id “%s” is the bundled pack’s — change the id to use it"),
                                       viva_pack_get_id (pack));
          else
            message = g_strdup_printf (_("its id “%s” is already used by another pack — change one of the ids"),
                                       viva_pack_get_id (pack));
          load_add_failure (ld, file, message);
          return load_next (g_steal_pointer (&task));
        }
    }

  g_ptr_array_add (ld->packs, g_steal_pointer (&pack));
  load_next (g_steal_pointer (&task));
}

static void
load_next (GTask *task)
{
  VivaPackLibrary *self = g_task_get_source_object (task);
  LoadData *ld = g_task_get_task_data (task);
  g_autoptr(GTask) owned = task;

  if (ld->next < ld->files->len)
    {
      GFile *file = g_ptr_array_index (ld->files, ld->next++);
      GCancellable *cancellable = g_task_get_cancellable (owned);

      viva_pack_new_from_file_async (file, cancellable, load_pack_cb, g_steal_pointer (&owned));
      return;
    }

  g_ptr_array_sort_with_data (ld->packs, compare_pack_pointers, self);

  g_list_store_splice (self->packs, 0, g_list_model_get_n_items (G_LIST_MODEL (self->packs)),
                       ld->packs->pdata, ld->packs->len);

  if (ld->failures->len > 0)
    {
      g_autofree char *message =
        g_strdup_printf (_("Some packs in %s could not be loaded and are not shown. Fix or remove these files:\n%s"),
                         self->directory, ld->failures->str);
      viva_pack_library_set_error_message (self, message);
    }
  else
    {
      viva_pack_library_set_error_message (self, NULL);
    }

  g_task_return_boolean (owned, TRUE);
}

static int
compare_files (gconstpointer a,
               gconstpointer b)
{
  g_autofree char *na = g_file_get_basename (*(GFile * const *)a);
  g_autofree char *nb = g_file_get_basename (*(GFile * const *)b);

  return strcmp (na, nb);
}

static void
load_enumerate_next_cb (GObject      *object,
                        GAsyncResult *result,
                        gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GFileEnumerator *enumerator = G_FILE_ENUMERATOR (object);
  LoadData *ld = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  GList *infos;

  if (g_task_return_error_if_cancelled (task))
    return;

  infos = g_file_enumerator_next_files_finish (enumerator, result, &error);
  if (error != NULL)
    return g_task_return_error (task, g_steal_pointer (&error));

  if (infos == NULL)
    {
      g_ptr_array_sort (ld->files, compare_files);
      return load_next (g_steal_pointer (&task));
    }

  for (GList *l = infos; l; l = l->next)
    {
      GFileInfo *info = l->data;
      const char *name = g_file_info_get_name (info);

      if (g_file_info_get_file_type (info) == G_FILE_TYPE_REGULAR &&
          g_str_has_suffix (name, ".json") && name[0] != '.')
        g_ptr_array_add (ld->files, g_file_enumerator_get_child (enumerator, info));
    }
  g_list_free_full (infos, g_object_unref);

  g_file_enumerator_next_files_async (enumerator, 32, G_PRIORITY_DEFAULT,
                                      g_task_get_cancellable (task),
                                      load_enumerate_next_cb, g_object_ref (task));
}

static void
load_enumerate_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GFileEnumerator) enumerator = NULL;
  g_autoptr(GError) error = NULL;

  if (!(enumerator = g_file_enumerate_children_finish (G_FILE (object), result, &error)))
    {
      /* No folder yet just means no packs of the user's. */
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
        return load_next (g_steal_pointer (&task));

      return g_task_return_error (task, g_steal_pointer (&error));
    }

  g_file_enumerator_next_files_async (enumerator, 32, G_PRIORITY_DEFAULT,
                                      g_task_get_cancellable (task),
                                      load_enumerate_next_cb, g_object_ref (task));
}

/**
 * viva_pack_library_load_async:
 *
 * (Re)loads the bundled pack and every `*.json` in the library's folder,
 * replacing the list's items in one change. Files that fail to load are
 * skipped and named in #VivaPackLibrary:error-message; the load itself fails
 * only when the folder cannot be read.
 */
void
viva_pack_library_load_async (VivaPackLibrary     *self,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GFile) directory = NULL;
  LoadData *ld;

  g_return_if_fail (VIVA_IS_PACK_LIBRARY (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  if (self->bundled == NULL)
    self->bundled = viva_pack_new_bundled ();

  ld = g_new0 (LoadData, 1);
  ld->files = g_ptr_array_new_with_free_func (g_object_unref);
  ld->packs = g_ptr_array_new_with_free_func (g_object_unref);
  ld->failures = g_string_new (NULL);
  g_ptr_array_add (ld->packs, g_object_ref (self->bundled));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_pack_library_load_async);
  g_task_set_task_data (task, ld, load_data_free);

  directory = g_file_new_for_path (self->directory);
  g_file_enumerate_children_async (directory,
                                   G_FILE_ATTRIBUTE_STANDARD_NAME ","
                                   G_FILE_ATTRIBUTE_STANDARD_TYPE,
                                   G_FILE_QUERY_INFO_NONE, G_PRIORITY_DEFAULT, cancellable,
                                   load_enumerate_cb, g_steal_pointer (&task));
}

gboolean
viva_pack_library_load_finish (VivaPackLibrary  *self,
                               GAsyncResult     *result,
                               GError          **error)
{
  g_return_val_if_fail (VIVA_IS_PACK_LIBRARY (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

typedef struct
{
  VivaPack  *pack;
  GPtrArray *issues;
  char      *path;
  char      *old_path;
  GBytes    *bytes;
} ImportData;

static void
import_data_free (gpointer data)
{
  ImportData *id = data;

  g_clear_object (&id->pack);
  g_clear_pointer (&id->issues, g_ptr_array_unref);
  g_clear_pointer (&id->path, g_free);
  g_clear_pointer (&id->old_path, g_free);
  g_clear_pointer (&id->bytes, g_bytes_unref);
  g_free (id);
}

static void
import_write_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  VivaPackLibrary *self = g_task_get_source_object (task);
  ImportData *id = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = NULL;
  guint position;

  if (!viva_file_writer_write_finish (result, &error))
    return g_task_return_error (task, g_steal_pointer (&error));

  /* The pack was installed under another file name: only now that its new
   * file is complete may the old one go. */
  if (id->old_path != NULL && g_unlink (id->old_path) != 0)
    g_debug ("pack-library: could not remove %s: %s", id->old_path, g_strerror (errno));

  file = g_file_new_for_path (id->path);
  _viva_pack_set_file (id->pack, file);

  if (find_position (self, viva_pack_get_id (id->pack), &position))
    g_list_store_splice (self->packs, position, 1, (gpointer *)&id->pack, 1);
  else
    g_list_store_insert_sorted (self->packs, id->pack, compare_by_title, self);

  g_task_return_pointer (task, g_object_ref (id->pack), g_object_unref);
}

static void
import_load_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GFile) file = NULL;
  GCancellable *cancellable;
  VivaPackLibrary *self = g_task_get_source_object (task);
  ImportData *id = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;
  VivaPack *installed;

  if (g_task_return_error_if_cancelled (task))
    return;

  id->pack = viva_pack_new_from_file_finish (result, &id->issues, &error);
  if (id->pack == NULL)
    return g_task_return_error (task, g_steal_pointer (&error));

  if (self->bundled != NULL &&
      g_strcmp0 (viva_pack_get_id (id->pack), viva_pack_get_id (self->bundled)) == 0)
    return g_task_return_new_error (task, VIVA_PACK_ERROR, VIVA_PACK_ERROR_EXISTS,
                                    _("id: “%s” is the bundled pack’s id — give your pack an id of its own"),
                                    viva_pack_get_id (id->pack));

  name = g_strconcat (viva_pack_get_id (id->pack), ".json", NULL);
  id->path = g_build_filename (self->directory, name, NULL);
  id->bytes = viva_pack_to_bytes (id->pack);

  if ((installed = viva_pack_library_find_pack (self, viva_pack_get_id (id->pack))) &&
      viva_pack_get_file (installed) != NULL)
    {
      g_autofree char *old_path = g_file_get_path (viva_pack_get_file (installed));

      if (g_strcmp0 (old_path, id->path) != 0)
        id->old_path = g_steal_pointer (&old_path);
    }

  file = g_file_new_for_path (id->path);
  cancellable = g_task_get_cancellable (task);
  viva_file_writer_write_async (file, id->bytes, 0644, VIVA_FILE_WRITER_MAKE_FOLDERS, cancellable,
                                import_write_cb, g_steal_pointer (&task));
}

/**
 * viva_pack_library_import_async:
 * @file: a pack chosen by the user
 *
 * Validates the pack in @file and installs it as `<id>.json` in the
 * library's folder, replacing an installed pack with the same id (an
 * update). When the pack is invalid, or its id is the bundled pack's, or
 * writing fails, nothing installed changes.
 */
void
viva_pack_library_import_async (VivaPackLibrary     *self,
                                GFile               *file,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (VIVA_IS_PACK_LIBRARY (self));
  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  if (self->bundled == NULL)
    self->bundled = viva_pack_new_bundled ();

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_pack_library_import_async);
  g_task_set_task_data (task, g_new0 (ImportData, 1), import_data_free);

  viva_pack_new_from_file_async (file, cancellable, import_load_cb, g_steal_pointer (&task));
}

/**
 * viva_pack_library_import_finish:
 * @issues: (out) (optional) (transfer full) (element-type VivaPackIssue):
 *   what validation found (warnings too), for the import dialog to list;
 *   %NULL when the file could not even be read
 *
 * Returns: (transfer full) (nullable): the installed pack
 */
VivaPack *
viva_pack_library_import_finish (VivaPackLibrary  *self,
                                 GAsyncResult     *result,
                                 GPtrArray       **issues,
                                 GError          **error)
{
  ImportData *id;

  g_return_val_if_fail (VIVA_IS_PACK_LIBRARY (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  id = g_task_get_task_data (G_TASK (result));
  if (issues != NULL)
    *issues = id->issues ? g_ptr_array_ref (id->issues) : NULL;

  return g_task_propagate_pointer (G_TASK (result), error);
}

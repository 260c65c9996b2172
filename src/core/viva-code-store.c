/* viva-code-store.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "viva-code-store.h"
#include "viva-file-writer.h"
#include "viva-id.h"

/* The student's code, one file per problem under
 * $XDG_DATA_HOME/viva/code/<pack>/<problem>.py. Edits are debounced, then
 * handed to the file writer (viva-file-writer.c), which writes off the main
 * loop, temporary file, fsync, rename: a crash leaves the old code or the
 * new, never half of either, and an older text never lands after a newer
 * one. */

#define DEFAULT_DELAY_MS 600

struct _VivaCodeStore
{
  GObject     parent_instance;
  char       *directory;
  char       *error_message;
  GHashTable *pending;   /* path → text, waiting for the quiet spell */
  GHashTable *writing;   /* path → the newest text handed to the writer */
  GQueue      flushes;   /* GTask waiting for every pending write */
  guint       delay_ms;
  guint       timeout_id;
  guint       outstanding;
};

enum {
  PROP_0,
  PROP_DIRECTORY,
  PROP_ERROR_MESSAGE,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (VivaCodeStore, viva_code_store, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

typedef struct
{
  VivaCodeStore *store;
  char          *path;
  char          *text;
} WriteData;

static void
write_data_free (WriteData *wd)
{
  g_object_unref (wd->store);
  g_free (wd->path);
  g_free (wd->text);
  g_free (wd);
}

static char *
viva_code_store_path (VivaCodeStore *self,
                      const char    *pack_id,
                      const char    *problem_id)
{
  g_autofree char *name = g_strconcat (problem_id, ".py", NULL);

  return g_build_filename (self->directory, pack_id, name, NULL);
}

static void
viva_code_store_set_error_message (VivaCodeStore *self,
                                   const char    *message)
{
  if (g_strcmp0 (self->error_message, message) == 0)
    return;

  g_free (self->error_message);
  self->error_message = g_strdup (message);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR_MESSAGE]);
}

static void
viva_code_store_complete_flushes (VivaCodeStore *self)
{
  GTask *task;

  if (self->outstanding > 0 || g_hash_table_size (self->pending) > 0)
    return;

  while ((task = g_queue_pop_head (&self->flushes)))
    {
      if (self->error_message != NULL)
        g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED, "%s", self->error_message);
      else
        g_task_return_boolean (task, TRUE);
      g_object_unref (task);
    }
}

static void
write_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  WriteData *wd = user_data;
  VivaCodeStore *self = wd->store;
  g_autoptr(GError) error = NULL;

  g_assert (VIVA_IS_CODE_STORE (self));

  self->outstanding--;

  if (!viva_file_writer_write_finish (result, &error))
    {
      /* Keeping the message as state lets the window show it in a banner
       * while the text stays safe in the editor. */
      g_autofree char *message =
        g_strdup_printf (_("Your code could not be saved: %s. Free some disk space or check the folder’s permissions; your text is still in the editor."),
                         error->message);
      g_debug ("code-store: %s", error->message);
      viva_code_store_set_error_message (self, message);
    }
  else
    {
      viva_code_store_set_error_message (self, NULL);
    }

  /* Until the newest text is on disk, a load answers with it. */
  if (g_strcmp0 (g_hash_table_lookup (self->writing, wd->path), wd->text) == 0)
    g_hash_table_remove (self->writing, wd->path);

  viva_code_store_complete_flushes (self);
  write_data_free (wd);
}

static void
viva_code_store_write_pending (VivaCodeStore *self)
{
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, self->pending);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      g_autoptr(GFile) file = g_file_new_for_path (key);
      g_autoptr(GBytes) bytes = g_bytes_new (value, strlen (value));
      WriteData *wd = g_new0 (WriteData, 1);

      /* The store stays alive until the write is on disk, even when the
       * window closes meanwhile. */
      wd->store = g_object_ref (self);
      wd->path = g_strdup (key);
      wd->text = g_strdup (value);
      g_hash_table_insert (self->writing, g_strdup (key), g_strdup (value));
      self->outstanding++;
      viva_file_writer_write_async (file, bytes, 0600, VIVA_FILE_WRITER_MAKE_FOLDERS, NULL, write_cb, wd);
      g_hash_table_iter_remove (&iter);
    }
}

static gboolean
viva_code_store_timeout_cb (gpointer user_data)
{
  VivaCodeStore *self = user_data;

  self->timeout_id = 0;
  viva_code_store_write_pending (self);

  return G_SOURCE_REMOVE;
}

static void
viva_code_store_dispose (GObject *object)
{
  VivaCodeStore *self = (VivaCodeStore *)object;

  g_clear_handle_id (&self->timeout_id, g_source_remove);

  G_OBJECT_CLASS (viva_code_store_parent_class)->dispose (object);
}

static void
viva_code_store_finalize (GObject *object)
{
  VivaCodeStore *self = (VivaCodeStore *)object;

  g_assert (g_queue_is_empty (&self->flushes));

  g_clear_pointer (&self->pending, g_hash_table_unref);
  g_clear_pointer (&self->writing, g_hash_table_unref);
  g_clear_pointer (&self->directory, g_free);
  g_clear_pointer (&self->error_message, g_free);

  G_OBJECT_CLASS (viva_code_store_parent_class)->finalize (object);
}

static void
viva_code_store_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  VivaCodeStore *self = VIVA_CODE_STORE (object);

  switch (prop_id)
    {
    case PROP_DIRECTORY:
      g_value_set_string (value, viva_code_store_get_directory (self));
      break;

    case PROP_ERROR_MESSAGE:
      g_value_set_string (value, viva_code_store_get_error_message (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_code_store_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  VivaCodeStore *self = VIVA_CODE_STORE (object);

  switch (prop_id)
    {
    case PROP_DIRECTORY:
      g_free (self->directory);
      self->directory = g_value_dup_string (value);
      if (self->directory == NULL)
        self->directory = g_build_filename (g_get_user_data_dir (), "viva", "code", NULL);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_code_store_class_init (VivaCodeStoreClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = viva_code_store_dispose;
  object_class->finalize = viva_code_store_finalize;
  object_class->get_property = viva_code_store_get_property;
  object_class->set_property = viva_code_store_set_property;

  properties[PROP_DIRECTORY] =
    g_param_spec_string ("directory", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ERROR_MESSAGE] =
    g_param_spec_string ("error-message", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
viva_code_store_init (VivaCodeStore *self)
{
  self->pending = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->writing = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->delay_ms = DEFAULT_DELAY_MS;
  g_queue_init (&self->flushes);
}

/**
 * viva_code_store_new:
 * @directory: (nullable): where to keep code, or %NULL for
 *   `$XDG_DATA_HOME/viva/code`
 *
 * Returns: (transfer full): a new store
 */
VivaCodeStore *
viva_code_store_new (const char *directory)
{
  return g_object_new (VIVA_TYPE_CODE_STORE, "directory", directory, NULL);
}

const char *
viva_code_store_get_directory (VivaCodeStore *self)
{
  g_return_val_if_fail (VIVA_IS_CODE_STORE (self), NULL);

  return self->directory;
}

/**
 * viva_code_store_get_error_message:
 *
 * Returns: (nullable): a sentence for the student when the last write
 *   failed, %NULL once a write succeeds again
 */
const char *
viva_code_store_get_error_message (VivaCodeStore *self)
{
  g_return_val_if_fail (VIVA_IS_CODE_STORE (self), NULL);

  return self->error_message;
}

void
viva_code_store_set_delay (VivaCodeStore *self,
                           guint          delay_ms)
{
  g_return_if_fail (VIVA_IS_CODE_STORE (self));

  self->delay_ms = delay_ms;
}

static void
load_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize len = 0;

  if (!g_file_load_contents_finish (G_FILE (object), result, &contents, &len, NULL, &error))
    return g_task_return_error (task, g_steal_pointer (&error));

  if (!g_utf8_validate_len (contents, len, NULL))
    return g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                                    _("The saved code is not valid UTF-8 text"));

  g_task_return_pointer (task, g_steal_pointer (&contents), g_free);
}

/**
 * viva_code_store_load_async:
 *
 * Loads the saved code of a problem. A text queued but not yet written is
 * returned at once, so a fast switch between problems never shows old code.
 * Completes with %G_IO_ERROR_NOT_FOUND when nothing was saved.
 */
void
viva_code_store_load_async (VivaCodeStore       *self,
                            const char          *pack_id,
                            const char          *problem_id,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GFile) file = NULL;
  g_autofree char *path = NULL;
  const char *queued;

  g_return_if_fail (VIVA_IS_CODE_STORE (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_code_store_load_async);

  if (!viva_id_is_valid (pack_id) || !viva_id_is_valid (problem_id))
    return g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                                    _("“%s/%s” is not a valid problem id"),
                                    pack_id ? pack_id : "", problem_id ? problem_id : "");

  path = viva_code_store_path (self, pack_id, problem_id);

  if ((queued = g_hash_table_lookup (self->pending, path)) ||
      (queued = g_hash_table_lookup (self->writing, path)))
    return g_task_return_pointer (task, g_strdup (queued), g_free);

  file = g_file_new_for_path (path);
  g_file_load_contents_async (file, cancellable, load_cb, g_steal_pointer (&task));
}

/**
 * viva_code_store_load_finish:
 *
 * Returns: (transfer full): the saved code, or %NULL with @error set
 */
char *
viva_code_store_load_finish (VivaCodeStore  *self,
                             GAsyncResult   *result,
                             GError        **error)
{
  g_return_val_if_fail (VIVA_IS_CODE_STORE (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * viva_code_store_queue_save:
 *
 * Remembers @text as the problem's code and writes it after a short quiet
 * spell, so typing does not turn into a write per key.
 */
void
viva_code_store_queue_save (VivaCodeStore *self,
                            const char    *pack_id,
                            const char    *problem_id,
                            const char    *text)
{
  g_return_if_fail (VIVA_IS_CODE_STORE (self));
  g_return_if_fail (text != NULL);

  if (!viva_id_is_valid (pack_id) || !viva_id_is_valid (problem_id))
    {
      g_critical ("Refusing to save code for invalid ids “%s/%s”", pack_id, problem_id);
      return;
    }

  g_hash_table_insert (self->pending,
                       viva_code_store_path (self, pack_id, problem_id),
                       g_strdup (text));

  g_clear_handle_id (&self->timeout_id, g_source_remove);
  self->timeout_id = g_timeout_add (self->delay_ms, viva_code_store_timeout_cb, self);
}

gboolean
viva_code_store_has_pending (VivaCodeStore *self)
{
  g_return_val_if_fail (VIVA_IS_CODE_STORE (self), FALSE);

  return self->outstanding > 0 || g_hash_table_size (self->pending) > 0;
}

/**
 * viva_code_store_flush_async:
 *
 * Writes everything queued now and completes when it is on disk.
 */
void
viva_code_store_flush_async (VivaCodeStore       *self,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (VIVA_IS_CODE_STORE (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_code_store_flush_async);
  g_queue_push_tail (&self->flushes, task);

  g_clear_handle_id (&self->timeout_id, g_source_remove);
  viva_code_store_write_pending (self);
  viva_code_store_complete_flushes (self);
}

gboolean
viva_code_store_flush_finish (VivaCodeStore  *self,
                              GAsyncResult   *result,
                              GError        **error)
{
  g_return_val_if_fail (VIVA_IS_CODE_STORE (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

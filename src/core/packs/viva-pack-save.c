/* viva-pack-save.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-file-writer.h"
#include "viva-pack-private.h"

/* Saving a pack to a file: the one place a pack is written to disk. */

static void
save_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  if (!viva_file_writer_write_finish (result, &error))
    return g_task_return_error (task, g_steal_pointer (&error));

  g_task_return_boolean (task, TRUE);
}

/**
 * viva_pack_save_async:
 * @file: where to write the pack
 *
 * Writes the pack as JSON through the file writer: a temporary file
 * replaces @file only once complete, so a crash or a full disk leaves the
 * old file whole. The pack is serialized at the call; later edits are not
 * saved.
 */
void
viva_pack_save_async (VivaPack            *self,
                      GFile               *file,
                      GCancellable        *cancellable,
                      GAsyncReadyCallback  callback,
                      gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GBytes) bytes = NULL;

  g_return_if_fail (VIVA_IS_PACK (self));
  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_pack_save_async);

  bytes = viva_pack_to_bytes (self);
  viva_file_writer_write_async (file, bytes, 0666, VIVA_FILE_WRITER_NONE, cancellable, save_cb, g_steal_pointer (&task));
}

gboolean
viva_pack_save_finish (VivaPack      *self,
                       GAsyncResult  *result,
                       GError       **error)
{
  g_return_val_if_fail (VIVA_IS_PACK (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* viva-remote-kept.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "viva-file-writer.h"
#include "viva-remote-kept.h"

/* The file where the app keeps its part of a sitting on an exam server
 * (VivaRemoteSitting's state: this PC's copy of each problem, what it
 * knows the server holds, the integrity events not yet sent), so that an
 * app started again after typing offline sends what it had rather than
 * taking the server's older code. One file per exam, server (its
 * certificate) and student, beside the local sittings' state files, in
 * `$XDG_DATA_HOME/viva/exams/server/`; written through the file writer.
 *
 * Code the server never had, when the student has saved newer code from
 * another PC since, is set aside in a folder beside it, one file per
 * problem and time, so it is there to read and nothing is silently lost. */

struct _VivaRemoteKept
{
  GObject  parent_instance;

  char    *path;
  char    *aside_dir;
};

G_DEFINE_FINAL_TYPE (VivaRemoteKept, viva_remote_kept, G_TYPE_OBJECT)

/* An id from the server, as part of a file name: letters, digits, . _ -
 * only, never a name of its own, at most 64 bytes. */
static char *
file_part (const char *id)
{
  g_autofree char *part = g_strndup (id, 64);

  g_strcanon (part, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-", '_');
  if (part[0] == '.' || part[0] == '\0')
    return g_strconcat ("_", part, NULL);
  return g_steal_pointer (&part);
}

static void
viva_remote_kept_finalize (GObject *object)
{
  VivaRemoteKept *self = (VivaRemoteKept *)object;

  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->aside_dir, g_free);

  G_OBJECT_CLASS (viva_remote_kept_parent_class)->finalize (object);
}

static void
viva_remote_kept_class_init (VivaRemoteKeptClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = viva_remote_kept_finalize;
}

static void
viva_remote_kept_init (VivaRemoteKept *self)
{
}

/**
 * viva_remote_kept_new:
 * @state_dir: (nullable): the folder, by default
 *   `$XDG_DATA_HOME/viva/exams/server`
 * @exam_id: the exam's id on the server
 * @fingerprint: the server's certificate's (the exam link's)
 * @student_id: who signed in
 *
 * Returns: (transfer full): the sitting's kept state, not read yet
 */
VivaRemoteKept *
viva_remote_kept_new (const char *state_dir,
                      const char *exam_id,
                      const char *fingerprint,
                      const char *student_id)
{
  VivaRemoteKept *self;
  g_autofree char *dir = NULL;
  g_autofree char *key = NULL;
  g_autofree char *digest = NULL;
  g_autofree char *safe_id = NULL;
  g_autofree char *name = NULL;

  g_return_val_if_fail (exam_id != NULL, NULL);
  g_return_val_if_fail (fingerprint != NULL, NULL);
  g_return_val_if_fail (student_id != NULL, NULL);

  self = g_object_new (VIVA_TYPE_REMOTE_KEPT, NULL);
  dir = state_dir ? g_strdup (state_dir) : g_build_filename (g_get_user_data_dir (), "viva", "exams", "server", NULL);
  /* The exam id is the link's (letters, digits, . _ -); the student's id
   * is typed, so it is in the digest only. */
  key = g_strdup_printf ("%s\n%s\n%s", fingerprint, exam_id, student_id);
  digest = g_compute_checksum_for_string (G_CHECKSUM_SHA256, key, -1);
  safe_id = file_part (exam_id);
  name = g_strdup_printf ("%s-%.16s", safe_id, digest);
  self->path = g_strdup_printf ("%s%s%s.json", dir, G_DIR_SEPARATOR_S, name);
  self->aside_dir = g_strdup_printf ("%s%s%s-aside", dir, G_DIR_SEPARATOR_S, name);
  return self;
}

const char *
viva_remote_kept_get_path (VivaRemoteKept *self)
{
  g_return_val_if_fail (VIVA_IS_REMOTE_KEPT (self), NULL);

  return self->path;
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  if (!json_parser_load_from_file (parser, task_data, &error))
    {
      /* Never kept on this account: nothing to take back. */
      if (g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        g_task_return_pointer (task, NULL, NULL);
      else
        g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  g_task_return_pointer (task, json_node_ref (json_parser_get_root (parser)), (GDestroyNotify)json_node_unref);
}

/**
 * viva_remote_kept_load_async:
 *
 * Reads the kept state off the main loop.
 */
void
viva_remote_kept_load_async (VivaRemoteKept      *self,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (VIVA_IS_REMOTE_KEPT (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_remote_kept_load_async);
  g_task_set_task_data (task, g_strdup (self->path), g_free);
  g_task_run_in_thread (task, load_thread);
}

/**
 * viva_remote_kept_load_finish:
 *
 * Returns: (transfer full) (nullable): the state last kept, %NULL without
 *   @error when none was
 */
JsonNode *
viva_remote_kept_load_finish (VivaRemoteKept  *self,
                              GAsyncResult    *result,
                              GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
kept_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!viva_file_writer_write_finish (result, &error))
    g_debug ("remote: could not keep the sitting's state: %s", error->message);
}

/**
 * viva_remote_kept_keep:
 * @state: VivaRemoteSitting's state
 *
 * Writes @state through the file writer (a #VivaRemoteSittingKeepFunc).
 */
void
viva_remote_kept_keep (VivaRemoteKept *self,
                       JsonNode       *state)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GBytes) bytes = NULL;
  char *text;

  g_return_if_fail (VIVA_IS_REMOTE_KEPT (self));
  g_return_if_fail (state != NULL);

  text = json_to_string (state, FALSE);
  bytes = g_bytes_new_take (text, strlen (text));
  file = g_file_new_for_path (self->path);
  viva_file_writer_write_async (file, bytes, 0600, VIVA_FILE_WRITER_MAKE_FOLDERS, NULL, kept_cb, NULL);
}

/**
 * viva_remote_kept_set_aside:
 * @problem_id: the problem whose code it is
 * @code: this PC's code the server never had
 *
 * Keeps @code in a file of its own beside the state, where the student
 * finds it (the front says where), written through the file writer.
 *
 * Returns: (transfer full): the file's path
 */
char *
viva_remote_kept_set_aside (VivaRemoteKept *self,
                            const char     *problem_id,
                            const char     *code)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *when = g_date_time_format (now, "%Y%m%d-%H%M%S");
  g_autofree char *safe_id = NULL;
  g_autofree char *name = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GBytes) bytes = NULL;

  g_return_val_if_fail (VIVA_IS_REMOTE_KEPT (self), NULL);
  g_return_val_if_fail (problem_id != NULL, NULL);
  g_return_val_if_fail (code != NULL, NULL);

  safe_id = file_part (problem_id);
  name = g_strdup_printf ("%s-%s.py", safe_id, when);
  path = g_build_filename (self->aside_dir, name, NULL);
  g_message ("exam server: this PC's code of %s, never saved on the server, is kept in %s", problem_id, path);

  file = g_file_new_for_path (path);
  bytes = g_bytes_new (code, strlen (code));
  viva_file_writer_write_async (file, bytes, 0600, VIVA_FILE_WRITER_MAKE_FOLDERS, NULL, kept_cb, NULL);
  return g_steal_pointer (&path);
}

/* viva-exam-sitting-state.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "viva-exam-sitting-private.h"
#include "viva-file-writer.h"
#include "viva-json-member.h"

/* The sitting's state: who sits it and since when, with the hand-in's
 * lists, kept in a small file of the account's (or by the front that made
 * the sitting kept elsewhere), and taken back from it. */

static void
state_written_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!viva_file_writer_write_finish (result, &error))
    g_debug ("sitting: could not keep the sitting's state: %s", error->message);
}

/* A few hundred bytes in the user's own folder (or the front's keeping),
 * at the start and when the hand-in's lists change. The file writer keeps
 * only the newest of several waiting writes. */
void
_viva_exam_sitting_save (VivaExamSitting *self)
{
  g_autofree char *when = NULL;
  g_autoptr(JsonBuilder) builder = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GBytes) bytes = NULL;
  char *text;

  if (self->started == NULL)
    return;

  when = g_date_time_format_iso8601 (self->started);
  builder = json_builder_new ();
  json_builder_begin_object (builder);
  /* An exam held by a server, read from its database, has no path. */
  if (viva_exam_file_get_path (self->exam) != NULL)
    {
      json_builder_set_member_name (builder, "exam");
      json_builder_add_string_value (builder, viva_exam_file_get_path (self->exam));
    }
  json_builder_set_member_name (builder, "student_name");
  json_builder_add_string_value (builder, self->student_name);
  json_builder_set_member_name (builder, "student_id");
  json_builder_add_string_value (builder, self->student_id);
  json_builder_set_member_name (builder, "started");
  json_builder_add_string_value (builder, when);
  viva_exam_hand_in_save (self->hand_in, builder);
  if (self->grading_limit != NULL)
    viva_grading_limit_save (self->grading_limit, builder);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);

  if (self->keep_func != NULL)
    return self->keep_func (self, root, self->keep_data);

  text = json_to_string (root, TRUE);
  file = g_file_new_for_path (self->state_path);
  bytes = g_bytes_new_take (text, strlen (text));
  viva_file_writer_write_async (file, bytes, 0600, VIVA_FILE_WRITER_MAKE_FOLDERS, NULL, state_written_cb, NULL);
}

/* Takes the sitting back from its state file's contents; FALSE if they
 * are not a sitting's. */
static gboolean
viva_exam_sitting_apply (VivaExamSitting *self,
                         JsonNode        *node)
{
  JsonObject *root;
  const char *name, *id, *when;
  g_autoptr(GDateTime) started = NULL;

  if (self->started != NULL || node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return FALSE;

  root = json_node_get_object (node);
  name = viva_json_member_string (root, "student_name");
  id = viva_json_member_string (root, "student_id");
  when = viva_json_member_string (root, "started");
  if (name == NULL || id == NULL || when == NULL || (started = g_date_time_new_from_iso8601 (when, NULL)) == NULL)
    return FALSE;

  self->student_name = g_strdup (name);
  self->student_id = g_strdup (id);
  self->started = g_steal_pointer (&started);
  viva_exam_hand_in_restore (self->hand_in, root);
  if (self->grading_limit != NULL)
    viva_grading_limit_restore (self->grading_limit, root);
  _viva_exam_sitting_start_clock (self);

  return TRUE;
}

static JsonNode *
read_state (const char  *path,
            GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) local_error = NULL;

  if (!json_parser_load_from_file (parser, path, &local_error))
    {
      /* Never begun on this account: not an error. */
      if (!g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

  return json_node_ref (json_parser_get_root (parser));
}

/**
 * viva_exam_sitting_restore:
 *
 * Takes back a sitting begun before on this account: who, since when and
 * the hand-in's lists. Blocks on a small file: for viva-cli and threads
 * of their own; the app uses viva_exam_sitting_restore_async().
 *
 * Returns: whether the sitting had begun; %FALSE with @error set only when
 *   its state file exists and cannot be read
 */
gboolean
viva_exam_sitting_restore (VivaExamSitting  *self,
                           GError          **error)
{
  g_autoptr(JsonNode) node = NULL;

  g_return_val_if_fail (VIVA_IS_EXAM_SITTING (self), FALSE);

  if (self->state_path == NULL)
    return FALSE;

  node = read_state (self->state_path, error);
  return viva_exam_sitting_apply (self, node);
}

/**
 * viva_exam_sitting_restore_state:
 * @state: (nullable): what the sitting's #VivaExamSittingKeepFunc was
 *   given last
 *
 * Takes back a kept sitting (viva_exam_sitting_new_kept()) as
 * viva_exam_sitting_restore() takes back one from its file. The code its
 * hand-in is to hand in is not part of the state: give it to the hand-in
 * before this, so that a sitting restored after its time hands in what the
 * front held (an app's sitting restored after the time is given none).
 *
 * Returns: whether @state is a sitting's, and the sitting was not begun
 */
gboolean
viva_exam_sitting_restore_state (VivaExamSitting *self,
                                 JsonNode        *state)
{
  g_return_val_if_fail (VIVA_IS_EXAM_SITTING (self), FALSE);

  return viva_exam_sitting_apply (self, state);
}

static void
restore_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  GError *error = NULL;
  JsonNode *node = read_state (task_data, &error);

  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, node, node ? (GDestroyNotify)json_node_unref : NULL);
}

/**
 * viva_exam_sitting_restore_async:
 *
 * viva_exam_sitting_restore(), with the file read off the main loop.
 */
void
viva_exam_sitting_restore_async (VivaExamSitting     *self,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (VIVA_IS_EXAM_SITTING (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_exam_sitting_restore_async);
  if (self->state_path == NULL)
    return g_task_return_pointer (task, NULL, NULL);
  g_task_set_task_data (task, g_strdup (self->state_path), g_free);
  g_task_run_in_thread (task, restore_thread);
}

/**
 * viva_exam_sitting_restore_finish:
 *
 * Returns: whether the sitting had begun, as viva_exam_sitting_restore()
 */
gboolean
viva_exam_sitting_restore_finish (VivaExamSitting  *self,
                                  GAsyncResult     *result,
                                  GError          **error)
{
  g_autoptr(JsonNode) node = NULL;
  GError *local_error = NULL;

  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  node = g_task_propagate_pointer (G_TASK (result), &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return FALSE;
    }

  return viva_exam_sitting_apply (self, node);
}


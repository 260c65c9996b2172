/* viva-pack-load.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-pack-private.h"

/* Loading a pack: from its bytes, from a file without blocking the main loop
 * (the parse runs in a thread), and the pack compiled into the program. The
 * checks themselves are viva-pack-parser.c's; the objects viva-pack-json.c
 * builds. */

#define BUNDLED_PACK RESOURCE_PREFIX "/core/packs/intro-ai.json"

/**
 * viva_pack_new_from_bytes_full:
 * @bytes: the pack's JSON text
 * @issues: (out) (optional) (transfer full) (element-type VivaPackIssue):
 *   everything wrong with the pack, warnings included, each with its JSON
 *   path; set even when loading fails
 * @error: the first error, with its #VivaPackError code
 *
 * Reads and validates a pack. Any error-level issue fails the load. Never
 * crashes on hostile input: size, binary data, encoding and nesting are
 * checked before the JSON parser sees the text.
 *
 * Returns: (transfer full) (nullable): the pack
 */
VivaPack *
viva_pack_new_from_bytes_full (GBytes     *bytes,
                               GPtrArray **issues,
                               GError    **error)
{
  g_autoptr(GPtrArray) found = viva_pack_issues_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(VivaPack) pack = NULL;
  const char *data;
  gsize len;

  g_return_val_if_fail (bytes != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  data = g_bytes_get_data (bytes, &len);

  if ((root = _viva_pack_parse (data, len, found)) != NULL &&
      _viva_pack_validate (root, found) &&
      viva_pack_issues_count_errors (found) == 0)
    pack = _viva_pack_new_from_node (root);
  else
    viva_pack_issues_to_error (found, error);

  if (issues != NULL)
    *issues = g_steal_pointer (&found);

  return g_steal_pointer (&pack);
}

/**
 * viva_pack_new_from_bytes:
 * @bytes: the pack's JSON text
 *
 * Like viva_pack_new_from_bytes_full() without the list of issues.
 *
 * Returns: (transfer full): the pack, or %NULL with @error set to a
 *   sentence that says what is wrong
 */
VivaPack *
viva_pack_new_from_bytes (GBytes  *bytes,
                          GError **error)
{
  return viva_pack_new_from_bytes_full (bytes, NULL, error);
}

typedef struct
{
  GBytes    *bytes;
  JsonNode  *root;
  GPtrArray *issues;
} LoadData;

static void
load_data_free (gpointer data)
{
  LoadData *ld = data;

  g_clear_pointer (&ld->bytes, g_bytes_unref);
  g_clear_pointer (&ld->root, json_node_unref);
  g_clear_pointer (&ld->issues, g_ptr_array_unref);
  g_free (ld);
}

static void
load_parse_thread (GTask        *task,
                   gpointer      source_object,
                   gpointer      task_data,
                   GCancellable *cancellable)
{
  LoadData *ld = task_data;
  const char *data;
  gsize len;

  data = g_bytes_get_data (ld->bytes, &len);
  if ((ld->root = _viva_pack_parse (data, len, ld->issues)) != NULL)
    _viva_pack_validate (ld->root, ld->issues);

  g_task_return_boolean (task, TRUE);
}

static void
load_parse_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  LoadData *ld = g_task_get_task_data (task);
  g_autoptr(VivaPack) pack = NULL;
  g_autoptr(GError) error = NULL;

  if (g_task_return_error_if_cancelled (task))
    return;

  /* The thread always completes; what it found is in the issues. */
  if (!g_task_propagate_boolean (G_TASK (result), &error))
    return g_task_return_error (task, g_steal_pointer (&error));

  if (!viva_pack_issues_to_error (ld->issues, &error))
    return g_task_return_error (task, g_steal_pointer (&error));

  pack = _viva_pack_new_from_node (ld->root);
  _viva_pack_set_file (pack, G_FILE (g_task_get_source_object (task)));
  g_task_return_pointer (task, g_steal_pointer (&pack), g_object_unref);
}

static void
load_contents_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  LoadData *ld = g_task_get_task_data (task);
  g_autoptr(GTask) parse = NULL;
  g_autoptr(GError) error = NULL;
  char *contents = NULL;
  gsize len = 0;

  if (!g_file_load_contents_finish (G_FILE (object), result, &contents, &len, NULL, &error))
    return g_task_return_error (task, g_steal_pointer (&error));

  ld->bytes = g_bytes_new_take (contents, len);

  /* Parsing a large file takes long enough to stutter the UI. The thread
   * only sees plain data: bytes in, a JsonNode and issues out. */
  parse = g_task_new (NULL, g_task_get_cancellable (task), load_parse_cb, g_object_ref (task));
  g_task_set_source_tag (parse, load_contents_cb);
  g_task_set_task_data (parse, ld, NULL);
  g_task_run_in_thread (parse, load_parse_thread);
}

static void
load_query_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  LoadData *ld = g_task_get_task_data (task);
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GError) error = NULL;
  GCancellable *cancellable;

  if (!(info = g_file_query_info_finish (G_FILE (object), result, &error)))
    {
      g_autofree char *name = g_file_get_parse_name (G_FILE (object));

      /* GIO's wording is about "getting information"; say what it means. */
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
        return g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                                        _("%s does not exist — check the file’s name and folder"), name);
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED))
        return g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED,
                                        _("%s cannot be read: permission denied — copy it somewhere you can read, or ask its owner"),
                                        name);
      return g_task_return_error (task, g_steal_pointer (&error));
    }

  if (g_file_info_get_file_type (info) == G_FILE_TYPE_DIRECTORY)
    return g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY,
                                    _("“%s” is a folder — choose a pack’s .json file"),
                                    g_file_info_get_display_name (info));

  /* Refused before reading, so a huge file never fills memory. */
  if (g_file_info_get_size (info) > VIVA_PACK_MAX_SIZE)
    {
      _viva_pack_check_bytes ("", (gsize)VIVA_PACK_MAX_SIZE + 1, ld->issues);
      viva_pack_issues_to_error (ld->issues, &error);
      return g_task_return_error (task, g_steal_pointer (&error));
    }

  cancellable = g_task_get_cancellable (task);
  g_file_load_contents_async (G_FILE (object), cancellable,
                              load_contents_cb, g_steal_pointer (&task));
}

/**
 * viva_pack_new_from_file_async:
 *
 * Reads, parses and validates the pack in @file without blocking the main
 * loop. Files larger than any pack are refused before they are read.
 */
void
viva_pack_new_from_file_async (GFile               *file,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  LoadData *ld;

  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  ld = g_new0 (LoadData, 1);
  ld->issues = viva_pack_issues_new ();

  task = g_task_new (file, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_pack_new_from_file_async);
  g_task_set_task_data (task, ld, load_data_free);

  g_file_query_info_async (file,
                           G_FILE_ATTRIBUTE_STANDARD_SIZE ","
                           G_FILE_ATTRIBUTE_STANDARD_TYPE ","
                           G_FILE_ATTRIBUTE_STANDARD_DISPLAY_NAME,
                           G_FILE_QUERY_INFO_NONE, G_PRIORITY_DEFAULT, cancellable,
                           load_query_cb, g_steal_pointer (&task));
}

/**
 * viva_pack_new_from_file_finish:
 * @issues: (out) (optional) (transfer full) (element-type VivaPackIssue):
 *   what validation found, also when it fails; empty when the file could
 *   not be read at all
 *
 * Returns: (transfer full) (nullable): the pack; its #VivaPack:file is the
 *   file it was read from
 */
VivaPack *
viva_pack_new_from_file_finish (GAsyncResult  *result,
                                GPtrArray    **issues,
                                GError       **error)
{
  LoadData *ld;

  g_return_val_if_fail (G_IS_TASK (result), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == viva_pack_new_from_file_async, NULL);

  ld = g_task_get_task_data (G_TASK (result));
  if (issues != NULL)
    *issues = g_ptr_array_ref (ld->issues);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * viva_pack_new_bundled:
 *
 * Returns: (transfer full): the "Introduction to AI" pack compiled into the
 *   program. A test validates it, so failing to load it is a bug.
 */
VivaPack *
viva_pack_new_bundled (void)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  VivaPack *pack;

  bytes = g_resources_lookup_data (BUNDLED_PACK, 0, &error);
  g_assert_no_error (error);

  pack = viva_pack_new_from_bytes (bytes, &error);
  g_assert_no_error (error);

  return pack;
}

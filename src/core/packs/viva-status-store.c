/* viva-status-store.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "viva-file-writer.h"
#include "viva-id.h"
#include "viva-status-store.h"

/* Where the student stands on each problem, for the problem list: kept in
 * one small JSON file, $XDG_DATA_HOME/viva/status.json. Every change is
 * written at once (they are rare: a first clean run, a finished defense)
 * by the file writer (viva-file-writer.c): off the main loop, one write at
 * a time, each a complete file renamed over the old one. */

#define STATUS_FORMAT   1
#define MAX_STATUS_SIZE (4 * 1024 * 1024)

typedef struct
{
  VivaProblemStatus  status;
  double             score;
  gboolean           passed;
  char              *updated;
} Entry;

struct _VivaStatusStore
{
  GObject     parent_instance;
  char       *path;
  char       *error_message;
  GHashTable *entries;   /* "pack/problem" → Entry */
  GQueue      flushes;
  guint       outstanding;   /* writes not yet on disk */
};

enum {
  PROP_0,
  PROP_PATH,
  PROP_ERROR_MESSAGE,
  N_PROPS
};

enum {
  CHANGED,
  N_SIGNALS
};

G_DEFINE_FINAL_TYPE (VivaStatusStore, viva_status_store, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static const char * const status_names[] = { "not-started", "runs", "defended" };

static void viva_status_store_write (VivaStatusStore *self);

static void
entry_free (gpointer data)
{
  Entry *entry = data;

  g_free (entry->updated);
  g_free (entry);
}

static char *
make_key (const char *pack_id,
          const char *problem_id)
{
  /* Ids never hold a slash, so the key cannot be ambiguous. */
  return g_strconcat (pack_id, "/", problem_id, NULL);
}

static void
viva_status_store_set_error_message (VivaStatusStore *self,
                                     const char      *message)
{
  if (g_strcmp0 (self->error_message, message) == 0)
    return;

  g_free (self->error_message);
  self->error_message = g_strdup (message);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR_MESSAGE]);
}

static void
viva_status_store_finalize (GObject *object)
{
  VivaStatusStore *self = (VivaStatusStore *)object;

  g_assert (g_queue_is_empty (&self->flushes));

  g_clear_pointer (&self->entries, g_hash_table_unref);
  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->error_message, g_free);

  G_OBJECT_CLASS (viva_status_store_parent_class)->finalize (object);
}

static void
viva_status_store_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  VivaStatusStore *self = VIVA_STATUS_STORE (object);

  switch (prop_id)
    {
    case PROP_PATH:
      g_value_set_string (value, viva_status_store_get_path (self));
      break;

    case PROP_ERROR_MESSAGE:
      g_value_set_string (value, viva_status_store_get_error_message (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_status_store_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  VivaStatusStore *self = VIVA_STATUS_STORE (object);

  switch (prop_id)
    {
    case PROP_PATH:
      self->path = g_value_dup_string (value);
      if (self->path == NULL)
        self->path = g_build_filename (g_get_user_data_dir (), "viva", "status.json", NULL);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_status_store_class_init (VivaStatusStoreClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = viva_status_store_finalize;
  object_class->get_property = viva_status_store_get_property;
  object_class->set_property = viva_status_store_set_property;

  properties[PROP_PATH] =
    g_param_spec_string ("path", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ERROR_MESSAGE] =
    g_param_spec_string ("error-message", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * VivaStatusStore::changed:
   * @pack_id: the pack's id
   * @problem_id: the problem's id
   *
   * A problem's status, score or verdict changed.
   */
  signals[CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_STRING);
}

static void
viva_status_store_init (VivaStatusStore *self)
{
  self->entries = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, entry_free);
  g_queue_init (&self->flushes);
}

/**
 * viva_status_store_new:
 * @path: (nullable): the file to keep the statuses in, or %NULL for
 *   `$XDG_DATA_HOME/viva/status.json`
 *
 * Returns: (transfer full): an empty store; load it with
 *   viva_status_store_load_async()
 */
VivaStatusStore *
viva_status_store_new (const char *path)
{
  return g_object_new (VIVA_TYPE_STATUS_STORE, "path", path, NULL);
}

const char *
viva_status_store_get_path (VivaStatusStore *self)
{
  g_return_val_if_fail (VIVA_IS_STATUS_STORE (self), NULL);

  return self->path;
}

/**
 * viva_status_store_get_error_message:
 *
 * Returns: (nullable): a sentence for the student when the file could not be
 *   read or written; %NULL once a write succeeds
 */
const char *
viva_status_store_get_error_message (VivaStatusStore *self)
{
  g_return_val_if_fail (VIVA_IS_STATUS_STORE (self), NULL);

  return self->error_message;
}

static gboolean
status_from_string (const char        *str,
                    VivaProblemStatus *status)
{
  for (guint i = 0; i < G_N_ELEMENTS (status_names); i++)
    if (g_strcmp0 (str, status_names[i]) == 0)
      {
        *status = i;
        return TRUE;
      }

  return FALSE;
}

/* Reads what it can: an entry with a bad id or status is skipped rather
 * than costing the student every other entry. */
static gboolean
viva_status_store_parse (VivaStatusStore  *self,
                         const char       *data,
                         gsize             len,
                         GError          **error)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  JsonObject *root, *packs;
  JsonObjectIter pack_iter;
  const char *pack_id;
  JsonNode *pack_node;

  if (len > MAX_STATUS_SIZE || !g_utf8_validate_len (data, len, NULL) || memchr (data, 0, len) != NULL ||
      !json_parser_load_from_data (parser, data, len, NULL) ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("Your progress on the problems could not be read from %s, so every problem shows as not started; your code is not affected"),
                   self->path);
      return FALSE;
    }

  root = json_node_get_object (json_parser_get_root (parser));
  if (!json_object_has_member (root, "packs") ||
      !JSON_NODE_HOLDS_OBJECT (json_object_get_member (root, "packs")))
    return TRUE;

  packs = json_object_get_object_member (root, "packs");
  json_object_iter_init_ordered (&pack_iter, packs);
  while (json_object_iter_next_ordered (&pack_iter, &pack_id, &pack_node))
    {
      JsonObjectIter problem_iter;
      const char *problem_id;
      JsonNode *problem_node;

      if (!viva_id_is_valid (pack_id) || !JSON_NODE_HOLDS_OBJECT (pack_node))
        continue;

      json_object_iter_init_ordered (&problem_iter, json_node_get_object (pack_node));
      while (json_object_iter_next_ordered (&problem_iter, &problem_id, &problem_node))
        {
          g_autofree char *key = NULL;
          JsonObject *object;
          Entry *entry;
          VivaProblemStatus status;

          if (!viva_id_is_valid (problem_id) || !JSON_NODE_HOLDS_OBJECT (problem_node))
            continue;

          object = json_node_get_object (problem_node);
          if (!status_from_string (json_object_get_string_member_with_default (object, "status", NULL), &status) ||
              status == VIVA_PROBLEM_STATUS_NOT_STARTED)
            continue;

          key = make_key (pack_id, problem_id);

          /* A change made while the file was loading is newer. */
          if (g_hash_table_contains (self->entries, key))
            continue;

          entry = g_new0 (Entry, 1);
          entry->status = status;
          entry->score = json_object_get_double_member_with_default (object, "score", 0.0);
          entry->passed = json_object_get_boolean_member_with_default (object, "passed", FALSE);
          entry->updated = g_strdup (json_object_get_string_member_with_default (object, "updated", NULL));
          g_hash_table_insert (self->entries, g_steal_pointer (&key), entry);
          g_signal_emit (self, signals[CHANGED], 0, pack_id, problem_id);
        }
    }

  return TRUE;
}

static void
load_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  VivaStatusStore *self = g_task_get_source_object (task);
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize len = 0;

  if (!g_file_load_contents_finish (G_FILE (object), result, &contents, &len, NULL, &error))
    {
      /* No file yet: nothing started. */
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
        return g_task_return_boolean (task, TRUE);

      viva_status_store_set_error_message (self, error->message);
      return g_task_return_error (task, g_steal_pointer (&error));
    }

  if (!viva_status_store_parse (self, contents, len, &error))
    {
      viva_status_store_set_error_message (self, error->message);
      return g_task_return_error (task, g_steal_pointer (&error));
    }

  g_task_return_boolean (task, TRUE);
}

/**
 * viva_status_store_load_async:
 *
 * Reads the saved statuses. A missing file is not an error. An unreadable
 * one fails the load and sets #VivaStatusStore:error-message, but the store
 * stays usable, starting empty.
 */
void
viva_status_store_load_async (VivaStatusStore     *self,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GFile) file = NULL;

  g_return_if_fail (VIVA_IS_STATUS_STORE (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_status_store_load_async);

  file = g_file_new_for_path (self->path);
  g_file_load_contents_async (file, cancellable, load_cb, g_steal_pointer (&task));
}

gboolean
viva_status_store_load_finish (VivaStatusStore  *self,
                               GAsyncResult     *result,
                               GError          **error)
{
  g_return_val_if_fail (VIVA_IS_STATUS_STORE (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static Entry *
lookup (VivaStatusStore *self,
        const char      *pack_id,
        const char      *problem_id)
{
  g_autofree char *key = make_key (pack_id, problem_id);

  return g_hash_table_lookup (self->entries, key);
}

VivaProblemStatus
viva_status_store_get_status (VivaStatusStore *self,
                              const char      *pack_id,
                              const char      *problem_id)
{
  Entry *entry;

  g_return_val_if_fail (VIVA_IS_STATUS_STORE (self), VIVA_PROBLEM_STATUS_NOT_STARTED);

  entry = lookup (self, pack_id, problem_id);
  return entry ? entry->status : VIVA_PROBLEM_STATUS_NOT_STARTED;
}

/**
 * viva_status_store_get_verdict:
 * @score: (out) (optional): the last defense's score
 * @passed: (out) (optional): whether the last defense passed
 *
 * Returns: %TRUE when the problem was defended; the outs are set only then
 */
gboolean
viva_status_store_get_verdict (VivaStatusStore *self,
                               const char      *pack_id,
                               const char      *problem_id,
                               double          *score,
                               gboolean        *passed)
{
  Entry *entry;

  g_return_val_if_fail (VIVA_IS_STATUS_STORE (self), FALSE);

  entry = lookup (self, pack_id, problem_id);
  if (entry == NULL || entry->status != VIVA_PROBLEM_STATUS_DEFENDED)
    return FALSE;

  if (score != NULL)
    *score = entry->score;
  if (passed != NULL)
    *passed = entry->passed;

  return TRUE;
}

static void
viva_status_store_changed (VivaStatusStore *self,
                           const char      *pack_id,
                           const char      *problem_id)
{
  viva_status_store_write (self);
  g_signal_emit (self, signals[CHANGED], 0, pack_id, problem_id);
}

static Entry *
ensure_entry (VivaStatusStore *self,
              const char      *pack_id,
              const char      *problem_id)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  Entry *entry = lookup (self, pack_id, problem_id);

  if (entry == NULL)
    {
      entry = g_new0 (Entry, 1);
      g_hash_table_insert (self->entries, make_key (pack_id, problem_id), entry);
    }

  g_free (entry->updated);
  entry->updated = g_date_time_format_iso8601 (now);

  return entry;
}

/**
 * viva_status_store_mark_runs:
 *
 * Notes that the student's code for the problem ran without an error. A
 * defended problem stays defended.
 */
void
viva_status_store_mark_runs (VivaStatusStore *self,
                             const char      *pack_id,
                             const char      *problem_id)
{
  Entry *entry;

  g_return_if_fail (VIVA_IS_STATUS_STORE (self));
  g_return_if_fail (viva_id_is_valid (pack_id));
  g_return_if_fail (viva_id_is_valid (problem_id));

  if (viva_status_store_get_status (self, pack_id, problem_id) != VIVA_PROBLEM_STATUS_NOT_STARTED)
    return;

  entry = ensure_entry (self, pack_id, problem_id);
  entry->status = VIVA_PROBLEM_STATUS_RUNS;
  viva_status_store_changed (self, pack_id, problem_id);
}

/**
 * viva_status_store_mark_defended:
 * @score: the verdict's score
 * @passed: whether the verdict was a pass
 *
 * Records a finished defense; the latest one is what the list shows.
 */
void
viva_status_store_mark_defended (VivaStatusStore *self,
                                 const char      *pack_id,
                                 const char      *problem_id,
                                 double           score,
                                 gboolean         passed)
{
  Entry *entry;

  g_return_if_fail (VIVA_IS_STATUS_STORE (self));
  g_return_if_fail (viva_id_is_valid (pack_id));
  g_return_if_fail (viva_id_is_valid (problem_id));
  g_return_if_fail (isfinite (score));

  entry = ensure_entry (self, pack_id, problem_id);
  entry->status = VIVA_PROBLEM_STATUS_DEFENDED;
  entry->score = score;
  entry->passed = !!passed;
  viva_status_store_changed (self, pack_id, problem_id);
}

/**
 * viva_status_store_forget:
 *
 * Sets the problem back to not started.
 */
void
viva_status_store_forget (VivaStatusStore *self,
                          const char      *pack_id,
                          const char      *problem_id)
{
  g_autofree char *key = NULL;

  g_return_if_fail (VIVA_IS_STATUS_STORE (self));

  key = make_key (pack_id, problem_id);
  if (g_hash_table_remove (self->entries, key))
    viva_status_store_changed (self, pack_id, problem_id);
}

static int
compare_keys (gconstpointer a,
              gconstpointer b)
{
  return strcmp (*(const char * const *)a, *(const char * const *)b);
}

/* Sorted, so the file changes only where the statuses do. */
static char *
viva_status_store_serialize (VivaStatusStore *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree gpointer *keys = NULL;
  g_autofree char *current_pack = NULL;
  guint n_keys;

  keys = g_hash_table_get_keys_as_array (self->entries, &n_keys);
  qsort (keys, n_keys, sizeof (gpointer), compare_keys);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "version");
  json_builder_add_int_value (builder, STATUS_FORMAT);
  json_builder_set_member_name (builder, "packs");
  json_builder_begin_object (builder);

  for (guint i = 0; i < n_keys; i++)
    {
      const char *key = keys[i];
      const char *slash = strchr (key, '/');
      g_autofree char *pack_id = g_strndup (key, slash - key);
      Entry *entry = g_hash_table_lookup (self->entries, key);

      if (g_strcmp0 (current_pack, pack_id) != 0)
        {
          if (current_pack != NULL)
            json_builder_end_object (builder);
          json_builder_set_member_name (builder, pack_id);
          json_builder_begin_object (builder);
          g_free (current_pack);
          current_pack = g_strdup (pack_id);
        }

      json_builder_set_member_name (builder, slash + 1);
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "status");
      json_builder_add_string_value (builder, status_names[entry->status]);
      if (entry->status == VIVA_PROBLEM_STATUS_DEFENDED)
        {
          json_builder_set_member_name (builder, "score");
          json_builder_add_double_value (builder, entry->score);
          json_builder_set_member_name (builder, "passed");
          json_builder_add_boolean_value (builder, entry->passed);
        }
      if (entry->updated != NULL)
        {
          json_builder_set_member_name (builder, "updated");
          json_builder_add_string_value (builder, entry->updated);
        }
      json_builder_end_object (builder);
    }

  if (current_pack != NULL)
    json_builder_end_object (builder);
  json_builder_end_object (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);

  return json_generator_to_data (generator, NULL);
}

static void
viva_status_store_complete_flushes (VivaStatusStore *self)
{
  GTask *task;

  if (self->outstanding > 0)
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
  g_autoptr(VivaStatusStore) self = user_data;
  g_autoptr(GError) error = NULL;

  self->outstanding--;

  /* A failed write is not retried in a loop; the next change tries again. */
  if (!viva_file_writer_write_finish (result, &error))
    {
      g_autofree char *message =
        g_strdup_printf (_("Your progress on the problems could not be saved: %s. Free some disk space or check the folder’s permissions."),
                         error->message);
      viva_status_store_set_error_message (self, message);
    }
  else
    {
      viva_status_store_set_error_message (self, NULL);
    }

  viva_status_store_complete_flushes (self);
}

static void
viva_status_store_write (VivaStatusStore *self)
{
  g_autoptr(GFile) file = g_file_new_for_path (self->path);
  char *text = viva_status_store_serialize (self);
  g_autoptr(GBytes) bytes = g_bytes_new_take (text, strlen (text));

  /* The writer keeps only the newest of the texts waiting, and the store
   * alive until it is on disk, even if the window closes meanwhile. */
  self->outstanding++;
  viva_file_writer_write_async (file, bytes, 0600, VIVA_FILE_WRITER_MAKE_FOLDERS, NULL, write_cb, g_object_ref (self));
}

gboolean
viva_status_store_has_pending (VivaStatusStore *self)
{
  g_return_val_if_fail (VIVA_IS_STATUS_STORE (self), FALSE);

  return self->outstanding > 0;
}

/**
 * viva_status_store_flush_async:
 *
 * Completes once every change so far is on disk, or with the error that
 * stopped it.
 */
void
viva_status_store_flush_async (VivaStatusStore     *self,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (VIVA_IS_STATUS_STORE (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_status_store_flush_async);
  g_queue_push_tail (&self->flushes, task);

  viva_status_store_complete_flushes (self);
}

gboolean
viva_status_store_flush_finish (VivaStatusStore  *self,
                                GAsyncResult     *result,
                                GError          **error)
{
  g_return_val_if_fail (VIVA_IS_STATUS_STORE (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

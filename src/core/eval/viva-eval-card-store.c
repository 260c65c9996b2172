/* viva-eval-card-store.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "viva-eval-card-store.h"
#include "viva-file-writer.h"

/* The last report card per endpoint and model, for Preferences: one small
 * JSON file, `$XDG_DATA_HOME/viva/eval-cards.json`
 * ({"format": "viva-eval-cards/1", "cards": {"<url> <model>": card}}),
 * read and replaced (by the file writer) on a worker thread that sees only
 * strings and JSON, never the card object. */

#define FORMAT "viva-eval-cards/1"

G_LOCK_DEFINE_STATIC (store);

typedef struct
{
  char *path;
  char *key;
  char *card_json;   /* save only */
} StoreData;

static void
store_data_free (StoreData *data)
{
  g_free (data->path);
  g_free (data->key);
  g_free (data->card_json);
  g_free (data);
}

/**
 * viva_eval_card_store_default_path:
 *
 * Returns: (transfer full): `$XDG_DATA_HOME/viva/eval-cards.json`
 */
char *
viva_eval_card_store_default_path (void)
{
  return g_build_filename (g_get_user_data_dir (), "viva", "eval-cards.json", NULL);
}

static char *
make_key (const char *base_url,
          const char *model)
{
  return g_strdup_printf ("%s %s", base_url ? base_url : "", model ? model : "");
}

/* The file's cards, or a new empty object when there is none. Called with
 * the lock held. */
static JsonObject *
read_cards (const char  *path,
            GError     **error)
{
  g_autofree char *contents = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(JsonNode) root = NULL;
  JsonObject *object;

  if (!g_file_get_contents (path, &contents, NULL, &local_error))
    {
      if (g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        return json_object_new ();
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

  /* A damaged file is started over: it only caches cards. */
  root = json_from_string (contents, NULL);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return json_object_new ();
  object = json_node_get_object (root);
  if (g_strcmp0 (json_object_get_string_member_with_default (object, "format", NULL), FORMAT) != 0 ||
      !json_object_has_member (object, "cards") ||
      !JSON_NODE_HOLDS_OBJECT (json_object_get_member (object, "cards")))
    return json_object_new ();

  return json_object_ref (json_object_get_object_member (object, "cards"));
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  StoreData *data = task_data;
  g_autoptr(JsonObject) cards = NULL;
  GError *error = NULL;
  JsonNode *card;

  G_LOCK (store);
  cards = read_cards (data->path, &error);
  G_UNLOCK (store);

  if (cards == NULL)
    return g_task_return_error (task, error);

  card = json_object_get_member (cards, data->key);
  g_task_return_pointer (task, card ? json_node_copy (card) : NULL, (GDestroyNotify)json_node_unref);
}

/**
 * viva_eval_card_store_load_async:
 * @path: (nullable): the store, or %NULL for the default one
 *
 * Reads the last card kept for @base_url and @model.
 */
void
viva_eval_card_store_load_async (const char          *path,
                                 const char          *base_url,
                                 const char          *model,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  StoreData *data = g_new0 (StoreData, 1);

  g_task_set_source_tag (task, viva_eval_card_store_load_async);
  data->path = path ? g_strdup (path) : viva_eval_card_store_default_path ();
  data->key = make_key (base_url, model);
  g_task_set_task_data (task, data, (GDestroyNotify)store_data_free);
  g_task_run_in_thread (task, load_thread);
}

/**
 * viva_eval_card_store_load_finish:
 *
 * Returns: (transfer full) (nullable): the card, or %NULL without @error
 *   when none is kept for them
 */
VivaEvalCard *
viva_eval_card_store_load_finish (GAsyncResult  *result,
                                  GError       **error)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) local_error = NULL;

  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  node = g_task_propagate_pointer (G_TASK (result), &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }
  if (node == NULL)
    return NULL;

  return viva_eval_card_new_from_json (node, error);
}

static void
save_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  StoreData *data = task_data;
  g_autoptr(JsonObject) cards = NULL;
  g_autoptr(JsonObject) root = json_object_new ();
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(JsonNode) card = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *text = NULL;
  GError *error = NULL;

  if (!(card = json_from_string (data->card_json, &error)))
    return g_task_return_error (task, error);

  G_LOCK (store);
  if ((cards = read_cards (data->path, &error)) != NULL)
    {
      json_object_set_member (cards, data->key, g_steal_pointer (&card));
      json_object_set_string_member (root, "format", FORMAT);
      json_object_set_object_member (root, "cards", json_object_ref (cards));
      json_node_set_object (node, root);
      text = json_to_string (node, TRUE);
      file = g_file_new_for_path (data->path);
      bytes = g_bytes_new_static (text, strlen (text));
      /* Still under the lock: the next card reads this one back. */
      viva_file_writer_write (file, bytes, 0600, VIVA_FILE_WRITER_MAKE_FOLDERS, &error);
    }
  G_UNLOCK (store);

  if (error != NULL)
    return g_task_return_error (task, error);
  g_task_return_boolean (task, TRUE);
}

/**
 * viva_eval_card_store_save_async:
 * @path: (nullable): the store, or %NULL for the default one
 *
 * Keeps @card as the last one for its endpoint and model, replacing the
 * one before.
 */
void
viva_eval_card_store_save_async (const char          *path,
                                 VivaEvalCard        *card,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(JsonNode) node = NULL;
  StoreData *data;

  g_return_if_fail (VIVA_IS_EVAL_CARD (card));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_eval_card_store_save_async);
  data = g_new0 (StoreData, 1);
  data->path = path ? g_strdup (path) : viva_eval_card_store_default_path ();
  data->key = make_key (viva_eval_card_get_base_url (card), viva_eval_card_get_model (card));
  node = viva_eval_card_to_json (card);
  data->card_json = json_to_string (node, FALSE);
  g_task_set_task_data (task, data, (GDestroyNotify)store_data_free);
  g_task_run_in_thread (task, save_thread);
}

gboolean
viva_eval_card_store_save_finish (GAsyncResult  *result,
                                  GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

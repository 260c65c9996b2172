/* viva-secrets.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <libsecret/secret.h>
#include <string.h>

#include "viva-secrets.h"

/* API keys, one per server address, in the keyring through libsecret, so
 * they are never in GSettings, checkpoints, traces or logs. An in-memory
 * store stands in for tests and for machines without a keyring
 * (VIVA_SECRETS=memory). A keyring that cannot be reached reads as "no
 * key": a local Ollama needs none, and a hosted API then says 401, which
 * is reported in words. */

struct _VivaSecrets
{
  GObject     parent_instance;
  GHashTable *memory;
};

G_DEFINE_FINAL_TYPE (VivaSecrets, viva_secrets, G_TYPE_OBJECT)

static const SecretSchema *
get_schema (void)
{
  static const SecretSchema schema = {
    "io.github.vivaexam.Viva.ApiKey", SECRET_SCHEMA_NONE,
    {
      { "base-url", SECRET_SCHEMA_ATTRIBUTE_STRING },
      { NULL, 0 },
    },
    0, NULL, NULL, NULL, NULL, NULL, NULL, NULL
  };

  return &schema;
}

static char *
normalize (const char *base_url)
{
  char *url = g_strstrip (g_strdup (base_url));
  gsize len = strlen (url);

  while (len > 0 && url[len - 1] == '/')
    url[--len] = '\0';

  return url;
}

static void
viva_secrets_finalize (GObject *object)
{
  VivaSecrets *self = (VivaSecrets *)object;

  g_clear_pointer (&self->memory, g_hash_table_unref);

  G_OBJECT_CLASS (viva_secrets_parent_class)->finalize (object);
}

static void
viva_secrets_class_init (VivaSecretsClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = viva_secrets_finalize;
}

static void
viva_secrets_init (VivaSecrets *self)
{
}

/**
 * viva_secrets_new_in_memory:
 *
 * Returns: (transfer full): a store that forgets everything when freed
 */
VivaSecrets *
viva_secrets_new_in_memory (void)
{
  VivaSecrets *self = g_object_new (VIVA_TYPE_SECRETS, NULL);

  self->memory = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  return self;
}

/**
 * viva_secrets_get_default:
 *
 * The keyring, or an in-memory store when `VIVA_SECRETS=memory`.
 * Main thread only.
 *
 * Returns: (transfer none): the shared store
 */
VivaSecrets *
viva_secrets_get_default (void)
{
  static VivaSecrets *instance;

  if (instance == NULL)
    {
      if (g_strcmp0 (g_getenv ("VIVA_SECRETS"), "memory") == 0)
        instance = viva_secrets_new_in_memory ();
      else
        instance = g_object_new (VIVA_TYPE_SECRETS, NULL);
      g_object_add_weak_pointer (G_OBJECT (instance), (gpointer *)&instance);
    }

  return instance;
}

gboolean
viva_secrets_get_in_memory (VivaSecrets *self)
{
  g_return_val_if_fail (VIVA_IS_SECRETS (self), FALSE);
  return self->memory != NULL;
}

static void
lookup_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  char *password;

  password = secret_password_lookup_finish (result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return g_task_return_error (task, g_steal_pointer (&error));

  if (error != NULL)
    g_debug ("secrets: no keyring (%s); going on without an API key", error->message);

  g_task_return_pointer (task, g_strdup (password), g_free);
  if (password != NULL)
    secret_password_free (password);
}

/**
 * viva_secrets_lookup_async:
 * @base_url: the server's address, as in the settings
 *
 * Looks up the API key stored for @base_url (a trailing `/` does not
 * matter).
 */
void
viva_secrets_lookup_async (VivaSecrets         *self,
                           const char          *base_url,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *url = NULL;

  g_return_if_fail (VIVA_IS_SECRETS (self));
  g_return_if_fail (base_url != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_secrets_lookup_async);
  url = normalize (base_url);

  if (self->memory != NULL)
    return g_task_return_pointer (task, g_strdup (g_hash_table_lookup (self->memory, url)), g_free);

  secret_password_lookup (get_schema (), cancellable, lookup_cb, g_steal_pointer (&task),
                          "base-url", url,
                          NULL);
}

/**
 * viva_secrets_lookup_finish:
 *
 * Returns: (transfer full) (nullable): the key, or %NULL when there is none
 *   (@error is then unset) or on cancellation
 */
char *
viva_secrets_lookup_finish (VivaSecrets   *self,
                            GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (VIVA_IS_SECRETS (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
store_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  gboolean is_clear = GPOINTER_TO_INT (g_task_get_task_data (task));

  if (is_clear)
    secret_password_clear_finish (result, &error);
  else
    secret_password_store_finish (result, &error);

  if (error != NULL)
    return g_task_return_error (task, g_steal_pointer (&error));

  g_task_return_boolean (task, TRUE);
}

/**
 * viva_secrets_store_async:
 * @api_key: (nullable): the key; %NULL or empty removes it
 *
 * Stores the key for @base_url, replacing any other.
 */
void
viva_secrets_store_async (VivaSecrets         *self,
                          const char          *base_url,
                          const char          *api_key,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *url = NULL;
  g_autofree char *label = NULL;
  gboolean is_clear = api_key == NULL || api_key[0] == '\0';

  g_return_if_fail (VIVA_IS_SECRETS (self));
  g_return_if_fail (base_url != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_secrets_store_async);
  g_task_set_task_data (task, GINT_TO_POINTER (is_clear), NULL);
  url = normalize (base_url);

  if (self->memory != NULL)
    {
      if (is_clear)
        g_hash_table_remove (self->memory, url);
      else
        g_hash_table_replace (self->memory, g_steal_pointer (&url), g_strdup (api_key));
      return g_task_return_boolean (task, TRUE);
    }

  if (is_clear)
    return secret_password_clear (get_schema (), cancellable, store_cb, g_steal_pointer (&task),
                                  "base-url", url,
                                  NULL);

  /* Translators: the keyring item's label; %s is a server address. */
  label = g_strdup_printf (_("Viva API key for %s"), url);
  secret_password_store (get_schema (), SECRET_COLLECTION_DEFAULT, label, api_key,
                         cancellable, store_cb, g_steal_pointer (&task),
                         "base-url", url,
                         NULL);
}

gboolean
viva_secrets_store_finish (VivaSecrets   *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (VIVA_IS_SECRETS (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* viva-openai-model-discovery.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "viva-model-address.h"
#include "viva-model-http-private.h"
#include "viva-model-private.h"
#include "viva-openai-model-private.h"

/* What VivaOpenAIModel asks a server of itself, each a small JSON GET:
 * whether it is Ollama (`/api/version`), its models (`/models`, else
 * `/api/tags`), and whether it is ready to chat. What it learns is the
 * main file's to keep. */

/* GET a small JSON document; any status is returned with its body. The
 * API key goes along (hosted APIs want it for /models), and a server that
 * accepts the connection but never answers times out. */

#define SMALL_REQUEST_TIMEOUT_MS 15000

typedef struct
{
  char         *url;
  SoupMessage  *message;
  GCancellable *cancellable;
  GCancellable *caller_cancellable;
  gulong        cancelled_id;
  GSource      *timeout;
  guint         timeout_ms;
  guint         status;
  gboolean      timed_out;
} GetJson;

static void
get_json_free (GetJson *get)
{
  _viva_model_clear_source (&get->timeout);
  /* See disconnect_cancellable() in viva-openai-model-stream.c for why not
   * g_cancellable_disconnect(). */
  if (get->caller_cancellable != NULL)
    g_clear_signal_handler (&get->cancelled_id, get->caller_cancellable);
  g_clear_object (&get->caller_cancellable);
  g_clear_object (&get->cancellable);
  g_clear_object (&get->message);
  g_free (get->url);
  g_free (get);
}

static void
get_json_return_error (GTask        *task,
                       const GError *error)
{
  VivaOpenAIModel *self = g_task_get_source_object (task);
  GetJson *get = g_task_get_task_data (task);
  gboolean retryable;

  if (g_cancellable_is_cancelled (get->caller_cancellable))
    return g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Operation was cancelled"));

  if (get->timed_out)
    return g_task_return_new_error (task, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_TIMEOUT,
                                    _("The server at %s did not answer within %u seconds — check that it is a model server and that it is not overloaded."),
                                    self->base_url, (get->timeout_ms + 999) / 1000);

  g_task_return_error (task, _viva_openai_model_transport_error (self, error, &retryable));
}

static void
get_json_body_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GetJson *get = g_task_get_task_data (task);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  JsonNode *node;

  _viva_model_clear_source (&get->timeout);

  if (!(bytes = _viva_model_http_read_small_finish (result, &error)))
    return get_json_return_error (task, error);

  node = _viva_json_parse (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL);
  g_task_return_pointer (task, node, node != NULL ? (GDestroyNotify)json_node_unref : NULL);
}

static void
get_json_send_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GetJson *get = g_task_get_task_data (task);
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  GCancellable *cancellable;

  if (!(stream = soup_session_send_finish (SOUP_SESSION (object), result, &error)))
    return get_json_return_error (task, error);

  get->status = soup_message_get_status (get->message);
  cancellable = get->cancellable;
  _viva_model_http_read_small_async (stream, cancellable, get_json_body_cb, g_steal_pointer (&task));
}

static gboolean
get_json_timeout_cb (gpointer user_data)
{
  GetJson *get = user_data;

  get->timed_out = TRUE;
  g_clear_pointer (&get->timeout, g_source_unref);
  g_cancellable_cancel (get->cancellable);
  return G_SOURCE_REMOVE;
}

static void
get_json_key_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  VivaOpenAIModel *self = g_task_get_source_object (task);
  GetJson *get = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autofree char *api_key = NULL;
  GCancellable *cancellable;

  api_key = viva_secrets_lookup_finish (VIVA_SECRETS (object), result, &error);
  if (error != NULL)
    return g_task_return_error (task, g_steal_pointer (&error));

  if (!(get->message = _viva_model_http_message_new (SOUP_METHOD_GET, get->url, api_key)))
    return g_task_return_error (task, viva_model_address_error_new (self->base_url));

  get->timeout = g_timeout_source_new (get->timeout_ms);
  g_source_set_callback (get->timeout, get_json_timeout_cb, get, NULL);
  g_source_attach (get->timeout, g_task_get_context (task));

  cancellable = get->cancellable;
  soup_session_send_async (self->session, get->message, G_PRIORITY_DEFAULT, cancellable,
                           get_json_send_cb, g_steal_pointer (&task));
}

static void
get_json_async (VivaOpenAIModel     *self,
                                   const char          *url,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  GetJson *get = g_new0 (GetJson, 1);

  g_task_set_source_tag (task, get_json_async);
  g_task_set_task_data (task, get, (GDestroyNotify)get_json_free);
  get->url = g_strdup (url);
  get->timeout_ms = MIN (self->first_byte_timeout, SMALL_REQUEST_TIMEOUT_MS);
  get->cancellable = g_cancellable_new ();
  if (cancellable != NULL)
    {
      get->caller_cancellable = g_object_ref (cancellable);
      get->cancelled_id = g_cancellable_connect (cancellable, G_CALLBACK (_viva_model_forward_cancel),
                                                 g_object_ref (get->cancellable), g_object_unref);
    }

  viva_secrets_lookup_async (self->secrets, self->base_url, cancellable,
                             get_json_key_cb, g_steal_pointer (&task));
}

/**
 * get_json_finish:
 * @status: (out): the HTTP status
 *
 * Returns: (transfer full) (nullable): the body parsed, or %NULL when it is
 *   not JSON (then @error is unset if an HTTP answer came)
 */
static JsonNode *
get_json_finish (VivaOpenAIModel  *self,
                                    GAsyncResult     *result,
                                    guint            *status,
                                    GError          **error)
{
  GetJson *get = g_task_get_task_data (G_TASK (result));

  *status = get->status;
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* A task of @self tagged @source_tag whose first step is a GET of @url's
 * JSON, answered in @step. Takes @url. */
static void
start_get_json (VivaOpenAIModel     *self,
                char                *url,
                gpointer             source_tag,
                GAsyncReadyCallback  step,
                GCancellable        *cancellable,
                GAsyncReadyCallback  callback,
                gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  g_autofree char *owned_url = url;

  g_task_set_source_tag (task, source_tag);
  get_json_async (self, owned_url, cancellable, step, g_steal_pointer (&task));
}

/* Detection: Ollama answers GET /api/version with {"version": "…"}. */

static void
detect_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  VivaOpenAIModel *self = VIVA_OPENAI_MODEL (object);
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  const char *version = NULL;
  guint status = 0;

  node = get_json_finish (self, result, &status, &error);
  if (error != NULL)
    return g_task_return_error (task, g_steal_pointer (&error));

  if (status == 200 && node != NULL && JSON_NODE_HOLDS_OBJECT (node))
    version = viva_json_member_string (json_node_get_object (node), "version");

  if (version != NULL)
    _viva_openai_model_set_server (self, VIVA_SERVER_KIND_OLLAMA, version);
  else
    _viva_openai_model_set_server (self, VIVA_SERVER_KIND_OPENAI, NULL);

  g_debug ("model: %s is %s", self->base_url, version != NULL ? "Ollama" : "OpenAI-compatible");
  g_task_return_int (task, self->server_kind);
}

/**
 * viva_openai_model_detect_server_async:
 *
 * Asks `/api/version` whether the server is Ollama, and updates
 * #VivaOpenAIModel:server-kind and #VivaOpenAIModel:server-version. Any
 * HTTP answer that is not Ollama's means an OpenAI-compatible server.
 */
void
viva_openai_model_detect_server_async (VivaOpenAIModel     *self,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  g_return_if_fail (VIVA_IS_OPENAI_MODEL (self));

  start_get_json (self, _viva_openai_model_root_url (self, "/api/version"),
                  viva_openai_model_detect_server_async, detect_cb, cancellable, callback, user_data);
}

/**
 * viva_openai_model_detect_server_finish:
 *
 * Returns: the server's kind, or %VIVA_SERVER_KIND_UNKNOWN with @error set
 *   when the server could not be reached
 */
VivaServerKind
viva_openai_model_detect_server_finish (VivaOpenAIModel  *self,
                                        GAsyncResult     *result,
                                        GError          **error)
{
  g_autoptr(GError) local_error = NULL;
  gssize kind;

  g_return_val_if_fail (VIVA_IS_OPENAI_MODEL (self), VIVA_SERVER_KIND_UNKNOWN);
  g_return_val_if_fail (g_task_is_valid (result, self), VIVA_SERVER_KIND_UNKNOWN);

  kind = g_task_propagate_int (G_TASK (result), &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return VIVA_SERVER_KIND_UNKNOWN;
    }

  return (VivaServerKind)kind;
}

/* Listing: GET {base}/models, else Ollama's GET /api/tags. */

static GStrv
names_from (JsonNode   *node,
            const char *array_member,
            const char *name_member,
            gboolean   *understood)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  JsonObject *object;
  JsonNode *array_node;
  JsonArray *array;

  *understood = FALSE;
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;

  object = json_node_get_object (node);
  if (!(array_node = json_object_get_member (object, array_member)))
    return NULL;

  /* Ollama's /v1/models says `"data": null` when no model is installed. */
  *understood = TRUE;
  if ((array = viva_json_member_array (object, array_member)))
    {
      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *item = json_array_get_element (array, i);
          const char *name = JSON_NODE_HOLDS_OBJECT (item)
                           ? viva_json_member_string (json_node_get_object (item), name_member)
                           : NULL;

          if (name != NULL && name[0] != '\0')
            g_strv_builder_add (builder, name);
        }
    }

  return g_strv_builder_end (builder);
}

static void
list_tags_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  VivaOpenAIModel *self = VIVA_OPENAI_MODEL (object);
  GError *first_error = g_task_get_task_data (task);
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) names = NULL;
  gboolean understood;
  guint status = 0;

  node = get_json_finish (self, result, &status, &error);
  if (status == 200 && (names = names_from (node, "models", "name", &understood)) && understood)
    {
      _viva_openai_model_set_server (self, VIVA_SERVER_KIND_OLLAMA, self->server_version);
      return g_task_return_pointer (task, g_steal_pointer (&names), (GDestroyNotify)g_strfreev);
    }

  g_task_return_error (task, g_error_copy (first_error));
}

static void
list_models_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  VivaOpenAIModel *self = VIVA_OPENAI_MODEL (object);
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;
  g_auto(GStrv) names = NULL;
  GCancellable *cancellable;
  gboolean understood = FALSE;
  guint status = 0;

  node = get_json_finish (self, result, &status, &error);
  if (error != NULL)
    return g_task_return_error (task, g_steal_pointer (&error));

  if (status == 200 && (names = names_from (node, "data", "id", &understood)) && understood)
    return g_task_return_pointer (task, g_steal_pointer (&names), (GDestroyNotify)g_strfreev);

  if (status == 401 || status == 403)
    return g_task_return_error (task, _viva_model_error_new_for_status (status, node, NULL, self->base_url, FALSE));

  if (status == 200)
    error = g_error_new (VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_INVALID_RESPONSE,
                         _("The server at %s does not list its models the way model servers do — check the address; it usually ends in “/v1”."),
                         self->base_url);
  else
    error = _viva_model_error_new_for_status (status, node, NULL, self->base_url, FALSE);

  g_task_set_task_data (task, g_steal_pointer (&error), (GDestroyNotify)g_error_free);
  url = _viva_openai_model_root_url (self, "/api/tags");
  cancellable = g_task_get_cancellable (task);
  get_json_async (self, url, cancellable, list_tags_cb, g_steal_pointer (&task));
}

/**
 * viva_openai_model_list_models_async:
 *
 * Lists the server's models: `GET {base}/models`, falling back to Ollama's
 * `/api/tags`.
 */
void
viva_openai_model_list_models_async (VivaOpenAIModel     *self,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  g_return_if_fail (VIVA_IS_OPENAI_MODEL (self));

  start_get_json (self, _viva_openai_model_url (self, "/models"),
                  viva_openai_model_list_models_async, list_models_cb, cancellable, callback, user_data);
}

/**
 * viva_openai_model_list_models_finish:
 *
 * Returns: (transfer full) (nullable): the model names in the server's
 *   order (maybe empty), or %NULL with @error set
 */
GStrv
viva_openai_model_list_models_finish (VivaOpenAIModel  *self,
                                      GAsyncResult     *result,
                                      GError          **error)
{
  g_return_val_if_fail (VIVA_IS_OPENAI_MODEL (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static gboolean
has_model (GStrv       names,
           const char *model)
{
  g_autofree char *latest = g_strconcat (model, ":latest", NULL);

  return g_strv_contains ((const char * const *)names, model) ||
         g_strv_contains ((const char * const *)names, latest);
}

static void
health_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  VivaOpenAIModel *self = VIVA_OPENAI_MODEL (object);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) names = NULL;
  gboolean is_ollama = _viva_openai_model_looks_like_ollama (self);

  if ((names = viva_openai_model_list_models_finish (self, result, &error)))
    {
      if (names[0] == NULL)
        error = _viva_model_error_new_no_model (self->base_url, is_ollama);
      else if (self->model != NULL && self->model[0] != '\0' && !has_model (names, self->model))
        error = _viva_model_error_new_model_missing (self->model, is_ollama, NULL);
    }

  _viva_openai_model_set_error (self, error);

  if (error != NULL)
    return g_task_return_error (task, g_steal_pointer (&error));

  g_task_return_boolean (task, TRUE);
}

/**
 * viva_openai_model_check_health_async:
 *
 * Checks that the server answers and has the configured model (or, with
 * none configured, any model), for a Preferences page or a status line.
 * Sets #VivaOpenAIModel:error-message to the problem in words, or clears
 * it.
 */
void
viva_openai_model_check_health_async (VivaOpenAIModel     *self,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (VIVA_IS_OPENAI_MODEL (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_openai_model_check_health_async);
  viva_openai_model_list_models_async (self, cancellable, health_cb, g_steal_pointer (&task));
}

/**
 * viva_openai_model_check_health_finish:
 *
 * Returns: %TRUE when the server is ready to chat, else %FALSE with @error
 *   set (%VIVA_MODEL_ERROR_NOT_RUNNING, %VIVA_MODEL_ERROR_MODEL_NOT_FOUND,
 *   %VIVA_MODEL_ERROR_NO_MODEL, %VIVA_MODEL_ERROR_UNAUTHORIZED…)
 */
gboolean
viva_openai_model_check_health_finish (VivaOpenAIModel  *self,
                                       GAsyncResult     *result,
                                       GError          **error)
{
  g_return_val_if_fail (VIVA_IS_OPENAI_MODEL (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

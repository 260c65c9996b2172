/* viva-openai-model-discovery.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "viva-model-private.h"
#include "viva-model-address.h"
#include "viva-openai-model-private.h"

/* Everything of VivaOpenAIModel but the chat stream: addresses, errors in
 * words, small JSON requests, server detection, model discovery and the
 * health check. */

char *
_viva_openai_model_url (VivaOpenAIModel *self,
                        const char      *path)
{
  return g_strconcat (self->base_url, path, NULL);
}

/* Ollama's own API lives beside its OpenAI one: `…:11434/v1` → `…:11434`. */
char *
_viva_openai_model_root_url (VivaOpenAIModel *self,
                             const char      *path)
{
  g_autofree char *root = g_strdup (self->base_url);

  if (g_str_has_suffix (root, "/v1"))
    root[strlen (root) - 3] = '\0';

  return g_strconcat (root, path, NULL);
}

gboolean
_viva_openai_model_looks_like_ollama (VivaOpenAIModel *self)
{
  return self->server_kind == VIVA_SERVER_KIND_OLLAMA ||
         (self->server_kind == VIVA_SERVER_KIND_UNKNOWN && strstr (self->base_url, ":11434") != NULL);
}

void
_viva_openai_model_set_server (VivaOpenAIModel *self,
                               VivaServerKind   kind,
                               const char      *version)
{
  g_object_freeze_notify (G_OBJECT (self));

  if (self->server_kind != kind)
    {
      self->server_kind = kind;
      g_object_notify (G_OBJECT (self), "server-kind");
    }

  if (g_strcmp0 (self->server_version, version) != 0)
    {
      g_free (self->server_version);
      self->server_version = g_strdup (version);
      g_object_notify (G_OBJECT (self), "server-version");
    }

  g_object_thaw_notify (G_OBJECT (self));
}

void
_viva_openai_model_set_error (VivaOpenAIModel *self,
                              const GError    *error)
{
  const char *message = error != NULL ? error->message : NULL;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  if (g_strcmp0 (self->error_message, message) != 0)
    {
      g_free (self->error_message);
      self->error_message = g_strdup (message);
      g_object_notify (G_OBJECT (self), "error-message");
    }
}

GError *
_viva_openai_model_transport_error (VivaOpenAIModel *self,
                                    const GError    *error,
                                    gboolean        *retryable)
{
  *retryable = TRUE;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      *retryable = FALSE;
      return g_error_copy (error);
    }

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED))
    {
      g_autofree char *root = _viva_openai_model_root_url (self, "");

      if (_viva_openai_model_looks_like_ollama (self))
        return g_error_new (VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_NOT_RUNNING,
                            _("Ollama is not running at %s — start it with “ollama serve”."),
                            root);

      return g_error_new (VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_NOT_RUNNING,
                          _("No model server is running at %s — start it, or check the address in Preferences."),
                          self->base_url);
    }

  if (error->domain == G_RESOLVER_ERROR || error->domain == G_TLS_ERROR ||
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT))
    {
      *retryable = error->domain == G_RESOLVER_ERROR && error->code == G_RESOLVER_ERROR_TEMPORARY_FAILURE;
      return g_error_new (VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_CONNECTION,
                          _("Cannot reach the model server at %s (%s) — check the address in Preferences and the network."),
                          self->base_url, error->message);
    }

  return g_error_new (VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_CONNECTION,
                      _("The connection to the model server at %s broke (%s) — try again."),
                      self->base_url, error->message);
}

SoupMessage *
_viva_openai_model_new_message (VivaOpenAIModel *self,
                                const char      *method,
                                const char      *url,
                                const char      *api_key)
{
  SoupMessage *message = soup_message_new (method, url);
  SoupMessageHeaders *headers;

  if (message == NULL)
    return NULL;

  headers = soup_message_get_request_headers (message);
  soup_message_headers_replace (headers, "Accept", "application/json, text/event-stream, application/x-ndjson");
  if (api_key != NULL && api_key[0] != '\0')
    {
      g_autofree char *value = g_strconcat ("Bearer ", api_key, NULL);

      soup_message_headers_replace (headers, "Authorization", value);
    }

  return message;
}

/* Why @base_url (as configured, not a URL made from it) is no server
 * address, in words that do not say where to change it: the app's
 * Preferences and the CLI's --base-url each add that. */
GError *
_viva_openai_model_address_error (const char *base_url)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *url = viva_model_address_complete (base_url, &error);

  if (error != NULL)
    return g_steal_pointer (&error);

  return g_error_new (VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_ADDRESS,
                      _("“%s” is not a server address — a model server’s looks like http://localhost:11434/v1 or https://api.example.com/v1."),
                      base_url);
}

/* Destroys *@source, if there is one, and forgets it. */
void
_viva_openai_model_clear_source (GSource **source)
{
  if (*source == NULL)
    return;

  g_source_destroy (*source);
  g_clear_pointer (source, g_source_unref);
}

/* A "cancelled" handler: a request's own cancellable (@target, which
 * also times it out) follows its caller's. */
void
_viva_openai_model_forward_cancel (GCancellable *cancellable,
                                   GCancellable *target)
{
  g_cancellable_cancel (target);
}

/* Reading a small body whole, bounded. */

typedef struct
{
  GInputStream *stream;
  GByteArray   *buffer;
} SmallBody;

static void
small_body_free (SmallBody *body)
{
  g_clear_object (&body->stream);
  g_byte_array_unref (body->buffer);
  g_free (body);
}

static void
small_body_read_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  SmallBody *body = g_task_get_task_data (task);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;

  if (!(bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, &error)))
    return g_task_return_error (task, g_steal_pointer (&error));

  if (g_bytes_get_size (bytes) == 0)
    return g_task_return_pointer (task,
                                  g_byte_array_free_to_bytes (g_byte_array_ref (body->buffer)),
                                  (GDestroyNotify)g_bytes_unref);

  if (body->buffer->len + g_bytes_get_size (bytes) > VIVA_OPENAI_MAX_SMALL_BODY)
    return g_task_return_new_error (task, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_INVALID_RESPONSE,
                                    _("The server sent a much larger answer than expected."));

  g_byte_array_append (body->buffer, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  g_input_stream_read_bytes_async (body->stream, 16384, G_PRIORITY_DEFAULT,
                                   g_task_get_cancellable (task), small_body_read_cb,
                                   g_object_ref (task));
}

void
_viva_read_small_body_async (GInputStream        *stream,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (stream, cancellable, callback, user_data);
  SmallBody *body = g_new0 (SmallBody, 1);

  g_task_set_source_tag (task, _viva_read_small_body_async);
  body->stream = g_object_ref (stream);
  body->buffer = g_byte_array_new ();
  g_task_set_task_data (task, body, (GDestroyNotify)small_body_free);

  g_input_stream_read_bytes_async (stream, 16384, G_PRIORITY_DEFAULT, cancellable,
                                   small_body_read_cb, g_steal_pointer (&task));
}

GBytes *
_viva_read_small_body_finish (GAsyncResult  *result,
                              GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

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
  _viva_openai_model_clear_source (&get->timeout);
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

  _viva_openai_model_clear_source (&get->timeout);

  if (!(bytes = _viva_read_small_body_finish (result, &error)))
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
  _viva_read_small_body_async (stream, cancellable, get_json_body_cb, g_steal_pointer (&task));
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

  if (!(get->message = _viva_openai_model_new_message (self, SOUP_METHOD_GET, get->url, api_key)))
    return g_task_return_error (task, _viva_openai_model_address_error (self->base_url));

  get->timeout = g_timeout_source_new (get->timeout_ms);
  g_source_set_callback (get->timeout, get_json_timeout_cb, get, NULL);
  g_source_attach (get->timeout, g_task_get_context (task));

  cancellable = get->cancellable;
  soup_session_send_async (self->session, get->message, G_PRIORITY_DEFAULT, cancellable,
                           get_json_send_cb, g_steal_pointer (&task));
}

void
_viva_openai_model_get_json_async (VivaOpenAIModel     *self,
                                   const char          *url,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  GetJson *get = g_new0 (GetJson, 1);

  g_task_set_source_tag (task, _viva_openai_model_get_json_async);
  g_task_set_task_data (task, get, (GDestroyNotify)get_json_free);
  get->url = g_strdup (url);
  get->timeout_ms = MIN (self->first_byte_timeout, SMALL_REQUEST_TIMEOUT_MS);
  get->cancellable = g_cancellable_new ();
  if (cancellable != NULL)
    {
      get->caller_cancellable = g_object_ref (cancellable);
      get->cancelled_id = g_cancellable_connect (cancellable, G_CALLBACK (_viva_openai_model_forward_cancel),
                                                 g_object_ref (get->cancellable), g_object_unref);
    }

  viva_secrets_lookup_async (self->secrets, self->base_url, cancellable,
                             get_json_key_cb, g_steal_pointer (&task));
}

/**
 * _viva_openai_model_get_json_finish:
 * @status: (out): the HTTP status
 *
 * Returns: (transfer full) (nullable): the body parsed, or %NULL when it is
 *   not JSON (then @error is unset if an HTTP answer came)
 */
JsonNode *
_viva_openai_model_get_json_finish (VivaOpenAIModel  *self,
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
  _viva_openai_model_get_json_async (self, owned_url, cancellable, step, g_steal_pointer (&task));
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

  node = _viva_openai_model_get_json_finish (self, result, &status, &error);
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

  node = _viva_openai_model_get_json_finish (self, result, &status, &error);
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

  node = _viva_openai_model_get_json_finish (self, result, &status, &error);
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
  _viva_openai_model_get_json_async (self, url, cancellable, list_tags_cb, g_steal_pointer (&task));
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

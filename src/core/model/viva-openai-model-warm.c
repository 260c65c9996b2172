/* viva-openai-model-warm.c: loading a model before the first question
 *
 * A defense should not wait for a server to load its model. Ollama loads
 * on the first request and unloads after a few idle minutes, so the app
 * asks it to load the model (an empty generate request with a keep-alive)
 * while the student is still coding. Other servers keep their models
 * loaded, and warming them costs nothing.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "viva-model-body.h"
#include "viva-model-http-private.h"
#include "viva-openai-model-private.h"

static void
load_sent_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  SoupMessage *message = g_task_get_task_data (task);
  guint status;

  if (!(stream = soup_session_send_finish (SOUP_SESSION (object), result, &error)))
    return g_task_return_error (task, g_steal_pointer (&error));

  status = soup_message_get_status (message);
  g_input_stream_close_async (stream, G_PRIORITY_LOW, NULL, NULL, NULL);

  if (!SOUP_STATUS_IS_SUCCESSFUL (status))
    return g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED,
                                    "HTTP %u while loading the model", status);

  g_task_return_boolean (task, TRUE);
}

static void
load_ollama_model (GTask *task)
{
  VivaOpenAIModel *self = g_task_get_source_object (task);
  const char *name = g_object_get_data (G_OBJECT (task), "viva-model-name");
  g_autoptr(JsonObject) body = json_object_new ();
  g_autoptr(JsonNode) root = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(SoupMessage) message = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *url = _viva_openai_model_root_url (self, "/api/generate");
  char *json;

  if (url == NULL || !(message = _viva_model_http_message_new (SOUP_METHOD_POST, url, NULL)))
    return g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                                    "“%s” is not a URL", self->base_url);

  json_object_set_string_member (body, "model", name);
  json_object_set_string_member (body, "keep_alive", VIVA_OLLAMA_KEEP_ALIVE);
  json_node_set_object (root, body);
  json = json_to_string (root, FALSE);
  bytes = g_bytes_new_take (json, strlen (json));
  soup_message_set_request_body_from_bytes (message, "application/json", bytes);

  g_task_set_task_data (task, g_object_ref (message), g_object_unref);
  soup_session_send_async (self->session, message, G_PRIORITY_LOW,
                           g_task_get_cancellable (task), load_sent_cb, task);
}

static void
warm_detect_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  VivaServerKind kind;

  kind = _viva_openai_model_know_server_finish (VIVA_OPENAI_MODEL (object), result, &error);
  if (error != NULL)
    return g_task_return_error (task, g_steal_pointer (&error));

  if (kind != VIVA_SERVER_KIND_OLLAMA)
    return g_task_return_boolean (task, TRUE);

  load_ollama_model (g_steal_pointer (&task));
}

/**
 * viva_openai_model_warm_up_async:
 * @model_name: the model the defense will use
 *
 * Makes the server hold @model_name in memory before the first question:
 * for Ollama a load request kept alive as long as a defense's requests
 * keep it; nothing for servers that keep their models loaded. Finds out
 * the server's kind first when it is not known yet.
 */
void
viva_openai_model_warm_up_async (VivaOpenAIModel     *self,
                                 const char          *model_name,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (VIVA_IS_OPENAI_MODEL (self));
  g_return_if_fail (model_name != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_openai_model_warm_up_async);
  g_object_set_data_full (G_OBJECT (task), "viva-model-name", g_strdup (model_name), g_free);

  _viva_openai_model_know_server_async (self, cancellable, warm_detect_cb, g_steal_pointer (&task));
}

/**
 * viva_openai_model_warm_up_finish:
 *
 * Returns: whether the model is loaded (or needs no loading)
 */
gboolean
viva_openai_model_warm_up_finish (VivaOpenAIModel  *self,
                                  GAsyncResult     *result,
                                  GError          **error)
{
  g_return_val_if_fail (VIVA_IS_OPENAI_MODEL (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

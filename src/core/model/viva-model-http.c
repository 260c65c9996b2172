/* viva-model-http.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-model-error.h"
#include "viva-model-http-private.h"

/* The model part's small HTTP pieces, the same for the chat stream,
 * discovery and warm-up: a request with our headers, a small body read
 * whole and bounded, and the two GSource/GCancellable idioms their
 * timeouts use. No state: whatever is the model's stays on the model. */

SoupMessage *
_viva_model_http_message_new (const char *method,
                              const char *url,
                              const char *api_key)
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

/* Destroys *@source, if there is one, and forgets it. */
void
_viva_model_clear_source (GSource **source)
{
  if (*source == NULL)
    return;

  g_source_destroy (*source);
  g_clear_pointer (source, g_source_unref);
}

/* A "cancelled" handler: a request's own cancellable (@target, which
 * also times it out) follows its caller's. */
void
_viva_model_forward_cancel (GCancellable *cancellable,
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

  if (body->buffer->len + g_bytes_get_size (bytes) > VIVA_MODEL_MAX_SMALL_BODY)
    return g_task_return_new_error (task, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_INVALID_RESPONSE,
                                    _("The server sent a much larger answer than expected."));

  g_byte_array_append (body->buffer, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  g_input_stream_read_bytes_async (body->stream, 16384, G_PRIORITY_DEFAULT,
                                   g_task_get_cancellable (task), small_body_read_cb,
                                   g_object_ref (task));
}

void
_viva_model_http_read_small_async (GInputStream        *stream,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (stream, cancellable, callback, user_data);
  SmallBody *body = g_new0 (SmallBody, 1);

  g_task_set_source_tag (task, _viva_model_http_read_small_async);
  body->stream = g_object_ref (stream);
  body->buffer = g_byte_array_new ();
  g_task_set_task_data (task, body, (GDestroyNotify)small_body_free);

  g_input_stream_read_bytes_async (stream, 16384, G_PRIORITY_DEFAULT, cancellable,
                                   small_body_read_cb, g_steal_pointer (&task));
}

GBytes *
_viva_model_http_read_small_finish (GAsyncResult  *result,
                                    GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* viva-openai-model-stream.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "viva-chat-reply-private.h"
#include "viva-model-private.h"
#include "viva-openai-model-private.h"
#include "viva-openai-model-stream-private.h"

/* One stream of VivaOpenAIModel: a chain of steps on the caller's main
 * context: look up the API key, detect the server once, resolve the model
 * name, then attempts. An attempt POSTs, checks status and content type,
 * and reads events one at a time into a fresh VivaReplyAssembler. A
 * watchdog ticks through the attempt and cancels it when no byte came for
 * the first-byte timeout (before the first byte) or the idle timeout
 * (after it). Transient faults are retried with backoff and jitter, but
 * only before any delta went out: after that a fault ends the stream with
 * what arrived, marked truncated, so nothing shown is lost or shown twice.
 * What a failed attempt leads to is viva-openai-model-retry.c's.
 *
 * A busy server is not a fault to give up on after three attempts: a 503
 * or 429, or a first token that is slow to come (a queue), makes the
 * stream wait calmly (VivaOpenAIModel:busy) for up to max-busy-wait in all,
 * with the first-byte timeout raised by what the server announced, since
 * a server that asks to come back in a minute has a queue ahead of us.
 *
 * Ownership, as everywhere (STYLE.md §16): each callback owns the
 * reference it was given (g_autoptr) and hands it on to the next step
 * with g_steal_pointer(); the functions that end or continue a stream
 * (_viva_openai_stream_fail, _succeed, _fault, _start_attempt…) take the
 * reference they are given. What fires while an attempt runs (the
 * watchdog, the assembler's deltas, a retry's delay) holds a reference of
 * its own, dropped when the attempt ends and its sources go. */

#define SLOW_FIRST_TOKEN_MS (10 * 1000)

static void
stream_data_end_attempt (StreamData *data)
{
  /* Closed, not left to its finalizer: libsoup then drops the connection
   * of a body not read to its end (a server still talking past a limit). */
  if (data->reader != NULL && viva_sse_reader_get_stream (data->reader) != NULL)
    g_input_stream_close_async (viva_sse_reader_get_stream (data->reader), G_PRIORITY_DEFAULT, NULL, NULL, NULL);

  _viva_openai_model_clear_source (&data->watchdog);
  _viva_openai_model_clear_source (&data->delay);
  _viva_openai_model_clear_source (&data->delay_cancel);
  g_clear_object (&data->reader);
  g_clear_object (&data->message);
  g_clear_object (&data->assembler);
  g_clear_object (&data->attempt_cancellable);
}

static void
stream_data_free (StreamData *data)
{
  stream_data_end_attempt (data);
  g_clear_pointer (&data->request, viva_chat_request_unref);
  if (data->api_key != NULL)
    memset (data->api_key, 0, strlen (data->api_key));
  g_clear_pointer (&data->api_key, g_free);
  g_clear_pointer (&data->model, g_free);
  g_free (data);
}

static void
disconnect_cancellable (GTask *task)
{
  StreamData *data = g_task_get_task_data (task);

  /* Not g_cancellable_disconnect(): this may run inside the caller's
   * "cancelled" emission, where that would deadlock. One thread only. */
  if (data->cancelled_id != 0)
    g_clear_signal_handler (&data->cancelled_id, g_task_get_cancellable (task));
}

/* The attempt is over: its sources, request, reader and cancellable go. */
void
_viva_openai_stream_end_attempt (GTask *task)
{
  disconnect_cancellable (task);
  stream_data_end_attempt (g_task_get_task_data (task));
}

GError *
_viva_openai_stream_cancelled_error (void)
{
  return g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Operation was cancelled"));
}

/* Takes @task's reference and @error. */
void
_viva_openai_stream_fail (GTask  *task_in,
                          GError *error)
{
  g_autoptr(GTask) task = task_in;
  VivaOpenAIModel *self = g_task_get_source_object (task);

  _viva_openai_stream_end_attempt (task);
  _viva_openai_stream_not_busy (task);
  _viva_openai_model_set_error (self, error);
  g_task_return_error (task, error);
}

static gboolean
prompt_was_cut (VivaOpenAIModel     *self,
                StreamData          *data,
                const VivaChatUsage *usage)
{
  guint estimate = viva_chat_request_estimate_prompt_tokens (data->request);

  if (usage == NULL || usage->prompt_tokens <= 0)
    return data->native && self->context_length > 0 && estimate > self->context_length;

  /* The estimate is rough; only a prompt read at less than half its size
   * (or filling Ollama's whole context) is evidently cut. */
  if (estimate >= 256 && (guint64)usage->prompt_tokens * 2 < estimate)
    return TRUE;

  return data->native && self->context_length > 0 &&
         (guint64)usage->prompt_tokens >= self->context_length && estimate > self->context_length;
}

/* Takes @task's reference. */
void
_viva_openai_stream_succeed (GTask    *task_in,
                             gboolean  cut_off)
{
  g_autoptr(GTask) task = task_in;
  VivaOpenAIModel *self = g_task_get_source_object (task);
  StreamData *data = g_task_get_task_data (task);
  g_autoptr(VivaChatReply) reply = viva_reply_assembler_finish (data->assembler);

  if (cut_off)
    _viva_chat_reply_set_truncated (reply, TRUE);

  if (prompt_was_cut (self, data, viva_chat_reply_get_usage (reply)))
    {
      _viva_chat_reply_set_prompt_truncated (reply, TRUE);
      g_debug ("model: the server read only part of the prompt (%u tokens estimated)",
               viva_chat_request_estimate_prompt_tokens (data->request));
    }

  _viva_openai_stream_end_attempt (task);
  _viva_openai_stream_not_busy (task);
  _viva_openai_model_set_error (self, NULL);
  _viva_openai_model_set_served_model (self, viva_chat_reply_get_model (reply) != NULL
                                             ? viva_chat_reply_get_model (reply) : data->model);
  g_task_return_pointer (task, g_steal_pointer (&reply), (GDestroyNotify)viva_chat_reply_unref);
}

static gboolean
watchdog_cb (gpointer user_data)
{
  GTask *task = user_data;
  VivaOpenAIModel *self = g_task_get_source_object (task);
  StreamData *data = g_task_get_task_data (task);
  guint64 bytes = data->reader != NULL ? viva_sse_reader_get_bytes_read (data->reader) : 0;
  gint64 now = g_get_monotonic_time ();
  guint limit;

  if (bytes != data->last_bytes)
    {
      data->last_bytes = bytes;
      data->last_progress = now;
      data->got_first_byte = TRUE;
      _viva_openai_stream_not_busy (task);
    }

  /* A server may keep talking, slowly, forever: every byte resets the
   * idle timeout, so the whole reply has a deadline of its own. */
  if (now - data->attempt_started >= (gint64)self->max_reply_time * 1000)
    {
      data->past_time_limit = TRUE;
      g_clear_pointer (&data->watchdog, g_source_unref);
      g_cancellable_cancel (data->attempt_cancellable);
      return G_SOURCE_REMOVE;
    }

  limit = data->got_first_byte ? self->idle_timeout : data->first_byte_limit;

  /* Waiting its turn in the server's queue, as far as anyone can tell. */
  if (!data->got_first_byte && !data->busy &&
      now - data->last_progress >= (gint64)MIN (SLOW_FIRST_TOKEN_MS, limit / 2) * 1000)
    _viva_openai_stream_busy (task, 0);

  if (now - data->last_progress >= (gint64)limit * 1000)
    {
      data->timed_out = TRUE;
      g_clear_pointer (&data->watchdog, g_source_unref);
      g_cancellable_cancel (data->attempt_cancellable);
      return G_SOURCE_REMOVE;
    }

  return G_SOURCE_CONTINUE;
}

static void
read_event_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  VivaOpenAIModel *self = g_task_get_source_object (task);
  StreamData *data = g_task_get_task_data (task);
  g_autoptr(VivaSseEvent) event = NULL;
  GError *error = NULL;

  event = viva_sse_reader_read_event_finish (VIVA_SSE_READER (object), result, &error);

  /* Past a limit the reply is not worth another attempt: a server that
   * sent too much once will again. */
  if (g_error_matches (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_REPLY_LIMIT))
    return _viva_openai_stream_fail (g_steal_pointer (&task), error);

  if (error != NULL)
    return _viva_openai_stream_read_failed (g_steal_pointer (&task), error);

  /* The body ended before anything was said: the connection broke, as
   * when a server restarts. Worth another attempt. */
  if (event == NULL && !viva_reply_assembler_get_has_output (data->assembler) &&
      !viva_reply_assembler_get_finished (data->assembler))
    return _viva_openai_stream_fault (g_steal_pointer (&task),
                                      g_error_new (VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_CONNECTION,
                                                   _("The model server at %s closed the connection before answering — try again."),
                                                   self->base_url),
                                      TRUE, FALSE, 0);

  if (event == NULL)
    return _viva_openai_stream_succeed (g_steal_pointer (&task), FALSE);

  if (!viva_reply_assembler_feed_event (data->assembler, event, &error))
    return _viva_openai_stream_fail (g_steal_pointer (&task), error);

  /* [DONE] (or Ollama's done line) ends the reply; a finish_reason does
   * not, since usage and the last fragments may follow it. */
  if (viva_reply_assembler_get_done (data->assembler))
    return _viva_openai_stream_succeed (g_steal_pointer (&task), FALSE);

  viva_sse_reader_read_event_async (data->reader, data->attempt_cancellable, read_event_cb,
                                    g_steal_pointer (&task));
}

static void
emit_delta (const VivaChatDelta *delta,
            gpointer             user_data)
{
  GTask *task = user_data;
  StreamData *data = g_task_get_task_data (task);

  _viva_openai_stream_not_busy (task);
  viva_chat_model_emit_delta (g_task_get_source_object (task), data->request, delta);
}

static void
whole_json_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  VivaOpenAIModel *self = g_task_get_source_object (task);
  StreamData *data = g_task_get_task_data (task);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(JsonNode) node = NULL;
  GError *error = NULL;

  if (!(bytes = _viva_read_small_body_finish (result, &error)))
    return _viva_openai_stream_read_failed (g_steal_pointer (&task), error);

  node = _viva_json_parse (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return _viva_openai_stream_fail (g_steal_pointer (&task),
                                     g_error_new (VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_INVALID_RESPONSE,
                                                  _("The server at %s answered something that is not a chat reply."),
                                                  self->base_url));

  if (!viva_reply_assembler_feed_chunk (data->assembler, json_node_get_object (node), &error))
    return _viva_openai_stream_fail (g_steal_pointer (&task), error);

  _viva_openai_stream_succeed (g_steal_pointer (&task), FALSE);
}

static void
send_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  VivaOpenAIModel *self = g_task_get_source_object (task);
  StreamData *data = g_task_get_task_data (task);
  g_autoptr(GInputStream) stream = NULL;
  GError *error = NULL;
  const char *content_type;
  guint status;

  if (!(stream = soup_session_send_finish (SOUP_SESSION (object), result, &error)))
    return _viva_openai_stream_read_failed (g_steal_pointer (&task), error);

  status = soup_message_get_status (data->message);
  if (!SOUP_STATUS_IS_SUCCESSFUL (status))
    return _viva_read_small_body_async (stream, data->attempt_cancellable, _viva_openai_stream_error_body_cb,
                                        g_steal_pointer (&task));

  content_type = soup_message_headers_get_content_type (soup_message_get_response_headers (data->message), NULL);

  if (!data->native && g_strcmp0 (content_type, "application/json") == 0)
    return _viva_read_small_body_async (stream, data->attempt_cancellable, whole_json_cb, g_steal_pointer (&task));

  if (content_type != NULL &&
      g_strcmp0 (content_type, "text/event-stream") != 0 &&
      g_strcmp0 (content_type, "application/x-ndjson") != 0 &&
      g_strcmp0 (content_type, "application/json") != 0 &&
      g_strcmp0 (content_type, "text/plain") != 0)
    {
      /* Not read: closing drops the connection instead of draining it. */
      g_input_stream_close_async (stream, G_PRIORITY_DEFAULT, NULL, NULL, NULL);
      return _viva_openai_stream_fail (g_steal_pointer (&task),
                                       g_error_new (VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_INVALID_RESPONSE,
                                                    _("The server at %s answered with %s, not a stream of replies — check the address; it usually ends in “/v1”."),
                                                    self->base_url, content_type));
    }

  data->reader = viva_sse_reader_new (stream, data->native ? VIVA_SSE_FORMAT_NDJSON : VIVA_SSE_FORMAT_EVENT_STREAM);
  viva_sse_reader_set_limits (data->reader, self->max_line_bytes, self->max_reply_bytes);
  viva_sse_reader_read_event_async (data->reader, data->attempt_cancellable, read_event_cb, g_steal_pointer (&task));
}

/* Takes @task's reference: the next attempt, or the end of the stream
 * when it was cancelled. */
void
_viva_openai_stream_start_attempt (GTask *task_in)
{
  g_autoptr(GTask) task = task_in;
  VivaOpenAIModel *self = g_task_get_source_object (task);
  StreamData *data = g_task_get_task_data (task);
  g_autoptr(GBytes) body = NULL;
  g_autofree char *url = NULL;
  GPtrArray *tools = viva_chat_request_get_tools (data->request);
  g_autoptr(GStrvBuilder) names = g_strv_builder_new ();
  g_auto(GStrv) tool_names = NULL;

  if (g_task_return_error_if_cancelled (task))
    {
      stream_data_end_attempt (data);
      _viva_openai_stream_not_busy (task);
      return;
    }

  data->attempt++;
  data->timed_out = FALSE;
  data->past_time_limit = FALSE;
  data->got_first_byte = FALSE;
  data->last_bytes = 0;
  data->last_progress = data->attempt_started = g_get_monotonic_time ();
  data->attempt_cancellable = g_cancellable_new ();
  if (g_task_get_cancellable (task) != NULL)
    data->cancelled_id = g_cancellable_connect (g_task_get_cancellable (task),
                                                G_CALLBACK (_viva_openai_model_forward_cancel),
                                                g_object_ref (data->attempt_cancellable),
                                                g_object_unref);

  data->assembler = viva_reply_assembler_new (data->native ? VIVA_REPLY_FORMAT_OLLAMA : VIVA_REPLY_FORMAT_OPENAI);
  viva_reply_assembler_set_limits (data->assembler, self->max_deltas, self->max_tool_calls);
  /* The assembler is the task data's, and ends with the attempt. */
  viva_reply_assembler_set_delta_func (data->assembler, emit_delta, g_object_ref (task), g_object_unref);
  viva_reply_assembler_set_model_name (data->assembler, data->model,
                                       data->native || _viva_openai_model_looks_like_ollama (self));
  for (guint i = 0; i < tools->len; i++)
    g_strv_builder_add (names, viva_tool_definition_get_name (g_ptr_array_index (tools, i)));
  tool_names = g_strv_builder_end (names);
  viva_reply_assembler_set_tool_names (data->assembler, (const char * const *)tool_names);

  url = data->native ? _viva_openai_model_root_url (self, "/api/chat")
                     : _viva_openai_model_url (self, "/chat/completions");
  if (!(data->message = _viva_openai_model_new_message (self, SOUP_METHOD_POST, url, data->api_key)))
    return _viva_openai_stream_fail (g_steal_pointer (&task), _viva_openai_model_address_error (self->base_url));

  body = _viva_openai_model_build_body (self, data->request, data->model, data->native,
                                        data->dropped_temperature, data->dropped_stream_options);
  soup_message_set_request_body_from_bytes (data->message, "application/json", body);

  /* The watchdog is the attempt's, and ends with it. */
  data->watchdog = g_timeout_source_new (MAX (10, MIN (MIN (MIN (data->first_byte_limit, SLOW_FIRST_TOKEN_MS),
                                                            self->idle_timeout),
                                                       self->max_reply_time) / 10));
  g_source_set_callback (data->watchdog, watchdog_cb, g_object_ref (task), g_object_unref);
  g_source_attach (data->watchdog, g_task_get_context (task));

  g_debug ("model: POST %s (attempt %u)", url, data->attempt);
  soup_session_send_async (self->session, data->message, G_PRIORITY_DEFAULT,
                           data->attempt_cancellable, send_cb, g_steal_pointer (&task));
}

static void
resolve_model_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  VivaOpenAIModel *self = VIVA_OPENAI_MODEL (object);
  StreamData *data = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) names = NULL;

  /* Not running, or busy: worth the same retries as a chat request. */
  if (!(names = viva_openai_model_list_models_finish (self, result, &error)))
    {
      gboolean retryable = error->domain == VIVA_MODEL_ERROR &&
                           (error->code == VIVA_MODEL_ERROR_NOT_RUNNING ||
                            error->code == VIVA_MODEL_ERROR_CONNECTION ||
                            error->code == VIVA_MODEL_ERROR_SERVER ||
                            error->code == VIVA_MODEL_ERROR_RATE_LIMITED ||
                            error->code == VIVA_MODEL_ERROR_BUSY ||
                            error->code == VIVA_MODEL_ERROR_TIMEOUT);
      gboolean busy = error->domain == VIVA_MODEL_ERROR &&
                      (error->code == VIVA_MODEL_ERROR_RATE_LIMITED || error->code == VIVA_MODEL_ERROR_BUSY);

      data->attempt++;
      return _viva_openai_stream_fault (g_steal_pointer (&task), g_steal_pointer (&error), retryable, busy, 0);
    }

  if (names[0] == NULL)
    return _viva_openai_stream_fail (g_steal_pointer (&task),
                                     _viva_model_error_new_no_model (self->base_url,
                                                                     _viva_openai_model_looks_like_ollama (self)));

  g_free (self->first_model);
  self->first_model = g_strdup (names[0]);
  data->model = g_strdup (names[0]);
  _viva_openai_stream_start_attempt (g_steal_pointer (&task));
}

/* Takes @task's reference. */
void
_viva_openai_stream_resolve_model (GTask *task_in)
{
  g_autoptr(GTask) task = task_in;
  VivaOpenAIModel *self = g_task_get_source_object (task);
  StreamData *data = g_task_get_task_data (task);
  const char *model = viva_chat_request_get_model (data->request);
  GCancellable *cancellable;

  data->native = self->ollama_native && self->server_kind == VIVA_SERVER_KIND_OLLAMA;

  if (model == NULL && self->model != NULL && self->model[0] != '\0')
    model = self->model;
  if (model == NULL)
    model = self->first_model;

  if (model != NULL)
    {
      data->model = g_strdup (model);
      return _viva_openai_stream_start_attempt (g_steal_pointer (&task));
    }

  /* Two statements: C leaves the order of arguments' evaluation open. */
  cancellable = g_task_get_cancellable (task);
  viva_openai_model_list_models_async (self, cancellable, resolve_model_cb, g_steal_pointer (&task));
}

static void
detect_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  /* A server that cannot be reached is left undetected; the attempts
   * that follow say why, after their retries. */
  if (viva_openai_model_detect_server_finish (VIVA_OPENAI_MODEL (object), result, &error) == VIVA_SERVER_KIND_UNKNOWN &&
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return _viva_openai_stream_fail (g_steal_pointer (&task), g_steal_pointer (&error));

  _viva_openai_stream_resolve_model (g_steal_pointer (&task));
}

static void
lookup_key_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  VivaOpenAIModel *self = g_task_get_source_object (task);
  StreamData *data = g_task_get_task_data (task);
  GCancellable *cancellable = g_task_get_cancellable (task);
  g_autoptr(GError) error = NULL;

  data->api_key = viva_secrets_lookup_finish (VIVA_SECRETS (object), result, &error);
  if (error != NULL)
    return _viva_openai_stream_fail (g_steal_pointer (&task), g_steal_pointer (&error));

  if (self->server_kind == VIVA_SERVER_KIND_UNKNOWN)
    return viva_openai_model_detect_server_async (self, cancellable, detect_cb, g_steal_pointer (&task));

  _viva_openai_stream_resolve_model (g_steal_pointer (&task));
}

void
_viva_openai_model_stream_async (VivaChatModel       *model,
                                 VivaChatRequest     *request,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  VivaOpenAIModel *self = VIVA_OPENAI_MODEL (model);
  g_autoptr(GTask) task = NULL;
  StreamData *data;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, _viva_openai_model_stream_async);
  data = g_new0 (StreamData, 1);
  data->request = viva_chat_request_ref (request);
  data->first_byte_limit = self->first_byte_timeout;
  g_task_set_task_data (task, data, (GDestroyNotify)stream_data_free);

  viva_secrets_lookup_async (self->secrets, self->base_url, cancellable, lookup_key_cb, g_steal_pointer (&task));
}

VivaChatReply *
_viva_openai_model_stream_finish (VivaChatModel  *model,
                                  GAsyncResult   *result,
                                  GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, model), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

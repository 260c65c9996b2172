/* viva-openai-model-stream.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "viva-chat-reply-private.h"
#include "viva-model-address.h"
#include "viva-model-body.h"
#include "viva-model-http-private.h"
#include "viva-model-private.h"
#include "viva-model-retry.h"
#include "viva-model-watchdog.h"
#include "viva-openai-model-private.h"
#include "viva-reply-assembler.h"
#include "viva-reply-limits.h"
#include "viva-sse-reader.h"

/* One stream of VivaOpenAIModel: a chain of steps on the caller's main
 * context: look up the API key, detect the server once, resolve the model
 * name, then attempts. An attempt POSTs, checks status and content type,
 * and reads events one at a time into a fresh VivaReplyAssembler. A
 * watchdog ticks through the attempt and cancels it when no byte came for
 * the first-byte timeout (before the first byte) or the idle timeout
 * (after it). Transient faults are retried with backoff and jitter, but
 * only before any delta went out: after that a fault ends the stream with
 * what arrived, marked truncated, so nothing shown is lost or shown twice.
 * Whether and when a failed attempt is tried again is the stream's
 * VivaModelRetry's to say (viva-model-retry.c); this file reads the
 * failure and does what the policy decides.
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
 * (stream_fail, _succeed, _fault, _start_attempt…) take the reference
 * they are given. What fires while an attempt runs (the
 * watchdog, the assembler's deltas, a retry's delay) holds a reference of
 * its own, dropped when the attempt ends and its sources go. */

/* One stream's state, the task data of its GTask. */
typedef struct
{
  VivaChatRequest    *request;
  char               *api_key;
  char               *model;
  gboolean            native;
  VivaModelRetry     *retry;

  gboolean            dropped_temperature;
  gboolean            dropped_stream_options;

  GCancellable       *attempt_cancellable;
  gulong              cancelled_id;
  SoupMessage        *message;
  VivaSseReader      *reader;
  VivaReplyAssembler *assembler;
  VivaModelWatchdog  *watchdog;
  GSource            *delay;
  GSource            *delay_cancel;

  gboolean            busy;
} StreamData;

static void stream_start_attempt (GTask *task);
static void stream_resolve_model (GTask *task);

static void
stream_data_end_attempt (StreamData *data)
{
  /* Closed, not left to its finalizer: libsoup then drops the connection
   * of a body not read to its end (a server still talking past a limit). */
  if (data->reader != NULL && viva_sse_reader_get_stream (data->reader) != NULL)
    g_input_stream_close_async (viva_sse_reader_get_stream (data->reader), G_PRIORITY_DEFAULT, NULL, NULL, NULL);

  g_clear_pointer (&data->watchdog, viva_model_watchdog_free);
  _viva_model_clear_source (&data->delay);
  _viva_model_clear_source (&data->delay_cancel);
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
  g_clear_pointer (&data->retry, viva_model_retry_free);
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
static void
stream_end_attempt (GTask *task)
{
  disconnect_cancellable (task);
  stream_data_end_attempt (g_task_get_task_data (task));
}

static GError *
cancelled_error (void)
{
  return g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Operation was cancelled"));
}

/* This stream waits for a busy server; @wait_s is what it announced. */
static void
stream_busy (GTask *task,
             guint  wait_s)
{
  StreamData *data = g_task_get_task_data (task);

  _viva_openai_model_busy_begin (g_task_get_source_object (task), data->busy, wait_s);
  data->busy = TRUE;
  viva_model_retry_busy_began (data->retry);
}

static void
stream_not_busy (GTask *task)
{
  StreamData *data = g_task_get_task_data (task);

  if (!data->busy)
    return;

  data->busy = FALSE;
  _viva_openai_model_busy_end (g_task_get_source_object (task));
}

/* Takes @task's reference and @error. */
static void
stream_fail (GTask  *task_in,
             GError *error)
{
  g_autoptr(GTask) task = task_in;
  VivaOpenAIModel *self = g_task_get_source_object (task);

  stream_end_attempt (task);
  stream_not_busy (task);
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
static void
stream_succeed (GTask    *task_in,
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

  stream_end_attempt (task);
  stream_not_busy (task);
  _viva_openai_model_set_error (self, NULL);
  _viva_openai_model_set_served_model (self, viva_chat_reply_get_model (reply) != NULL
                                             ? viva_chat_reply_get_model (reply) : data->model);
  g_task_return_pointer (task, g_steal_pointer (&reply), (GDestroyNotify)viva_chat_reply_unref);
}

/* What follows a failed attempt. The retry's two sources each hold a
 * reference; whichever fires first takes one for the next step and
 * destroys both, which drops theirs. */
static gboolean
retry_delay_cb (gpointer user_data)
{
  g_autoptr(GTask) task = g_object_ref (user_data);
  StreamData *data = g_task_get_task_data (task);

  _viva_model_clear_source (&data->delay);
  _viva_model_clear_source (&data->delay_cancel);

  if (data->model == NULL)
    stream_resolve_model (g_steal_pointer (&task));
  else
    stream_start_attempt (g_steal_pointer (&task));
  return G_SOURCE_REMOVE;
}

static gboolean
retry_cancelled_cb (GCancellable *cancellable,
                    gpointer      user_data)
{
  g_autoptr(GTask) task = g_object_ref (user_data);
  StreamData *data = g_task_get_task_data (task);

  _viva_model_clear_source (&data->delay_cancel);
  _viva_model_clear_source (&data->delay);

  stream_fail (g_steal_pointer (&task), cancelled_error ());
  return G_SOURCE_REMOVE;
}

/* Takes @task's reference and @error. Once a delta went out, a fault ends
 * the stream with what arrived; before, the retry policy says whether it
 * is tried again. @retry_after_ms is the server's Retry-After, or 0. */
static void
stream_fault (GTask    *task_in,
              GError   *error,
              gboolean  retryable,
              gboolean  busy,
              guint     retry_after_ms)
{
  g_autoptr(GTask) task = task_in;
  VivaOpenAIModel *self = g_task_get_source_object (task);
  StreamData *data = g_task_get_task_data (task);
  guint64 delay_ms = 0;
  guint minutes;

  if (data->assembler != NULL && viva_reply_assembler_get_has_output (data->assembler))
    {
      g_debug ("model: stream cut after output: %s", error->message);
      g_error_free (error);
      return stream_succeed (g_steal_pointer (&task), TRUE);
    }

  switch (viva_model_retry_next (data->retry, retryable, busy, retry_after_ms,
                                 viva_model_watchdog_timed_out (data->watchdog) && !viva_model_watchdog_got_first_byte (data->watchdog),
                                 g_cancellable_is_cancelled (g_task_get_cancellable (task)), &delay_ms))
    {
    case VIVA_MODEL_RETRY_STILL_BUSY:
      minutes = (viva_model_retry_get_max_busy_wait (data->retry) + 59999) / 60000;
      g_debug ("model: still busy after %u ms: %s", viva_model_retry_get_max_busy_wait (data->retry), error->message);
      g_error_free (error);
      return stream_fail (g_steal_pointer (&task), g_error_new (VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_BUSY,
                                             g_dngettext (GETTEXT_PACKAGE,
                                                          "The model server at %s was still busy after %u minute — try again later; if a whole lab uses it, ask whoever runs it to serve more students at once.",
                                                          "The model server at %s was still busy after %u minutes — try again later; if a whole lab uses it, ask whoever runs it to serve more students at once.",
                                                          minutes),
                                             self->base_url, minutes));

    case VIVA_MODEL_RETRY_GIVE_UP:
      return stream_fail (g_steal_pointer (&task), error);

    case VIVA_MODEL_RETRY_AGAIN:
    default:
      break;
    }

  if (busy)
    stream_busy (task, (retry_after_ms + 999) / 1000);

  self->n_retries++;
  g_debug ("model: attempt %u failed (%s); retrying in %" G_GUINT64_FORMAT " ms%s",
           viva_model_retry_get_attempt (data->retry), error->message, delay_ms, busy ? " (busy)" : "");
  g_error_free (error);

  stream_end_attempt (task);

  data->delay = g_timeout_source_new ((guint)delay_ms);
  g_source_set_callback (data->delay, retry_delay_cb, g_object_ref (task), g_object_unref);
  g_source_attach (data->delay, g_task_get_context (task));

  if (g_task_get_cancellable (task) != NULL)
    {
      data->delay_cancel = g_cancellable_source_new (g_task_get_cancellable (task));
      g_source_set_callback (data->delay_cancel, G_SOURCE_FUNC (retry_cancelled_cb),
                             g_object_ref (task), g_object_unref);
      g_source_attach (data->delay_cancel, g_task_get_context (task));
    }
}

static GError *
timeout_error (VivaOpenAIModel *self,
               StreamData      *data)
{
  if (!viva_model_watchdog_got_first_byte (data->watchdog))
    return g_error_new (VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_TIMEOUT,
                        _("The model server at %s did not start answering within %u seconds — it may still be loading the model; try again, or allow more time in Preferences."),
                        self->base_url, (viva_model_retry_get_first_byte_limit (data->retry) + 999) / 1000);

  return g_error_new (VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_TIMEOUT,
                      _("The model server at %s stopped answering for %u seconds — try again."),
                      self->base_url, (self->idle_timeout + 999) / 1000);
}

/* A read failed: the caller's cancellation, the watchdog, or the network.
 * Takes @task's reference and @error. */
static void
stream_read_failed (GTask  *task_in,
                    GError *error)
{
  g_autoptr(GTask) task = task_in;
  VivaOpenAIModel *self = g_task_get_source_object (task);
  StreamData *data = g_task_get_task_data (task);
  GError *fault;
  gboolean retryable;

  if (g_cancellable_is_cancelled (g_task_get_cancellable (task)))
    {
      g_error_free (error);
      return stream_fail (g_steal_pointer (&task), cancelled_error ());
    }

  /* Past the reply's deadline: not retried, and not kept as a truncated
   * reply either, since a server that talks forever would then win. */
  if (viva_model_watchdog_past_time_limit (data->watchdog))
    {
      g_error_free (error);
      return stream_fail (g_steal_pointer (&task),
                          viva_reply_limit_error_new (VIVA_REPLY_LIMIT_TIME, self->max_reply_time));
    }

  if (viva_model_watchdog_timed_out (data->watchdog))
    {
      g_error_free (error);
      return stream_fault (g_steal_pointer (&task), timeout_error (self, data), TRUE,
                           !viva_model_watchdog_got_first_byte (data->watchdog), 0);
    }

  /* Two statements: C leaves the order of arguments' evaluation open. */
  fault = _viva_openai_model_transport_error (self, error, &retryable);
  g_error_free (error);
  stream_fault (g_steal_pointer (&task), fault, retryable, FALSE, 0);
}

/* The model rejected @parameter: it is not sent again to this model, and
 * the attempt is made again at once, not counted. */
static void
retry_without (GTask      *task_in,
               const char *parameter,
               GHashTable *rejected_by,
               gboolean   *dropped)
{
  g_autoptr(GTask) task = task_in;
  StreamData *data = g_task_get_task_data (task);

  g_debug ("model: %s rejects %s; not sending it again", data->model, parameter);
  g_hash_table_add (rejected_by, g_strdup (data->model));
  *dropped = TRUE;
  stream_end_attempt (task);
  viva_model_retry_uncount_attempt (data->retry);
  stream_start_attempt (g_steal_pointer (&task));
}

/* An error answer's body was read: a parameter to leave out, or a fault. */
static void
error_body_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  VivaOpenAIModel *self = g_task_get_source_object (task);
  StreamData *data = g_task_get_task_data (task);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(JsonNode) body = NULL;
  g_autoptr(GError) read_error = NULL;
  guint status = soup_message_get_status (data->message);
  gboolean is_ollama = data->native || _viva_openai_model_looks_like_ollama (self);

  if (!(bytes = _viva_model_http_read_small_finish (result, &read_error)) &&
      (g_cancellable_is_cancelled (g_task_get_cancellable (task)) || viva_model_watchdog_timed_out (data->watchdog) ||
       viva_model_watchdog_past_time_limit (data->watchdog)))
    return stream_read_failed (g_steal_pointer (&task), g_steal_pointer (&read_error));

  body = _viva_model_error_body_new (bytes);

  /* Parameters some servers reject: drop, remember for this model, retry
   * at once (not counted as an attempt). */
  if (status == 400 || status == 422)
    {
      if (!data->dropped_temperature && !g_hash_table_contains (self->no_temperature, data->model) &&
          _viva_model_error_body_mentions (body, "temperature"))
        return retry_without (g_steal_pointer (&task), "temperature", self->no_temperature,
                              &data->dropped_temperature);

      if (!data->native && !data->dropped_stream_options &&
          !g_hash_table_contains (self->no_stream_options, data->model) &&
          (_viva_model_error_body_mentions (body, "stream_options") ||
           _viva_model_error_body_mentions (body, "include_usage")))
        return retry_without (g_steal_pointer (&task), "stream_options", self->no_stream_options,
                              &data->dropped_stream_options);
    }

  stream_fault (g_steal_pointer (&task),
                _viva_model_error_new_for_status (status, body, data->model, self->base_url, is_ollama),
                status == 429 || status == 500 || status == 502 || status == 503 || status == 504,
                status == 429 || status == 503,
                viva_model_retry_after (data->message));
}

/* The temperature to send: none once the model rejected it, else the
 * request's, else the configured one (negative: the server's default). */
static double
stream_temperature (VivaOpenAIModel *self,
                    StreamData      *data)
{
  double temperature;

  if (data->dropped_temperature || g_hash_table_contains (self->no_temperature, data->model))
    return -1.0;

  if (viva_chat_request_get_temperature (data->request, &temperature))
    return temperature;

  return self->temperature;
}

static void
watchdog_cb (VivaModelWatchdogEvent event,
             gpointer               user_data)
{
  GTask *task = user_data;
  StreamData *data = g_task_get_task_data (task);

  if (event == VIVA_MODEL_WATCHDOG_PROGRESS)
    stream_not_busy (task);
  else if (!data->busy)
    stream_busy (task, 0);
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
    return stream_fail (g_steal_pointer (&task), error);

  if (error != NULL)
    return stream_read_failed (g_steal_pointer (&task), error);

  /* The body ended before anything was said: the connection broke, as
   * when a server restarts. Worth another attempt. */
  if (event == NULL && !viva_reply_assembler_get_has_output (data->assembler) &&
      !viva_reply_assembler_get_finished (data->assembler))
    return stream_fault (g_steal_pointer (&task),
                                      g_error_new (VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_CONNECTION,
                                                   _("The model server at %s closed the connection before answering — try again."),
                                                   self->base_url),
                                      TRUE, FALSE, 0);

  if (event == NULL)
    return stream_succeed (g_steal_pointer (&task), FALSE);

  if (!viva_reply_assembler_feed_event (data->assembler, event, &error))
    return stream_fail (g_steal_pointer (&task), error);

  /* [DONE] (or Ollama's done line) ends the reply; a finish_reason does
   * not, since usage and the last fragments may follow it. */
  if (viva_reply_assembler_get_done (data->assembler))
    return stream_succeed (g_steal_pointer (&task), FALSE);

  viva_sse_reader_read_event_async (data->reader, data->attempt_cancellable, read_event_cb,
                                    g_steal_pointer (&task));
}

static void
emit_delta (const VivaChatDelta *delta,
            gpointer             user_data)
{
  GTask *task = user_data;
  StreamData *data = g_task_get_task_data (task);

  stream_not_busy (task);
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

  if (!(bytes = _viva_model_http_read_small_finish (result, &error)))
    return stream_read_failed (g_steal_pointer (&task), error);

  node = _viva_json_parse (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return stream_fail (g_steal_pointer (&task),
                                     g_error_new (VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_INVALID_RESPONSE,
                                                  _("The server at %s answered something that is not a chat reply."),
                                                  self->base_url));

  if (!viva_reply_assembler_feed_chunk (data->assembler, json_node_get_object (node), &error))
    return stream_fail (g_steal_pointer (&task), error);

  stream_succeed (g_steal_pointer (&task), FALSE);
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
    return stream_read_failed (g_steal_pointer (&task), error);

  status = soup_message_get_status (data->message);
  if (!SOUP_STATUS_IS_SUCCESSFUL (status))
    return _viva_model_http_read_small_async (stream, data->attempt_cancellable, error_body_cb,
                                        g_steal_pointer (&task));

  content_type = soup_message_headers_get_content_type (soup_message_get_response_headers (data->message), NULL);

  if (!data->native && g_strcmp0 (content_type, "application/json") == 0)
    return _viva_model_http_read_small_async (stream, data->attempt_cancellable, whole_json_cb, g_steal_pointer (&task));

  if (content_type != NULL &&
      g_strcmp0 (content_type, "text/event-stream") != 0 &&
      g_strcmp0 (content_type, "application/x-ndjson") != 0 &&
      g_strcmp0 (content_type, "application/json") != 0 &&
      g_strcmp0 (content_type, "text/plain") != 0)
    {
      /* Not read: closing drops the connection instead of draining it. */
      g_input_stream_close_async (stream, G_PRIORITY_DEFAULT, NULL, NULL, NULL);
      return stream_fail (g_steal_pointer (&task),
                                       g_error_new (VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_INVALID_RESPONSE,
                                                    _("The server at %s answered with %s, not a stream of replies — check the address; it usually ends in “/v1”."),
                                                    self->base_url, content_type));
    }

  data->reader = viva_sse_reader_new (stream, data->native ? VIVA_SSE_FORMAT_NDJSON : VIVA_SSE_FORMAT_EVENT_STREAM);
  viva_sse_reader_set_limits (data->reader, self->max_line_bytes, self->max_reply_bytes);
  viva_model_watchdog_watch (data->watchdog, data->reader);
  viva_sse_reader_read_event_async (data->reader, data->attempt_cancellable, read_event_cb, g_steal_pointer (&task));
}

/* Takes @task's reference: the next attempt, or the end of the stream
 * when it was cancelled. */
static void
stream_start_attempt (GTask *task_in)
{
  g_autoptr(GTask) task = task_in;
  VivaOpenAIModel *self = g_task_get_source_object (task);
  StreamData *data = g_task_get_task_data (task);
  g_autoptr(GBytes) body = NULL;
  g_autofree char *url = NULL;
  GPtrArray *tools = viva_chat_request_get_tools (data->request);
  g_autoptr(GStrvBuilder) names = g_strv_builder_new ();
  g_auto(GStrv) tool_names = NULL;
  double temperature;

  if (g_task_return_error_if_cancelled (task))
    {
      stream_data_end_attempt (data);
      stream_not_busy (task);
      return;
    }

  viva_model_retry_begin_attempt (data->retry);
  data->attempt_cancellable = g_cancellable_new ();
  if (g_task_get_cancellable (task) != NULL)
    data->cancelled_id = g_cancellable_connect (g_task_get_cancellable (task),
                                                G_CALLBACK (_viva_model_forward_cancel),
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
  if (!(data->message = _viva_model_http_message_new (SOUP_METHOD_POST, url, data->api_key)))
    return stream_fail (g_steal_pointer (&task), viva_model_address_error_new (self->base_url));

  /* Two statements: C leaves the order of arguments' evaluation open. */
  temperature = stream_temperature (self, data);
  body = _viva_model_body_new (data->request, data->model, data->native, temperature, self->context_length,
                               !data->native && !data->dropped_stream_options &&
                               !g_hash_table_contains (self->no_stream_options, data->model));
  soup_message_set_request_body_from_bytes (data->message, "application/json", body);

  /* The watchdog is the attempt's, and ends with it. */
  data->watchdog = viva_model_watchdog_new (g_task_get_context (task), data->attempt_cancellable,
                                            viva_model_retry_get_first_byte_limit (data->retry),
                                            self->idle_timeout, self->max_reply_time,
                                            watchdog_cb, g_object_ref (task), g_object_unref);

  g_debug ("model: POST %s (attempt %u)", url, viva_model_retry_get_attempt (data->retry));
  soup_session_send_async (self->session, data->message, G_PRIORITY_DEFAULT,
                           data->attempt_cancellable, send_cb, g_steal_pointer (&task));
}

static void
first_model_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  StreamData *data = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  gboolean retryable;
  gboolean busy;

  if ((data->model = _viva_openai_model_first_model_finish (VIVA_OPENAI_MODEL (object), result, &error)))
    return stream_start_attempt (g_steal_pointer (&task));

  if (g_error_matches (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_NO_MODEL))
    return stream_fail (g_steal_pointer (&task), g_steal_pointer (&error));

  /* Not running, or busy: worth the same retries as a chat request. */
  retryable = error->domain == VIVA_MODEL_ERROR &&
              (error->code == VIVA_MODEL_ERROR_NOT_RUNNING ||
               error->code == VIVA_MODEL_ERROR_CONNECTION ||
               error->code == VIVA_MODEL_ERROR_SERVER ||
               error->code == VIVA_MODEL_ERROR_RATE_LIMITED ||
               error->code == VIVA_MODEL_ERROR_BUSY ||
               error->code == VIVA_MODEL_ERROR_TIMEOUT);
  busy = error->domain == VIVA_MODEL_ERROR &&
         (error->code == VIVA_MODEL_ERROR_RATE_LIMITED || error->code == VIVA_MODEL_ERROR_BUSY);

  viva_model_retry_begin_attempt (data->retry);
  stream_fault (g_steal_pointer (&task), g_steal_pointer (&error), retryable, busy, 0);
}

/* Takes @task's reference. */
static void
stream_resolve_model (GTask *task_in)
{
  g_autoptr(GTask) task = task_in;
  VivaOpenAIModel *self = g_task_get_source_object (task);
  StreamData *data = g_task_get_task_data (task);
  const char *model = _viva_openai_model_pick_model (self, data->request);
  GCancellable *cancellable;

  data->native = self->ollama_native && self->server_kind == VIVA_SERVER_KIND_OLLAMA;

  if (model != NULL)
    {
      data->model = g_strdup (model);
      return stream_start_attempt (g_steal_pointer (&task));
    }

  /* Two statements: C leaves the order of arguments' evaluation open. */
  cancellable = g_task_get_cancellable (task);
  _viva_openai_model_first_model_async (self, cancellable, first_model_cb, g_steal_pointer (&task));
}

static void
know_server_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  /* A server that cannot be reached is left undetected; the attempts
   * that follow say why, after their retries. */
  if (_viva_openai_model_know_server_finish (VIVA_OPENAI_MODEL (object), result, &error) == VIVA_SERVER_KIND_UNKNOWN &&
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return stream_fail (g_steal_pointer (&task), g_steal_pointer (&error));

  stream_resolve_model (g_steal_pointer (&task));
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
    return stream_fail (g_steal_pointer (&task), g_steal_pointer (&error));

  _viva_openai_model_know_server_async (self, cancellable, know_server_cb, g_steal_pointer (&task));
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
  data->retry = viva_model_retry_new (self->max_attempts, self->retry_delay, self->max_busy_wait,
                                      self->first_byte_timeout);
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

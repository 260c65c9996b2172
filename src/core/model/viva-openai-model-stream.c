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
#include "viva-reply-assembler.h"
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
 *
 * A busy server is not a fault to give up on after three attempts: a 503
 * or 429, or a first token that is slow to come (a queue), makes the
 * stream wait calmly (VivaOpenAIModel:busy) for up to max-busy-wait in all,
 * with the first-byte timeout raised by what the server announced, since
 * a server that asks to come back in a minute has a queue ahead of us. */

#define MAX_RETRY_AFTER_MS (120 * 1000)
#define SLOW_FIRST_TOKEN_MS (10 * 1000)
#define MAX_BUSY_BACKOFF_MS (30 * 1000)

typedef struct
{
  VivaChatRequest    *request;
  char               *api_key;
  char               *model;
  gboolean            native;

  guint               attempt;
  gboolean            dropped_temperature;
  gboolean            dropped_stream_options;

  GCancellable       *attempt_cancellable;
  gulong              cancelled_id;
  SoupMessage        *message;
  VivaSseReader      *reader;
  VivaReplyAssembler *assembler;
  GSource            *watchdog;
  GSource            *delay;
  GSource            *delay_cancel;
  gint64              last_progress;
  guint64             last_bytes;
  gboolean            got_first_byte;
  gboolean            timed_out;

  guint               first_byte_limit;
  gboolean            busy;
  gint64              busy_started;
  guint               busy_retries;
} StreamData;

static void
clear_source (GSource **source)
{
  if (*source == NULL)
    return;

  g_source_destroy (*source);
  g_clear_pointer (source, g_source_unref);
}

static void
stream_data_end_attempt (StreamData *data)
{
  clear_source (&data->watchdog);
  clear_source (&data->delay);
  clear_source (&data->delay_cancel);
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

static void start_attempt (GTask *task);
static void resolve_model (GTask *task);

/* This stream waits for a busy server; @wait_s is what it announced. */
static void
stream_busy (GTask *task,
             guint  wait_s)
{
  StreamData *data = g_task_get_task_data (task);

  _viva_openai_model_busy_begin (g_task_get_source_object (task), data->busy, wait_s);
  data->busy = TRUE;
  if (data->busy_started == 0)
    data->busy_started = g_get_monotonic_time ();
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
end_attempt (GTask *task)
{
  disconnect_cancellable (task);
  stream_data_end_attempt (g_task_get_task_data (task));
}

static GError *
cancelled_error (void)
{
  return g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Operation was cancelled"));
}

static void
stream_fail (GTask  *task,
             GError *error)
{
  VivaOpenAIModel *self = g_task_get_source_object (task);

  end_attempt (task);
  stream_not_busy (task);
  _viva_openai_model_set_error (self, error);
  g_task_return_error (task, error);
  g_object_unref (task);
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

static void
stream_succeed (GTask    *task,
                gboolean  cut_off)
{
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

  if (data->reader != NULL && viva_sse_reader_get_stream (data->reader) != NULL)
    g_input_stream_close_async (viva_sse_reader_get_stream (data->reader), G_PRIORITY_DEFAULT, NULL, NULL, NULL);

  end_attempt (task);
  stream_not_busy (task);
  _viva_openai_model_set_error (self, NULL);
  g_task_return_pointer (task, g_steal_pointer (&reply), (GDestroyNotify)viva_chat_reply_unref);
  g_object_unref (task);
}

static gboolean
retry_delay_cb (gpointer user_data)
{
  GTask *task = user_data;
  StreamData *data = g_task_get_task_data (task);

  g_clear_pointer (&data->delay, g_source_unref);
  clear_source (&data->delay_cancel);

  if (data->model == NULL)
    resolve_model (task);
  else
    start_attempt (task);
  return G_SOURCE_REMOVE;
}

static gboolean
retry_cancelled_cb (GCancellable *cancellable,
                    gpointer      user_data)
{
  GTask *task = user_data;
  StreamData *data = g_task_get_task_data (task);

  g_clear_pointer (&data->delay_cancel, g_source_unref);
  clear_source (&data->delay);

  stream_fail (task, cancelled_error ());
  return G_SOURCE_REMOVE;
}

/* Takes @task's reference and @error. Retries when the fault is transient,
 * attempts remain and nothing was shown yet; @retry_after_ms is the
 * server's Retry-After, or 0. A @busy server's retries do not count as
 * attempts: the stream waits for it up to max-busy-wait in all. */
static void
stream_fault (GTask    *task,
              GError   *error,
              gboolean  retryable,
              gboolean  busy,
              guint     retry_after_ms)
{
  VivaOpenAIModel *self = g_task_get_source_object (task);
  StreamData *data = g_task_get_task_data (task);
  gint64 now = g_get_monotonic_time ();
  gint64 busy_left = 0;
  guint64 delay_ms;
  guint64 base;
  /* With max-busy-wait 0, a busy server's retries count as attempts. */
  gboolean waits = busy && self->max_busy_wait > 0;

  if (data->assembler != NULL && viva_reply_assembler_get_has_output (data->assembler))
    {
      g_debug ("model: stream cut after output: %s", error->message);
      g_error_free (error);
      return stream_succeed (task, TRUE);
    }

  if (waits)
    busy_left = (gint64)self->max_busy_wait - (data->busy_started > 0 ? (now - data->busy_started) / 1000 : 0);

  if (waits && busy_left <= 0 && retryable)
    {
      guint minutes = (self->max_busy_wait + 59999) / 60000;

      g_debug ("model: still busy after %u ms: %s", self->max_busy_wait, error->message);
      g_error_free (error);
      return stream_fail (task, g_error_new (VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_BUSY,
                                             g_dngettext (GETTEXT_PACKAGE,
                                                          "The model server at %s was still busy after %u minute — try again later; if a whole lab uses it, ask whoever runs it to serve more students at once.",
                                                          "The model server at %s was still busy after %u minutes — try again later; if a whole lab uses it, ask whoever runs it to serve more students at once.",
                                                          minutes),
                                             self->base_url, minutes));
    }

  if (!retryable || (!waits && data->attempt >= self->max_attempts) ||
      retry_after_ms > MAX_RETRY_AFTER_MS || g_cancellable_is_cancelled (g_task_get_cancellable (task)))
    return stream_fail (task, error);

  if (waits)
    {
      data->busy_retries++;
      base = MIN ((guint64)self->retry_delay << MIN (data->busy_retries - 1, 16), MAX_BUSY_BACKOFF_MS);
      /* A queue that took the whole first-byte timeout gets twice as long
       * next time; a server that asked to wait, that long on top. */
      if (data->timed_out && !data->got_first_byte)
        data->first_byte_limit = (guint)MIN ((guint64)data->first_byte_limit * 2,
                                             (guint64)self->first_byte_timeout * 4);
      data->first_byte_limit = (guint)MAX ((guint64)data->first_byte_limit,
                                           (guint64)self->first_byte_timeout + 2 * (guint64)retry_after_ms);
      /* Not an attempt: a busy server is waited for, not given up on. */
      if (data->attempt > 0)
        data->attempt--;
    }
  else
    base = (guint64)self->retry_delay << MIN (data->attempt - 1, 16);

  delay_ms = base / 2 + g_random_int_range (0, (gint32)MIN (base / 2 + 1, G_MAXINT32));
  delay_ms = MAX (delay_ms, retry_after_ms);
  if (waits)
    delay_ms = (guint64)MIN ((gint64)delay_ms, MAX (busy_left, 0));
  if (busy)
    stream_busy (task, (retry_after_ms + 999) / 1000);

  self->n_retries++;
  g_debug ("model: attempt %u failed (%s); retrying in %" G_GUINT64_FORMAT " ms%s",
           data->attempt, error->message, delay_ms, busy ? " (busy)" : "");
  g_error_free (error);

  end_attempt (task);

  data->delay = g_timeout_source_new ((guint)delay_ms);
  g_source_set_callback (data->delay, retry_delay_cb, task, NULL);
  g_source_attach (data->delay, g_task_get_context (task));

  if (g_task_get_cancellable (task) != NULL)
    {
      data->delay_cancel = g_cancellable_source_new (g_task_get_cancellable (task));
      g_source_set_callback (data->delay_cancel, G_SOURCE_FUNC (retry_cancelled_cb), task, NULL);
      g_source_attach (data->delay_cancel, g_task_get_context (task));
    }
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
      stream_not_busy (task);
    }

  limit = data->got_first_byte ? self->idle_timeout : data->first_byte_limit;

  /* Waiting its turn in the server's queue, as far as anyone can tell. */
  if (!data->got_first_byte && !data->busy &&
      now - data->last_progress >= (gint64)MIN (SLOW_FIRST_TOKEN_MS, limit / 2) * 1000)
    stream_busy (task, 0);

  if (now - data->last_progress >= (gint64)limit * 1000)
    {
      data->timed_out = TRUE;
      g_clear_pointer (&data->watchdog, g_source_unref);
      g_cancellable_cancel (data->attempt_cancellable);
      return G_SOURCE_REMOVE;
    }

  return G_SOURCE_CONTINUE;
}

static GError *
timeout_error (VivaOpenAIModel *self,
               StreamData      *data)
{
  if (!data->got_first_byte)
    return g_error_new (VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_TIMEOUT,
                        _("The model server at %s did not start answering within %u seconds — it may still be loading the model; try again, or allow more time in Preferences."),
                        self->base_url, (data->first_byte_limit + 999) / 1000);

  return g_error_new (VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_TIMEOUT,
                      _("The model server at %s stopped answering for %u seconds — try again."),
                      self->base_url, (self->idle_timeout + 999) / 1000);
}

/* A read failed: the caller's cancellation, the watchdog, or the network. */
static void
stream_read_failed (GTask  *task,
                    GError *error)
{
  VivaOpenAIModel *self = g_task_get_source_object (task);
  StreamData *data = g_task_get_task_data (task);
  GError *fault;
  gboolean retryable;

  if (g_cancellable_is_cancelled (g_task_get_cancellable (task)))
    {
      g_error_free (error);
      return stream_fail (task, cancelled_error ());
    }

  if (data->timed_out)
    {
      g_error_free (error);
      return stream_fault (task, timeout_error (self, data), TRUE, !data->got_first_byte, 0);
    }

  /* Two statements: C leaves the order of arguments' evaluation open. */
  fault = _viva_openai_model_transport_error (self, error, &retryable);
  g_error_free (error);
  stream_fault (task, fault, retryable, FALSE, 0);
}

static void
read_event_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  GTask *task = user_data;
  StreamData *data = g_task_get_task_data (task);
  g_autoptr(VivaSseEvent) event = NULL;
  GError *error = NULL;

  event = viva_sse_reader_read_event_finish (VIVA_SSE_READER (object), result, &error);

  if (error != NULL)
    return stream_read_failed (task, error);

  /* The body ended before anything was said: the connection broke, as
   * when a server restarts. Worth another attempt. */
  if (event == NULL && !viva_reply_assembler_get_has_output (data->assembler) &&
      !viva_reply_assembler_get_finished (data->assembler))
    return stream_fault (task,
                         g_error_new (VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_CONNECTION,
                                      _("The model server at %s closed the connection before answering — try again."),
                                      viva_openai_model_get_base_url (g_task_get_source_object (task))),
                         TRUE, FALSE, 0);

  if (event == NULL)
    return stream_succeed (task, FALSE);

  if (!viva_reply_assembler_feed_event (data->assembler, event, &error))
    return stream_fail (task, error);

  /* [DONE] (or Ollama's done line) ends the reply; a finish_reason does
   * not, since usage and the last fragments may follow it. */
  if (viva_reply_assembler_get_done (data->assembler))
    return stream_succeed (task, FALSE);

  viva_sse_reader_read_event_async (data->reader, data->attempt_cancellable, read_event_cb, task);
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

static gboolean
mentions (JsonNode   *body,
          const char *word)
{
  g_autofree char *message = _viva_model_error_message_from_body (body);
  g_autofree char *lower = message != NULL ? g_ascii_strdown (message, -1) : NULL;

  return lower != NULL && strstr (lower, word) != NULL;
}

/* The model rejected @parameter: it is not sent again to this model, and
 * the attempt is made again at once, not counted. */
static void
retry_without (GTask      *task,
               const char *parameter,
               GHashTable *rejected_by,
               gboolean   *dropped)
{
  StreamData *data = g_task_get_task_data (task);

  g_debug ("model: %s rejects %s; not sending it again", data->model, parameter);
  g_hash_table_add (rejected_by, g_strdup (data->model));
  *dropped = TRUE;
  end_attempt (task);
  data->attempt--;
  start_attempt (task);
}

static guint
parse_retry_after (SoupMessage *message)
{
  const char *value = soup_message_headers_get_one (soup_message_get_response_headers (message), "Retry-After");
  g_autoptr(GDateTime) when = NULL;
  g_autoptr(GDateTime) now = NULL;
  char *end = NULL;
  guint64 seconds;

  if (value == NULL)
    return 0;

  seconds = g_ascii_strtoull (value, &end, 10);
  if (end != value && *end == '\0')
    return (guint)MIN (seconds * 1000, G_MAXUINT);

  /* Or an HTTP-date, said rarely. */
  if (!(when = soup_date_time_new_from_http_string (value)))
    return 0;

  now = g_date_time_new_now_utc ();
  return (guint)CLAMP (g_date_time_difference (when, now) / 1000, 0, G_MAXUINT);
}

static void
error_body_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  GTask *task = user_data;
  VivaOpenAIModel *self = g_task_get_source_object (task);
  StreamData *data = g_task_get_task_data (task);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(JsonNode) body = NULL;
  g_autoptr(GError) read_error = NULL;
  guint status = soup_message_get_status (data->message);
  guint retry_after;
  gboolean is_ollama = data->native || _viva_openai_model_looks_like_ollama (self);

  if (!(bytes = _viva_read_small_body_finish (result, &read_error)))
    {
      if (g_cancellable_is_cancelled (g_task_get_cancellable (task)) || data->timed_out)
        return stream_read_failed (task, g_steal_pointer (&read_error));
    }
  else if (!(body = _viva_json_parse (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL)) &&
           g_bytes_get_size (bytes) > 0)
    {
      /* A plain-text body still says something a person can use. */
      g_autofree char *text = g_utf8_make_valid (g_bytes_get_data (bytes, NULL),
                                                 MIN (g_bytes_get_size (bytes), 500));

      body = json_node_new (JSON_NODE_VALUE);
      json_node_set_string (body, g_strstrip (text));
    }

  /* Parameters some servers reject: drop, remember for this model, retry
   * at once (not counted as an attempt). */
  if (status == 400 || status == 422)
    {
      gboolean sent_temperature = !data->dropped_temperature &&
                                  !g_hash_table_contains (self->no_temperature, data->model);

      if (sent_temperature && mentions (body, "temperature"))
        return retry_without (task, "temperature", self->no_temperature, &data->dropped_temperature);

      if (!data->native && !data->dropped_stream_options &&
          !g_hash_table_contains (self->no_stream_options, data->model) &&
          (mentions (body, "stream_options") || mentions (body, "include_usage")))
        return retry_without (task, "stream_options", self->no_stream_options, &data->dropped_stream_options);
    }

  retry_after = parse_retry_after (data->message);
  stream_fault (task,
                _viva_model_error_new_for_status (status, body, data->model, self->base_url, is_ollama),
                status == 429 || status == 500 || status == 502 || status == 503 || status == 504,
                status == 429 || status == 503,
                retry_after);
}

static void
whole_json_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  GTask *task = user_data;
  StreamData *data = g_task_get_task_data (task);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(JsonNode) node = NULL;
  GError *error = NULL;

  if (!(bytes = _viva_read_small_body_finish (result, &error)))
    return stream_read_failed (task, error);

  node = _viva_json_parse (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return stream_fail (task, g_error_new (VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_INVALID_RESPONSE,
                                           _("The server at %s answered something that is not a chat reply."),
                                           viva_openai_model_get_base_url (g_task_get_source_object (task))));

  if (!viva_reply_assembler_feed_chunk (data->assembler, json_node_get_object (node), &error))
    return stream_fail (task, error);

  stream_succeed (task, FALSE);
}

static void
send_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  GTask *task = user_data;
  VivaOpenAIModel *self = g_task_get_source_object (task);
  StreamData *data = g_task_get_task_data (task);
  g_autoptr(GInputStream) stream = NULL;
  GError *error = NULL;
  const char *content_type;
  guint status;

  if (!(stream = soup_session_send_finish (SOUP_SESSION (object), result, &error)))
    return stream_read_failed (task, error);

  status = soup_message_get_status (data->message);
  if (!SOUP_STATUS_IS_SUCCESSFUL (status))
    return _viva_read_small_body_async (stream, data->attempt_cancellable, error_body_cb, task);

  content_type = soup_message_headers_get_content_type (soup_message_get_response_headers (data->message), NULL);

  if (!data->native && g_strcmp0 (content_type, "application/json") == 0)
    return _viva_read_small_body_async (stream, data->attempt_cancellable, whole_json_cb, task);

  if (content_type != NULL &&
      g_strcmp0 (content_type, "text/event-stream") != 0 &&
      g_strcmp0 (content_type, "application/x-ndjson") != 0 &&
      g_strcmp0 (content_type, "application/json") != 0 &&
      g_strcmp0 (content_type, "text/plain") != 0)
    return stream_fail (task, g_error_new (VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_INVALID_RESPONSE,
                                           _("The server at %s answered with %s, not a stream of replies — check the address; it usually ends in “/v1”."),
                                           self->base_url, content_type));

  data->reader = viva_sse_reader_new (stream, data->native ? VIVA_SSE_FORMAT_NDJSON : VIVA_SSE_FORMAT_EVENT_STREAM);
  viva_sse_reader_read_event_async (data->reader, data->attempt_cancellable, read_event_cb, task);
}

static void
attempt_cancelled_cb (GCancellable *cancellable,
                      GCancellable *attempt_cancellable)
{
  g_cancellable_cancel (attempt_cancellable);
}

static void
start_attempt (GTask *task)
{
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
      stream_not_busy (task);
      g_object_unref (task);
      return;
    }

  data->attempt++;
  data->timed_out = FALSE;
  data->got_first_byte = FALSE;
  data->last_bytes = 0;
  data->last_progress = g_get_monotonic_time ();
  data->attempt_cancellable = g_cancellable_new ();
  if (g_task_get_cancellable (task) != NULL)
    data->cancelled_id = g_cancellable_connect (g_task_get_cancellable (task),
                                                G_CALLBACK (attempt_cancelled_cb),
                                                g_object_ref (data->attempt_cancellable),
                                                g_object_unref);

  data->assembler = viva_reply_assembler_new (data->native ? VIVA_REPLY_FORMAT_OLLAMA : VIVA_REPLY_FORMAT_OPENAI);
  viva_reply_assembler_set_delta_func (data->assembler, emit_delta, task, NULL);
  viva_reply_assembler_set_model_name (data->assembler, data->model,
                                       data->native || _viva_openai_model_looks_like_ollama (self));
  for (guint i = 0; i < tools->len; i++)
    g_strv_builder_add (names, viva_tool_definition_get_name (g_ptr_array_index (tools, i)));
  tool_names = g_strv_builder_end (names);
  viva_reply_assembler_set_tool_names (data->assembler, (const char * const *)tool_names);

  url = data->native ? _viva_openai_model_root_url (self, "/api/chat")
                     : _viva_openai_model_url (self, "/chat/completions");
  if (!(data->message = _viva_openai_model_new_message (self, SOUP_METHOD_POST, url, data->api_key)))
    return stream_fail (task, g_error_new (VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_CONNECTION,
                                           _("“%s” is not a server address — check it in Preferences."),
                                           self->base_url));

  body = _viva_openai_model_build_body (self, data->request, data->model, data->native,
                                        data->dropped_temperature, data->dropped_stream_options);
  soup_message_set_request_body_from_bytes (data->message, "application/json", body);

  data->watchdog = g_timeout_source_new (MAX (10, MIN (MIN (data->first_byte_limit, SLOW_FIRST_TOKEN_MS),
                                                       self->idle_timeout) / 10));
  g_source_set_callback (data->watchdog, watchdog_cb, task, NULL);
  g_source_attach (data->watchdog, g_task_get_context (task));

  g_debug ("model: POST %s (attempt %u)", url, data->attempt);
  soup_session_send_async (self->session, data->message, G_PRIORITY_DEFAULT,
                           data->attempt_cancellable, send_cb, task);
}

static void
resolve_model_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  GTask *task = user_data;
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
      return stream_fault (task, g_steal_pointer (&error), retryable, busy, 0);
    }

  if (names[0] == NULL)
    return stream_fail (task, _viva_model_error_new_no_model (self->base_url,
                                                              _viva_openai_model_looks_like_ollama (self)));

  g_free (self->first_model);
  self->first_model = g_strdup (names[0]);
  data->model = g_strdup (names[0]);
  start_attempt (task);
}

static void
resolve_model (GTask *task)
{
  VivaOpenAIModel *self = g_task_get_source_object (task);
  StreamData *data = g_task_get_task_data (task);
  const char *model = viva_chat_request_get_model (data->request);

  data->native = self->ollama_native && self->server_kind == VIVA_SERVER_KIND_OLLAMA;

  if (model == NULL && self->model != NULL && self->model[0] != '\0')
    model = self->model;
  if (model == NULL)
    model = self->first_model;

  if (model != NULL)
    {
      data->model = g_strdup (model);
      return start_attempt (task);
    }

  viva_openai_model_list_models_async (self, g_task_get_cancellable (task), resolve_model_cb, task);
}

static void
detect_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  GTask *task = user_data;
  g_autoptr(GError) error = NULL;

  /* A server that cannot be reached is left undetected; the attempts
   * that follow say why, after their retries. */
  if (viva_openai_model_detect_server_finish (VIVA_OPENAI_MODEL (object), result, &error) == VIVA_SERVER_KIND_UNKNOWN &&
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return stream_fail (task, g_steal_pointer (&error));

  resolve_model (task);
}

static void
lookup_key_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  GTask *task = user_data;
  VivaOpenAIModel *self = g_task_get_source_object (task);
  StreamData *data = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  data->api_key = viva_secrets_lookup_finish (VIVA_SECRETS (object), result, &error);
  if (error != NULL)
    return stream_fail (task, g_steal_pointer (&error));

  if (self->server_kind == VIVA_SERVER_KIND_UNKNOWN)
    return viva_openai_model_detect_server_async (self, g_task_get_cancellable (task), detect_cb, task);

  resolve_model (task);
}

void
_viva_openai_model_stream_async (VivaChatModel       *model,
                                 VivaChatRequest     *request,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  VivaOpenAIModel *self = VIVA_OPENAI_MODEL (model);
  GTask *task;
  StreamData *data;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, _viva_openai_model_stream_async);
  data = g_new0 (StreamData, 1);
  data->request = viva_chat_request_ref (request);
  data->first_byte_limit = self->first_byte_timeout;
  g_task_set_task_data (task, data, (GDestroyNotify)stream_data_free);

  /* The task's one reference travels through the steps and is dropped
   * where it returns (stream_succeed, stream_fail). */
  viva_secrets_lookup_async (self->secrets, self->base_url, cancellable, lookup_key_cb, task);
}

VivaChatReply *
_viva_openai_model_stream_finish (VivaChatModel  *model,
                                  GAsyncResult   *result,
                                  GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, model), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

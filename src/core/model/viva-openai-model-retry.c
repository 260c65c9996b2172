/* viva-openai-model-retry.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "viva-model-private.h"
#include "viva-openai-model-private.h"
#include "viva-openai-model-stream-private.h"
#include "viva-reply-limits.h"

/* When an attempt of a stream (viva-openai-model-stream.c) fails: an error
 * response read and understood (its status, Retry-After, a parameter the
 * model rejects), then a retry with backoff and jitter, a calm wait for a
 * busy server (VivaOpenAIModel:busy), or the end of the stream with the
 * error. Nothing is retried once a delta went out. */

#define MAX_RETRY_AFTER_MS (120 * 1000)
#define MAX_BUSY_BACKOFF_MS (30 * 1000)

/* This stream waits for a busy server; @wait_s is what it announced. */
void
_viva_openai_stream_busy (GTask *task,
             guint  wait_s)
{
  StreamData *data = g_task_get_task_data (task);

  _viva_openai_model_busy_begin (g_task_get_source_object (task), data->busy, wait_s);
  data->busy = TRUE;
  if (data->busy_started == 0)
    data->busy_started = g_get_monotonic_time ();
}

void
_viva_openai_stream_not_busy (GTask *task)
{
  StreamData *data = g_task_get_task_data (task);

  if (!data->busy)
    return;

  data->busy = FALSE;
  _viva_openai_model_busy_end (g_task_get_source_object (task));
}

/* The retry's two sources each hold a reference; whichever fires first
 * takes one for the next step and destroys both, which drops theirs. */
static gboolean
retry_delay_cb (gpointer user_data)
{
  g_autoptr(GTask) task = g_object_ref (user_data);
  StreamData *data = g_task_get_task_data (task);

  _viva_openai_model_clear_source (&data->delay);
  _viva_openai_model_clear_source (&data->delay_cancel);

  if (data->model == NULL)
    _viva_openai_stream_resolve_model (g_steal_pointer (&task));
  else
    _viva_openai_stream_start_attempt (g_steal_pointer (&task));
  return G_SOURCE_REMOVE;
}

static gboolean
retry_cancelled_cb (GCancellable *cancellable,
                    gpointer      user_data)
{
  g_autoptr(GTask) task = g_object_ref (user_data);
  StreamData *data = g_task_get_task_data (task);

  _viva_openai_model_clear_source (&data->delay_cancel);
  _viva_openai_model_clear_source (&data->delay);

  _viva_openai_stream_fail (g_steal_pointer (&task), _viva_openai_stream_cancelled_error ());
  return G_SOURCE_REMOVE;
}

/* Takes @task's reference and @error. Retries when the fault is transient,
 * attempts remain and nothing was shown yet; @retry_after_ms is the
 * server's Retry-After, or 0. A @busy server's retries do not count as
 * attempts: the stream waits for it up to max-busy-wait in all. */
void
_viva_openai_stream_fault (GTask    *task_in,
                           GError   *error,
                           gboolean  retryable,
                           gboolean  busy,
                           guint     retry_after_ms)
{
  g_autoptr(GTask) task = task_in;
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
      return _viva_openai_stream_succeed (g_steal_pointer (&task), TRUE);
    }

  if (waits)
    busy_left = (gint64)self->max_busy_wait - (data->busy_started > 0 ? (now - data->busy_started) / 1000 : 0);

  if (waits && busy_left <= 0 && retryable)
    {
      guint minutes = (self->max_busy_wait + 59999) / 60000;

      g_debug ("model: still busy after %u ms: %s", self->max_busy_wait, error->message);
      g_error_free (error);
      return _viva_openai_stream_fail (g_steal_pointer (&task), g_error_new (VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_BUSY,
                                             g_dngettext (GETTEXT_PACKAGE,
                                                          "The model server at %s was still busy after %u minute — try again later; if a whole lab uses it, ask whoever runs it to serve more students at once.",
                                                          "The model server at %s was still busy after %u minutes — try again later; if a whole lab uses it, ask whoever runs it to serve more students at once.",
                                                          minutes),
                                             self->base_url, minutes));
    }

  if (!retryable || (!waits && data->attempt >= self->max_attempts) ||
      retry_after_ms > MAX_RETRY_AFTER_MS || g_cancellable_is_cancelled (g_task_get_cancellable (task)))
    return _viva_openai_stream_fail (g_steal_pointer (&task), error);

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
    _viva_openai_stream_busy (task, (retry_after_ms + 999) / 1000);

  self->n_retries++;
  g_debug ("model: attempt %u failed (%s); retrying in %" G_GUINT64_FORMAT " ms%s",
           data->attempt, error->message, delay_ms, busy ? " (busy)" : "");
  g_error_free (error);

  _viva_openai_stream_end_attempt (task);

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
  if (!data->got_first_byte)
    return g_error_new (VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_TIMEOUT,
                        _("The model server at %s did not start answering within %u seconds — it may still be loading the model; try again, or allow more time in Preferences."),
                        self->base_url, (data->first_byte_limit + 999) / 1000);

  return g_error_new (VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_TIMEOUT,
                      _("The model server at %s stopped answering for %u seconds — try again."),
                      self->base_url, (self->idle_timeout + 999) / 1000);
}

/* A read failed: the caller's cancellation, the watchdog, or the network.
 * Takes @task's reference and @error. */
void
_viva_openai_stream_read_failed (GTask  *task_in,
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
      return _viva_openai_stream_fail (g_steal_pointer (&task), _viva_openai_stream_cancelled_error ());
    }

  /* Past the reply's deadline: not retried, and not kept as a truncated
   * reply either, since a server that talks forever would then win. */
  if (data->past_time_limit)
    {
      g_error_free (error);
      return _viva_openai_stream_fail (g_steal_pointer (&task),
                                       viva_reply_limit_error_new (VIVA_REPLY_LIMIT_TIME, self->max_reply_time));
    }

  if (data->timed_out)
    {
      g_error_free (error);
      return _viva_openai_stream_fault (g_steal_pointer (&task), timeout_error (self, data), TRUE,
                                        !data->got_first_byte, 0);
    }

  /* Two statements: C leaves the order of arguments' evaluation open. */
  fault = _viva_openai_model_transport_error (self, error, &retryable);
  g_error_free (error);
  _viva_openai_stream_fault (g_steal_pointer (&task), fault, retryable, FALSE, 0);
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
  _viva_openai_stream_end_attempt (task);
  data->attempt--;
  _viva_openai_stream_start_attempt (g_steal_pointer (&task));
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

void
_viva_openai_stream_error_body_cb (GObject      *object,
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
  guint retry_after;
  gboolean is_ollama = data->native || _viva_openai_model_looks_like_ollama (self);

  if (!(bytes = _viva_read_small_body_finish (result, &read_error)))
    {
      if (g_cancellable_is_cancelled (g_task_get_cancellable (task)) || data->timed_out ||
          data->past_time_limit)
        return _viva_openai_stream_read_failed (g_steal_pointer (&task), g_steal_pointer (&read_error));
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
        return retry_without (g_steal_pointer (&task), "temperature", self->no_temperature,
                              &data->dropped_temperature);

      if (!data->native && !data->dropped_stream_options &&
          !g_hash_table_contains (self->no_stream_options, data->model) &&
          (mentions (body, "stream_options") || mentions (body, "include_usage")))
        return retry_without (g_steal_pointer (&task), "stream_options", self->no_stream_options,
                              &data->dropped_stream_options);
    }

  retry_after = parse_retry_after (data->message);
  _viva_openai_stream_fault (g_steal_pointer (&task),
                _viva_model_error_new_for_status (status, body, data->model, self->base_url, is_ollama),
                status == 429 || status == 500 || status == 502 || status == 503 || status == 504,
                status == 429 || status == 503,
                retry_after);
}


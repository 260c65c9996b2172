/* viva-model-retry.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-model-retry.h"

/* Transient faults are retried with backoff and jitter, up to
 * max-attempts. A busy server (a 503 or 429, or a first token slow to
 * come) is not a fault to give up on: its retries are not attempts, the
 * backoff grows to 30 s, and the stream waits up to max-busy-wait in all.
 * A queue that took the whole first-byte timeout gets twice as long next
 * time (up to four times the setting), and a server that asked to wait
 * gets that long twice on top, since going to the back of its queue again
 * would not help. Nothing here knows of tasks or sockets, so the stream
 * (viva-openai-model-stream.c) keeps every side effect. */

#define MAX_RETRY_AFTER_MS (120 * 1000)
#define MAX_BUSY_BACKOFF_MS (30 * 1000)

struct _VivaModelRetry
{
  guint  max_attempts;
  guint  retry_delay;
  guint  max_busy_wait;
  guint  first_byte_timeout;

  guint  attempt;
  guint  first_byte_limit;
  gint64 busy_started;
  guint  busy_retries;
};

VivaModelRetry *
viva_model_retry_new (guint max_attempts,
                      guint retry_delay_ms,
                      guint max_busy_wait_ms,
                      guint first_byte_timeout_ms)
{
  VivaModelRetry *self = g_new0 (VivaModelRetry, 1);

  self->max_attempts = max_attempts;
  self->retry_delay = retry_delay_ms;
  self->max_busy_wait = max_busy_wait_ms;
  self->first_byte_timeout = first_byte_timeout_ms;
  self->first_byte_limit = first_byte_timeout_ms;
  return self;
}

void
viva_model_retry_free (VivaModelRetry *self)
{
  g_free (self);
}

/* Returns: the attempt's number, from 1 */
guint
viva_model_retry_begin_attempt (VivaModelRetry *self)
{
  return ++self->attempt;
}

/* The attempt that just ended is made again at once and not counted, as
 * when the model rejected a parameter that is then left out. */
void
viva_model_retry_uncount_attempt (VivaModelRetry *self)
{
  if (self->attempt > 0)
    self->attempt--;
}

guint
viva_model_retry_get_attempt (VivaModelRetry *self)
{
  return self->attempt;
}

/* Milliseconds the next attempt's first byte may take. */
guint
viva_model_retry_get_first_byte_limit (VivaModelRetry *self)
{
  return self->first_byte_limit;
}

guint
viva_model_retry_get_max_busy_wait (VivaModelRetry *self)
{
  return self->max_busy_wait;
}

/* The stream began waiting for a busy server: its budget starts now, once. */
void
viva_model_retry_busy_began (VivaModelRetry *self)
{
  if (self->busy_started == 0)
    self->busy_started = g_get_monotonic_time ();
}

/**
 * viva_model_retry_next:
 * @retryable: whether the fault is transient
 * @busy: whether the server said it is busy (or was slow to start)
 * @retry_after_ms: the server's Retry-After, or 0
 * @no_first_byte_in_time: the attempt timed out before its first byte
 * @cancelled: the caller cancelled
 * @delay_ms: (out): with %VIVA_MODEL_RETRY_AGAIN, how long to wait
 *
 * What follows a failed attempt, before anything was shown.
 */
VivaModelRetryStep
viva_model_retry_next (VivaModelRetry *self,
                       gboolean        retryable,
                       gboolean        busy,
                       guint           retry_after_ms,
                       gboolean        no_first_byte_in_time,
                       gboolean        cancelled,
                       guint64        *delay_ms)
{
  gint64 now = g_get_monotonic_time ();
  gint64 busy_left = 0;
  guint64 base;
  /* With max-busy-wait 0, a busy server's retries count as attempts. */
  gboolean waits = busy && self->max_busy_wait > 0;

  if (waits)
    busy_left = (gint64)self->max_busy_wait - (self->busy_started > 0 ? (now - self->busy_started) / 1000 : 0);

  if (waits && busy_left <= 0 && retryable)
    return VIVA_MODEL_RETRY_STILL_BUSY;

  if (!retryable || (!waits && self->attempt >= self->max_attempts) ||
      retry_after_ms > MAX_RETRY_AFTER_MS || cancelled)
    return VIVA_MODEL_RETRY_GIVE_UP;

  if (waits)
    {
      self->busy_retries++;
      base = MIN ((guint64)self->retry_delay << MIN (self->busy_retries - 1, 16), MAX_BUSY_BACKOFF_MS);
      if (no_first_byte_in_time)
        self->first_byte_limit = (guint)MIN ((guint64)self->first_byte_limit * 2,
                                             (guint64)self->first_byte_timeout * 4);
      self->first_byte_limit = (guint)MAX ((guint64)self->first_byte_limit,
                                           (guint64)self->first_byte_timeout + 2 * (guint64)retry_after_ms);
      /* Not an attempt: a busy server is waited for, not given up on. */
      viva_model_retry_uncount_attempt (self);
    }
  else
    base = (guint64)self->retry_delay << MIN (self->attempt - 1, 16);

  *delay_ms = base / 2 + g_random_int_range (0, (gint32)MIN (base / 2 + 1, G_MAXINT32));
  *delay_ms = MAX (*delay_ms, retry_after_ms);
  if (waits)
    *delay_ms = (guint64)MIN ((gint64)*delay_ms, MAX (busy_left, 0));

  return VIVA_MODEL_RETRY_AGAIN;
}

/* The Retry-After of @message's answer in milliseconds, or 0. */
guint
viva_model_retry_after (SoupMessage *message)
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

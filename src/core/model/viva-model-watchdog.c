/* viva-model-watchdog.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-model-watchdog.h"

/* Any byte counts as progress, so keep-alive comments keep a slow server
 * alive; and since a server may keep talking, slowly, forever, the whole
 * reply has a deadline of its own. Expiring cancels the attempt's own
 * cancellable; the stream reads why from the flags. A first token that
 * has not come after ten seconds (or half the first-byte limit) is said
 * as a slow start, for the stream to show the server as busy. */

#define SLOW_FIRST_TOKEN_MS (10 * 1000)

struct _VivaModelWatchdog
{
  GSource               *source;
  GCancellable          *attempt;
  VivaSseReader         *reader;
  VivaModelWatchdogFunc  func;
  gpointer               user_data;
  GDestroyNotify         notify;

  guint                  first_byte_limit;
  guint                  idle_timeout;
  guint                  max_reply_time;

  gint64                 started;
  gint64                 last_progress;
  guint64                last_bytes;
  gboolean               got_first_byte;
  gboolean               timed_out;
  gboolean               past_time_limit;
};

static gboolean
expire (VivaModelWatchdog *self)
{
  g_clear_pointer (&self->source, g_source_unref);
  g_cancellable_cancel (self->attempt);
  return G_SOURCE_REMOVE;
}

static gboolean
tick_cb (gpointer user_data)
{
  VivaModelWatchdog *self = user_data;
  guint64 bytes = self->reader != NULL ? viva_sse_reader_get_bytes_read (self->reader) : 0;
  gint64 now = g_get_monotonic_time ();
  guint limit;

  if (bytes != self->last_bytes)
    {
      self->last_bytes = bytes;
      self->last_progress = now;
      self->got_first_byte = TRUE;
      self->func (VIVA_MODEL_WATCHDOG_PROGRESS, self->user_data);
    }

  if (now - self->started >= (gint64)self->max_reply_time * 1000)
    {
      self->past_time_limit = TRUE;
      return expire (self);
    }

  limit = self->got_first_byte ? self->idle_timeout : self->first_byte_limit;

  if (!self->got_first_byte &&
      now - self->last_progress >= (gint64)MIN (SLOW_FIRST_TOKEN_MS, limit / 2) * 1000)
    self->func (VIVA_MODEL_WATCHDOG_SLOW_START, self->user_data);

  if (now - self->last_progress >= (gint64)limit * 1000)
    {
      self->timed_out = TRUE;
      return expire (self);
    }

  return G_SOURCE_CONTINUE;
}

/**
 * viva_model_watchdog_new:
 * @attempt: the attempt's cancellable, cancelled when the watchdog expires
 * @user_data: held until the watchdog is freed, then given to @notify
 *
 * Starts watching from now, on @context.
 */
VivaModelWatchdog *
viva_model_watchdog_new (GMainContext          *context,
                         GCancellable          *attempt,
                         guint                  first_byte_limit_ms,
                         guint                  idle_timeout_ms,
                         guint                  max_reply_time_ms,
                         VivaModelWatchdogFunc  func,
                         gpointer               user_data,
                         GDestroyNotify         notify)
{
  VivaModelWatchdog *self = g_new0 (VivaModelWatchdog, 1);

  self->attempt = g_object_ref (attempt);
  self->func = func;
  self->user_data = user_data;
  self->notify = notify;
  self->first_byte_limit = first_byte_limit_ms;
  self->idle_timeout = idle_timeout_ms;
  self->max_reply_time = max_reply_time_ms;
  self->last_progress = self->started = g_get_monotonic_time ();

  self->source = g_timeout_source_new (MAX (10, MIN (MIN (MIN (first_byte_limit_ms, SLOW_FIRST_TOKEN_MS),
                                                          idle_timeout_ms),
                                                     max_reply_time_ms) / 10));
  g_source_set_callback (self->source, tick_cb, self, NULL);
  g_source_attach (self->source, context);
  return self;
}

void
viva_model_watchdog_free (VivaModelWatchdog *self)
{
  if (self->source != NULL)
    {
      g_source_destroy (self->source);
      g_clear_pointer (&self->source, g_source_unref);
    }
  g_clear_object (&self->reader);
  g_clear_object (&self->attempt);
  if (self->notify != NULL)
    self->notify (self->user_data);
  g_free (self);
}

/* Bytes read by @reader count as progress from now on. */
void
viva_model_watchdog_watch (VivaModelWatchdog *self,
                           VivaSseReader     *reader)
{
  g_set_object (&self->reader, reader);
}

gboolean
viva_model_watchdog_got_first_byte (VivaModelWatchdog *self)
{
  return self != NULL && self->got_first_byte;
}

/* Whether no byte came in time (the first, or the next). */
gboolean
viva_model_watchdog_timed_out (VivaModelWatchdog *self)
{
  return self != NULL && self->timed_out;
}

gboolean
viva_model_watchdog_past_time_limit (VivaModelWatchdog *self)
{
  return self != NULL && self->past_time_limit;
}

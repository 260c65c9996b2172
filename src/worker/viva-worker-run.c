/* viva-worker-run.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The run in progress and the two threads that watch it: the watchdog
 * ends a run that passes its deadline with SIGINT to the main thread,
 * again every KICK_INTERVAL_US (on CPython 3.11 PyErr_SetInterruptEx()
 * from another thread does not stop a pure-Python loop; a real signal
 * does), and sends buffered output every FLUSH_INTERVAL_US; the reader
 * takes requests off the channel for the main thread, so an "interrupt"
 * is seen while code runs, and ends the process when the app closes it. */

#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "viva-worker-private.h"

#define FLUSH_INTERVAL_US (20 * G_TIME_SPAN_MILLISECOND)
#define KICK_INTERVAL_US  (200 * G_TIME_SPAN_MILLISECOND)

/* The run in progress, shared with the watchdog and the reader. */
static struct
{
  GMutex    lock;
  GCond     cond;
  pthread_t main_thread;
  gboolean  active;
  gint64    id;
  gint64    deadline;
  gint64    next_kick;
  gint64    paused_at;      /* while paused: the clock stands still */
  Reason    reason;
} run;

/* Called on the main thread: SIGINT goes to it. */
void
viva_worker_run_init (void)
{
  run.main_thread = pthread_self ();
}

gpointer
viva_worker_watchdog_thread (gpointer data)
{
  g_mutex_lock (&run.lock);

  for (;;)
    {
      gint64 now;
      gint64 wake;

      if (!run.active)
        {
          g_cond_wait (&run.cond, &run.lock);
          continue;
        }

      if (run.paused_at != 0)
        {
          /* Paused: the deadline waits; what C code writes still goes out. */
          g_mutex_unlock (&run.lock);
          viva_worker_output_flush ();
          g_mutex_lock (&run.lock);
          g_cond_wait_until (&run.cond, &run.lock, g_get_monotonic_time () + FLUSH_INTERVAL_US);
          continue;
        }

      now = g_get_monotonic_time ();
      if (run.reason == REASON_NONE && now >= run.deadline)
        run.reason = REASON_TIMEOUT;

      /* Again and again: code may catch one KeyboardInterrupt. */
      if (run.reason != REASON_NONE && now >= run.next_kick)
        {
          pthread_kill (run.main_thread, SIGINT);
          run.next_kick = now + KICK_INTERVAL_US;
        }

      wake = now + FLUSH_INTERVAL_US;
      if (run.reason == REASON_NONE)
        wake = MIN (wake, run.deadline);

      g_mutex_unlock (&run.lock);
      viva_worker_output_flush ();
      g_mutex_lock (&run.lock);

      g_cond_wait_until (&run.cond, &run.lock, wake);
    }

  return NULL;
}

void
viva_worker_run_begin (gint64 id,
           guint  timeout_ms)
{
  g_mutex_lock (&run.lock);
  run.active = TRUE;
  run.id = id;
  run.reason = REASON_NONE;
  run.next_kick = 0;
  run.paused_at = 0;
  run.deadline = g_get_monotonic_time () + (gint64) timeout_ms * G_TIME_SPAN_MILLISECOND;
  g_cond_signal (&run.cond);
  g_mutex_unlock (&run.lock);
}

Reason
viva_worker_run_end (void)
{
  Reason reason;

  g_mutex_lock (&run.lock);
  run.active = FALSE;
  reason = run.reason;
  g_mutex_unlock (&run.lock);

  return reason;
}

/* The pauser, holding the GIL: whether run @id still runs, and if so its
 * clock stops until viva_worker_run_pause_end(). */
gboolean
viva_worker_run_pause_begin (gint64 id)
{
  gboolean active;

  g_mutex_lock (&run.lock);
  active = run.active && run.id == id && run.reason == REASON_NONE;
  if (active)
    run.paused_at = g_get_monotonic_time ();
  g_mutex_unlock (&run.lock);

  return active;
}

void
viva_worker_run_pause_end (void)
{
  g_mutex_lock (&run.lock);
  if (run.paused_at != 0)
    {
      run.deadline += g_get_monotonic_time () - run.paused_at;
      run.paused_at = 0;
      g_cond_signal (&run.cond);
    }
  g_mutex_unlock (&run.lock);
}

static void
run_interrupt (gint64 id)
{
  /* Stop while paused: the program must hold the GIL again to stop. */
  viva_worker_pause_release (id);

  g_mutex_lock (&run.lock);
  if (run.active && run.id == id && run.reason == REASON_NONE)
    {
      run.reason = REASON_INTERRUPT;
      run.next_kick = 0;
      g_cond_signal (&run.cond);
    }
  g_mutex_unlock (&run.lock);
}

gpointer
viva_worker_reader_thread (gpointer requests)
{
  g_autoptr(GString) buffer = g_string_new (NULL);
  char chunk[65536];

  for (;;)
    {
      ssize_t n = read (CHANNEL_FD, chunk, sizeof chunk);
      char *newline;

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        _exit (0); /* the app closed the channel or died */

      g_string_append_len (buffer, chunk, n);

      while ((newline = memchr (buffer->str, '\n', buffer->len)))
        {
          g_autoptr(JsonParser) parser = json_parser_new_immutable ();
          g_autoptr(JsonObject) request = NULL;
          gsize length = newline - buffer->str;
          JsonNode *root;

          if (json_parser_load_from_data (parser, buffer->str, length, NULL) &&
              (root = json_parser_get_root (parser)) != NULL &&
              JSON_NODE_HOLDS_OBJECT (root))
            request = json_object_ref (json_node_get_object (root));

          /* json-glib counts references without atomics: the parser lets go
           * of the request here, before the main thread can see it. */
          g_clear_object (&parser);

          if (request != NULL)
            {
              const char *op = json_object_get_string_member_with_default (request, "op", "");

              if (g_str_equal (op, "interrupt"))
                run_interrupt (json_object_get_int_member_with_default (request, "id", 0));
              else if (g_str_equal (op, "pause"))
                viva_worker_pause_request (json_object_get_int_member_with_default (request, "id", 0),
                                           json_object_get_int_member_with_default (request, "token", 0));
              else if (g_str_equal (op, "resume"))
                viva_worker_pause_release (json_object_get_int_member_with_default (request, "id", 0));
              else
                g_async_queue_push (requests, g_steal_pointer (&request));
            }

          g_string_erase (buffer, 0, length + 1);
        }
    }

  return NULL;
}

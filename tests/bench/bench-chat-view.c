/* bench-chat-view.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <string.h>

#include "viva-chat-view.h"
#include "viva-message-row.h"
#include "viva-resources.h"

/* Feeds 1k, 10k and 50k deltas of a Markdown reply through the real chat
 * view in a mapped window, one delta per main-loop dispatch, the way
 * deltas arrive from a fast stream, with frames drawn in between.
 *
 * Reports, per size: main-loop time per delta (the whole stream's wall
 * time, which includes layout and drawing, over the number of deltas; the
 * loop is never idle while feeding), the same for the first and the last
 * thousand deltas (flat means the end of a long reply costs what its start
 * did), and the longest stall: the longest time between two dispatches of
 * the feeder, which is when the loop was busy with anything else (frames,
 * layout, rendering) and could not have handled input. */

typedef struct
{
  gint64 phase_start;
  gint64 update;     /* sum of the update phase: tick callbacks, our flush */
  gint64 layout;
  gint64 paint;
  gint64 longest_frame;
  guint  frames;
} Frames;

static Frames frames;

static gint64 frame_begin;

static void
before_paint_cb (GdkFrameClock *clock)
{
  frames.phase_start = frame_begin = g_get_monotonic_time ();
}

static void
layout_cb (GdkFrameClock *clock)
{
  gint64 now = g_get_monotonic_time ();

  frames.update += now - frames.phase_start;
  frames.phase_start = now;
}

static void
paint_cb (GdkFrameClock *clock)
{
  gint64 now = g_get_monotonic_time ();

  frames.layout += now - frames.phase_start;
  frames.phase_start = now;
}

static void
after_paint_cb (GdkFrameClock *clock)
{
  gint64 now = g_get_monotonic_time ();

  frames.paint += now - frames.phase_start;
  frames.frames++;
  if (g_getenv ("BENCH_DEBUG") && now - frame_begin > 30000)
    g_printerr ("slow frame: %.1f ms (paint %.1f)\n", (now - frame_begin) / 1000.0, (now - frames.phase_start) / 1000.0);
  if (now - frame_begin > frames.longest_frame)
    frames.longest_frame = now - frame_begin;
}

typedef struct
{
  GPtrArray      *deltas;
  guint           next;
  VivaMessageRow *row;
  gint64          started;
  gint64          last;
  gint64          longest;
  gint64          appending;
  gint64          first_k_end;
  gint64          last_k_start;
  GMainLoop      *loop;
} Feed;

static GPtrArray *
make_deltas (guint n)
{
  static const char *text =
    "## Your solution\n\n"
    "Your `kmeans` function alternates the **assignment** step and the *update* step, "
    "and stops when no label changes. That is the classic algorithm.\n\n"
    "- The assignment uses the squared distance, so no `sqrt` is needed.\n"
    "- Ties go to the lower index, as the problem asks.\n"
    "- An empty cluster keeps its centroid.\n\n"
    "```python\n"
    "def nearest(p, centroids):\n"
    "    return min(range(len(centroids)), key=lambda c: dist2(p, centroids[c]))\n"
    "```\n\n"
    "One thing to check: what happens when `k` equals the number of points? "
    "Each point should become its own cluster, and the loop should stop after one round.\n\n";
  GPtrArray *deltas = g_ptr_array_new_with_free_func (g_free);
  const char *p = text;

  while (deltas->len < n)
    {
      const char *end = p;

      /* About four characters a token, never splitting a character. */
      for (guint i = 0; i < 4 && *end != '\0'; i++)
        end = g_utf8_next_char (end);
      g_ptr_array_add (deltas, g_strndup (p, end - p));
      p = *end != '\0' ? end : text;
    }

  return deltas;
}

static gboolean
feed_cb (gpointer user_data)
{
  Feed *feed = user_data;
  gint64 now = g_get_monotonic_time ();
  const char *delta;

  if (feed->last != 0 && now - feed->last > feed->longest)
    feed->longest = now - feed->last;
  if (g_getenv ("BENCH_DEBUG") && feed->last != 0 && now - feed->last > 30000)
    g_printerr ("stall %.1f ms at delta %u\n", (now - feed->last) / 1000.0, feed->next);

  if (feed->next == feed->deltas->len)
    {
      g_main_loop_quit (feed->loop);
      return G_SOURCE_REMOVE;
    }

  if (feed->next == 1000)
    feed->first_k_end = now;
  if (feed->next == feed->deltas->len - 1000)
    feed->last_k_start = now;

  delta = g_ptr_array_index (feed->deltas, feed->next++);
  viva_message_row_append_content (feed->row, delta, -1);
  feed->last = g_get_monotonic_time ();
  feed->appending += feed->last - now;

  return G_SOURCE_CONTINUE;
}

static gboolean
quit_cb (gpointer user_data)
{
  g_main_loop_quit (user_data);
  return G_SOURCE_REMOVE;
}

static void
settle (GMainLoop *loop,
        guint      ms)
{
  g_timeout_add (ms, quit_cb, loop);
  g_main_loop_run (loop);
}

int
main (int   argc,
      char *argv[])
{
  guint sizes[] = { 1000, 10000, 50000 };
  guint n_sizes = G_N_ELEMENTS (sizes);
  g_autoptr(GMainLoop) loop = NULL;
  g_autoptr(GtkCssProvider) css = NULL;
  GtkWidget *window, *view;
  gboolean failed = FALSE;

  /* One size from the command line, for profiling. */
  if (argc > 1)
    {
      sizes[0] = MAX (1000, (guint)g_ascii_strtoull (argv[1], NULL, 10));
      n_sizes = 1;
    }

  gtk_init ();
  adw_init ();
  g_resources_register (viva_get_resource ());
  css = gtk_css_provider_new ();
  gtk_css_provider_load_from_resource (css, "/io/github/vivaexam/Viva/style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (css),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);

  loop = g_main_loop_new (NULL, FALSE);
  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 420, 800);
  view = viva_chat_view_new ();
  gtk_window_set_child (GTK_WINDOW (window), view);
  gtk_window_present (GTK_WINDOW (window));
  settle (loop, 500);

  {
    GdkFrameClock *clock = gtk_widget_get_frame_clock (window);

    g_signal_connect (clock, "before-paint", G_CALLBACK (before_paint_cb), NULL);
    g_signal_connect (clock, "layout", G_CALLBACK (layout_cb), NULL);
    g_signal_connect (clock, "paint", G_CALLBACK (paint_cb), NULL);
    g_signal_connect (clock, "after-paint", G_CALLBACK (after_paint_cb), NULL);
  }

  g_print ("| deltas | text work per delta | main loop per delta (all) | first 1k | last 1k | frames | layout / frame | paint / frame | longest frame | longest stall | final render |\n");
  g_print ("|---|---|---|---|---|---|---|---|---|---|---|\n");

  for (guint s = 0; s < n_sizes; s++)
    {
      Feed feed = { 0 };
      g_autofree char *text = NULL;
      gint64 ended, finish_start, finish_time;
      double per_delta, first_k, last_k;

      viva_chat_view_clear (VIVA_CHAT_VIEW (view));
      feed.row = VIVA_MESSAGE_ROW (viva_message_row_new (VIVA_MESSAGE_EXAMINER));
      viva_chat_view_append (VIVA_CHAT_VIEW (view), GTK_WIDGET (feed.row));
      feed.deltas = make_deltas (sizes[s]);
      feed.loop = loop;
      settle (loop, 200);

      memset (&frames, 0, sizeof frames);
      feed.started = g_get_monotonic_time ();
      g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, feed_cb, &feed, NULL);
      g_main_loop_run (loop);
      ended = g_get_monotonic_time ();

      finish_start = g_get_monotonic_time ();
      viva_message_row_finish (feed.row);
      finish_time = g_get_monotonic_time () - finish_start;
      settle (loop, 300);

      per_delta = (double)(ended - feed.started) / sizes[s];
      if (feed.first_k_end == 0)
        feed.first_k_end = ended;
      first_k = (double)(feed.first_k_end - feed.started) / 1000.0;
      last_k = (double)(ended - feed.last_k_start) / 1000.0;

      g_print ("| %u | %.1f µs | %.1f µs | %.1f µs | %.1f µs | %u | %.2f ms | %.2f ms | %.2f ms | %.2f ms | %.2f ms |\n",
               sizes[s], (double)(feed.appending + frames.update) / sizes[s], per_delta, first_k, last_k,
               frames.frames,
               frames.frames ? frames.layout / 1000.0 / frames.frames : 0.0,
               frames.frames ? frames.paint / 1000.0 / frames.frames : 0.0,
               frames.longest_frame / 1000.0,
               feed.longest / 1000.0, finish_time / 1000.0);

      /* The rendering must be right too: Markdown marks gone, text there. */
      text = viva_message_row_dup_text (feed.row);
      if (strstr (text, "Your solution") == NULL || strstr (text, "```") != NULL ||
          strstr (text, "**assignment**") != NULL)
        {
          g_printerr ("bench-chat-view: %u deltas rendered wrongly\n", sizes[s]);
          failed = TRUE;
        }

      g_ptr_array_unref (feed.deltas);
    }

  gtk_window_destroy (GTK_WINDOW (window));

  return failed ? 1 : 0;
}

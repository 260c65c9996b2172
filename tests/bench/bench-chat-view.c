/* bench-chat-view.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <string.h>
#include <time.h>

#include "viva-chat-view.h"
#include "viva-markdown-stream.h"
#include "viva-message-row.h"
#include "viva-resources.h"

/* Feeds 1k, 10k and 50k deltas of a Markdown reply (paragraphs, a list,
 * inline code, a fenced Python block) through the real chat view in a
 * mapped window under Xvfb, at 1000 deltas a second — ten times what a
 * fast local model streams — with frames drawn as they come.
 *
 * The main loop is measured from outside, through its poll function: the
 * time not spent waiting in poll is time the loop was busy (delivering
 * deltas, flushing them into the view, layout, drawing). Reported per size:
 *
 *   - busy time per delta, wall clock and main-thread CPU time (the
 *     machine is shared, so wall time includes other processes' turns);
 *   - the same over the first and the last 1000 deltas: flat means the end
 *     of a long reply costs what its start did;
 *   - the longest stall: the longest busy stretch between two polls, the
 *     longest the loop could not have answered a click, wall and CPU;
 *   - frames drawn and their mean layout and paint times;
 *   - the final render when the reply ends (the open block as Markdown);
 *   - where the longest stall went (frame phases), the CPU time of all
 *     threads (GL in software rasterises in threads of its own) per delta
 *     and in the longest stretch, and the longest stall after the first
 *     second: in a fresh process the first frames with text pay one-off
 *     costs (fonts, glyph caches, GL programs), which the whole run's
 *     longest stall is then mostly made of;
 *   - after the first second, the 99th percentile of the busy stretches
 *     and how many missed a 60 Hz frame: a maximum is a single event, on
 *     a shared machine often another process's turn, while these two say
 *     how the whole run felt. VIVA_BENCH_TRACE prints each stretch over
 *     12 ms as it ends, with its phases, the text views the reply is split
 *     into by then, and its CLOCK_MONOTONIC start, to line it up with
 *     `perf record -k mono`.
 *
 * With VIVA_BENCH_BARE=follow the same deltas go to a bare GtkTextView in
 * a GtkScrolledWindow that appends them at most every 33 ms and scrolls to
 * the end after each append, as a chat view must: the lower bound any chat
 * view is compared with. VIVA_BENCH_BARE=1 leaves it at the top, so once
 * its page is full its frames draw nothing. Each size also ends with a line
 * `RESULT <viva|bare> <deltas> <busy µs/delta> <longest stall ms>` for
 * tests/bench/bench_side_by_side.py. */

#define RATE_PER_MS 1

static gint64
cpu_now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);

  return (gint64)ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

/* The whole process's CPU time, GL's rasterising threads included. */
static gint64
process_cpu_now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);

  return (gint64)ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

/* The loop's idle and busy time, from its poll function. */
static struct
{
  GPollFunc poll;
  gboolean  measuring;
  gint64    idle;
  gint64    left_poll;      /* wall time the last poll returned */
  gint64    left_poll_cpu;
  gint64    longest;
  gint64    longest_cpu;
  gint64    longest_wall_cpu;  /* the CPU time of the longest stretch */
  gint64    left_poll_process;
  gint64    longest_process;   /* the most CPU time of all threads in a stretch */
  gint64    settled;           /* when the first frames' one-off costs are past */
  gint64    longest_settled;   /* the longest stretch that began after that */
  gint64    longest_settled_process;
  /* where the current busy stretch went, and the longest one's */
  gint64    mark;
  gint64    phase[6];
  gint64    longest_phase[6];
  guint     stretch_frames;
  guint     longest_frames;
  GArray   *settled_stretches;  /* gint64 µs of each stretch after the first second */
  gboolean  trace;              /* VIVA_BENCH_TRACE: print the long ones as they come */
  gint64    started;
  guint   (*n_segments) (void);
} loop_stats;

/* The phases of a busy stretch: before the frame (other sources, events,
 * GTK's before-paint), the tick callbacks (the view's flush), layout,
 * paint (snapshot and render), after-paint, and after the frame. */
enum { PHASE_BEFORE, PHASE_UPDATE, PHASE_LAYOUT, PHASE_PAINT, PHASE_AFTER, PHASE_REST };

static void
phase_end (guint phase)
{
  gint64 now = g_get_monotonic_time ();

  loop_stats.phase[phase] += now - loop_stats.mark;
  loop_stats.mark = now;
}

static int
measuring_poll (GPollFD *fds,
                guint    n_fds,
                int      timeout)
{
  gint64 entered = g_get_monotonic_time ();
  gint64 entered_cpu = cpu_now ();
  gint64 entered_process = process_cpu_now ();
  gint64 stretch;
  int result;

  if (loop_stats.measuring && loop_stats.left_poll != 0)
    {
      phase_end (PHASE_REST);
      if (entered - loop_stats.left_poll > loop_stats.longest)
        {
          loop_stats.longest = entered - loop_stats.left_poll;
          memcpy (loop_stats.longest_phase, loop_stats.phase, sizeof loop_stats.phase);
          loop_stats.longest_frames = loop_stats.stretch_frames;
          loop_stats.longest_wall_cpu = entered_cpu - loop_stats.left_poll_cpu;
        }
      loop_stats.longest_cpu = MAX (loop_stats.longest_cpu, entered_cpu - loop_stats.left_poll_cpu);
      loop_stats.longest_process = MAX (loop_stats.longest_process, entered_process - loop_stats.left_poll_process);
      if (loop_stats.left_poll >= loop_stats.settled)
        {
          loop_stats.longest_settled = MAX (loop_stats.longest_settled, entered - loop_stats.left_poll);
          loop_stats.longest_settled_process = MAX (loop_stats.longest_settled_process,
                                                    entered_process - loop_stats.left_poll_process);
          stretch = entered - loop_stats.left_poll;
          g_array_append_val (loop_stats.settled_stretches, stretch);
          if (loop_stats.trace && stretch > 12000)
            g_print ("trace: at %.3f s (monotonic %.6f), %.2f ms (all threads' CPU %.2f ms), %u frame(s), %u segment(s): "
                     "before %.2f, ticks %.2f, layout %.2f, paint %.2f, after-paint %.2f, rest %.2f\n",
                     (loop_stats.left_poll - loop_stats.started) / 1e6, loop_stats.left_poll / 1e6,
                     stretch / 1000.0,
                     (entered_process - loop_stats.left_poll_process) / 1000.0,
                     loop_stats.stretch_frames,
                     loop_stats.n_segments != NULL ? loop_stats.n_segments () : 0,
                     loop_stats.phase[PHASE_BEFORE] / 1000.0, loop_stats.phase[PHASE_UPDATE] / 1000.0,
                     loop_stats.phase[PHASE_LAYOUT] / 1000.0, loop_stats.phase[PHASE_PAINT] / 1000.0,
                     loop_stats.phase[PHASE_AFTER] / 1000.0, loop_stats.phase[PHASE_REST] / 1000.0);
        }
    }

  result = loop_stats.poll (fds, n_fds, timeout);

  loop_stats.left_poll = g_get_monotonic_time ();
  loop_stats.left_poll_cpu = cpu_now ();
  loop_stats.left_poll_process = process_cpu_now ();
  loop_stats.mark = loop_stats.left_poll;
  memset (loop_stats.phase, 0, sizeof loop_stats.phase);
  loop_stats.stretch_frames = 0;
  if (loop_stats.measuring)
    loop_stats.idle += loop_stats.left_poll - entered;

  return result;
}

/* Frame phases. GTK's own handlers of "layout" and "paint" were connected
 * first, so ours run after them. "update" marks where the tick callbacks
 * start (ours, the flush, was added later and runs after the mark), so the
 * layout figure holds the flush of the text into the view and GTK's
 * layout; the paint figure is snapshot and render. */
static struct
{
  gint64 mark;
  gint64 mark_cpu;
  gint64 layout;
  gint64 paint;
  gint64 layout_cpu;
  gint64 paint_cpu;
  gint64 max_layout_cpu;
  gint64 max_paint_cpu;
  guint  frames;
} frames;

static void
before_paint_cb (GdkFrameClock *clock)
{
  frames.mark = g_get_monotonic_time ();
  frames.mark_cpu = cpu_now ();
  phase_end (PHASE_BEFORE);
}

static void
update_cb (GdkFrameClock *clock)
{
  frames.mark = g_get_monotonic_time ();
  frames.mark_cpu = cpu_now ();
  phase_end (PHASE_UPDATE);
}

static void
layout_cb (GdkFrameClock *clock)
{
  gint64 now = g_get_monotonic_time ();

  gint64 cpu = cpu_now ();

  frames.layout += now - frames.mark;
  frames.layout_cpu += cpu - frames.mark_cpu;
  frames.max_layout_cpu = MAX (frames.max_layout_cpu, cpu - frames.mark_cpu);
  frames.mark = now;
  frames.mark_cpu = cpu;
  phase_end (PHASE_LAYOUT);
}

static void
paint_cb (GdkFrameClock *clock)
{
  gint64 now = g_get_monotonic_time ();

  gint64 cpu = cpu_now ();

  frames.paint += now - frames.mark;
  frames.paint_cpu += cpu - frames.mark_cpu;
  frames.max_paint_cpu = MAX (frames.max_paint_cpu, cpu - frames.mark_cpu);
  frames.frames++;
  phase_end (PHASE_PAINT);
  loop_stats.stretch_frames++;
}

static void
after_paint_cb (GdkFrameClock *clock)
{
  phase_end (PHASE_AFTER);
}

typedef struct
{
  GPtrArray      *deltas;
  guint           next;
  VivaMessageRow *row;
  GtkTextBuffer  *bare;         /* the bare view's, instead of row */
  GtkTextView    *bare_follow;  /* scrolled to the end after each append */
  GString        *bare_pending;
  guint           bare_flush_id;
  gint64          started;
  gint64          started_cpu;
  gint64          started_process;
  gint64          idle_at_start;
  GMainLoop      *loop;
  /* busy wall and CPU time at delta 1000 and at n - 1000 */
  gint64          busy_first_k;
  gint64          busy_last_k_start;
} Feed;

static gint64
busy_now (Feed *feed)
{
  return (g_get_monotonic_time () - feed->started) - (loop_stats.idle - feed->idle_at_start);
}

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

  /* Keep to the rate even when a tick came late, as a stream would. */
  while (feed->next < feed->deltas->len &&
         feed->next < (guint)((g_get_monotonic_time () - feed->started) / 1000 + 1) * RATE_PER_MS)
    {
      if (feed->bare != NULL)
        g_string_append (feed->bare_pending, g_ptr_array_index (feed->deltas, feed->next));
      else
        viva_message_row_append_content (feed->row, g_ptr_array_index (feed->deltas, feed->next), -1);
      feed->next++;

      if (feed->next == 1000)
        feed->busy_first_k = busy_now (feed);
      if (feed->next == feed->deltas->len - 1000)
        feed->busy_last_k_start = busy_now (feed);
    }

  if (feed->next == feed->deltas->len)
    {
      g_main_loop_quit (feed->loop);
      return G_SOURCE_REMOVE;
    }

  return G_SOURCE_CONTINUE;
}

/* The bare view: what waits goes into the buffer at most every 33 ms. */
static gboolean
bare_flush_cb (gpointer user_data)
{
  Feed *feed = user_data;
  GtkTextIter end;

  if (feed->bare_pending->len > 0)
    {
      gtk_text_buffer_get_end_iter (feed->bare, &end);
      gtk_text_buffer_insert (feed->bare, &end, feed->bare_pending->str, feed->bare_pending->len);
      g_string_truncate (feed->bare_pending, 0);
      if (feed->bare_follow != NULL)
        {
          gtk_text_buffer_get_end_iter (feed->bare, &end);
          gtk_text_buffer_place_cursor (feed->bare, &end);
          gtk_text_view_scroll_mark_onscreen (feed->bare_follow, gtk_text_buffer_get_insert (feed->bare));
        }
    }
  return G_SOURCE_CONTINUE;
}

static VivaMessageRow *traced_row;

static GtkWidget *
find_shown_stream (GtkWidget *widget)
{
  if (VIVA_IS_MARKDOWN_STREAM (widget) && gtk_widget_get_visible (widget))
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_shown_stream (child);

      if (found != NULL)
        return found;
    }

  return NULL;
}

/* The text views the reply is split into by now, for the trace. */
static guint
traced_segments (void)
{
  GtkWidget *stream = traced_row != NULL ? find_shown_stream (GTK_WIDGET (traced_row)) : NULL;

  return stream != NULL ? viva_markdown_stream_get_n_segments (VIVA_MARKDOWN_STREAM (stream)) : 0;
}

static int
compare_stretches (gconstpointer a,
                   gconstpointer b)
{
  gint64 x = *(const gint64 *)a, y = *(const gint64 *)b;

  return (x > y) - (x < y);
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
  GdkFrameClock *clock;
  GtkWidget *window, *view;
  GtkTextView *bare_view = NULL;
  gboolean follow = g_strcmp0 (g_getenv ("VIVA_BENCH_BARE"), "follow") == 0;
  gboolean bare = follow || g_strcmp0 (g_getenv ("VIVA_BENCH_BARE"), "1") == 0;
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

  loop_stats.trace = g_getenv ("VIVA_BENCH_TRACE") != NULL;
  loop_stats.n_segments = traced_segments;
  loop_stats.settled_stretches = g_array_new (FALSE, FALSE, sizeof (gint64));
  loop_stats.poll = g_main_context_get_poll_func (NULL);
  g_main_context_set_poll_func (NULL, measuring_poll);

  loop = g_main_loop_new (NULL, FALSE);
  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 420, 800);
  if (bare)
    {
      view = gtk_scrolled_window_new ();
      bare_view = GTK_TEXT_VIEW (gtk_text_view_new ());
      gtk_text_view_set_wrap_mode (bare_view, GTK_WRAP_WORD_CHAR);
      gtk_text_view_set_editable (bare_view, FALSE);
      gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (view), GTK_WIDGET (bare_view));
    }
  else
    view = viva_chat_view_new ();
  gtk_window_set_child (GTK_WINDOW (window), view);
  gtk_window_present (GTK_WINDOW (window));
  settle (loop, 500);

  clock = gtk_widget_get_frame_clock (window);
  g_signal_connect (clock, "before-paint", G_CALLBACK (before_paint_cb), NULL);
  g_signal_connect (clock, "update", G_CALLBACK (update_cb), NULL);
  g_signal_connect (clock, "layout", G_CALLBACK (layout_cb), NULL);
  g_signal_connect (clock, "paint", G_CALLBACK (paint_cb), NULL);
  g_signal_connect (clock, "after-paint", G_CALLBACK (after_paint_cb), NULL);

  g_print ("| deltas | busy per delta: wall (CPU) | first 1k | last 1k | longest stall: wall (CPU) | frames | flush and layout / frame | paint / frame | final render |\n");
  g_print ("|---|---|---|---|---|---|---|---|---|\n");

  for (guint s = 0; s < n_sizes; s++)
    {
      Feed feed = { 0 };
      g_autofree char *text = NULL;
      gint64 busy, cpu, process, finish;

      if (bare)
        {
          feed.bare = gtk_text_view_get_buffer (bare_view);
          feed.bare_follow = follow ? bare_view : NULL;
          gtk_text_buffer_set_text (feed.bare, "", 0);
          feed.bare_pending = g_string_new (NULL);
          feed.bare_flush_id = g_timeout_add (33, bare_flush_cb, &feed);
        }
      else
        {
          viva_chat_view_clear (VIVA_CHAT_VIEW (view));
          feed.row = VIVA_MESSAGE_ROW (viva_message_row_new (VIVA_MESSAGE_EXAMINER));
          viva_chat_view_append (VIVA_CHAT_VIEW (view), GTK_WIDGET (feed.row));
          traced_row = feed.row;
        }
      feed.deltas = make_deltas (sizes[s]);
      feed.loop = loop;
      settle (loop, 300);

      memset (&frames, 0, sizeof frames);
      loop_stats.longest = loop_stats.longest_cpu = loop_stats.longest_process = 0;
      loop_stats.longest_settled = loop_stats.longest_settled_process = 0;
      g_array_set_size (loop_stats.settled_stretches, 0);
      loop_stats.measuring = TRUE;
      feed.idle_at_start = loop_stats.idle;
      feed.started = g_get_monotonic_time ();
      loop_stats.settled = feed.started + G_USEC_PER_SEC;
      loop_stats.started = feed.started;
      feed.started_cpu = cpu_now ();
      feed.started_process = process_cpu_now ();
      g_timeout_add (1, feed_cb, &feed);
      g_main_loop_run (loop);
      busy = busy_now (&feed);
      cpu = cpu_now () - feed.started_cpu;
      process = process_cpu_now () - feed.started_process;
      loop_stats.measuring = FALSE;

      finish = g_get_monotonic_time ();
      if (bare)
        {
          bare_flush_cb (&feed);
          g_clear_handle_id (&feed.bare_flush_id, g_source_remove);
          g_string_free (feed.bare_pending, TRUE);
        }
      else
        viva_message_row_finish (feed.row);
      finish = g_get_monotonic_time () - finish;
      settle (loop, 300);


      if (sizes[s] == 1000)
        feed.busy_first_k = busy;

      g_print ("| %u | %.1f µs (%.1f µs) | %.1f µs | %.1f µs | %.2f ms (%.2f ms) | %u | %.2f ms | %.2f ms | %.2f ms |\n",
               sizes[s],
               (double)busy / sizes[s], (double)cpu / sizes[s],
               feed.busy_first_k / 1000.0,
               (busy - feed.busy_last_k_start) / 1000.0,
               loop_stats.longest / 1000.0, loop_stats.longest_cpu / 1000.0,
               frames.frames,
               frames.frames ? frames.layout / 1000.0 / frames.frames : 0.0,
               frames.frames ? frames.paint / 1000.0 / frames.frames : 0.0,
               finish / 1000.0);

      g_print ("longest stall %.2f ms (CPU %.2f ms): %u frame(s); before %.2f, ticks %.2f, ticks and layout %.2f, paint %.2f, after-paint %.2f, after the frame %.2f ms\n",
               loop_stats.longest / 1000.0, loop_stats.longest_wall_cpu / 1000.0, loop_stats.longest_frames,
               loop_stats.longest_phase[PHASE_BEFORE] / 1000.0,
               loop_stats.longest_phase[PHASE_UPDATE] / 1000.0,
               loop_stats.longest_phase[PHASE_LAYOUT] / 1000.0,
               loop_stats.longest_phase[PHASE_PAINT] / 1000.0,
               loop_stats.longest_phase[PHASE_AFTER] / 1000.0,
               loop_stats.longest_phase[PHASE_REST] / 1000.0);
      g_print ("all threads: CPU per delta %.1f µs, longest stretch %.2f ms\n",
               (double)process / sizes[s], loop_stats.longest_process / 1000.0);
      g_print ("after the first second: longest stall %.2f ms (all threads' CPU %.2f ms)\n",
               loop_stats.longest_settled / 1000.0, loop_stats.longest_settled_process / 1000.0);
      {
        GArray *stretches = loop_stats.settled_stretches;
        guint over_frame = 0;

        /* A maximum is one event; how often the loop missed a 60 Hz frame
         * and its 99th percentile say how the run felt. */
        g_array_sort (stretches, compare_stretches);
        for (guint i = 0; i < stretches->len; i++)
          over_frame += g_array_index (stretches, gint64, i) > 16667;
        g_print ("after the first second: %u busy stretches, 99th percentile %.2f ms, %u over a 60 Hz frame (16.7 ms)\n",
                 stretches->len,
                 stretches->len > 0 ? g_array_index (stretches, gint64, stretches->len * 99 / 100) / 1000.0 : 0.0,
                 over_frame);
      }
      g_print ("main-thread CPU per frame: flush and layout %.3f ms (max %.2f), paint %.3f ms (max %.2f)\n",
               frames.frames ? frames.layout_cpu / 1000.0 / frames.frames : 0.0, frames.max_layout_cpu / 1000.0,
               frames.frames ? frames.paint_cpu / 1000.0 / frames.frames : 0.0, frames.max_paint_cpu / 1000.0);
      g_print ("RESULT %s %u %.2f %.3f\n", bare ? "bare" : "viva", sizes[s],
               (double)busy / sizes[s], loop_stats.longest / 1000.0);

      /* The rendering must be right too: Markdown marks gone, text there. */
      if (bare)
        {
          GtkTextIter start, end;

          gtk_text_buffer_get_bounds (feed.bare, &start, &end);
          text = gtk_text_buffer_get_text (feed.bare, &start, &end, FALSE);
        }
      else
        text = viva_message_row_dup_text (feed.row);
      if (strstr (text, "Your solution") == NULL ||
          (!bare && (strstr (text, "```") != NULL || strstr (text, "**assignment**") != NULL)))
        {
          g_printerr ("bench-chat-view: %u deltas rendered wrongly\n", sizes[s]);
          failed = TRUE;
        }

      g_ptr_array_unref (feed.deltas);
    }

  traced_row = NULL;
  gtk_window_destroy (GTK_WINDOW (window));
  g_array_unref (loop_stats.settled_stretches);

  return failed ? 1 : 0;
}

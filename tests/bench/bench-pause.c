/* bench-pause.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <string.h>

#include "viva-console.h"
#include "viva-core.h"
#include "viva-resources.h"
#include "viva-runner.h"
#include "viva-stack-view.h"

/* Pause to the stack on screen: a real worker (under its sandbox) running a
 * program a student gets stuck in, paused ROUNDS times; each time from the
 * request to the `paused` signal (the worker's pauser takes the GIL and
 * describes the frames) and on to the frame after the VivaStackView was
 * added to a VivaConsole in a mapped window under Xvfb (the window's
 * after-paint). Side by side, in the same run: a Run of `pass` on the same
 * runner, the round trip every run pays. Programs: a `while True` loop, a
 * loop at the bottom of a recursion 900 deep, a `time.sleep`. */

#define ROUNDS 15

typedef struct
{
  GtkWidget    *window;
  VivaConsole  *console;
  VivaRunner   *runner;
  VivaRunStack *stack;
  gint64        asked;
  gint64        received;
  gint64        painted;
  gboolean      waiting_paint;
  gboolean      done;
} Bench;

static void
on_paused (VivaRunner   *runner,
           VivaRunStack *stack,
           Bench        *bench)
{
  bench->received = g_get_monotonic_time ();
  viva_console_append_widget (bench->console, viva_stack_view_new (stack));
  bench->waiting_paint = TRUE;
}

static void
after_paint (GdkFrameClock *clock,
             Bench         *bench)
{
  if (!bench->waiting_paint)
    return;
  bench->waiting_paint = FALSE;
  bench->painted = g_get_monotonic_time ();
  bench->done = TRUE;
}

static void
wait_flag (gboolean *flag)
{
  while (!*flag)
    g_main_context_iteration (NULL, TRUE);
}

static gboolean
set_flag (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

static void
sleep_loop (guint ms)
{
  gboolean flag = FALSE;

  g_timeout_add (ms, set_flag, &flag);
  wait_flag (&flag);
}

static int
compare (gconstpointer a,
         gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static void
report (const char *what,
        GArray     *values)
{
  g_array_sort (values, compare);
  g_print ("| %s | %.1f | %.1f | %.1f |\n", what, g_array_index (values, double, 0),
           g_array_index (values, double, values->len / 2), g_array_index (values, double, values->len - 1));
}

static void
store (GObject      *object,
       GAsyncResult *result,
       gpointer      data)
{
  *(GAsyncResult **) data = g_object_ref (result);
}

static double
run_pass (Bench *bench)
{
  GAsyncResult *result = NULL;
  gint64 start = g_get_monotonic_time ();
  g_autoptr(VivaRunResult) run = NULL;

  viva_runner_run_async (bench->runner, "pass\n", 10000, NULL, store, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  run = viva_runner_run_finish (bench->runner, result, NULL);
  g_assert_true (run != NULL && viva_run_result_get_status (run) == VIVA_RUN_STATUS_OK);
  g_object_unref (result);
  return (g_get_monotonic_time () - start) / 1000.0;
}

static void
bench_program (Bench      *bench,
               const char *name,
               const char *code)
{
  g_autoptr(GArray) to_signal = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) to_screen = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) runs = g_array_new (FALSE, FALSE, sizeof (double));
  GAsyncResult *result = NULL;
  g_autofree char *a = NULL, *b = NULL, *c = NULL;

  for (guint i = 0; i < ROUNDS; i++)
    {
      double ms = run_pass (bench);

      g_array_append_val (runs, ms);
    }

  viva_runner_run_async (bench->runner, code, 600000, NULL, store, &result);
  sleep_loop (300);
  for (guint i = 0; i < ROUNDS; i++)
    {
      double signal_ms, screen_ms;

      bench->done = FALSE;
      bench->asked = g_get_monotonic_time ();
      g_assert_true (viva_runner_pause (bench->runner));
      wait_flag (&bench->done);
      signal_ms = (bench->received - bench->asked) / 1000.0;
      screen_ms = (bench->painted - bench->asked) / 1000.0;
      g_array_append_val (to_signal, signal_ms);
      g_array_append_val (to_screen, screen_ms);
      viva_console_clear (bench->console);
      viva_runner_resume (bench->runner);
      sleep_loop (100);
    }
  viva_runner_stop (bench->runner);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_object_unref (result);

  a = g_strdup_printf ("%s: pause → stack received (ms)", name);
  b = g_strdup_printf ("%s: pause → stack on screen (ms)", name);
  c = g_strdup_printf ("%s: beside it, a Run of `pass` (ms)", name);
  report (a, to_signal);
  report (b, to_screen);
  report (c, runs);
}

int
main (int   argc,
      char *argv[])
{
  Bench bench = { 0 };

  gtk_init ();
  adw_init ();
  viva_core_init ();
  g_resources_register (viva_get_resource ());

  bench.window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (bench.window), 900, 700);
  bench.console = g_object_new (VIVA_TYPE_CONSOLE, NULL);
  gtk_window_set_child (GTK_WINDOW (bench.window), GTK_WIDGET (bench.console));
  gtk_window_present (GTK_WINDOW (bench.window));
  while (!gtk_widget_get_mapped (bench.window))
    g_main_context_iteration (NULL, TRUE);
  g_signal_connect (gtk_widget_get_frame_clock (bench.window), "after-paint", G_CALLBACK (after_paint), &bench);

  bench.runner = viva_runner_new ();
  g_signal_connect (bench.runner, "paused", G_CALLBACK (on_paused), &bench);

  g_print ("| measure | min | median | max |\n|---|---|---|---|\n");
  bench_program (&bench, "while True", "while True:\n    pass\n");
  bench_program (&bench, "recursion 900 deep",
                 "def down(n):\n    if n == 0:\n        while True:\n            pass\n    down(n - 1)\ndown(900)\n");
  bench_program (&bench, "time.sleep", "import time\ntime.sleep(600)\n");

  g_object_unref (bench.runner);
  gtk_window_destroy (GTK_WINDOW (bench.window));
  return 0;
}

/* test-runner-pause.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Pause, Resume and Stop against the real viva-python-worker under its
 * sandbox, on the programs a student gets stuck in (a loop that never
 * ends, a deep recursion, a long sleep) and on hostile ones (their own
 * signal handlers, a replaced sys._current_frames, a forged pause
 * report, a value whose repr never returns); and the failing frame's
 * variables that Explain this error is given. Each case asserts what the
 * student would see: the line, the frames, the variables. */

#include "config.h"

#include <gio/gio.h>
#include <string.h>

#include "viva-run-result.h"
#include "viva-runner.h"
#include "viva-test-runner.h"
#include "viva-test-util.h"

typedef struct
{
  VivaTestRunner  base;
  VivaRunStack   *stack;
  GAsyncResult   *result;
  gboolean        got_stack;
} Fixture;

static void
on_paused (VivaRunner   *runner,
           VivaRunStack *stack,
           Fixture      *fixture)
{
  g_set_object (&fixture->stack, stack);
  fixture->got_stack = TRUE;
}

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  viva_test_runner_setup (&fixture->base, data);
  g_signal_connect (fixture->base.runner, "paused", G_CALLBACK (on_paused), fixture);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  g_clear_object (&fixture->stack);
  g_clear_object (&fixture->result);
  g_signal_handlers_disconnect_by_data (fixture->base.runner, fixture);
  viva_test_runner_teardown (&fixture->base, data);
}

/* Starts @code and waits until it printed @marker: it runs now. */
static void
start (Fixture    *fixture,
       const char *code,
       const char *marker,
       guint       timeout_ms)
{
  g_string_truncate (fixture->base.out, 0);
  g_clear_object (&fixture->result);
  viva_runner_run_async (fixture->base.runner, code, timeout_ms, NULL,
                         viva_test_store_result, &fixture->result);
  /* Or until it ended: a program that forges ends at once. */
  while (strstr (fixture->base.out->str, marker) == NULL && fixture->result == NULL)
    g_main_context_iteration (NULL, TRUE);
}

static VivaRunStack *
pause_and_wait (Fixture *fixture)
{
  fixture->got_stack = FALSE;
  g_clear_object (&fixture->stack);
  g_assert_true (viva_runner_pause (fixture->base.runner));
  g_assert_true (viva_runner_get_paused (fixture->base.runner));
  g_assert_false (viva_runner_pause (fixture->base.runner));
  viva_test_run_until (&fixture->got_stack);
  return fixture->stack;
}

static VivaRunResult *
finish (Fixture *fixture)
{
  g_autoptr(GError) error = NULL;
  VivaRunResult *result;

  viva_test_run_until_result (&fixture->result);
  result = viva_runner_run_finish (fixture->base.runner, fixture->result, &error);
  g_clear_object (&fixture->result);
  g_assert_no_error (error);
  return result;
}

static void
stop_and_check (Fixture *fixture)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(VivaRunResult) after = NULL;

  viva_runner_stop (fixture->base.runner);
  g_assert_false (viva_runner_get_paused (fixture->base.runner));
  viva_test_run_until_result (&fixture->result);
  g_assert_null (viva_runner_run_finish (fixture->base.runner, fixture->result, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_object (&fixture->result);

  /* Stopped as ever: the next run runs. */
  after = viva_test_runner_run (&fixture->base, "print('next')", 0);
  viva_test_assert_run_ok (after);
  g_assert_cmpstr (fixture->base.out->str, ==, "next\n");
}

static const VivaRunLocal *
find_local (const VivaRunFrame *frame,
            const char         *name)
{
  for (guint i = 0; i < frame->locals->len; i++)
    {
      const VivaRunLocal *local = g_ptr_array_index (frame->locals, i);

      if (g_str_equal (local->name, name))
        return local;
    }
  return NULL;
}

static void
assert_local (const VivaRunFrame *frame,
              const char         *name,
              const char         *type_name,
              const char         *value)
{
  const VivaRunLocal *local = find_local (frame, name);

  if (local == NULL)
    g_error ("no local %s in %s", name, frame->function);
  g_assert_cmpstr (local->type_name, ==, type_name);
  if (value != NULL)
    g_assert_cmpstr (local->value, ==, value);
}

static void
test_pause_loop (Fixture       *fixture,
                 gconstpointer  data)
{
  VivaRunStack *stack;
  const VivaRunFrame *frame;
  g_autoptr(VivaRunResult) result = NULL;

  g_assert_false (viva_runner_pause (fixture->base.runner));
  g_assert_false (viva_runner_resume (fixture->base.runner));

  start (fixture,
         "import time\n"
         "words = ['a', 'b']\n"
         "n = 0\n"
         "print('go', flush=True)\n"
         "end = time.monotonic() + 0.5\n"
         "while time.monotonic() < end:\n"
         "    n += 1\n"
         "print('done')\n", "go", 20000);

  stack = pause_and_wait (fixture);
  g_assert_cmpint (viva_run_stack_get_line (stack), >=, 6);
  g_assert_cmpint (viva_run_stack_get_line (stack), <=, 7);
  g_assert_cmpuint (viva_run_stack_get_n_frames (stack), ==, 1);
  g_assert_cmpuint (viva_run_stack_get_depth (stack), ==, 1);
  frame = viva_run_stack_get_frame (stack, 0);
  g_assert_cmpstr (frame->file, ==, "<code>");
  g_assert_cmpstr (frame->function, ==, "<module>");
  assert_local (frame, "words", "list", "['a', 'b']");
  assert_local (frame, "n", "int", NULL);
  assert_local (frame, "time", "module", "<module time>");
  g_assert_null (find_local (frame, "__builtins__"));

  /* Resumed, it runs to its end. */
  g_assert_true (viva_runner_resume (fixture->base.runner));
  g_assert_false (viva_runner_get_paused (fixture->base.runner));
  result = finish (fixture);
  viva_test_assert_run_ok (result);
  g_assert_nonnull (strstr (fixture->base.out->str, "done"));
}

static void
test_pause_stop_while_true (Fixture       *fixture,
                            gconstpointer  data)
{
  VivaRunStack *stack;

  start (fixture, "print('go', flush=True)\nwhile True:\n    pass\n", "go", 20000);
  stack = pause_and_wait (fixture);
  g_assert_cmpint (viva_run_stack_get_line (stack), >=, 2);
  g_assert_cmpint (viva_run_stack_get_line (stack), <=, 3);

  /* Resume and pause again: it is still in the loop. */
  g_assert_true (viva_runner_resume (fixture->base.runner));
  stack = pause_and_wait (fixture);
  g_assert_cmpint (viva_run_stack_get_line (stack), >=, 2);

  stop_and_check (fixture);
}

static void
test_pause_recursion (Fixture       *fixture,
                      gconstpointer  data)
{
  VivaRunStack *stack;
  const VivaRunFrame *inner, *outer;

  start (fixture,
         "def down(n):\n"
         "    if n == 0:\n"
         "        print('bottom', flush=True)\n"
         "        while True:\n"
         "            pass\n"
         "    down(n - 1)\n"
         "down(600)\n", "bottom", 20000);

  stack = pause_and_wait (fixture);
  /* Every frame counted, the innermost ones shown, each with its n. */
  g_assert_cmpuint (viva_run_stack_get_depth (stack), ==, 602);
  g_assert_cmpuint (viva_run_stack_get_n_frames (stack), >, 10);
  g_assert_cmpuint (viva_run_stack_get_n_frames (stack), <=, VIVA_RUN_STACK_MAX_FRAMES);
  inner = viva_run_stack_get_frame (stack, 0);
  outer = viva_run_stack_get_frame (stack, 1);
  g_assert_cmpstr (inner->function, ==, "down");
  g_assert_cmpint (viva_run_stack_get_line (stack), >=, 4);
  g_assert_cmpint (viva_run_stack_get_line (stack), <=, 5);
  assert_local (inner, "n", "int", "0");
  assert_local (outer, "n", "int", "1");
  g_assert_cmpint (outer->line, ==, 6);

  stop_and_check (fixture);
}

static void
test_pause_sleep (Fixture       *fixture,
                  gconstpointer  data)
{
  VivaRunStack *stack;

  /* In a C call that let go of Python's lock: paused at once, on its line. */
  start (fixture,
         "import time\n"
         "print('go', flush=True)\n"
         "time.sleep(60)\n", "go", 120000);
  stack = pause_and_wait (fixture);
  g_assert_cmpint (viva_run_stack_get_line (stack), ==, 3);
  stop_and_check (fixture);
}

static gboolean
set_flag (gpointer flag)
{
  *(gboolean *) flag = TRUE;
  return G_SOURCE_REMOVE;
}

/* The paused time is not the run's: a run with one second left, paused for
 * longer than that, still ends well. */
static void
test_pause_keeps_time (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autoptr(VivaRunResult) result = NULL;
  gboolean waited = FALSE;

  start (fixture,
         "import time\n"
         "print('go', flush=True)\n"
         "end = time.process_time() + 0.1\n"
         "while time.process_time() < end:\n"
         "    pass\n"
         "print('done')\n", "go", 2000);
  pause_and_wait (fixture);
  g_timeout_add (3000, set_flag, &waited);
  viva_test_run_until (&waited);
  g_assert_true (viva_runner_resume (fixture->base.runner));
  result = finish (fixture);
  viva_test_assert_run_ok (result);
}

static void
test_pause_hostile (Fixture       *fixture,
                    gconstpointer  data)
{
  VivaRunStack *stack;
  const VivaRunFrame *frame;

  /* Its own handlers for the signals a pause could use, sys._current_frames
   * replaced, a switch interval of a quarter hour, threads, a value whose repr never returns
   * and one that is huge: the pause still says the truth and stays small. */
  start (fixture,
         "import signal, sys, threading, time\n"
         "sys.setswitchinterval(1000)\n"
         "for s in (signal.SIGUSR1, signal.SIGUSR2, signal.SIGALRM):\n"
         "    signal.signal(s, lambda *a: print('caught', flush=True))\n"
         "sys._current_frames = lambda: {}\n"
         "class Evil:\n"
         "    def __repr__(self):\n"
         "        while True:\n"
         "            pass\n"
         "evil = Evil()\n"
         "big = 'x' * 10_000_000\n"
         "huge = 7 ** 100000\n"
         "nested = [[[[1]]]]\n"
         "def nap():\n"
         "    while True:\n"
         "        time.sleep(0.01)\n"
         "threading.Thread(target=nap, daemon=True).start()\n"
         "print('go', flush=True)\n"
         "while True:\n"
         "    pass\n", "go", 30000);

  stack = pause_and_wait (fixture);
  g_assert_cmpint (viva_run_stack_get_line (stack), >=, 19);
  frame = viva_run_stack_get_frame (stack, 0);
  assert_local (frame, "evil", "Evil", "<Evil object>");
  assert_local (frame, "huge", "int", NULL);
  g_assert_true (g_str_has_prefix (find_local (frame, "huge")->value, "<int of "));
  g_assert_true (g_str_has_prefix (find_local (frame, "big")->value, "'xxxx"));
  g_assert_cmpuint (strlen (find_local (frame, "big")->value), <, 200);
  assert_local (frame, "nested", "list", "[[<list of 1 items>]]");
  g_assert_null (strstr (fixture->base.out->str, "caught"));

  stop_and_check (fixture);
}

#define FORGE \
    "import os, time\n" \
    "line = '{\"event\":\"paused\",\"id\":%%d,\"token\":12345,\"line\":1,\"depth\":1,\"stack\":\"F\\\\t<code>\\\\t1\\\\tfake\\\\n\"}\\n'\n" \
    "print('go', flush=True)\n" \
    "time.sleep(%s)\n" \
    "for i in range(1, 50):\n" \
    "    os.write(3, (line %% i).encode())\n" \
    "time.sleep(5)\n"

/* A pause report the program wrote itself, asked for or not, cannot carry
 * the token: the worker is stopped as for any forged frame. */
static void
test_pause_forged (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(VivaRunResult) result = NULL;
  g_autoptr(VivaRunResult) after = NULL;
  g_autofree char *unasked = g_strdup_printf (FORGE, "0");
  g_autofree char *asked = NULL;

  /* Unasked. */
  start (fixture, unasked, "go", 20000);
  result = finish (fixture);
  g_assert_cmpint (viva_run_result_get_status (result), ==, VIVA_RUN_STATUS_CRASHED);
  g_assert_nonnull (strstr (viva_run_result_get_summary (result), "private channel"));
  g_assert_false (fixture->got_stack);
  g_clear_object (&result);

  /* Paused for real first, then resumed: frozen, the program could not
   * forge; going on, its report out of place is caught. */
  asked = g_strdup_printf (FORGE, "1.5");
  start (fixture, asked, "go", 20000);
  pause_and_wait (fixture);
  g_assert_cmpint (viva_run_stack_get_line (fixture->stack), ==, 4);
  g_assert_true (viva_runner_resume (fixture->base.runner));
  result = finish (fixture);
  g_assert_cmpint (viva_run_result_get_status (result), ==, VIVA_RUN_STATUS_CRASHED);
  g_assert_nonnull (strstr (viva_run_result_get_summary (result), "private channel"));
  g_assert_false (viva_runner_get_paused (fixture->base.runner));

  after = viva_test_runner_run (&fixture->base, "print('next')", 0);
  viva_test_assert_run_ok (after);
}

/* What Explain this error is given: the failing frame and its variables. */
static void
test_error_frame (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(VivaRunResult) result = NULL;
  g_autoptr(VivaRunResult) ok = NULL;
  g_autoptr(VivaRunResult) syntax = NULL;
  const VivaRunFrame *frame;

  result = viva_test_runner_run (&fixture->base,
                                 "def third(xs):\n"
                                 "    total = len(xs)\n"
                                 "    return xs[total]\n"
                                 "third([4, 5, 6])\n", 0);
  g_assert_cmpint (viva_run_result_get_status (result), ==, VIVA_RUN_STATUS_ERROR);
  g_assert_cmpstr (viva_run_result_get_error_type (result), ==, "IndexError");
  frame = viva_run_result_get_error_frame (result);
  g_assert_nonnull (frame);
  g_assert_cmpstr (frame->function, ==, "third");
  g_assert_cmpint (frame->line, ==, 3);
  assert_local (frame, "xs", "list", "[4, 5, 6]");
  assert_local (frame, "total", "int", "3");

  ok = viva_test_runner_run (&fixture->base, "x = 1\n", 0);
  g_assert_null (viva_run_result_get_error_frame (ok));
  syntax = viva_test_runner_run (&fixture->base, "x = (\n", 0);
  g_assert_null (viva_run_result_get_error_frame (syntax));
}

/* The parser reads what a hostile worker could write: bounded, flat. */
static void
test_stack_parse_bounds (void)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(VivaRunStack) stack = NULL;
  g_autofree char *long_name = g_strnfill (500, 'a');

  for (int i = 0; i < 100; i++)
    {
      g_string_append_printf (text, "F\t<code>\t%d\tf%d\n", i, i);
      for (int j = 0; j < 80; j++)
        g_string_append_printf (text, "L\t%s\tint\t%d\n", long_name, j);
      g_string_append (text, "junk line\nL\tonly\ttwo\nF\t1\t2\t3\t4\t5\n");
    }
  stack = viva_run_stack_parse (text->str, -5, 3);
  g_assert_cmpint (viva_run_stack_get_line (stack), ==, 0);
  g_assert_cmpuint (viva_run_stack_get_n_frames (stack), <=, VIVA_RUN_STACK_MAX_FRAMES);
  g_assert_cmpuint (viva_run_stack_get_n_frames (stack), >, 3);
  g_assert_cmpuint (viva_run_stack_get_depth (stack), ==, viva_run_stack_get_n_frames (stack));
  for (guint i = 0; i < viva_run_stack_get_n_frames (stack); i++)
    {
      const VivaRunFrame *frame = viva_run_stack_get_frame (stack, i);

      g_assert_cmpuint (frame->locals->len, <=, VIVA_RUN_STACK_MAX_LOCALS);
      g_assert_cmpuint (g_utf8_strlen (((VivaRunLocal *) g_ptr_array_index (frame->locals, 0))->name, -1), <=, 400);
    }
  g_assert_null (viva_run_stack_get_frame (stack, 1000));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/viva/runner-pause/parse-bounds", test_stack_parse_bounds);
#define ADD(path, func) g_test_add ("/viva/runner-pause/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("loop-resume", test_pause_loop);
  ADD ("while-true-stop", test_pause_stop_while_true);
  ADD ("recursion", test_pause_recursion);
  ADD ("sleep", test_pause_sleep);
  ADD ("keeps-time", test_pause_keeps_time);
  ADD ("hostile", test_pause_hostile);
  ADD ("forged", test_pause_forged);
  ADD ("error-frame", test_error_frame);
#undef ADD

  return g_test_run ();
}

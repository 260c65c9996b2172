/* test-runner-limits.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* VivaRunner's limits against the real viva-python-worker (VIVA_WORKER):
 * code that never ends, crashes, eats memory, forks, reaches for the
 * network or the home folder, fills the disk or floods the console. Each
 * case asserts what the student would notice, and that the next run works.
 * The everyday runs are in test-runner.c. */

#include "config.h"

#include <gio/gio.h>
#include <signal.h>

#include "viva-runner.h"
#include "viva-test-runner.h"
#include "viva-test-util.h"

typedef VivaTestRunner Fixture;
static void
test_infinite_loop (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(VivaRunResult) warm = viva_test_runner_run (fixture, "pass", 0);
  g_autoptr(VivaRunResult) result = NULL;
  g_autoptr(VivaRunResult) after = NULL;

  /* The loop never ends: that the run ends at all is the timeout's work. */
  result = viva_test_runner_run (fixture, "kept = 'yes'\nn = 0\nwhile True:\n    n += 1\n", 500);
  g_assert_cmpint (viva_run_result_get_status (result), ==, VIVA_RUN_STATUS_TIMEOUT);
  g_assert_cmpint (viva_run_result_get_error_line (result), >=, 3);
  g_assert_false (viva_run_result_get_state_reset (result));
  g_assert_nonnull (viva_run_result_get_summary (result));

  after = viva_test_runner_run (fixture, "print(kept, n > 0)", 0);
  viva_test_assert_run_ok (after);
  g_assert_cmpstr (fixture->out->str, ==, "yes True\n");
}

/* Code that cannot be interrupted (here it blocks SIGINT, as code stuck in
 * C effectively does) is killed, and the next run gets a fresh worker. */
static void
test_hang_killed (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(VivaRunResult) setup = viva_test_runner_run (fixture, "lost = 1", 0);
  g_autoptr(VivaRunResult) result = NULL;
  g_autoptr(VivaRunResult) after = NULL;

  viva_test_assert_run_ok (setup);
  result = viva_test_runner_run (fixture, "import signal\nsignal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGINT])\nwhile True:\n    pass\n", 300);
  g_assert_cmpint (viva_run_result_get_status (result), ==, VIVA_RUN_STATUS_KILLED);
  g_assert_true (viva_run_result_get_state_reset (result));
  g_assert_nonnull (viva_run_result_get_summary (result));

  after = viva_test_runner_run (fixture, "print('lost' in globals())", 0);
  viva_test_assert_run_ok (after);
  g_assert_cmpstr (fixture->out->str, ==, "False\n");
}

static void
test_segfault (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(VivaRunResult) result = viva_test_runner_run (fixture, "import ctypes\nctypes.string_at(0)\n", 0);
  g_autoptr(VivaRunResult) after = NULL;

  g_assert_cmpint (viva_run_result_get_status (result), ==, VIVA_RUN_STATUS_CRASHED);
  g_assert_true (viva_run_result_get_state_reset (result));
#if !defined(__SANITIZE_ADDRESS__)
  /* AddressSanitizer catches the fault itself and exits instead. */
  g_assert_cmpint (viva_run_result_get_signal (result), ==, SIGSEGV);
  /* faulthandler's report names the student's line. */
  g_assert_nonnull (strstr (viva_run_result_get_stderr (result), "<code>\", line 2"));
#endif

  after = viva_test_runner_run (fixture, "print(6 * 7)", 0);
  viva_test_assert_run_ok (after);
  g_assert_cmpstr (fixture->out->str, ==, "42\n");
}

static void
test_memory_bomb (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(VivaRunResult) result = NULL;
  g_autoptr(VivaRunResult) after = NULL;

#if defined(__SANITIZE_ADDRESS__)
  /* The worker has no address-space cap under AddressSanitizer. */
  g_test_skip ("the memory limit is off in AddressSanitizer builds");
  return;
#endif

  viva_runner_set_memory_limit (fixture->runner, 256 << 20);
  result = viva_test_runner_run (fixture, "blocks = []\nwhile True:\n    blocks.append(bytearray(16 << 20))\n", 5000);
  g_assert_cmpint (viva_run_result_get_status (result), ==, VIVA_RUN_STATUS_ERROR);
  g_assert_cmpstr (viva_run_result_get_error_type (result), ==, "MemoryError");
  g_assert_cmpint (viva_run_result_get_error_line (result), ==, 3);

  after = viva_test_runner_run (fixture, "blocks.clear()\nprint('still here')", 0);
  viva_test_assert_run_ok (after);
}

static void
test_fork_bomb (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(VivaRunResult) result = viva_test_runner_run (fixture, "import os\nwhile True:\n    os.fork()\n", 2000);
  g_autoptr(VivaRunResult) spawn = NULL;
  g_autoptr(VivaRunResult) threads = NULL;

  g_assert_cmpint (viva_run_result_get_status (result), ==, VIVA_RUN_STATUS_ERROR);
  g_assert_cmpstr (viva_run_result_get_error_type (result), ==, "PermissionError");
  g_assert_cmpint (viva_run_result_get_error_line (result), ==, 3);

  spawn = viva_test_runner_run (fixture, "import subprocess\nsubprocess.run(['true'])\n", 2000);
  g_assert_cmpint (viva_run_result_get_status (spawn), ==, VIVA_RUN_STATUS_ERROR);

  /* Threads are not processes: they still work. */
  threads = viva_test_runner_run (fixture, "import threading\nt = threading.Thread(target=print, args=('from a thread',))\nt.start(); t.join()\n", 0);
  viva_test_assert_run_ok (threads);
  g_assert_cmpstr (fixture->out->str, ==, "from a thread\n");
}

static gboolean
accepted_cb (GSocketService    *service,
             GSocketConnection *connection,
             GObject           *source,
             gpointer           user_data)
{
  *(gboolean *) user_data = TRUE;
  return FALSE;
}

static gboolean
require_sandbox (Fixture *fixture)
{
  g_autoptr(VivaRunResult) result = viva_test_runner_run (fixture, "pass", 0);

  viva_test_assert_run_ok (result);
  if (viva_runner_get_sandbox (fixture->runner) != VIVA_RUNNER_SANDBOX_NONE)
    return TRUE;

  g_test_skip (viva_runner_get_sandbox_message (fixture->runner));
  return FALSE;
}

/* A server listens on the host's loopback; sandboxed code cannot reach it. */
static void
test_sandbox_network (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(GSocketService) service = g_socket_service_new ();
  g_autoptr(VivaRunResult) result = NULL;
  g_autofree char *code = NULL;
  gboolean accepted = FALSE;
  guint16 port;

  if (!require_sandbox (fixture))
    return;

  port = g_socket_listener_add_any_inet_port (G_SOCKET_LISTENER (service), NULL, NULL);
  g_assert_cmpuint (port, >, 0);
  g_signal_connect (service, "incoming", G_CALLBACK (accepted_cb), &accepted);
  g_socket_service_start (service);

  code = g_strdup_printf ("import socket\nsocket.create_connection(('127.0.0.1', %u), timeout=2)\n", port);
  result = viva_test_runner_run (fixture, code, 5000);
  g_assert_cmpint (viva_run_result_get_status (result), ==, VIVA_RUN_STATUS_ERROR);
  g_assert_cmpint (viva_run_result_get_error_line (result), ==, 2);
  g_main_context_iteration (NULL, FALSE);
  g_assert_false (accepted);
  g_socket_service_stop (service);
}

static void
test_sandbox_home (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autofree char *name = g_strdup_printf ("viva-sandbox-probe-%d", (int) getpid ());
  g_autofree char *path = g_build_filename (g_get_home_dir (), name, NULL);
  g_autofree char *quoted = NULL;
  g_autofree char *code = NULL;
  g_autoptr(VivaRunResult) result = NULL;

  if (!require_sandbox (fixture))
    return;

  /* A single-quoted shell word is also a Python string literal. */
  quoted = g_shell_quote (path);
  code = g_strdup_printf ("with open(%s, 'w') as f:\n    f.write('x')\n", quoted);
  result = viva_test_runner_run (fixture, code, 0);
  g_assert_cmpint (viva_run_result_get_status (result), ==, VIVA_RUN_STATUS_ERROR);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));

  /* The working directory is private and writable. */
  g_clear_object (&result);
  result = viva_test_runner_run (fixture, "with open('notes.txt', 'w') as f:\n    f.write('ok')\nprint(open('notes.txt').read())\n", 0);
  viva_test_assert_run_ok (result);
  g_assert_cmpstr (fixture->out->str, ==, "ok\n");
}

/* Past RLIMIT_FSIZE a write fails with an error instead of killing. */
static void
test_file_size (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(VivaRunResult) result = NULL;
  g_autoptr(VivaRunResult) after = NULL;

  result = viva_test_runner_run (fixture,
                "import os\nchunk = b'x' * (1 << 20)\nwith open('big.bin', 'wb') as f:\n"
                "    for i in range(100):\n        f.write(chunk)\n        f.flush()\n", 10000);
  g_assert_cmpint (viva_run_result_get_status (result), ==, VIVA_RUN_STATUS_ERROR);
  g_assert_cmpstr (viva_run_result_get_error_type (result), ==, "OSError");
  g_assert_nonnull (strstr (viva_run_result_get_error_message (result), "File too large"));

  after = viva_test_runner_run (fixture, "import os\nos.remove('big.bin')\nprint(i)", 0);
  viva_test_assert_run_ok (after);
  g_assert_cmpstr (fixture->out->str, ==, "64\n");
}

static gboolean
tick_cb (gpointer user_data)
{
  gint64 *last = user_data;
  gint64 now = g_get_monotonic_time ();

  last[1] = MAX (last[1], now - last[0]);
  last[0] = now;
  return G_SOURCE_CONTINUE;
}

/* A flood of output is cut at the limit with a notice, the run completes,
 * and the main loop keeps its rhythm meanwhile. */
static void
test_output_flood (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(VivaRunResult) result = NULL;
  gint64 ticks[2] = { g_get_monotonic_time (), 0 };
  guint tick_id;

  viva_runner_set_output_limit (fixture->runner, 256 * 1024);
  tick_id = g_timeout_add (10, tick_cb, ticks);
  result = viva_test_runner_run (fixture, "for i in range(300000):\n    print('line', i)\nprint('done', file=__import__('sys').stderr)\n", 10000);
  g_source_remove (tick_id);

  viva_test_assert_run_ok (result);
  g_assert_true (viva_run_result_get_output_truncated (result));
  g_assert_cmpuint (strlen (viva_run_result_get_stdout (result)), <=, 256 * 1024);
  g_assert_cmpuint (strlen (viva_run_result_get_stdout (result)), >, 200 * 1024);
  g_assert_true (g_str_has_prefix (viva_run_result_get_stdout (result), "line 0\nline 1\n"));
  g_assert_nonnull (strstr (fixture->err->str, "truncated"));
  /* Generous for a loaded machine; a blocked loop would stall for seconds. */
  g_assert_cmpint (ticks[1], <, 500 * G_TIME_SPAN_MILLISECOND);
}

#define ADD(path, func) \
  g_test_add ("/viva/runner/" path, Fixture, NULL, viva_test_runner_setup, func, viva_test_runner_teardown)

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  ADD ("infinite-loop", test_infinite_loop);
  ADD ("hang-killed", test_hang_killed);
  ADD ("segfault", test_segfault);
  ADD ("memory-bomb", test_memory_bomb);
  ADD ("fork-bomb", test_fork_bomb);
  ADD ("sandbox-network", test_sandbox_network);
  ADD ("sandbox-home", test_sandbox_home);
  ADD ("file-size", test_file_size);
  ADD ("output-flood", test_output_flood);

  return g_test_run ();
}

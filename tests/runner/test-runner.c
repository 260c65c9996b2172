/* test-runner.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* VivaRunner against the real viva-python-worker (VIVA_WORKER), as the
 * student and the examiner use it: each case asserts what a person would
 * notice in the console. Its limits (runaway, crashing and hostile code)
 * are in test-runner-limits.c. */

#include "config.h"

#include <gio/gio.h>

#include "viva-run-result-private.h"
#include "viva-runner.h"
#include "viva-test-runner.h"
#include "viva-test-util.h"

typedef VivaTestRunner Fixture;

/* Whether @module is installed for the worker's Python: found on its path,
 * not imported, so that a worker that cannot load the module's C
 * extensions (a libpython linked without its symbols exported) fails the
 * test that imports it instead of skipping it. */
static gboolean
python_has (Fixture    *fixture,
            const char *module)
{
  g_autofree char *code = g_strdup_printf ("import importlib.util\n"
                                           "if importlib.util.find_spec('%s') is None:\n"
                                           "    raise ImportError('%s')\n", module, module);
  g_autoptr(VivaRunResult) result = viva_test_runner_run (fixture, code, 30000);

  return viva_run_result_get_status (result) == VIVA_RUN_STATUS_OK;
}

static void
test_create_destroy (void)
{
  VivaRunner *runner = viva_runner_new ();
  VivaRunResult *result = _viva_run_result_new (VIVA_RUN_STATUS_OK);

  g_assert_false (viva_runner_get_busy (runner));
  g_assert_null (viva_runner_get_python_version (runner));
  g_assert_cmpuint (viva_runner_get_memory_limit (runner), ==, VIVA_RUNNER_DEFAULT_MEMORY_LIMIT);
  g_assert_cmpuint (viva_runner_get_output_limit (runner), ==, VIVA_RUNNER_DEFAULT_OUTPUT_LIMIT);
  g_assert_finalize_object (runner);

  g_assert_cmpstr (viva_run_result_get_stdout (result), ==, "");
  g_assert_cmpuint (viva_run_result_get_n_images (result), ==, 0);
  g_assert_finalize_object (result);
}

static void
test_properties (void)
{
  g_autoptr(VivaRunner) runner = viva_runner_new ();
  g_auto(GValue) value = G_VALUE_INIT;

  g_value_init (&value, G_TYPE_UINT64);
  g_value_set_uint64 (&value, 512 << 20);
  viva_test_assert_notify (runner, "memory-limit", &value);
  g_value_unset (&value);

  g_value_init (&value, G_TYPE_UINT);
  g_value_set_uint (&value, 4096);
  viva_test_assert_notify (runner, "output-limit", &value);
}

/* A started worker is ready, says its version, and dies with the runner. */
static void
test_start_and_destroy (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  guint busy_changes = 0;
  guint version_changes = 0;

  g_signal_connect (fixture->runner, "notify::busy", G_CALLBACK (viva_test_count_notify), &busy_changes);
  g_signal_connect (fixture->runner, "notify::python-version", G_CALLBACK (viva_test_count_notify), &version_changes);

  /* Warming up is not busy: the Run button must not flicker to Stop. */
  viva_runner_start_async (fixture->runner, NULL, viva_test_store_result, &result);
  g_assert_false (viva_runner_get_busy (fixture->runner));
  viva_test_run_until_result (&result);
  g_assert_true (viva_runner_start_finish (fixture->runner, result, &error));
  g_assert_no_error (error);

  g_assert_false (viva_runner_get_busy (fixture->runner));
  g_assert_cmpuint (busy_changes, ==, 0);
  g_assert_cmpuint (version_changes, ==, 1);
  g_assert_true (g_str_has_prefix (viva_runner_get_python_version (fixture->runner), "3."));
  g_signal_handlers_disconnect_by_func (fixture->runner, viva_test_count_notify, &busy_changes);
  g_signal_handlers_disconnect_by_func (fixture->runner, viva_test_count_notify, &version_changes);
}

/* Busy from the request to its answer, for the Run/Stop button. */
static void
test_busy (Fixture       *fixture,
           gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(VivaRunResult) run_result = NULL;
  guint busy_changes = 0;

  g_signal_connect (fixture->runner, "notify::busy", G_CALLBACK (viva_test_count_notify), &busy_changes);
  viva_runner_run_async (fixture->runner, "pass", 0, NULL, viva_test_store_result, &result);
  g_assert_true (viva_runner_get_busy (fixture->runner));
  g_assert_cmpuint (busy_changes, ==, 1);
  viva_test_run_until_result (&result);
  g_assert_false (viva_runner_get_busy (fixture->runner));
  g_assert_cmpuint (busy_changes, ==, 2);
  run_result = viva_runner_run_finish (fixture->runner, result, NULL);
  viva_test_assert_run_ok (run_result);
  g_signal_handlers_disconnect_by_func (fixture->runner, viva_test_count_notify, &busy_changes);
}

static void
test_globals_persist (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(VivaRunResult) first = viva_test_runner_run (fixture, "x = 41\ndef double(n):\n    return 2 * n\n", 0);
  g_autoptr(VivaRunResult) second = NULL;

  viva_test_assert_run_ok (first);
  second = viva_test_runner_run (fixture, "print(double(x + 1) // 2)", 0);
  viva_test_assert_run_ok (second);
  g_assert_cmpstr (fixture->out->str, ==, "42\n");
  g_assert_cmpstr (viva_run_result_get_stdout (second), ==, "42\n");
}

/* Output reaches the console while the code still runs. */
static void
test_streams (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(VivaRunResult) result = viva_test_runner_run (fixture, "import time, sys\nprint('first')\ntime.sleep(0.6)\nprint('late', file=sys.stderr)\n", 0);
  gint64 ended = g_get_monotonic_time ();

  viva_test_assert_run_ok (result);
  g_assert_cmpint (fixture->first_out_us, >, 0);
  g_assert_cmpint (ended - fixture->first_out_us, >=, 300 * G_TIME_SPAN_MILLISECOND);
  g_assert_cmpstr (viva_run_result_get_stdout (result), ==, "first\n");
  g_assert_cmpstr (viva_run_result_get_stderr (result), ==, "late\n");
}

/* What bypasses sys.stdout (os.write, C libraries) arrives too, before the
 * result and under the same cap. Its order against print() is not kept, as
 * in CPython writing to a pipe. */
static void
test_fd_output (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(VivaRunResult) result = viva_test_runner_run (fixture, "import os\nprint('a', flush=True)\nos.write(1, b'b\\n')\nprint('c')\nos.write(2, 'd \\u00e9\\n'.encode())\n", 0);
  g_autoptr(VivaRunResult) flood = NULL;

  viva_test_assert_run_ok (result);
  g_assert_cmpuint (strlen (viva_run_result_get_stdout (result)), ==, strlen ("a\nb\nc\n"));
  g_assert_true (g_str_has_prefix (viva_run_result_get_stdout (result), "a\n"));
  g_assert_nonnull (strstr (viva_run_result_get_stdout (result), "b\n"));
  g_assert_nonnull (strstr (viva_run_result_get_stdout (result), "c\n"));
  g_assert_cmpstr (viva_run_result_get_stderr (result), ==, "d \u00e9\n");

  viva_runner_set_output_limit (fixture->runner, 64 * 1024);
  flood = viva_test_runner_run (fixture, "import os\nfor i in range(200):\n    os.write(1, b'x' * 100000)\nprint('end')\n", 10000);
  viva_test_assert_run_ok (flood);
  g_assert_true (viva_run_result_get_output_truncated (flood));
  g_assert_cmpuint (strlen (viva_run_result_get_stdout (flood)), <=, 64 * 1024);
}

static void
test_syntax_error (Fixture       *fixture,
                   gconstpointer  data)
{
  const char *code = "x = 1\nif x > 0\n    print(x)\n";
  g_autoptr(GAsyncResult) async = NULL;
  g_autoptr(VivaRunResult) checked = NULL;
  g_autoptr(VivaRunResult) result = NULL;
  g_autoptr(GError) error = NULL;

  viva_runner_check_async (fixture->runner, code, NULL, viva_test_store_result, &async);
  viva_test_run_until_result (&async);
  checked = viva_runner_check_finish (fixture->runner, async, &error);
  g_assert_no_error (error);
  g_assert_cmpint (viva_run_result_get_status (checked), ==, VIVA_RUN_STATUS_ERROR);
  g_assert_cmpstr (viva_run_result_get_error_type (checked), ==, "SyntaxError");
  g_assert_cmpint (viva_run_result_get_error_line (checked), ==, 2);
  g_assert_cmpint (viva_run_result_get_error_column (checked), >, 0);

  result = viva_test_runner_run (fixture, code, 0);
  g_assert_cmpint (viva_run_result_get_status (result), ==, VIVA_RUN_STATUS_ERROR);
  g_assert_cmpint (viva_run_result_get_error_line (result), ==, 2);
  g_assert_cmpstr (fixture->out->str, ==, "");
}

/* A runtime error names the line in the student's code, and the traceback
 * shows their frames only. */
static void
test_error_line (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(VivaRunResult) result = viva_test_runner_run (fixture, "import json\n\ndef parse(text):\n    return json.loads(text)\n\nparse('{')\n", 0);
  const char *traceback = viva_run_result_get_traceback (result);

  g_assert_cmpint (viva_run_result_get_status (result), ==, VIVA_RUN_STATUS_ERROR);
  g_assert_cmpstr (viva_run_result_get_error_type (result), ==, "JSONDecodeError");
  g_assert_cmpint (viva_run_result_get_error_line (result), ==, 4);
  g_assert_nonnull (strstr (traceback, "File \"<code>\", line 6"));
  g_assert_nonnull (strstr (traceback, "File \"<code>\", line 4, in parse"));
  g_assert_null (strstr (traceback, "json/decoder.py"));
  g_assert_null (strstr (traceback, "viva-worker-boot"));
  g_assert_nonnull (strstr (viva_run_result_get_summary (result), "4"));
}

/* A missing worker is an error the caller can show, not a hang. */
static void
test_worker_missing (void)
{
  g_autoptr(VivaRunner) runner = NULL;
  g_autoptr(GAsyncResult) async = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *saved = g_strdup (g_getenv ("VIVA_WORKER"));

  g_setenv ("VIVA_WORKER", "/nonexistent/viva-python-worker", TRUE);
  runner = viva_runner_new ();
  viva_runner_run_async (runner, "print(1)", 0, NULL, viva_test_store_result, &async);
  viva_test_run_until_result (&async);
  g_assert_null (viva_runner_run_finish (runner, async, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "/nonexistent/viva-python-worker"));
  g_assert_false (viva_runner_get_busy (runner));
  g_clear_object (&async);
  g_assert_finalize_object (g_steal_pointer (&runner));

  if (saved != NULL)
    g_setenv ("VIVA_WORKER", saved, TRUE);
  else
    g_unsetenv ("VIVA_WORKER");
}

typedef struct
{
  VivaRunner *runner;
  gboolean    done;
  gboolean    ok;
} LastRef;

static void
last_ref_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  LastRef *state = user_data;
  g_autoptr(VivaRunResult) run = viva_runner_run_finish (VIVA_RUNNER (object), result, NULL);

  state->ok = run != NULL && viva_run_result_get_status (run) == VIVA_RUN_STATUS_OK;
  state->done = TRUE;
  /* The owner lets go of the runner as its one run ends, as a grading
   * does with a test's runner. */
  g_object_unref (state->runner);
}

/* A runner whose owner drops it from the run's own callback goes away
 * cleanly (a use after free here is what ASan and valgrind see). */
static void
test_last_ref_in_callback (void)
{
  LastRef state = { viva_runner_new (), FALSE, FALSE };
  gpointer weak = state.runner;

  g_object_add_weak_pointer (G_OBJECT (state.runner), &weak);
  viva_runner_run_async (state.runner, "x = 1\n", 10000, NULL, last_ref_cb, &state);
  viva_test_run_until (&state.done);
  g_assert_true (state.ok);
  while (weak != NULL)
    g_main_context_iteration (NULL, TRUE);
}

static void
test_matplotlib (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(VivaRunResult) result = NULL;
  g_autoptr(VivaRunResult) open_figure = NULL;
  gsize size;
  const guint8 *png;

  if (!python_has (fixture, "matplotlib"))
    {
      g_test_skip ("matplotlib is not installed");
      return;
    }

  result = viva_test_runner_run (fixture, "import matplotlib.pyplot as plt\nplt.plot([1, 4, 9])\nplt.title('squares')\nplt.show()\n", 30000);
  viva_test_assert_run_ok (result);
  g_assert_cmpstr (fixture->err->str, ==, "");
  g_assert_cmpuint (fixture->images->len, ==, 1);
  g_assert_cmpuint (viva_run_result_get_n_images (result), ==, 1);
  png = g_bytes_get_data (g_ptr_array_index (fixture->images, 0), &size);
  g_assert_cmpuint (size, >, 1000);
  g_assert_cmpmem (png, 8, "\x89PNG\r\n\x1a\n", 8);

  /* A figure left open at the end of a run is sent too. */
  open_figure = viva_test_runner_run (fixture, "plt.figure()\nplt.bar(['a', 'b'], [1, 2])\n", 10000);
  viva_test_assert_run_ok (open_figure);
  g_assert_cmpuint (viva_run_result_get_n_images (open_figure), ==, 1);
  g_assert_cmpuint (fixture->images->len, ==, 2);
}

static void
test_kmeans_numpy (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "runner", "kmeans-numpy.py", NULL);
  g_autofree char *code = NULL;
  g_autoptr(VivaRunResult) result = NULL;
  g_autoptr(GError) error = NULL;

  if (!python_has (fixture, "numpy"))
    {
      g_test_skip ("numpy is not installed");
      return;
    }

  g_file_get_contents (path, &code, NULL, &error);
  g_assert_no_error (error);
  result = viva_test_runner_run (fixture, code, 30000);
  viva_test_assert_run_ok (result);
  g_assert_true (g_str_has_prefix (fixture->out->str, "centroids:"));
  g_assert_nonnull (strstr (fixture->out->str, "converged: True"));
}

static void
test_input (Fixture       *fixture,
            gconstpointer  data)
{
  /* A prompt that waited for an answer would end in the timeout instead. */
  g_autoptr(VivaRunResult) result = viva_test_runner_run (fixture, "name = input('Your name? ')\nprint('hello', name)\n", 5000);

  g_assert_cmpint (viva_run_result_get_status (result), ==, VIVA_RUN_STATUS_ERROR);
  g_assert_cmpstr (viva_run_result_get_error_type (result), ==, "EOFError");
  g_assert_nonnull (strstr (viva_run_result_get_error_message (result), "input() is not available"));
  g_assert_cmpint (viva_run_result_get_error_line (result), ==, 1);
  g_assert_cmpstr (fixture->out->str, ==, "Your name? ");
}

static void
test_sys_exit (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(VivaRunResult) clean = viva_test_runner_run (fixture, "import sys\nprint('bye')\nsys.exit()\nprint('never')\n", 0);
  g_autoptr(VivaRunResult) failed = NULL;
  g_autoptr(VivaRunResult) after = NULL;

  viva_test_assert_run_ok (clean);
  g_assert_cmpstr (fixture->out->str, ==, "bye\n");

  failed = viva_test_runner_run (fixture, "import sys\nsys.exit('bad input')\n", 0);
  g_assert_cmpint (viva_run_result_get_status (failed), ==, VIVA_RUN_STATUS_ERROR);
  g_assert_cmpstr (viva_run_result_get_error_type (failed), ==, "SystemExit");
  g_assert_cmpint (viva_run_result_get_error_line (failed), ==, 2);
  g_assert_false (viva_run_result_get_state_reset (failed));

  after = viva_test_runner_run (fixture, "print('alive')", 0);
  viva_test_assert_run_ok (after);
}

static VivaRunResult *
inject (Fixture    *fixture,
        const char *code,
        const char *probe)
{
  g_autoptr(GAsyncResult) async = NULL;
  g_autoptr(GError) error = NULL;
  VivaRunResult *result;

  g_string_truncate (fixture->out, 0);
  viva_runner_inject_async (fixture->runner, code, probe, 0, NULL, viva_test_store_result, &async);
  viva_test_run_until_result (&async);
  result = viva_runner_inject_finish (fixture->runner, async, &error);
  g_assert_no_error (error);
  return result;
}

static void
test_inject (Fixture       *fixture,
             gconstpointer  data)
{
  const char *code = "def square(n):\n    return n * n\n";
  g_autoptr(VivaRunResult) passed = inject (fixture, code, "assert square(3) == 9\nprint('passed')\n");
  g_autoptr(VivaRunResult) failed = NULL;
  g_autoptr(VivaRunResult) in_code = NULL;

  viva_test_assert_run_ok (passed);
  g_assert_cmpstr (fixture->out->str, ==, "passed\n");

  failed = inject (fixture, code, "assert square(3) == 10, 'square(3) should be 10'\n");
  g_assert_cmpint (viva_run_result_get_status (failed), ==, VIVA_RUN_STATUS_ERROR);
  g_assert_cmpstr (viva_run_result_get_error_type (failed), ==, "AssertionError");
  g_assert_cmpstr (viva_run_result_get_error_message (failed), ==, "square(3) should be 10");
  g_assert_cmpint (viva_run_result_get_error_line (failed), ==, 0);
  g_assert_nonnull (strstr (viva_run_result_get_traceback (failed), "<test>"));

  in_code = inject (fixture, "def half(n):\n    return n / 0\n", "half(4)\n");
  g_assert_cmpstr (viva_run_result_get_error_type (in_code), ==, "ZeroDivisionError");
  g_assert_cmpint (viva_run_result_get_error_line (in_code), ==, 2);
}

static gboolean
cancel_cb (gpointer user_data)
{
  g_cancellable_cancel (user_data);
  return G_SOURCE_REMOVE;
}

/* Stop: the caller hears at once, the code is interrupted, variables stay.
 * A Stop that did not interrupt would leave the loop to its two-minute
 * timeout; the bounds below sit far from both that and a loaded machine. */
static void
test_cancel (Fixture       *fixture,
             gconstpointer  data)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GAsyncResult) async = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(VivaRunResult) warm = viva_test_runner_run (fixture, "pass", 0);
  g_autoptr(VivaRunResult) result = NULL;
  g_autoptr(VivaRunResult) after = NULL;
  gint64 started = g_get_monotonic_time ();

  viva_runner_run_async (fixture->runner, "survivor = 7\nwhile True:\n    pass\n", 120000, cancellable, viva_test_store_result, &async);
  g_timeout_add (300, cancel_cb, cancellable);
  viva_test_run_until_result (&async);
  result = viva_runner_run_finish (fixture->runner, async, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (result);
  g_assert_cmpint (g_get_monotonic_time () - started, <, 30 * G_TIME_SPAN_SECOND);

  after = viva_test_runner_run (fixture, "print(survivor)", 0);
  viva_test_assert_run_ok (after);
  g_assert_cmpstr (fixture->out->str, ==, "7\n");
  g_assert_cmpint (g_get_monotonic_time () - started, <, 30 * G_TIME_SPAN_SECOND);
}

static gboolean
stop_cb (gpointer user_data)
{
  viva_runner_stop (user_data);
  return G_SOURCE_REMOVE;
}

static void
test_stop (Fixture       *fixture,
           gconstpointer  data)
{
  g_autoptr(GAsyncResult) running = NULL;
  g_autoptr(GAsyncResult) waiting = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) waiting_error = NULL;

  viva_runner_run_async (fixture->runner, "while True:\n    pass\n", 20000, NULL, viva_test_store_result, &running);
  viva_runner_run_async (fixture->runner, "print('queued')", 0, NULL, viva_test_store_result, &waiting);
  g_assert_true (viva_runner_get_busy (fixture->runner));
  g_timeout_add (200, stop_cb, fixture->runner);
  viva_test_run_until_result (&running);
  viva_test_run_until_result (&waiting);
  g_assert_null (viva_runner_run_finish (fixture->runner, running, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (viva_runner_run_finish (fixture->runner, waiting, &waiting_error));
  g_assert_error (waiting_error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpstr (fixture->out->str, ==, "");

  while (viva_runner_get_busy (fixture->runner))
    g_main_context_iteration (NULL, TRUE);
}

static void
reset (Fixture  *fixture,
       gboolean  new_process)
{
  g_autoptr(GAsyncResult) async = NULL;
  g_autoptr(GError) error = NULL;

  viva_runner_reset_async (fixture->runner, new_process, NULL, viva_test_store_result, &async);
  viva_test_run_until_result (&async);
  g_assert_true (viva_runner_reset_finish (fixture->runner, async, &error));
  g_assert_no_error (error);
}

static void
test_reset (Fixture       *fixture,
            gconstpointer  data)
{
  g_autoptr(VivaRunResult) define = viva_test_runner_run (fixture, "import sys\nsys.modules['__main__'].marker = 1\nold = 1", 0);
  g_autoptr(VivaRunResult) after_reset = NULL;
  g_autoptr(VivaRunResult) after_restart = NULL;

  viva_test_assert_run_ok (define);
  reset (fixture, FALSE);
  after_reset = viva_test_runner_run (fixture, "print('old' in globals(), __name__)", 0);
  viva_test_assert_run_ok (after_reset);
  g_assert_cmpstr (fixture->out->str, ==, "False __main__\n");

  g_clear_object (&define);
  define = viva_test_runner_run (fixture, "import sys\nsys.viva_marker = 1", 0);
  reset (fixture, TRUE);
  after_restart = viva_test_runner_run (fixture, "import sys\nprint(hasattr(sys, 'viva_marker'))", 0);
  viva_test_assert_run_ok (after_restart);
  g_assert_cmpstr (fixture->out->str, ==, "False\n");
}

#define ADD(path, func) \
  g_test_add ("/viva/runner/" path, Fixture, NULL, viva_test_runner_setup, func, viva_test_runner_teardown)

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/viva/runner/create-destroy", test_create_destroy);
  g_test_add_func ("/viva/runner/properties", test_properties);
  g_test_add_func ("/viva/runner/worker-missing", test_worker_missing);
  g_test_add_func ("/viva/runner/last-ref-in-callback", test_last_ref_in_callback);
  ADD ("start-and-destroy", test_start_and_destroy);
  ADD ("busy", test_busy);
  ADD ("globals-persist", test_globals_persist);
  ADD ("streams", test_streams);
  ADD ("fd-output", test_fd_output);
  ADD ("syntax-error", test_syntax_error);
  ADD ("error-line", test_error_line);
  ADD ("matplotlib", test_matplotlib);
  ADD ("kmeans-numpy", test_kmeans_numpy);
  ADD ("input", test_input);
  ADD ("sys-exit", test_sys_exit);
  ADD ("inject", test_inject);
  ADD ("cancel", test_cancel);
  ADD ("stop", test_stop);
  ADD ("reset", test_reset);

  return g_test_run ();
}

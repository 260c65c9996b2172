/* viva-test-runner.c: a VivaRunner on the real worker (VIVA_WORKER) for
 * GTest fixtures: its stdout, stderr and plots collected as the console
 * shows them, a run waited for on the main loop, and the check that a run
 * went well that says why when it did not.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-run-result.h"
#include "viva-test-runner.h"
#include "viva-test-util.h"

static void
on_stdout (VivaRunner     *runner,
           const char     *text,
           VivaTestRunner *fixture)
{
  if (fixture->first_out_us == 0)
    fixture->first_out_us = g_get_monotonic_time ();
  g_string_append (fixture->out, text);
}

static void
on_stderr (VivaRunner     *runner,
           const char     *text,
           VivaTestRunner *fixture)
{
  g_string_append (fixture->err, text);
}

static void
on_image (VivaRunner     *runner,
          GBytes         *png,
          VivaTestRunner *fixture)
{
  g_ptr_array_add (fixture->images, g_bytes_ref (png));
}

void
viva_test_runner_setup (VivaTestRunner *fixture,
                        gconstpointer   data)
{
  fixture->runner = viva_runner_new ();
  fixture->out = g_string_new (NULL);
  fixture->err = g_string_new (NULL);
  fixture->images = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  fixture->first_out_us = 0;
  g_signal_connect (fixture->runner, "stdout", G_CALLBACK (on_stdout), fixture);
  g_signal_connect (fixture->runner, "stderr", G_CALLBACK (on_stderr), fixture);
  g_signal_connect (fixture->runner, "image", G_CALLBACK (on_image), fixture);
}

/* The runner must go with the fixture: a reference left behind fails. */
void
viva_test_runner_teardown (VivaTestRunner *fixture,
                           gconstpointer   data)
{
  g_signal_handlers_disconnect_by_data (fixture->runner, fixture);
  g_assert_finalize_object (fixture->runner);
  g_string_free (fixture->out, TRUE);
  g_string_free (fixture->err, TRUE);
  g_ptr_array_unref (fixture->images);
}

/**
 * viva_test_runner_run:
 * @timeout_ms: the run's time limit, 0 for the runner's own
 *
 * Runs @code and iterates the main loop until its result. The output of an
 * earlier run is cleared first; the images are kept (clear them yourself
 * where a case counts one run's).
 *
 * Returns: (transfer full): the result; asserts the run was not an error
 */
VivaRunResult *
viva_test_runner_run (VivaTestRunner *fixture,
                      const char     *code,
                      guint           timeout_ms)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  VivaRunResult *run_result;

  g_string_truncate (fixture->out, 0);
  g_string_truncate (fixture->err, 0);
  fixture->first_out_us = 0;
  viva_runner_run_async (fixture->runner, code, timeout_ms, NULL, viva_test_store_result, &result);
  viva_test_run_until_result (&result);
  run_result = viva_runner_run_finish (fixture->runner, result, &error);
  g_assert_no_error (error);
  g_assert_true (VIVA_IS_RUN_RESULT (run_result));
  return run_result;
}

/* Fails with the status, summary and traceback unless @result is ok. */
void
viva_test_assert_run_ok (VivaRunResult *result)
{
  if (viva_run_result_get_status (result) != VIVA_RUN_STATUS_OK)
    g_error ("expected ok, got %s: %s\n%s", viva_run_status_to_string (viva_run_result_get_status (result)),
             viva_run_result_get_summary (result), viva_run_result_get_traceback (result));
}

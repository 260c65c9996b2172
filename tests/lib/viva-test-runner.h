/* viva-test-runner.h: a VivaRunner on the real worker for GTest fixtures,
 * collecting what the console would show.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-runner.h"

G_BEGIN_DECLS

/* Use as a GTest fixture (g_test_add with viva_test_runner_setup and
 * viva_test_runner_teardown), or as the first member of a larger one. */
typedef struct
{
  VivaRunner *runner;
  GString    *out;           /* stdout of the last run, as it streamed */
  GString    *err;           /* stderr of the last run */
  GPtrArray  *images;        /* GBytes of PNG, from every run so far */
  gint64      first_out_us;  /* monotonic time of the last run's first stdout */
} VivaTestRunner;

void           viva_test_runner_setup     (VivaTestRunner *fixture,
                                           gconstpointer   data);
void           viva_test_runner_teardown  (VivaTestRunner *fixture,
                                           gconstpointer   data);
VivaRunResult *viva_test_runner_run       (VivaTestRunner *fixture,
                                           const char     *code,
                                           guint           timeout_ms);
void           viva_test_assert_run_ok    (VivaRunResult  *result);

G_END_DECLS

/* viva-run-result.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "viva-run-stack.h"

G_BEGIN_DECLS

/**
 * VivaRunStatus:
 * @VIVA_RUN_STATUS_OK: the code ran to the end (or called `sys.exit(0)`)
 * @VIVA_RUN_STATUS_ERROR: an exception ended it (a syntax error for a check)
 * @VIVA_RUN_STATUS_TIMEOUT: it ran past its time and was interrupted with
 *   `KeyboardInterrupt`; its variables are kept
 * @VIVA_RUN_STATUS_KILLED: it did not stop when interrupted, so the worker was
 *   killed and restarted; its variables are lost
 * @VIVA_RUN_STATUS_CRASHED: the worker died (a segfault, a signal); it is
 *   restarted and its variables are lost
 */
typedef enum
{
  VIVA_RUN_STATUS_OK,
  VIVA_RUN_STATUS_ERROR,
  VIVA_RUN_STATUS_TIMEOUT,
  VIVA_RUN_STATUS_KILLED,
  VIVA_RUN_STATUS_CRASHED,
} VivaRunStatus;

#define VIVA_TYPE_RUN_STATUS (viva_run_status_get_type ())
GType          viva_run_status_get_type         (void) G_GNUC_CONST;
const char    *viva_run_status_to_string        (VivaRunStatus  status);

#define VIVA_TYPE_RUN_RESULT (viva_run_result_get_type ())

G_DECLARE_FINAL_TYPE (VivaRunResult, viva_run_result, VIVA, RUN_RESULT, GObject)

VivaRunStatus  viva_run_result_get_status       (VivaRunResult *self);
double         viva_run_result_get_duration_ms  (VivaRunResult *self);
const char    *viva_run_result_get_error_type   (VivaRunResult *self);
const char    *viva_run_result_get_error_message (VivaRunResult *self);
int            viva_run_result_get_error_line   (VivaRunResult *self);
int            viva_run_result_get_error_column (VivaRunResult *self);
const char    *viva_run_result_get_traceback    (VivaRunResult *self);
const VivaRunFrame *viva_run_result_get_error_frame (VivaRunResult *self);
const char    *viva_run_result_get_summary      (VivaRunResult *self);
int            viva_run_result_get_signal       (VivaRunResult *self);
gboolean       viva_run_result_get_state_reset  (VivaRunResult *self);
gboolean       viva_run_result_get_output_truncated (VivaRunResult *self);
const char    *viva_run_result_get_stdout       (VivaRunResult *self);
const char    *viva_run_result_get_stderr       (VivaRunResult *self);
guint          viva_run_result_get_n_images     (VivaRunResult *self);
GBytes        *viva_run_result_get_image        (VivaRunResult *self,
                                                 guint          index);

G_END_DECLS

/* viva-run-result.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-run-result-private.h"

/* What one run, inject or check ended with. Immutable once the runner hands
 * it out, so it may be kept, compared and passed to tools freely. */

G_DEFINE_ENUM_TYPE (VivaRunStatus, viva_run_status,
  G_DEFINE_ENUM_VALUE (VIVA_RUN_STATUS_OK, "ok"),
  G_DEFINE_ENUM_VALUE (VIVA_RUN_STATUS_ERROR, "error"),
  G_DEFINE_ENUM_VALUE (VIVA_RUN_STATUS_TIMEOUT, "timeout"),
  G_DEFINE_ENUM_VALUE (VIVA_RUN_STATUS_KILLED, "killed"),
  G_DEFINE_ENUM_VALUE (VIVA_RUN_STATUS_CRASHED, "crashed"))

G_DEFINE_FINAL_TYPE (VivaRunResult, viva_run_result, G_TYPE_OBJECT)

/**
 * viva_run_status_to_string:
 *
 * Returns: the status as the CLI and the trace spell it: `ok`, `error`,
 *   `timeout`, `killed` or `crashed`.
 */
const char *
viva_run_status_to_string (VivaRunStatus status)
{
  switch (status)
    {
    case VIVA_RUN_STATUS_OK:      return "ok";
    case VIVA_RUN_STATUS_ERROR:   return "error";
    case VIVA_RUN_STATUS_TIMEOUT: return "timeout";
    case VIVA_RUN_STATUS_KILLED:  return "killed";
    case VIVA_RUN_STATUS_CRASHED: return "crashed";
    default:                      g_return_val_if_reached (NULL);
    }
}

static void
viva_run_result_finalize (GObject *object)
{
  VivaRunResult *self = (VivaRunResult *)object;

  g_clear_pointer (&self->error_type, g_free);
  g_clear_pointer (&self->error_message, g_free);
  g_clear_pointer (&self->traceback, g_free);
  g_clear_pointer (&self->summary, g_free);
  g_clear_pointer (&self->stdout_text, g_free);
  g_clear_pointer (&self->stderr_text, g_free);
  g_clear_pointer (&self->images, g_ptr_array_unref);

  G_OBJECT_CLASS (viva_run_result_parent_class)->finalize (object);
}

static void
viva_run_result_class_init (VivaRunResultClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = viva_run_result_finalize;
}

static void
viva_run_result_init (VivaRunResult *self)
{
  self->images = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  self->stdout_text = g_strdup ("");
  self->stderr_text = g_strdup ("");
}

VivaRunResult *
_viva_run_result_new (VivaRunStatus status)
{
  VivaRunResult *self = g_object_new (VIVA_TYPE_RUN_RESULT, NULL);

  self->status = status;
  return self;
}

VivaRunStatus
viva_run_result_get_status (VivaRunResult *self)
{
  g_return_val_if_fail (VIVA_IS_RUN_RESULT (self), VIVA_RUN_STATUS_ERROR);
  return self->status;
}

/**
 * viva_run_result_get_duration_ms:
 *
 * Returns: how long the code ran inside the worker, in milliseconds
 */
double
viva_run_result_get_duration_ms (VivaRunResult *self)
{
  g_return_val_if_fail (VIVA_IS_RUN_RESULT (self), 0);
  return self->duration_ms;
}

/**
 * viva_run_result_get_error_type:
 *
 * Returns: (nullable): the exception's class name, such as `ZeroDivisionError`
 */
const char *
viva_run_result_get_error_type (VivaRunResult *self)
{
  g_return_val_if_fail (VIVA_IS_RUN_RESULT (self), NULL);
  return self->error_type;
}

/**
 * viva_run_result_get_error_message:
 *
 * Returns: (nullable): the exception's message
 */
const char *
viva_run_result_get_error_message (VivaRunResult *self)
{
  g_return_val_if_fail (VIVA_IS_RUN_RESULT (self), NULL);
  return self->error_message;
}

/**
 * viva_run_result_get_error_line:
 *
 * Returns: the line of the student's code where the error happened (the
 *   innermost frame in their code), or 0 when it is not in their code
 */
int
viva_run_result_get_error_line (VivaRunResult *self)
{
  g_return_val_if_fail (VIVA_IS_RUN_RESULT (self), 0);
  return self->error_line;
}

/**
 * viva_run_result_get_error_column:
 *
 * Returns: the column (from 1) of a syntax error, or 0
 */
int
viva_run_result_get_error_column (VivaRunResult *self)
{
  g_return_val_if_fail (VIVA_IS_RUN_RESULT (self), 0);
  return self->error_column;
}

/**
 * viva_run_result_get_traceback:
 *
 * Returns: (nullable): the traceback, trimmed to the frames of the student's
 *   code (`<code>`) and of an injected test (`<test>`)
 */
const char *
viva_run_result_get_traceback (VivaRunResult *self)
{
  g_return_val_if_fail (VIVA_IS_RUN_RESULT (self), NULL);
  return self->traceback;
}

/**
 * viva_run_result_get_summary:
 *
 * Returns: (nullable): one translated sentence for the student saying what
 *   happened, or %NULL when the run was ok
 */
const char *
viva_run_result_get_summary (VivaRunResult *self)
{
  g_return_val_if_fail (VIVA_IS_RUN_RESULT (self), NULL);
  return self->summary;
}

/**
 * viva_run_result_get_signal:
 *
 * Returns: the signal that ended a crashed worker, or 0
 */
int
viva_run_result_get_signal (VivaRunResult *self)
{
  g_return_val_if_fail (VIVA_IS_RUN_RESULT (self), 0);
  return self->signal;
}

/**
 * viva_run_result_get_state_reset:
 *
 * Returns: %TRUE when the worker was restarted, so variables defined by
 *   earlier runs are gone
 */
gboolean
viva_run_result_get_state_reset (VivaRunResult *self)
{
  g_return_val_if_fail (VIVA_IS_RUN_RESULT (self), FALSE);
  return self->state_reset;
}

/**
 * viva_run_result_get_output_truncated:
 *
 * Returns: %TRUE when the run printed more than the runner's output limit
 *   and the rest was dropped
 */
gboolean
viva_run_result_get_output_truncated (VivaRunResult *self)
{
  g_return_val_if_fail (VIVA_IS_RUN_RESULT (self), FALSE);
  return self->output_truncated;
}

/**
 * viva_run_result_get_stdout:
 *
 * Returns: everything the run wrote to standard output (never %NULL)
 */
const char *
viva_run_result_get_stdout (VivaRunResult *self)
{
  g_return_val_if_fail (VIVA_IS_RUN_RESULT (self), NULL);
  return self->stdout_text;
}

/**
 * viva_run_result_get_stderr:
 *
 * Returns: everything the run wrote to standard error (never %NULL)
 */
const char *
viva_run_result_get_stderr (VivaRunResult *self)
{
  g_return_val_if_fail (VIVA_IS_RUN_RESULT (self), NULL);
  return self->stderr_text;
}

guint
viva_run_result_get_n_images (VivaRunResult *self)
{
  g_return_val_if_fail (VIVA_IS_RUN_RESULT (self), 0);
  return self->images->len;
}

/**
 * viva_run_result_get_image:
 *
 * Returns: (transfer none): the PNG data of the @index-th figure
 */
GBytes *
viva_run_result_get_image (VivaRunResult *self,
                           guint          index)
{
  g_return_val_if_fail (VIVA_IS_RUN_RESULT (self), NULL);
  g_return_val_if_fail (index < self->images->len, NULL);
  return g_ptr_array_index (self->images, index);
}

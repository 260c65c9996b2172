/* viva-run-result.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

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

/* Results the runner builds from the worker's frames */

/* turtle and tkinter need a screen, which code never has here: the
 * Flatpak runtime lacks tkinter, and elsewhere Tk finds no display. */
static gboolean
is_window_error (const char *type,
                 const char *message)
{
  if (message == NULL)
    return FALSE;
  if (g_str_equal (type, "ModuleNotFoundError") || g_str_equal (type, "ImportError"))
    return strstr (message, "tkinter") != NULL || strstr (message, "turtle") != NULL;
  return g_str_equal (type, "TclError") && strstr (message, "display") != NULL;
}

static char *
describe_error (VivaRunResult *result)
{
  const char *message = result->error_message && result->error_message[0] ? result->error_message : NULL;
  const char *type = result->error_type ? result->error_type : "Exception";

  if (is_window_error (type, message))
    {
      const char *why = _("turtle and tkinter are not available: they open windows of their own, and code runs here without a screen. Draw with matplotlib instead; plt.show() puts the figure in the console.");

      if (result->error_line > 0)
        /* Translators: %d is a line number, %s the explanation that follows it */
        return g_strdup_printf (_("Line %d: %s"), result->error_line, why);
      return g_strdup (why);
    }

  if (result->error_line > 0 && message != NULL)
    /* Translators: %d is a line number, then an exception type and message */
    return g_strdup_printf (_("Line %d: %s: %s"), result->error_line, type, message);
  if (result->error_line > 0)
    return g_strdup_printf (_("Line %d: %s"), result->error_line, type);
  if (message != NULL)
    return g_strdup_printf ("%s: %s", type, message);
  return g_strdup (type);
}

/* The one sentence for the student, from what the result holds: the same
 * words for a run of this PC's worker and for one read back from another
 * machine (viva-run-result-json.c), which never sends its own. */
void
_viva_run_result_describe (VivaRunResult *result,
                           guint          timeout_ms)
{
  g_clear_pointer (&result->summary, g_free);

  if (result->status == VIVA_RUN_STATUS_TIMEOUT)
    {
      g_autofree char *limit = g_strdup_printf ("%.1f", timeout_ms / 1000.0);

      if (result->error_line > 0)
        /* Translators: %s is a number of seconds, %d a line number */
        result->summary = g_strdup_printf (_("The code ran longer than %s s and was stopped at line %d. Variables are kept; look for a loop that never ends."),
                                           limit, result->error_line);
      else
        result->summary = g_strdup_printf (_("The code ran longer than %s s and was stopped. Variables are kept; look for a loop that never ends."),
                                           limit);
    }
  else if (result->status == VIVA_RUN_STATUS_ERROR)
    result->summary = describe_error (result);
  else if (result->status == VIVA_RUN_STATUS_KILLED)
    result->summary = g_strdup (_("The code did not stop when interrupted (it was probably busy inside a C library such as numpy), so Python was restarted. Variables from earlier runs are gone."));
  else if (result->status == VIVA_RUN_STATUS_CRASHED && result->signal > 0)
    /* Translators: %s is the name of a signal, such as “Segmentation fault” */
    result->summary = g_strdup_printf (_("Python crashed (%s), probably in a C library called by the code. It was restarted; variables from earlier runs are gone."),
                                       g_strsignal (result->signal));
  else if (result->status == VIVA_RUN_STATUS_CRASHED)
    result->summary = g_strdup (_("Python stopped unexpectedly. It was restarted; variables from earlier runs are gone."));
}

/* The result of a run from the worker's `result` frame. */
VivaRunResult *
_viva_run_result_new_from_event (JsonObject *event,
                                 guint       timeout_ms)
{
  const char *status = json_object_get_string_member_with_default (event, "status", "error");
  VivaRunResult *result;

  if (g_str_equal (status, "ok"))
    result = _viva_run_result_new (VIVA_RUN_STATUS_OK);
  else if (g_str_equal (status, "timeout"))
    result = _viva_run_result_new (VIVA_RUN_STATUS_TIMEOUT);
  else
    result = _viva_run_result_new (VIVA_RUN_STATUS_ERROR);

  result->duration_ms = json_object_get_double_member_with_default (event, "duration_ms", 0);
  result->error_type = g_strdup (json_object_get_string_member_with_default (event, "type", NULL));
  result->error_message = g_strdup (json_object_get_string_member_with_default (event, "message", NULL));
  result->traceback = g_strdup (json_object_get_string_member_with_default (event, "traceback", NULL));
  result->error_line = json_object_get_int_member_with_default (event, "line", 0);
  result->error_column = json_object_get_int_member_with_default (event, "column", 0);
  result->error_where = g_strdup (json_object_get_string_member_with_default (event, "where", NULL));
  if (json_object_has_member (event, "frame"))
    result->frame = viva_run_stack_parse (json_object_get_string_member (event, "frame"),
                                          result->error_line, 1);
  if (result->status == VIVA_RUN_STATUS_OK)
    result->value = g_strdup (json_object_get_string_member_with_default (event, "value", NULL));

  _viva_run_result_describe (result, timeout_ms);

  return result;
}

/* The result of a run whose worker died under it. */
VivaRunResult *
_viva_run_result_new_for_death (GSubprocess       *process,
                                VivaRunnerSandbox  sandbox,
                                gboolean           killed,
                                gint64             started_us)
{
  VivaRunResult *result;
  int signum = 0;

  if (g_subprocess_get_if_signaled (process))
    signum = g_subprocess_get_term_sig (process);
  else if (g_subprocess_get_if_exited (process) &&
           sandbox != VIVA_RUNNER_SANDBOX_NONE &&
           g_subprocess_get_exit_status (process) > 128)
    signum = g_subprocess_get_exit_status (process) - 128; /* the sandbox passes 128 + signal on */

  result = _viva_run_result_new (killed ? VIVA_RUN_STATUS_KILLED : VIVA_RUN_STATUS_CRASHED);
  if (!killed)
    result->signal = signum;
  _viva_run_result_describe (result, 0);

  result->state_reset = TRUE;
  result->duration_ms = (g_get_monotonic_time () - started_us) / 1000.0;
  return result;
}

static void
viva_run_result_finalize (GObject *object)
{
  VivaRunResult *self = (VivaRunResult *)object;

  g_clear_pointer (&self->error_type, g_free);
  g_clear_pointer (&self->error_message, g_free);
  g_clear_pointer (&self->traceback, g_free);
  g_clear_object (&self->frame);
  g_clear_pointer (&self->error_where, g_free);
  g_clear_pointer (&self->value, g_free);
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
 * viva_run_result_get_error_frame:
 *
 * The frame of the student's code where the exception happened, with its
 * local variables as the worker described them (names, types, short
 * values): the student's process wrote it, so it is that program's data.
 *
 * Returns: (transfer none) (nullable): the frame, or %NULL when there is
 *   none (no error, a syntax error, a crash)
 */
const VivaRunFrame *
viva_run_result_get_error_frame (VivaRunResult *self)
{
  g_return_val_if_fail (VIVA_IS_RUN_RESULT (self), NULL);
  return self->frame != NULL ? viva_run_stack_get_frame (self->frame, 0) : NULL;
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

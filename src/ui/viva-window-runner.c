/* viva-window-runner.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-duration.h"
#include "viva-stack-view.h"
#include "viva-window-private.h"

/* The Run/Stop button and the console: the window's side of VivaRunner.
 * Output is appended as the worker streams it; the result becomes the
 * console's status line and decides whether Submit is offered.
 *
 * Pause and Resume beside Run, for a program that runs: paused, the
 * editor highlights the line it is on and the console shows the stack,
 * each frame with its variables (VivaStackView); Resume goes on, Stop
 * (the Run button) stops it as ever. The runner's side is
 * viva_runner_pause(). */

#define STUDENT_RUN_TIMEOUT_MS 30000

static void
viva_window_pause_update (VivaWindow *self)
{
  gboolean paused = self->runner != NULL && viva_runner_get_paused (self->runner);

  gtk_widget_set_visible (GTK_WIDGET (self->pause_button), self->running);
  adw_button_content_set_label (self->pause_button_content, paused ? _("Res_ume") : _("_Pause"));
  adw_button_content_set_icon_name (self->pause_button_content,
                                    paused ? "media-playback-start-symbolic" : "media-playback-pause-symbolic");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->pause_button),
                               paused ? _("Let your code go on from where it stopped (F6)")
                                      : _("Pause your code and see the line it is on and its variables (F6)"));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "runner.pause", self->running);
}

static void
runner_paused_cb (VivaWindow   *self,
                  VivaRunStack *stack,
                  VivaRunner   *runner)
{
  g_autofree char *status = NULL;

  if (!self->running)
    return;

  viva_editor_mark_line (self->editor, viva_run_stack_get_line (stack));
  viva_console_append_widget (self->console, viva_stack_view_new (stack));
  if (viva_run_stack_get_line (stack) > 0)
    status = g_strdup_printf (_("Paused on line %d"), viva_run_stack_get_line (stack));
  else
    status = g_strdup (_("Paused"));
  viva_console_set_status (self->console, status);
}

static void
runner_notify_paused_cb (VivaWindow *self,
                         GParamSpec *pspec,
                         VivaRunner *runner)
{
  if (!viva_runner_get_paused (runner))
    viva_editor_mark_line (self->editor, 0);
  viva_window_pause_update (self);
}

static void
viva_window_pause_action (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *param)
{
  VivaWindow *self = VIVA_WINDOW (widget);

  if (!self->running || self->runner == NULL)
    return;

  if (viva_runner_get_paused (self->runner))
    {
      if (viva_runner_resume (self->runner))
        viva_console_set_status (self->console, _("Running…"));
    }
  else if (viva_runner_pause (self->runner))
    viva_console_set_status (self->console, _("Pausing…"));
}

static void
viva_window_set_running (VivaWindow *self,
                         gboolean    running)
{
  self->running = !!running;

  adw_button_content_set_label (self->run_button_content, running ? _("_Stop") : _("_Run"));
  adw_button_content_set_icon_name (self->run_button_content,
                                    running ? "media-playback-stop-symbolic" : "media-playback-start-symbolic");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->run_button),
                               running ? _("Stop your code (Ctrl+Enter)") : _("Run your code (Ctrl+Enter)"));
  viva_console_set_busy (self->console, running);
  if (!running)
    viva_editor_mark_line (self->editor, 0);
  viva_window_pause_update (self);
  _viva_window_update_actions (self);
}

static void
runner_stdout_cb (VivaWindow *self,
                  const char *text,
                  VivaRunner *runner)
{
  if (self->running)
    viva_console_append (self->console, VIVA_CONSOLE_STDOUT, text);
}

static void
runner_stderr_cb (VivaWindow *self,
                  const char *text,
                  VivaRunner *runner)
{
  if (self->running)
    viva_console_append (self->console, VIVA_CONSOLE_STDERR, text);
}

static void
runner_image_cb (VivaWindow *self,
                 GBytes     *png,
                 VivaRunner *runner)
{
  if (self->running)
    viva_console_append_image (self->console, png);
}

static void
viva_window_show_result (VivaWindow    *self,
                         VivaRunResult *result)
{
  g_autofree char *duration = viva_duration_format (viva_run_result_get_duration_ms (result));
  g_autofree char *status = NULL;

  switch (viva_run_result_get_status (result))
    {
    case VIVA_RUN_STATUS_OK:
      status = g_strdup_printf (_("Finished in %s"), duration);
      break;

    case VIVA_RUN_STATUS_ERROR:
      {
        const char *type = viva_run_result_get_error_type (result);
        const char *message = viva_run_result_get_error_message (result);
        const char *traceback = viva_run_result_get_traceback (result);
        int line = viva_run_result_get_error_line (result);
        g_autofree char *text = NULL;

        if (traceback != NULL && traceback[0] != '\0')
          viva_console_append (self->console, VIVA_CONSOLE_STDERR, traceback);

        if (line > 0)
          text = g_strdup_printf (_("%s on line %d: %s — click to go there\n"), type, line, message ? message : "");
        else
          text = g_strdup_printf (_("%s: %s\n"), type, message ? message : "");
        viva_console_append_error_at (self->console, text, line > 0 ? line : 0);
        _viva_window_code_failed (self, result);

        status = g_strdup_printf (_("Stopped by an error after %s"), duration);
      }
      break;

    case VIVA_RUN_STATUS_TIMEOUT:
      viva_console_append (self->console, VIVA_CONSOLE_NOTICE,
                           _("\nYour code ran too long and was interrupted — look for a loop that never ends. Your variables are kept.\n"));
      status = g_strdup_printf (_("Interrupted after %s"), duration);
      break;

    case VIVA_RUN_STATUS_KILLED:
      viva_console_append (self->console, VIVA_CONSOLE_NOTICE,
                           _("\nYour code did not stop when interrupted, so Python was restarted. Run your code again to define your functions anew.\n"));
      status = g_strdup_printf (_("Stopped after %s; Python was restarted"), duration);
      break;

    case VIVA_RUN_STATUS_CRASHED:
      viva_console_append (self->console, VIVA_CONSOLE_NOTICE,
                           _("\nPython crashed while running your code (this happens with ctypes or a broken C extension) and was restarted. Run your code again.\n"));
      status = g_strdup_printf (_("Python crashed after %s"), duration);
      break;

    default:
      g_assert_not_reached ();
    }

  /* The runner's note sits where the output was cut, far up in a long
   * output; the status line stays in view. */
  if (viva_run_result_get_output_truncated (result))
    {
      g_autofree char *cut = g_strdup_printf (_("%s — the output was cut short; its end is not shown"), status);

      g_free (status);
      status = g_steal_pointer (&cut);
    }

  viva_console_set_status (self->console, status);
  viva_console_follow_end (self->console);
}

static void
run_cb (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  g_autoptr(VivaWindow) self = user_data;
  g_autoptr(VivaRunResult) run_result = NULL;
  g_autoptr(GError) error = NULL;

  run_result = viva_runner_run_finish (VIVA_RUNNER (object), result, &error);

  /* The window is closing: its widgets are gone. */
  if (self->cancellable == NULL || g_cancellable_is_cancelled (self->cancellable))
    return;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      /* The student pressed Stop: not an error of theirs. */
      viva_console_append (self->console, VIVA_CONSOLE_NOTICE,
                           _("\nStopped. Variables defined before the stop are kept.\n"));
      viva_console_set_status (self->console, _("Stopped"));
    }
  else if (run_result == NULL)
    {
      g_autofree char *text = g_strdup_printf ("%s\n", error->message);
      viva_console_append (self->console, VIVA_CONSOLE_ERROR, text);
      viva_console_set_status (self->console, _("Your code could not be run"));
    }
  else
    {
      viva_window_show_result (self, run_result);
      if (viva_run_result_get_status (run_result) == VIVA_RUN_STATUS_OK && self->problem != NULL)
        {
          self->ran_ok = TRUE;
          if (viva_status_store_get_status (self->status, viva_pack_get_id (self->pack),
                                            viva_problem_get_id (self->problem)) == VIVA_PROBLEM_STATUS_NOT_STARTED)
            viva_status_store_mark_runs (self->status, viva_pack_get_id (self->pack),
                                         viva_problem_get_id (self->problem));
        }
    }

  viva_window_set_running (self, FALSE);
}

static void
sandbox_message_cb (VivaWindow *self,
                    GParamSpec *pspec,
                    VivaRunner *runner)
{
  const char *message = viva_runner_get_sandbox_message (runner);

  /* A banner for as long as code runs without a sandbox, so nobody
   * believes it is sandboxed when it is not; and once in the console. */
  if (message != NULL)
    gtk_label_set_label (self->sandbox_label, message);
  gtk_revealer_set_reveal_child (self->sandbox_revealer, message != NULL);

  if (message != NULL && !self->sandbox_noted)
    {
      g_autofree char *text = g_strdup_printf ("%s\n", message);
      self->sandbox_noted = TRUE;
      viva_console_append (self->console, VIVA_CONSOLE_NOTICE, text);
    }
}

/* An error's line in the console takes the editor there. */
static void
line_activated_cb (VivaWindow  *self,
                   guint        line,
                   VivaConsole *console)
{
  viva_editor_jump_to_line (self->editor, line);
}

void
_viva_window_init_runner (VivaWindow *self)
{
  g_assert (VIVA_IS_WINDOW (self));
  g_assert (self->runner == NULL);

  /* Its worker starts on first use, or after the first frame
   * (_viva_window_warm_runner()). */
  self->runner = viva_runner_new ();
  g_signal_connect_object (self->runner, "stdout", G_CALLBACK (runner_stdout_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->runner, "stderr", G_CALLBACK (runner_stderr_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->runner, "image", G_CALLBACK (runner_image_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->runner, "notify::sandbox-message", G_CALLBACK (sandbox_message_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->runner, "paused", G_CALLBACK (runner_paused_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->runner, "notify::paused", G_CALLBACK (runner_notify_paused_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->console, "line-activated",
                           G_CALLBACK (line_activated_cb), self, G_CONNECT_SWAPPED);
}

static void
start_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(VivaWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!viva_runner_start_finish (VIVA_RUNNER (object), result, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_debug ("runner: warm start failed: %s", error->message);
      return;
    }

  sandbox_message_cb (self, NULL, VIVA_RUNNER (object));
}

/**
 * _viva_window_warm_runner:
 *
 * Starts the worker while the student reads the problem, so the first Run
 * answers at once.
 */
void
_viva_window_warm_runner (VivaWindow *self)
{
  g_assert (VIVA_IS_WINDOW (self));

  viva_runner_start_async (self->runner, self->cancellable,
                           start_cb, g_object_ref (self));
}

void
_viva_window_run_action (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *param)
{
  VivaWindow *self = VIVA_WINDOW (widget);
  g_autofree char *code = NULL;

  /* Ctrl+Enter in the examiner's answer box sends the answer. */
  if (viva_examiner_panel_claim_ctrl_enter (self->examiner_panel))
    return;

  if (self->running)
    {
      viva_runner_stop (self->runner);
      return;
    }

  code = viva_editor_dup_text (self->editor);
  _viva_window_code_run (self, code);

  viva_console_clear (self->console);
  viva_console_set_status (self->console, _("Running…"));
  viva_window_set_running (self, TRUE);
  self->ran_ok = FALSE;

  viva_runner_run_async (self->runner, code, STUDENT_RUN_TIMEOUT_MS,
                         self->cancellable, run_cb, g_object_ref (self));
}

void
_viva_window_class_init_runner (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_child (widget_class, VivaWindow, run_button);
  gtk_widget_class_bind_template_child (widget_class, VivaWindow, run_button_content);
  gtk_widget_class_bind_template_child (widget_class, VivaWindow, pause_button);
  gtk_widget_class_bind_template_child (widget_class, VivaWindow, pause_button_content);
  gtk_widget_class_bind_template_child (widget_class, VivaWindow, sandbox_revealer);
  gtk_widget_class_bind_template_child (widget_class, VivaWindow, sandbox_label);
  gtk_widget_class_install_action (widget_class, "runner.pause", NULL, viva_window_pause_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F6, 0, "runner.pause", NULL);
}

/* viva-window-pause.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-stack-view.h"
#include "viva-window-private.h"

/* Pause and Resume beside Run, for a program that runs: paused, the
 * editor highlights the line it is on and the console shows the stack,
 * each frame with its variables (VivaStackView); Resume goes on, Stop
 * (the Run button) stops it as ever. The runner's side is
 * viva_runner_pause(). */

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

/* viva-window-runner.c: the runner was made, or a run began or ended. */
void
_viva_window_pause_connect (VivaWindow *self,
                            VivaRunner *runner)
{
  g_signal_connect_object (runner, "paused", G_CALLBACK (runner_paused_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (runner, "notify::paused", G_CALLBACK (runner_notify_paused_cb), self, G_CONNECT_SWAPPED);
}

void
_viva_window_pause_set_running (VivaWindow *self,
                                gboolean    running)
{
  if (!running)
    viva_editor_mark_line (self->editor, 0);
  viva_window_pause_update (self);
}

void
_viva_window_class_init_pause (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "runner.pause", NULL, viva_window_pause_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F6, 0, "runner.pause", NULL);
}

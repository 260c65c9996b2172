/* viva-window-reasons.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-window-private.h"

/* Disabled controls say why. After every recomputation of the window's
 * actions, each button of the header bar that is greyed out gets the
 * reason as its tooltip and its accessible description (what a screen
 * reader says of it); enabled again, it gets its usual tooltip back. The
 * main file gathers what the satellites know (VivaWindowWhy), so this
 * file reads the window's state and nothing else. */

static void
explain (GtkWidget  *button,
         const char *reason,
         const char *usual)
{
  const char *tooltip = reason ? reason : usual;

  if (tooltip != NULL && g_strcmp0 (gtk_widget_get_tooltip_text (button), tooltip) != 0)
    gtk_widget_set_tooltip_text (button, tooltip);

  if (reason != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, reason, -1);
  else if (usual != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, usual, -1);
  else
    gtk_accessible_reset_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
}

/* Why code cannot be run or graded now, if it cannot, whatever the
 * button; the most telling reason first. */
static const char *
common_reason (VivaWindow          *self,
               const VivaWindowWhy *why)
{
  if (why->time_up)
    return _("The exam’s time is up: your work was handed in");
  if (self->problem == NULL)
    return _("Open a problem first (Problems, F9)");
  if (!self->code_loaded)
    return _("Your code is still loading");
  if (why->defending)
    return _("A defense is under way: the examiner is using your Python until it ends");
  return NULL;
}

/**
 * _viva_window_update_reasons:
 * @why: what the satellites know
 *
 * Gives every greyed-out button of the header bar its reason. Called
 * last by _viva_window_update_actions().
 */
void
_viva_window_update_reasons (VivaWindow          *self,
                             const VivaWindowWhy *why)
{
  GtkWidget *run = GTK_WIDGET (self->run_button);
  GtkWidget *check = GTK_WIDGET (self->check_button);
  GtkWidget *submit = GTK_WIDGET (self->submit_button);
  GtkWidget *hint = GTK_WIDGET (self->hint_button);
  const char *common = common_reason (self, why);
  const char *reason;

  g_assert (VIVA_IS_WINDOW (self));

  reason = NULL;
  if (!gtk_widget_get_sensitive (run))
    reason = common ? common : self->checking ? _("Wait for Check to finish") : _("Run is not available now");
  explain (run, reason, self->running ? _("Stop your code (Ctrl+Enter)") : _("Run your code (Ctrl+Enter)"));

  reason = NULL;
  if (!gtk_widget_get_sensitive (check))
    {
      if (why->check_forbidden)
        reason = _("This exam does not allow Check");
      else if (why->remote)
        reason = _("This exam runs on its server, which grades your code only when you submit it");
      else if (common != NULL)
        reason = common;
      else if (self->problem != NULL && viva_problem_get_n_shown_tests (self->problem) == 0)
        reason = _("This problem has no shown tests to check against");
      else if (self->running)
        reason = _("Wait for your code to finish, or stop it");
      else if (self->checking)
        reason = _("Checking your code…");
      else
        reason = _("Check is not available now");
    }
  explain (check, reason, _("Check your code against the problem’s shown tests (Ctrl+T)"));

  reason = NULL;
  if (!gtk_widget_get_sensitive (submit))
    {
      if (common != NULL)
        reason = common;
      else if (self->running)
        reason = _("Wait for your code to finish, or stop it");
      else if (self->checking)
        reason = _("Wait for Check to finish");
      else if (!self->ran_ok)
        reason = _("Run your code without errors first");
      else
        reason = _("Submit is not available now");
    }
  explain (submit, reason, _("Defend your solution before the examiner (Ctrl+Shift+Enter)"));

  /* The hint button keeps the tooltip its own code gives it while it can
   * be used (it says what a hint costs). */
  if (!gtk_widget_get_sensitive (hint))
    explain (hint, why->hints_forbidden ? _("This exam does not allow hints") : _("The hint is not available now"), NULL);
  else
    gtk_accessible_reset_property (GTK_ACCESSIBLE (hint), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
}

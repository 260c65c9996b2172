/* viva-window-check.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-problem-grade.h"
#include "viva-window-private.h"

/* Check: the open problem's shown tests run on the editor's code through
 * the grader (fresh workers, never the editor's Python), each listed in
 * the console with pass or fail and its message. A Check goes on the
 * timeline, and in an exam it is a grading the exam may forbid or limit
 * (the main file asks the sitting). */

typedef struct
{
  VivaWindow  *self;
  VivaProblem *problem;
  char        *code;
} CheckData;

static void
check_data_free (CheckData *data)
{
  g_object_unref (data->self);
  g_object_unref (data->problem);
  g_free (data->code);
  g_free (data);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CheckData, check_data_free)

static void
show_report (VivaWindow      *self,
             VivaGradeReport *report)
{
  guint n = viva_grade_report_get_n_tests (report);
  guint passed = viva_grade_report_get_n_passed (report);
  g_autofree char *status = NULL;

  for (guint i = 0; i < n; i++)
    {
      const VivaGradeTest *test = viva_grade_report_get_test (report, i);
      g_autofree char *line = NULL;

      if (test->passed)
        /* Translators: a shown test that passed; %s is its name */
        line = g_strdup_printf (_("✓ %s\n"), test->name);
      else
        /* Translators: a shown test that failed: its name, then why */
        line = g_strdup_printf (_("✗ %s — %s\n"), test->name, test->message);
      viva_console_append (self->console, test->passed ? VIVA_CONSOLE_NOTICE : VIVA_CONSOLE_ERROR, line);
    }

  if (passed == n)
    status = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "The shown test passed", "All %u shown tests passed", n), n);
  else
    /* Translators: how many of the problem's shown tests passed */
    status = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u of %u shown test passed", "%u of %u shown tests passed", n),
                              passed, n);
  viva_console_set_status (self->console, status);
  viva_console_follow_end (self->console);
}

static void
check_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(CheckData) data = user_data;
  VivaWindow *self = data->self;
  g_autoptr(VivaGradeReport) report = NULL;
  g_autoptr(GError) error = NULL;

  report = viva_problem_grade_finish (VIVA_PROBLEM (object), result, &error);

  /* The window is closing, or the student opened another problem. */
  if (self->cancellable == NULL || g_cancellable_is_cancelled (self->cancellable) ||
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self->checking = FALSE;
  viva_console_set_busy (self->console, FALSE);
  if (data->problem == self->problem)
    {
      if (report == NULL)
        {
          g_autofree char *text = g_strdup_printf (_("Your code could not be checked: %s\n"), error->message);

          viva_console_append (self->console, VIVA_CONSOLE_ERROR, text);
          viva_console_set_status (self->console, _("Not checked"));
        }
      else
        {
          show_report (self, report);
          viva_timeline_recorder_check (self->timeline, data->code, viva_grade_report_get_n_passed (report),
                                        viva_grade_report_get_n_tests (report));
        }
    }
  _viva_window_update_actions (self);
}

static void
check_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *param)
{
  VivaWindow *self = VIVA_WINDOW (widget);
  g_autoptr(GError) error = NULL;
  CheckData *data;

  if (self->problem == NULL || !self->code_loaded || self->checking || self->running)
    return;

  viva_console_clear (self->console);
  if (!_viva_window_request_grading (self, TRUE, &error))
    {
      g_autofree char *text = g_strdup_printf ("%s\n", error->message);

      viva_console_append (self->console, VIVA_CONSOLE_NOTICE, text);
      viva_console_set_status (self->console, _("Not checked"));
      return;
    }

  data = g_new0 (CheckData, 1);
  data->self = g_object_ref (self);
  data->problem = g_object_ref (self->problem);
  data->code = viva_editor_dup_text (self->editor);

  g_cancellable_cancel (self->check_cancellable);
  g_clear_object (&self->check_cancellable);
  self->check_cancellable = g_cancellable_new ();

  viva_console_set_status (self->console, _("Checking against the shown tests…"));
  viva_console_set_busy (self->console, TRUE);
  self->checking = TRUE;
  _viva_window_update_actions (self);

  viva_problem_check_async (self->problem, data->code, self->check_cancellable, check_cb, data);
}

/**
 * _viva_window_check_stop:
 *
 * Drops a Check under way: the problem changed or the window closes.
 */
void
_viva_window_check_stop (VivaWindow *self)
{
  g_assert (VIVA_IS_WINDOW (self));

  g_cancellable_cancel (self->check_cancellable);
  g_clear_object (&self->check_cancellable);
  if (self->checking)
    {
      self->checking = FALSE;
      viva_console_set_busy (self->console, FALSE);
    }
}

void
_viva_window_class_init_check (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_child (widget_class, VivaWindow, check_button);
  gtk_widget_class_install_action (widget_class, "runner.check", NULL, check_action);
}

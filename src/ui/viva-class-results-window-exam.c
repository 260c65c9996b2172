/* viva-class-results-window-exam.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-class-results-window-private.h"

/* The teacher's own copy of the exam file, in Class Results. A report's
 * record of what a hint cost was written in the student's account; with
 * the exam file chosen here, its cost is the one every score uses, and a
 * report that recorded another is flagged (VivaClassResults does both). */

static void
exam_loaded_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(VivaClassResultsWindow) self = user_data;
  g_autoptr(VivaExamFile) exam = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *message = NULL;
  g_autofree char *label = NULL;
  GtkWidget *content;

  if (!(exam = viva_exam_file_load_finish (result, NULL, &error)))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          message = g_strdup_printf (_("The exam file cannot be used: %s"), error->message);
          _viva_class_results_window_toast (self, message);
        }
      return;
    }

  viva_class_results_set_exam (self->results, exam);
  _viva_class_results_window_refresh (self);

  label = g_strdup_printf (_("Exam: %s"), viva_exam_file_get_title (exam));
  content = gtk_button_get_child (GTK_BUTTON (self->exam_button));
  if (ADW_IS_BUTTON_CONTENT (content))
    adw_button_content_set_label (ADW_BUTTON_CONTENT (content), label);

  if (viva_exam_file_get_hint_cost (exam) > 0)
    message = g_strdup_printf (_("Scores of “%s” take %g points off for each hint viewed."),
                               viva_exam_file_get_title (exam), viva_exam_file_get_hint_cost (exam));
  else
    message = g_strdup_printf (_("Hints cost nothing in “%s”: scores are the examiner’s."),
                               viva_exam_file_get_title (exam));
  _viva_class_results_window_toast (self, message);
}

static void
exam_response_cb (VivaClassResultsWindow *self,
                  int                     response,
                  GtkFileChooserNative   *chooser)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = file ? g_file_get_path (file) : NULL;

      if (path != NULL)
        viva_exam_file_load_async (path, self->cancellable, exam_loaded_cb, g_object_ref (self));
    }

  g_object_unref (chooser);
}

static void
open_exam_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  VivaClassResultsWindow *self = VIVA_CLASS_RESULTS_WINDOW (widget);
  GtkFileChooserNative *chooser;

  chooser = gtk_file_chooser_native_new (_("Choose Your Copy of the Exam File"), GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
  if (self->folder != NULL)
    {
      g_autoptr(GFile) folder = g_file_new_for_path (self->folder);
      gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (chooser), folder, NULL);
    }
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect_object (chooser, "response", G_CALLBACK (exam_response_cb), self, G_CONNECT_SWAPPED);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

void
_viva_class_results_window_exam_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "class.open-exam", NULL, open_exam_action);
}

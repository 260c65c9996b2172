/* viva-class-results-window-export.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-class-results-window-private.h"
#include "viva-file-writer.h"

/* The Export menu of Class Results: the class CSV, the gradebook CSV and
 * the class HTML page (VivaClassResults writes them), saved through the
 * file writer. The HTML page reads every report again to make its page,
 * so it is made in a thread. */


typedef struct
{
  VivaClassResultsWindow *self;
  char                   *name;
} Export;

static void
save_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Export *export = user_data;
  g_autoptr(VivaClassResultsWindow) self = export->self;
  g_autofree char *name = export->name;
  g_autoptr(GError) error = NULL;
  g_autofree char *message = NULL;

  g_free (export);

  if (!viva_file_writer_write_finish (result, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      message = g_strdup_printf (_("“%s” could not be saved: %s. Choose another folder."), name, error->message);
    }
  else
    message = g_strdup_printf (_("Saved “%s”"), name);

  _viva_class_results_window_toast (self, message);
}

static void
write_export (VivaClassResultsWindow *self,
              GFile                  *file,
              char                   *text)
{
  g_autoptr(GBytes) bytes = g_bytes_new_take (text, strlen (text));
  Export *export = g_new0 (Export, 1);

  export->self = g_object_ref (self);
  export->name = g_file_get_basename (file);
  viva_file_writer_write_async (file, bytes, 0666, VIVA_FILE_WRITER_NONE, self->cancellable, save_cb, export);
}

static void
html_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GFile) file = user_data;
  VivaClassResultsWindow *self = g_object_get_data (G_OBJECT (file), "viva-window");
  g_autoptr(GError) error = NULL;
  char *text = viva_class_results_to_html_finish (VIVA_CLASS_RESULTS (object), result, &error);

  if (text == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        _viva_class_results_window_toast (self, error->message);
      return;
    }

  write_export (self, file, text);
}

static void
export_response_cb (VivaClassResultsWindow *self,
                    int                     response,
                    GtkFileChooserNative   *chooser)
{
  const char *kind = g_object_get_data (G_OBJECT (chooser), "viva-export");

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));

      if (g_str_equal (kind, "csv"))
        write_export (self, file, viva_class_results_to_csv (self->results));
      else if (g_str_equal (kind, "gradebook"))
        write_export (self, file, viva_class_results_to_gradebook_csv (self->results));
      else
        {
          /* Each report's page is read again and made from its JSON: in
           * a thread. The window outlives the task (dispose cancels it,
           * and the results hold the task's source). */
          g_object_set_data_full (G_OBJECT (file), "viva-window", g_object_ref (self), g_object_unref);
          viva_class_results_to_html_async (self->results, self->cancellable, html_cb, g_steal_pointer (&file));
        }
    }

  g_object_unref (chooser);
}

static void
export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  VivaClassResultsWindow *self = VIVA_CLASS_RESULTS_WINDOW (widget);
  const char *kind = g_str_equal (action_name, "class.export-csv") ? "csv" :
                     g_str_equal (action_name, "class.export-gradebook") ? "gradebook" : "html";
  GtkFileChooserNative *chooser;

  chooser = gtk_file_chooser_native_new (_("Export Class Results"), GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"), _("_Cancel"));
  g_object_set_data (G_OBJECT (chooser), "viva-export", (gpointer)kind);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser),
                                     g_str_equal (kind, "csv") ? "class-results.csv" :
                                     g_str_equal (kind, "gradebook") ? "gradebook.csv" : "class-results.html");
  if (self->folder != NULL)
    {
      g_autoptr(GFile) folder = g_file_new_for_path (self->folder);
      gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (chooser), folder, NULL);
    }
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect_object (chooser, "response", G_CALLBACK (export_response_cb), self, G_CONNECT_SWAPPED);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

void
_viva_class_results_window_export_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "class.export-csv", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "class.export-gradebook", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "class.export-html", NULL, export_action);
}

/* viva-exam-errors-dialog.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "viva-exam-errors-dialog.h"
#include "viva-exam-file.h"
#include "viva-pack-issue.h"

/* An exam file that cannot start, as the teacher who fixes it reads it:
 * every error at once (the loader checks everything in one pass), one a
 * line, its JSON path in monospace, and Copy Errors for the message to
 * the teacher or the editor. */

#define COPY_RESPONSE "copy"

static void
response_cb (AdwMessageDialog *dialog,
             const char       *response,
             gpointer          user_data)
{
  const char *text = g_object_get_data (G_OBJECT (dialog), "viva-errors");

  if (g_strcmp0 (response, COPY_RESPONSE) == 0 && text != NULL)
    gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (dialog)), text);
}

static GtkWidget *
issue_row (const VivaPackIssue *issue)
{
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *path = gtk_label_new (issue->path[0] != '\0' ? issue->path : _("the file"));
  GtkWidget *message = gtk_label_new (issue->message);

  gtk_widget_add_css_class (path, "monospace");
  gtk_label_set_xalign (GTK_LABEL (path), 0);
  gtk_label_set_selectable (GTK_LABEL (path), TRUE);
  gtk_label_set_xalign (GTK_LABEL (message), 0);
  gtk_label_set_wrap (GTK_LABEL (message), TRUE);
  gtk_label_set_selectable (GTK_LABEL (message), TRUE);
  gtk_widget_set_margin_top (row, 6);
  gtk_widget_set_margin_bottom (row, 6);
  gtk_box_append (GTK_BOX (row), path);
  gtk_box_append (GTK_BOX (row), message);

  return row;
}

/**
 * viva_exam_errors_dialog_present:
 * @issues: (nullable) (element-type VivaPackIssue): every error, each with
 *   its JSON path; %NULL when the file could not be read at all
 * @error: the load's error, whose first line sums the issues up
 */
void
viva_exam_errors_dialog_present (GtkWindow  *parent,
                                 const char *heading,
                                 GPtrArray  *issues,
                                 GError     *error)
{
  AdwMessageDialog *dialog;
  g_autofree char *summary = NULL;
  const char *newline;

  g_return_if_fail (error != NULL);

  /* The error's first line says which file and how many errors; the lines
   * after it are the issues, shown below one by one. */
  newline = strchr (error->message, '\n');
  summary = issues != NULL && issues->len > 0 && newline != NULL
    ? g_strndup (error->message, newline - error->message)
    : g_strdup (error->message);

  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (parent, heading, summary));
  adw_message_dialog_add_response (dialog, "close", _("_Close"));
  adw_message_dialog_set_close_response (dialog, "close");

  if (issues != NULL && issues->len > 0)
    {
      GtkWidget *scroller = gtk_scrolled_window_new ();
      GtkWidget *list = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

      for (guint i = 0; i < issues->len; i++)
        {
          if (i > 0)
            gtk_box_append (GTK_BOX (list), gtk_separator_new (GTK_ORIENTATION_HORIZONTAL));
          gtk_box_append (GTK_BOX (list), issue_row (g_ptr_array_index (issues, i)));
        }

      gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
      gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scroller), TRUE);
      gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scroller), 360);
      gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), list);
      gtk_widget_set_size_request (scroller, 480, -1);
      adw_message_dialog_set_extra_child (dialog, scroller);

      adw_message_dialog_add_response (dialog, COPY_RESPONSE, _("_Copy Errors"));
      g_object_set_data_full (G_OBJECT (dialog), "viva-errors",
                              viva_exam_file_describe_issues (issues), g_free);
      g_signal_connect (dialog, "response", G_CALLBACK (response_cb), NULL);
    }

  gtk_window_present (GTK_WINDOW (dialog));
}

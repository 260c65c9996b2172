/* viva-figure-window.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-figure-window.h"
#include "viva-file-writer.h"

/* A figure from the student's code at full size, over the main window,
 * with Save As: the console shows it shrunk to fit its pane. The PNG is
 * saved exactly as the worker made it. */

struct _VivaFigureWindow
{
  AdwWindow             parent_instance;
  GtkPicture           *picture;
  GBytes               *png;
  GtkFileChooserNative *chooser;
};

G_DEFINE_FINAL_TYPE (VivaFigureWindow, viva_figure_window, ADW_TYPE_WINDOW)

static void
saved_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(VivaFigureWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!viva_file_writer_write_finish (result, &error))
    {
      g_autofree char *title = g_strdup_printf (_("The figure was not saved: %s"), error->message);
      GtkWidget *dialog = adw_message_dialog_new (GTK_WINDOW (self), title,
                                                  _("Choose another folder, or check there is space on the disk."));

      adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "close", _("_Close"));
      gtk_window_present (GTK_WINDOW (dialog));
    }
}

static void
chooser_response_cb (VivaFigureWindow *self,
                     int               response,
                     GtkNativeDialog  *chooser)
{
  g_autoptr(GFile) file = NULL;

  if (response == GTK_RESPONSE_ACCEPT &&
      (file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser))) != NULL)
    viva_file_writer_write_async (file, self->png, 0666, VIVA_FILE_WRITER_NONE, NULL, saved_cb, g_object_ref (self));

  g_clear_object (&self->chooser);
}

static void
save_as_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *param)
{
  VivaFigureWindow *self = VIVA_FIGURE_WINDOW (widget);

  if (self->chooser != NULL)
    return;

  self->chooser = gtk_file_chooser_native_new (_("Save the Figure"), GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"), NULL);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->chooser), _("figure.png"));
  g_signal_connect_object (self->chooser, "response", G_CALLBACK (chooser_response_cb), self, G_CONNECT_SWAPPED);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
viva_figure_window_dispose (GObject *object)
{
  VivaFigureWindow *self = (VivaFigureWindow *)object;

  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  gtk_widget_dispose_template (GTK_WIDGET (self), VIVA_TYPE_FIGURE_WINDOW);

  G_OBJECT_CLASS (viva_figure_window_parent_class)->dispose (object);
}

static void
viva_figure_window_finalize (GObject *object)
{
  VivaFigureWindow *self = (VivaFigureWindow *)object;

  g_clear_pointer (&self->png, g_bytes_unref);

  G_OBJECT_CLASS (viva_figure_window_parent_class)->finalize (object);
}

static void
viva_figure_window_class_init (VivaFigureWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = viva_figure_window_dispose;
  object_class->finalize = viva_figure_window_finalize;

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/viva-figure-window.ui");
  gtk_widget_class_bind_template_child (widget_class, VivaFigureWindow, picture);
  gtk_widget_class_install_action (widget_class, "figure.save-as", NULL, save_as_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK, "figure.save-as", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
viva_figure_window_init (VivaFigureWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * viva_figure_window_new:
 * @png: the figure, as the worker sent it
 * @parent: (nullable): the window it opens over
 *
 * Returns: (transfer full): a window showing @png at its own size, or as
 *   much of it as the screen allows
 */
GtkWidget *
viva_figure_window_new (GBytes    *png,
                        GtkWindow *parent)
{
  g_autoptr(GdkTexture) texture = NULL;
  VivaFigureWindow *self;

  g_return_val_if_fail (png != NULL, NULL);

  self = g_object_new (VIVA_TYPE_FIGURE_WINDOW, "transient-for", parent, NULL);
  self->png = g_bytes_ref (png);
  if ((texture = gdk_texture_new_from_bytes (png, NULL)) != NULL)
    {
      gtk_picture_set_paintable (self->picture, GDK_PAINTABLE (texture));
      gtk_window_set_default_size (GTK_WINDOW (self),
                                   MIN (gdk_texture_get_width (texture), 1200),
                                   MIN (gdk_texture_get_height (texture) + 48, 900));
    }

  return GTK_WIDGET (self);
}

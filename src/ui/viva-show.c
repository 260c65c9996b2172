/* viva-show.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-show.h"

/* A report's page, an exported file, a link in the examiner's text: each
 * is handed to the desktop's default application, over the window the
 * student or teacher is looking at. GtkFileLauncher and GtkUriLauncher
 * are GTK 4.10 and our floor is 4.8, so this is gtk_show_uri(), which
 * goes through the OpenURI portal inside Flatpak all the same; moving to
 * the launchers is this file's change alone. */

/**
 * viva_show_uri:
 * @widget: a widget of the window the application opens over
 * @uri: (nullable): the URI; nothing happens for %NULL
 */
void
viva_show_uri (GtkWidget  *widget,
               const char *uri)
{
  GtkRoot *root;

  g_return_if_fail (GTK_IS_WIDGET (widget));

  if (uri == NULL)
    return;

  root = gtk_widget_get_root (widget);
  gtk_show_uri (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, uri, GDK_CURRENT_TIME);
}

/**
 * viva_show_file:
 * @widget: a widget of the window the application opens over
 * @file: the file
 */
void
viva_show_file (GtkWidget *widget,
                GFile     *file)
{
  g_autofree char *uri = NULL;

  g_return_if_fail (G_IS_FILE (file));

  uri = g_file_get_uri (file);
  viva_show_uri (widget, uri);
}

/**
 * viva_show_path:
 * @widget: a widget of the window the application opens over
 * @path: a file's path in the file system's encoding
 */
void
viva_show_path (GtkWidget  *widget,
                const char *path)
{
  g_autoptr(GFile) file = NULL;

  g_return_if_fail (path != NULL);

  file = g_file_new_for_path (path);
  viva_show_file (widget, file);
}

/* viva-show.h: the one way the app shows a file or a link
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void viva_show_uri  (GtkWidget  *widget,
                     const char *uri);
void viva_show_file (GtkWidget  *widget,
                     GFile      *file);
void viva_show_path (GtkWidget  *widget,
                     const char *path);

G_END_DECLS

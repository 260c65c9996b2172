/* viva-code-zoom.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void viva_code_zoom_install (GtkApplication *app);

G_END_DECLS

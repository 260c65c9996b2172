/* viva-figure-window.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define VIVA_TYPE_FIGURE_WINDOW (viva_figure_window_get_type())

G_DECLARE_FINAL_TYPE (VivaFigureWindow, viva_figure_window, VIVA, FIGURE_WINDOW, AdwWindow)

GtkWidget *viva_figure_window_new (GBytes    *png,
                                   GtkWindow *parent);

G_END_DECLS

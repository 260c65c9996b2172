/* viva-class-results-window.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define VIVA_TYPE_CLASS_RESULTS_WINDOW (viva_class_results_window_get_type ())

G_DECLARE_FINAL_TYPE (VivaClassResultsWindow, viva_class_results_window, VIVA, CLASS_RESULTS_WINDOW, AdwApplicationWindow)

VivaClassResultsWindow *viva_class_results_window_new         (GtkApplication         *application);
void                    viva_class_results_window_open_folder (VivaClassResultsWindow *self,
                                                               const char             *folder);
gboolean                viva_class_results_window_connect     (VivaClassResultsWindow *self,
                                                               const char             *link,
                                                               const char             *teacher_token,
                                                               GError                **error);

G_END_DECLS

/* viva-history-window.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define VIVA_TYPE_HISTORY_WINDOW (viva_history_window_get_type())

G_DECLARE_FINAL_TYPE (VivaHistoryWindow, viva_history_window, VIVA, HISTORY_WINDOW, AdwWindow)

VivaHistoryWindow *viva_history_window_new (GtkWindow  *parent,
                                            const char *sessions_dir,
                                            const char *pack_id,
                                            const char *problem_id,
                                            const char *problem_title);

G_END_DECLS

/* viva-preferences-window.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define VIVA_TYPE_PREFERENCES_WINDOW (viva_preferences_window_get_type())

G_DECLARE_FINAL_TYPE (VivaPreferencesWindow, viva_preferences_window, VIVA, PREFERENCES_WINDOW, AdwPreferencesWindow)

VivaPreferencesWindow *viva_preferences_window_new (void);

G_END_DECLS

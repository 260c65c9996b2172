/* viva-window.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "viva-application.h"
#include "viva-pack.h"

G_BEGIN_DECLS

#define VIVA_TYPE_WINDOW (viva_window_get_type())

G_DECLARE_FINAL_TYPE (VivaWindow, viva_window, VIVA, WINDOW, AdwApplicationWindow)

VivaWindow  *viva_window_new             (VivaApplication *application);
void         viva_window_open_exam       (VivaWindow      *self,
                                          const char      *path);
void         viva_window_join_exam       (VivaWindow      *self,
                                          const char      *link);
void         viva_window_open_problem    (VivaWindow      *self,
                                          VivaPack        *pack,
                                          VivaProblem     *problem);
VivaProblem *viva_window_get_problem     (VivaWindow      *self);

G_END_DECLS

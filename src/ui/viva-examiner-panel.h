/* viva-examiner-panel.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define VIVA_TYPE_EXAMINER_PANEL (viva_examiner_panel_get_type())

G_DECLARE_FINAL_TYPE (VivaExaminerPanel, viva_examiner_panel, VIVA, EXAMINER_PANEL, GtkWidget)

G_END_DECLS

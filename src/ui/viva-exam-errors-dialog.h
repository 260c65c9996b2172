/* viva-exam-errors-dialog.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void viva_exam_errors_dialog_present (GtkWindow  *parent,
                                      const char *heading,
                                      GPtrArray  *issues,
                                      GError     *error);

G_END_DECLS

/* viva-identity-dialog.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define VIVA_TYPE_IDENTITY_DIALOG (viva_identity_dialog_get_type())

G_DECLARE_FINAL_TYPE (VivaIdentityDialog, viva_identity_dialog, VIVA, IDENTITY_DIALOG, AdwMessageDialog)

VivaIdentityDialog *viva_identity_dialog_new            (GtkWindow          *parent,
                                                         const char         *exam_title,
                                                         guint               time_limit,
                                                         gboolean            can_cancel);
char               *viva_identity_dialog_dup_name       (VivaIdentityDialog *self);
char               *viva_identity_dialog_dup_student_id (VivaIdentityDialog *self);

G_END_DECLS

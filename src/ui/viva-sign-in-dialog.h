/* viva-sign-in-dialog.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define VIVA_TYPE_SIGN_IN_DIALOG (viva_sign_in_dialog_get_type())

G_DECLARE_FINAL_TYPE (VivaSignInDialog, viva_sign_in_dialog, VIVA, SIGN_IN_DIALOG, AdwWindow)

VivaSignInDialog *viva_sign_in_dialog_new            (GtkWindow        *parent,
                                                      const char       *link,
                                                      gboolean          can_cancel);
char             *viva_sign_in_dialog_dup_link       (VivaSignInDialog *self);
char             *viva_sign_in_dialog_dup_student_id (VivaSignInDialog *self);
char             *viva_sign_in_dialog_dup_code       (VivaSignInDialog *self);
void              viva_sign_in_dialog_set_busy       (VivaSignInDialog *self,
                                                      gboolean          busy);
void              viva_sign_in_dialog_set_error      (VivaSignInDialog *self,
                                                      const char       *message);

G_END_DECLS

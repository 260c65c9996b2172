/* viva-exam-sign-in.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "viva-remote-kept.h"
#include "viva-remote.h"

G_BEGIN_DECLS

#define VIVA_TYPE_EXAM_SIGN_IN (viva_exam_sign_in_get_type ())

G_DECLARE_FINAL_TYPE (VivaExamSignIn, viva_exam_sign_in, VIVA, EXAM_SIGN_IN, GObject)

VivaExamSignIn *viva_exam_sign_in_new (void);
void            viva_exam_sign_in_ask (VivaExamSignIn *self,
                                       GtkWindow      *parent,
                                       const char     *link);

G_END_DECLS

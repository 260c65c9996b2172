/* viva-stack-view.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "viva-run-stack.h"

G_BEGIN_DECLS

#define VIVA_TYPE_STACK_VIEW (viva_stack_view_get_type())

G_DECLARE_FINAL_TYPE (VivaStackView, viva_stack_view, VIVA, STACK_VIEW, GtkWidget)

GtkWidget *viva_stack_view_new (VivaRunStack *stack);

G_END_DECLS

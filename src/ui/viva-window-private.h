/* viva-window-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-code-store.h"
#include "viva-console.h"
#include "viva-editor.h"
#include "viva-examiner-panel.h"
#include "viva-window.h"

G_BEGIN_DECLS

struct _VivaWindow
{
  AdwApplicationWindow  parent_instance;

  /* Template widgets */
  AdwToastOverlay      *toast_overlay;
  AdwWindowTitle       *window_title;
  GtkButton            *run_button;
  AdwButtonContent     *run_button_content;
  GtkButton            *submit_button;
  GtkRevealer          *banner_revealer;
  GtkLabel             *banner_label;
  GtkPaned             *examiner_paned;
  GtkPaned             *problem_paned;
  GtkPaned             *console_paned;
  GtkTextView          *problem_view;
  VivaEditor           *editor;
  VivaConsole          *console;
  VivaExaminerPanel    *examiner_panel;

  /* State */
  VivaCodeStore        *code_store;
  VivaPack             *pack;
  VivaProblem          *problem;
  GCancellable         *cancellable;   /* cancelled in dispose */
  GCancellable         *load_cancellable;
  gulong                changed_handler;
  guint                 code_loaded : 1;
  guint                 closing : 1;
  guint                 close_ready : 1;
  guint                 ran_ok : 1;
};

void _viva_window_update_actions (VivaWindow *self);

G_END_DECLS

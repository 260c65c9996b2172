/* viva-class-results-window-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-class-results-window.h"
#include "viva-class-results.h"
#include "viva-pack-library.h"

G_BEGIN_DECLS

/* The window's parts, shared by viva-class-results-window.c (the table,
 * collecting, re-grading), -exam.c (the teacher's exam file), -review.c
 * (the review queue, the teacher's scores, calibration) and -export.c
 * (the Export menu); -server.c an exam on an exam server. */

typedef struct _VivaClassResultsServer VivaClassResultsServer;

struct _VivaClassResultsWindow
{
  AdwApplicationWindow  parent_instance;

  AdwWindowTitle       *window_title;
  AdwToastOverlay      *toast_overlay;
  GtkStack             *stack;
  GtkRevealer          *progress_revealer;
  GtkLabel             *progress_label;
  GtkProgressBar       *progress_bar;
  GtkColumnView        *column_view;
  GtkSearchEntry       *search_entry;
  GtkCheckButton       *flagged_check;
  GtkLabel             *summary_label;
  GtkListBox           *stats_list;
  GtkWidget            *exam_button;
  GtkWidget            *regrade_button;
  GtkListBox           *review_list;
  GtkLabel             *review_summary_label;
  GtkListBox           *calibration_list;
  AdwViewStack         *view_stack;

  VivaClassResults     *results;
  VivaPackLibrary      *library;
  VivaTeacherScores    *teacher_scores;
  GtkCustomFilter      *filter;
  GtkSingleSelection   *selection;
  GCancellable         *cancellable;
  GCancellable         *regrade_cancellable;
  char                 *folder;
  gboolean              packs_added;
  VivaClassResultsServer *server;      /* -server.c: an exam on a server */
};

void _viva_class_results_window_toast          (VivaClassResultsWindow *self,
                                                const char             *message);
void _viva_class_results_window_refresh        (VivaClassResultsWindow *self);

/* viva-class-results-window-exam.c */
void _viva_class_results_window_exam_class_init (GtkWidgetClass        *widget_class);

/* viva-class-results-window-review.c */
void _viva_class_results_window_review_init    (VivaClassResultsWindow *self);
void _viva_class_results_window_rebuild_review (VivaClassResultsWindow *self);
/* viva-class-results-window-server.c */
void _viva_class_results_window_server_class_init (GtkWidgetClass      *widget_class);
void _viva_class_results_window_server_dispose (VivaClassResultsWindow *self);
void     _viva_class_results_window_server_regrade   (VivaClassResultsWindow *self);
gboolean _viva_class_results_window_server_regrading (VivaClassResultsWindow *self);

/* viva-class-results-window-export.c */
void _viva_class_results_window_export_class_init (GtkWidgetClass      *widget_class);

G_END_DECLS

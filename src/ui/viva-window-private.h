/* viva-window-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-code-store.h"
#include "viva-console.h"
#include "viva-editor.h"
#include "viva-exam-endpoint.h"
#include "viva-exam-file.h"
#include "viva-exam-sitting.h"
#include "viva-examiner.h"
#include "viva-examiner-panel.h"
#include "viva-pack-library.h"
#include "viva-problems-popover.h"
#include "viva-status-store.h"
#include "viva-runner.h"
#include "viva-timeline-recorder.h"
#include "viva-window.h"

G_BEGIN_DECLS

typedef struct _VivaWindowExam VivaWindowExam;
typedef struct _VivaWindowExamMode VivaWindowExamMode;
typedef struct _VivaWindowHandIn VivaWindowHandIn;
typedef struct _VivaWindowRemote VivaWindowRemote;
typedef struct _VivaWindowExplain VivaWindowExplain;

struct _VivaWindow
{
  AdwApplicationWindow  parent_instance;

  /* Template widgets */
  AdwToastOverlay      *toast_overlay;
  AdwHeaderBar         *header_bar;
  AdwWindowTitle       *window_title;
  GtkMenuButton        *problems_button;
  VivaProblemsPopover  *problems_popover;
  GtkButton            *run_button;
  AdwButtonContent     *run_button_content;
  GtkButton            *check_button;
  GtkButton            *pause_button;
  AdwButtonContent     *pause_button_content;
  GtkButton            *explain_button;
  GtkButton            *submit_button;
  GtkRevealer          *banner_revealer;
  GtkLabel             *banner_label;
  GtkRevealer          *sandbox_revealer;
  GtkLabel             *sandbox_label;
  GtkRevealer          *resume_revealer;
  GtkLabel             *resume_label;
  GtkButton            *resume_continue;
  GtkPaned             *examiner_paned;
  GtkPaned             *problem_paned;
  GtkPaned             *console_paned;
  GtkWidget            *problem_box;
  GtkToggleButton      *problem_toggle;
  GtkToggleButton      *examiner_toggle;
  GtkTextView          *problem_view;
  GtkRevealer          *hint_revealer;
  GtkLabel             *hint_label;
  GtkToggleButton      *hint_button;
  AdwButtonContent     *hint_button_content;
  VivaEditor           *editor;
  VivaConsole          *console;
  VivaExaminerPanel    *examiner_panel;

  /* State */
  VivaCodeStore        *code_store;
  VivaPackLibrary      *library;
  VivaStatusStore      *status;
  GHashTable           *hints_used;    /* "pack/problem" */
  GCancellable         *resume_cancellable;
  char                 *resume_id;     /* the unfinished defense offered */
  VivaRunner           *runner;        /* made by viva-window-runner.c */

  /* Shared by the satellites, each made and dropped by the one named. */
  VivaExamEndpoint     *endpoint;      /* viva-window-exam.c */
  VivaExaminer         *examiner;      /* the defense shown: viva-window-exam.c */
  VivaExamSitting      *sitting;       /* the exam sat from a file, once begun: viva-window-exam-mode.c */
  VivaWindowExam       *exam;          /* viva-window-exam.c */
  VivaTimelineRecorder *timeline;
  VivaWindowExamMode   *exam_mode;     /* viva-window-exam-mode.c */
  VivaWindowHandIn     *hand_in;       /* viva-window-exam-hand-in.c */
  VivaWindowRemote     *remote;        /* viva-window-remote.c */
  VivaWindowExplain    *explain;       /* viva-window-explain.c */
  VivaPack             *pack;
  VivaProblem          *problem;
  GCancellable         *cancellable;   /* cancelled in dispose */
  GCancellable         *load_cancellable;
  GCancellable         *check_cancellable;  /* viva-window-check.c */
  gulong                changed_handler;
  guint                 code_loaded : 1;
  guint                 closing : 1;
  guint                 close_ready : 1;
  guint                 ran_ok : 1;
  guint                 running : 1;
  guint                 checking : 1;
  guint                 hint_visible : 1;
  guint                 hint_cost_accepted : 1;
  guint                 sandbox_noted : 1;
  guint                 submit_pending : 1;  /* a Submit waits for its model's check */

  /* viva-window-layout.c */
  guint                 layout_source;
  int                   layout_width;
  guint                 layout_busy : 1;
  guint                 examiner_visible : 1;
  guint                 problem_visible : 1;   /* the student's choice */
  guint                 problem_folded : 1;    /* the window is too narrow for it */
  guint                 problem_unfolded : 1;  /* shown anyway while folded */
};

/* What the satellites know of why a control is greyed out, gathered by
 * the main file for viva-window-reasons.c. */
typedef struct
{
  gboolean defending;        /* a defense is under way */
  gboolean time_up;          /* the exam's time is up */
  gboolean check_forbidden;  /* the exam does not allow Check */
  gboolean hints_forbidden;  /* the exam does not allow hints */
  gboolean remote;           /* the exam runs on a server */
} VivaWindowWhy;

void        _viva_window_update_actions (VivaWindow *self);
void        _viva_window_update_reasons (VivaWindow          *self,
                                         const VivaWindowWhy *why);
void        _viva_window_class_init_check (GtkWidgetClass *widget_class);
void        _viva_window_check_stop     (VivaWindow *self);
gboolean    _viva_window_request_grading (VivaWindow  *self,
                                          gboolean     check,
                                          GError     **error);
void        _viva_window_class_init_exam (GtkWidgetClass *widget_class);
void        _viva_window_init_exam      (VivaWindow *self);
void        _viva_window_dispose_exam   (VivaWindow *self);
void        _viva_window_update_exam_actions (VivaWindow *self);
void        _viva_window_exam_problem_opened (VivaWindow *self);
gboolean    _viva_window_defense_busy   (VivaWindow *self);
void        _viva_window_exam_resume    (VivaWindow      *self,
                                         VivaExamSession *session);
void        _viva_window_resume_problem_opened (VivaWindow *self);
void        _viva_window_class_init_resume (GtkWidgetClass *widget_class);
void        _viva_window_init_layout    (VivaWindow *self);
void        _viva_window_save_layout    (VivaWindow *self);
void        _viva_window_dispose_layout (VivaWindow *self);
void        _viva_window_layout_allocated (VivaWindow *self);
void        _viva_window_set_examiner_visible (VivaWindow *self,
                                               gboolean    visible);
void        _viva_window_set_problem_visible (VivaWindow *self,
                                              gboolean    visible);
gboolean    _viva_window_get_problem_visible (VivaWindow *self);
void        _viva_window_show_banner    (VivaWindow *self,
                                         const char *message);
void        _viva_window_init_problems  (VivaWindow *self);
void        _viva_window_class_init_problems (GtkWidgetClass *widget_class);
void        _viva_window_set_hint_visible (VivaWindow *self,
                                           gboolean    visible);
gboolean    _viva_window_hint_used      (VivaWindow *self);
void        _viva_window_update_hint_button (VivaWindow *self);
void        _viva_window_exam_submit_now (VivaWindow *self);
void        _viva_window_open_problem_with_code (VivaWindow  *self,
                                                 VivaPack    *pack,
                                                 VivaProblem *problem,
                                                 const char  *code);

/* viva-window-explain.c */
void        _viva_window_class_init_explain (GtkWidgetClass *widget_class);
void        _viva_window_init_explain   (VivaWindow *self);
void        _viva_window_dispose_explain (VivaWindow *self);
void        _viva_window_update_explain_actions (VivaWindow *self);
void        _viva_window_explain_offer_error (VivaWindow    *self,
                                              const char    *code,
                                              VivaRunResult *result);
void        _viva_window_explain_forget (VivaWindow *self);

void        _viva_window_replace_code   (VivaWindow *self,
                                         const char *text);

void        _viva_window_init_exam_mode (VivaWindow *self);
void        _viva_window_dispose_exam_mode (VivaWindow *self);
void        _viva_window_update_exam_mode_actions (VivaWindow *self);
void        _viva_window_exam_mode_update_title (VivaWindow *self);

void        _viva_window_init_hand_in   (VivaWindow *self);
void        _viva_window_dispose_hand_in (VivaWindow *self);
void        _viva_window_update_hand_in_actions (VivaWindow *self);
void        _viva_window_hand_in_code_seen (VivaWindow *self,
                                            const char *code,
                                            gboolean    worked);
void        _viva_window_hand_in_code_run (VivaWindow *self,
                                           const char *code);
void        _viva_window_hand_in_exam_began (VivaWindow *self);
void        _viva_window_hand_in_problem_shown (VivaWindow *self);
void        _viva_window_hand_in_time_up (VivaWindow *self);
void        _viva_window_hand_in_defense_ended (VivaWindow   *self,
                                                VivaExaminer *examiner,
                                                gboolean      reported);
gboolean    _viva_window_hand_in_is_active (VivaWindow *self);
char       *_viva_window_hand_in_dup_state (VivaWindow *self);
gboolean    _viva_window_hand_in_hold_close (VivaWindow *self);

void        _viva_window_code_run       (VivaWindow *self,
                                         const char *code);
gboolean    _viva_window_submit_on_server (VivaWindow *self);
gboolean    _viva_window_exam_under_way (VivaWindow *self);

void        _viva_window_init_remote    (VivaWindow *self);
void        _viva_window_dispose_remote (VivaWindow *self);
void        _viva_window_update_remote_actions (VivaWindow *self);
gboolean    _viva_window_remote_is_active (VivaWindow *self);
void        _viva_window_remote_code_changed (VivaWindow *self);
void        _viva_window_remote_code_run (VivaWindow *self);
void        _viva_window_remote_submit  (VivaWindow *self);
gboolean    _viva_window_remote_take_event (VivaWindow *self,
                                            JsonObject *event);
double      _viva_window_hint_cost      (VivaWindow *self);
gboolean    _viva_window_remote_defending (VivaWindow *self);
double      _viva_window_remote_hint_cost (VivaWindow *self);
void        _viva_window_remote_problem_opened (VivaWindow *self);
void        _viva_window_remote_flush_async (VivaWindow          *self,
                                             GAsyncReadyCallback  callback,
                                             gpointer             user_data);
gboolean    _viva_window_remote_flush_finish (VivaWindow    *self,
                                              GAsyncResult  *result,
                                              GError       **error);

void        _viva_window_class_init_runner (GtkWidgetClass *widget_class);
void        _viva_window_init_runner    (VivaWindow *self);
void        _viva_window_warm_runner    (VivaWindow *self);
void        _viva_window_run_action     (GtkWidget  *widget,
                                         const char *action_name,
                                         GVariant   *param);

/* The main file tells the satellites what happened, so they need not call
 * each other. */
void        _viva_window_code_failed    (VivaWindow    *self,
                                         VivaRunResult *result);
void        _viva_window_defense_ended  (VivaWindow   *self,
                                         VivaExaminer *examiner,
                                         gboolean      reported);
void        _viva_window_submit_now     (VivaWindow *self);
void        _viva_window_resume_defense (VivaWindow      *self,
                                         VivaExamSession *session);
void        _viva_window_exam_began     (VivaWindow *self);
void        _viva_window_exam_time_up   (VivaWindow *self);
char       *_viva_window_dup_exam_state (VivaWindow *self);
gboolean    _viva_window_handing_in     (VivaWindow *self);

G_END_DECLS

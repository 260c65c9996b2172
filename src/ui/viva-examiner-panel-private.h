/* viva-examiner-panel-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-examiner-panel.h"
#include "viva-message-row.h"

G_BEGIN_DECLS

/* The panel's parts share its instance: the conversation
 * (viva-examiner-panel-transcript.c), the state line and banners (-state.c)
 * and the answer box (-answer.c). */

#define STARTED_KEY "viva-started-us"

struct _VivaExaminerPanel
{
  GtkWidget       parent_instance;

  /* Template widgets */
  GtkRevealer    *error_revealer;
  GtkLabel       *error_label;
  GtkButton      *retry_button;
  GtkRevealer    *state_revealer;
  GtkSpinner     *state_spinner;
  GtkImage       *state_icon;
  GtkLabel       *state_label;
  GtkButton      *stop_button;
  GtkStack       *stack;
  GtkRevealer    *setup_revealer;
  GtkLabel       *setup_label;
  GtkWidget      *ollama_label;
  GtkWidget      *commands_label;
  VivaChatView   *chat_view;
  GtkRevealer    *answer_revealer;
  GtkRevealer    *question_revealer;
  GtkLabel       *question_label;
  GtkTextView    *answer_view;
  GtkButton      *send_button;
  GtkLabel       *hint_label;

  /* State */
  VivaDefenseView *defense;      /* the examiner here, or the exam server's */
  GSignalGroup   *signals;       /* its events */
  GSignalGroup   *notify_signals; /* its properties' notifications */
  VivaMessageRow *current;       /* the examiner message streaming now */
  GHashTable     *cards;         /* step id → VivaToolCard, owned by the view */
  char           *running_tool;
  char           *asked;         /* the follow-up question in flight */
  GCancellable   *cancellable;   /* follow-up questions */
  guint           asking : 1;
  guint           ask_streamed : 1;  /* the follow-up's answer came as deltas */
  guint           no_followup : 1;   /* an exam forbids questions after the verdict */
  guint           model_loading : 1;
  guint           busy_tick;     /* redraws "waiting (N s)" each second */
  guint           could_send : 1;
  guint           restoring_draft : 1;
  guint           draft_save;    /* a pending save of the answer's draft */
};

/* The defense shown, whichever runs it (viva-examiner-panel.c) */
gboolean           _viva_examiner_panel_has_defense  (VivaExaminerPanel *self);
VivaExaminerState  _viva_examiner_panel_get_state    (VivaExaminerPanel *self);
const char        *_viva_examiner_panel_get_error    (VivaExaminerPanel *self);
const char        *_viva_examiner_panel_get_question (VivaExaminerPanel *self);
VivaExamVerdict   *_viva_examiner_panel_get_verdict  (VivaExaminerPanel *self);
VivaExaminer      *_viva_examiner_panel_get_local    (VivaExaminerPanel *self);
gboolean           _viva_examiner_panel_answer       (VivaExaminerPanel *self,
                                                      const char        *text,
                                                      GError           **error);
void               _viva_examiner_panel_connect      (VivaExaminerPanel *self,
                                                      const char        *signal,
                                                      GCallback          callback);

/* The conversation (viva-examiner-panel-transcript.c) */
void            _viva_examiner_panel_init_transcript (VivaExaminerPanel *self);
void            _viva_examiner_panel_show_chat       (VivaExaminerPanel *self);
VivaMessageRow *_viva_examiner_panel_add_row         (VivaExaminerPanel *self,
                                                      VivaMessageKind    kind,
                                                      const char        *text);
void            _viva_examiner_panel_end_message     (VivaExaminerPanel *self);
VivaMessageRow *_viva_examiner_panel_ensure_message  (VivaExaminerPanel *self);

/* The state line and banners (viva-examiner-panel-state.c) */
void            _viva_examiner_panel_init_state      (VivaExaminerPanel *self);
void            _viva_examiner_panel_update          (VivaExaminerPanel *self);

/* The answer box (viva-examiner-panel-answer.c) */
void            _viva_examiner_panel_class_init_answer (GtkWidgetClass  *widget_class);
void            _viva_examiner_panel_init_answer     (VivaExaminerPanel *self);
void            _viva_examiner_panel_restore_draft   (VivaExaminerPanel *self);
void            _viva_examiner_panel_drop_draft_save (VivaExaminerPanel *self);
gboolean        _viva_examiner_panel_can_send        (VivaExaminerPanel *self);

G_END_DECLS

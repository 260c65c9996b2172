/* viva-examiner-panel.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "viva-chat-view.h"
#include "viva-defense-view.h"

G_BEGIN_DECLS

#define VIVA_TYPE_EXAMINER_PANEL (viva_examiner_panel_get_type())

G_DECLARE_FINAL_TYPE (VivaExaminerPanel, viva_examiner_panel, VIVA, EXAMINER_PANEL, GtkWidget)

VivaDefenseView *viva_examiner_panel_get_defense   (VivaExaminerPanel *self);
void          viva_examiner_panel_set_defense       (VivaExaminerPanel *self,
                                                     VivaDefenseView   *defense);
void          viva_examiner_panel_clear             (VivaExaminerPanel *self);
gboolean      viva_examiner_panel_get_model_loading (VivaExaminerPanel *self);
void          viva_examiner_panel_set_model_loading (VivaExaminerPanel *self,
                                                     gboolean           model_loading);
void          viva_examiner_panel_show_error        (VivaExaminerPanel *self,
                                                     const char        *message);
void          viva_examiner_panel_add_note          (VivaExaminerPanel *self,
                                                     const char        *text);
char         *viva_examiner_panel_dup_answer        (VivaExaminerPanel *self);
gboolean      viva_examiner_panel_claim_ctrl_enter  (VivaExaminerPanel *self);
gboolean      viva_examiner_panel_focus_answer      (VivaExaminerPanel *self);
void          viva_examiner_panel_set_unreachable   (VivaExaminerPanel *self,
                                                     const char        *base_url);
VivaChatView *viva_examiner_panel_get_chat_view     (VivaExaminerPanel *self);
void          viva_examiner_panel_replay            (VivaExaminerPanel *self,
                                                     JsonArray         *transcript);

void          viva_examiner_panel_set_followup_allowed (VivaExaminerPanel *self,
                                                        gboolean           allowed);
gboolean      viva_examiner_panel_send_answer_now   (VivaExaminerPanel *self,
                                                     const char        *fallback);

G_END_DECLS

/* viva-pack-editor-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtksourceview/gtksource.h>

#include "viva-draft-store.h"
#include "viva-editor.h"
#include "viva-openai-model.h"
#include "viva-pack-checker.h"
#include "viva-pack-editor.h"
#include "viva-problem-generator.h"

G_BEGIN_DECLS

struct _VivaPackEditor
{
  AdwApplicationWindow  parent_instance;

  /* Template children */
  AdwToastOverlay      *toast_overlay;
  AdwWindowTitle       *window_title;
  GtkPopover           *open_popover;
  GtkListBox           *open_list;
  AdwEntryRow          *pack_title_row;
  AdwEntryRow          *pack_author_row;
  GtkListBox           *problems_list;
  GtkListBox           *drafts_list;
  GtkStack             *main_stack;
  AdwStatusPage        *empty_page;
  GtkStack             *problem_stack;
  AdwEntryRow          *title_row;
  GtkStackSwitcher     *problem_switcher;
  AdwEntryRow          *id_row;
  AdwComboRow          *type_row;
  GtkSpinButton        *time_spin;
  GtkTextView          *hint_view;
  GtkTextView          *rubric_view;
  GtkSourceView        *description_view;
  GtkTextView          *preview_view;
  VivaEditor           *starter_editor;
  VivaEditor           *reference_editor;
  GtkBox               *tests_box;
  GtkBox               *questions_box;
  GtkLabel             *validation_summary;
  GtkListBox           *results_list;
  AdwEntryRow          *topic_row;
  AdwComboRow          *draft_type_row;
  AdwEntryRow          *difficulty_row;
  AdwEntryRow          *language_row;
  GtkBox               *progress_box;
  GtkSpinner           *progress_spinner;
  GtkLabel             *progress_label;
  GtkListBox           *progress_list;
  GtkImage             *draft_icon;
  GtkLabel             *draft_title;
  GtkLabel             *draft_subtitle;
  GtkListBox           *draft_checks_list;
  GtkTextView          *draft_preview;

  /* State */
  VivaPackLibrary      *library;
  VivaPack             *pack;
  GFile                *file;          /* where Save writes; NULL until first saved */
  VivaProblem          *problem;       /* the one shown; owned by the pack */
  VivaDraftStore       *drafts;
  VivaProblemDraft     *draft;         /* the one shown */
  VivaRunner           *runner;
  VivaPackChecker      *checker;
  VivaOpenAIModel      *model;
  VivaProblemGenerator *generator;
  GCancellable         *cancellable;   /* cancelled in dispose */
  GCancellable         *draft_cancellable;
  GHashTable           *issues;        /* VivaProblem → GPtrArray of VivaPackIssue */
  GHashTable           *checks;        /* VivaProblem → GPtrArray of VivaPackCheck */
  guint                 preview_source;
  guint                 loading : 1;
  guint                 dirty : 1;
  guint                 validating : 1;
  guint                 closing : 1;
  guint                 id_follows : 1;   /* the id is made from the title until edited */
  guint                 setting_id : 1;
};

void _viva_pack_editor_set_dirty        (VivaPackEditor *self,
                                         gboolean        dirty);
void _viva_pack_editor_update_actions   (VivaPackEditor *self);
void _viva_pack_editor_rebuild_list     (VivaPackEditor *self);
void _viva_pack_editor_select_problem   (VivaPackEditor *self,
                                         VivaProblem    *problem);
void _viva_pack_editor_toast            (VivaPackEditor *self,
                                         const char     *message);
VivaProblem *_viva_pack_editor_copy_problem (VivaProblem *problem,
                                             const char  *id,
                                             const char  *title);
char *_viva_pack_editor_unique_id       (VivaPackEditor *self,
                                         const char     *base);

void _viva_pack_editor_update_title     (VivaPackEditor *self);

/* viva-pack-editor-list.c */
void _viva_pack_editor_list_class_init  (GtkWidgetClass *widget_class);
guint _viva_pack_editor_problem_position (VivaPackEditor *self,
                                         VivaProblem    *problem);

/* viva-pack-editor-file.c */
void _viva_pack_editor_set_pack          (VivaPackEditor *self,
                                         VivaPack       *pack,
                                         GFile          *file);
char *_viva_pack_editor_slugify         (const char     *text);
void _viva_pack_editor_rebuild_open_list (VivaPackEditor *self);
void _viva_pack_editor_open_row_activated_cb (GtkListBox     *list,
                                              GtkListBoxRow  *row,
                                              VivaPackEditor *self);
void _viva_pack_editor_save             (VivaPackEditor *self,
                                         gboolean        then_close);
void _viva_pack_editor_new_action       (GtkWidget      *widget,
                                         const char     *action_name,
                                         GVariant       *parameter);
void _viva_pack_editor_open_action      (GtkWidget      *widget,
                                         const char     *action_name,
                                         GVariant       *parameter);
void _viva_pack_editor_save_action      (GtkWidget      *widget,
                                         const char     *action_name,
                                         GVariant       *parameter);
void _viva_pack_editor_export_action    (GtkWidget      *widget,
                                         const char     *action_name,
                                         GVariant       *parameter);

/* viva-pack-editor-validate.c */
void _viva_pack_editor_checked_cb       (VivaPackChecker     *checker,
                                         const VivaPackCheck *check,
                                         VivaPackEditor      *self);
void _viva_pack_editor_validate_action  (GtkWidget      *widget,
                                         const char     *action_name,
                                         GVariant       *parameter);

/* viva-pack-editor-problem.c */
void _viva_pack_editor_problem_init     (VivaPackEditor *self);
void _viva_pack_editor_load_problem     (VivaPackEditor *self,
                                         VivaProblem    *problem);
void _viva_pack_editor_sync_problem     (VivaPackEditor *self);
void _viva_pack_editor_add_test         (VivaPackEditor *self);
void _viva_pack_editor_add_question     (VivaPackEditor *self);
void _viva_pack_editor_show_results     (VivaPackEditor *self);
char *_viva_pack_editor_describe_failure (const VivaPackCheck *check);
void _viva_pack_editor_field_changed    (VivaPackEditor *self);
void _viva_pack_editor_apply_id         (VivaPackEditor *self);

/* viva-pack-editor-drafts.c */
void _viva_pack_editor_drafts_init      (VivaPackEditor *self);
void _viva_pack_editor_show_generate    (VivaPackEditor *self);
void _viva_pack_editor_start_draft      (VivaPackEditor *self);
void _viva_pack_editor_cancel_draft     (VivaPackEditor *self);
void _viva_pack_editor_show_draft       (VivaPackEditor *self,
                                         VivaProblemDraft *draft);
void _viva_pack_editor_approve_draft    (VivaPackEditor *self,
                                         gboolean        edit);
void _viva_pack_editor_discard_draft    (VivaPackEditor *self);
void _viva_pack_editor_rebuild_drafts   (VivaPackEditor *self);


G_END_DECLS

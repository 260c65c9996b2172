/* viva-pack-editor.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-pack-editor-private.h"
#include "viva-settings.h"

/* The teacher's window: one pack at a time, its problems in a list on the
 * left (viva-pack-editor-list.c), the chosen problem's fields on the right
 * (viva-pack-editor-problem.c) and the model's drafts awaiting approval
 * (viva-pack-editor-drafts.c).
 * Packs the teacher opens from the library are edited as copies, so the
 * student's window keeps what is saved, and new packs are saved into the
 * library's folder, where the student's Problems list finds them. Closing
 * with unsaved changes asks first. */

G_DEFINE_FINAL_TYPE (VivaPackEditor, viva_pack_editor, ADW_TYPE_APPLICATION_WINDOW)

enum {
  PROP_0,
  PROP_LIBRARY,
  PROP_DIRTY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

void
_viva_pack_editor_toast (VivaPackEditor *self,
                         const char     *message)
{
  AdwToast *toast;

  /* A late callback after the window closed has no one to tell. */
  if (self->toast_overlay == NULL)
    return;

  toast = adw_toast_new (message);
  adw_toast_set_timeout (toast, 4);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

void
_viva_pack_editor_update_title (VivaPackEditor *self)
{
  g_autofree char *where = NULL;

  if (self->pack == NULL)
    {
      adw_window_title_set_title (self->window_title, _("Pack Editor"));
      adw_window_title_set_subtitle (self->window_title, NULL);
      return;
    }

  adw_window_title_set_title (self->window_title, viva_pack_get_title (self->pack));
  if (self->dirty)
    where = g_strdup (_("Unsaved changes"));
  else if (self->file != NULL)
    where = g_file_get_parse_name (self->file);
  else
    where = g_strdup (_("Not saved yet"));
  adw_window_title_set_subtitle (self->window_title, where);
}

void
_viva_pack_editor_set_dirty (VivaPackEditor *self,
                             gboolean        dirty)
{
  g_assert (VIVA_IS_PACK_EDITOR (self));

  if (self->dirty == !!dirty)
    return;

  self->dirty = !!dirty;
  _viva_pack_editor_update_title (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DIRTY]);
}

void
_viva_pack_editor_update_actions (VivaPackEditor *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  guint n = self->pack ? g_list_model_get_n_items (viva_pack_get_problems (self->pack)) : 0;
  guint position = self->pack ? _viva_pack_editor_problem_position (self, self->problem) : G_MAXUINT;
  gboolean generating = self->generator && viva_problem_generator_get_busy (self->generator);
  gboolean has_problem = position != G_MAXUINT;
  g_autofree char *topic = NULL;

  gtk_widget_action_set_enabled (widget, "editor.save", self->pack != NULL);
  gtk_widget_action_set_enabled (widget, "editor.export", self->pack != NULL);
  gtk_widget_action_set_enabled (widget, "editor.validate", n > 0 && !self->validating && !generating);
  gtk_widget_action_set_enabled (widget, "editor.add", self->pack != NULL);
  gtk_widget_action_set_enabled (widget, "editor.duplicate", has_problem);
  gtk_widget_action_set_enabled (widget, "editor.delete", has_problem);
  gtk_widget_action_set_enabled (widget, "editor.move-up", has_problem && position > 0);
  gtk_widget_action_set_enabled (widget, "editor.move-down", has_problem && position + 1 < n);
  gtk_widget_action_set_enabled (widget, "editor.add-test", has_problem);
  gtk_widget_action_set_enabled (widget, "editor.add-question", has_problem);
  gtk_widget_action_set_enabled (widget, "editor.draft", !self->validating);
  topic = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->topic_row))));
  gtk_widget_action_set_enabled (widget, "editor.start-draft",
                                 !generating && !self->validating && topic[0] != '\0');
  gtk_widget_action_set_enabled (widget, "editor.cancel-draft", TRUE);
  gtk_widget_action_set_enabled (widget, "editor.approve-draft",
                                 self->draft != NULL && self->pack != NULL &&
                                 viva_problem_draft_get_passed (self->draft));
  /* A draft whose reply could not be read still opens, as a new problem
   * with the draft's errors beside it. */
  gtk_widget_action_set_enabled (widget, "editor.edit-draft",
                                 self->draft != NULL && self->pack != NULL);
  gtk_widget_action_set_enabled (widget, "editor.discard-draft", self->draft != NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->pack_title_row), self->pack != NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->pack_author_row), self->pack != NULL);
}

static void
pack_field_changed_cb (VivaPackEditor *self)
{
  if (self->loading || self->pack == NULL)
    return;

  viva_pack_set_title (self->pack, gtk_editable_get_text (GTK_EDITABLE (self->pack_title_row)));
  viva_pack_set_author (self->pack, gtk_editable_get_text (GTK_EDITABLE (self->pack_author_row)));
  _viva_pack_editor_set_dirty (self, TRUE);
  _viva_pack_editor_update_title (self);
}

static void
field_changed_cb (VivaPackEditor *self)
{
  _viva_pack_editor_field_changed (self);
}

static void
id_apply_cb (VivaPackEditor *self)
{
  _viva_pack_editor_apply_id (self);
}

/* Until the teacher edits the id, it is made from the title as they type
 * it, and applied when they leave the title. */
static void
title_changed_cb (VivaPackEditor *self)
{
  _viva_pack_editor_field_changed (self);

  if (!self->loading && self->problem != NULL && self->id_follows)
    {
      const char *title = gtk_editable_get_text (GTK_EDITABLE (self->title_row));
      g_autofree char *slug = _viva_pack_editor_slugify (title);
      g_autofree char *id = g_strcmp0 (slug, viva_problem_get_id (self->problem)) == 0
                            ? g_strdup (slug) : _viva_pack_editor_unique_id (self, title);

      self->setting_id = TRUE;
      gtk_editable_set_text (GTK_EDITABLE (self->id_row), id);
      self->setting_id = FALSE;
    }
}

static void
id_changed_cb (VivaPackEditor *self)
{
  if (!self->loading && !self->setting_id)
    self->id_follows = FALSE;
}

static void
title_focus_leave_cb (VivaPackEditor *self)
{
  if (self->id_follows && self->problem != NULL &&
      g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->id_row)), viva_problem_get_id (self->problem)) != 0)
    _viva_pack_editor_apply_id (self);
}

static void
topic_changed_cb (VivaPackEditor *self)
{
  _viva_pack_editor_update_actions (self);
}

static void
draft_row_selected_cb (VivaPackEditor *self,
                       GtkListBoxRow  *row)
{
  if (self->loading || row == NULL)
    return;

  _viva_pack_editor_sync_problem (self);
  self->loading = TRUE;
  gtk_list_box_unselect_all (self->problems_list);
  self->loading = FALSE;
  _viva_pack_editor_show_draft (self, g_object_get_data (G_OBJECT (row), "draft"));
}

static void
approve_draft (VivaPackEditor *self)
{
  _viva_pack_editor_approve_draft (self, FALSE);
}

static void
edit_draft (VivaPackEditor *self)
{
  _viva_pack_editor_approve_draft (self, TRUE);
}

/* Actions that call one function of the window's other files. */
static const struct
{
  const char *name;
  void      (*run) (VivaPackEditor *self);
} forwarded_actions[] = {
  { "editor.add-test", _viva_pack_editor_add_test },
  { "editor.add-question", _viva_pack_editor_add_question },
  { "editor.draft", _viva_pack_editor_show_generate },
  { "editor.start-draft", _viva_pack_editor_start_draft },
  { "editor.cancel-draft", _viva_pack_editor_cancel_draft },
  { "editor.approve-draft", approve_draft },
  { "editor.edit-draft", edit_draft },
  { "editor.discard-draft", _viva_pack_editor_discard_draft },
};

static void
forwarded_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  for (guint i = 0; i < G_N_ELEMENTS (forwarded_actions); i++)
    if (g_str_equal (forwarded_actions[i].name, action_name))
      {
        forwarded_actions[i].run (VIVA_PACK_EDITOR (widget));
        return;
      }

  g_assert_not_reached ();
}

/* Closing --------------------------------------------------------------- */

static void
close_response_cb (AdwMessageDialog *dialog,
                   const char       *response,
                   VivaPackEditor   *self)
{
  if (g_str_equal (response, "discard"))
    {
      self->closing = TRUE;
      gtk_window_close (GTK_WINDOW (self));
    }
  else if (g_str_equal (response, "save"))
    _viva_pack_editor_save (self, TRUE);
  else
    /* Still open, so still in teacher mode, whatever turned it off. */
    viva_settings_set_teacher_mode (viva_settings_get_default (), TRUE);
}

static gboolean
viva_pack_editor_close_request (GtkWindow *window)
{
  VivaPackEditor *self = VIVA_PACK_EDITOR (window);
  AdwMessageDialog *dialog;
  g_autofree char *heading = NULL;

  _viva_pack_editor_sync_problem (self);
  if (!self->dirty || self->closing || self->pack == NULL)
    return GTK_WINDOW_CLASS (viva_pack_editor_parent_class)->close_request (window);

  heading = g_strdup_printf (_("Save Changes to “%s”?"), viva_pack_get_title (self->pack));
  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (window, heading,
                                                       _("The pack has changes that are not saved. Discarded changes cannot be recovered.")));
  adw_message_dialog_add_responses (dialog, "cancel", _("Cancel"), "discard", _("Discard"),
                                    "save", _("Save"), NULL);
  adw_message_dialog_set_response_appearance (dialog, "discard", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_response_appearance (dialog, "save", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (dialog, "save");
  adw_message_dialog_set_close_response (dialog, "cancel");
  g_signal_connect_object (dialog, "response", G_CALLBACK (close_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));

  return TRUE;
}

/* GObject --------------------------------------------------------------- */

static void
viva_pack_editor_constructed (GObject *object)
{
  VivaPackEditor *self = VIVA_PACK_EDITOR (object);

  G_OBJECT_CLASS (viva_pack_editor_parent_class)->constructed (object);

  if (self->library == NULL)
    self->library = viva_pack_library_new (NULL);

  g_signal_connect_object (viva_pack_library_get_packs (self->library), "items-changed",
                           G_CALLBACK (_viva_pack_editor_rebuild_open_list), self, G_CONNECT_SWAPPED);
  _viva_pack_editor_rebuild_open_list (self);
  _viva_pack_editor_drafts_init (self);
  _viva_pack_editor_update_actions (self);
}

static void
viva_pack_editor_dispose (GObject *object)
{
  VivaPackEditor *self = (VivaPackEditor *)object;

  g_cancellable_cancel (self->cancellable);
  if (self->draft_cancellable != NULL)
    g_cancellable_cancel (self->draft_cancellable);
  g_clear_handle_id (&self->preview_source, g_source_remove);

  if (self->checker != NULL)
    g_signal_handlers_disconnect_by_func (self->checker, _viva_pack_editor_checked_cb, self);
  if (self->runner != NULL)
    viva_runner_stop (self->runner);

  gtk_widget_dispose_template (GTK_WIDGET (self), VIVA_TYPE_PACK_EDITOR);

  g_clear_object (&self->generator);
  g_clear_object (&self->model);
  g_clear_object (&self->checker);
  g_clear_object (&self->runner);
  g_clear_object (&self->drafts);
  g_clear_object (&self->pack);
  g_clear_object (&self->file);
  g_clear_object (&self->library);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->draft_cancellable);
  g_clear_pointer (&self->issues, g_hash_table_unref);
  g_clear_pointer (&self->checks, g_hash_table_unref);
  self->problem = NULL;
  self->draft = NULL;

  G_OBJECT_CLASS (viva_pack_editor_parent_class)->dispose (object);
}

static void
viva_pack_editor_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  VivaPackEditor *self = VIVA_PACK_EDITOR (object);

  switch (prop_id)
    {
    case PROP_LIBRARY:
      g_value_set_object (value, self->library);
      break;

    case PROP_DIRTY:
      g_value_set_boolean (value, viva_pack_editor_get_dirty (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_pack_editor_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  VivaPackEditor *self = VIVA_PACK_EDITOR (object);

  switch (prop_id)
    {
    case PROP_LIBRARY:
      self->library = g_value_dup_object (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_pack_editor_class_init (VivaPackEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->constructed = viva_pack_editor_constructed;
  object_class->dispose = viva_pack_editor_dispose;
  object_class->get_property = viva_pack_editor_get_property;
  object_class->set_property = viva_pack_editor_set_property;
  window_class->close_request = viva_pack_editor_close_request;

  properties[PROP_LIBRARY] =
    g_param_spec_object ("library", NULL, NULL, VIVA_TYPE_PACK_LIBRARY,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_DIRTY] =
    g_param_spec_boolean ("dirty", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (VIVA_TYPE_EDITOR);
  g_type_ensure (GTK_SOURCE_TYPE_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/viva-pack-editor.ui");

#define CHILD(name) gtk_widget_class_bind_template_child (widget_class, VivaPackEditor, name)
  CHILD (toast_overlay);
  CHILD (window_title);
  CHILD (open_popover);
  CHILD (open_list);
  CHILD (pack_title_row);
  CHILD (pack_author_row);
  CHILD (problems_list);
  CHILD (drafts_list);
  CHILD (main_stack);
  CHILD (empty_page);
  CHILD (problem_stack);
  CHILD (title_row);
  CHILD (problem_switcher);
  CHILD (id_row);
  CHILD (type_row);
  CHILD (time_spin);
  CHILD (hint_view);
  CHILD (rubric_view);
  CHILD (description_view);
  CHILD (preview_view);
  CHILD (starter_editor);
  CHILD (reference_editor);
  CHILD (tests_box);
  CHILD (questions_box);
  CHILD (validation_summary);
  CHILD (results_list);
  CHILD (topic_row);
  CHILD (draft_type_row);
  CHILD (difficulty_row);
  CHILD (language_row);
  CHILD (progress_box);
  CHILD (progress_spinner);
  CHILD (progress_label);
  CHILD (progress_list);
  CHILD (draft_icon);
  CHILD (draft_title);
  CHILD (draft_subtitle);
  CHILD (draft_checks_list);
  CHILD (draft_preview);
#undef CHILD

  _viva_pack_editor_list_class_init (widget_class);
  gtk_widget_class_bind_template_callback (widget_class, pack_field_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, draft_row_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, field_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, id_apply_cb);
  gtk_widget_class_bind_template_callback (widget_class, id_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, title_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, topic_changed_cb);

  gtk_widget_class_install_action (widget_class, "editor.new", NULL, _viva_pack_editor_new_action);
  gtk_widget_class_install_action (widget_class, "editor.open", NULL, _viva_pack_editor_open_action);
  gtk_widget_class_install_action (widget_class, "editor.save", NULL, _viva_pack_editor_save_action);
  gtk_widget_class_install_action (widget_class, "editor.export", NULL, _viva_pack_editor_export_action);
  gtk_widget_class_install_action (widget_class, "editor.validate", NULL, _viva_pack_editor_validate_action);

  for (guint i = 0; i < G_N_ELEMENTS (forwarded_actions); i++)
    gtk_widget_class_install_action (widget_class, forwarded_actions[i].name, NULL, forwarded_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK, "editor.save", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_n, GDK_CONTROL_MASK, "editor.new", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK, "editor.open", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "window.close", NULL);
}

static void
viva_pack_editor_init (VivaPackEditor *self)
{
  GtkEventController *focus;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->cancellable = g_cancellable_new ();
  self->issues = g_hash_table_new_full (g_direct_hash, g_direct_equal, g_object_unref,
                                        (GDestroyNotify)g_ptr_array_unref);
  self->checks = g_hash_table_new_full (g_direct_hash, g_direct_equal, g_object_unref,
                                        (GDestroyNotify)g_ptr_array_unref);
  self->runner = viva_runner_new ();
  self->checker = viva_pack_checker_new (self->runner);
  g_signal_connect (self->checker, "checked", G_CALLBACK (_viva_pack_editor_checked_cb), self);

  g_signal_connect (self->open_list, "row-activated", G_CALLBACK (_viva_pack_editor_open_row_activated_cb), self);

  /* Tabs as wide as their names, not all as wide as the widest: seven of
   * them fit the editor's default width instead of running off its edge. */
  gtk_box_layout_set_homogeneous (GTK_BOX_LAYOUT (gtk_widget_get_layout_manager (GTK_WIDGET (self->problem_switcher))),
                                  FALSE);
  focus = gtk_event_controller_focus_new ();
  g_signal_connect_object (focus, "leave", G_CALLBACK (title_focus_leave_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->title_row), focus);

  _viva_pack_editor_problem_init (self);
  _viva_pack_editor_update_title (self);
  _viva_pack_editor_select_problem (self, NULL);
}

/**
 * viva_pack_editor_new:
 * @library: (nullable): the library the student's window shows; saved
 *   packs land in its folder and it is reloaded after each save
 *
 * Returns: (transfer full): the editor window, with no pack open
 */
VivaPackEditor *
viva_pack_editor_new (GtkApplication  *application,
                      VivaPackLibrary *library)
{
  g_return_val_if_fail (GTK_IS_APPLICATION (application), NULL);
  g_return_val_if_fail (library == NULL || VIVA_IS_PACK_LIBRARY (library), NULL);

  return g_object_new (VIVA_TYPE_PACK_EDITOR, "application", application, "library", library, NULL);
}

/**
 * viva_pack_editor_get_pack:
 *
 * Returns: (transfer none) (nullable): the pack being edited
 */
VivaPack *
viva_pack_editor_get_pack (VivaPackEditor *self)
{
  g_return_val_if_fail (VIVA_IS_PACK_EDITOR (self), NULL);
  return self->pack;
}

/**
 * viva_pack_editor_open_pack:
 * @pack: the pack to edit; the editor edits it in place
 * @file: (nullable): where Save writes it; %NULL for a new file named
 *   after its id in the library's folder
 *
 * Shows @pack, dropping the one open without asking: callers ask first.
 */
void
viva_pack_editor_open_pack (VivaPackEditor *self,
                            VivaPack       *pack,
                            GFile          *file)
{
  g_return_if_fail (VIVA_IS_PACK_EDITOR (self));
  g_return_if_fail (VIVA_IS_PACK (pack));
  g_return_if_fail (file == NULL || G_IS_FILE (file));

  _viva_pack_editor_set_pack (self, pack, file);
}

gboolean
viva_pack_editor_get_dirty (VivaPackEditor *self)
{
  g_return_val_if_fail (VIVA_IS_PACK_EDITOR (self), FALSE);
  return self->dirty;
}

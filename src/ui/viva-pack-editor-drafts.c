/* viva-pack-editor-drafts.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-core.h"
#include "viva-exam-model.h"
#include "viva-markdown.h"
#include "viva-pack-editor-private.h"
#include "viva-problem-template.h"

/* Draft with AI: the teacher's request, the generator's progress as it
 * drafts, checks and retries, and the drafts awaiting a decision. A draft
 * is written to the draft store as soon as it comes back, passing or not,
 * so it survives a restart; Approve (only for a draft that passed) and
 * Edit add a copy to the pack, Discard deletes it. */

static const char *
type_label (VivaProblemType type)
{
  const char *labels[] = { N_("Implement"), N_("Debug"), N_("Explain") };

  return _(labels[type]);
}

static char *
draft_title (VivaProblemDraft *draft)
{
  VivaProblem *problem = viva_problem_draft_get_problem (draft);

  if (problem != NULL)
    return g_strdup (viva_problem_get_title (problem));

  /* TRANSLATORS: a draft that has no readable problem, named by its topic */
  return g_strdup_printf (_("Draft about “%s”"), viva_problem_draft_get_topic (draft));
}

void
_viva_pack_editor_rebuild_drafts (VivaPackEditor *self)
{
  GListModel *drafts = viva_draft_store_get_drafts (self->drafts);
  gboolean loading = self->loading;
  GtkWidget *child;

  self->loading = TRUE;
  while ((child = GTK_WIDGET (gtk_list_box_get_row_at_index (self->drafts_list, 0))) != NULL)
    gtk_list_box_remove (self->drafts_list, child);

  for (guint i = 0; i < g_list_model_get_n_items (drafts); i++)
    {
      g_autoptr(VivaProblemDraft) draft = g_list_model_get_item (drafts, i);
      gboolean passed = viva_problem_draft_get_passed (draft);
      g_autofree char *title = draft_title (draft);
      g_autofree char *name = NULL;
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *icon = gtk_image_new_from_icon_name (passed ? "emblem-ok-symbolic" : "dialog-warning-symbolic");

      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), passed ? _("Passed its checks") : _("Still failing its checks"));
      gtk_widget_add_css_class (icon, passed ? "success" : "warning");
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), icon);
      g_object_set_data_full (G_OBJECT (row), "draft", g_object_ref (draft), g_object_unref);
      name = g_strdup_printf (passed ? _("Draft %s, passed its checks") : _("Draft %s, still failing"), title);
      gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
      gtk_list_box_append (self->drafts_list, row);

      if (draft == self->draft)
        gtk_list_box_select_row (self->drafts_list, GTK_LIST_BOX_ROW (row));
    }
  self->loading = loading;
}

static void
drafts_loaded_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(VivaPackEditor) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!viva_draft_store_load_finish (VIVA_DRAFT_STORE (object), result, &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    _viva_pack_editor_toast (self, error->message);
}

void
_viva_pack_editor_drafts_init (VivaPackEditor *self)
{
  self->drafts = viva_draft_store_new (NULL);
  g_signal_connect_object (viva_draft_store_get_drafts (self->drafts), "items-changed",
                           G_CALLBACK (_viva_pack_editor_rebuild_drafts), self, G_CONNECT_SWAPPED);
  viva_draft_store_load_async (self->drafts, self->cancellable, drafts_loaded_cb, g_object_ref (self));
}

void
_viva_pack_editor_show_generate (VivaPackEditor *self)
{
  _viva_pack_editor_sync_problem (self);
  self->draft = NULL;
  self->loading = TRUE;
  gtk_list_box_unselect_all (self->problems_list);
  gtk_list_box_unselect_all (self->drafts_list);
  self->loading = FALSE;
  gtk_stack_set_visible_child_name (self->main_stack, "generate");
  gtk_widget_grab_focus (GTK_WIDGET (self->topic_row));
  _viva_pack_editor_update_actions (self);
}

static void
progress_cb (VivaProblemGenerator *generator,
             int                   stage,
             guint                 attempt,
             const char           *message,
             VivaPackEditor       *self)
{
  const char *icons[] = {
    [VIVA_GENERATOR_STAGE_DRAFTING] = "document-edit-symbolic",
    [VIVA_GENERATOR_STAGE_CHECKING] = "system-run-symbolic",
    [VIVA_GENERATOR_STAGE_RETRYING] = "view-refresh-symbolic",
    [VIVA_GENERATOR_STAGE_PASSED] = "emblem-ok-symbolic",
    [VIVA_GENERATOR_STAGE_FAILED] = "dialog-warning-symbolic",
  };
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *icon = gtk_image_new_from_icon_name (icons[stage]);

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), message);
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), icon);
  if (stage == VIVA_GENERATOR_STAGE_PASSED)
    gtk_widget_add_css_class (icon, "success");
  else if (stage == VIVA_GENERATOR_STAGE_FAILED || stage == VIVA_GENERATOR_STAGE_RETRYING)
    gtk_widget_add_css_class (icon, "warning");
  gtk_list_box_append (self->progress_list, row);
  gtk_label_set_text (self->progress_label, message);
}

static void
draft_saved_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(VivaPackEditor) self = user_data;
  g_autoptr(GError) error = NULL;

  /* The draft stays in the list even if the disk refused it. */
  if (!viva_draft_store_save_finish (VIVA_DRAFT_STORE (object), result, &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    _viva_pack_editor_toast (self, error->message);
}

static void
generated_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(VivaPackEditor) self = user_data;
  g_autoptr(VivaProblemDraft) draft = NULL;
  g_autoptr(GError) error = NULL;

  draft = viva_problem_generator_generate_finish (VIVA_PROBLEM_GENERATOR (object), result, &error);
  if (self->drafts == NULL)
    return;   /* the window is gone */

  gtk_spinner_stop (self->progress_spinner);
  g_clear_object (&self->draft_cancellable);
  _viva_pack_editor_update_actions (self);

  if (draft == NULL)
    {
      g_autofree char *message = NULL;

      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        message = g_strdup (_("Drafting was cancelled."));
      else
        message = g_strdup_printf (_("No draft: %s"), error->message);
      gtk_label_set_text (self->progress_label, message);
      return;
    }

  viva_draft_store_save_async (self->drafts, draft, self->cancellable, draft_saved_cb, g_object_ref (self));
  _viva_pack_editor_show_draft (self, draft);
}

void
_viva_pack_editor_start_draft (VivaPackEditor *self)
{
  g_autoptr(VivaProblemDraft) draft = NULL;
  g_autofree char *topic = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->topic_row))));
  GtkWidget *child;

  if (self->generator == NULL)
    {
      self->model = viva_exam_model_new_for_settings (viva_settings_get_default ());
      self->generator = viva_problem_generator_new (VIVA_CHAT_MODEL (self->model), self->runner);
      g_signal_connect_object (self->generator, "progress", G_CALLBACK (progress_cb), self, 0);
      g_signal_connect_object (self->generator, "notify::busy",
                               G_CALLBACK (_viva_pack_editor_update_actions), self, G_CONNECT_SWAPPED);
    }

  draft = viva_problem_draft_new (topic, adw_combo_row_get_selected (self->draft_type_row),
                                  gtk_editable_get_text (GTK_EDITABLE (self->difficulty_row)),
                                  gtk_editable_get_text (GTK_EDITABLE (self->language_row)));
  if (self->pack != NULL)
    viva_problem_draft_set_pack_id (draft, viva_pack_get_id (self->pack));

  while ((child = GTK_WIDGET (gtk_list_box_get_row_at_index (self->progress_list, 0))) != NULL)
    gtk_list_box_remove (self->progress_list, child);
  gtk_widget_set_visible (GTK_WIDGET (self->progress_box), TRUE);
  gtk_spinner_start (self->progress_spinner);

  g_clear_object (&self->draft_cancellable);
  self->draft_cancellable = g_cancellable_new ();
  viva_problem_generator_generate_async (self->generator, draft, self->draft_cancellable,
                                         generated_cb, g_object_ref (self));
  _viva_pack_editor_update_actions (self);
}

void
_viva_pack_editor_cancel_draft (VivaPackEditor *self)
{
  if (self->draft_cancellable != NULL)
    {
      g_cancellable_cancel (self->draft_cancellable);
      return;
    }

  _viva_pack_editor_select_problem (self, self->problem);
}

static void
add_check_row (VivaPackEditor *self,
               const char     *icon_name,
               const char     *style,
               const char     *title,
               const char     *subtitle)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *icon = gtk_image_new_from_icon_name (icon_name);

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  if (subtitle != NULL)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 6);
  gtk_widget_add_css_class (icon, style);
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), icon);
  gtk_list_box_append (self->draft_checks_list, row);
}

static char *
draft_markdown (VivaProblemDraft *draft)
{
  VivaProblem *problem = viva_problem_draft_get_problem (draft);
  GString *text = g_string_new (NULL);

  if (problem == NULL)
    {
      const char *raw = viva_problem_draft_get_raw_reply (draft);

      g_string_append_printf (text, "## %s\n\n", _("The model’s last reply"));
      if (raw != NULL && raw[0] != '\0')
        g_string_append_printf (text, "```\n%s\n```\n", raw);
      else
        g_string_append_printf (text, "%s\n", _("The model sent no text at all. Edit opens a new problem on this topic to write yourself, or try the draft again."));
      return g_string_free (text, FALSE);
    }

  g_string_append_printf (text, "%s\n\n", viva_problem_get_description (problem));
  g_string_append_printf (text, "## %s\n\n```python\n%s\n```\n\n", _("Starter code"),
                          viva_problem_get_starter_code (problem));
  g_string_append_printf (text, "## %s\n\n```python\n%s\n```\n\n", _("Reference solution"),
                          viva_problem_get_reference (problem));
  g_string_append_printf (text, "## %s\n\n", _("Tests"));
  for (guint i = 0; i < viva_problem_get_n_tests (problem); i++)
    g_string_append_printf (text, "**%s**\n\n```python\n%s\n```\n\n",
                            viva_problem_get_test (problem, i)->name, viva_problem_get_test (problem, i)->code);
  g_string_append_printf (text, "## %s\n\n", _("Questions"));
  for (guint i = 0; i < viva_problem_get_n_questions (problem); i++)
    {
      const VivaProblemQuestion *question = viva_problem_get_question (problem, i);

      g_string_append_printf (text, "- %s\n", question->question);
      for (guint j = 0; question->points && question->points[j]; j++)
        g_string_append_printf (text, "    - %s\n", question->points[j]);
    }
  g_string_append_printf (text, "\n## %s\n\n%s\n", _("Hint"), viva_problem_get_hint (problem));

  return g_string_free (text, FALSE);
}

void
_viva_pack_editor_show_draft (VivaPackEditor   *self,
                              VivaProblemDraft *draft)
{
  gboolean passed;
  g_autofree char *title = NULL;
  g_autofree char *subtitle = NULL;
  g_autofree char *markdown = NULL;
  GPtrArray *issues;
  GPtrArray *checks;
  GtkWidget *child;
  guint attempts;

  g_assert (VIVA_IS_PACK_EDITOR (self));

  self->draft = draft;
  _viva_pack_editor_rebuild_drafts (self);
  if (draft == NULL)
    return;

  passed = viva_problem_draft_get_passed (draft);
  attempts = viva_problem_draft_get_attempts (draft);
  title = draft_title (draft);
  gtk_image_set_from_icon_name (self->draft_icon, passed ? "emblem-ok-symbolic" : "dialog-warning-symbolic");
  gtk_widget_remove_css_class (GTK_WIDGET (self->draft_icon), passed ? "warning" : "success");
  gtk_widget_add_css_class (GTK_WIDGET (self->draft_icon), passed ? "success" : "warning");
  gtk_label_set_text (self->draft_title, title);

  if (passed)
    subtitle = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                             "%s problem about “%s”. It passed every check after %u attempt; approve it to add it to the pack.",
                                             "%s problem about “%s”. It passed every check after %u attempts; approve it to add it to the pack.",
                                             attempts),
                                type_label (viva_problem_draft_get_problem_type (draft)),
                                viva_problem_draft_get_topic (draft), attempts);
  else
    subtitle = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                             "%s problem about “%s”. It still fails its checks after %u attempt; the last errors are below. Edit it to fix them, or discard it.",
                                             "%s problem about “%s”. It still fails its checks after %u attempts; the last errors are below. Edit it to fix them, or discard it.",
                                             attempts),
                                type_label (viva_problem_draft_get_problem_type (draft)),
                                viva_problem_draft_get_topic (draft), attempts);
  if (self->pack == NULL)
    {
      g_autofree char *more = g_strconcat (subtitle, " ",
                                           passed ? _("Create or open a pack to approve it into.")
                                                  : _("Create or open a pack to edit it in."),
                                           NULL);

      g_free (subtitle);
      subtitle = g_steal_pointer (&more);
    }
  gtk_label_set_text (self->draft_subtitle, subtitle);

  while ((child = GTK_WIDGET (gtk_list_box_get_row_at_index (self->draft_checks_list, 0))) != NULL)
    gtk_list_box_remove (self->draft_checks_list, child);

  issues = viva_problem_draft_get_issues (draft);
  for (guint i = 0; i < issues->len; i++)
    {
      const VivaPackIssue *issue = g_ptr_array_index (issues, i);

      add_check_row (self, "dialog-error-symbolic", "error",
                     issue->path[0] ? issue->path : _("Reply"), issue->message);
    }

  checks = viva_problem_draft_get_checks (draft);
  for (guint i = 0; i < checks->len; i++)
    {
      const VivaPackCheck *check = g_ptr_array_index (checks, i);
      gboolean reference = check->subject == VIVA_PACK_CHECK_REFERENCE;
      g_autofree char *row_title = g_strdup_printf (reference ? _("Reference solution · test “%s”")
                                                              : _("Starter code · test “%s”"),
                                                    check->test_name);
      g_autofree char *row_subtitle = NULL;

      if (check->passed)
        row_subtitle = g_strdup (_("Passes"));
      else
        {
          g_autofree char *failure = _viva_pack_editor_describe_failure (check);

          row_subtitle = g_strdup_printf (_("Fails: %s"), failure);
        }

      add_check_row (self, check->passed == reference ? "emblem-ok-symbolic" : "dialog-information-symbolic",
                     check->passed == reference ? "success" : "dim-label", row_title, row_subtitle);
    }

  markdown = draft_markdown (draft);
  viva_markdown_render (gtk_text_view_get_buffer (self->draft_preview), markdown);

  gtk_stack_set_visible_child_name (self->main_stack, "draft");
  _viva_pack_editor_update_actions (self);
}

static void
draft_removed_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(VivaPackEditor) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!viva_draft_store_remove_finish (VIVA_DRAFT_STORE (object), result, &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    _viva_pack_editor_toast (self, error->message);
}

void
_viva_pack_editor_approve_draft (VivaPackEditor *self,
                                 gboolean        edit)
{
  g_autoptr(VivaProblemDraft) draft = NULL;
  g_autoptr(VivaProblem) problem = NULL;
  g_autofree char *id = NULL;
  g_autofree char *message = NULL;
  VivaProblem *drafted;
  GPtrArray *issues;

  g_return_if_fail (self->draft != NULL && self->pack != NULL);

  draft = g_object_ref (self->draft);
  drafted = viva_problem_draft_get_problem (draft);
  g_return_if_fail (drafted != NULL || edit);

  _viva_pack_editor_sync_problem (self);
  if (drafted != NULL)
    {
      id = _viva_pack_editor_unique_id (self, viva_problem_get_id (drafted));
      problem = _viva_pack_editor_copy_problem (drafted, id, viva_problem_get_title (drafted));
    }
  else
    {
      /* Nothing of the reply could be read as a problem: the teacher
       * writes it from the template, on the draft's topic, with the
       * draft's errors and the reply (in the draft, kept) to go by. */
      id = _viva_pack_editor_unique_id (self, "drafted-problem");
      problem = viva_problem_new_from_template (id);
      viva_problem_set_title (problem, viva_problem_draft_get_topic (draft));
    }
  viva_pack_add_problem (self->pack, problem);

  /* A failing draft taken in to fix keeps its errors, marked in the list. */
  issues = viva_problem_draft_get_issues (draft);
  if (viva_pack_issues_count_errors (issues) > 0)
    {
      GPtrArray *copy = viva_pack_issues_new ();

      for (guint i = 0; i < issues->len; i++)
        g_ptr_array_add (copy, viva_pack_issue_copy (g_ptr_array_index (issues, i)));
      g_hash_table_insert (self->issues, g_object_ref (problem), copy);
    }
  else if (viva_problem_draft_get_checks (draft)->len > 0)
    {
      /* The runs that passed it, so the list marks it as checked. */
      GPtrArray *runs = viva_problem_draft_get_checks (draft);
      GPtrArray *copy = g_ptr_array_new_with_free_func ((GDestroyNotify)viva_pack_check_free);

      for (guint i = 0; i < runs->len; i++)
        g_ptr_array_add (copy, viva_pack_check_copy (g_ptr_array_index (runs, i)));
      g_hash_table_insert (self->checks, g_object_ref (problem), copy);
    }

  self->draft = NULL;
  viva_draft_store_remove_async (self->drafts, draft, self->cancellable, draft_removed_cb, g_object_ref (self));
  _viva_pack_editor_set_dirty (self, TRUE);
  _viva_pack_editor_select_problem (self, problem);
  gtk_stack_set_visible_child_name (self->problem_stack, edit ? "details" : "description");

  message = g_strdup_printf (_("“%s” added to the pack"), viva_problem_get_title (problem));
  _viva_pack_editor_toast (self, message);
}

void
_viva_pack_editor_discard_draft (VivaPackEditor *self)
{
  g_autoptr(VivaProblemDraft) draft = NULL;

  g_return_if_fail (self->draft != NULL);

  draft = g_object_ref (self->draft);
  self->draft = NULL;
  viva_draft_store_remove_async (self->drafts, draft, self->cancellable, draft_removed_cb, g_object_ref (self));
  _viva_pack_editor_select_problem (self, self->problem);
  _viva_pack_editor_toast (self, _("Draft discarded"));
}

/* viva-pack-editor-list.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-pack-editor-private.h"
#include "viva-problem-template.h"

/* The pack editor's list of problems, on the left: a row per problem with
 * its validation mark, which problem is shown, and the actions that change
 * the list: add, duplicate, move up and down, and delete (with an Undo
 * toast). New ids come from titles here, unique in the pack. */

guint
_viva_pack_editor_problem_position (VivaPackEditor *self,
                                    VivaProblem    *problem)
{
  GListModel *problems = viva_pack_get_problems (self->pack);
  guint position = G_MAXUINT;

  if (problem != NULL)
    g_list_store_find (G_LIST_STORE (problems), problem, &position);

  return position;
}

/* The row's accessible name says what the icon shows, for screen readers
 * and for the tests. */
static GtkWidget *
problem_row_new (VivaPackEditor *self,
                 VivaProblem    *problem)
{
  GPtrArray *issues = g_hash_table_lookup (self->issues, problem);
  gboolean has_errors = issues != NULL && viva_pack_issues_count_errors (issues) > 0;
  /* Only a problem whose runs were seen is marked as passing. */
  gboolean checked = g_hash_table_contains (self->checks, problem);
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 10);
  GtkWidget *labels = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *title = gtk_label_new (viva_problem_get_title (problem));
  g_autofree char *detail = NULL;
  g_autofree char *name = NULL;
  GtkWidget *subtitle;
  const char *type_names[] = { N_("Implement"), N_("Debug"), N_("Explain") };

  detail = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s · %u test", "%s · %u tests",
                                         viva_problem_get_n_tests (problem)),
                            _(type_names[viva_problem_get_problem_type (problem)]),
                            viva_problem_get_n_tests (problem));
  subtitle = gtk_label_new (detail);
  gtk_widget_set_margin_top (box, 8);
  gtk_widget_set_margin_bottom (box, 8);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_ellipsize (GTK_LABEL (title), PANGO_ELLIPSIZE_END);
  gtk_label_set_xalign (GTK_LABEL (subtitle), 0);
  gtk_widget_add_css_class (subtitle, "caption");
  gtk_widget_add_css_class (subtitle, "dim-label");
  gtk_widget_set_hexpand (labels, TRUE);
  gtk_box_append (GTK_BOX (labels), title);
  gtk_box_append (GTK_BOX (labels), subtitle);
  gtk_box_append (GTK_BOX (box), labels);

  if (has_errors || checked)
    {
      GtkWidget *icon = gtk_image_new_from_icon_name (has_errors ? "dialog-warning-symbolic"
                                                                 : "emblem-ok-symbolic");

      gtk_widget_add_css_class (icon, has_errors ? "error" : "success");
      gtk_widget_set_tooltip_text (icon, has_errors ? _("Has errors; see Validation")
                                                    : _("Passes its checks"));
      gtk_box_append (GTK_BOX (box), icon);
    }

  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  g_object_set_data_full (G_OBJECT (row), "problem", g_object_ref (problem), g_object_unref);

  if (has_errors)
    name = g_strdup_printf (_("%s, has errors"), viva_problem_get_title (problem));
  else if (checked)
    name = g_strdup_printf (_("%s, passes its checks"), viva_problem_get_title (problem));
  else
    name = g_strdup (viva_problem_get_title (problem));
  gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);

  return row;
}

void
_viva_pack_editor_rebuild_list (VivaPackEditor *self)
{
  GtkWidget *child;
  gboolean loading = self->loading;

  g_assert (VIVA_IS_PACK_EDITOR (self));

  /* Rebuilding selects rows; that must not reload the fields being typed in. */
  self->loading = TRUE;
  while ((child = GTK_WIDGET (gtk_list_box_get_row_at_index (self->problems_list, 0))) != NULL)
    gtk_list_box_remove (self->problems_list, child);

  if (self->pack != NULL)
    {
      GListModel *problems = viva_pack_get_problems (self->pack);

      for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
        {
          g_autoptr(VivaProblem) problem = g_list_model_get_item (problems, i);
          GtkWidget *row = problem_row_new (self, problem);

          gtk_list_box_append (self->problems_list, row);
          if (problem == self->problem)
            gtk_list_box_select_row (self->problems_list, GTK_LIST_BOX_ROW (row));
        }
    }
  self->loading = loading;

  _viva_pack_editor_update_actions (self);
}

void
_viva_pack_editor_select_problem (VivaPackEditor *self,
                                  VivaProblem    *problem)
{
  g_assert (VIVA_IS_PACK_EDITOR (self));

  if (self->pack == NULL)
    {
      adw_status_page_set_title (self->empty_page, _("No Pack Open"));
      adw_status_page_set_description (self->empty_page,
                                       _("Create a pack with the New Pack button, or open one of yours. Drafts the model wrote wait on the left."));
    }
  else
    {
      adw_status_page_set_title (self->empty_page, _("No Problem Selected"));
      adw_status_page_set_description (self->empty_page,
                                       _("Choose a problem on the left, add one, or let the model draft one for you to approve."));
    }

  self->draft = NULL;
  gtk_list_box_unselect_all (self->drafts_list);
  _viva_pack_editor_load_problem (self, problem);
  _viva_pack_editor_rebuild_list (self);
  gtk_stack_set_visible_child_name (self->main_stack, problem ? "problem" : "empty");
}

static void
problem_row_selected_cb (VivaPackEditor *self,
                         GtkListBoxRow  *row)
{
  VivaProblem *problem;

  if (self->loading || row == NULL)
    return;

  problem = g_object_get_data (G_OBJECT (row), "problem");
  if (problem == self->problem && gtk_stack_get_visible_child_name (self->main_stack) != NULL &&
      g_str_equal (gtk_stack_get_visible_child_name (self->main_stack), "problem"))
    return;

  _viva_pack_editor_sync_problem (self);
  _viva_pack_editor_select_problem (self, problem);
}

/**
 * _viva_pack_editor_unique_id:
 * @base: a wish, like a title or a model's id
 *
 * Returns: (transfer full): an id made of @base no problem of the pack has
 */
char *
_viva_pack_editor_unique_id (VivaPackEditor *self,
                             const char     *base)
{
  g_autofree char *slug = _viva_pack_editor_slugify (base);
  char *id;

  if (slug[0] == '\0')
    {
      g_free (slug);
      slug = g_strdup ("problem");
    }

  id = g_strdup (slug);
  for (guint n = 2; self->pack != NULL && viva_pack_find_problem (self->pack, id) != NULL; n++)
    {
      g_free (id);
      id = g_strdup_printf ("%s-%u", slug, n);
    }

  return id;
}

VivaProblem *
_viva_pack_editor_copy_problem (VivaProblem *problem,
                                const char  *id,
                                const char  *title)
{
  VivaProblem *copy = viva_problem_new (id, title);

  viva_problem_set_problem_type (copy, viva_problem_get_problem_type (problem));
  viva_problem_set_description (copy, viva_problem_get_description (problem));
  viva_problem_set_starter_code (copy, viva_problem_get_starter_code (problem));
  viva_problem_set_reference (copy, viva_problem_get_reference (problem));
  viva_problem_set_hint (copy, viva_problem_get_hint (problem));
  viva_problem_set_rubric (copy, viva_problem_get_rubric (problem));
  viva_problem_set_time_limit (copy, viva_problem_get_time_limit (problem));
  viva_problem_set_pass_threshold (copy, viva_problem_get_pass_threshold (problem));
  for (guint i = 0; i < viva_problem_get_n_tests (problem); i++)
    viva_problem_add_test_copy (copy, viva_problem_get_test (problem, i));
  for (guint i = 0; i < viva_problem_get_n_questions (problem); i++)
    viva_problem_add_question (copy, viva_problem_get_question (problem, i)->question,
                               (const char * const *)viva_problem_get_question (problem, i)->points);

  return copy;
}

/* Inserts @problem after the one shown and shows it. */
static void
insert_problem (VivaPackEditor *self,
                VivaProblem    *problem)
{
  guint position = _viva_pack_editor_problem_position (self, self->problem);

  _viva_pack_editor_sync_problem (self);
  viva_pack_insert_problem (self->pack, position == G_MAXUINT ? G_MAXUINT : position + 1, problem);
  _viva_pack_editor_set_dirty (self, TRUE);
  _viva_pack_editor_select_problem (self, problem);
}

static void
add_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *parameter)
{
  VivaPackEditor *self = VIVA_PACK_EDITOR (widget);
  g_autofree char *id = _viva_pack_editor_unique_id (self, "problem");
  g_autoptr(VivaProblem) problem = viva_problem_new_from_template (id);

  insert_problem (self, problem);
  gtk_stack_set_visible_child_name (self->problem_stack, "details");
  gtk_widget_grab_focus (GTK_WIDGET (self->title_row));
}

static void
duplicate_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  VivaPackEditor *self = VIVA_PACK_EDITOR (widget);
  g_autofree char *id = NULL;
  g_autofree char *title = NULL;
  g_autoptr(VivaProblem) copy = NULL;

  _viva_pack_editor_sync_problem (self);
  id = _viva_pack_editor_unique_id (self, viva_problem_get_id (self->problem));
  /* TRANSLATORS: the title of a duplicated problem */
  title = g_strdup_printf (_("%s (copy)"), viva_problem_get_title (self->problem));
  copy = _viva_pack_editor_copy_problem (self->problem, id, title);
  insert_problem (self, copy);
}

static void
move (VivaPackEditor *self,
      int             delta)
{
  g_autoptr(VivaProblem) problem = NULL;
  guint position;

  _viva_pack_editor_sync_problem (self);
  position = _viva_pack_editor_problem_position (self, self->problem);
  problem = g_object_ref (self->problem);
  viva_pack_remove_problem (self->pack, position);
  viva_pack_insert_problem (self->pack, position + delta, problem);
  _viva_pack_editor_set_dirty (self, TRUE);
  _viva_pack_editor_rebuild_list (self);
}

static void
move_up_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  move (VIVA_PACK_EDITOR (widget), -1);
}

static void
move_down_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  move (VIVA_PACK_EDITOR (widget), 1);
}

static void
undo_delete_cb (AdwToast       *toast,
                VivaPackEditor *self)
{
  VivaProblem *problem = g_object_get_data (G_OBJECT (toast), "problem");
  guint position = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (toast), "position"));

  if (self->pack != g_object_get_data (G_OBJECT (toast), "pack"))
    return;

  _viva_pack_editor_sync_problem (self);
  viva_pack_insert_problem (self->pack, position, problem);
  _viva_pack_editor_set_dirty (self, TRUE);
  _viva_pack_editor_select_problem (self, problem);
}

static void
delete_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  VivaPackEditor *self = VIVA_PACK_EDITOR (widget);
  g_autoptr(VivaProblem) problem = g_object_ref (self->problem);
  g_autoptr(VivaProblem) next = NULL;
  g_autofree char *message = NULL;
  GListModel *problems = viva_pack_get_problems (self->pack);
  guint position = _viva_pack_editor_problem_position (self, problem);
  AdwToast *toast;
  guint n;

  _viva_pack_editor_sync_problem (self);
  viva_pack_remove_problem (self->pack, position);
  g_hash_table_remove (self->issues, problem);
  g_hash_table_remove (self->checks, problem);
  _viva_pack_editor_set_dirty (self, TRUE);

  n = g_list_model_get_n_items (problems);
  if (n > 0)
    next = g_list_model_get_item (problems, MIN (position, n - 1));
  self->problem = NULL;
  _viva_pack_editor_select_problem (self, next);

  message = g_strdup_printf (_("“%s” deleted"), viva_problem_get_title (problem));
  toast = adw_toast_new (message);
  /* Twice the default: a teacher reading a screen reader's announcement or
   * reaching the button by keyboard needs longer than a glance. */
  adw_toast_set_timeout (toast, 10);
  adw_toast_set_button_label (toast, _("Undo"));
  g_object_set_data_full (G_OBJECT (toast), "problem", g_object_ref (problem), g_object_unref);
  g_object_set_data_full (G_OBJECT (toast), "pack", g_object_ref (self->pack), g_object_unref);
  g_object_set_data (G_OBJECT (toast), "position", GUINT_TO_POINTER (position));
  g_signal_connect_object (toast, "button-clicked", G_CALLBACK (undo_delete_cb), self, 0);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

/* The list's actions and its template callback, installed by the class. */
void
_viva_pack_editor_list_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_callback (widget_class, problem_row_selected_cb);

  gtk_widget_class_install_action (widget_class, "editor.add", NULL, add_action);
  gtk_widget_class_install_action (widget_class, "editor.duplicate", NULL, duplicate_action);
  gtk_widget_class_install_action (widget_class, "editor.delete", NULL, delete_action);
  gtk_widget_class_install_action (widget_class, "editor.move-up", NULL, move_up_action);
  gtk_widget_class_install_action (widget_class, "editor.move-down", NULL, move_down_action);
}

/* viva-pack-editor-problem.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-markdown.h"
#include "viva-pack-editor-private.h"

/* The fields of the problem shown. Every edit is written back to the
 * VivaProblem at once (the tests and questions as a whole), so Save,
 * Validate and switching problems always see what is on screen. Loading a
 * problem sets `loading`, so filling the widgets is not an edit, and is
 * irreversible in the undo history of each buffer. */

#define PREVIEW_DELAY_MS 250

static void
set_buffer_text (GtkTextBuffer *buffer,
                 const char    *text)
{
  gtk_text_buffer_begin_irreversible_action (buffer);
  gtk_text_buffer_set_text (buffer, text ? text : "", -1);
  gtk_text_buffer_end_irreversible_action (buffer);
}

static char *
dup_buffer_text (GtkTextBuffer *buffer)
{
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

static gboolean
render_preview_cb (gpointer user_data)
{
  VivaPackEditor *self = user_data;
  g_autofree char *markdown = dup_buffer_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->description_view)));

  self->preview_source = 0;
  viva_markdown_render (gtk_text_view_get_buffer (self->preview_view), markdown);

  return G_SOURCE_REMOVE;
}

static void
schedule_preview (VivaPackEditor *self)
{
  g_clear_handle_id (&self->preview_source, g_source_remove);
  self->preview_source = g_timeout_add (PREVIEW_DELAY_MS, render_preview_cb, self);
}

static void
description_changed_cb (VivaPackEditor *self)
{
  schedule_preview (self);
  _viva_pack_editor_field_changed (self);
}

void
_viva_pack_editor_field_changed (VivaPackEditor *self)
{
  const char *old_title;
  g_autofree char *title = NULL;

  g_assert (VIVA_IS_PACK_EDITOR (self));

  if (self->loading || self->problem == NULL)
    return;

  old_title = viva_problem_get_title (self->problem);
  title = g_strdup (old_title);
  _viva_pack_editor_sync_problem (self);
  _viva_pack_editor_set_dirty (self, TRUE);

  /* The list shows titles and the number of tests. */
  if (g_strcmp0 (title, viva_problem_get_title (self->problem)) != 0)
    _viva_pack_editor_rebuild_list (self);
}

static void
remove_row_cb (GtkButton *button,
               gpointer   user_data)
{
  VivaPackEditor *self = VIVA_PACK_EDITOR (gtk_widget_get_root (GTK_WIDGET (button)));
  GtkWidget *row = user_data;

  gtk_box_remove (GTK_BOX (gtk_widget_get_parent (row)), row);
  _viva_pack_editor_field_changed (self);
  _viva_pack_editor_rebuild_list (self);
}

static GtkWidget *
delete_button_new (const char *label,
                   GtkWidget  *row)
{
  GtkWidget *button = gtk_button_new_from_icon_name ("user-trash-symbolic");

  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (button, "flat");
  gtk_widget_set_tooltip_text (button, label);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
  g_signal_connect (button, "clicked", G_CALLBACK (remove_row_cb), row);

  return button;
}

static GtkWidget *
card_new (void)
{
  GtkWidget *card = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);

  gtk_widget_add_css_class (card, "card");
  gtk_widget_add_css_class (card, "viva-pack-card");
  return card;
}

static GtkWidget *
append_test_row (VivaPackEditor *self,
                 const char     *name,
                 const char     *code)
{
  GtkWidget *card = card_new ();
  GtkWidget *header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *entry = gtk_entry_new ();
  GtkWidget *editor = g_object_new (VIVA_TYPE_EDITOR, NULL);
  GtkWidget *frame = gtk_frame_new (NULL);

  gtk_widget_set_margin_top (header, 10);
  gtk_widget_set_margin_start (header, 12);
  gtk_widget_set_margin_end (header, 6);
  gtk_widget_set_hexpand (entry, TRUE);
  gtk_entry_set_placeholder_text (GTK_ENTRY (entry), _("Test name, shown when it fails"));
  gtk_editable_set_text (GTK_EDITABLE (entry), name ? name : "");
  gtk_accessible_update_property (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Test name"), -1);
  gtk_box_append (GTK_BOX (header), entry);
  gtk_box_append (GTK_BOX (header), delete_button_new (_("Delete Test"), card));

  gtk_widget_set_size_request (editor, -1, 140);
  viva_editor_load_text (VIVA_EDITOR (editor), code ? code : "");
  gtk_accessible_update_property (GTK_ACCESSIBLE (viva_editor_get_view (VIVA_EDITOR (editor))),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Test code"), -1);
  gtk_frame_set_child (GTK_FRAME (frame), editor);
  gtk_widget_set_margin_start (frame, 12);
  gtk_widget_set_margin_end (frame, 12);
  gtk_widget_set_margin_bottom (frame, 12);

  gtk_box_append (GTK_BOX (card), header);
  gtk_box_append (GTK_BOX (card), frame);
  g_object_set_data (G_OBJECT (card), "name", entry);
  g_object_set_data (G_OBJECT (card), "code", editor);

  g_signal_connect_swapped (entry, "changed", G_CALLBACK (_viva_pack_editor_field_changed), self);
  g_signal_connect_swapped (viva_editor_get_buffer (VIVA_EDITOR (editor)), "changed",
                            G_CALLBACK (_viva_pack_editor_field_changed), self);
  gtk_box_append (self->tests_box, card);

  return editor;
}

static GtkWidget *
test_code_frame (VivaPackEditor *self,
                 GtkWidget      *card,
                 const char     *title,
                 const char     *label,
                 const char     *code,
                 int             height)
{
  GtkWidget *heading = gtk_label_new (title);
  GtkWidget *editor = g_object_new (VIVA_TYPE_EDITOR, NULL);
  GtkWidget *frame = gtk_frame_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (heading), 0);
  gtk_label_set_wrap (GTK_LABEL (heading), TRUE);
  gtk_widget_add_css_class (heading, "dim-label");
  gtk_widget_set_margin_start (heading, 12);
  gtk_widget_set_margin_end (heading, 12);
  gtk_widget_set_size_request (editor, -1, height);
  viva_editor_load_text (VIVA_EDITOR (editor), code ? code : "");
  gtk_accessible_update_property (GTK_ACCESSIBLE (viva_editor_get_view (VIVA_EDITOR (editor))),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
  gtk_frame_set_child (GTK_FRAME (frame), editor);
  gtk_widget_set_margin_start (frame, 12);
  gtk_widget_set_margin_end (frame, 12);
  gtk_widget_set_margin_bottom (frame, 8);
  gtk_box_append (GTK_BOX (card), heading);
  gtk_box_append (GTK_BOX (card), frame);
  g_signal_connect_swapped (viva_editor_get_buffer (VIVA_EDITOR (editor)), "changed",
                            G_CALLBACK (_viva_pack_editor_field_changed), self);
  return editor;
}

/* A structured test: setup, call and check, judged by the grader outside
 * the student's process. Comparing with the reference and its tolerance are
 * kept as they are (the pack file holds them). */
static void
append_structured_test_row (VivaPackEditor        *self,
                            const VivaProblemTest *test)
{
  GtkWidget *card = card_new ();
  GtkWidget *header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *entry = gtk_entry_new ();
  GtkWidget *call = gtk_entry_new ();
  GtkWidget *setup;
  GtkWidget *check;

  gtk_widget_set_margin_top (header, 10);
  gtk_widget_set_margin_start (header, 12);
  gtk_widget_set_margin_end (header, 6);
  gtk_widget_set_hexpand (entry, TRUE);
  gtk_entry_set_placeholder_text (GTK_ENTRY (entry), _("Test name, shown when it fails"));
  gtk_editable_set_text (GTK_EDITABLE (entry), test->name ? test->name : "");
  gtk_accessible_update_property (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Test name"), -1);
  gtk_box_append (GTK_BOX (header), entry);
  gtk_box_append (GTK_BOX (header), delete_button_new (_("Delete Test"), card));
  gtk_box_append (GTK_BOX (card), header);

  setup = test_code_frame (self, card, _("Setup: Python that builds the inputs"), _("Test setup"), test->setup, 80);

  gtk_entry_set_placeholder_text (GTK_ENTRY (call), _("Call: the expression whose value is checked"));
  gtk_editable_set_text (GTK_EDITABLE (call), test->call);
  gtk_accessible_update_property (GTK_ACCESSIBLE (call), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Test call"), -1);
  gtk_widget_set_margin_start (call, 12);
  gtk_widget_set_margin_end (call, 12);
  gtk_widget_set_margin_bottom (call, 8);
  gtk_box_append (GTK_BOX (card), call);

  check = test_code_frame (self, card, _("Check: assertions about result, run where no student code ran"),
                           _("Test check"), test->check, 100);

  g_object_set_data (G_OBJECT (card), "name", entry);
  g_object_set_data (G_OBJECT (card), "setup", setup);
  g_object_set_data (G_OBJECT (card), "call", call);
  g_object_set_data (G_OBJECT (card), "check", check);
  g_object_set_data (G_OBJECT (card), "compare", GINT_TO_POINTER (test->compare));
  g_object_set_data_full (G_OBJECT (card), "tolerance", g_memdup2 (&test->tolerance, sizeof test->tolerance), g_free);

  g_signal_connect_swapped (entry, "changed", G_CALLBACK (_viva_pack_editor_field_changed), self);
  g_signal_connect_swapped (call, "changed", G_CALLBACK (_viva_pack_editor_field_changed), self);
  gtk_box_append (self->tests_box, card);
}

static GtkWidget *
append_question_row (VivaPackEditor     *self,
                     const char         *question,
                     const char * const *points)
{
  GtkWidget *card = card_new ();
  GtkWidget *header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *question_frame = gtk_frame_new (NULL);
  GtkWidget *question_view = gtk_text_view_new ();
  GtkWidget *label = gtk_label_new (_("Points a good answer makes, one a line"));
  GtkWidget *frame = gtk_frame_new (NULL);
  GtkWidget *view = gtk_text_view_new ();
  g_autofree char *joined = points ? g_strjoinv ("\n", (char **)points) : g_strdup ("");

  gtk_widget_set_margin_top (header, 10);
  gtk_widget_set_margin_start (header, 12);
  gtk_widget_set_margin_end (header, 6);
  /* A question can take a few lines (a snippet, a scenario). */
  gtk_widget_set_hexpand (question_frame, TRUE);
  gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (question_view), GTK_WRAP_WORD_CHAR);
  gtk_text_view_set_accepts_tab (GTK_TEXT_VIEW (question_view), FALSE);
  gtk_text_view_set_top_margin (GTK_TEXT_VIEW (question_view), 6);
  gtk_text_view_set_bottom_margin (GTK_TEXT_VIEW (question_view), 6);
  gtk_text_view_set_left_margin (GTK_TEXT_VIEW (question_view), 8);
  gtk_text_view_set_right_margin (GTK_TEXT_VIEW (question_view), 8);
  gtk_widget_set_size_request (question_view, -1, 48);
  set_buffer_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (question_view)), question ? question : "");
  gtk_widget_set_tooltip_text (question_view, _("The question the examiner asks"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (question_view), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Question"), -1);
  gtk_frame_set_child (GTK_FRAME (question_frame), question_view);
  gtk_box_append (GTK_BOX (header), question_frame);
  gtk_box_append (GTK_BOX (header), delete_button_new (_("Delete Question"), card));

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "dim-label");
  gtk_widget_add_css_class (label, "caption");
  gtk_widget_set_margin_start (label, 12);

  gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (view), GTK_WRAP_WORD_CHAR);
  gtk_text_view_set_top_margin (GTK_TEXT_VIEW (view), 6);
  gtk_text_view_set_bottom_margin (GTK_TEXT_VIEW (view), 6);
  gtk_text_view_set_left_margin (GTK_TEXT_VIEW (view), 8);
  gtk_text_view_set_right_margin (GTK_TEXT_VIEW (view), 8);
  gtk_widget_set_size_request (view, -1, 64);
  set_buffer_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (view)), joined);
  gtk_accessible_update_property (GTK_ACCESSIBLE (view), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Expected points"), -1);
  gtk_frame_set_child (GTK_FRAME (frame), view);
  gtk_widget_set_margin_start (frame, 12);
  gtk_widget_set_margin_end (frame, 12);
  gtk_widget_set_margin_bottom (frame, 12);

  gtk_box_append (GTK_BOX (card), header);
  gtk_box_append (GTK_BOX (card), label);
  gtk_box_append (GTK_BOX (card), frame);
  g_object_set_data (G_OBJECT (card), "question", question_view);
  g_object_set_data (G_OBJECT (card), "points", view);

  g_signal_connect_swapped (gtk_text_view_get_buffer (GTK_TEXT_VIEW (question_view)), "changed",
                            G_CALLBACK (_viva_pack_editor_field_changed), self);
  g_signal_connect_swapped (gtk_text_view_get_buffer (GTK_TEXT_VIEW (view)), "changed",
                            G_CALLBACK (_viva_pack_editor_field_changed), self);
  gtk_box_append (self->questions_box, card);

  return question_view;
}

static void
clear_box (GtkBox *box)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (box))) != NULL)
    gtk_box_remove (box, child);
}

void
_viva_pack_editor_load_problem (VivaPackEditor *self,
                                VivaProblem    *problem)
{
  g_assert (VIVA_IS_PACK_EDITOR (self));

  self->problem = problem;
  if (problem == NULL)
    return;

  self->loading = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (self->title_row), viva_problem_get_title (problem) ?: "");
  gtk_editable_set_text (GTK_EDITABLE (self->id_row), viva_problem_get_id (problem) ?: "");
  {
    g_autofree char *slug = _viva_pack_editor_slugify (viva_problem_get_title (problem));

    /* A new problem's placeholder id, or one made from the title, follows
     * the title; an id of the teacher's own stays. */
    self->id_follows = g_strcmp0 (slug, viva_problem_get_id (problem)) == 0 ||
                       g_regex_match_simple ("^problem(-[0-9]+)?$", viva_problem_get_id (problem), 0, 0);
  }
  adw_combo_row_set_selected (self->type_row, viva_problem_get_problem_type (problem));
  gtk_spin_button_set_value (self->time_spin, viva_problem_get_time_limit (problem));
  set_buffer_text (gtk_text_view_get_buffer (self->hint_view), viva_problem_get_hint (problem));
  set_buffer_text (gtk_text_view_get_buffer (self->rubric_view), viva_problem_get_rubric (problem));
  set_buffer_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->description_view)),
                   viva_problem_get_description (problem));
  viva_editor_load_text (self->starter_editor, viva_problem_get_starter_code (problem) ?: "");
  viva_editor_load_text (self->reference_editor, viva_problem_get_reference (problem) ?: "");

  clear_box (self->tests_box);
  for (guint i = 0; i < viva_problem_get_n_tests (problem); i++)
    {
      const VivaProblemTest *test = viva_problem_get_test (problem, i);

      if (viva_problem_test_is_structured (test))
        append_structured_test_row (self, test);
      else
        append_test_row (self, test->name, test->code);
    }

  clear_box (self->questions_box);
  for (guint i = 0; i < viva_problem_get_n_questions (problem); i++)
    append_question_row (self, viva_problem_get_question (problem, i)->question,
                         (const char * const *)viva_problem_get_question (problem, i)->points);
  self->loading = FALSE;

  g_clear_handle_id (&self->preview_source, g_source_remove);
  render_preview_cb (self);
  _viva_pack_editor_show_results (self);
}

/* Whitespace alone is no value: the format wants an optional field absent. */
static char *
empty_to_null (char *text)
{
  g_autofree char *copy = g_strstrip (g_strdup (text ? text : ""));

  if (copy[0] != '\0')
    return text;

  g_free (text);
  return NULL;
}

void
_viva_pack_editor_sync_problem (VivaPackEditor *self)
{
  VivaProblem *problem = self->problem;
  g_autofree char *hint = NULL;
  g_autofree char *rubric = NULL;
  g_autofree char *description = NULL;
  g_autofree char *starter = NULL;
  g_autofree char *reference = NULL;

  g_assert (VIVA_IS_PACK_EDITOR (self));

  if (problem == NULL || self->loading)
    return;

  hint = dup_buffer_text (gtk_text_view_get_buffer (self->hint_view));
  rubric = dup_buffer_text (gtk_text_view_get_buffer (self->rubric_view));
  description = dup_buffer_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->description_view)));
  starter = viva_editor_dup_text (self->starter_editor);
  reference = viva_editor_dup_text (self->reference_editor);

  viva_problem_set_title (problem, gtk_editable_get_text (GTK_EDITABLE (self->title_row)));
  viva_problem_set_problem_type (problem, adw_combo_row_get_selected (self->type_row));
  viva_problem_set_time_limit (problem, gtk_spin_button_get_value_as_int (self->time_spin));
  viva_problem_set_hint (problem, hint);
  rubric = empty_to_null (g_steal_pointer (&rubric));
  viva_problem_set_rubric (problem, rubric);
  viva_problem_set_description (problem, description);
  viva_problem_set_starter_code (problem, starter);
  viva_problem_set_reference (problem, reference);

  viva_problem_clear_tests (problem);
  for (GtkWidget *card = gtk_widget_get_first_child (GTK_WIDGET (self->tests_box));
       card != NULL; card = gtk_widget_get_next_sibling (card))
    {
      const char *name = gtk_editable_get_text (g_object_get_data (G_OBJECT (card), "name"));

      if (g_object_get_data (G_OBJECT (card), "call") != NULL)
        {
          g_autofree char *setup = viva_editor_dup_text (g_object_get_data (G_OBJECT (card), "setup"));
          g_autofree char *check = viva_editor_dup_text (g_object_get_data (G_OBJECT (card), "check"));
          const double *tolerance = g_object_get_data (G_OBJECT (card), "tolerance");

          viva_problem_add_structured_test (problem, name, setup,
                                            gtk_editable_get_text (g_object_get_data (G_OBJECT (card), "call")),
                                            check,
                                            GPOINTER_TO_INT (g_object_get_data (G_OBJECT (card), "compare")),
                                            *tolerance);
        }
      else
        {
          g_autofree char *code = viva_editor_dup_text (g_object_get_data (G_OBJECT (card), "code"));

          viva_problem_add_test (problem, name, code);
        }
    }

  viva_problem_clear_questions (problem);
  for (GtkWidget *card = gtk_widget_get_first_child (GTK_WIDGET (self->questions_box));
       card != NULL; card = gtk_widget_get_next_sibling (card))
    {
      g_autofree char *text = dup_buffer_text (gtk_text_view_get_buffer (g_object_get_data (G_OBJECT (card), "points")));
      g_autofree char *question = dup_buffer_text (gtk_text_view_get_buffer (g_object_get_data (G_OBJECT (card), "question")));
      g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
      g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
      g_auto(GStrv) points = NULL;

      for (guint i = 0; lines[i] != NULL; i++)
        if (g_strstrip (lines[i])[0] != '\0')
          g_strv_builder_add (builder, lines[i]);
      points = g_strv_builder_end (builder);
      viva_problem_add_question (problem, g_strstrip (question), (const char * const *)points);
    }
}

void
_viva_pack_editor_add_test (VivaPackEditor *self)
{
  g_autofree char *name = g_strdup_printf (_("test %u"), viva_problem_get_n_tests (self->problem) + 1);
  GtkWidget *editor = append_test_row (self, name, "");

  _viva_pack_editor_field_changed (self);
  _viva_pack_editor_rebuild_list (self);
  /* Straight to the new test's code, so Space does not add another. */
  gtk_widget_grab_focus (editor);
}

void
_viva_pack_editor_add_question (VivaPackEditor *self)
{
  GtkWidget *question = append_question_row (self, "", NULL);

  _viva_pack_editor_field_changed (self);
  gtk_widget_grab_focus (question);
}

/* Renaming makes a new problem with the new id in the same place: a
 * problem's id is fixed once made, since saved code is filed under it. */
void
_viva_pack_editor_apply_id (VivaPackEditor *self)
{
  const char *wanted = gtk_editable_get_text (GTK_EDITABLE (self->id_row));
  g_autoptr(VivaProblem) renamed = NULL;
  GListModel *problems;
  guint position;

  if (self->problem == NULL || g_strcmp0 (wanted, viva_problem_get_id (self->problem)) == 0)
    return;

  if (!g_regex_match_simple ("^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$", wanted, 0, 0) ||
      viva_pack_find_problem (self->pack, wanted) != NULL)
    {
      _viva_pack_editor_toast (self, viva_pack_find_problem (self->pack, wanted) != NULL
                                       ? _("Another problem of the pack has that id; choose another.")
                                       : _("An id takes letters, digits, “-”, “_” and “.”, and does not start with a dot."));
      self->loading = TRUE;
      gtk_editable_set_text (GTK_EDITABLE (self->id_row), viva_problem_get_id (self->problem));
      self->loading = FALSE;
      return;
    }

  _viva_pack_editor_sync_problem (self);
  problems = viva_pack_get_problems (self->pack);
  g_list_store_find (G_LIST_STORE (problems), self->problem, &position);

  renamed = _viva_pack_editor_copy_problem (self->problem, wanted, viva_problem_get_title (self->problem));

  g_hash_table_remove (self->issues, self->problem);
  g_hash_table_remove (self->checks, self->problem);
  self->problem = NULL;
  viva_pack_remove_problem (self->pack, position);
  viva_pack_insert_problem (self->pack, position, renamed);
  _viva_pack_editor_set_dirty (self, TRUE);
  _viva_pack_editor_select_problem (self, renamed);
}

static GtkWidget *
result_row_new (const char *icon_name,
                const char *style,
                const char *title,
                const char *subtitle)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *icon = gtk_image_new_from_icon_name (icon_name);

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 4);
  gtk_widget_add_css_class (icon, style);
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), icon);

  return row;
}

/* The grader's sentence (“The test failed: message”), or “AssertionError:
 * message — line 3”, leaving out what is unknown. */
char *
_viva_pack_editor_describe_failure (const VivaPackCheck *check)
{
  GString *text;

  /* Checks come from the grader, whose message is a whole sentence. */
  if (check->error_message != NULL && check->error_message[0] != '\0' && check->error_line <= 0)
    return g_strdup (check->error_message);

  text = g_string_new (check->error_type ? check->error_type
                                         : viva_run_status_to_string (check->status));
  if (check->error_message != NULL && check->error_message[0] != '\0')
    g_string_append_printf (text, ": %s", check->error_message);
  if (check->error_line > 0)
    /* TRANSLATORS: follows an error, like “NameError: name 'x' is not defined” */
    g_string_append_printf (text, _(" — line %d"), check->error_line);

  return g_string_free (text, FALSE);
}

/* The Validation tab of the problem shown: its format errors, then one row
 * per run, reference first. */
void
_viva_pack_editor_show_results (VivaPackEditor *self)
{
  GPtrArray *issues = self->problem ? g_hash_table_lookup (self->issues, self->problem) : NULL;
  GPtrArray *checks = self->problem ? g_hash_table_lookup (self->checks, self->problem) : NULL;
  guint n_errors = issues ? viva_pack_issues_count_errors (issues) : 0;
  g_autofree char *summary = NULL;
  GtkWidget *child;

  while ((child = GTK_WIDGET (gtk_list_box_get_row_at_index (self->results_list, 0))) != NULL)
    gtk_list_box_remove (self->results_list, child);

  for (guint i = 0; issues && i < issues->len; i++)
    {
      const VivaPackIssue *issue = g_ptr_array_index (issues, i);

      gtk_list_box_append (self->results_list,
                           result_row_new ("dialog-error-symbolic", "error",
                                           issue->path[0] ? issue->path : _("Problem"), issue->message));
    }

  for (guint i = 0; checks && i < checks->len; i++)
    {
      const VivaPackCheck *check = g_ptr_array_index (checks, i);
      gboolean reference = check->subject == VIVA_PACK_CHECK_REFERENCE;
      g_autofree char *title = NULL;
      g_autofree char *subtitle = NULL;
      g_autofree char *failure = check->passed ? NULL : _viva_pack_editor_describe_failure (check);

      title = g_strdup_printf (reference ? _("Reference solution · test “%s”") : _("Starter code · test “%s”"),
                               check->test_name);
      /* Each row says whether the outcome is the one wanted, in words: a
       * starter code that fails a test is right, and a tick beside
       * “Failed” alone read as a contradiction. */
      if (reference && check->passed)
        subtitle = g_strdup_printf (_("Passed in %.0f ms, as it should"), check->duration_ms);
      else if (reference)
        subtitle = g_strdup_printf (_("Failed, and the reference solution must pass: %s"), failure);
      else if (!check->passed)
        subtitle = g_strdup_printf (_("Fails, as it should: it leaves work to do (%s)"), failure);
      else
        subtitle = g_strdup (_("Already passes with the starter code: this test asks nothing of the student"));

      gtk_list_box_append (self->results_list,
                           result_row_new (check->passed == reference ? "emblem-ok-symbolic"
                                           : reference ? "dialog-error-symbolic" : "dialog-information-symbolic",
                                           check->passed == reference ? "success" : reference ? "error" : "dim-label",
                                           title, subtitle));
    }

  gtk_widget_set_visible (GTK_WIDGET (self->results_list),
                          gtk_list_box_get_row_at_index (self->results_list, 0) != NULL);

  if (self->validating)
    summary = g_strdup (_("Running the reference solutions and starter codes…"));
  else if (issues == NULL && checks == NULL)
    summary = g_strdup (_("Not validated yet. Validate runs each reference solution and starter code against every test in the sandboxed worker."));
  else if (n_errors > 0)
    summary = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                            "This problem has %u error; fix it before students get the pack.",
                                            "This problem has %u errors; fix them before students get the pack.",
                                            n_errors),
                               n_errors);
  else
    summary = g_strdup (_("This problem passes its checks: the reference solution passes every test, and the starter code leaves work to do."));
  gtk_label_set_text (self->validation_summary, summary);
}

void
_viva_pack_editor_problem_init (VivaPackEditor *self)
{
  GtkSourceLanguageManager *languages = gtk_source_language_manager_get_default ();
  GtkSourceLanguage *markdown = gtk_source_language_manager_get_language (languages, "markdown");
  GtkSourceBuffer *description = GTK_SOURCE_BUFFER (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->description_view)));

  if (markdown != NULL)
    gtk_source_buffer_set_language (description, markdown);

  gtk_accessible_update_property (GTK_ACCESSIBLE (viva_editor_get_view (self->starter_editor)),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Starter code"), -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (viva_editor_get_view (self->reference_editor)),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Reference solution"), -1);

  g_signal_connect_swapped (description, "changed", G_CALLBACK (description_changed_cb), self);
  g_signal_connect_swapped (gtk_text_view_get_buffer (self->hint_view), "changed",
                            G_CALLBACK (_viva_pack_editor_field_changed), self);
  g_signal_connect_swapped (gtk_text_view_get_buffer (self->rubric_view), "changed",
                            G_CALLBACK (_viva_pack_editor_field_changed), self);
  g_signal_connect_swapped (viva_editor_get_buffer (self->starter_editor), "changed",
                            G_CALLBACK (_viva_pack_editor_field_changed), self);
  g_signal_connect_swapped (viva_editor_get_buffer (self->reference_editor), "changed",
                            G_CALLBACK (_viva_pack_editor_field_changed), self);
}

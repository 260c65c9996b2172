/* viva-class-results-window-review.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "viva-class-results-window-private.h"

/* The review queue and the calibration page of Class Results. The queue
 * lists what needs the teacher's look: each verdict item marked "needs
 * review" (its scorings spread, or no judge could score it), and each
 * defense that is provisional or flagged with no such item, to be scored
 * whole. The teacher sets the item's points (or the defense's score and
 * verdict) with a note; the score goes to the teacher's own data
 * (VivaTeacherScores, $XDG_DATA_HOME/viva/teacher-scores.json), beside
 * Viva's, never into the report folder, which students write. The
 * calibration page computes what `viva-cli calibrate` does, over the
 * defenses the teacher scored here. */

typedef struct
{
  VivaClassResultsWindow *window;   /* unowned: the row lives in its list */
  VivaClassReport        *report;
  char                   *item_id;  /* NULL: the whole defense */
  double                  max_points;
  GtkSpinButton          *spin;
  AdwEntryRow            *note_row;
  AdwComboRow            *verdict_row;
  GtkLabel               *yours_label;
  GtkWidget              *clear_button;
} ReviewRow;

static void
review_row_free (gpointer data)
{
  ReviewRow *row = data;

  g_clear_object (&row->report);
  g_free (row->item_id);
  g_free (row);
}

static const char *
student_of (VivaClassReport *report)
{
  const char *name = viva_class_report_get_student_name (report);

  return name[0] != '\0' ? name : viva_class_report_get_student_id (report);
}

static char *
format_points (double points)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  return g_strdup (g_ascii_formatd (buffer, sizeof buffer, "%.4g", points));
}

/* The row's "yours" label and fields, from the teacher's scores. */
static void
update_row (ReviewRow *row)
{
  VivaTeacherScores *scores = row->window->teacher_scores;
  const VivaTeacherScore *score;
  g_autofree char *text = NULL;

  score = viva_teacher_scores_lookup (scores, viva_class_report_get_student_id (row->report),
                                      viva_class_report_get_problem_id (row->report),
                                      viva_class_report_get_session (row->report), row->item_id);
  if (score == NULL)
    {
      gtk_label_set_text (row->yours_label, _("Not reviewed"));
      gtk_widget_remove_css_class (GTK_WIDGET (row->yours_label), "success");
      gtk_widget_set_sensitive (row->clear_button, FALSE);
      return;
    }

  if (row->item_id != NULL)
    {
      g_autofree char *points = format_points (score->score);
      g_autofree char *max = format_points (row->max_points);

      /* Translators: the teacher's own points for an item, e.g. "Yours: 8 of 10" */
      text = g_strdup_printf (_("Yours: %s of %s"), points, max);
    }
  else
    {
      g_autofree char *points = format_points (score->score);

      /* Translators: the teacher's own score of a defense, e.g. "Yours: 80" */
      text = g_strdup_printf (_("Yours: %s"), points);
    }
  gtk_label_set_text (row->yours_label, text);
  gtk_widget_add_css_class (GTK_WIDGET (row->yours_label), "success");
  gtk_widget_set_sensitive (row->clear_button, TRUE);
  gtk_spin_button_set_value (row->spin, score->score);
  gtk_editable_set_text (GTK_EDITABLE (row->note_row), score->note != NULL ? score->note : "");
  if (row->verdict_row != NULL)
    adw_combo_row_set_selected (row->verdict_row, score->verdict == VIVA_CALIBRATION_PASS ? 1
                                                  : score->verdict == VIVA_CALIBRATION_FAIL ? 2 : 0);
}

static void
saved_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(VivaClassResultsWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!viva_teacher_scores_save_finish (VIVA_TEACHER_SCORES (object), result, &error))
    {
      g_autofree char *message = g_strdup_printf (_("Your scores could not be saved: %s"), error->message);

      _viva_class_results_window_toast (self, message);
      return;
    }

  _viva_class_results_window_toast (self, _("Your score is saved beside Viva’s."));
}

static void
save_scores (VivaClassResultsWindow *self)
{
  g_autoptr(GFile) file = viva_teacher_scores_default_file ();

  viva_teacher_scores_save_async (self->teacher_scores, file, self->cancellable, saved_cb, g_object_ref (self));
}

static void
save_clicked_cb (GtkButton *button,
                 ReviewRow *row)
{
  VivaCalibrationVerdict verdict = VIVA_CALIBRATION_UNKNOWN;

  gtk_spin_button_update (row->spin);
  if (row->verdict_row != NULL)
    {
      guint selected = adw_combo_row_get_selected (row->verdict_row);

      verdict = selected == 1 ? VIVA_CALIBRATION_PASS : selected == 2 ? VIVA_CALIBRATION_FAIL : VIVA_CALIBRATION_UNKNOWN;
    }

  viva_teacher_scores_set (row->window->teacher_scores,
                           viva_class_report_get_student_id (row->report),
                           viva_class_report_get_problem_id (row->report),
                           viva_class_report_get_session (row->report), row->item_id,
                           gtk_spin_button_get_value (row->spin), verdict,
                           gtk_editable_get_text (GTK_EDITABLE (row->note_row)));
  save_scores (row->window);
}

static void
clear_clicked_cb (GtkButton *button,
                  ReviewRow *row)
{
  if (viva_teacher_scores_remove (row->window->teacher_scores,
                                  viva_class_report_get_student_id (row->report),
                                  viva_class_report_get_problem_id (row->report),
                                  viva_class_report_get_session (row->report), row->item_id))
    save_scores (row->window);
}

/* A row of the expander that is only a holder: not activatable, and not a
 * stop of its own for Tab, so the keyboard goes from the note straight to
 * the buttons. */
static GtkWidget *
plain_row (GtkWidget *child)
{
  GtkWidget *row = gtk_list_box_row_new ();

  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), child);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_widget_set_focusable (row, FALSE);

  return row;
}

static GtkWidget *
wrapped_label (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_widget_set_margin_start (label, 12);
  gtk_widget_set_margin_end (label, 12);
  gtk_widget_set_margin_top (label, 8);
  gtk_widget_set_margin_bottom (label, 8);

  return label;
}

/* What Viva said of the item: the answer, the words the scorer relied on,
 * the k scorings and why. */
static char *
describe_item (const VivaExamItem *item)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *points = format_points (item->points);
  g_autofree char *max = format_points (item->max_points);

  if (item->answer != NULL)
    g_string_append_printf (text, _("Answer: %s"), item->answer);
  if (item->evidence != NULL && item->evidence->len > 0)
    {
      g_autoptr(GString) words = g_string_new (NULL);

      for (guint i = 0; i < item->evidence->len; i++)
        g_string_append_printf (words, "%s“%s”", i ? ", " : "", (char *)g_ptr_array_index (item->evidence, i));
      g_string_append (text, text->len ? "\n" : "");
      g_string_append_printf (text, _("Relied on: %s"), words->str);
    }
  if (item->scores != NULL && item->scores->len > 0)
    {
      g_autoptr(GString) list = g_string_new (NULL);

      for (guint i = 0; i < item->scores->len; i++)
        {
          g_autofree char *one = format_points (g_array_index (item->scores, double, i));

          g_string_append_printf (list, "%s%s", i ? ", " : "", one);
        }
      g_string_append (text, text->len ? "\n" : "");
      /* Translators: "Viva gave 4 of 10 (its scorings: 2, 4, 9)" */
      g_string_append_printf (text, _("Viva gave %s of %s (its scorings: %s)"), points, max, list->str);
    }
  if (item->reason != NULL)
    {
      g_string_append (text, text->len ? "\n" : "");
      g_string_append (text, item->reason);
    }

  return g_string_free (g_steal_pointer (&text), FALSE);
}

static GtkWidget *
new_review_row (VivaClassResultsWindow *self,
                VivaClassReport        *report,
                const VivaExamItem     *item)
{
  ReviewRow *row = g_new0 (ReviewRow, 1);
  GtkWidget *expander = adw_expander_row_new ();
  GtkWidget *score_row = adw_action_row_new ();
  GtkWidget *actions = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *save = gtk_button_new_with_label (_("Save Score"));
  g_autofree char *title = NULL;
  g_autofree char *subtitle = NULL;
  g_autofree char *spin_name = NULL;
  g_autofree char *details = NULL;

  row->window = self;
  row->report = g_object_ref (report);
  row->item_id = item != NULL ? g_strdup (item->id) : NULL;
  row->max_points = item != NULL ? MAX (0, item->max_points) : 100;

  if (item != NULL)
    {
      g_autofree char *points = format_points (item->points);
      g_autofree char *max = format_points (item->max_points);

      /* Translators: "Ana Lima — k-nearest neighbours: Why sort by distance?" */
      title = g_strdup_printf (_("%s — %s: %s"), student_of (report), viva_class_report_get_problem_title (report),
                               item->title != NULL ? item->title : item->id);
      subtitle = g_strdup_printf (_("Needs review: Viva gave %s of %s"), points, max);
      details = describe_item (item);
      /* Translators: the spin button's accessible name */
      spin_name = g_strdup_printf (_("Your points for “%s”"), item->title != NULL ? item->title : item->id);
    }
  else
    {
      g_autofree char *score = g_strdup_printf ("%.0f", MAX (0, viva_class_report_get_score (report)));
      const char *note = viva_class_report_get_note (report);

      title = g_strdup_printf (_("%s — %s: the whole defense"), student_of (report), viva_class_report_get_problem_title (report));
      subtitle = viva_class_report_get_provisional (report)
        ? g_strdup_printf (_("Provisional: Viva gave %s"), score)
        : g_strdup_printf (_("Flagged %s: Viva gave %s"), viva_class_report_get_flags (report), score);
      details = g_strdup (note[0] != '\0' ? note : "");
      spin_name = g_strdup (_("Your score for the defense"));
    }

  /* Titles are markup in an AdwPreferencesRow; the report's text is not. */
  {
    g_autofree char *escaped_title = g_markup_escape_text (title, -1);
    g_autofree char *escaped_subtitle = g_markup_escape_text (subtitle, -1);

    adw_preferences_row_set_title (ADW_PREFERENCES_ROW (expander), escaped_title);
    adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (expander), escaped_subtitle);
  }

  row->yours_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_set_valign (GTK_WIDGET (row->yours_label), GTK_ALIGN_CENTER);
  adw_expander_row_add_action (ADW_EXPANDER_ROW (expander), GTK_WIDGET (row->yours_label));

  if (details[0] != '\0')
    adw_expander_row_add_row (ADW_EXPANDER_ROW (expander), plain_row (wrapped_label (details)));

  row->spin = GTK_SPIN_BUTTON (gtk_spin_button_new_with_range (0, row->max_points, item != NULL ? 0.5 : 1));
  gtk_spin_button_set_digits (row->spin, item != NULL ? 2 : 0);
  gtk_spin_button_set_value (row->spin, item != NULL ? item->points : MAX (0, viva_class_report_get_score (report)));
  gtk_widget_set_valign (GTK_WIDGET (row->spin), GTK_ALIGN_CENTER);
  gtk_accessible_update_property (GTK_ACCESSIBLE (row->spin), GTK_ACCESSIBLE_PROPERTY_LABEL, spin_name, -1);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (score_row), item != NULL ? _("Your points") : _("Your score"));
  adw_action_row_add_suffix (ADW_ACTION_ROW (score_row), GTK_WIDGET (row->spin));
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (score_row), GTK_WIDGET (row->spin));
  adw_expander_row_add_row (ADW_EXPANDER_ROW (expander), score_row);

  if (item == NULL)
    {
      const char *verdicts[] = { N_("No verdict"), N_("Pass"), N_("Fail"), NULL };
      g_autoptr(GtkStringList) model = gtk_string_list_new (NULL);

      for (guint i = 0; verdicts[i] != NULL; i++)
        gtk_string_list_append (model, _(verdicts[i]));
      row->verdict_row = ADW_COMBO_ROW (adw_combo_row_new ());
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row->verdict_row), _("Your verdict"));
      adw_combo_row_set_model (row->verdict_row, G_LIST_MODEL (model));
      adw_expander_row_add_row (ADW_EXPANDER_ROW (expander), GTK_WIDGET (row->verdict_row));
    }

  row->note_row = ADW_ENTRY_ROW (adw_entry_row_new ());
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row->note_row), _("Your note"));
  adw_expander_row_add_row (ADW_EXPANDER_ROW (expander), GTK_WIDGET (row->note_row));

  row->clear_button = gtk_button_new_with_label (_("Remove Your Score"));
  gtk_widget_set_halign (actions, GTK_ALIGN_END);
  gtk_widget_set_margin_top (actions, 8);
  gtk_widget_set_margin_bottom (actions, 8);
  gtk_widget_set_margin_end (actions, 12);
  gtk_widget_add_css_class (save, "suggested-action");
  gtk_box_append (GTK_BOX (actions), row->clear_button);
  gtk_box_append (GTK_BOX (actions), save);
  adw_expander_row_add_row (ADW_EXPANDER_ROW (expander), plain_row (actions));

  g_signal_connect (save, "clicked", G_CALLBACK (save_clicked_cb), row);
  g_signal_connect (row->clear_button, "clicked", G_CALLBACK (clear_clicked_cb), row);
  g_object_set_data_full (G_OBJECT (expander), "viva-review-row", row, review_row_free);
  update_row (row);

  return expander;
}

static void
update_calibration (VivaClassResultsWindow *self)
{
  g_autoptr(VivaCalibration) calibration = viva_class_results_calibrate (self->results);
  g_autofree char *count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u defense scored by both Viva and you",
                                                         "%u defenses scored by both Viva and you",
                                                         viva_calibration_get_n (calibration)),
                                            viva_calibration_get_n (calibration));
  char *sentences[] = {
    count,
    viva_calibration_describe_icc (calibration),
    viva_calibration_describe_kappa (calibration),
    viva_calibration_describe_difference (calibration),
  };
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->calibration_list))) != NULL)
    gtk_list_box_remove (self->calibration_list, child);

  for (guint i = 0; i < G_N_ELEMENTS (sentences); i++)
    {
      GtkWidget *row = adw_action_row_new ();
      g_autofree char *escaped = g_markup_escape_text (sentences[i], -1);

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), escaped);
      gtk_list_box_append (self->calibration_list, row);
      if (i > 0)
        g_free (sentences[i]);
    }
}

static void
teacher_changed_cb (VivaClassResultsWindow *self)
{
  GtkWidget *child;

  for (child = gtk_widget_get_first_child (GTK_WIDGET (self->review_list));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      ReviewRow *row = g_object_get_data (G_OBJECT (child), "viva-review-row");

      if (row != NULL)
        update_row (row);
    }

  update_calibration (self);
}

/**
 * _viva_class_results_window_rebuild_review:
 *
 * Lists what needs the teacher's look, after the reports were collected.
 */
void
_viva_class_results_window_rebuild_review (VivaClassResultsWindow *self)
{
  GListModel *reports = viva_class_results_get_reports (self->results);
  GtkWidget *child;
  guint n_items = 0, n_defenses = 0;
  g_autofree char *summary = NULL;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->review_list))) != NULL)
    gtk_list_box_remove (self->review_list, child);

  for (guint i = 0; i < g_list_model_get_n_items (reports); i++)
    {
      g_autoptr(VivaClassReport) report = g_list_model_get_item (reports, i);
      GPtrArray *items;
      guint added = 0;

      /* A score is the teacher's for a student: a report naming none
       * cannot take one. */
      if (!viva_class_report_get_readable (report) || viva_class_report_get_student_id (report)[0] == '\0')
        continue;

      items = viva_class_report_get_items (report);
      for (guint j = 0; j < items->len; j++)
        {
          const VivaExamItem *item = g_ptr_array_index (items, j);

          if (!item->needs_review)
            continue;
          gtk_list_box_append (self->review_list, new_review_row (self, report, item));
          added++;
        }
      n_items += added;

      if (added == 0 && (viva_class_report_get_provisional (report) || viva_class_report_get_flags (report)[0] != '\0'))
        {
          gtk_list_box_append (self->review_list, new_review_row (self, report, NULL));
          n_defenses++;
        }
    }

  if (n_items + n_defenses == 0)
    summary = g_strdup (_("Nothing needs your look: no item needs review and no defense is provisional or flagged."));
  else
    {
      g_autofree char *items = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u item needs review", "%u items need review", n_items),
                                                n_items);
      g_autofree char *defenses = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u defense is provisional or flagged",
                                                                "%u defenses are provisional or flagged", n_defenses),
                                                   n_defenses);

      /* Translators: "1 item needs review; 2 defenses are provisional or flagged. …" */
      summary = g_strdup_printf (_("%s; %s. Your scores are kept beside Viva’s, in your own data, and the exports use them."),
                                 items, defenses);
    }
  gtk_label_set_text (self->review_summary_label, summary);

  update_calibration (self);
}

static void
loaded_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(VivaClassResultsWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!viva_teacher_scores_load_finish (VIVA_TEACHER_SCORES (object), result, &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    _viva_class_results_window_toast (self, error->message);
}

/**
 * _viva_class_results_window_review_init:
 *
 * Gives the window the teacher's scores, read off the main loop.
 */
void
_viva_class_results_window_review_init (VivaClassResultsWindow *self)
{
  g_autoptr(GFile) file = viva_teacher_scores_default_file ();

  self->teacher_scores = viva_teacher_scores_new ();
  viva_class_results_set_teacher_scores (self->results, self->teacher_scores);
  g_signal_connect_object (self->teacher_scores, "changed", G_CALLBACK (teacher_changed_cb), self, G_CONNECT_SWAPPED);
  viva_teacher_scores_load_async (self->teacher_scores, file, self->cancellable, loaded_cb, g_object_ref (self));
  update_calibration (self);
}

/* viva-class-results-window.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-application.h"
#include "viva-class-results-window-private.h"
#include "viva-exam-report.h"
#include "viva-file-writer.h"
#include "viva-show.h"

/* Class Results, in teacher mode: a folder of reports as a table of
 * students and problems (sortable, filterable; a row opens its report in
 * the browser), what the class failed most, re-grading on this machine
 * with progress, and the exports. Reading runs in a thread and re-grading
 * in worker processes, so the window stays live throughout; the collection
 * itself is VivaClassResults, shared with viva-cli class collect. */

typedef enum
{
  COLUMN_STUDENT,
  COLUMN_ID,
  COLUMN_PROBLEM,
  COLUMN_VERDICT,
  COLUMN_SCORE,
  COLUMN_HIDDEN,
  COLUMN_REGRADED,
  COLUMN_TIME,
  COLUMN_HINTS,
  COLUMN_FLAGS,
} Column;

G_DEFINE_FINAL_TYPE (VivaClassResultsWindow, viva_class_results_window, ADW_TYPE_APPLICATION_WINDOW)

static void
update_actions (VivaClassResultsWindow *self)
{
  gboolean busy = viva_class_results_get_busy (self->results);
  gboolean any = g_list_model_get_n_items (viva_class_results_get_reports (self->results)) > 0;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "class.open", !busy);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "class.regrade",
                                 any && !busy && !_viva_class_results_window_server_regrading (self));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "class.stop", busy && self->regrade_cancellable != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "class.export-csv", any && !busy);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "class.export-gradebook", any && !busy);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "class.export-html", any && !busy);
}

void
_viva_class_results_window_toast (VivaClassResultsWindow *self,
                                  const char             *message)
{
  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (message));
}

/* The table */

static char *
cell_text (VivaClassReport *report,
           Column           column)
{
  const char *verdict;
  char *how;

  switch (column)
    {
    case COLUMN_STUDENT:
      /* A file that is not a readable report, or a report that names no
       * student, is named by its file; the tooltip says why. */
      if (viva_class_report_get_readable (report) && viva_class_report_get_student_name (report)[0] != '\0')
        return g_strdup (viva_class_report_get_student_name (report));
      else
        {
          g_autofree char *file = g_path_get_basename (viva_class_report_get_path (report));

          if (!viva_class_report_get_readable (report))
            return g_steal_pointer (&file);
          /* Translators: a report that names no student, shown by its file name */
          return g_strdup_printf (_("No name — %s"), file);
        }
    case COLUMN_ID: return g_strdup (viva_class_report_get_student_id (report));
    case COLUMN_PROBLEM: return g_strdup (viva_class_report_get_problem_title (report));
    case COLUMN_VERDICT:
      verdict = viva_class_report_get_verdict (report);
      return g_strdup (g_str_equal (verdict, "pass") ? _("Passed") : g_str_equal (verdict, "fail") ? _("Failed") :
                       viva_class_report_get_readable (report) ? _("No verdict") : _("Unreadable"));
    case COLUMN_SCORE:
      /* With a hint cost the cell shows the sum, final score last; the
       * teacher's own score stands beside Viva's. */
      if ((how = viva_class_report_describe_score (report)) == NULL)
        how = viva_class_report_get_score (report) >= 0 ? g_strdup_printf ("%.0f", viva_class_report_get_score (report)) : g_strdup ("");
      if (viva_class_report_get_teacher_score (report) >= 0)
        {
          g_autofree char *viva = how;

          /* Translators: Viva's score, then the teacher's, e.g. "75 (yours: 80)" */
          how = g_strdup_printf (_("%s (yours: %.0f)"), viva, viva_class_report_get_teacher_score (report));
        }
      return how;
    case COLUMN_HIDDEN:
      return viva_class_report_get_hidden_total (report) >= 0
        ? g_strdup_printf ("%d/%d", viva_class_report_get_hidden_passed (report), viva_class_report_get_hidden_total (report))
        : g_strdup ("");
    case COLUMN_REGRADED:
      return viva_class_report_get_regraded_total (report) >= 0
        ? g_strdup_printf ("%d/%d", viva_class_report_get_regraded_passed (report), viva_class_report_get_regraded_total (report))
        : g_strdup ("");
    case COLUMN_TIME: return viva_class_report_describe_time (report);
    case COLUMN_HINTS: return g_strdup_printf ("%u", viva_class_report_get_hints (report));
    case COLUMN_FLAGS:
    default:
      return g_strdup (viva_class_report_get_flags (report));
    }
}

static void
refresh_cell (GtkListItem *item)
{
  VivaClassReport *report = gtk_list_item_get_item (item);
  Column column = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (item), "viva-column"));
  GtkLabel *label = GTK_LABEL (gtk_list_item_get_child (item));
  g_autofree char *text = NULL;

  if (report == NULL)
    return;

  text = cell_text (report, column);
  gtk_label_set_text (label, text);
  if (column == COLUMN_STUDENT)
    {
      if (viva_class_report_get_readable (report) && viva_class_report_get_student_name (report)[0] == '\0')
        gtk_widget_add_css_class (GTK_WIDGET (label), "dim-label");
      else
        gtk_widget_remove_css_class (GTK_WIDGET (label), "dim-label");
    }
  if (column == COLUMN_FLAGS || column == COLUMN_STUDENT)
    gtk_widget_set_tooltip_text (GTK_WIDGET (label), viva_class_report_get_note (report)[0] ? viva_class_report_get_note (report) : NULL);
  if (column == COLUMN_SCORE)
    {
      g_autofree char *how = viva_class_report_describe_score (report);
      g_autofree char *tooltip = how ? g_strdup_printf (_("The examiner’s score less what the hints viewed cost: %s"), how) : NULL;

      gtk_widget_set_tooltip_text (GTK_WIDGET (label), tooltip);
    }
  if (column == COLUMN_FLAGS || column == COLUMN_VERDICT)
    {
      gboolean warn = column == COLUMN_FLAGS ? text[0] != '\0' : g_str_equal (viva_class_report_get_verdict (report), "fail");

      if (warn)
        gtk_widget_add_css_class (GTK_WIDGET (label), column == COLUMN_FLAGS ? "warning" : "error");
      else
        gtk_widget_remove_css_class (GTK_WIDGET (label), column == COLUMN_FLAGS ? "warning" : "error");
    }
}

static void
setup_cb (GtkSignalListItemFactory *factory,
          GtkListItem              *item,
          gpointer                  user_data)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  g_object_set_data (G_OBJECT (item), "viva-column", user_data);
  gtk_list_item_set_child (item, label);
}

static void
bind_cb (GtkSignalListItemFactory *factory,
         GtkListItem              *item,
         gpointer                  user_data)
{
  VivaClassReport *report = gtk_list_item_get_item (item);
  gulong handler;

  refresh_cell (item);
  /* A re-grade changes rows in place. */
  handler = g_signal_connect_swapped (report, "notify::flags", G_CALLBACK (refresh_cell), item);
  g_object_set_data (G_OBJECT (item), "viva-handler", GSIZE_TO_POINTER (handler));
}

static void
unbind_cb (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           gpointer                  user_data)
{
  VivaClassReport *report = gtk_list_item_get_item (item);
  gulong handler = GPOINTER_TO_SIZE (g_object_get_data (G_OBJECT (item), "viva-handler"));

  if (report != NULL && handler != 0)
    g_signal_handler_disconnect (report, handler);
  g_object_set_data (G_OBJECT (item), "viva-handler", NULL);
  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)), "");
}

static void
add_column (VivaClassResultsWindow *self,
            Column                  column,
            const char             *title,
            const char             *property,
            gboolean                numeric,
            gboolean                expand)
{
  g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();
  g_autoptr(GtkColumnViewColumn) view_column = NULL;
  GtkExpression *expression = gtk_property_expression_new (VIVA_TYPE_CLASS_REPORT, NULL, property);
  g_autoptr(GtkSorter) sorter = numeric ? GTK_SORTER (gtk_numeric_sorter_new (expression))
                                        : GTK_SORTER (gtk_string_sorter_new (expression));

  g_signal_connect (factory, "setup", G_CALLBACK (setup_cb), GINT_TO_POINTER (column));
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cb), NULL);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_cb), NULL);

  view_column = gtk_column_view_column_new (title, g_object_ref (factory));
  gtk_column_view_column_set_sorter (view_column, sorter);
  gtk_column_view_column_set_resizable (view_column, TRUE);
  gtk_column_view_column_set_expand (view_column, expand);
  gtk_column_view_append_column (self->column_view, view_column);
}

static gboolean
filter_func (gpointer item,
             gpointer user_data)
{
  VivaClassResultsWindow *self = user_data;
  VivaClassReport *report = item;
  const char *needle = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  g_autofree char *haystack = NULL;
  g_autofree char *folded_haystack = NULL;
  g_autofree char *folded_needle = NULL;

  if (gtk_check_button_get_active (self->flagged_check) && viva_class_report_get_flags (report)[0] == '\0')
    return FALSE;
  if (needle == NULL || needle[0] == '\0')
    return TRUE;

  haystack = g_strjoin (" ", viva_class_report_get_student_name (report), viva_class_report_get_student_id (report),
                        viva_class_report_get_problem_id (report), viva_class_report_get_problem_title (report),
                        viva_class_report_get_flags (report), viva_class_report_get_verdict (report), NULL);
  folded_haystack = g_utf8_casefold (haystack, -1);
  folded_needle = g_utf8_casefold (needle, -1);

  return strstr (folded_haystack, folded_needle) != NULL;
}

static void
filter_changed_cb (VivaClassResultsWindow *self)
{
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
}

static void
update_summary (VivaClassResultsWindow *self)
{
  g_autofree char *summary = g_strdup_printf (_("%u reports from %u students; %u flagged, %u unreadable."),
                                              g_list_model_get_n_items (viva_class_results_get_reports (self->results)),
                                              viva_class_results_count_students (self->results),
                                              viva_class_results_count_flagged (self->results),
                                              viva_class_results_count_unreadable (self->results));

  gtk_label_set_text (self->summary_label, summary);
}

/* After the rows' flags changed under the table (the exam file's cost). */
void
_viva_class_results_window_refresh (VivaClassResultsWindow *self)
{
  update_summary (self);
  _viva_class_results_window_rebuild_review (self);
  filter_changed_cb (self);
}

static void
rebuild_statistics (VivaClassResultsWindow *self)
{
  g_autoptr(GPtrArray) stats = viva_class_results_statistics (self->results);
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->stats_list))) != NULL)
    gtk_list_box_remove (self->stats_list, child);

  for (guint i = 0; i < stats->len; i++)
    {
      VivaClassStat *stat = g_ptr_array_index (stats, i);
      g_autofree char *title = stat->is_question ? g_strdup_printf (_("Question: %s"), stat->name) : g_strdup (stat->name);
      g_autofree char *escaped = g_markup_escape_text (title, -1);
      g_autofree char *problem = g_markup_escape_text (stat->problem_id, -1);
      g_autofree char *count = g_strdup_printf (_("failed by %u of %u"), stat->failed, stat->total);
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *suffix = gtk_label_new (count);

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), escaped);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), problem);
      if (stat->failed > 0)
        gtk_widget_add_css_class (suffix, "warning");
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), suffix);
      gtk_list_box_append (self->stats_list, row);
    }

  if (stats->len == 0)
    {
      GtkWidget *row = adw_action_row_new ();

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _("No hidden test results yet: re-grade the reports to see them."));
      gtk_list_box_append (self->stats_list, row);
    }
}

/* Collecting */

static void
collect_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(VivaClassResultsWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!viva_class_results_collect_finish (VIVA_CLASS_RESULTS (object), result, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          _viva_class_results_window_toast (self, error->message);
          gtk_stack_set_visible_child_name (self->stack, "empty");
        }
      update_actions (self);
      return;
    }

  update_summary (self);
  rebuild_statistics (self);
  _viva_class_results_window_rebuild_review (self);
  gtk_stack_set_visible_child_name (self->stack,
                                    g_list_model_get_n_items (viva_class_results_get_reports (self->results)) > 0 ? "results" : "empty");
  if (g_list_model_get_n_items (viva_class_results_get_reports (self->results)) == 0)
    _viva_class_results_window_toast (self, _("The folder has no report files."));
  update_actions (self);
}

/**
 * viva_class_results_window_open_folder:
 * @folder: a folder of report files
 *
 * Reads every report under @folder, off the main loop, into the table.
 */
void
viva_class_results_window_open_folder (VivaClassResultsWindow *self,
                                       const char             *folder)
{
  const char *paths[] = { folder, NULL };
  g_autofree char *basename = NULL;

  g_return_if_fail (VIVA_IS_CLASS_RESULTS_WINDOW (self));
  g_return_if_fail (folder != NULL);

  g_free (self->folder);
  self->folder = g_strdup (folder);
  basename = g_path_get_basename (folder);
  adw_window_title_set_subtitle (self->window_title, basename);

  gtk_stack_set_visible_child_name (self->stack, "loading");
  viva_class_results_collect_async (self->results, paths, self->cancellable, collect_cb, g_object_ref (self));
  update_actions (self);
}

static void
open_response_cb (VivaClassResultsWindow *self,
                  int                     response,
                  GtkFileChooserNative   *chooser)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = file ? g_file_get_path (file) : NULL;

      if (path != NULL)
        viva_class_results_window_open_folder (self, path);
    }

  g_object_unref (chooser);
}

static void
open_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  VivaClassResultsWindow *self = VIVA_CLASS_RESULTS_WINDOW (widget);
  GtkFileChooserNative *chooser;

  chooser = gtk_file_chooser_native_new (_("Open a Folder of Reports"), GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, _("_Open"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect_object (chooser, "response", G_CALLBACK (open_response_cb), self, G_CONNECT_SWAPPED);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

/* Re-grading */

static void
progress_cb (VivaClassResultsWindow *self)
{
  guint done = viva_class_results_get_n_regraded (self->results);
  guint total = viva_class_results_get_n_to_regrade (self->results);
  g_autofree char *text = g_strdup_printf (_("Re-grading: %u of %u"), done, total);

  gtk_label_set_text (self->progress_label, text);
  gtk_progress_bar_set_fraction (self->progress_bar, total > 0 ? (double)done / total : 0);
}

static void
regrade_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(VivaClassResultsWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  g_clear_object (&self->regrade_cancellable);
  gtk_revealer_set_reveal_child (self->progress_revealer, FALSE);

  if (!viva_class_results_regrade_finish (VIVA_CLASS_RESULTS (object), result, &error))
    _viva_class_results_window_toast (self, g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ? _("Re-grading stopped.") : error->message);
  else
    {
      g_autofree char *message = g_strdup_printf (_("Re-graded %u reports; %u flagged."),
                                                  viva_class_results_get_n_regraded (self->results),
                                                  viva_class_results_count_flagged (self->results));
      _viva_class_results_window_toast (self, message);
    }

  update_summary (self);
  rebuild_statistics (self);
  /* A re-grade flags reports, which then need a look. */
  _viva_class_results_window_rebuild_review (self);
  filter_changed_cb (self);
  update_actions (self);
}

static void
start_regrade (VivaClassResultsWindow *self)
{
  GListModel *packs = viva_pack_library_get_packs (self->library);

  if (!self->packs_added)
    {
      for (guint i = 0; i < g_list_model_get_n_items (packs); i++)
        {
          g_autoptr(VivaPack) pack = g_list_model_get_item (packs, i);
          viva_class_results_add_pack (self->results, pack);
        }
      self->packs_added = TRUE;
    }

  self->regrade_cancellable = g_cancellable_new ();
  gtk_revealer_set_reveal_child (self->progress_revealer, TRUE);
  viva_class_results_regrade_async (self->results, self->regrade_cancellable, regrade_cb, g_object_ref (self));
  progress_cb (self);
  update_actions (self);
}

static void
library_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(VivaClassResultsWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!viva_pack_library_load_finish (VIVA_PACK_LIBRARY (object), result, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        _viva_class_results_window_toast (self, error->message);
      update_actions (self);
      return;
    }

  start_regrade (self);
}

static void
regrade_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  VivaClassResultsWindow *self = VIVA_CLASS_RESULTS_WINDOW (widget);

  if (viva_class_results_get_busy (self->results))
    return;

  /* Connected to an exam server, the server re-grades. */
  if (self->server != NULL)
    {
      _viva_class_results_window_server_regrade (self);
      return;
    }

  /* Your copies of the packs: the library (and the bundled pack), read
   * at the first re-grade. */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "class.regrade", FALSE);
  if (self->packs_added)
    start_regrade (self);
  else
    viva_pack_library_load_async (self->library, self->cancellable, library_cb, g_object_ref (self));
}

static void
stop_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  VivaClassResultsWindow *self = VIVA_CLASS_RESULTS_WINDOW (widget);

  if (self->regrade_cancellable != NULL)
    g_cancellable_cancel (self->regrade_cancellable);
}

/* Opening a report */

/* The page is made from the report's JSON, read again as the collection
 * read it (regular files only, size and depth capped), never from an HTML
 * file beside it: the student wrote that one, and its script would run in
 * the teacher's browser. The page carries its own CSP (no script, no
 * network) and goes to the cache, private to the teacher. */
static void
render_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  VivaClassReport *report = task_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *html = NULL;
  g_autofree char *base = NULL;
  g_autofree char *name = NULL;
  g_autofree char *dir = g_build_filename (g_get_user_cache_dir (), "viva", "class-reports", NULL);
  g_autofree char *out = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GBytes) bytes = NULL;

  if (!(html = viva_class_report_render_html (report, &error)))
    return g_task_return_error (task, g_steal_pointer (&error));

  base = g_path_get_basename (viva_class_report_get_path (report));
  if (g_str_has_suffix (base, ".json"))
    base[strlen (base) - 5] = '\0';
  name = g_strconcat (base, ".html", NULL);
  out = g_build_filename (dir, name, NULL);
  file = g_file_new_for_path (out);
  bytes = g_bytes_new_static (html, strlen (html));
  if (!viva_file_writer_write (file, bytes, 0600, VIVA_FILE_WRITER_MAKE_FOLDERS, &error))
    return g_task_return_error (task, g_steal_pointer (&error));

  g_task_return_pointer (task, g_steal_pointer (&out), g_free);
}

static void
render_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(VivaClassResultsWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_task_propagate_pointer (G_TASK (result), &error);

  if (path == NULL)
    {
      g_autofree char *message = g_strdup_printf (_("The report cannot be shown: %s"), error->message);
      _viva_class_results_window_toast (self, message);
      return;
    }

  viva_show_path (GTK_WIDGET (self), path);
}

static void
row_activated_cb (VivaClassResultsWindow *self,
                  guint                   position)
{
  g_autoptr(VivaClassReport) report = g_list_model_get_item (G_LIST_MODEL (self->selection), position);
  g_autoptr(GTask) task = NULL;

  if (report == NULL)
    return;

  if (!viva_class_report_get_readable (report))
    {
      _viva_class_results_window_toast (self, viva_class_report_get_note (report));
      return;
    }

  task = g_task_new (NULL, self->cancellable, render_cb, g_object_ref (self));
  g_task_set_source_tag (task, row_activated_cb);
  g_task_set_task_data (task, g_object_ref (report), g_object_unref);
  g_task_run_in_thread (task, render_thread);
}

/* The class */

static void
viva_class_results_window_dispose (GObject *object)
{
  VivaClassResultsWindow *self = (VivaClassResultsWindow *)object;

  g_cancellable_cancel (self->cancellable);
  if (self->regrade_cancellable != NULL)
    g_cancellable_cancel (self->regrade_cancellable);
  _viva_class_results_window_server_dispose (self);
  gtk_widget_dispose_template (GTK_WIDGET (self), VIVA_TYPE_CLASS_RESULTS_WINDOW);
  g_clear_object (&self->selection);
  g_clear_object (&self->filter);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->regrade_cancellable);
  g_clear_object (&self->library);
  g_clear_object (&self->teacher_scores);
  if (self->results != NULL)
    g_signal_handlers_disconnect_by_data (self->results, self);
  g_clear_object (&self->results);

  G_OBJECT_CLASS (viva_class_results_window_parent_class)->dispose (object);
}

static void
viva_class_results_window_finalize (GObject *object)
{
  VivaClassResultsWindow *self = (VivaClassResultsWindow *)object;

  g_free (self->folder);

  G_OBJECT_CLASS (viva_class_results_window_parent_class)->finalize (object);
}

static void
viva_class_results_window_class_init (VivaClassResultsWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = viva_class_results_window_dispose;
  object_class->finalize = viva_class_results_window_finalize;

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/viva-class-results-window.ui");
  gtk_widget_class_bind_template_child (widget_class, VivaClassResultsWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, VivaClassResultsWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, VivaClassResultsWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, VivaClassResultsWindow, progress_revealer);
  gtk_widget_class_bind_template_child (widget_class, VivaClassResultsWindow, progress_label);
  gtk_widget_class_bind_template_child (widget_class, VivaClassResultsWindow, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, VivaClassResultsWindow, column_view);
  gtk_widget_class_bind_template_child (widget_class, VivaClassResultsWindow, search_entry);
  gtk_widget_class_bind_template_child (widget_class, VivaClassResultsWindow, flagged_check);
  gtk_widget_class_bind_template_child (widget_class, VivaClassResultsWindow, summary_label);
  gtk_widget_class_bind_template_child (widget_class, VivaClassResultsWindow, stats_list);
  gtk_widget_class_bind_template_child (widget_class, VivaClassResultsWindow, exam_button);
  gtk_widget_class_bind_template_child (widget_class, VivaClassResultsWindow, regrade_button);
  gtk_widget_class_bind_template_child (widget_class, VivaClassResultsWindow, review_list);
  gtk_widget_class_bind_template_child (widget_class, VivaClassResultsWindow, review_summary_label);
  gtk_widget_class_bind_template_child (widget_class, VivaClassResultsWindow, calibration_list);
  gtk_widget_class_bind_template_child (widget_class, VivaClassResultsWindow, view_stack);
  gtk_widget_class_bind_template_callback (widget_class, filter_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, row_activated_cb);

  gtk_widget_class_install_action (widget_class, "class.open", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "class.regrade", NULL, regrade_action);
  gtk_widget_class_install_action (widget_class, "class.stop", NULL, stop_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK, "class.open", NULL);
  _viva_class_results_window_exam_class_init (widget_class);
  _viva_class_results_window_export_class_init (widget_class);
  _viva_class_results_window_server_class_init (widget_class);
}

static void
viva_class_results_window_init (VivaClassResultsWindow *self)
{
  GtkFilterListModel *filtered;
  GtkSortListModel *sorted;

  g_type_ensure (VIVA_TYPE_CLASS_REPORT);
  gtk_widget_init_template (GTK_WIDGET (self));

  self->cancellable = g_cancellable_new ();
  self->results = viva_class_results_new ();
  self->library = g_object_ref (viva_application_get_pack_library (VIVA_APPLICATION (g_application_get_default ())));

  add_column (self, COLUMN_STUDENT, _("Student"), "student-name", FALSE, TRUE);
  add_column (self, COLUMN_ID, _("Student ID"), "student-id", FALSE, FALSE);
  add_column (self, COLUMN_PROBLEM, _("Problem"), "problem-title", FALSE, TRUE);
  add_column (self, COLUMN_VERDICT, _("Verdict"), "verdict", FALSE, FALSE);
  add_column (self, COLUMN_SCORE, _("Score"), "score", TRUE, FALSE);
  add_column (self, COLUMN_HIDDEN, _("Hidden tests"), "hidden-passed", TRUE, FALSE);
  add_column (self, COLUMN_REGRADED, _("Re-graded"), "regraded-passed", TRUE, FALSE);
  add_column (self, COLUMN_TIME, _("Time"), "duration", TRUE, FALSE);
  add_column (self, COLUMN_HINTS, _("Hints"), "hints", TRUE, FALSE);
  add_column (self, COLUMN_FLAGS, _("Flags"), "flags", FALSE, TRUE);

  /* reports → filter → the column view's sort → selection */
  self->filter = gtk_custom_filter_new (filter_func, self, NULL);
  filtered = gtk_filter_list_model_new (g_object_ref (viva_class_results_get_reports (self->results)),
                                        g_object_ref (GTK_FILTER (self->filter)));
  sorted = gtk_sort_list_model_new (G_LIST_MODEL (filtered),
                                    g_object_ref (gtk_column_view_get_sorter (self->column_view)));
  self->selection = gtk_single_selection_new (G_LIST_MODEL (sorted));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));

  g_signal_connect_object (self->results, "notify::n-regraded", G_CALLBACK (progress_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->results, "notify::busy", G_CALLBACK (update_actions), self, G_CONNECT_SWAPPED);
  _viva_class_results_window_review_init (self);
  gtk_stack_set_visible_child_name (self->stack, "empty");
  update_actions (self);
}

VivaClassResultsWindow *
viva_class_results_window_new (GtkApplication *application)
{
  return g_object_new (VIVA_TYPE_CLASS_RESULTS_WINDOW, "application", application, NULL);
}

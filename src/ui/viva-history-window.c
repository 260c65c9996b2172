/* viva-history-window.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-exam-file.h"
#include "viva-exam-history.h"
#include "viva-exam-report.h"
#include "viva-exam-tool.h"
#include "viva-history-window.h"
#include "viva-json-member.h"
#include "viva-markdown.h"
#include "viva-show.h"

/* A problem's past defenses: a list with date, examiner and verdict; one
 * opened shows its transcript read-only and can be exported as a report
 * for the teacher. Everything is read off the main loop. */

struct _VivaHistoryWindow
{
  AdwWindow        parent_instance;

  AdwWindowTitle  *window_title;
  GtkButton       *back_button;
  GtkButton       *export_button;
  AdwToastOverlay *toast_overlay;
  GtkStack        *stack;
  GtkListBox      *list_box;
  GtkTextView     *transcript_view;

  GCancellable    *cancellable;
  char            *sessions_dir;
  char            *pack_id;
  char            *problem_id;
  char            *problem_title;
  char            *open_session_dir;
  JsonNode        *open_report;
  GFile           *saved_html;
  char            *exam_report_folder;
};

G_DEFINE_FINAL_TYPE (VivaHistoryWindow, viva_history_window, ADW_TYPE_WINDOW)

static char *
format_time (const char *iso)
{
  g_autoptr(GDateTime) utc = iso ? g_date_time_new_from_iso8601 (iso, NULL) : NULL;
  g_autoptr(GDateTime) local = NULL;

  if (utc == NULL)
    return g_strdup (iso ? iso : "");

  local = g_date_time_to_local (utc);
  /* Translators: a date and time, see g_date_time_format() */
  return g_date_time_format (local, _("%e %B %Y, %H:%M"));
}

static char *
summary_subtitle (const VivaExamSummary *summary)
{
  const char *examiner = summary->examiner && summary->examiner[0] ? summary->examiner : _("the offline examiner");

  if (g_strcmp0 (summary->verdict, "pass") == 0 && summary->score >= 0)
    return g_strdup_printf (_("Passed, %.0f/100 — %s"), summary->score, examiner);
  if (g_strcmp0 (summary->verdict, "pass") == 0)
    return g_strdup_printf (_("Passed — %s"), examiner);
  if (g_strcmp0 (summary->verdict, "fail") == 0 && summary->score >= 0)
    return g_strdup_printf (_("Failed, %.0f/100 — %s"), summary->score, examiner);
  if (g_strcmp0 (summary->verdict, "fail") == 0)
    return g_strdup_printf (_("Failed — %s"), examiner);
  return g_strdup_printf (_("Not finished — %s"), examiner);
}

static void
history_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(VivaHistoryWindow) self = user_data;
  g_autoptr(GPtrArray) summaries = NULL;
  g_autoptr(GError) error = NULL;

  if (!(summaries = viva_exam_history_list_finish (result, &error)))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (error->message));
      gtk_stack_set_visible_child_name (self->stack, "empty");
      return;
    }

  for (guint i = 0; i < summaries->len; i++)
    {
      const VivaExamSummary *summary = g_ptr_array_index (summaries, i);
      g_autofree char *title = format_time (summary->updated);
      g_autofree char *subtitle = summary_subtitle (summary);
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *arrow = gtk_image_new_from_icon_name ("go-next-symbolic");

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), arrow);
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
      g_object_set_data_full (G_OBJECT (row), "viva-session-dir", g_strdup (summary->dir), g_free);
      gtk_list_box_append (self->list_box, row);
    }

  gtk_stack_set_visible_child_name (self->stack, summaries->len > 0 ? "list" : "empty");
}

static void
ensure_tags (GtkTextBuffer *buffer)
{
  if (gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (buffer), "verdict-pass"))
    return;

  gtk_text_buffer_create_tag (buffer, "verdict-pass", "weight", PANGO_WEIGHT_BOLD, "scale", 1.4,
                              "foreground", "#26a269", "pixels-below-lines", 6, NULL);
  gtk_text_buffer_create_tag (buffer, "verdict-fail", "weight", PANGO_WEIGHT_BOLD, "scale", 1.4,
                              "foreground", "#c01c28", "pixels-below-lines", 6, NULL);
  gtk_text_buffer_create_tag (buffer, "speaker", "weight", PANGO_WEIGHT_BOLD,
                              "pixels-above-lines", 10, NULL);
  gtk_text_buffer_create_tag (buffer, "student", "paragraph-background", "rgba(53,132,228,0.12)",
                              "left-margin", 36, NULL);
  gtk_text_buffer_create_tag (buffer, "muted", "foreground", "rgba(127,127,127,1)",
                              "style", PANGO_STYLE_ITALIC, NULL);
}

static void
insert_tagged (GtkTextBuffer *buffer,
               GtkTextIter   *iter,
               const char    *text,
               const char    *tag)
{
  gtk_text_buffer_insert_with_tags_by_name (buffer, iter, text, -1, tag, NULL);
}

static void
render_tool (GtkTextBuffer *buffer,
             GtkTextIter   *iter,
             JsonObject    *entry)
{
  const char *name = viva_json_member_string (entry, "name");
  JsonNode *arguments = json_object_get_member (entry, "arguments");
  JsonNode *result = json_object_get_member (entry, "result");
  JsonObject *probe = json_object_has_member (entry, "probe") ? json_object_get_object_member (entry, "probe") : NULL;
  JsonObject *args = arguments && JSON_NODE_HOLDS_OBJECT (arguments) ? json_node_get_object (arguments) : NULL;
  JsonObject *res = result && JSON_NODE_HOLDS_OBJECT (result) ? json_node_get_object (result) : NULL;
  const VivaExamToolFacts *facts = viva_exam_tool_facts_lookup (name);
  gboolean asks = facts != NULL && facts->kind == VIVA_EXAM_TOOL_KIND_WAITS && facts->shown_argument != NULL;
  g_autoptr(GString) header = g_string_new (NULL);

  if (viva_json_member_string (entry, "step") != NULL)
    g_string_append_printf (header, "%s · ", viva_json_member_string (entry, "step"));
  /* A question reads as in the panel, where the examiner asked it. */
  g_string_append (header, asks ? _("The examiner asks") : viva_exam_tool_title (name));
  if (probe != NULL && json_object_has_member (probe, "passed"))
    g_string_append_printf (header, " — %s", json_object_get_boolean_member (probe, "passed") ? _("passed") : _("failed"));
  g_string_append_c (header, '\n');
  insert_tagged (buffer, iter, header->str, "speaker");

  if (asks)
    {
      g_autofree char *answer = NULL;

      viva_markdown_insert (buffer, iter, viva_json_member_string (args, facts->shown_argument), -1);
      if (viva_json_member_string (res, "answer") != NULL)
        {
          insert_tagged (buffer, iter, _("You\n"), "speaker");
          answer = g_strdup_printf ("%s\n", viva_json_member_string (res, "answer"));
          insert_tagged (buffer, iter, answer, "student");
        }
      return;
    }

  if (viva_json_member_string (args, "code") != NULL)
    viva_markdown_insert_code (buffer, iter, viva_json_member_string (args, "code"), "python3");
  else if (viva_json_member_string (args, "comment") != NULL)
    viva_markdown_insert (buffer, iter, viva_json_member_string (args, "comment"), -1);
  else if (viva_json_member_string (args, "text") != NULL)
    viva_markdown_insert (buffer, iter, viva_json_member_string (args, "text"), -1);

  if (res != NULL && viva_json_member_string (res, "error") != NULL)
    {
      g_autofree char *line = g_strdup_printf ("%s\n", viva_json_member_string (res, "error"));
      insert_tagged (buffer, iter, line, "muted");
    }
}

static void
render_report (VivaHistoryWindow *self,
               JsonNode          *report)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->transcript_view);
  JsonObject *root = json_node_get_object (report);
  JsonNode *verdict_node = json_object_get_member (root, "verdict");
  JsonObject *verdict = verdict_node && JSON_NODE_HOLDS_OBJECT (verdict_node) ? json_node_get_object (verdict_node) : NULL;
  JsonArray *transcript = json_object_get_array_member (root, "transcript");
  GtkTextIter iter;

  ensure_tags (buffer);
  gtk_text_buffer_set_text (buffer, "", 0);
  gtk_text_buffer_get_start_iter (buffer, &iter);

  if (verdict != NULL && viva_json_member_string (verdict, "verdict") != NULL)
    {
      gboolean passed = g_strcmp0 (viva_json_member_string (verdict, "verdict"), "pass") == 0;
      double score = json_object_has_member (verdict, "score") ? json_object_get_double_member (verdict, "score") : -1;
      g_autofree char *line = score >= 0
        ? g_strdup_printf (passed ? _("Passed — %.0f/100\n") : _("Failed — %.0f/100\n"), score)
        : g_strdup (passed ? _("Passed\n") : _("Failed\n"));

      insert_tagged (buffer, &iter, line, passed ? "verdict-pass" : "verdict-fail");
      if (viva_json_member_string (verdict, "comment") != NULL)
        viva_markdown_insert (buffer, &iter, viva_json_member_string (verdict, "comment"), -1);
      else if (viva_json_member_string (verdict, "reason") != NULL)
        insert_tagged (buffer, &iter, viva_json_member_string (verdict, "reason"), "muted");
      gtk_text_buffer_insert (buffer, &iter, "\n", 1);
    }
  else
    {
      insert_tagged (buffer, &iter, _("This defense was not finished.\n"), "muted");
    }

  for (guint i = 0; transcript != NULL && i < json_array_get_length (transcript); i++)
    {
      JsonObject *entry = json_array_get_object_element (transcript, i);
      const char *kind = viva_json_member_string (entry, "kind");

      if (g_strcmp0 (kind, "tool") == 0)
        render_tool (buffer, &iter, entry);
      else if (g_strcmp0 (kind, "examiner") == 0)
        {
          insert_tagged (buffer, &iter, _("Examiner\n"), "speaker");
          viva_markdown_insert (buffer, &iter, viva_json_member_string (entry, "text"), -1);
        }
      else if (g_strcmp0 (kind, "student") == 0)
        {
          g_autofree char *text = g_strdup_printf ("%s\n", viva_json_member_string (entry, "text"));
          insert_tagged (buffer, &iter, _("You\n"), "speaker");
          insert_tagged (buffer, &iter, text, "student");
        }
    }
}

static const char *
report_exam_path (JsonNode *report)
{
  JsonNode *exam = json_object_get_member (json_node_get_object (report), "exam");
  JsonNode *path;

  if (exam == NULL || !JSON_NODE_HOLDS_OBJECT (exam) ||
      !(path = json_object_get_member (json_node_get_object (exam), "path")) ||
      !JSON_NODE_HOLDS_VALUE (path) || json_node_get_value_type (path) != G_TYPE_STRING)
    return NULL;

  return json_node_get_string (path);
}

/* A defense of an exam is exported into the exam's report folder (a lab
 * share, a USB stick) when that folder is there. */
static void
exam_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(VivaHistoryWindow) self = user_data;
  g_autoptr(VivaExamFile) exam = viva_exam_file_load_finish (result, NULL, NULL);
  const char *folder = exam ? viva_exam_file_get_report_folder (exam) : NULL;

  if (folder != NULL && g_file_test (folder, G_FILE_TEST_IS_DIR))
    {
      g_free (self->exam_report_folder);
      self->exam_report_folder = g_strdup (folder);
    }
}

static void
report_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(VivaHistoryWindow) self = user_data;
  g_autoptr(JsonNode) report = NULL;
  g_autoptr(GError) error = NULL;
  const char *exam_path;

  if (!(report = viva_exam_report_load_finish (result, &error)))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_autofree char *message = g_strdup_printf (_("This defense cannot be shown: %s"), error->message);
          adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (message));
          gtk_stack_set_visible_child_name (self->stack, "list");
        }
      return;
    }

  render_report (self, report);
  g_clear_pointer (&self->open_report, json_node_unref);
  self->open_report = json_node_ref (report);
  g_clear_pointer (&self->exam_report_folder, g_free);
  exam_path = report_exam_path (report);
  if (exam_path != NULL)
    viva_exam_file_load_async (exam_path, self->cancellable, exam_cb, g_object_ref (self));
  gtk_widget_set_visible (GTK_WIDGET (self->back_button), TRUE);
  gtk_widget_set_visible (GTK_WIDGET (self->export_button), TRUE);
  gtk_stack_set_visible_child_name (self->stack, "transcript");
}

static void
row_activated_cb (VivaHistoryWindow *self,
                  GtkListBoxRow     *row)
{
  const char *dir = g_object_get_data (G_OBJECT (row), "viva-session-dir");

  g_free (self->open_session_dir);
  g_clear_pointer (&self->open_report, json_node_unref);
  g_clear_object (&self->saved_html);
  g_free (self->exam_report_folder);
  self->open_session_dir = g_strdup (dir);
  adw_window_title_set_subtitle (self->window_title,
                                 adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)));
  gtk_stack_set_visible_child_name (self->stack, "loading");
  viva_exam_report_load_async (dir, self->cancellable, report_cb, g_object_ref (self));
}

static void
back_clicked_cb (VivaHistoryWindow *self)
{
  gtk_widget_set_visible (GTK_WIDGET (self->back_button), FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->export_button), FALSE);
  adw_window_title_set_subtitle (self->window_title, self->problem_title);
  gtk_stack_set_visible_child_name (self->stack, "list");
}

static void
export_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(VivaHistoryWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) folder = NULL;
  g_autofree char *name = NULL;
  g_autofree char *folder_uri = NULL;
  g_autofree char *folder_uri_escaped = NULL;
  g_autofree char *title = NULL;
  AdwToast *toast;

  if (!viva_exam_report_export_finish (result, &error))
    {
      g_autofree char *message = NULL;

      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      message = g_strdup_printf (_("The report could not be saved: %s. Choose another folder."), error->message);
      adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (message));
      return;
    }

  /* The toast offers both: its button opens the page, and its title links
   * the folder (a toast has one button; the link opens the file manager). */
  name = g_markup_escape_text (g_file_peek_path (self->saved_html) ? strrchr (g_file_peek_path (self->saved_html), G_DIR_SEPARATOR) + 1 : "", -1);
  folder = g_file_get_parent (self->saved_html);
  folder_uri = g_file_get_uri (folder);
  folder_uri_escaped = g_markup_escape_text (folder_uri, -1);
  title = g_strdup_printf ("%s <a href=\"%s\">%s</a>",
                           name, folder_uri_escaped, _("Show in Folder"));
  toast = adw_toast_new (title);
  adw_toast_set_button_label (toast, _("Open"));
  adw_toast_set_action_name (toast, "report.open");
  adw_toast_set_timeout (toast, 10);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

static void
open_report_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  VivaHistoryWindow *self = VIVA_HISTORY_WINDOW (widget);

  if (self->saved_html != NULL)
    viva_show_file (widget, self->saved_html);
}

static void
chooser_response_cb (VivaHistoryWindow    *self,
                     int                   response,
                     GtkFileChooserNative *chooser)
{
  if (response == GTK_RESPONSE_ACCEPT && self->open_session_dir != NULL)
    {
      g_autoptr(GFile) html_file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *html_path = html_file ? g_file_get_path (html_file) : NULL;
      g_autofree char *base = NULL;
      g_autofree char *json_path = NULL;
      g_autoptr(GFile) json_file = NULL;

      if (html_path != NULL)
        {
          /* The JSON lands beside the page, with the same name. */
          base = g_str_has_suffix (html_path, ".html") ? g_strndup (html_path, strlen (html_path) - 5) : g_strdup (html_path);
          json_path = g_strconcat (base, ".json", NULL);
          json_file = g_file_new_for_path (json_path);
          g_set_object (&self->saved_html, html_file);
          viva_exam_report_export_async (self->open_session_dir, html_file, json_file,
                                         self->cancellable, export_cb, g_object_ref (self));
        }
    }

  g_object_unref (chooser);
}

static void
export_clicked_cb (VivaHistoryWindow *self)
{
  GtkFileChooserNative *chooser;
  g_autoptr(GFile) folder = NULL;
  g_autofree char *name = NULL;
  const char *documents = g_get_user_special_dir (G_USER_DIRECTORY_DOCUMENTS);

  chooser = gtk_file_chooser_native_new (_("Export Report"), GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_SAVE,
                                         _("_Save"), _("_Cancel"));
  /* Named after the student, the problem and the time, so a teacher's
   * folder of reports sorts and reads by itself. */
  name = self->open_report ? viva_exam_report_dup_file_name (self->open_report, "html") : g_strdup ("viva-report.html");
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  folder = g_file_new_for_path (self->exam_report_folder ? self->exam_report_folder :
                                documents && g_file_test (documents, G_FILE_TEST_IS_DIR) ? documents : g_get_home_dir ());
  gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (chooser), folder, NULL);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect_object (chooser, "response", G_CALLBACK (chooser_response_cb), self, G_CONNECT_SWAPPED);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
viva_history_window_dispose (GObject *object)
{
  VivaHistoryWindow *self = (VivaHistoryWindow *)object;

  g_cancellable_cancel (self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), VIVA_TYPE_HISTORY_WINDOW);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (viva_history_window_parent_class)->dispose (object);
}

static void
viva_history_window_finalize (GObject *object)
{
  VivaHistoryWindow *self = (VivaHistoryWindow *)object;

  g_free (self->sessions_dir);
  g_free (self->pack_id);
  g_free (self->problem_id);
  g_free (self->problem_title);
  g_free (self->open_session_dir);

  G_OBJECT_CLASS (viva_history_window_parent_class)->finalize (object);
}

static void
viva_history_window_class_init (VivaHistoryWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = viva_history_window_dispose;
  object_class->finalize = viva_history_window_finalize;

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/viva-history-window.ui");
  gtk_widget_class_bind_template_child (widget_class, VivaHistoryWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, VivaHistoryWindow, back_button);
  gtk_widget_class_bind_template_child (widget_class, VivaHistoryWindow, export_button);
  gtk_widget_class_bind_template_child (widget_class, VivaHistoryWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, VivaHistoryWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, VivaHistoryWindow, list_box);
  gtk_widget_class_bind_template_child (widget_class, VivaHistoryWindow, transcript_view);
  gtk_widget_class_bind_template_callback (widget_class, row_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, back_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, export_clicked_cb);

  gtk_widget_class_install_action (widget_class, "report.open", NULL, open_report_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
viva_history_window_init (VivaHistoryWindow *self)
{
  self->cancellable = g_cancellable_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
  viva_markdown_attach_links (self->transcript_view);
}

/**
 * viva_history_window_new:
 * @sessions_dir: (nullable): where sessions are kept, %NULL for the default
 *
 * Returns: (transfer full): a window listing a problem's past defenses
 */
VivaHistoryWindow *
viva_history_window_new (GtkWindow  *parent,
                         const char *sessions_dir,
                         const char *pack_id,
                         const char *problem_id,
                         const char *problem_title)
{
  VivaHistoryWindow *self;

  g_return_val_if_fail (problem_id != NULL, NULL);

  self = g_object_new (VIVA_TYPE_HISTORY_WINDOW, "transient-for", parent, NULL);
  self->sessions_dir = g_strdup (sessions_dir);
  self->pack_id = g_strdup (pack_id);
  self->problem_id = g_strdup (problem_id);
  self->problem_title = g_strdup (problem_title);
  adw_window_title_set_subtitle (self->window_title, problem_title);

  viva_exam_history_list_async (sessions_dir, pack_id, problem_id, self->cancellable,
                                history_cb, g_object_ref (self));

  return self;
}

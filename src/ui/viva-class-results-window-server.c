/* viva-class-results-window-server.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-class-results-window-private.h"
#include "viva-file-writer.h"
#include "viva-remote.h"
#include "viva-report-signature.h"

/* Class Results of an exam on an exam server: the exam link and the
 * teacher token (both printed once by `viva-server exam add`), then the
 * class live — each student of the roster not signed in, working,
 * defending or handed in, asked of the server every few seconds — and the
 * server's signed reports in the usual table. The reports are fetched over
 * the pinned connection and written to the teacher's cache as the server's
 * `reports` command writes them (the JSON byte for byte as signed, its
 * signature beside it), so the table reads them as any folder and checks
 * each signature against the server's key; the exports are then the same
 * as for a folder. Re-grade goes to the server: its grading pool grades
 * every report again from the code it holds, the progress shown as the
 * server tells it, and each result comes back as the report's new signed
 * revision (the old one kept there), read into the table like the rest.
 * Only the client (core/remote/) speaks to the server. */

#define POLL_S 5
#define REGRADE_POLL_MS 500

struct _VivaClassResultsServer
{
  VivaExamServerClient *client;
  GCancellable         *cancellable;
  GtkWidget            *page;
  GtkListBox           *list;
  GtkLabel             *status_label;
  char                 *folder;
  guint                 poll_id;
  guint                 regrade_poll_id;
  char                 *regrade_id;  /* the re-grade the server runs */
  gint64                n_reports;   /* as last fetched */
  guint                 fetching : 1;
  guint                 regrading : 1;
};

static const char *
state_words (const char *state)
{
  if (g_strcmp0 (state, "working") == 0)
    return _("Working");
  if (g_strcmp0 (state, "defending") == 0)
    return _("Defending");
  if (g_strcmp0 (state, "handed_in") == 0)
    return _("Handed in");
  return _("Not signed in");
}

static void
server_free (VivaClassResultsServer *server)
{
  g_cancellable_cancel (server->cancellable);
  g_clear_handle_id (&server->poll_id, g_source_remove);
  g_clear_handle_id (&server->regrade_poll_id, g_source_remove);
  g_clear_object (&server->cancellable);
  g_free (server->regrade_id);
  g_clear_object (&server->client);
  g_free (server->folder);
  g_free (server);
}

typedef struct
{
  VivaClassResultsWindow *self;
  char                   *key;
  guint                   pending;
  GError                 *error;
} Writing;

static void
writing_done (Writing *writing)
{
  VivaClassResultsWindow *self = writing->self;

  if (self->server != NULL)
    {
      self->server->fetching = FALSE;
      if (writing->error != NULL)
        _viva_class_results_window_toast (self, writing->error->message);
      else
        {
          viva_class_results_set_signing_key (self->results, writing->key);
          viva_class_results_window_open_folder (self, self->server->folder);
        }
    }

  g_clear_error (&writing->error);
  g_object_unref (writing->self);
  g_free (writing->key);
  g_free (writing);
}

static void
written_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  Writing *writing = user_data;
  g_autoptr(GError) error = NULL;

  if (!viva_file_writer_write_finish (result, &error) && writing->error == NULL)
    writing->error = g_steal_pointer (&error);
  if (--writing->pending == 0)
    writing_done (writing);
}

static void
write_file (Writing    *writing,
            const char *folder,
            const char *name,
            const char *text)
{
  g_autofree char *path = g_build_filename (folder, name, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GBytes) bytes = g_bytes_new (text, strlen (text));

  writing->pending++;
  viva_file_writer_write_async (file, bytes, 0600, VIVA_FILE_WRITER_MAKE_FOLDERS, NULL, written_cb, writing);
}

static void
reports_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(VivaClassResultsWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) answer = NULL;
  VivaClassResultsServer *server = self->server;
  g_auto(GStrv) files = NULL;
  Writing *writing;

  answer = viva_exam_server_client_get_reports_finish (VIVA_EXAM_SERVER_CLIENT (object), result, &error);
  if (server == NULL || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  if (answer == NULL || !(files = viva_report_signature_page_files (answer)))
    {
      server->fetching = FALSE;
      _viva_class_results_window_toast (self, error ? error->message
                                                    : _("The exam server’s answer is not the exam server’s API: check the exam link."));
      return;
    }

  writing = g_new0 (Writing, 1);
  writing->self = g_object_ref (self);
  writing->key = g_strdup (files[1]);
  writing->pending = 1;  /* held until every write is queued */
  for (guint i = 0; files[i] != NULL; i += 2)
    write_file (writing, server->folder, files[i], files[i + 1]);
  if (--writing->pending == 0)
    writing_done (writing);
}

static void
fetch_reports (VivaClassResultsWindow *self)
{
  VivaClassResultsServer *server = self->server;

  if (server->fetching || viva_class_results_get_busy (self->results))
    return;

  server->fetching = TRUE;
  viva_exam_server_client_get_reports_async (server->client, server->cancellable, reports_cb, g_object_ref (self));
}

static void
show_class (VivaClassResultsWindow *self,
            JsonArray              *students)
{
  VivaClassResultsServer *server = self->server;
  GtkWidget *child;
  guint counts[4] = { 0, };
  gint64 n_reports = 0;
  g_autofree char *summary = NULL;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (server->list))))
    gtk_list_box_remove (server->list, child);

  for (guint i = 0; students != NULL && i < json_array_get_length (students); i++)
    {
      JsonObject *student = json_array_get_object_element (students, i);
      const char *state;
      GtkWidget *row;
      g_autofree char *title = NULL;
      g_autofree char *subtitle = NULL;
      gint64 reports, saved;

      if (student == NULL)
        continue;
      state = json_object_get_string_member_with_default (student, "state", "not_signed_in");
      reports = json_object_get_int_member_with_default (student, "reports", 0);
      saved = json_object_get_int_member_with_default (student, "saved", 0);
      n_reports += reports;
      counts[g_str_equal (state, "working") ? 1 : g_str_equal (state, "defending") ? 2
             : g_str_equal (state, "handed_in") ? 3 : 0]++;

      /* Translators: a student in the live class list: name (id). */
      title = g_strdup_printf (_("%s (%s)"), json_object_get_string_member_with_default (student, "name", ""),
                               json_object_get_string_member_with_default (student, "student_id", ""));
      /* Translators: what a student is doing, then how many problems
       * they saved and how many reports they have. */
      subtitle = g_strdup_printf (_("%s — problems saved: %u, reports: %u"), state_words (state), (guint)saved, (guint)reports);
      row = adw_action_row_new ();
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
      gtk_list_box_append (server->list, row);
    }

  summary = g_strdup_printf (_("%u not signed in, %u working, %u defending, %u handed in"),
                             counts[0], counts[1], counts[2], counts[3]);
  gtk_label_set_label (server->status_label, summary);

  /* New reports: fetched and read again (none yet: the class page stays). */
  if (n_reports > 0 && n_reports != server->n_reports)
    {
      server->n_reports = n_reports;
      fetch_reports (self);
    }
}

static void
status_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(VivaClassResultsWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) status = NULL;
  JsonNode *students;

  status = viva_exam_server_client_get_status_finish (VIVA_EXAM_SERVER_CLIENT (object), result, &error);
  if (self->server == NULL || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  if (status == NULL)
    {
      gtk_label_set_label (self->server->status_label, error->message);
      return;
    }

  students = json_object_get_member (status, "students");
  show_class (self, students && JSON_NODE_HOLDS_ARRAY (students) ? json_node_get_array (students) : NULL);
}

static gboolean
poll_cb (gpointer user_data)
{
  VivaClassResultsWindow *self = user_data;

  viva_exam_server_client_get_status_async (self->server->client, self->server->cancellable,
                                            status_cb, g_object_ref (self));
  return G_SOURCE_CONTINUE;
}

static GtkWidget *
build_page (VivaClassResultsServer *server)
{
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  GtkWidget *clamp = adw_clamp_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);

  server->status_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (server->status_label, TRUE);
  gtk_label_set_xalign (server->status_label, 0);
  gtk_widget_add_css_class (GTK_WIDGET (server->status_label), "dim-label");
  server->list = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (server->list, GTK_SELECTION_NONE);
  gtk_widget_add_css_class (GTK_WIDGET (server->list), "boxed-list");
  gtk_accessible_update_property (GTK_ACCESSIBLE (server->list),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("The class, live"), -1);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (server->status_label));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (server->list));
  gtk_widget_set_margin_top (box, 12);
  gtk_widget_set_margin_bottom (box, 12);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  adw_clamp_set_maximum_size (ADW_CLAMP (clamp), 900);
  adw_clamp_set_child (ADW_CLAMP (clamp), box);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), clamp);
  return scrolled;
}

/**
 * viva_class_results_window_connect:
 * @link: the exam link, `viva://HOST:PORT/EXAM-ID#sha256=…`
 * @teacher_token: the exam's teacher token
 *
 * Shows the class of the exam on @link live, and its signed reports.
 *
 * Returns: %FALSE with @error when @link is not an exam link
 */
gboolean
viva_class_results_window_connect (VivaClassResultsWindow  *self,
                                   const char              *link,
                                   const char              *teacher_token,
                                   GError                 **error)
{
  g_autoptr(VivaExamLink) parsed = NULL;
  VivaClassResultsServer *server;
  g_autofree char *subtitle = NULL;

  g_return_val_if_fail (VIVA_IS_CLASS_RESULTS_WINDOW (self), FALSE);
  g_return_val_if_fail (link != NULL && teacher_token != NULL, FALSE);

  if (!(parsed = viva_exam_link_parse (link, error)))
    return FALSE;

  if (self->server != NULL)
    {
      adw_view_stack_remove (self->view_stack, self->server->page);
      g_clear_pointer (&self->server, server_free);
    }

  server = self->server = g_new0 (VivaClassResultsServer, 1);
  server->cancellable = g_cancellable_new ();
  server->client = viva_exam_server_client_new (parsed);
  viva_exam_server_client_set_token (server->client, teacher_token);
  /* The teacher's cache, one folder per exam: the reports as signed. */
  server->folder = g_build_filename (g_get_user_cache_dir (), "viva", "exam-servers",
                                     viva_exam_link_get_exam_id (parsed), NULL);
  server->page = build_page (server);
  adw_view_stack_add_titled (self->view_stack, server->page, "class", _("Class"));
  adw_view_stack_page_set_icon_name (adw_view_stack_get_page (self->view_stack, server->page),
                                     "system-users-symbolic");
  adw_view_stack_set_visible_child (self->view_stack, server->page);
  gtk_stack_set_visible_child_name (self->stack, "results");

  /* Translators: Class Results' subtitle for an exam on a server. */
  subtitle = g_strdup_printf (_("Exam “%s” on %s"), viva_exam_link_get_exam_id (parsed),
                              viva_exam_link_get_host (parsed, 0));
  adw_window_title_set_subtitle (self->window_title, subtitle);
  gtk_label_set_label (server->status_label, _("Asking the exam server…"));
  gtk_widget_set_tooltip_text (self->regrade_button,
                               _("Re-grade every report on the exam server: each result a new signed revision, the old one kept"));

  poll_cb (self);
  server->poll_id = g_timeout_add_seconds (POLL_S, poll_cb, self);
  return TRUE;
}

static void
connect_response_cb (AdwMessageDialog       *dialog,
                     const char             *response,
                     VivaClassResultsWindow *self)
{
  AdwEntryRow *link_row = g_object_get_data (G_OBJECT (dialog), "link-row");
  AdwEntryRow *token_row = g_object_get_data (G_OBJECT (dialog), "token-row");
  g_autofree char *link = NULL;
  g_autofree char *token = NULL;
  g_autoptr(GError) error = NULL;

  if (g_strcmp0 (response, "connect") != 0)
    return;

  link = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (link_row))));
  token = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (token_row))));
  if (!viva_class_results_window_connect (self, link, token, &error))
    _viva_class_results_window_toast (self, error->message);
}

static void
connect_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  VivaClassResultsWindow *self = VIVA_CLASS_RESULTS_WINDOW (widget);
  GtkWidget *dialog = adw_message_dialog_new (GTK_WINDOW (self), _("Connect to an Exam Server"),
                                              _("The exam link and the teacher token, as viva-server exam add printed them."));
  GtkWidget *list = gtk_list_box_new ();
  GtkWidget *link_row = adw_entry_row_new ();
  GtkWidget *token_row = adw_password_entry_row_new ();

  gtk_list_box_set_selection_mode (GTK_LIST_BOX (list), GTK_SELECTION_NONE);
  gtk_widget_add_css_class (list, "boxed-list");
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (link_row), _("Exam link"));
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (token_row), _("Teacher token"));
  adw_entry_row_set_activates_default (ADW_ENTRY_ROW (link_row), TRUE);
  adw_entry_row_set_activates_default (ADW_ENTRY_ROW (token_row), TRUE);
  gtk_list_box_append (GTK_LIST_BOX (list), link_row);
  gtk_list_box_append (GTK_LIST_BOX (list), token_row);
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), list);
  /* Held until the dialog goes: it may have let go of its child by the
   * time the response is read. */
  g_object_set_data_full (G_OBJECT (dialog), "link-row", g_object_ref (link_row), g_object_unref);
  g_object_set_data_full (G_OBJECT (dialog), "token-row", g_object_ref (token_row), g_object_unref);

  adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "cancel", _("_Cancel"));
  adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "connect", _("C_onnect"));
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "connect", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "connect");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_signal_connect_object (dialog, "response", G_CALLBACK (connect_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* Re-grading on the server */

static void regrade_polled_cb (GObject *object, GAsyncResult *result, gpointer user_data);

static gboolean
regrade_poll_cb (gpointer user_data)
{
  VivaClassResultsWindow *self = user_data;

  self->server->regrade_poll_id = 0;
  viva_exam_server_client_get_regrade_async (self->server->client, self->server->regrade_id,
                                             self->server->cancellable, regrade_polled_cb, g_object_ref (self));
  return G_SOURCE_REMOVE;
}

static void
regrade_ended (VivaClassResultsWindow *self,
               const char             *message)
{
  VivaClassResultsServer *server = self->server;

  server->regrading = FALSE;
  g_clear_pointer (&server->regrade_id, g_free);
  gtk_revealer_set_reveal_child (self->progress_revealer, FALSE);
  _viva_class_results_window_toast (self, message);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "class.regrade", TRUE);
}

/* What the server said of its re-grade, started or asked again. */
static void
regrade_told (VivaClassResultsWindow *self,
              JsonObject             *answer,
              GError                 *error)
{
  VivaClassResultsServer *server = self->server;
  g_autofree char *text = NULL;
  guint total, done, failed;

  if (server == NULL || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (answer == NULL)
    {
      regrade_ended (self, error->message);
      return;
    }
  if (server->regrade_id == NULL)
    server->regrade_id = g_strdup (json_object_get_string_member (answer, "id"));

  total = json_object_get_int_member_with_default (answer, "total", 0);
  done = json_object_get_int_member_with_default (answer, "done", 0);
  failed = json_object_get_int_member_with_default (answer, "failed", 0);
  /* Translators: the exam server's re-grade, live: reports re-graded (or
   * given up) of all. */
  text = g_strdup_printf (_("Re-grading on the exam server: %u of %u"), done + failed, total);
  gtk_label_set_text (self->progress_label, text);
  gtk_progress_bar_set_fraction (self->progress_bar, total > 0 ? (double)(done + failed) / total : 1);

  if (!json_object_get_boolean_member (answer, "finished"))
    {
      server->regrade_poll_id = g_timeout_add (REGRADE_POLL_MS, regrade_poll_cb, self);
      return;
    }

  g_clear_pointer (&text, g_free);
  text = failed > 0
    ? g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "The exam server re-graded %u report; %u could not be.",
                                    "The exam server re-graded %u reports; %u could not be.", done), done, failed)
    : g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "The exam server re-graded %u report: a new signed revision, the old one kept.",
                                    "The exam server re-graded %u reports: each a new signed revision, the old ones kept.", done),
                       done);
  regrade_ended (self, text);
  /* The revisions replace the reports in the table. */
  server->n_reports = -1;
  fetch_reports (self);
}

static void
regrade_started_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(VivaClassResultsWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) answer = viva_exam_server_client_regrade_finish (VIVA_EXAM_SERVER_CLIENT (object), result, &error);

  regrade_told (self, answer, error);
}

static void
regrade_polled_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(VivaClassResultsWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) answer = viva_exam_server_client_get_regrade_finish (VIVA_EXAM_SERVER_CLIENT (object), result, &error);

  regrade_told (self, answer, error);
}

/* Re-grade, connected to a server: the server's pool does it. */
void
_viva_class_results_window_server_regrade (VivaClassResultsWindow *self)
{
  VivaClassResultsServer *server = self->server;

  g_assert (server != NULL);

  if (server->regrading)
    return;
  server->regrading = TRUE;
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "class.regrade", FALSE);
  gtk_label_set_text (self->progress_label, _("Re-grading on the exam server…"));
  gtk_progress_bar_set_fraction (self->progress_bar, 0);
  gtk_revealer_set_reveal_child (self->progress_revealer, TRUE);
  viva_exam_server_client_regrade_async (server->client, server->cancellable, regrade_started_cb, g_object_ref (self));
}

gboolean
_viva_class_results_window_server_regrading (VivaClassResultsWindow *self)
{
  return self->server != NULL && self->server->regrading;
}

void
_viva_class_results_window_server_dispose (VivaClassResultsWindow *self)
{
  g_clear_pointer (&self->server, server_free);
}

void
_viva_class_results_window_server_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "class.connect", NULL, connect_action);
}

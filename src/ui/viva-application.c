/* viva-application.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>
#include <gtksourceview/gtksource.h>

#include "viva-application.h"
#include "viva-class-results-window.h"
#include "viva-code-zoom.h"
#include "viva-core.h"
#include "viva-file-writer.h"
#include "viva-pack-editor.h"
#include "viva-settings.h"
#include "viva-preferences-window.h"
#include "viva-startup-timer.h"
#include "viva-window-private.h"
#include "viva-window.h"

struct _VivaApplication
{
  AdwApplication   parent_instance;

  /* One library of packs for every window: the student's, the pack
   * editor's and Class Results', so a pack saved or imported in one shows
   * up in the others. */
  VivaPackLibrary *library;
};

G_DEFINE_FINAL_TYPE (VivaApplication, viva_application, ADW_TYPE_APPLICATION)

/* An exam link (viva://…) names an exam on an exam server; anything else
 * is an exam file. */
static gboolean
is_exam_link (const char *text)
{
  return g_ascii_strncasecmp (text, "viva://", strlen ("viva://")) == 0;
}

static void
viva_application_open_exam_in (VivaWindow *window,
                               const char *exam)
{
  if (is_exam_link (exam))
    viva_window_join_exam (window, exam);
  else
    viva_window_open_exam (window, exam);
}

VivaApplication *
viva_application_new (void)
{
  return g_object_new (VIVA_TYPE_APPLICATION,
                       "application-id", APP_ID,
                       "flags", G_APPLICATION_DEFAULT_FLAGS,
                       /* The .Devel build shares the resources of the
                        * regular one. */
                       "resource-base-path", RESOURCE_PREFIX,
                       NULL);
}

static VivaPackEditor *
find_pack_editor (GtkApplication *app)
{
  for (GList *l = gtk_application_get_windows (app); l != NULL; l = l->next)
    if (VIVA_IS_PACK_EDITOR (l->data))
      return l->data;

  return NULL;
}

static void
pack_editor_destroyed_cb (GtkWidget *editor)
{
  viva_settings_set_teacher_mode (viva_settings_get_default (), FALSE);
}

/* Teacher mode is the pack editor's window being open: the menu's toggle
 * opens or closes it, and closing it turns teacher mode off. */
static void
viva_application_sync_teacher_mode (GtkApplication *app)
{
  VivaPackEditor *editor = find_pack_editor (app);

  if (!viva_settings_get_teacher_mode (viva_settings_get_default ()))
    {
      if (editor != NULL)
        gtk_window_close (GTK_WINDOW (editor));
      return;
    }

  if (editor == NULL)
    {
      /* The editor edits the application's library, so a saved pack
       * shows up in the student window's Problems list. */
      editor = viva_pack_editor_new (app, viva_application_get_pack_library (VIVA_APPLICATION (app)));
      g_signal_connect (editor, "destroy", G_CALLBACK (pack_editor_destroyed_cb), NULL);
    }

  gtk_window_present (GTK_WINDOW (editor));
}

static void
viva_application_activate (GApplication *app)
{
  GtkWindow *window;
  const char *exam_file;

  g_assert (VIVA_IS_APPLICATION (app));

  if (!(window = gtk_application_get_active_window (GTK_APPLICATION (app))))
    {
      viva_startup_timer_mark ("activate");
      window = GTK_WINDOW (viva_window_new (VIVA_APPLICATION (app)));
      viva_startup_timer_mark ("window built");

      /* A lab administrator's exam starts with the app: a file, or a
       * link to the lab's exam server. */
      exam_file = viva_settings_get_exam_file (viva_settings_get_default ());
      if (exam_file != NULL && exam_file[0] != '\0')
        viva_application_open_exam_in (VIVA_WINDOW (window), exam_file);
    }

  gtk_window_present (window);

  if (viva_settings_get_teacher_mode (viva_settings_get_default ()))
    viva_application_sync_teacher_mode (GTK_APPLICATION (app));
}

static void
viva_application_startup (GApplication *app)
{
  static const char *quit_accels[] = { "<Control>q", NULL };
  static const char *run_accels[] = { "<Control>Return", NULL };
  static const char *submit_accels[] = { "<Control><Shift>Return", NULL };
  static const char *check_accels[] = { "<Control>t", NULL };
  static const char *prefs_accels[] = { "<Control>comma", NULL };
  static const char *problem_accels[] = { "<Control><Shift>d", NULL };
  static const char *examiner_accels[] = { "<Control><Shift>e", NULL };
  static const char *answer_accels[] = { "<Control><Shift>a", NULL };
  static const char *stop_accels[] = { "<Control>F2", NULL };
  g_autoptr(GPropertyAction) teacher_mode = NULL;

  G_APPLICATION_CLASS (viva_application_parent_class)->startup (app);

  viva_core_init ();
  gtk_source_init ();

  teacher_mode = g_property_action_new ("teacher-mode", viva_settings_get_default (), "teacher-mode");
  g_action_map_add_action (G_ACTION_MAP (app), G_ACTION (teacher_mode));
  g_signal_connect_object (viva_settings_get_default (), "notify::teacher-mode",
                           G_CALLBACK (viva_application_sync_teacher_mode), app, G_CONNECT_SWAPPED);

  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.quit", quit_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.preferences", prefs_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "runner.run", run_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "exam.submit", submit_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "runner.check", check_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "win.show-problem", problem_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "win.show-examiner", examiner_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "exam.focus-answer", answer_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "exam.stop", stop_accels);
  viva_code_zoom_install (GTK_APPLICATION (app));
}

static void
viva_application_shutdown (GApplication *app)
{
  /* Whatever is still queued (the last code, a status, a report) reaches
   * the disk before the process ends. */
  viva_file_writer_flush ();

  G_APPLICATION_CLASS (viva_application_parent_class)->shutdown (app);
}

static void
viva_application_about_action (GSimpleAction *action,
                               GVariant      *parameter,
                               gpointer       user_data)
{
  static const char *developers[] = { "The Viva developers", NULL };
  GtkApplication *app = user_data;
  GtkIconTheme *theme;
  const char *icon;

  g_assert (VIVA_IS_APPLICATION (app));

  /* Uninstalled, the theme lacks APP_ID's icon; the resources hold the
   * plain one (GtkApplication adds their icons/ folder to the theme). */
  theme = gtk_icon_theme_get_for_display (gdk_display_get_default ());
  icon = gtk_icon_theme_has_icon (theme, APP_ID) ? APP_ID : "io.github.vivaexam.Viva";

  adw_show_about_window (gtk_application_get_active_window (app),
                         "application-name", _("Viva"),
                         "application-icon", icon,
                         "developer-name", _("The Viva developers"),
                         "version", PACKAGE_VERSION,
                         "comments", _("Practise programming oral exams with an examiner that reads, runs and questions your code"),
                         "website", "https://github.com/vivaexam/viva",
                         "issue-url", "https://github.com/vivaexam/viva/issues",
                         "developers", developers,
                         "copyright", "© 2026 The Viva developers",
                         "license-type", GTK_LICENSE_GPL_3_0,
                         "translator-credits", _("translator-credits"),
                         NULL);
}

static void
viva_application_preferences_action (GSimpleAction *action,
                                     GVariant      *parameter,
                                     gpointer       user_data)
{
  GtkApplication *app = user_data;
  GtkWindow *prefs;

  g_assert (VIVA_IS_APPLICATION (app));

  prefs = GTK_WINDOW (viva_preferences_window_new ());
  gtk_window_set_transient_for (prefs, gtk_application_get_active_window (app));
  gtk_window_present (prefs);
}

/* `viva --exam FILE`, also when Viva is running already: the action
 * reaches the running instance over D-Bus. */
static void
viva_application_open_exam_file_action (GSimpleAction *action,
                                        GVariant      *parameter,
                                        gpointer       user_data)
{
  GApplication *app = user_data;
  GtkWindow *window;

  g_assert (VIVA_IS_APPLICATION (app));

  g_application_activate (app);
  if ((window = gtk_application_get_active_window (GTK_APPLICATION (app))) && VIVA_IS_WINDOW (window))
    viva_application_open_exam_in (VIVA_WINDOW (window), g_variant_get_string (parameter, NULL));
}

/* The Join Exam Server entry: the sign-in asks for the link. */
static void
viva_application_join_exam_action (GSimpleAction *action,
                                   GVariant      *parameter,
                                   gpointer       user_data)
{
  GtkApplication *app = user_data;
  GtkWindow *window = gtk_application_get_active_window (app);

  g_assert (VIVA_IS_APPLICATION (app));

  if (window != NULL && VIVA_IS_WINDOW (window))
    viva_window_join_exam (VIVA_WINDOW (window), NULL);
}

static void
exam_chooser_response_cb (GtkNativeDialog *chooser,
                          int              response,
                          VivaWindow      *window)
{
  g_autoptr(GFile) file = NULL;
  g_autofree char *path = NULL;

  if (response == GTK_RESPONSE_ACCEPT &&
      (file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser))) != NULL &&
      (path = g_file_get_path (file)) != NULL)
    viva_window_open_exam (window, path);

  g_object_unref (chooser);
}

static void
viva_application_open_exam_action (GSimpleAction *action,
                                   GVariant      *parameter,
                                   gpointer       user_data)
{
  GtkApplication *app = user_data;
  GtkWindow *window = gtk_application_get_active_window (app);
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
  GtkFileChooserNative *chooser;

  g_assert (VIVA_IS_APPLICATION (app));

  if (window == NULL || !VIVA_IS_WINDOW (window))
    return;

  gtk_file_filter_set_name (filter, _("Viva exams (JSON)"));
  gtk_file_filter_add_pattern (filter, "*.json");
  gtk_file_filter_add_mime_type (filter, "application/json");

  chooser = gtk_file_chooser_native_new (_("Open an Exam"), window, GTK_FILE_CHOOSER_ACTION_OPEN,
                                         _("_Open"), _("_Cancel"));
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect_object (chooser, "response", G_CALLBACK (exam_chooser_response_cb), window, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static int
viva_application_handle_local_options (GApplication *app,
                                       GVariantDict *options)
{
  g_autofree char *exam = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;

  if (!g_variant_dict_lookup (options, "exam", "^ay", &exam))
    return -1;

  if (!g_application_register (app, NULL, &error))
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }

  /* The running instance may have another working folder; a link is
   * not a path. */
  path = is_exam_link (exam) ? g_strdup (exam) : g_canonicalize_filename (exam, NULL);
  g_action_group_activate_action (G_ACTION_GROUP (app), "open-exam-file", g_variant_new_string (path));

  /* A running Viva has it now; a first one goes on to run. */
  return g_application_get_is_remote (app) ? 0 : -1;
}

static void
viva_application_quit_action (GSimpleAction *action,
                              GVariant      *parameter,
                              gpointer       user_data)
{
  GtkApplication *app = user_data;
  GList *windows;

  g_assert (VIVA_IS_APPLICATION (app));

  /* Closing each window lets it save the student's code first. */
  windows = g_list_copy (gtk_application_get_windows (app));
  for (const GList *l = windows; l; l = l->next)
    gtk_window_close (l->data);
  g_list_free (windows);
}

/* Class Results: one window, opened from teacher mode. */
static void
viva_application_class_results_action (GSimpleAction *action,
                                       GVariant      *parameter,
                                       gpointer       user_data)
{
  GtkApplication *app = user_data;
  GtkWindow *window = NULL;

  g_assert (VIVA_IS_APPLICATION (app));

  for (GList *l = gtk_application_get_windows (app); l != NULL && window == NULL; l = l->next)
    if (VIVA_IS_CLASS_RESULTS_WINDOW (l->data))
      window = l->data;

  if (window == NULL)
    window = GTK_WINDOW (viva_class_results_window_new (app));

  gtk_window_present (window);
}

static const GActionEntry app_actions[] = {
  { "about", viva_application_about_action },
  { "class-results", viva_application_class_results_action },
  { "preferences", viva_application_preferences_action },
  { "quit", viva_application_quit_action },
  { "open-exam", viva_application_open_exam_action },
  { "open-exam-file", viva_application_open_exam_file_action, "s" },
  { "join-exam", viva_application_join_exam_action },
};

/**
 * viva_application_get_pack_library:
 *
 * Returns: (transfer none): the library of packs every window shares; the
 *   windows load it
 */
VivaPackLibrary *
viva_application_get_pack_library (VivaApplication *self)
{
  g_return_val_if_fail (VIVA_IS_APPLICATION (self), NULL);

  if (self->library == NULL)
    self->library = viva_pack_library_new (NULL);

  return self->library;
}

static void
viva_application_finalize (GObject *object)
{
  VivaApplication *self = VIVA_APPLICATION (object);

  g_clear_object (&self->library);

  G_OBJECT_CLASS (viva_application_parent_class)->finalize (object);
}

static void
viva_application_class_init (VivaApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->finalize = viva_application_finalize;

  app_class->activate = viva_application_activate;
  app_class->startup = viva_application_startup;
  app_class->shutdown = viva_application_shutdown;
  app_class->handle_local_options = viva_application_handle_local_options;
}

static void
viva_application_init (VivaApplication *self)
{
  g_action_map_add_action_entries (G_ACTION_MAP (self),
                                   app_actions, G_N_ELEMENTS (app_actions),
                                   self);

  g_application_add_main_option (G_APPLICATION (self), "exam", 0, G_OPTION_FLAG_NONE, G_OPTION_ARG_FILENAME,
                                 _("Start the exam in FILE (a viva-exam/1 file), or sign in to the exam at a link viva://HOST:PORT/EXAM-ID#sha256=…"), _("FILE"));
}

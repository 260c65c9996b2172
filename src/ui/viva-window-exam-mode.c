/* viva-window-exam-mode.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <errno.h>

#include "viva-exam-file.h"
#include "viva-exam-report.h"
#include "viva-file-writer.h"
#include "viva-identity-dialog.h"
#include "viva-settings.h"
#include "viva-window-private.h"

/* Exam mode: a viva-exam/1 file opened from the menu, `viva --exam FILE`
 * or the `exam-file` setting. The student gives a name and id once; the
 * exam fixes the examiner's settings, lists only its problems, shows the
 * time left in the header bar, and when the time is up hands the exam in
 * (viva-window-exam-hand-in.c: the open problem's code as last run, then
 * every other problem worked on; an answer being typed is sent as it is).
 * Every defense is stamped with the student and the exam, and its report
 * is written to the exam's report folder when it ends.
 *
 * When the exam started (and what the hand-in keeps: which problems were
 * worked on and defended) is kept in $XDG_DATA_HOME/viva/exams/, so that
 * closing and opening Viva again continues the same exam and clock. */

#define TIME_UP_ANSWER N_("(The time ran out before an answer was given.)")

struct _VivaWindowExamMode
{
  VivaExamFile *exam;
  char         *student_name;
  char         *student_id;
  GDateTime    *started;
  GtkLabel     *timer_label;
  GCancellable *cancellable;
  guint         tick_id;
  gulong        packs_handler;
  guint         time_up : 1;
};

static void viva_window_exam_mode_tick_now (VivaWindow *self);

/**
 * _viva_window_exam_mode_get_exam:
 *
 * Returns: (transfer none) (nullable): the exam under way, if any
 */
VivaExamFile *
_viva_window_exam_mode_get_exam (VivaWindow *self)
{
  g_assert (VIVA_IS_WINDOW (self));

  return self->exam_mode && self->exam_mode->started ? self->exam_mode->exam : NULL;
}

static char *
state_path (VivaExamFile *exam)
{
  g_autofree char *name = g_strdup_printf ("%s-%.16s.json", viva_exam_file_get_id (exam),
                                           viva_exam_file_get_digest (exam));

  return g_build_filename (g_get_user_data_dir (), "viva", "exams", name, NULL);
}

/* Who started the exam and when, if they did on this account before. */
static gboolean
read_state (VivaWindow    *self,
            VivaExamFile  *exam,
            char         **name,
            char         **id,
            GDateTime    **started)
{
  g_autofree char *path = state_path (exam);
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *root;
  const char *when;

  if (!json_parser_load_from_file (parser, path, NULL) ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    return FALSE;

  root = json_node_get_object (json_parser_get_root (parser));
  when = json_object_get_string_member_with_default (root, "started", NULL);
  *name = g_strdup (json_object_get_string_member_with_default (root, "student_name", NULL));
  *id = g_strdup (json_object_get_string_member_with_default (root, "student_id", NULL));
  *started = when ? g_date_time_new_from_iso8601 (when, NULL) : NULL;

  if (*name == NULL || *id == NULL || *started == NULL)
    {
      g_clear_pointer (name, g_free);
      g_clear_pointer (id, g_free);
      g_clear_pointer (started, g_date_time_unref);
      return FALSE;
    }

  _viva_window_hand_in_restore_state (self, root);
  return TRUE;
}

static void
state_written_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!viva_file_writer_write_finish (result, &error))
    g_debug ("exam: could not keep the exam's start: %s", error->message);
}

static void
write_state (VivaWindow *self)
{
  VivaWindowExamMode *mode = self->exam_mode;
  g_autofree char *path = state_path (mode->exam);
  g_autofree char *when = g_date_time_format_iso8601 (mode->started);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GBytes) bytes = NULL;
  char *text;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "exam");
  json_builder_add_string_value (builder, viva_exam_file_get_path (mode->exam));
  json_builder_set_member_name (builder, "student_name");
  json_builder_add_string_value (builder, mode->student_name);
  json_builder_set_member_name (builder, "student_id");
  json_builder_add_string_value (builder, mode->student_id);
  json_builder_set_member_name (builder, "started");
  json_builder_add_string_value (builder, when);
  _viva_window_hand_in_save_state (self, builder);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  text = json_to_string (root, TRUE);

  /* A few hundred bytes in the user's own folder, at the start and when
   * the hand-in's lists grow. */
  file = g_file_new_for_path (path);
  bytes = g_bytes_new_take (text, strlen (text));
  viva_file_writer_write_async (file, bytes, 0600, VIVA_FILE_WRITER_MAKE_FOLDERS, NULL, state_written_cb, NULL);
}

static void
fix_settings (VivaExamFile *exam)
{
  VivaSettings *settings = viva_settings_get_default ();
  g_auto(GValue) value = G_VALUE_INIT;

  if (!viva_exam_file_has_examiner (exam))
    return;

  g_value_init (&value, G_TYPE_INT);
  g_value_set_int (&value, viva_exam_file_get_examiner_mode (exam));
  viva_settings_fix (settings, "examiner-mode", &value);
  g_value_unset (&value);

  g_value_init (&value, G_TYPE_STRING);
  if (viva_exam_file_get_base_url (exam) != NULL)
    {
      g_value_set_string (&value, viva_exam_file_get_base_url (exam));
      viva_settings_fix (settings, "base-url", &value);
    }
  if (viva_exam_file_get_model (exam) != NULL)
    {
      g_value_set_string (&value, viva_exam_file_get_model (exam));
      viva_settings_fix (settings, "model", &value);
    }
  if (viva_exam_file_get_language (exam) != NULL)
    {
      g_value_set_string (&value, viva_exam_file_get_language (exam));
      viva_settings_fix (settings, "examiner-language", &value);
    }
}

static char *
format_left (gint64 seconds)
{
  if (seconds >= 3600)
    return g_strdup_printf (_("%d:%02d:%02d left"), (int)(seconds / 3600), (int)(seconds / 60 % 60), (int)(seconds % 60));
  return g_strdup_printf (_("%d:%02d left"), (int)(seconds / 60), (int)(seconds % 60));
}

static gint64
seconds_left (VivaWindowExamMode *mode)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  guint limit = viva_exam_file_get_time_limit (mode->exam);

  return limit - g_date_time_difference (now, mode->started) / G_TIME_SPAN_SECOND;
}

static void
viva_window_exam_mode_time_up (VivaWindow *self)
{
  VivaWindowExamMode *mode = self->exam_mode;

  mode->time_up = TRUE;
  gtk_text_view_set_editable (GTK_TEXT_VIEW (viva_editor_get_view (self->editor)), FALSE);
  if (self->running)
    viva_runner_stop (self->runner);

  _viva_window_hand_in_time_up (self);
  _viva_window_update_actions (self);
}

static gboolean
tick_cb (gpointer user_data)
{
  viva_window_exam_mode_tick_now (VIVA_WINDOW (user_data));
  return G_SOURCE_CONTINUE;
}

static void
viva_window_exam_mode_tick_now (VivaWindow *self)
{
  VivaWindowExamMode *mode = self->exam_mode;
  g_autofree char *text = NULL;
  g_autofree char *state = NULL;
  gint64 left;

  if (mode == NULL || mode->started == NULL || viva_exam_file_get_time_limit (mode->exam) == 0)
    return;

  left = seconds_left (mode);

  if (left > 0)
    {
      text = format_left (left);
      gtk_label_set_label (mode->timer_label, text);
      if (left <= 60)
        gtk_widget_add_css_class (GTK_WIDGET (mode->timer_label), "error");
      else if (left <= 5 * 60)
        gtk_widget_add_css_class (GTK_WIDGET (mode->timer_label), "warning");
      return;
    }

  if (!mode->time_up)
    viva_window_exam_mode_time_up (self);

  /* While several problems are handed in, which one is defended. */
  state = _viva_window_hand_in_dup_state (self);
  gtk_label_set_label (mode->timer_label, state ? state : _("Time is up"));
  gtk_widget_add_css_class (GTK_WIDGET (mode->timer_label), "error");

  /* After the time, each question is answered at once with what is typed,
   * so the defense reaches its verdict without waiting. */
  viva_examiner_panel_send_answer_now (self->examiner_panel, _(TIME_UP_ANSWER));
}

static VivaPack *
find_pack (VivaWindow   *self,
           VivaExamFile *exam)
{
  VivaPack *pack = viva_exam_file_get_pack (exam);

  if (pack == NULL)
    pack = viva_pack_library_find_pack (self->library, viva_exam_file_get_pack_id (exam));

  return pack;
}

static void
viva_window_exam_mode_begin (VivaWindow *self)
{
  VivaWindowExamMode *mode = self->exam_mode;
  VivaPack *pack = viva_exam_file_get_pack (mode->exam);
  const char * const *problems = viva_exam_file_get_problems (mode->exam);
  g_autofree char *note = NULL;
  VivaProblem *first = NULL;

  fix_settings (mode->exam);
  viva_problems_popover_set_exam (self->problems_popover, pack, problems);
  viva_examiner_panel_set_followup_allowed (self->examiner_panel, viva_exam_file_get_followup_allowed (mode->exam));

  if (problems != NULL)
    first = viva_pack_find_problem (pack, problems[0]);
  else if (g_list_model_get_n_items (viva_pack_get_problems (pack)) > 0)
    {
      g_autoptr(VivaProblem) item = g_list_model_get_item (viva_pack_get_problems (pack), 0);
      first = item;
    }
  if (first != NULL && (self->problem == NULL || !viva_exam_file_has_problem (mode->exam, viva_problem_get_id (self->problem))))
    viva_window_open_problem (self, pack, first);

  if (viva_exam_file_get_time_limit (mode->exam) > 0)
    {
      /* Reopened after the time: what was submitted then stands, and
       * nothing is submitted again. */
      if (seconds_left (mode) <= 0)
        {
          mode->time_up = TRUE;
          gtk_text_view_set_editable (GTK_TEXT_VIEW (viva_editor_get_view (self->editor)), FALSE);
        }
      else
        _viva_window_hand_in_exam_began (self);
      gtk_widget_set_visible (GTK_WIDGET (mode->timer_label), TRUE);
      viva_window_exam_mode_tick_now (self);
      mode->tick_id = g_timeout_add_seconds_full (G_PRIORITY_DEFAULT, 1, tick_cb, self, NULL);
    }

  note = g_strdup_printf (_("%s: %s (%s)"), viva_exam_file_get_title (mode->exam), mode->student_name, mode->student_id);
  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (note));
  _viva_window_update_actions (self);
}

static void
identity_response_cb (VivaIdentityDialog *dialog,
                      const char         *response,
                      VivaWindow         *self)
{
  VivaWindowExamMode *mode = self->exam_mode;

  if (mode == NULL || mode->exam == NULL || mode->started != NULL)
    return;

  if (g_strcmp0 (response, "start") != 0)
    {
      /* A lab that locks the exam in: there is nothing else to do here. */
      if (viva_settings_is_exam_file_locked (viva_settings_get_default ()))
        _viva_window_exam_mode_ask_identity (self);
      else
        g_clear_object (&mode->exam);
      return;
    }

  mode->student_name = viva_identity_dialog_dup_name (dialog);
  mode->student_id = viva_identity_dialog_dup_student_id (dialog);
  mode->started = g_date_time_new_now_utc ();
  write_state (self);
  viva_window_exam_mode_begin (self);
}

void
_viva_window_exam_mode_ask_identity (VivaWindow *self)
{
  VivaWindowExamMode *mode = self->exam_mode;
  VivaIdentityDialog *dialog;

  dialog = viva_identity_dialog_new (GTK_WINDOW (self), viva_exam_file_get_title (mode->exam),
                                     viva_exam_file_get_time_limit (mode->exam),
                                     !viva_settings_is_exam_file_locked (viva_settings_get_default ()));
  g_signal_connect_object (dialog, "response", G_CALLBACK (identity_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* The exam's pack is ready: go on where the student left off, or ask who
 * they are. */
static void
viva_window_exam_mode_pack_ready (VivaWindow *self,
                                  VivaPack   *pack)
{
  VivaWindowExamMode *mode = self->exam_mode;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;
  g_autofree char *id = NULL;
  g_autoptr(GDateTime) started = NULL;

  g_clear_signal_handler (&mode->packs_handler, viva_pack_library_get_packs (self->library));
  _viva_window_show_banner (self, NULL);

  if (viva_exam_file_get_pack (mode->exam) == NULL &&
      !viva_exam_file_set_pack (mode->exam, pack, &error))
    {
      _viva_window_show_banner (self, error->message);
      g_clear_object (&mode->exam);
      return;
    }

  if (read_state (self, mode->exam, &name, &id, &started))
    {
      mode->student_name = g_steal_pointer (&name);
      mode->student_id = g_steal_pointer (&id);
      mode->started = g_steal_pointer (&started);
      viva_window_exam_mode_begin (self);
      return;
    }

  _viva_window_exam_mode_ask_identity (self);
}

static void
packs_changed_cb (VivaWindow *self)
{
  VivaPack *pack;

  if (self->exam_mode->exam != NULL && (pack = find_pack (self, self->exam_mode->exam)) != NULL)
    viva_window_exam_mode_pack_ready (self, pack);
}

static void
exam_loaded_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(VivaWindow) self = user_data;
  g_autoptr(VivaExamFile) exam = NULL;
  g_autoptr(GError) error = NULL;
  VivaWindowExamMode *mode = self->exam_mode;
  AdwMessageDialog *dialog;
  VivaPack *pack;

  exam = viva_exam_file_load_finish (result, NULL, &error);
  if (mode == NULL || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  if (exam == NULL)
    {
      /* Every error with its JSON path, for the teacher to fix. */
      dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (self), _("This Exam Cannot Start"),
                                                           error->message));
      adw_message_dialog_add_response (dialog, "close", _("_Close"));
      gtk_window_present (GTK_WINDOW (dialog));
      return;
    }

  g_set_object (&mode->exam, exam);

  if ((pack = find_pack (self, exam)) == NULL && g_strcmp0 (viva_exam_file_get_pack_id (exam), "intro-ai") == 0)
    {
      g_autoptr(VivaPack) bundled = viva_pack_new_bundled ();
      viva_window_exam_mode_pack_ready (self, bundled);
      return;
    }

  if (pack != NULL)
    {
      viva_window_exam_mode_pack_ready (self, pack);
      return;
    }

  /* The library may still be loading; say what is missing meanwhile. */
  {
    g_autofree char *message = g_strdup_printf (_("The exam needs the pack “%s”, which is not installed on this PC. Import it, or ask the teacher."),
                                                viva_exam_file_get_pack_id (exam));
    _viva_window_show_banner (self, message);
  }
  mode->packs_handler = g_signal_connect_object (viva_pack_library_get_packs (self->library), "items-changed",
                                                 G_CALLBACK (packs_changed_cb), self, G_CONNECT_SWAPPED);
}

/**
 * viva_window_open_exam:
 * @path: a `viva-exam/1` file
 *
 * Starts the exam in @path: checks the file (a file with errors shows them
 * and does not start), asks the student's name and id, then runs the exam
 * in this window. One exam per window.
 */
void
viva_window_open_exam (VivaWindow *self,
                       const char *path)
{
  VivaWindowExamMode *mode;

  g_return_if_fail (VIVA_IS_WINDOW (self));
  g_return_if_fail (path != NULL);

  mode = self->exam_mode;
  if (mode->exam != NULL)
    {
      adw_toast_overlay_add_toast (self->toast_overlay,
                                   adw_toast_new (_("An exam is already under way in this window")));
      return;
    }

  viva_exam_file_load_async (path, mode->cancellable, exam_loaded_cb, g_object_ref (self));
}

/**
 * _viva_window_exam_mode_session_started:
 *
 * Stamps a new defense with the exam and who sits it.
 */
void
_viva_window_exam_mode_session_started (VivaWindow      *self,
                                        VivaExamSession *session)
{
  VivaExamFile *exam = _viva_window_exam_mode_get_exam (self);

  g_assert (VIVA_IS_WINDOW (self));

  if (exam == NULL)
    return;

  viva_exam_session_set_student (session, self->exam_mode->student_name, self->exam_mode->student_id);
  viva_exam_session_set_exam (session, exam);
}

/**
 * _viva_window_exam_mode_save_state:
 *
 * Writes the exam's state again: the hand-in's lists changed.
 */
void
_viva_window_exam_mode_save_state (VivaWindow *self)
{
  g_assert (VIVA_IS_WINDOW (self));

  if (_viva_window_exam_mode_get_exam (self) != NULL)
    write_state (self);
}

/**
 * _viva_window_exam_mode_hint_cost:
 *
 * Returns: the points one hint costs in the exam, or 0
 */
double
_viva_window_exam_mode_hint_cost (VivaWindow *self)
{
  VivaExamFile *exam = _viva_window_exam_mode_get_exam (self);

  return exam ? viva_exam_file_get_hint_cost (exam) : 0;
}

typedef struct
{
  char *session_dir;
  char *folder;
} ReportJob;

static void
report_job_free (ReportJob *job)
{
  g_free (job->session_dir);
  g_free (job->folder);
  g_free (job);
}

/* On a worker thread: the report's folder may be a slow network share. */
static void
write_report_thread (GTask        *task,
                     gpointer      source_object,
                     gpointer      task_data,
                     GCancellable *cancellable)
{
  ReportJob *job = task_data;
  g_autoptr(JsonNode) report = NULL;
  g_autofree char *html = NULL;
  g_autofree char *json = NULL;
  g_autofree char *html_name = NULL;
  g_autofree char *json_name = NULL;
  g_autofree char *html_path = NULL;
  g_autofree char *json_path = NULL;
  g_autoptr(GFile) html_file = NULL;
  g_autoptr(GFile) json_file = NULL;
  g_autoptr(GBytes) html_bytes = NULL;
  g_autoptr(GBytes) json_bytes = NULL;
  GError *error = NULL;

  if (!(report = viva_exam_report_load (job->session_dir, &error)))
    return g_task_return_error (task, error);

  /* Made here rather than by the file writer (which makes private
   * folders): the teacher collects the reports from this one. */
  if (g_mkdir_with_parents (job->folder, 0755) != 0)
    {
      int saved = errno;
      return g_task_return_new_error (task, G_IO_ERROR, g_io_error_from_errno (saved),
                                      "%s", g_strerror (saved));
    }

  html_name = viva_exam_report_dup_file_name (report, "html");
  json_name = viva_exam_report_dup_file_name (report, "json");
  html_path = g_build_filename (job->folder, html_name, NULL);
  json_path = g_build_filename (job->folder, json_name, NULL);
  html = viva_exam_report_render_html (report);
  json = json_to_string (report, TRUE);

  json_file = g_file_new_for_path (json_path);
  html_file = g_file_new_for_path (html_path);
  json_bytes = g_bytes_new_static (json, strlen (json));
  html_bytes = g_bytes_new_static (html, strlen (html));
  if (!viva_file_writer_write (json_file, json_bytes, 0644, VIVA_FILE_WRITER_NONE, &error) ||
      !viva_file_writer_write (html_file, html_bytes, 0644, VIVA_FILE_WRITER_NONE, &error))
    return g_task_return_error (task, error);

  g_task_return_pointer (task, g_steal_pointer (&html_path), g_free);
}

static void
report_written_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(VivaWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_task_propagate_pointer (G_TASK (result), &error);
  ReportJob *job = g_task_get_task_data (G_TASK (result));

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || self->exam_mode == NULL)
    return;

  if (path == NULL)
    {
      g_autofree char *message = g_strdup_printf (_("Your report could not be written to %s: %s. Tell the teacher before you leave."),
                                                  job->folder, error->message);
      _viva_window_show_banner (self, message);
      return;
    }

  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (_("Your report was handed in to the exam’s folder")));
}

static void
session_flushed_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(VivaWindow) self = user_data;
  VivaExamSession *session = VIVA_EXAM_SESSION (object);
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  VivaExamFile *exam;
  ReportJob *job;

  /* A write error was reported by the session already; the report is
   * written from what is on disk either way. */
  viva_exam_session_flush_finish (session, result, &error);

  if (self->exam_mode == NULL || (exam = _viva_window_exam_mode_get_exam (self)) == NULL)
    return;

  job = g_new0 (ReportJob, 1);
  job->session_dir = g_strdup (viva_exam_session_get_dir (session));
  job->folder = g_strdup (viva_exam_file_get_report_folder (exam));

  task = g_task_new (NULL, self->exam_mode->cancellable, report_written_cb, g_object_ref (self));
  g_task_set_source_tag (task, session_flushed_cb);
  g_task_set_task_data (task, job, (GDestroyNotify)report_job_free);
  g_task_run_in_thread (task, write_report_thread);
}

/**
 * _viva_window_exam_mode_defense_finished:
 *
 * A defense of the exam ended: hands its report (HTML and JSON) in to the
 * exam's report folder once the session is on disk.
 */
void
_viva_window_exam_mode_defense_finished (VivaWindow   *self,
                                         VivaExaminer *examiner)
{
  VivaExamSession *session = viva_examiner_get_session (examiner);

  g_assert (VIVA_IS_WINDOW (self));

  if (_viva_window_exam_mode_get_exam (self) == NULL || session == NULL)
    return;

  viva_exam_session_flush_async (session, self->exam_mode->cancellable, session_flushed_cb, g_object_ref (self));
}

/**
 * _viva_window_update_exam_mode_actions:
 *
 * The exam's part of _viva_window_update_actions(): hints as the exam
 * allows, no importing packs, and nothing to run or edit once time is up.
 */
void
_viva_window_update_exam_mode_actions (VivaWindow *self)
{
  VivaExamFile *exam;

  g_assert (VIVA_IS_WINDOW (self));

  if (self->exam_mode == NULL || (exam = _viva_window_exam_mode_get_exam (self)) == NULL)
    return;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.show-hint", viva_exam_file_get_hints_allowed (exam));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.import-pack", FALSE);
  /* Time up handed the exam in already (through
   * _viva_window_exam_submit_now(), not this action). */
  if (self->exam_mode->time_up)
    {
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "runner.run", FALSE);
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.reset-code", FALSE);
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "exam.submit", FALSE);
    }
}

void
_viva_window_init_exam_mode (VivaWindow *self)
{
  VivaWindowExamMode *mode;

  g_assert (VIVA_IS_WINDOW (self));
  g_assert (self->exam_mode == NULL);

  mode = self->exam_mode = g_new0 (VivaWindowExamMode, 1);
  mode->cancellable = g_cancellable_new ();

  /* Always in sight while an exam runs: the time left, at the end of the
   * header bar. */
  mode->timer_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_add_css_class (GTK_WIDGET (mode->timer_label), "numeric");
  gtk_widget_add_css_class (GTK_WIDGET (mode->timer_label), "heading");
  gtk_widget_set_tooltip_text (GTK_WIDGET (mode->timer_label), _("Time left in the exam"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (mode->timer_label),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, _("Time left in the exam"),
                                  -1);
  gtk_widget_set_visible (GTK_WIDGET (mode->timer_label), FALSE);
  adw_header_bar_pack_end (self->header_bar, GTK_WIDGET (mode->timer_label));
}

void
_viva_window_dispose_exam_mode (VivaWindow *self)
{
  VivaWindowExamMode *mode = g_steal_pointer (&self->exam_mode);

  if (mode == NULL)
    return;

  g_cancellable_cancel (mode->cancellable);
  g_clear_handle_id (&mode->tick_id, g_source_remove);
  if (mode->packs_handler != 0 && self->library != NULL)
    g_clear_signal_handler (&mode->packs_handler, viva_pack_library_get_packs (self->library));
  g_clear_object (&mode->exam);
  g_clear_object (&mode->cancellable);
  g_clear_pointer (&mode->student_name, g_free);
  g_clear_pointer (&mode->student_id, g_free);
  g_clear_pointer (&mode->started, g_date_time_unref);
  g_free (mode);
}

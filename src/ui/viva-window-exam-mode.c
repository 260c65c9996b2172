/* viva-window-exam-mode.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-exam-file.h"
#include "viva-exam-sitting.h"
#include "viva-identity-dialog.h"
#include "viva-settings.h"
#include "viva-exam-errors-dialog.h"
#include "viva-window-private.h"

/* Exam mode: a viva-exam/1 file opened from the menu, `viva --exam FILE`
 * or the `exam-file` setting, shown as a view of its VivaExamSitting
 * (core/sitting/), which holds the rules: the student gives a name and id
 * once; the sitting fixes the examiner's settings and keeps the clock;
 * the window lists only the exam's problems, shows the time left and who
 * sits it in the header bar, and when the time is up runs the defenses
 * the sitting's hand-in gives it (viva-window-exam-hand-in.c). Every
 * defense is stamped by the sitting, which hands its report in to the
 * exam's report folder when it ends.
 *
 * The sitting keeps when it began and what the hand-in keeps in its state
 * file, so closing and opening Viva again continues the same exam and
 * clock. */

#define TIME_UP_ANSWER N_("(The time ran out before an answer was given.)")

struct _VivaWindowExamMode
{
  VivaExamFile    *exam;
  VivaExamSitting *sitting;
  GtkLabel        *timer_label;
  GCancellable    *cancellable;
  guint            tick_id;
  gulong           packs_handler;
};

static void viva_window_exam_mode_tick_now (VivaWindow *self);
static void viva_window_exam_mode_ask_identity (VivaWindow *self);

static gboolean
begun (VivaWindowExamMode *mode)
{
  return mode != NULL && mode->sitting != NULL && viva_exam_sitting_has_begun (mode->sitting);
}

static char *
format_left (gint64 seconds)
{
  if (seconds >= 3600)
    return g_strdup_printf (_("%d:%02d:%02d left"), (int)(seconds / 3600), (int)(seconds / 60 % 60), (int)(seconds % 60));
  return g_strdup_printf (_("%d:%02d left"), (int)(seconds / 60), (int)(seconds % 60));
}

static void
time_up_cb (VivaWindow      *self,
            VivaExamSitting *sitting)
{
  gtk_text_view_set_editable (GTK_TEXT_VIEW (viva_editor_get_view (self->editor)), FALSE);
  if (self->running)
    viva_runner_stop (self->runner);

  _viva_window_exam_time_up (self);
  _viva_window_update_actions (self);
  viva_window_exam_mode_tick_now (self);
}

static gboolean
tick_cb (gpointer user_data)
{
  viva_window_exam_mode_tick_now (VIVA_WINDOW (user_data));
  return G_SOURCE_CONTINUE;
}

/* Once a second: the time left as the sitting counts it, and after the
 * time where the hand-in stands. */
static void
viva_window_exam_mode_tick_now (VivaWindow *self)
{
  VivaWindowExamMode *mode = self->exam_mode;
  g_autofree char *text = NULL;
  g_autofree char *state = NULL;
  gint64 left;

  if (!begun (mode) || viva_exam_file_get_time_limit (mode->exam) == 0)
    return;

  if (!viva_exam_sitting_get_time_up (mode->sitting))
    {
      left = MAX (0, viva_exam_sitting_get_time_left (mode->sitting));
      text = format_left (left);
      gtk_label_set_label (mode->timer_label, text);
      if (left <= 60)
        gtk_widget_add_css_class (GTK_WIDGET (mode->timer_label), "error");
      else if (left <= 5 * 60)
        gtk_widget_add_css_class (GTK_WIDGET (mode->timer_label), "warning");
      return;
    }

  /* While several problems are handed in, which one is defended. */
  state = _viva_window_dup_exam_state (self);
  gtk_label_set_label (mode->timer_label, state ? state : _("Time is up"));
  gtk_widget_add_css_class (GTK_WIDGET (mode->timer_label), "error");

  /* After the time, each question is answered at once with what is typed,
   * so the defense reaches its verdict without waiting. */
  viva_examiner_panel_send_answer_now (self->examiner_panel, _(TIME_UP_ANSWER));
}

/**
 * _viva_window_exam_mode_update_title:
 *
 * The header bar's subtitle names the exam and who sits it for as long as
 * the exam runs, not only in the toast at its start.
 */
void
_viva_window_exam_mode_update_title (VivaWindow *self)
{
  VivaWindowExamMode *mode = self->exam_mode;
  g_autofree char *subtitle = NULL;

  g_assert (VIVA_IS_WINDOW (self));

  if (!begun (mode))
    return;

  /* Translators: the header bar's subtitle during an exam: the exam's
   * title, then the student's name and id as they typed them. */
  subtitle = g_strdup_printf (_("%s — %s (%s)"), viva_exam_file_get_title (mode->exam),
                              viva_exam_sitting_get_student_name (mode->sitting),
                              viva_exam_sitting_get_student_id (mode->sitting));
  adw_window_title_set_subtitle (self->window_title, subtitle);
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
  g_autofree char *title = NULL;
  g_autofree char *name = NULL;
  g_autofree char *id = NULL;
  g_autofree char *note = NULL;
  VivaProblem *first = NULL;

  /* The window's from now: the rest of the window asks it. */
  g_set_object (&self->sitting, mode->sitting);
  viva_exam_sitting_fix_settings (mode->sitting, viva_settings_get_default ());
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
  _viva_window_exam_mode_update_title (self);
  _viva_window_exam_began (self);

  if (viva_exam_file_get_time_limit (mode->exam) > 0)
    {
      /* Reopened after the time: what was submitted then stands, and
       * nothing is submitted again. */
      if (viva_exam_sitting_get_time_up (mode->sitting))
        gtk_text_view_set_editable (GTK_TEXT_VIEW (viva_editor_get_view (self->editor)), FALSE);
      else
        g_signal_connect_object (mode->sitting, "time-up", G_CALLBACK (time_up_cb), self, G_CONNECT_SWAPPED);
      gtk_widget_set_visible (GTK_WIDGET (mode->timer_label), TRUE);
      viva_window_exam_mode_tick_now (self);
      mode->tick_id = g_timeout_add_seconds_full (G_PRIORITY_DEFAULT, 1, tick_cb, self, NULL);
    }

  /* A toast's title is Pango markup: what the teacher and the student
   * typed is text. */
  title = g_markup_escape_text (viva_exam_file_get_title (mode->exam), -1);
  name = g_markup_escape_text (viva_exam_sitting_get_student_name (mode->sitting), -1);
  id = g_markup_escape_text (viva_exam_sitting_get_student_id (mode->sitting), -1);
  note = g_strdup_printf (_("%s: %s (%s)"), title, name, id);
  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (note));
  _viva_window_update_actions (self);
}

static void
identity_response_cb (VivaIdentityDialog *dialog,
                      const char         *response,
                      VivaWindow         *self)
{
  VivaWindowExamMode *mode = self->exam_mode;
  g_autofree char *name = NULL;
  g_autofree char *id = NULL;

  if (mode == NULL || mode->sitting == NULL || viva_exam_sitting_has_begun (mode->sitting))
    return;

  if (g_strcmp0 (response, "start") != 0)
    {
      /* A lab that locks the exam in: there is nothing else to do here. */
      if (viva_settings_is_exam_file_locked (viva_settings_get_default ()))
        viva_window_exam_mode_ask_identity (self);
      else
        {
          g_clear_object (&mode->sitting);
          g_clear_object (&mode->exam);
        }
      return;
    }

  name = viva_identity_dialog_dup_name (dialog);
  id = viva_identity_dialog_dup_student_id (dialog);
  viva_exam_sitting_begin (mode->sitting, name, id, NULL);
  viva_window_exam_mode_begin (self);
}

static void
viva_window_exam_mode_ask_identity (VivaWindow *self)
{
  VivaWindowExamMode *mode = self->exam_mode;
  VivaIdentityDialog *dialog;

  dialog = viva_identity_dialog_new (GTK_WINDOW (self), viva_exam_file_get_title (mode->exam),
                                     viva_exam_file_get_time_limit (mode->exam),
                                     !viva_settings_is_exam_file_locked (viva_settings_get_default ()));
  g_signal_connect_object (dialog, "response", G_CALLBACK (identity_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
sitting_restored_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(VivaWindow) self = user_data;
  VivaExamSitting *sitting = VIVA_EXAM_SITTING (object);
  g_autoptr(GError) error = NULL;
  gboolean restored = viva_exam_sitting_restore_finish (sitting, result, &error);

  if (self->exam_mode == NULL || self->exam_mode->sitting != sitting)
    return;

  /* A state file that cannot be read is asked again, as the first time. */
  if (error != NULL)
    g_debug ("exam: the sitting's state could not be read: %s", error->message);

  if (restored)
    viva_window_exam_mode_begin (self);
  else
    viva_window_exam_mode_ask_identity (self);
}

/* The exam's pack is ready: go on where the student left off, or ask who
 * they are. */
static void
viva_window_exam_mode_pack_ready (VivaWindow *self,
                                  VivaPack   *pack)
{
  VivaWindowExamMode *mode = self->exam_mode;
  g_autoptr(GError) error = NULL;

  g_clear_signal_handler (&mode->packs_handler, viva_pack_library_get_packs (self->library));
  _viva_window_show_banner (self, NULL);

  if (viva_exam_file_get_pack (mode->exam) == NULL &&
      !viva_exam_file_set_pack (mode->exam, pack, &error))
    {
      _viva_window_show_banner (self, error->message);
      g_clear_object (&mode->exam);
      return;
    }

  mode->sitting = viva_exam_sitting_new (mode->exam, NULL);
  viva_exam_sitting_restore_async (mode->sitting, mode->cancellable, sitting_restored_cb, g_object_ref (self));
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
  g_autoptr(GPtrArray) issues = NULL;
  VivaWindowExamMode *mode = self->exam_mode;
  VivaPack *pack;

  exam = viva_exam_file_load_finish (result, &issues, &error);
  if (mode == NULL || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  if (exam == NULL)
    {
      /* Every error with its JSON path, for the teacher to fix. */
      viva_exam_errors_dialog_present (GTK_WINDOW (self), _("This Exam Cannot Start"), issues, error);
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

  /* The problem ids of the installed packs, the bundled one among them,
   * so a missing problem is reported with every other error at once. */
  {
    g_autoptr(GListStore) packs = g_list_store_new (VIVA_TYPE_PACK);
    g_autoptr(VivaPack) bundled = viva_pack_new_bundled ();
    GListModel *library = viva_pack_library_get_packs (self->library);
    g_autoptr(GHashTable) installed = NULL;

    g_list_store_append (packs, bundled);
    for (guint i = 0; i < g_list_model_get_n_items (library); i++)
      {
        g_autoptr(VivaPack) pack = g_list_model_get_item (library, i);
        g_list_store_append (packs, pack);
      }
    installed = viva_exam_file_installed_problems_new (G_LIST_MODEL (packs));
    viva_exam_file_load_full_async (path, installed, mode->cancellable, exam_loaded_cb, g_object_ref (self));
  }
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
  VivaExamSitting *sitting;
  VivaExamFile *exam;

  g_assert (VIVA_IS_WINDOW (self));

  if (self->exam_mode == NULL || (sitting = self->sitting) == NULL)
    return;

  exam = viva_exam_sitting_get_exam (sitting);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.show-hint", viva_exam_file_get_hints_allowed (exam));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.import-pack", FALSE);
  /* Time up handed the exam in already (through
   * _viva_window_exam_submit_now(), not this action). */
  if (viva_exam_sitting_get_time_up (sitting))
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
  g_clear_object (&self->sitting);
  g_clear_object (&mode->sitting);
  g_clear_object (&mode->exam);
  g_clear_object (&mode->cancellable);
  g_free (mode);
}

/* viva-window-exam.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "viva-buffer-code-source.h"
#include "viva-defense.h"
#include "viva-exam-report.h"
#include "viva-settings.h"
#include "viva-window-private.h"

/* The window's side of the examiner: `exam.submit`, `exam.stop` and
 * `exam.retry`. The core assembles the defense (VivaDefense) and chooses
 * its model by the one rule of VivaExamEndpoint (which also knows whether
 * the server answers and warms its model while the student codes); this
 * file gives it the editor's code, runner and pack, shows it in the panel
 * and cancels it. */

typedef enum
{
  OPENING_START,
  OPENING_RESUME,
  OPENING_RETRY,
} Opening;

/* The endpoint, the examiner shown and whether a Submit waits for its
 * model are the window's (viva-window-private.h): Explain and the hand-in
 * read them too. */
struct _VivaWindowExam
{
  VivaDefense      *defense;          /* the one shown, or being prepared */
  GCancellable     *cancellable;      /* the defense running now */
  Opening           opening;
};

/**
 * _viva_window_update_exam_actions:
 *
 * The examiner's part of _viva_window_update_actions(): Submit needs a
 * clean run of the code as it is, and no defense under way.
 */
void
_viva_window_update_exam_actions (VivaWindow *self)
{
  VivaWindowExam *exam = self->exam;
  gboolean busy, failed;

  g_assert (VIVA_IS_WINDOW (self));

  if (exam == NULL)
    return;

  busy = _viva_window_defense_busy (self);
  failed = self->examiner != NULL &&
           viva_examiner_get_state (self->examiner) == VIVA_EXAMINER_STATE_FAILED;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "exam.submit",
                                 self->problem != NULL && self->code_loaded &&
                                 self->ran_ok && !self->running && !self->checking && !busy);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "exam.stop", busy);

  /* The examiner runs code in the same Python: no Run of the student's
   * own meanwhile. */
  if (busy && !self->running)
    gtk_widget_action_set_enabled (GTK_WIDGET (self), "runner.run", FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "exam.retry", failed);
}

static void
examiner_state_cb (VivaWindow   *self,
                   GParamSpec   *pspec,
                   VivaExaminer *examiner)
{
  _viva_window_update_actions (self);
}

static void
run_cb (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  g_autoptr(VivaWindow) self = user_data;
  g_autoptr(VivaExamVerdict) verdict = NULL;
  g_autoptr(GError) error = NULL;
  VivaDefense *defense = VIVA_DEFENSE (object);
  VivaExaminer *examiner = viva_defense_get_examiner (defense);

  verdict = viva_defense_run_finish (defense, result, &error);

  /* The window is gone, or this defense was replaced. */
  if (self->exam == NULL || self->exam->defense != defense)
    return;

  if (verdict != NULL && viva_exam_verdict_get_status (verdict) == VIVA_EXAM_STATUS_FINISHED &&
      self->pack != NULL && viva_examiner_get_problem (examiner) == self->problem)
    viva_status_store_mark_defended (self->status,
                                     viva_pack_get_id (self->pack),
                                     viva_problem_get_id (self->problem),
                                     viva_exam_verdict_get_score (verdict),
                                     viva_exam_verdict_get_passed (verdict));

  if (error != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) &&
      viva_examiner_get_state (examiner) != VIVA_EXAMINER_STATE_FAILED)
    viva_examiner_panel_show_error (self->examiner_panel, error->message);

  _viva_window_defense_ended (self, examiner, verdict != NULL);
  _viva_window_update_actions (self);
}

static void
viva_window_exam_set_examiner (VivaWindow   *self,
                               VivaExaminer *examiner)
{
  if (self->examiner != NULL)
    g_signal_handlers_disconnect_by_func (self->examiner, examiner_state_cb, self);
  g_set_object (&self->examiner, examiner);
  viva_timeline_recorder_set_examiner (self->timeline, examiner);
  if (examiner != NULL)
    g_signal_connect_object (examiner, "notify::state", G_CALLBACK (examiner_state_cb),
                             self, G_CONNECT_SWAPPED);
  viva_examiner_panel_set_defense (self->examiner_panel, VIVA_DEFENSE_VIEW (examiner));
  /* A defense opens the examiner; back to another problem, it closes. */
  g_object_set (self, "examiner-visible", examiner != NULL, NULL);
}

/* The defense over the editor's buffer, the window's runner and the open
 * pack; a new one, or one continuing @session. */
static VivaDefense *
viva_window_exam_new_defense (VivaWindow       *self,
                              VivaExamSession  *session,
                              GError          **error)
{
  g_autoptr(VivaBufferCodeSource) code = NULL;
  g_autoptr(VivaDefense) defense = NULL;

  code = viva_buffer_code_source_new (GTK_TEXT_BUFFER (viva_editor_get_buffer (self->editor)));
  if (session != NULL)
    defense = viva_defense_new_for_session (self->endpoint, session, self->problem,
                                            VIVA_CODE_SOURCE (code), error);
  else
    defense = viva_defense_new (self->endpoint, self->problem, VIVA_CODE_SOURCE (code));
  if (defense == NULL)
    return NULL;

  viva_defense_set_runner (defense, self->runner);
  viva_defense_set_pack (defense, self->pack);

  return g_steal_pointer (&defense);
}

/* The defense is prepared: show it and run it. */
static void
viva_window_exam_show (VivaWindow  *self,
                       VivaDefense *defense)
{
  VivaWindowExam *exam = self->exam;
  VivaExamSession *session = viva_defense_get_session (defense);

  self->submit_pending = FALSE;

  switch (exam->opening)
    {
    case OPENING_START:
      /* Stamped with the exam and who sits it. */
      if (self->sitting != NULL)
        viva_exam_sitting_stamp_session (self->sitting, session);
      viva_examiner_panel_set_defense (self->examiner_panel, NULL);
      viva_examiner_panel_clear (self->examiner_panel);
      viva_window_exam_set_examiner (self, viva_defense_get_examiner (defense));
      /* The same words viva-cli prints. */
      if (viva_defense_get_notice (defense) != NULL)
        viva_examiner_panel_add_note (self->examiner_panel, viva_defense_get_notice (defense));
      /* A cold Ollama model can take a minute before its first word. */
      viva_examiner_panel_set_model_loading (self->examiner_panel,
                                             !viva_defense_get_offline (defense) &&
                                             viva_defense_get_warmth (defense) != VIVA_EXAM_WARMTH_READY);
      break;

    case OPENING_RESUME:
      viva_examiner_panel_set_defense (self->examiner_panel, NULL);
      viva_examiner_panel_clear (self->examiner_panel);
      viva_window_exam_set_examiner (self, viva_defense_get_examiner (defense));
      if (viva_exam_session_get_checkpoint (session) != NULL)
        {
          g_autoptr(JsonNode) report = viva_exam_report_build (viva_exam_session_get_checkpoint (session), NULL, 0);
          JsonObject *report_root = json_node_get_object (report);

          viva_examiner_panel_replay (self->examiner_panel,
                                      json_object_get_array_member (report_root, "transcript"));
        }
      viva_examiner_panel_add_note (self->examiner_panel,
                                    _("Continuing your unfinished defense where it stopped."));
      break;

    case OPENING_RETRY:
    default:
      /* The conversation shown so far stays: the defense carries on from
       * its checkpoint. */
      viva_window_exam_set_examiner (self, viva_defense_get_examiner (defense));
      break;
    }

  viva_defense_run_async (defense, exam->cancellable, run_cb, g_object_ref (self));
  _viva_window_update_actions (self);
}

static void
prepared_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(VivaWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  VivaDefense *defense = VIVA_DEFENSE (object);
  gboolean prepared = viva_defense_prepare_finish (defense, result, &error);

  if (self->exam == NULL || self->exam->defense != defense)
    return;

  if (!prepared)
    {
      self->submit_pending = FALSE;
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        viva_examiner_panel_show_error (self->examiner_panel, error->message);
      _viva_window_update_actions (self);
      return;
    }

  viva_window_exam_show (self, defense);
}

/* Replaces the defense shown with @defense and prepares it; the panel
 * changes once it is (a Submit in auto mode may wait for the check). */
static void
viva_window_exam_open (VivaWindow  *self,
                       VivaDefense *defense,
                       Opening      opening)
{
  VivaWindowExam *exam = self->exam;

  g_cancellable_cancel (exam->cancellable);
  g_clear_object (&exam->cancellable);
  exam->cancellable = g_cancellable_new ();

  g_set_object (&exam->defense, defense);
  exam->opening = opening;

  /* Known at once, mostly: shown in the same moment as the Submit. */
  if (viva_defense_prepare_now (defense))
    return viva_window_exam_show (self, defense);

  self->submit_pending = TRUE;
  viva_defense_prepare_async (defense, exam->cancellable, prepared_cb, g_object_ref (self));
  _viva_window_update_actions (self);
}

/**
 * _viva_window_exam_resume:
 * @session: a checkpointed defense of the open problem
 *
 * Continues @session where it stopped, with the examiner it was started
 * with: a pending question is asked again, a step in flight is redone.
 */
void
_viva_window_exam_resume (VivaWindow      *self,
                          VivaExamSession *session)
{
  g_autoptr(VivaDefense) defense = NULL;
  g_autoptr(GError) error = NULL;

  g_assert (VIVA_IS_WINDOW (self));
  g_return_if_fail (VIVA_IS_EXAM_SESSION (session));

  if (self->problem == NULL || _viva_window_defense_busy (self))
    return;

  if (!(defense = viva_window_exam_new_defense (self, session, &error)))
    {
      viva_examiner_panel_show_error (self->examiner_panel, error->message);
      return;
    }

  viva_window_exam_open (self, defense, OPENING_RESUME);
}

static void
submit_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  VivaWindow *self = VIVA_WINDOW (widget);
  g_autoptr(VivaDefense) defense = NULL;
  g_autoptr(JsonArray) pending = NULL;
  g_autoptr(GError) error = NULL;

  if (self->problem == NULL || _viva_window_defense_busy (self))
    return;

  /* A graded exam's defense runs on its server. */
  if (_viva_window_submit_on_server (self))
    return;

  /* The student's Submit is a grading the exam may limit; the time's
   * hand-in (exam.submit-now) is not. */
  if (g_strcmp0 (action_name, "exam.submit") == 0 && !_viva_window_request_grading (self, FALSE, &error))
    {
      g_autofree char *text = g_strdup_printf ("%s\n", error->message);

      viva_console_append (self->console, VIVA_CONSOLE_NOTICE, text);
      viva_console_set_status (self->console, _("Not submitted"));
      return;
    }

  defense = viva_window_exam_new_defense (self, NULL, NULL);
  /* What was recorded on the problem since its last defense, then the
   * Submit; and whether the hint was seen. */
  pending = viva_timeline_recorder_take_pending (self->timeline);
  viva_defense_set_timeline (defense, pending);
  viva_defense_set_hint_used (defense, _viva_window_hint_used (self));

  viva_window_exam_open (self, defense, OPENING_START);
}

/**
 * _viva_window_exam_submit_now:
 *
 * Submits the open problem for defense whether or not its code last ran
 * cleanly: an exam's time ran out.
 */
void
_viva_window_exam_submit_now (VivaWindow *self)
{
  g_assert (VIVA_IS_WINDOW (self));

  submit_action (GTK_WIDGET (self), "exam.submit-now", NULL);
}

static void
stop_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  VivaWindow *self = VIVA_WINDOW (widget);
  VivaWindowExam *exam = self->exam;

  /* A Submit waiting for the check is forgotten at once. */
  if (self->submit_pending)
    {
      self->submit_pending = FALSE;
      g_clear_object (&exam->defense);
      g_cancellable_cancel (exam->cancellable);
      _viva_window_update_actions (self);
      return;
    }

  g_cancellable_cancel (exam->cancellable);
}

/* From anywhere, to the box the student types into: the examiner opens if
 * it was closed. */
static void
focus_answer_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  VivaWindow *self = VIVA_WINDOW (widget);

  g_object_set (self, "examiner-visible", TRUE, NULL);
  if (!viva_examiner_panel_focus_answer (self->examiner_panel))
    gtk_widget_error_bell (widget);
}

static void
retry_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *param)
{
  VivaWindow *self = VIVA_WINDOW (widget);
  g_autoptr(VivaDefense) defense = NULL;
  g_autoptr(GError) error = NULL;
  VivaExamSession *session;

  if (self->examiner == NULL || viva_examiner_get_state (self->examiner) != VIVA_EXAMINER_STATE_FAILED)
    return;

  viva_examiner_panel_show_error (self->examiner_panel, NULL);

  /* Every defense of the window has a session: it carries on from its
   * checkpoint, with the examiner it had. */
  session = viva_examiner_get_session (self->examiner);
  if (session == NULL || !(defense = viva_window_exam_new_defense (self, session, &error)))
    {
      if (error != NULL)
        viva_examiner_panel_show_error (self->examiner_panel, error->message);
      return;
    }

  viva_window_exam_open (self, defense, OPENING_RETRY);
}

static void
undo_offline_cb (AdwToast *toast,
                 gpointer  user_data)
{
  viva_settings_set_examiner_mode (viva_settings_get_default (), GPOINTER_TO_INT (user_data));
}

/* A setting, not a one-off: the toast says so, with the way back. */
static void
use_offline_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  VivaWindow *self = VIVA_WINDOW (widget);
  VivaSettings *settings = viva_settings_get_default ();
  VivaExaminerMode before = viva_settings_get_examiner_mode (settings);
  AdwToast *toast;

  if (before == VIVA_EXAMINER_MODE_OFFLINE)
    return;

  viva_settings_set_examiner_mode (settings, VIVA_EXAMINER_MODE_OFFLINE);

  toast = adw_toast_new (_("From now on the offline examiner runs every defense (Preferences, Examiner: Always offline)"));
  adw_toast_set_button_label (toast, _("_Undo"));
  adw_toast_set_timeout (toast, 10);
  g_signal_connect (toast, "button-clicked", G_CALLBACK (undo_offline_cb), GINT_TO_POINTER (before));
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

static void
reachability_cb (VivaWindow       *self,
                 GParamSpec       *pspec,
                 VivaExamEndpoint *endpoint)
{
  VivaExamReach reach = viva_exam_endpoint_get_reachability (endpoint);

  /* A check again of the same server changes nothing shown until it says. */
  if (reach == VIVA_EXAM_REACH_CHECKING)
    return;

  /* First run without a model: say how to start one, offer offline. */
  viva_examiner_panel_set_unreachable (self->examiner_panel,
                                       reach == VIVA_EXAM_REACH_NO ? viva_exam_endpoint_get_base_url (endpoint) : NULL);
}

/**
 * _viva_window_exam_problem_opened:
 *
 * A problem is open: stop a defense of another one, and warm the model
 * while the student codes.
 */
void
_viva_window_exam_problem_opened (VivaWindow *self)
{
  VivaWindowExam *exam = self->exam;

  g_assert (VIVA_IS_WINDOW (self));

  if (exam == NULL)
    return;

  if (exam->defense != NULL && viva_defense_get_problem (exam->defense) != self->problem)
    {
      g_cancellable_cancel (exam->cancellable);
      self->submit_pending = FALSE;
      g_clear_object (&exam->defense);
      viva_window_exam_set_examiner (self, NULL);
      viva_examiner_panel_clear (self->examiner_panel);
    }

  viva_exam_endpoint_warm (self->endpoint);
}

void
_viva_window_class_init_exam (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "exam.submit", NULL, submit_action);
  gtk_widget_class_install_action (widget_class, "exam.stop", NULL, stop_action);
  gtk_widget_class_install_action (widget_class, "exam.retry", NULL, retry_action);
  gtk_widget_class_install_action (widget_class, "exam.use-offline", NULL, use_offline_action);
  gtk_widget_class_install_action (widget_class, "exam.focus-answer", NULL, focus_answer_action);
}

void
_viva_window_init_exam (VivaWindow *self)
{
  VivaWindowExam *exam;

  g_assert (VIVA_IS_WINDOW (self));
  g_assert (self->exam == NULL);

  exam = self->exam = g_new0 (VivaWindowExam, 1);
  exam->cancellable = g_cancellable_new ();
  /* Follows the settings: a new server or model is checked again. */
  self->endpoint = viva_exam_endpoint_new (viva_settings_get_default ());
  g_signal_connect_object (self->endpoint, "notify::reachability", G_CALLBACK (reachability_cb),
                           self, G_CONNECT_SWAPPED);

  _viva_window_update_exam_actions (self);
}

void
_viva_window_dispose_exam (VivaWindow *self)
{
  VivaWindowExam *exam = g_steal_pointer (&self->exam);

  if (exam == NULL)
    return;

  /* Cancelled, a defense stays resumable from its checkpoint. */
  g_cancellable_cancel (exam->cancellable);

  if (self->examiner != NULL)
    g_signal_handlers_disconnect_by_func (self->examiner, examiner_state_cb, self);
  g_signal_handlers_disconnect_by_func (self->endpoint, reachability_cb, self);

  g_clear_object (&self->examiner);
  g_clear_object (&exam->defense);
  g_clear_object (&exam->cancellable);
  g_clear_object (&self->endpoint);
  g_free (exam);
}

/* viva-window-exam.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "viva-buffer-code-source.h"
#include "viva-exam-language.h"
#include "viva-exam-pack-ref.h"
#include "viva-exam-report.h"
#include "viva-exam-model.h"
#include "viva-openai-model.h"
#include "viva-scripted-model.h"
#include "viva-settings.h"
#include "viva-window-private.h"

/* The window's side of the examiner: `exam.submit`, `exam.stop` and
 * `exam.retry`, which model examines (the configured endpoint, or the
 * offline examiner when told to or, in auto mode, when nothing answers
 * there), and warming an Ollama model while the student codes so that the
 * defense starts without a minute's wait. The panel shows the examiner;
 * this file creates, runs and cancels it. */

typedef enum
{
  REACH_UNKNOWN,
  REACH_CHECKING,
  REACH_YES,
  REACH_NO,
} Reachability;

typedef enum
{
  WARM_COLD,
  WARM_LOADING,
  WARM_READY,
} Warmth;

struct _VivaWindowExam
{
  VivaExaminer    *examiner;
  GCancellable    *cancellable;       /* the defense running now */
  GCancellable    *warm_cancellable;  /* the reachability check and warm-up */
  VivaOpenAIModel *model;
  char            *warm_model;        /* the model name warmed */
  Reachability     reach;
  Warmth           warmth;
  guint            submit_pending : 1; /* submit waits for the reachability check */
};

static void viva_window_exam_warm (VivaWindow *self);

static gboolean
viva_window_exam_busy (VivaWindow *self)
{
  VivaWindowExam *exam = self->exam;
  VivaExaminerState state;

  if (exam->submit_pending)
    return TRUE;
  if (exam->examiner == NULL)
    return FALSE;

  state = viva_examiner_get_state (exam->examiner);

  return state == VIVA_EXAMINER_STATE_THINKING ||
         state == VIVA_EXAMINER_STATE_RUNNING_TOOL ||
         state == VIVA_EXAMINER_STATE_WAITING_FOR_STUDENT;
}

/**
 * _viva_window_exam_is_busy:
 *
 * Returns: whether a defense runs, or waits to start
 */
gboolean
_viva_window_exam_is_busy (VivaWindow *self)
{
  g_assert (VIVA_IS_WINDOW (self));

  return self->exam != NULL && viva_window_exam_busy (self);
}

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

  busy = viva_window_exam_busy (self);
  failed = exam->examiner != NULL &&
           viva_examiner_get_state (exam->examiner) == VIVA_EXAMINER_STATE_FAILED;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "exam.submit",
                                 self->problem != NULL && self->code_loaded &&
                                 self->ran_ok && !self->running && !busy);
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
  VivaExaminer *examiner = VIVA_EXAMINER (object);

  if (g_task_get_source_tag (G_TASK (result)) == viva_examiner_resume_async)
    verdict = viva_examiner_resume_finish (examiner, result, &error);
  else
    verdict = viva_examiner_run_finish (examiner, result, &error);

  /* The window is gone, or this defense was replaced. */
  if (self->exam == NULL || self->exam->examiner != examiner)
    return;

  if (verdict != NULL && viva_exam_verdict_get_status (verdict) == VIVA_EXAM_STATUS_FINISHED &&
      self->pack != NULL && viva_examiner_get_problem (examiner) == self->problem)
    viva_status_store_mark_defended (self->status,
                                     viva_pack_get_id (self->pack),
                                     viva_problem_get_id (self->problem),
                                     viva_exam_verdict_get_score (verdict),
                                     viva_exam_verdict_get_passed (verdict));

  if (verdict != NULL)
    _viva_window_exam_mode_defense_finished (self, examiner);

  if (error != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) &&
      viva_examiner_get_state (examiner) != VIVA_EXAMINER_STATE_FAILED)
    viva_examiner_panel_show_error (self->examiner_panel, error->message);

  _viva_window_hand_in_defense_ended (self, examiner, verdict != NULL);
  _viva_window_update_actions (self);
}

static VivaExaminer *
viva_window_exam_new_examiner (VivaWindow    *self,
                               VivaChatModel *model)
{
  VivaSettings *settings = viva_settings_get_default ();
  g_autoptr(VivaBufferCodeSource) code = NULL;
  VivaExaminer *examiner;
  g_autofree char *language = NULL;

  code = viva_buffer_code_source_new (GTK_TEXT_BUFFER (viva_editor_get_buffer (self->editor)));
  examiner = viva_examiner_new (model, self->problem, VIVA_CODE_SOURCE (code));
  viva_examiner_set_runner (examiner, _viva_window_ensure_runner (self));
  if (self->pack != NULL)
    {
      /* The session names the pack by id and digest, not a copy of its
       * hidden tests; a pack that exists only in memory is named by id. */
      g_autoptr(JsonObject) pack_ref = viva_exam_pack_ref_new_for_pack (self->pack, NULL);

      viva_examiner_set_pack_id (examiner, viva_pack_get_id (self->pack));
      viva_examiner_set_pack_ref (examiner, pack_ref);
    }

  language = viva_exam_language_choose (viva_settings_get_examiner_language (settings),
                                        self->pack ? viva_pack_get_language (self->pack) : NULL);
  viva_examiner_set_language (examiner, language);

  g_signal_connect_object (examiner, "notify::state", G_CALLBACK (examiner_state_cb),
                           self, G_CONNECT_SWAPPED);

  return examiner;
}

static void
viva_window_exam_set_examiner (VivaWindow   *self,
                               VivaExaminer *examiner)
{
  VivaWindowExam *exam = self->exam;

  if (exam->examiner != NULL)
    g_signal_handlers_disconnect_by_func (exam->examiner, examiner_state_cb, self);
  g_set_object (&exam->examiner, examiner);
  viva_examiner_panel_set_examiner (self->examiner_panel, examiner);
  /* A defense opens the examiner; back to another problem, it closes. */
  _viva_window_set_examiner_visible (self, examiner != NULL);
}

/* Every defense is checkpointed after each step, so a crash or a restart
 * loses nothing; the trace records whether the hint was used. */
static void
viva_window_exam_start_session (VivaWindow   *self,
                                VivaExaminer *examiner)
{
  g_autoptr(VivaExamSession) session = viva_exam_session_new (NULL);
  g_autofree char *code = viva_editor_dup_text (self->editor);

  viva_examiner_set_session (examiner, session);
  _viva_window_exam_mode_session_started (self, session);
  _viva_window_timeline_session_started (self, session, code);

  if (_viva_window_hint_used (self))
    {
      g_autoptr(JsonObject) data = json_object_new ();

      json_object_set_string_member (data, "problem", viva_problem_get_id (self->problem));
      viva_exam_session_trace (session, "hint", data);
    }
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
  VivaWindowExam *exam = self->exam;
  JsonNode *checkpoint = viva_exam_session_get_checkpoint (session);
  JsonObject *root = checkpoint && JSON_NODE_HOLDS_OBJECT (checkpoint) ? json_node_get_object (checkpoint) : NULL;
  JsonObject *model_info = root && json_object_has_member (root, "model") ? json_object_get_object_member (root, "model") : NULL;
  const char *type = model_info && json_object_has_member (model_info, "type")
                     ? json_object_get_string_member (model_info, "type") : NULL;
  gboolean offline = g_strcmp0 (type, "VivaScriptedModel") == 0;
  g_autoptr(VivaChatModel) model = NULL;
  g_autoptr(VivaExaminer) examiner = NULL;

  g_assert (VIVA_IS_WINDOW (self));
  g_return_if_fail (VIVA_IS_EXAM_SESSION (session));

  if (self->problem == NULL || viva_window_exam_busy (self))
    return;

  g_cancellable_cancel (exam->cancellable);
  g_clear_object (&exam->cancellable);
  exam->cancellable = g_cancellable_new ();

  if (offline)
    model = VIVA_CHAT_MODEL (viva_scripted_model_new (self->problem));
  else
    model = VIVA_CHAT_MODEL (g_object_ref (exam->model));

  examiner = viva_window_exam_new_examiner (self, model);

  viva_examiner_panel_set_examiner (self->examiner_panel, NULL);
  viva_examiner_panel_clear (self->examiner_panel);
  viva_window_exam_set_examiner (self, examiner);
  if (checkpoint != NULL)
    {
      g_autoptr(JsonNode) report = viva_exam_report_build (checkpoint, NULL, 0);
      JsonObject *report_root = json_node_get_object (report);

      viva_examiner_panel_replay (self->examiner_panel,
                                  json_object_get_array_member (report_root, "transcript"));
    }
  viva_examiner_panel_add_note (self->examiner_panel,
                                _("Continuing your unfinished defense where it stopped."));

  viva_examiner_resume_async (examiner, session, exam->cancellable, run_cb, g_object_ref (self));
  _viva_window_update_actions (self);
}

static void
viva_window_exam_start (VivaWindow *self,
                        gboolean    offline)
{
  VivaWindowExam *exam = self->exam;
  g_autoptr(VivaChatModel) model = NULL;
  g_autoptr(VivaExaminer) examiner = NULL;

  exam->submit_pending = FALSE;

  if (offline)
    model = VIVA_CHAT_MODEL (viva_scripted_model_new (self->problem));
  else
    model = VIVA_CHAT_MODEL (g_object_ref (exam->model));

  examiner = viva_window_exam_new_examiner (self, model);
  viva_window_exam_start_session (self, examiner);

  viva_examiner_panel_set_examiner (self->examiner_panel, NULL);
  viva_examiner_panel_clear (self->examiner_panel);
  viva_window_exam_set_examiner (self, examiner);

  if (offline && viva_settings_get_examiner_mode (viva_settings_get_default ()) != VIVA_EXAMINER_MODE_OFFLINE)
    {
      g_autofree char *note =
        g_strdup_printf (_("No model answered at %s, so the offline examiner runs this defense. It follows the same five steps with the problem’s own tests and questions."),
                         viva_openai_model_get_base_url (exam->model));
      viva_examiner_panel_add_note (self->examiner_panel, note);
    }

  /* A cold Ollama model can take a minute before its first word. */
  viva_examiner_panel_set_model_loading (self->examiner_panel,
                                         !offline && exam->warmth != WARM_READY);

  viva_examiner_run_async (examiner, exam->cancellable, run_cb, g_object_ref (self));
  _viva_window_update_actions (self);
}

static void
submit_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  VivaWindow *self = VIVA_WINDOW (widget);
  VivaWindowExam *exam = self->exam;
  VivaExaminerMode mode = viva_settings_get_examiner_mode (viva_settings_get_default ());

  if (self->problem == NULL || viva_window_exam_busy (self))
    return;

  g_cancellable_cancel (exam->cancellable);
  g_clear_object (&exam->cancellable);
  exam->cancellable = g_cancellable_new ();

  if (mode == VIVA_EXAMINER_MODE_OFFLINE)
    return viva_window_exam_start (self, TRUE);

  if (mode == VIVA_EXAMINER_MODE_MODEL || exam->reach == REACH_YES)
    return viva_window_exam_start (self, FALSE);

  if (exam->reach == REACH_NO)
    return viva_window_exam_start (self, TRUE);

  /* Auto, and not known yet: start once the check says. */
  exam->submit_pending = TRUE;
  _viva_window_update_actions (self);
  if (exam->reach == REACH_UNKNOWN)
    viva_window_exam_warm (self);
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

  submit_action (GTK_WIDGET (self), "exam.submit", NULL);
}

static void
stop_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  VivaWindow *self = VIVA_WINDOW (widget);
  VivaWindowExam *exam = self->exam;

  if (exam->submit_pending)
    {
      exam->submit_pending = FALSE;
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

  _viva_window_set_examiner_visible (self, TRUE);
  if (!viva_examiner_panel_focus_answer (self->examiner_panel))
    gtk_widget_error_bell (widget);
}

static void
retry_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *param)
{
  VivaWindow *self = VIVA_WINDOW (widget);
  VivaWindowExam *exam = self->exam;
  g_autoptr(VivaExaminer) failed = NULL;
  g_autoptr(VivaExamSession) session = NULL;
  g_autoptr(VivaExaminer) examiner = NULL;

  if (exam->examiner == NULL || viva_examiner_get_state (exam->examiner) != VIVA_EXAMINER_STATE_FAILED)
    return;

  /* Held: replacing the examiner below drops the window's reference. */
  failed = g_object_ref (exam->examiner);

  g_cancellable_cancel (exam->cancellable);
  g_clear_object (&exam->cancellable);
  exam->cancellable = g_cancellable_new ();

  viva_examiner_panel_show_error (self->examiner_panel, NULL);
  examiner = viva_window_exam_new_examiner (self, viva_examiner_get_model (failed));
  if (viva_examiner_get_session (failed) != NULL)
    session = g_object_ref (viva_examiner_get_session (failed));

  /* The conversation shown so far stays: the defense carries on from its
   * checkpoint when it has one, else it starts over below it. */
  if (session != NULL)
    {
      viva_window_exam_set_examiner (self, examiner);
      viva_examiner_resume_async (examiner, session, exam->cancellable, run_cb, g_object_ref (self));
    }
  else
    {
      viva_examiner_panel_add_note (self->examiner_panel, _("Starting the defense again."));
      viva_window_exam_set_examiner (self, examiner);
      viva_examiner_run_async (examiner, exam->cancellable, run_cb, g_object_ref (self));
    }

  _viva_window_update_actions (self);
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

/* Warming: is the endpoint there and does it have the model; then the
 * model client loads it (Ollama) while the student codes. */

static void
warm_up_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(VivaWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  gboolean warm;

  warm = viva_openai_model_warm_up_finish (VIVA_OPENAI_MODEL (object), result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || self->exam == NULL)
    return;

  if (!warm)
    g_debug ("examiner: warming the model failed: %s", error->message);

  self->exam->warmth = warm ? WARM_READY : WARM_COLD;
}

static void
viva_window_exam_load_model (VivaWindow *self,
                             const char *name)
{
  VivaWindowExam *exam = self->exam;

  if (g_strcmp0 (exam->warm_model, name) == 0 && exam->warmth != WARM_COLD)
    return;

  g_free (exam->warm_model);
  exam->warm_model = g_strdup (name);
  exam->warmth = WARM_LOADING;
  viva_openai_model_warm_up_async (exam->model, name, exam->warm_cancellable,
                                   warm_up_cb, g_object_ref (self));
}

static void
viva_window_exam_reachable (VivaWindow   *self,
                            Reachability  reach)
{
  VivaWindowExam *exam = self->exam;

  exam->reach = reach;

  /* First run without a model: say how to start one, offer offline. */
  viva_examiner_panel_set_unreachable (self->examiner_panel,
                                       reach == REACH_NO ? viva_openai_model_get_base_url (exam->model) : NULL);

  if (exam->submit_pending && (reach == REACH_YES || reach == REACH_NO))
    viva_window_exam_start (self, reach == REACH_NO);
}

static void
list_models_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(VivaWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) names = NULL;
  VivaOpenAIModel *model = VIVA_OPENAI_MODEL (object);
  const char *configured;
  const char *name = NULL;

  names = viva_openai_model_list_models_finish (model, result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || self->exam == NULL)
    return;

  if (names == NULL || names[0] == NULL)
    {
      g_debug ("examiner: no model at %s: %s", viva_openai_model_get_base_url (model),
               error ? error->message : "empty list");
      viva_window_exam_reachable (self, REACH_NO);
      return;
    }

  configured = viva_openai_model_get_model (model);
  name = configured != NULL && configured[0] != '\0' ? configured : names[0];
  viva_window_exam_reachable (self, g_strv_contains ((const char * const *)names, name) ? REACH_YES : REACH_NO);

  if (self->exam->reach != REACH_YES)
    return;

  viva_window_exam_load_model (self, name);
}

/* Checks the endpoint and warms its model; cheap to call again. */
static void
viva_window_exam_warm (VivaWindow *self)
{
  VivaWindowExam *exam = self->exam;

  if (viva_settings_get_examiner_mode (viva_settings_get_default ()) == VIVA_EXAMINER_MODE_OFFLINE)
    return;
  if (exam->reach == REACH_CHECKING || (exam->reach == REACH_YES && exam->warmth != WARM_COLD))
    return;

  exam->reach = REACH_CHECKING;
  viva_openai_model_list_models_async (exam->model, exam->warm_cancellable,
                                       list_models_cb, g_object_ref (self));
}

static void
endpoint_changed_cb (VivaWindow   *self,
                     GParamSpec   *pspec,
                     VivaSettings *settings)
{
  VivaWindowExam *exam = self->exam;

  /* What was known was about another server or model. */
  g_cancellable_cancel (exam->warm_cancellable);
  g_clear_object (&exam->warm_cancellable);
  exam->warm_cancellable = g_cancellable_new ();
  g_clear_pointer (&exam->warm_model, g_free);
  exam->reach = REACH_UNKNOWN;
  exam->warmth = WARM_COLD;
  viva_examiner_panel_set_unreachable (self->examiner_panel, NULL);
  viva_window_exam_warm (self);
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

  if (exam->examiner != NULL && viva_examiner_get_problem (exam->examiner) != self->problem)
    {
      g_cancellable_cancel (exam->cancellable);
      exam->submit_pending = FALSE;
      viva_window_exam_set_examiner (self, NULL);
      viva_examiner_panel_clear (self->examiner_panel);
    }

  viva_window_exam_warm (self);
}

/**
 * _viva_window_exam_get_examiner:
 *
 * Returns: (transfer none) (nullable): the defense shown, if any
 */
VivaExaminer *
_viva_window_exam_get_examiner (VivaWindow *self)
{
  g_assert (VIVA_IS_WINDOW (self));

  return self->exam ? self->exam->examiner : NULL;
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
  VivaSettings *settings = viva_settings_get_default ();
  VivaWindowExam *exam;

  g_assert (VIVA_IS_WINDOW (self));
  g_assert (self->exam == NULL);

  exam = self->exam = g_new0 (VivaWindowExam, 1);
  exam->cancellable = g_cancellable_new ();
  exam->warm_cancellable = g_cancellable_new ();
  exam->model = viva_exam_model_new_for_settings (settings);

  g_signal_connect_object (settings, "notify::base-url", G_CALLBACK (endpoint_changed_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (settings, "notify::model", G_CALLBACK (endpoint_changed_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (settings, "notify::examiner-mode", G_CALLBACK (endpoint_changed_cb),
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
  g_cancellable_cancel (exam->warm_cancellable);

  if (exam->examiner != NULL)
    g_signal_handlers_disconnect_by_func (exam->examiner, examiner_state_cb, self);

  g_clear_object (&exam->examiner);
  g_clear_object (&exam->cancellable);
  g_clear_object (&exam->warm_cancellable);
  g_clear_object (&exam->model);
  g_clear_pointer (&exam->warm_model, g_free);
  g_free (exam);
}

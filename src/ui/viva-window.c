/* viva-window.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-markdown.h"
#include "viva-settings.h"
#include "viva-startup-timer.h"
#include "viva-window-private.h"

G_DEFINE_FINAL_TYPE (VivaWindow, viva_window, ADW_TYPE_APPLICATION_WINDOW)

enum {
  PROP_0,
  PROP_HINT_VISIBLE,
  PROP_PROBLEM_VISIBLE,
  PROP_EXAMINER_VISIBLE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* Recomputes which commands are available; the one place that does. */
void
_viva_window_update_actions (VivaWindow *self)
{
  VivaExamSitting *sitting = self->sitting;
  VivaExamFile *exam = sitting ? viva_exam_sitting_get_exam (sitting) : NULL;
  VivaWindowWhy why = { 0 };

  g_assert (VIVA_IS_WINDOW (self));

  why.defending = _viva_window_defense_busy (self);
  why.time_up = sitting != NULL && viva_exam_sitting_get_time_up (sitting);
  why.check_forbidden = exam != NULL && !viva_exam_file_get_check_allowed (exam);
  why.hints_forbidden = exam != NULL && !viva_exam_file_get_hints_allowed (exam);
  why.remote = _viva_window_remote_is_active (self);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "runner.run",
                                 self->running || (self->problem != NULL && self->code_loaded && !self->checking));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "runner.check",
                                 self->problem != NULL && self->code_loaded && !self->running && !self->checking &&
                                 viva_problem_get_n_shown_tests (self->problem) > 0 &&
                                 !why.defending && !why.time_up && !why.check_forbidden && !why.remote);
  _viva_window_update_exam_actions (self);
  _viva_window_update_exam_mode_actions (self);
  _viva_window_update_hand_in_actions (self);
  _viva_window_update_remote_actions (self);
  _viva_window_update_hint_button (self);
  if (self->explain != NULL)
    _viva_window_update_explain_actions (self);
  _viva_window_update_reasons (self, &why);
}

/* Asks the exam sat from a file, if any, whether the open problem may be
 * graded now by a Check (@check) or a Submit (VivaExamSitting knows what
 * the exam allows and its grading limit); practice grades freely. %FALSE
 * with @error saying why. */
gboolean
_viva_window_request_grading (VivaWindow  *self,
                              gboolean     check,
                              GError     **error)
{
  VivaExamSitting *sitting;

  g_assert (VIVA_IS_WINDOW (self));

  if (self->problem == NULL || (sitting = self->sitting) == NULL)
    return TRUE;

  return viva_exam_sitting_request_grading (sitting, viva_problem_get_id (self->problem), check, NULL, error);
}

/* The student pressed Run with @code: the satellites that keep what ran
 * hear it from here. */
void
_viva_window_code_run (VivaWindow *self,
                       const char *code)
{
  g_assert (VIVA_IS_WINDOW (self));

  viva_timeline_recorder_run (self->timeline, code);
  _viva_window_hand_in_code_run (self, code);
  _viva_window_remote_code_run (self);
  _viva_window_explain_forget (self);
}

/* What a satellite tells the others goes through here, so that none calls
 * another: a Run that stopped at an error (Explain offers to explain it,
 * with the code as it ran), a defense that ended (the hand-in hears it and
 * hands in its report), the hand-in's Submit of the next problem (the
 * action may be off by then), a defense continued from the resume banner,
 * and the exam sat from a file beginning and running out of time. */
void
_viva_window_code_failed (VivaWindow    *self,
                          VivaRunResult *result)
{
  g_assert (VIVA_IS_WINDOW (self));

  _viva_window_explain_offer_error (self, viva_timeline_recorder_get_last_run (self->timeline), result);
}

void
_viva_window_defense_ended (VivaWindow   *self,
                            VivaExaminer *examiner,
                            gboolean      reported)
{
  g_assert (VIVA_IS_WINDOW (self));

  _viva_window_hand_in_defense_ended (self, examiner, reported);
}

void
_viva_window_submit_now (VivaWindow *self)
{
  g_assert (VIVA_IS_WINDOW (self));

  _viva_window_exam_submit_now (self);
}

void
_viva_window_resume_defense (VivaWindow      *self,
                             VivaExamSession *session)
{
  g_assert (VIVA_IS_WINDOW (self));

  _viva_window_exam_resume (self, session);
}

void
_viva_window_exam_began (VivaWindow *self)
{
  g_assert (VIVA_IS_WINDOW (self));
  g_assert (self->sitting != NULL);

  _viva_window_hand_in_exam_began (self);
}

void
_viva_window_exam_time_up (VivaWindow *self)
{
  g_assert (VIVA_IS_WINDOW (self));

  _viva_window_hand_in_time_up (self);
}

/* The time-up hand-in: where it stands, and whether it still runs. */
char *
_viva_window_dup_exam_state (VivaWindow *self)
{
  g_assert (VIVA_IS_WINDOW (self));

  return _viva_window_hand_in_dup_state (self);
}

gboolean
_viva_window_handing_in (VivaWindow *self)
{
  g_assert (VIVA_IS_WINDOW (self));

  return _viva_window_hand_in_is_active (self);
}

/* Whether a defense runs, or waits to start. */
gboolean
_viva_window_defense_busy (VivaWindow *self)
{
  VivaExaminerState state;

  g_assert (VIVA_IS_WINDOW (self));

  if (self->submit_pending)
    return TRUE;
  if (self->examiner == NULL)
    return FALSE;

  state = viva_examiner_get_state (self->examiner);

  return state == VIVA_EXAMINER_STATE_THINKING ||
         state == VIVA_EXAMINER_STATE_RUNNING_TOOL ||
         state == VIVA_EXAMINER_STATE_WAITING_FOR_STUDENT;
}

/* Returns %TRUE when the window sits an exam on an exam server, which took
 * the Submit: the server runs the defense, not this PC */
gboolean
_viva_window_submit_on_server (VivaWindow *self)
{
  g_assert (VIVA_IS_WINDOW (self));

  if (!_viva_window_remote_is_active (self))
    return FALSE;

  _viva_window_remote_submit (self);
  return TRUE;
}

/* Returns the points one hint costs in the exam sat in this window (the
 * exam file's, or the exam server's), or 0 */
double
_viva_window_hint_cost (VivaWindow *self)
{
  g_assert (VIVA_IS_WINDOW (self));

  if (_viva_window_remote_is_active (self))
    return _viva_window_remote_hint_cost (self);
  return self->sitting ? viva_exam_file_get_hint_cost (viva_exam_sitting_get_exam (self->sitting)) : 0;
}

/* Returns whether the window sits an exam, from a file or on a server */
gboolean
_viva_window_exam_under_way (VivaWindow *self)
{
  g_assert (VIVA_IS_WINDOW (self));

  return self->sitting != NULL || _viva_window_remote_is_active (self);
}

/* Replaces the student's code without recording it as their paste (a reset
 * to the starter code, the code last run when time runs out). */
void
_viva_window_replace_code (VivaWindow *self,
                           const char *text)
{
  g_assert (VIVA_IS_WINDOW (self));

  viva_timeline_recorder_set_quiet (self->timeline, TRUE);
  viva_editor_replace_text (self->editor, text);
  viva_timeline_recorder_set_quiet (self->timeline, FALSE);
}

/* A sitting on a server takes the timeline's events, sent with the saves. */
static gboolean
take_event_cb (VivaWindow           *self,
               JsonObject           *event,
               VivaTimelineRecorder *recorder)
{
  return _viva_window_remote_take_event (self, event);
}

/* The window losing the focus is on the timeline during a defense. */
static void
active_cb (VivaWindow *self)
{
  viva_timeline_recorder_set_focused (self->timeline, gtk_window_is_active (GTK_WINDOW (self)),
                                      _viva_window_remote_defending (self));
}

void
_viva_window_show_banner (VivaWindow *self,
                          const char *message)
{
  g_assert (VIVA_IS_WINDOW (self));

  if (message != NULL)
    gtk_label_set_label (self->banner_label, message);
  gtk_revealer_set_reveal_child (self->banner_revealer, message != NULL);
}

static void
code_store_error_cb (VivaWindow    *self,
                     GParamSpec    *pspec,
                     VivaCodeStore *store)
{
  _viva_window_show_banner (self, viva_code_store_get_error_message (store));
}

static void
buffer_changed_cb (VivaWindow    *self,
                   GtkTextBuffer *buffer)
{
  g_autofree char *text = NULL;

  g_assert (VIVA_IS_WINDOW (self));

  if (self->problem == NULL || !self->code_loaded)
    return;

  text = viva_editor_dup_text (self->editor);
  viva_code_store_queue_save (self->code_store,
                              viva_pack_get_id (self->pack),
                              viva_problem_get_id (self->problem),
                              text);
  _viva_window_hand_in_code_seen (self, text, TRUE);
  _viva_window_remote_code_changed (self);
}

static void
after_paint_cb (GdkFrameClock *clock,
                VivaWindow    *self)
{
  const char *env;

  if (!self->code_loaded)
    return;

  g_signal_handlers_disconnect_by_func (clock, after_paint_cb, self);
  viva_startup_timer_mark ("ready");

  /* After the first frame, so it does not delay the window. */
  _viva_window_warm_runner (self);

  env = g_getenv ("VIVA_DEBUG_STARTUP");
  if (g_strcmp0 (env, "exit") == 0)
    gtk_window_close (GTK_WINDOW (self));
}

/* Again when the style turns dark or light: the code's highlighting is
 * copied in the colours of the style it was rendered in. */
static void
render_description (VivaWindow *self)
{
  if (self->problem == NULL)
    return;

  viva_markdown_render (gtk_text_view_get_buffer (self->problem_view),
                        viva_problem_get_description (self->problem));
}

static void
viva_window_map (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (viva_window_parent_class)->map (widget);

  viva_startup_timer_mark ("mapped");
  g_signal_connect_object (gtk_widget_get_frame_clock (widget), "after-paint",
                           G_CALLBACK (after_paint_cb), widget, 0);
}

static void
load_code_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(VivaWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *code = NULL;

  code = viva_code_store_load_finish (VIVA_CODE_STORE (object), result, &error);
  viva_startup_timer_mark ("code loaded");

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  if (error != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    {
      g_autofree char *message =
        g_strdup_printf (_("Your saved code for this problem could not be read (%s), so the starter code is shown. The saved file was left as it is."),
                         error->message);
      _viva_window_show_banner (self, message);
    }

  g_signal_handler_block (viva_editor_get_buffer (self->editor), self->changed_handler);
  viva_editor_load_text (self->editor, code ? code : viva_problem_get_starter_code (self->problem));
  g_signal_handler_unblock (viva_editor_get_buffer (self->editor), self->changed_handler);

  self->code_loaded = TRUE;
  _viva_window_hand_in_code_seen (self, code ? code : viva_problem_get_starter_code (self->problem), FALSE);
  _viva_window_update_actions (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));

  /* The student types code next, unless a defense has the focus or one
   * is offered back (its Continue has it). */
  if (self->examiner == NULL && self->resume_id == NULL)
    gtk_widget_grab_focus (GTK_WIDGET (self->editor));
}

/* Shows @problem without its code yet; %FALSE when it is shown already. */
static gboolean
viva_window_show_problem (VivaWindow  *self,
                          VivaPack    *pack,
                          VivaProblem *problem)
{
  if (self->problem == problem)
    return FALSE;

  g_set_object (&self->pack, pack);
  g_set_object (&self->problem, problem);
  viva_timeline_recorder_set_problem (self->timeline, pack, problem);
  _viva_window_set_hint_visible (self, FALSE);
  self->code_loaded = FALSE;
  self->ran_ok = FALSE;
  if (self->running)
    viva_runner_stop (self->runner);
  _viva_window_check_stop (self);

  adw_window_title_set_title (self->window_title, viva_problem_get_title (problem));
  adw_window_title_set_subtitle (self->window_title, viva_pack_get_title (pack));
  gtk_window_set_title (GTK_WINDOW (self), viva_problem_get_title (problem));
  _viva_window_exam_mode_update_title (self);
  _viva_window_hand_in_problem_shown (self);
  viva_problems_popover_set_current (self->problems_popover, viva_pack_get_id (pack),
                                     viva_problem_get_id (problem));
  render_description (self);
  viva_console_clear (self->console);

  viva_settings_set_last_problem (viva_settings_get_default (),
                                  viva_pack_get_id (pack),
                                  viva_problem_get_id (problem));

  g_cancellable_cancel (self->load_cancellable);
  g_clear_object (&self->load_cancellable);
  self->load_cancellable = g_cancellable_new ();

  return TRUE;
}

/**
 * viva_window_open_problem:
 *
 * Shows @problem: its description, and the student's saved code for it or
 * else its starter code.
 */
void
viva_window_open_problem (VivaWindow  *self,
                          VivaPack    *pack,
                          VivaProblem *problem)
{
  g_return_if_fail (VIVA_IS_WINDOW (self));
  g_return_if_fail (VIVA_IS_PACK (pack));
  g_return_if_fail (VIVA_IS_PROBLEM (problem));

  if (!viva_window_show_problem (self, pack, problem))
    return;

  viva_code_store_load_async (self->code_store,
                              viva_pack_get_id (pack),
                              viva_problem_get_id (problem),
                              self->load_cancellable,
                              load_code_cb,
                              g_object_ref (self));

  _viva_window_exam_problem_opened (self);
  _viva_window_resume_problem_opened (self);
  _viva_window_remote_problem_opened (self);
  _viva_window_update_actions (self);
}

/* @code: the code to show Shows @problem with @code instead of its saved
 * code: an exam's hand-in after the time, which must not read what is on
 * disk by then. */
void
_viva_window_open_problem_with_code (VivaWindow  *self,
                                     VivaPack    *pack,
                                     VivaProblem *problem,
                                     const char  *code)
{
  g_assert (VIVA_IS_WINDOW (self));
  g_assert (VIVA_IS_PACK (pack));
  g_assert (VIVA_IS_PROBLEM (problem));
  g_assert (code != NULL);

  if (!viva_window_show_problem (self, pack, problem))
    return;

  /* Not saved: the student's own file keeps what they typed. */
  g_signal_handler_block (viva_editor_get_buffer (self->editor), self->changed_handler);
  viva_editor_load_text (self->editor, code);
  g_signal_handler_unblock (viva_editor_get_buffer (self->editor), self->changed_handler);
  self->code_loaded = TRUE;

  _viva_window_exam_problem_opened (self);
  _viva_window_resume_problem_opened (self);
  _viva_window_update_actions (self);
}

VivaProblem *
viva_window_get_problem (VivaWindow *self)
{
  g_return_val_if_fail (VIVA_IS_WINDOW (self), NULL);

  return self->problem;
}

static void
status_flush_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(VivaWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  /* A lost badge is not worth keeping the window open for. */
  if (!viva_status_store_flush_finish (VIVA_STATUS_STORE (object), result, &error))
    g_debug ("status: %s", error->message);

  self->close_ready = TRUE;
  gtk_window_close (GTK_WINDOW (self));
}

static void
remote_flush_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(VivaWindow) self = user_data;

  _viva_window_remote_flush_finish (self, result, NULL);
  viva_status_store_flush_async (self->status, NULL, status_flush_cb, g_object_ref (self));
}

static void
flush_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(VivaWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!viva_code_store_flush_finish (VIVA_CODE_STORE (object), result, &error))
    {
      /* Stay open: closing now would lose what the student typed. */
      self->closing = FALSE;
      _viva_window_show_banner (self, error->message);
      return;
    }

  /* An exam on a server: the code not yet sent goes there first. */
  _viva_window_remote_flush_async (self, remote_flush_cb, g_object_ref (self));
}

static gboolean
viva_window_close_request (GtkWindow *window)
{
  VivaWindow *self = VIVA_WINDOW (window);

  if (self->close_ready)
    return GTK_WINDOW_CLASS (viva_window_parent_class)->close_request (window);

  /* Problems still wait to be handed in: ask first. */
  if (!self->closing && _viva_window_hand_in_hold_close (self))
    return TRUE;

  if (!self->closing)
    {
      self->closing = TRUE;
      _viva_window_save_layout (self);
      viva_code_store_flush_async (self->code_store, NULL, flush_cb, g_object_ref (self));
    }

  return TRUE;
}

static void
viva_window_size_allocate (GtkWidget *widget,
                           int        width,
                           int        height,
                           int        baseline)
{
  GTK_WIDGET_CLASS (viva_window_parent_class)->size_allocate (widget, width, height, baseline);

  _viva_window_layout_allocated (VIVA_WINDOW (widget));
}

static void
viva_window_dispose (GObject *object)
{
  VivaWindow *self = (VivaWindow *)object;

  g_cancellable_cancel (self->cancellable);
  g_cancellable_cancel (self->load_cancellable);
  g_cancellable_cancel (self->resume_cancellable);
  g_cancellable_cancel (self->check_cancellable);

  if (self->runner != NULL)
    viva_runner_stop (self->runner);

  _viva_window_dispose_remote (self);
  _viva_window_dispose_exam_mode (self);
  _viva_window_dispose_exam (self);
  _viva_window_dispose_hand_in (self);
  /* The recorder lives until finalize: what still ends now records
   * nowhere, rather than into a freed window. */
  if (self->timeline != NULL)
    {
      viva_timeline_recorder_set_examiner (self->timeline, NULL);
      viva_timeline_recorder_set_problem (self->timeline, NULL, NULL);
    }
  _viva_window_dispose_explain (self);
  _viva_window_dispose_layout (self);
  gtk_widget_dispose_template (GTK_WIDGET (self), VIVA_TYPE_WINDOW);

  g_clear_object (&self->cancellable);
  g_clear_object (&self->load_cancellable);
  g_clear_object (&self->resume_cancellable);
  g_clear_object (&self->check_cancellable);
  g_clear_pointer (&self->resume_id, g_free);
  g_clear_object (&self->code_store);
  g_clear_object (&self->library);
  g_clear_object (&self->status);
  g_clear_pointer (&self->hints_used, g_hash_table_unref);
  g_clear_object (&self->runner);
  g_clear_object (&self->problem);
  g_clear_object (&self->pack);

  G_OBJECT_CLASS (viva_window_parent_class)->dispose (object);
}

static void
viva_window_finalize (GObject *object)
{
  VivaWindow *self = (VivaWindow *)object;

  g_clear_object (&self->timeline);

  G_OBJECT_CLASS (viva_window_parent_class)->finalize (object);
}

static void
viva_window_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  VivaWindow *self = VIVA_WINDOW (object);

  switch (prop_id)
    {
    case PROP_HINT_VISIBLE:
      g_value_set_boolean (value, self->hint_visible);
      break;

    case PROP_PROBLEM_VISIBLE:
      g_value_set_boolean (value, _viva_window_get_problem_visible (self));
      break;

    case PROP_EXAMINER_VISIBLE:
      g_value_set_boolean (value, self->examiner_visible);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_window_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  VivaWindow *self = VIVA_WINDOW (object);

  switch (prop_id)
    {
    case PROP_HINT_VISIBLE:
      _viva_window_set_hint_visible (self, g_value_get_boolean (value));
      break;

    case PROP_PROBLEM_VISIBLE:
      _viva_window_set_problem_visible (self, g_value_get_boolean (value));
      break;

    case PROP_EXAMINER_VISIBLE:
      _viva_window_set_examiner_visible (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_window_class_init (VivaWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = viva_window_dispose;
  object_class->finalize = viva_window_finalize;
  object_class->get_property = viva_window_get_property;
  object_class->set_property = viva_window_set_property;

  properties[PROP_HINT_VISIBLE] =
    g_param_spec_boolean ("hint-visible", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PROBLEM_VISIBLE] =
    g_param_spec_boolean ("problem-visible", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_EXAMINER_VISIBLE] =
    g_param_spec_boolean ("examiner-visible", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  widget_class->map = viva_window_map;
  widget_class->size_allocate = viva_window_size_allocate;
  window_class->close_request = viva_window_close_request;

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/viva-window.ui");
  gtk_widget_class_bind_template_child (widget_class, VivaWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, VivaWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, VivaWindow, problems_button);
  gtk_widget_class_bind_template_child (widget_class, VivaWindow, problems_popover);
  gtk_widget_class_bind_template_child (widget_class, VivaWindow, submit_button);
  gtk_widget_class_bind_template_child (widget_class, VivaWindow, banner_revealer);
  gtk_widget_class_bind_template_child (widget_class, VivaWindow, banner_label);
  gtk_widget_class_bind_template_child (widget_class, VivaWindow, examiner_paned);
  gtk_widget_class_bind_template_child (widget_class, VivaWindow, problem_paned);
  gtk_widget_class_bind_template_child (widget_class, VivaWindow, console_paned);
  gtk_widget_class_bind_template_child (widget_class, VivaWindow, problem_box);
  gtk_widget_class_bind_template_child (widget_class, VivaWindow, editor);
  gtk_widget_class_bind_template_child (widget_class, VivaWindow, console);
  gtk_widget_class_bind_template_child (widget_class, VivaWindow, examiner_panel);
  gtk_widget_class_bind_template_child (widget_class, VivaWindow, header_bar);

  gtk_widget_class_install_action (widget_class, "runner.run", NULL, _viva_window_run_action);
  gtk_widget_class_install_property_action (widget_class, "win.show-problem", "problem-visible");
  gtk_widget_class_install_property_action (widget_class, "win.show-examiner", "examiner-visible");

  _viva_window_class_init_problems (widget_class);
  _viva_window_class_init_resume (widget_class);
  _viva_window_class_init_exam (widget_class);
  _viva_window_class_init_check (widget_class);
  _viva_window_class_init_runner (widget_class);
  _viva_window_class_init_explain (widget_class);

  g_type_ensure (VIVA_TYPE_PROBLEMS_POPOVER);
  g_type_ensure (VIVA_TYPE_EDITOR);
  g_type_ensure (VIVA_TYPE_CONSOLE);
  g_type_ensure (VIVA_TYPE_EXAMINER_PANEL);
}

static void
viva_window_init (VivaWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  if (DEVELOPMENT_BUILD)
    gtk_widget_add_css_class (GTK_WIDGET (self), "devel");

  self->cancellable = g_cancellable_new ();
  self->code_store = viva_code_store_new (NULL);
  g_signal_connect_object (self->code_store, "notify::error-message",
                           G_CALLBACK (code_store_error_cb), self, G_CONNECT_SWAPPED);

  self->changed_handler =
    g_signal_connect_object (viva_editor_get_buffer (self->editor), "changed",
                             G_CALLBACK (buffer_changed_cb), self, G_CONNECT_SWAPPED);

  viva_markdown_attach_links (self->problem_view);
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (render_description), self, G_CONNECT_SWAPPED);
  _viva_window_init_layout (self);
  _viva_window_init_runner (self);
  _viva_window_init_exam (self);
  self->timeline = viva_timeline_recorder_new (GTK_TEXT_BUFFER (viva_editor_get_buffer (self->editor)));
  g_signal_connect_object (self->timeline, "take-event", G_CALLBACK (take_event_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect (self, "notify::is-active", G_CALLBACK (active_cb), NULL);
  _viva_window_init_exam_mode (self);
  _viva_window_init_hand_in (self);
  _viva_window_init_remote (self);
  _viva_window_init_explain (self);
  _viva_window_update_actions (self);
  _viva_window_init_problems (self);
}

/* Returns whether the student looked at the open problem's hint */
gboolean
_viva_window_hint_used (VivaWindow *self)
{
  g_autofree char *key = NULL;

  g_assert (VIVA_IS_WINDOW (self));

  if (self->problem == NULL)
    return FALSE;

  key = g_strdup_printf ("%s/%s", viva_pack_get_id (self->pack), viva_problem_get_id (self->problem));

  return g_hash_table_contains (self->hints_used, key);
}

VivaWindow *
viva_window_new (VivaApplication *application)
{
  return g_object_new (VIVA_TYPE_WINDOW, "application", application, NULL);
}

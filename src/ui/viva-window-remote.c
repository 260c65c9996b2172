/* viva-window-remote.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-exam-sign-in.h"
#include "viva-remote-defense.h"
#include "viva-remote-exam.h"
#include "viva-remote.h"
#include "viva-remote-seat.h"
#include "viva-window-private.h"

/* A graded exam on an exam server (issue: "a student's PC holds nothing it
 * could read or forge"): the window is a view of core objects. The
 * client (VivaExamServerClient, core/remote/) is the only one that speaks
 * to the server; VivaRemoteExam holds the sitting it answered (the public
 * parts, the server's clock); VivaRemoteSeat (viva-remote-seat.c) this
 * PC's seat once signed in: the queue of code not yet on the server, when
 * the typing is due there, the clock and save lines, signing out when the
 * student signs in elsewhere; VivaRemoteDefense (core/sitting/) the
 * defense the server runs, fed by a VivaDefenseStream and shown by the
 * examiner panel as a defense on the PC is. Editing and Run stay on the
 * PC, as for practice. This file seats the student once VivaExamSignIn
 * (viva-exam-sign-in.c) signed them in, shows the seat in the header bar
 * and follows the defense.
 *
 * The code goes to the server when the seat says it is due, and at every
 * Run and Submit. */

struct _VivaWindowRemote
{
  VivaExamSignIn       *sign_in;
  VivaRemoteSeat       *seat;          /* once signed in */
  GCancellable         *cancellable;
  GtkLabel             *clock_label;
  GtkLabel             *save_label;
  guint                 submitting : 1;
};

static void viva_window_remote_show_defense (VivaWindow        *self,
                                             VivaRemoteDefense *defense);

static gboolean
active (VivaWindow *self)
{
  return self->remote != NULL && self->remote->seat != NULL;
}

/**
 * _viva_window_remote_is_active:
 *
 * Returns: whether this window sits an exam on an exam server
 */
gboolean
_viva_window_remote_is_active (VivaWindow *self)
{
  g_assert (VIVA_IS_WINDOW (self));

  return active (self);
}

static gboolean
open_problem_is_exam (VivaWindow *self)
{
  return active (self) && self->problem != NULL &&
         self->pack == viva_remote_exam_get_pack (viva_remote_seat_get_exam (self->remote->seat));
}

static gboolean
stopped (VivaWindow *self)
{
  return viva_remote_seat_get_stopped (self->remote->seat);
}

/* The server's clock, as the seat counts it. */
static void
clock_cb (VivaWindow *self)
{
  VivaWindowRemote *remote = self->remote;
  const char *style = viva_remote_seat_get_clock_style (remote->seat);

  if (viva_remote_seat_get_clock_text (remote->seat) != NULL)
    gtk_label_set_label (remote->clock_label, viva_remote_seat_get_clock_text (remote->seat));
  if (style != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (remote->clock_label), style);
}

/* "Saved", quietly; "Offline — …" while the server is away. */
static void
save_text_cb (VivaWindow *self)
{
  VivaWindowRemote *remote = self->remote;
  const char *text = viva_remote_seat_get_save_text (remote->seat);

  gtk_widget_set_visible (GTK_WIDGET (remote->save_label), text != NULL);
  if (text != NULL)
    {
      /* A sentence (offline: the one that reassures the student) goes on
       * two small lines, read whole, the title making room; "Saved" stays
       * one quiet word. */
      gboolean sentence = g_utf8_strlen (text, -1) > 24;

      gtk_label_set_wrap (remote->save_label, sentence);
      gtk_label_set_lines (remote->save_label, sentence ? 2 : -1);
      gtk_label_set_width_chars (remote->save_label, sentence ? 34 : 8);
      gtk_label_set_max_width_chars (remote->save_label, sentence ? 34 : 48);
      if (sentence)
        gtk_widget_add_css_class (GTK_WIDGET (remote->save_label), "caption");
      else
        gtk_widget_remove_css_class (GTK_WIDGET (remote->save_label), "caption");
      gtk_label_set_label (remote->save_label, text);
      gtk_widget_set_tooltip_text (GTK_WIDGET (remote->save_label), text);
    }
}

/* What the editor shows goes to the server's queue now. */
static void
send_code (VivaWindow   *self,
           VivaCodeKind  kind)
{
  g_autofree char *code = NULL;

  if (open_problem_is_exam (self) && self->code_loaded && !stopped (self))
    code = viva_editor_dup_text (self->editor);
  viva_remote_seat_send_code (self->remote->seat, code ? viva_problem_get_id (self->problem) : NULL, code, kind);
}

static void
autosave_due_cb (VivaWindow *self)
{
  send_code (self, VIVA_CODE_KIND_AUTOSAVE);
}

/**
 * _viva_window_remote_code_changed:
 *
 * The student typed: the seat says when the code is due on the server.
 */
void
_viva_window_remote_code_changed (VivaWindow *self)
{
  g_assert (VIVA_IS_WINDOW (self));

  if (!open_problem_is_exam (self) || stopped (self))
    return;

  viva_remote_seat_code_changed (self->remote->seat);
}

/**
 * _viva_window_remote_code_run:
 *
 * The student pressed Run: the code as run goes to the server too.
 */
void
_viva_window_remote_code_run (VivaWindow *self)
{
  g_assert (VIVA_IS_WINDOW (self));

  if (open_problem_is_exam (self))
    send_code (self, VIVA_CODE_KIND_RUN);
}

/* The student signed in on another PC: this one stops editing and says so.
 * What was typed here stays in the editor to read. */
static void
signed_out_cb (VivaWindow     *self,
               const char     *message,
               VivaRemoteSeat *seat)
{
  gtk_text_view_set_editable (GTK_TEXT_VIEW (viva_editor_get_view (self->editor)), FALSE);
  if (self->running)
    viva_runner_stop (self->runner);

  _viva_window_show_banner (self, _("You signed in to this exam on another PC, so Viva stopped here: go on at the other PC, where your saved work is."));
  _viva_window_update_actions (self);
}

static void
time_up_cb (VivaWindow *self)
{
  if (!viva_remote_exam_get_time_up (viva_remote_seat_get_exam (self->remote->seat)))
    return;

  /* The server hands in what it holds; this PC sends what is left. */
  send_code (self, VIVA_CODE_KIND_AUTOSAVE);
  gtk_text_view_set_editable (GTK_TEXT_VIEW (viva_editor_get_view (self->editor)), FALSE);
  if (self->running)
    viva_runner_stop (self->runner);
  _viva_window_update_actions (self);
}

static void
defense_changed_cb (VivaWindow *self)
{
  _viva_window_update_actions (self);
}

/* The exam holds its verdicts: the student learns the defense was handed
 * in, and no score. */
static void
held_cb (VivaWindow        *self,
         GParamSpec        *pspec,
         VivaRemoteDefense *defense)
{
  if (viva_remote_defense_get_held (defense))
    viva_examiner_panel_add_note (self->examiner_panel,
                                  _("Handed in. This exam shows its results after it closes, so no score is shown here."));
}

static void
drop_defense (VivaWindow *self)
{
  VivaRemoteDefense *defense = viva_remote_seat_get_defense (self->remote->seat);

  if (defense != NULL)
    g_signal_handlers_disconnect_by_data (defense, self);
  viva_remote_seat_show_defense (self->remote->seat, NULL);
}

/* Shows @defense in the panel, streamed from its first event: the whole
 * conversation so far, then what comes. */
static void
viva_window_remote_show_defense (VivaWindow        *self,
                                 VivaRemoteDefense *defense)
{
  drop_defense (self);
  viva_remote_seat_show_defense (self->remote->seat, defense);
  g_signal_connect_object (defense, "notify::state", G_CALLBACK (defense_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (defense, "notify::held", G_CALLBACK (held_cb), self, G_CONNECT_SWAPPED);

  viva_examiner_panel_set_defense (self->examiner_panel, NULL);
  viva_examiner_panel_clear (self->examiner_panel);
  viva_examiner_panel_set_defense (self->examiner_panel, VIVA_DEFENSE_VIEW (defense));
  g_object_set (self, "examiner-visible", TRUE, NULL);

  _viva_window_update_actions (self);
}

static void
submitted_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(VivaWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) answer = NULL;
  g_autoptr(VivaRemoteDefense) defense = NULL;
  JsonObject *object_defense;
  const char *id, *problem;

  answer = viva_exam_server_client_submit_finish (VIVA_EXAM_SERVER_CLIENT (object), result, &error);
  if (!active (self) || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self->remote->submitting = FALSE;
  if (g_error_matches (error, VIVA_REMOTE_ERROR, VIVA_REMOTE_ERROR_SIGNED_OUT))
    return viva_remote_seat_sign_out (self->remote->seat, error->message);

  object_defense = answer && json_object_has_member (answer, "defense") &&
                   JSON_NODE_HOLDS_OBJECT (json_object_get_member (answer, "defense"))
                   ? json_object_get_object_member (answer, "defense") : NULL;
  id = object_defense ? json_object_get_string_member_with_default (object_defense, "id", NULL) : NULL;
  problem = object_defense ? json_object_get_string_member_with_default (object_defense, "problem", NULL) : NULL;
  if (id == NULL || problem == NULL)
    {
      g_object_set (self, "examiner-visible", TRUE, NULL);
      viva_examiner_panel_show_error (self->examiner_panel,
                                      error ? error->message
                                            : _("The exam server did not start the defense. Submit again."));
      _viva_window_update_actions (self);
      return;
    }

  defense = viva_remote_defense_new (id, problem);
  viva_window_remote_show_defense (self, defense);
}

static void
synced_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(VivaWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *code = NULL;
  VivaWindowRemote *remote = self->remote;

  if (!viva_remote_seat_sync_finish (VIVA_REMOTE_SEAT (object), result, &error) &&
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (!active (self))
    return;
  if (error != NULL || !open_problem_is_exam (self) || stopped (self))
    {
      remote->submitting = FALSE;
      _viva_window_update_actions (self);
      return;
    }

  code = viva_editor_dup_text (self->editor);
  viva_examiner_panel_show_error (self->examiner_panel, NULL);
  viva_exam_server_client_submit_async (viva_remote_seat_get_client (remote->seat), viva_problem_get_id (self->problem), code,
                                        remote->cancellable, submitted_cb, g_object_ref (self));
}

/**
 * _viva_window_remote_submit:
 *
 * Submit on an exam server: what is queued (code, and the timeline the
 * defense's report is to hold) goes first, then the Submit with the
 * code; the server runs the defense, and the panel shows what it
 * streams.
 */
void
_viva_window_remote_submit (VivaWindow *self)
{
  VivaWindowRemote *remote = self->remote;

  g_assert (VIVA_IS_WINDOW (self));

  if (!open_problem_is_exam (self) || stopped (self) || remote->submitting)
    return;

  viva_remote_seat_send_code (remote->seat, NULL, NULL, VIVA_CODE_KIND_SUBMIT);
  remote->submitting = TRUE;
  viva_remote_seat_sync_async (remote->seat, remote->cancellable, synced_cb, g_object_ref (self));
  _viva_window_update_actions (self);
}

/**
 * _viva_window_remote_take_event:
 * @event: an integrity event of the open problem (viva-timeline.c's)
 *
 * In a sitting on a server the timeline goes to the server with the
 * saves, numbered, kept on this PC until the server has it.
 *
 * Returns: whether @event was taken
 */
gboolean
_viva_window_remote_take_event (VivaWindow *self,
                                JsonObject *event)
{
  g_assert (VIVA_IS_WINDOW (self));

  if (!open_problem_is_exam (self))
    return FALSE;

  viva_remote_seat_add_event (self->remote->seat, viva_problem_get_id (self->problem), event);
  return TRUE;
}

/**
 * _viva_window_remote_defending:
 *
 * Returns: whether the server runs a defense of the open problem now
 */
gboolean
_viva_window_remote_defending (VivaWindow *self)
{
  VivaRemoteDefense *defense;

  g_assert (VIVA_IS_WINDOW (self));

  if (!open_problem_is_exam (self) || !(defense = viva_remote_seat_get_defense (self->remote->seat)))
    return FALSE;
  return g_strcmp0 (viva_remote_defense_get_problem_id (defense), viva_problem_get_id (self->problem)) == 0 &&
         !viva_remote_defense_get_ended (defense);
}

/**
 * _viva_window_remote_hint_cost:
 *
 * Returns: the points a hint costs by the server's exam, or 0
 */
double
_viva_window_remote_hint_cost (VivaWindow *self)
{
  g_assert (VIVA_IS_WINDOW (self));

  return active (self) ? viva_remote_exam_get_hint_cost (viva_remote_seat_get_exam (self->remote->seat)) : 0;
}

/**
 * _viva_window_remote_problem_opened:
 *
 * A problem of the exam is open: its defense on the server, if it has
 * one, is shown (a pending question pending still); else none.
 */
void
_viva_window_remote_problem_opened (VivaWindow *self)
{
  VivaWindowRemote *remote = self->remote;
  g_autofree char *subtitle = NULL;
  VivaRemoteExam *exam;
  VivaRemoteDefense *defense;
  const char *id;

  g_assert (VIVA_IS_WINDOW (self));

  if (!open_problem_is_exam (self))
    return;

  exam = viva_remote_seat_get_exam (remote->seat);

  /* Translators: the header bar's subtitle during an exam: the exam's
   * title, then the student's name and id as they typed them. */
  subtitle = g_strdup_printf (_("%s — %s (%s)"), viva_remote_exam_get_title (exam),
                              viva_remote_exam_get_student_name (exam),
                              viva_remote_exam_get_student_id (exam));
  adw_window_title_set_subtitle (self->window_title, subtitle);

  defense = viva_remote_seat_get_defense (remote->seat);
  if (defense != NULL &&
      g_strcmp0 (viva_remote_defense_get_problem_id (defense), viva_problem_get_id (self->problem)) == 0)
    return;

  id = viva_remote_exam_get_defense_id (exam, viva_problem_get_id (self->problem));
  if (id != NULL)
    {
      g_autoptr(VivaRemoteDefense) shown = viva_remote_defense_new (id, viva_problem_get_id (self->problem));

      viva_window_remote_show_defense (self, shown);
      return;
    }

  drop_defense (self);
  viva_examiner_panel_set_defense (self->examiner_panel, NULL);
  viva_examiner_panel_clear (self->examiner_panel);
  g_object_set (self, "examiner-visible", FALSE, NULL);
}

/* Signed in: the exam's problems in the window, its clock in the header,
 * the code as the server last saved it. */
static void
viva_window_remote_begin (VivaWindow           *self,
                          VivaExamServerClient *client,
                          JsonObject           *sitting,
                          VivaRemoteKept       *kept,
                          JsonNode             *kept_state)
{
  VivaWindowRemote *remote = self->remote;
  g_autoptr(GError) error = NULL;
  g_autoptr(VivaRemoteExam) exam = NULL;
  g_autoptr(GString) aside_titles = g_string_new (NULL);
  g_autofree char *aside_folder = NULL;
  const char * const *ids;
  VivaPack *pack;
  VivaProblem *first;

  if (!(exam = viva_remote_exam_new_from_sitting (sitting, &error)))
    {
      _viva_window_show_banner (self, error->message);
      return;
    }

  pack = viva_remote_exam_get_pack (exam);
  ids = viva_remote_exam_get_problems (exam);
  remote->seat = viva_remote_seat_new (client, exam, kept, kept_state);

  /* Each problem opens as the server last saved it (a second PC), or as
   * this PC had it when that is newer (typed offline, then the app
   * started again: the seat sends it). This PC's code the server never
   * had, where the student saved from another PC since, is set aside. */
  for (guint i = 0; ids != NULL && ids[i] != NULL; i++)
    {
      g_autofree char *aside = NULL;
      g_autofree char *code = viva_remote_seat_reconcile (remote->seat, ids[i], &aside);

      if (code != NULL)
        viva_code_store_queue_save (self->code_store, viva_pack_get_id (pack), ids[i], code);
      if (aside != NULL)
        {
          VivaProblem *problem = viva_pack_find_problem (pack, ids[i]);

          g_free (aside_folder);
          aside_folder = g_path_get_dirname (aside);
          if (aside_titles->len > 0)
            g_string_append (aside_titles, ", ");
          g_string_append_printf (aside_titles, "“%s”", problem ? viva_problem_get_title (problem) : ids[i]);
        }
    }
  if (aside_folder != NULL)
    {
      g_autofree char *text = NULL;

      /* Translators: %s are problem titles, then a folder. */
      text = g_strdup_printf (_("You saved %s on another PC since this one last reached the exam server, so that work is open here. What this PC had not sent is kept in %s."),
                              aside_titles->str, aside_folder);
      _viva_window_show_banner (self, text);
    }

  g_signal_connect_object (remote->seat, "notify::save-text", G_CALLBACK (save_text_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (remote->seat, "notify::clock-text", G_CALLBACK (clock_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (remote->seat, "notify::clock-style", G_CALLBACK (clock_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (remote->seat, "autosave-due", G_CALLBACK (autosave_due_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (remote->seat, "signed-out", G_CALLBACK (signed_out_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (exam, "notify::time-up", G_CALLBACK (time_up_cb), self, G_CONNECT_SWAPPED);

  viva_problems_popover_set_exam (self->problems_popover, pack, ids);
  viva_examiner_panel_set_followup_allowed (self->examiner_panel, FALSE);

  gtk_widget_set_visible (GTK_WIDGET (remote->clock_label), viva_remote_exam_get_timed (exam));
  clock_cb (self);
  save_text_cb (self);

  first = ids && ids[0] ? viva_pack_find_problem (pack, ids[0]) : NULL;
  if (first != NULL)
    viva_window_open_problem (self, pack, first);
  if (viva_remote_exam_get_time_up (exam))
    time_up_cb (self);

  _viva_window_update_actions (self);
}

static void
signed_in_cb (VivaWindow           *self,
              VivaExamServerClient *client,
              JsonObject           *sitting,
              VivaRemoteKept       *kept,
              JsonNode             *kept_state)
{
  viva_window_remote_begin (self, client, sitting, kept, kept_state);
}

/**
 * viva_window_join_exam:
 * @link: (nullable): an exam link, `viva://HOST:PORT/EXAM-ID#sha256=…`,
 *   or %NULL to ask for one
 *
 * Signs in to an exam on an exam server, asking the student id and the
 * seat card's code, then sits it in this window. One exam per window.
 */
void
viva_window_join_exam (VivaWindow *self,
                       const char *link)
{
  VivaWindowRemote *remote;

  g_return_if_fail (VIVA_IS_WINDOW (self));

  remote = self->remote;
  if (_viva_window_exam_under_way (self))
    {
      adw_toast_overlay_add_toast (self->toast_overlay,
                                   adw_toast_new (_("An exam is already under way in this window")));
      return;
    }
  viva_exam_sign_in_ask (remote->sign_in, GTK_WINDOW (self), link);
}

static void
seat_flushed_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;

  viva_remote_seat_flush_finish (VIVA_REMOTE_SEAT (object), result, NULL);
  g_task_return_boolean (task, TRUE);
}

/**
 * _viva_window_remote_flush_async:
 *
 * The window closes: what was typed and not yet sent goes to the server,
 * waited for a few seconds at most (viva_remote_seat_flush_async()).
 */
void
_viva_window_remote_flush_async (VivaWindow          *self,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  VivaWindowRemote *remote = self->remote;
  g_autoptr(GTask) task = g_task_new (self, NULL, callback, user_data);

  g_assert (VIVA_IS_WINDOW (self));

  g_task_set_source_tag (task, _viva_window_remote_flush_async);
  if (!active (self) || viva_remote_seat_get_signed_out (remote->seat))
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  if (viva_remote_seat_get_dirty (remote->seat))
    send_code (self, VIVA_CODE_KIND_AUTOSAVE);
  viva_remote_seat_flush_async (remote->seat, seat_flushed_cb, g_steal_pointer (&task));
}

gboolean
_viva_window_remote_flush_finish (VivaWindow    *self,
                                  GAsyncResult  *result,
                                  GError       **error)
{
  g_assert (g_task_is_valid (result, self));

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * _viva_window_update_remote_actions:
 *
 * The exam server's part of _viva_window_update_actions(): Submit once the
 * code ran cleanly and no defense of the problem runs; nothing to run, edit
 * or submit once signed out or after the time.
 */
void
_viva_window_update_remote_actions (VivaWindow *self)
{
  VivaWindowRemote *remote = self->remote;
  VivaRemoteDefense *defense;
  gboolean defending;

  g_assert (VIVA_IS_WINDOW (self));

  if (!active (self))
    return;

  defense = viva_remote_seat_get_defense (remote->seat);
  defending = defense != NULL &&
              g_strcmp0 (viva_remote_defense_get_problem_id (defense),
                         self->problem ? viva_problem_get_id (self->problem) : NULL) == 0;
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.show-hint", viva_remote_exam_get_hints_allowed (viva_remote_seat_get_exam (remote->seat)));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.import-pack", FALSE);
  /* A problem has one defense on the server. */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "exam.submit",
                                 open_problem_is_exam (self) && self->code_loaded && self->ran_ok &&
                                 !self->running && !defending && !remote->submitting && !stopped (self));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "exam.stop", FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "exam.retry", FALSE);
  if (stopped (self))
    {
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "runner.run", self->running);
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.reset-code", FALSE);
    }
}

void
_viva_window_init_remote (VivaWindow *self)
{
  VivaWindowRemote *remote;

  g_assert (VIVA_IS_WINDOW (self));
  g_assert (self->remote == NULL);

  remote = self->remote = g_new0 (VivaWindowRemote, 1);
  remote->cancellable = g_cancellable_new ();
  remote->sign_in = viva_exam_sign_in_new ();
  g_signal_connect_object (remote->sign_in, "signed-in", G_CALLBACK (signed_in_cb), self, G_CONNECT_SWAPPED);

  /* Quiet, beside the clock: whether the work is on the server. */
  remote->save_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_add_css_class (GTK_WIDGET (remote->save_label), "dim-label");
  gtk_label_set_ellipsize (remote->save_label, PANGO_ELLIPSIZE_END);
  /* "Saved" always fits; the offline sentence gives way to the title and
   * is whole in the tooltip. */
  gtk_label_set_width_chars (remote->save_label, 8);
  gtk_label_set_max_width_chars (remote->save_label, 48);
  gtk_widget_set_visible (GTK_WIDGET (remote->save_label), FALSE);
  remote->clock_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_add_css_class (GTK_WIDGET (remote->clock_label), "numeric");
  gtk_widget_add_css_class (GTK_WIDGET (remote->clock_label), "heading");
  gtk_widget_set_tooltip_text (GTK_WIDGET (remote->clock_label), _("Time left in the exam, by the exam server’s clock"));
  gtk_widget_set_visible (GTK_WIDGET (remote->clock_label), FALSE);
  adw_header_bar_pack_end (self->header_bar, GTK_WIDGET (remote->clock_label));
  adw_header_bar_pack_end (self->header_bar, GTK_WIDGET (remote->save_label));
}

void
_viva_window_dispose_remote (VivaWindow *self)
{
  VivaWindowRemote *remote = g_steal_pointer (&self->remote);

  if (remote == NULL)
    return;

  g_cancellable_cancel (remote->cancellable);
  if (remote->seat != NULL)
    {
      VivaRemoteDefense *defense = viva_remote_seat_get_defense (remote->seat);

      if (defense != NULL)
        g_signal_handlers_disconnect_by_data (defense, self);
      g_signal_handlers_disconnect_by_data (remote->seat, self);
      g_signal_handlers_disconnect_by_data (viva_remote_seat_get_exam (remote->seat), self);
      /* Its stream stops now, whoever still holds the seat. */
      viva_remote_seat_show_defense (remote->seat, NULL);
    }
  g_signal_handlers_disconnect_by_data (remote->sign_in, self);
  /* It stops now (its dialog let go, its calls cancelled), whoever still
   * holds it: a call under way holds a reference. */
  g_object_run_dispose (G_OBJECT (remote->sign_in));
  g_clear_object (&remote->sign_in);
  g_clear_object (&remote->seat);
  g_clear_object (&remote->cancellable);
  g_free (remote);
}

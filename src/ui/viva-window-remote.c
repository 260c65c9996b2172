/* viva-window-remote.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-remote-defense.h"
#include "viva-remote-exam.h"
#include "viva-remote.h"
#include "viva-settings.h"
#include "viva-sign-in-dialog.h"
#include "viva-window-private.h"

/* A graded exam on an exam server (issue: "a student's PC holds nothing it
 * could read or forge"): the window is a view of core objects. The
 * client (VivaExamServerClient, core/remote/) is the only one that speaks
 * to the server; VivaRemoteExam holds the sitting it answered (the public
 * parts, the server's clock); VivaRemoteSitting (core/remote/) the code
 * not yet on the server, resent with backoff while the server is away;
 * VivaRemoteDefense (core/sitting/) the defense the server runs, fed by a
 * VivaDefenseStream and shown by the examiner panel as a defense on the PC
 * is. Editing and Run stay on the PC, as for practice.
 *
 * The code goes to the server after a quiet spell in the typing, and at
 * most AUTOSAVE_MAX_S after the first change not yet sent, and at every
 * Run and Submit. The header bar shows the server's clock and, quietly,
 * whether the work is on the server. */

#define AUTOSAVE_QUIET_MS 2000
#define AUTOSAVE_MAX_S    30
#define REFRESH_S         30
#define HELD_POLL_S       10
#define CLOSE_WAIT_S      3

struct _VivaWindowRemote
{
  VivaSignInDialog     *dialog;        /* while signing in; GTK owns it */
  VivaExamServerClient *client;
  VivaRemoteSitting    *queue;
  VivaRemoteExam       *exam;
  VivaDefenseStream    *stream;
  VivaRemoteDefense    *defense;       /* shown in the panel */
  GCancellable         *cancellable;
  GtkLabel             *clock_label;
  GtkLabel             *save_label;
  gint64                dirty_since;   /* monotonic µs of the first unsent change */
  guint                 autosave_id;
  guint                 tick_id;
  guint                 refresh_id;
  guint                 held_id;       /* asks again for a held verdict */
  guint                 submitting : 1;
  guint                 signed_out : 1;
};

static void viva_window_remote_show_defense (VivaWindow        *self,
                                             VivaRemoteDefense *defense);

static gboolean
active (VivaWindow *self)
{
  return self->remote != NULL && self->remote->exam != NULL;
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
         self->pack == viva_remote_exam_get_pack (self->remote->exam);
}

static gboolean
stopped (VivaWindow *self)
{
  return self->remote->signed_out || viva_remote_exam_get_time_up (self->remote->exam);
}

static char *
format_left (gint64 seconds)
{
  if (seconds >= 3600)
    return g_strdup_printf (_("%d:%02d:%02d left"), (int)(seconds / 3600), (int)(seconds / 60 % 60), (int)(seconds % 60));
  return g_strdup_printf (_("%d:%02d left"), (int)(seconds / 60), (int)(seconds % 60));
}

/* The server's clock, once a second. */
static void
tick (VivaWindow *self)
{
  VivaWindowRemote *remote = self->remote;
  g_autofree char *text = NULL;
  gint64 left;

  if (!active (self) || !viva_remote_exam_get_timed (remote->exam))
    return;

  left = viva_remote_exam_get_time_left (remote->exam);
  if (viva_remote_exam_get_time_up (remote->exam))
    gtk_label_set_label (remote->clock_label, _("Time is up"));
  else
    {
      text = format_left (left);
      gtk_label_set_label (remote->clock_label, text);
    }
  if (left <= 60)
    gtk_widget_add_css_class (GTK_WIDGET (remote->clock_label), "error");
  else if (left <= 5 * 60)
    gtk_widget_add_css_class (GTK_WIDGET (remote->clock_label), "warning");
}

static gboolean
tick_cb (gpointer user_data)
{
  tick (VIVA_WINDOW (user_data));
  return G_SOURCE_CONTINUE;
}

/* "Saved", quietly; "Offline — …" while the server is away. */
static void
save_state_cb (VivaWindow *self)
{
  VivaWindowRemote *remote = self->remote;
  const char *text = NULL;

  if (remote->queue == NULL)
    return;

  switch (viva_remote_sitting_get_save_state (remote->queue))
    {
    case VIVA_REMOTE_SAVE_SAVED:
      text = remote->dirty_since != 0 ? NULL : _("Saved");
      break;

    case VIVA_REMOTE_SAVE_SAVING:
      text = _("Saving…");
      break;

    case VIVA_REMOTE_SAVE_OFFLINE:
      text = _("Offline — your work is kept here and sent when the server is back");
      break;

    case VIVA_REMOTE_SAVE_SIGNED_OUT:
      _viva_window_remote_signed_out (self, viva_remote_sitting_get_error_message (remote->queue));
      return;

    case VIVA_REMOTE_SAVE_CLOSED:
      text = _("Handed in");
      break;

    default:
      g_assert_not_reached ();
    }

  gtk_widget_set_visible (GTK_WIDGET (remote->save_label), text != NULL);
  if (text != NULL)
    {
      gtk_label_set_label (remote->save_label, text);
      gtk_widget_set_tooltip_text (GTK_WIDGET (remote->save_label), text);
    }
}

/* What the editor shows goes to the server's queue now. */
static void
send_code (VivaWindow   *self,
           VivaCodeKind  kind)
{
  VivaWindowRemote *remote = self->remote;
  g_autofree char *code = NULL;

  g_clear_handle_id (&remote->autosave_id, g_source_remove);
  remote->dirty_since = 0;
  if (!open_problem_is_exam (self) || !self->code_loaded || stopped (self))
    return;

  code = viva_editor_dup_text (self->editor);
  viva_remote_sitting_queue_code (remote->queue, viva_problem_get_id (self->problem), code, kind);
  save_state_cb (self);
}

static gboolean
autosave_cb (gpointer user_data)
{
  VivaWindow *self = user_data;

  self->remote->autosave_id = 0;
  send_code (self, VIVA_CODE_KIND_AUTOSAVE);
  return G_SOURCE_REMOVE;
}

/**
 * _viva_window_remote_code_changed:
 *
 * The student typed: the code goes to the server after a quiet spell, and
 * never later than AUTOSAVE_MAX_S after the first change not yet sent.
 */
void
_viva_window_remote_code_changed (VivaWindow *self)
{
  VivaWindowRemote *remote = self->remote;
  gint64 now = g_get_monotonic_time ();
  gint64 delay_ms;

  g_assert (VIVA_IS_WINDOW (self));

  if (!open_problem_is_exam (self) || stopped (self))
    return;

  if (remote->dirty_since == 0)
    remote->dirty_since = now;
  delay_ms = MIN (AUTOSAVE_QUIET_MS, AUTOSAVE_MAX_S * 1000 - (now - remote->dirty_since) / 1000);
  g_clear_handle_id (&remote->autosave_id, g_source_remove);
  remote->autosave_id = g_timeout_add (MAX (0, delay_ms), autosave_cb, self);
  save_state_cb (self);
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

/**
 * _viva_window_remote_signed_out:
 * @message: (nullable): what the client said
 *
 * The student signed in on another PC: this one stops editing and says so.
 * What was typed here stays in the editor to read.
 */
void
_viva_window_remote_signed_out (VivaWindow *self,
                                const char *message)
{
  VivaWindowRemote *remote = self->remote;

  g_assert (VIVA_IS_WINDOW (self));

  if (!active (self) || remote->signed_out)
    return;

  remote->signed_out = TRUE;
  g_clear_handle_id (&remote->autosave_id, g_source_remove);
  g_clear_handle_id (&remote->refresh_id, g_source_remove);
  if (remote->stream != NULL)
    viva_defense_stream_stop (remote->stream);
  gtk_text_view_set_editable (GTK_TEXT_VIEW (viva_editor_get_view (self->editor)), FALSE);
  if (self->running)
    viva_runner_stop (self->runner);

  _viva_window_show_banner (self, _("You signed in to this exam on another PC, so Viva stopped here: go on at the other PC, where your saved work is."));
  gtk_label_set_label (remote->save_label, _("Signed out"));
  gtk_widget_set_visible (GTK_WIDGET (remote->save_label), TRUE);
  if (remote->defense != NULL && !viva_remote_defense_get_ended (remote->defense))
    viva_remote_defense_fail (remote->defense, message ? message : _("This defense goes on at your other PC."));
  _viva_window_update_actions (self);
}

static void
time_up_cb (VivaWindow *self)
{
  VivaWindowRemote *remote = self->remote;

  if (!viva_remote_exam_get_time_up (remote->exam))
    return;

  /* The server hands in what it holds; this PC sends what is left. */
  send_code (self, VIVA_CODE_KIND_AUTOSAVE);
  gtk_text_view_set_editable (GTK_TEXT_VIEW (viva_editor_get_view (self->editor)), FALSE);
  if (self->running)
    viva_runner_stop (self->runner);
  tick (self);
  _viva_window_update_actions (self);
}

static void
refresh_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(VivaWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) sitting = NULL;

  sitting = viva_exam_server_client_get_sitting_finish (VIVA_EXAM_SERVER_CLIENT (object), result, &error);
  if (!active (self) || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  if (g_error_matches (error, VIVA_REMOTE_ERROR, VIVA_REMOTE_ERROR_SIGNED_OUT))
    _viva_window_remote_signed_out (self, error->message);
  else if (sitting != NULL)
    viva_remote_exam_update (self->remote->exam, sitting, NULL);
}

/* Now and then, the server's word on the clock, and whether this PC is
 * still the one signed in. A server away is the queue's to say. */
static gboolean
refresh_timeout_cb (gpointer user_data)
{
  VivaWindow *self = user_data;

  viva_exam_server_client_get_sitting_async (self->remote->client, self->remote->cancellable,
                                             refresh_cb, g_object_ref (self));
  return G_SOURCE_CONTINUE;
}

static void
answer_sent_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(VivaRemoteDefense) defense = user_data;
  g_autoptr(GError) error = NULL;

  if (viva_exam_server_client_answer_finish (VIVA_EXAM_SERVER_CLIENT (object), result, &error) ||
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  viva_remote_defense_answer_refused (defense, error->message);
}

static void
send_answer_cb (VivaWindow        *self,
                const char        *text,
                gint64             question_seq,
                VivaRemoteDefense *defense)
{
  viva_exam_server_client_answer_async (self->remote->client, viva_remote_defense_get_id (defense), text,
                                        question_seq, self->remote->cancellable, answer_sent_cb,
                                        g_object_ref (defense));
}

static void
stream_event_cb (VivaWindow        *self,
                 gint64             seq,
                 const char        *kind,
                 JsonObject        *data,
                 VivaDefenseStream *stream)
{
  if (self->remote->defense != NULL)
    viva_remote_defense_feed (self->remote->defense, seq, kind, data);
}

static void
stream_closed_cb (VivaWindow        *self,
                  const GError      *error,
                  VivaDefenseStream *stream)
{
  VivaWindowRemote *remote = self->remote;

  if (error == NULL || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (g_error_matches (error, VIVA_REMOTE_ERROR, VIVA_REMOTE_ERROR_SIGNED_OUT))
    _viva_window_remote_signed_out (self, error->message);
  else if (remote->defense != NULL && !viva_remote_defense_get_ended (remote->defense))
    viva_remote_defense_fail (remote->defense, error->message);
}

static void
defense_changed_cb (VivaWindow *self)
{
  _viva_window_update_actions (self);
}

static void follow (VivaWindow *self,
                    gint64      after);

/* Once the exam closes, its held verdict is the student's: read from the
 * event before it, now and then, until the server tells it whole. */
static gboolean
held_poll_cb (gpointer user_data)
{
  VivaWindow *self = user_data;
  VivaWindowRemote *remote = self->remote;

  if (remote->defense == NULL || !viva_remote_defense_get_held (remote->defense) || remote->signed_out)
    {
      remote->held_id = 0;
      return G_SOURCE_REMOVE;
    }
  follow (self, viva_remote_defense_get_held_seq (remote->defense) - 1);
  return G_SOURCE_CONTINUE;
}

/* The exam holds its verdicts: the student learns the defense was handed
 * in, and no score. */
static void
held_cb (VivaWindow        *self,
         GParamSpec        *pspec,
         VivaRemoteDefense *defense)
{
  if (viva_remote_defense_get_held (defense))
    {
      viva_examiner_panel_add_note (self->examiner_panel,
                                    _("Handed in. This exam shows its results after it closes, so no score is shown here."));
      if (self->remote->held_id == 0)
        self->remote->held_id = g_timeout_add_seconds (HELD_POLL_S, held_poll_cb, self);
    }
  else
    g_clear_handle_id (&self->remote->held_id, g_source_remove);
}

static void
drop_stream (VivaWindow *self)
{
  VivaWindowRemote *remote = self->remote;

  if (remote->stream != NULL)
    {
      g_signal_handlers_disconnect_by_data (remote->stream, self);
      viva_defense_stream_stop (remote->stream);
      g_clear_object (&remote->stream);
    }
}

/* Streams the shown defense's events after @after. */
static void
follow (VivaWindow *self,
        gint64      after)
{
  VivaWindowRemote *remote = self->remote;

  drop_stream (self);
  remote->stream = viva_defense_stream_new (remote->client, viva_remote_defense_get_id (remote->defense), after);
  g_signal_connect_object (remote->stream, "event", G_CALLBACK (stream_event_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (remote->stream, "closed", G_CALLBACK (stream_closed_cb), self, G_CONNECT_SWAPPED);
  viva_defense_stream_start (remote->stream);
}

static void
drop_defense (VivaWindow *self)
{
  VivaWindowRemote *remote = self->remote;

  drop_stream (self);
  g_clear_handle_id (&remote->held_id, g_source_remove);
  if (remote->defense != NULL)
    {
      g_signal_handlers_disconnect_by_data (remote->defense, self);
      g_clear_object (&remote->defense);
    }
}

/* Shows @defense in the panel, streamed from its first event: the whole
 * conversation so far, then what comes. */
static void
viva_window_remote_show_defense (VivaWindow        *self,
                                 VivaRemoteDefense *defense)
{
  VivaWindowRemote *remote = self->remote;

  drop_defense (self);
  remote->defense = g_object_ref (defense);
  g_signal_connect_object (defense, "send-answer", G_CALLBACK (send_answer_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (defense, "notify::state", G_CALLBACK (defense_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (defense, "notify::held", G_CALLBACK (held_cb), self, G_CONNECT_SWAPPED);

  viva_examiner_panel_set_remote (self->examiner_panel, NULL);
  viva_examiner_panel_clear (self->examiner_panel);
  viva_examiner_panel_set_remote (self->examiner_panel, defense);
  _viva_window_set_examiner_visible (self, TRUE);

  follow (self, viva_remote_defense_get_last_seq (defense));
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
    return _viva_window_remote_signed_out (self, error->message);

  object_defense = answer && json_object_has_member (answer, "defense") &&
                   JSON_NODE_HOLDS_OBJECT (json_object_get_member (answer, "defense"))
                   ? json_object_get_object_member (answer, "defense") : NULL;
  id = object_defense ? json_object_get_string_member_with_default (object_defense, "id", NULL) : NULL;
  problem = object_defense ? json_object_get_string_member_with_default (object_defense, "problem", NULL) : NULL;
  if (id == NULL || problem == NULL)
    {
      _viva_window_set_examiner_visible (self, TRUE);
      viva_examiner_panel_show_error (self->examiner_panel,
                                      error ? error->message
                                            : _("The exam server did not start the defense. Submit again."));
      _viva_window_update_actions (self);
      return;
    }

  defense = viva_remote_defense_new (id, problem);
  viva_window_remote_show_defense (self, defense);
}

/**
 * _viva_window_remote_submit:
 *
 * Submit on an exam server: the timeline recorded since the last Submit
 * and the code go to the server, which runs the defense; the panel shows
 * what it streams.
 */
void
_viva_window_remote_submit (VivaWindow *self)
{
  VivaWindowRemote *remote = self->remote;
  g_autoptr(JsonArray) timeline = NULL;
  g_autofree char *code = NULL;

  g_assert (VIVA_IS_WINDOW (self));

  if (!open_problem_is_exam (self) || stopped (self) || remote->submitting)
    return;

  /* The pastes, hints and focus changes since the last Submit, each for
   * its problem, as the app records them for a defense on the PC. */
  timeline = _viva_window_timeline_take_pending (self);
  if (timeline != NULL && json_array_get_length (timeline) > 0)
    {
      for (guint i = 0; i < json_array_get_length (timeline); i++)
        {
          JsonObject *event = json_array_get_object_element (timeline, i);

          if (event != NULL && !json_object_has_member (event, "problem"))
            json_object_set_string_member (event, "problem", viva_problem_get_id (self->problem));
        }
      viva_exam_server_client_add_timeline_async (remote->client, timeline, remote->cancellable, NULL, NULL);
    }

  g_clear_handle_id (&remote->autosave_id, g_source_remove);
  remote->dirty_since = 0;
  remote->submitting = TRUE;
  code = viva_editor_dup_text (self->editor);
  viva_examiner_panel_show_error (self->examiner_panel, NULL);
  viva_exam_server_client_submit_async (remote->client, viva_problem_get_id (self->problem), code,
                                        remote->cancellable, submitted_cb, g_object_ref (self));
  _viva_window_update_actions (self);
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
  const char *id;

  g_assert (VIVA_IS_WINDOW (self));

  if (!open_problem_is_exam (self))
    return;

  /* Translators: the header bar's subtitle during an exam: the exam's
   * title, then the student's name and id as they typed them. */
  subtitle = g_strdup_printf (_("%s — %s (%s)"), viva_remote_exam_get_title (remote->exam),
                              viva_remote_exam_get_student_name (remote->exam),
                              viva_remote_exam_get_student_id (remote->exam));
  adw_window_title_set_subtitle (self->window_title, subtitle);

  if (remote->defense != NULL &&
      g_strcmp0 (viva_remote_defense_get_problem_id (remote->defense), viva_problem_get_id (self->problem)) == 0)
    return;

  id = viva_remote_exam_get_defense_id (remote->exam, viva_problem_get_id (self->problem));
  if (id != NULL)
    {
      g_autoptr(VivaRemoteDefense) defense = viva_remote_defense_new (id, viva_problem_get_id (self->problem));

      viva_window_remote_show_defense (self, defense);
      return;
    }

  drop_defense (self);
  viva_examiner_panel_set_remote (self->examiner_panel, NULL);
  viva_examiner_panel_clear (self->examiner_panel);
  _viva_window_set_examiner_visible (self, FALSE);
}

/* Signed in: the exam's problems in the window, its clock in the header,
 * the code as the server last saved it. */
static void
viva_window_remote_begin (VivaWindow *self,
                          JsonObject *sitting)
{
  VivaWindowRemote *remote = self->remote;
  g_autoptr(GError) error = NULL;
  g_autoptr(VivaRemoteExam) exam = NULL;
  const char * const *ids;
  VivaPack *pack;
  VivaProblem *first;

  if (!(exam = viva_remote_exam_new_from_sitting (sitting, &error)))
    {
      _viva_window_show_banner (self, error->message);
      return;
    }

  remote->exam = g_steal_pointer (&exam);
  pack = viva_remote_exam_get_pack (remote->exam);
  ids = viva_remote_exam_get_problems (remote->exam);

  /* The server's copy of the code is this PC's too: a second PC, or this
   * one after a restart, opens each problem as it was last saved. */
  for (guint i = 0; ids != NULL && ids[i] != NULL; i++)
    {
      const char *code = viva_remote_exam_get_saved_code (remote->exam, ids[i]);

      if (code != NULL)
        viva_code_store_queue_save (self->code_store, viva_pack_get_id (pack), ids[i], code);
    }

  remote->queue = viva_remote_sitting_new (remote->client);
  g_signal_connect_object (remote->queue, "notify::save-state", G_CALLBACK (save_state_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (remote->exam, "notify::time-up", G_CALLBACK (time_up_cb), self, G_CONNECT_SWAPPED);

  viva_problems_popover_set_exam (self->problems_popover, pack, ids);
  viva_examiner_panel_set_followup_allowed (self->examiner_panel, FALSE);

  gtk_widget_set_visible (GTK_WIDGET (remote->clock_label), viva_remote_exam_get_timed (remote->exam));
  tick (self);
  remote->tick_id = g_timeout_add_seconds (1, tick_cb, self);
  remote->refresh_id = g_timeout_add_seconds (REFRESH_S, refresh_timeout_cb, self);
  save_state_cb (self);

  first = ids && ids[0] ? viva_pack_find_problem (pack, ids[0]) : NULL;
  if (first != NULL)
    viva_window_open_problem (self, pack, first);
  if (viva_remote_exam_get_time_up (remote->exam))
    time_up_cb (self);

  _viva_window_update_actions (self);
}

static void
signed_in_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(VivaWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) sitting = NULL;
  g_autofree char *token = NULL;
  VivaWindowRemote *remote = self->remote;

  token = viva_exam_server_client_sign_in_finish (VIVA_EXAM_SERVER_CLIENT (object), result, &sitting, &error);
  if (remote == NULL || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  if (token == NULL)
    {
      g_clear_object (&remote->client);
      if (remote->dialog != NULL)
        {
          viva_sign_in_dialog_set_busy (remote->dialog, FALSE);
          viva_sign_in_dialog_set_error (remote->dialog, error->message);
        }
      return;
    }

  if (remote->dialog != NULL)
    {
      VivaSignInDialog *dialog = g_steal_pointer (&remote->dialog);

      g_signal_handlers_disconnect_by_data (dialog, self);
      gtk_window_destroy (GTK_WINDOW (dialog));
    }
  viva_window_remote_begin (self, sitting);
}

static void
dialog_response_cb (VivaWindow       *self,
                    const char       *response,
                    VivaSignInDialog *dialog)
{
  VivaWindowRemote *remote = self->remote;
  g_autoptr(VivaExamLink) link = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *id = NULL;
  g_autofree char *code = NULL;

  if (g_strcmp0 (response, "sign-in") != 0)
    {
      remote->dialog = NULL;
      g_cancellable_cancel (remote->cancellable);
      g_clear_object (&remote->cancellable);
      remote->cancellable = g_cancellable_new ();
      g_clear_object (&remote->client);
      return;
    }

  text = viva_sign_in_dialog_dup_link (dialog);
  if (!(link = viva_exam_link_parse (text, &error)))
    {
      viva_sign_in_dialog_set_error (dialog, error->message);
      return;
    }

  id = viva_sign_in_dialog_dup_student_id (dialog);
  code = viva_sign_in_dialog_dup_code (dialog);
  g_clear_object (&remote->client);
  remote->client = viva_exam_server_client_new (link);
  viva_sign_in_dialog_set_busy (dialog, TRUE);
  viva_exam_server_client_sign_in_async (remote->client, id, code, remote->cancellable,
                                         signed_in_cb, g_object_ref (self));
}

static gboolean
present_dialog_idle_cb (gpointer user_data)
{
  g_autoptr(VivaWindow) self = user_data;

  if (self->remote != NULL && self->remote->dialog != NULL)
    gtk_window_present (GTK_WINDOW (self->remote->dialog));
  return G_SOURCE_REMOVE;
}

/* Once the window has come up and shown itself, so the dialog is above. */
static void
present_dialog_cb (VivaWindow *self)
{
  g_signal_handlers_disconnect_by_func (self, present_dialog_cb, NULL);
  g_idle_add_full (G_PRIORITY_LOW, present_dialog_idle_cb, g_object_ref (self), NULL);
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
  if (remote->dialog != NULL)
    {
      gtk_window_present (GTK_WINDOW (remote->dialog));
      return;
    }

  remote->dialog = viva_sign_in_dialog_new (GTK_WINDOW (self), link,
                                            !viva_settings_is_exam_file_locked (viva_settings_get_default ()));
  g_signal_connect_object (remote->dialog, "response", G_CALLBACK (dialog_response_cb), self, G_CONNECT_SWAPPED);
  /* At start (`viva --exam LINK`, the lab's setting) the window comes up
   * (and is presented again by the application's activation) after this:
   * the dialog comes once it is, above it. */
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    present_dialog_cb (self);
  else
    g_signal_connect (self, "map", G_CALLBACK (present_dialog_cb), NULL);
}

static void
close_flushed_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;

  /* Sent or not (the server away), the code is in this PC's code store. */
  viva_remote_sitting_flush_finish (VIVA_REMOTE_SITTING (object), result, NULL);
  g_task_return_boolean (task, TRUE);
}

static gboolean
close_wait_cb (gpointer user_data)
{
  g_cancellable_cancel (G_CANCELLABLE (user_data));
  return G_SOURCE_REMOVE;
}

/**
 * _viva_window_remote_flush_async:
 *
 * The window closes: what was typed and not yet sent goes to the server,
 * waited for at most CLOSE_WAIT_S (a server away does not hold the window
 * open; the PC's code store has the code).
 */
void
_viva_window_remote_flush_async (VivaWindow          *self,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  VivaWindowRemote *remote = self->remote;
  g_autoptr(GTask) task = g_task_new (self, NULL, callback, user_data);
  g_autoptr(GCancellable) wait = NULL;

  g_assert (VIVA_IS_WINDOW (self));

  g_task_set_source_tag (task, _viva_window_remote_flush_async);
  if (!active (self) || remote->signed_out || remote->queue == NULL)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  if (remote->dirty_since != 0)
    send_code (self, VIVA_CODE_KIND_AUTOSAVE);
  wait = g_cancellable_new ();
  g_timeout_add_seconds_full (G_PRIORITY_DEFAULT, CLOSE_WAIT_S, close_wait_cb, g_object_ref (wait), g_object_unref);
  viva_remote_sitting_flush_async (remote->queue, wait, close_flushed_cb, g_steal_pointer (&task));
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
  gboolean defending;

  g_assert (VIVA_IS_WINDOW (self));

  if (!active (self))
    return;

  defending = remote->defense != NULL &&
              g_strcmp0 (viva_remote_defense_get_problem_id (remote->defense),
                         self->problem ? viva_problem_get_id (self->problem) : NULL) == 0;
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.show-hint", viva_remote_exam_get_hints_allowed (remote->exam));
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
  g_clear_handle_id (&remote->autosave_id, g_source_remove);
  g_clear_handle_id (&remote->tick_id, g_source_remove);
  g_clear_handle_id (&remote->refresh_id, g_source_remove);
  g_clear_handle_id (&remote->held_id, g_source_remove);
  if (remote->stream != NULL)
    {
      g_signal_handlers_disconnect_by_data (remote->stream, self);
      viva_defense_stream_stop (remote->stream);
    }
  if (remote->defense != NULL)
    g_signal_handlers_disconnect_by_data (remote->defense, self);
  if (remote->queue != NULL)
    g_signal_handlers_disconnect_by_data (remote->queue, self);
  if (remote->exam != NULL)
    g_signal_handlers_disconnect_by_data (remote->exam, self);
  if (remote->dialog != NULL)
    g_signal_handlers_disconnect_by_data (remote->dialog, self);
  g_clear_object (&remote->stream);
  g_clear_object (&remote->defense);
  g_clear_object (&remote->queue);
  g_clear_object (&remote->exam);
  g_clear_object (&remote->client);
  g_clear_object (&remote->cancellable);
  g_free (remote);
}

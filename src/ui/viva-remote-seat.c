/* viva-remote-seat.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-remote-seat.h"
#include "viva-remote-seat-defense.h"

/* This PC's seat in an exam on an exam server, once signed in: the
 * client, the sitting the server answered (VivaRemoteExam) and the queue
 * of code not yet on the server (VivaRemoteSitting), with the timing the
 * window shows: when the typing is due on the server, the server's clock
 * as a line, whether the work is there as a line, and whether the student
 * signed in on another PC; and the defense the server runs that the
 * window shows, followed by a VivaRemoteSeatDefense
 * (viva-remote-seat-defense.c): streamed into a VivaRemoteDefense, its
 * answers sent back. The window shows these and decides what code
 * is sent (the open problem, once its code is loaded): the seat asks for
 * it with ::autosave-due and the window answers with send_code().
 *
 * The code goes to the server after a quiet spell in the typing, and at
 * most AUTOSAVE_MAX_S after the first change not yet sent. The integrity
 * events (pastes, runs, hints…) go with the saves, numbered. With a
 * VivaRemoteKept the queue's part is kept on this PC (its copy of each
 * problem, what the server acknowledged, the events not yet sent), so a
 * sign-in after a restart opens what this PC typed offline, unless the
 * student saved from another PC since (viva_remote_seat_reconcile()). */

#define AUTOSAVE_QUIET_MS 2000
#define AUTOSAVE_MAX_S    30
#define REFRESH_S         30
#define CLOSE_WAIT_S      3

struct _VivaRemoteSeat
{
  GObject               parent_instance;

  VivaExamServerClient *client;
  VivaRemoteExam       *exam;
  VivaRemoteSitting    *queue;
  VivaRemoteKept       *kept;          /* where the queue keeps its part, or NULL */
  VivaRemoteSeatDefense *follower;      /* the defense the window shows */
  GCancellable         *cancellable;
  char                 *save_text;
  char                 *clock_text;
  const char           *clock_style;   /* "warning", "error" or NULL */
  gint64                dirty_since;   /* monotonic µs of the first unsent change */
  guint                 autosave_id;
  guint                 tick_id;
  guint                 refresh_id;
  guint                 signed_out : 1;
};

G_DEFINE_FINAL_TYPE (VivaRemoteSeat, viva_remote_seat, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_SAVE_TEXT,
  PROP_CLOCK_TEXT,
  PROP_CLOCK_STYLE,
  PROP_DEFENSE,
  N_PROPS
};

enum {
  AUTOSAVE_DUE,
  SIGNED_OUT,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
set_save_text (VivaRemoteSeat *self,
               const char     *text)
{
  if (g_strcmp0 (self->save_text, text) == 0)
    return;

  g_free (self->save_text);
  self->save_text = g_strdup (text);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SAVE_TEXT]);
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
tick (VivaRemoteSeat *self)
{
  g_autofree char *text = NULL;
  const char *style = NULL;
  gint64 left;

  if (!viva_remote_exam_get_timed (self->exam))
    return;

  left = viva_remote_exam_get_time_left (self->exam);
  if (viva_remote_exam_get_time_up (self->exam))
    text = g_strdup (_("Time is up"));
  else
    text = format_left (left);
  if (left <= 60)
    style = "error";
  else if (left <= 5 * 60)
    style = "warning";

  if (g_strcmp0 (self->clock_text, text) != 0)
    {
      g_free (self->clock_text);
      self->clock_text = g_steal_pointer (&text);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CLOCK_TEXT]);
    }
  if (g_strcmp0 (self->clock_style, style) != 0)
    {
      self->clock_style = style;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CLOCK_STYLE]);
    }
}

static gboolean
tick_cb (gpointer user_data)
{
  tick (VIVA_REMOTE_SEAT (user_data));
  return G_SOURCE_CONTINUE;
}

/* "Saved", quietly; "Offline — …" while the server is away. */
static void
save_state_cb (VivaRemoteSeat *self)
{
  const char *text = NULL;

  switch (viva_remote_sitting_get_save_state (self->queue))
    {
    case VIVA_REMOTE_SAVE_SAVED:
      text = self->dirty_since != 0 ? NULL : _("Saved");
      break;

    case VIVA_REMOTE_SAVE_SAVING:
      text = _("Saving…");
      break;

    case VIVA_REMOTE_SAVE_OFFLINE:
      text = _("Offline — your work is kept here and sent when the server is back");
      break;

    case VIVA_REMOTE_SAVE_SIGNED_OUT:
      viva_remote_seat_sign_out (self, viva_remote_sitting_get_error_message (self->queue));
      return;

    case VIVA_REMOTE_SAVE_CLOSED:
      text = _("Handed in");
      break;

    default:
      g_assert_not_reached ();
    }

  set_save_text (self, text);
}

static gboolean
autosave_cb (gpointer user_data)
{
  VivaRemoteSeat *self = user_data;

  self->autosave_id = 0;
  g_signal_emit (self, signals[AUTOSAVE_DUE], 0);
  return G_SOURCE_REMOVE;
}

/**
 * viva_remote_seat_code_changed:
 *
 * The student typed in the exam's open problem: ::autosave-due asks for
 * the code after a quiet spell, and never later than AUTOSAVE_MAX_S after
 * the first change not yet sent.
 */
void
viva_remote_seat_code_changed (VivaRemoteSeat *self)
{
  gint64 now = g_get_monotonic_time ();
  gint64 delay_ms;

  g_return_if_fail (VIVA_IS_REMOTE_SEAT (self));

  if (viva_remote_seat_get_stopped (self))
    return;

  if (self->dirty_since == 0)
    self->dirty_since = now;
  delay_ms = MIN (AUTOSAVE_QUIET_MS, AUTOSAVE_MAX_S * 1000 - (now - self->dirty_since) / 1000);
  g_clear_handle_id (&self->autosave_id, g_source_remove);
  self->autosave_id = g_timeout_add (MAX (0, delay_ms), autosave_cb, self);
  save_state_cb (self);
}

/**
 * viva_remote_seat_send_code:
 * @problem_id: (nullable): the problem @code is of
 * @code: (nullable): the code, or %NULL when there is none to send (no
 *   problem of the exam open, or its code not loaded yet)
 *
 * What was typed is due no longer; @code, if any, goes to the server's
 * queue now.
 */
void
viva_remote_seat_send_code (VivaRemoteSeat *self,
                            const char     *problem_id,
                            const char     *code,
                            VivaCodeKind    kind)
{
  g_return_if_fail (VIVA_IS_REMOTE_SEAT (self));

  g_clear_handle_id (&self->autosave_id, g_source_remove);
  self->dirty_since = 0;
  if (code == NULL || problem_id == NULL || viva_remote_seat_get_stopped (self))
    return;

  viva_remote_sitting_queue_code (self->queue, problem_id, code, kind);
  save_state_cb (self);
}

/**
 * viva_remote_seat_sign_out:
 * @message: (nullable): what the client said
 *
 * The student signed in on another PC: the seat stops sending and says
 * "Signed out"; ::signed-out tells the window, once.
 */
void
viva_remote_seat_sign_out (VivaRemoteSeat *self,
                           const char     *message)
{
  g_return_if_fail (VIVA_IS_REMOTE_SEAT (self));

  if (self->signed_out)
    return;

  self->signed_out = TRUE;
  g_clear_handle_id (&self->autosave_id, g_source_remove);
  g_clear_handle_id (&self->refresh_id, g_source_remove);
  viva_remote_seat_defense_stop (self->follower);
  set_save_text (self, _("Signed out"));
  viva_remote_seat_defense_fail (self->follower, message ? message : _("This defense goes on at your other PC."));
  g_signal_emit (self, signals[SIGNED_OUT], 0, message);
}

static void
defense_notify_cb (VivaRemoteSeat *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DEFENSE]);
}

static void
defense_signed_out_cb (VivaRemoteSeat *self,
                       const char     *message)
{
  viva_remote_seat_sign_out (self, message);
}

/**
 * viva_remote_seat_show_defense:
 * @defense: (nullable): a defense the server runs, or %NULL for none
 *
 * Follows @defense (viva_remote_seat_defense_show()): its events
 * streamed, its answers sent to the server. The one followed before is
 * dropped.
 */
void
viva_remote_seat_show_defense (VivaRemoteSeat    *self,
                               VivaRemoteDefense *defense)
{
  g_return_if_fail (VIVA_IS_REMOTE_SEAT (self));
  g_return_if_fail (!defense || VIVA_IS_REMOTE_DEFENSE (defense));

  viva_remote_seat_defense_show (self->follower, defense);
}

/**
 * viva_remote_seat_get_defense:
 *
 * Returns: (transfer none) (nullable): the defense followed
 */
VivaRemoteDefense *
viva_remote_seat_get_defense (VivaRemoteSeat *self)
{
  g_return_val_if_fail (VIVA_IS_REMOTE_SEAT (self), NULL);

  return viva_remote_seat_defense_get_defense (self->follower);
}

static void
refresh_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(VivaRemoteSeat) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) sitting = NULL;

  sitting = viva_exam_server_client_get_sitting_finish (VIVA_EXAM_SERVER_CLIENT (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  if (g_error_matches (error, VIVA_REMOTE_ERROR, VIVA_REMOTE_ERROR_SIGNED_OUT))
    viva_remote_seat_sign_out (self, error->message);
  else if (sitting != NULL)
    viva_remote_exam_update (self->exam, sitting, NULL);
}

/* Now and then, the server's word on the clock, and whether this PC is
 * still the one signed in. A server away is the queue's to say. */
static gboolean
refresh_timeout_cb (gpointer user_data)
{
  VivaRemoteSeat *self = user_data;

  viva_exam_server_client_get_sitting_async (self->client, self->cancellable, refresh_cb, g_object_ref (self));
  return G_SOURCE_CONTINUE;
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
 * viva_remote_seat_flush_async:
 *
 * The window closes: what is queued goes to the server, waited for at
 * most CLOSE_WAIT_S (a server away does not hold the window open; the
 * PC's code store has the code). Never fails.
 */
void
viva_remote_seat_flush_async (VivaRemoteSeat      *self,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GCancellable) wait = NULL;

  g_return_if_fail (VIVA_IS_REMOTE_SEAT (self));

  task = g_task_new (self, NULL, callback, user_data);
  g_task_set_source_tag (task, viva_remote_seat_flush_async);
  if (self->signed_out)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  wait = g_cancellable_new ();
  g_timeout_add_seconds_full (G_PRIORITY_DEFAULT, CLOSE_WAIT_S, close_wait_cb, g_object_ref (wait), g_object_unref);
  viva_remote_sitting_flush_async (self->queue, wait, close_flushed_cb, g_steal_pointer (&task));
}

gboolean
viva_remote_seat_flush_finish (VivaRemoteSeat  *self,
                               GAsyncResult    *result,
                               GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * viva_remote_seat_reconcile:
 * @problem_id: a problem of the exam
 * @aside_path: (out) (optional) (transfer full) (nullable): where this
 *   PC's code was set aside, when the student saved newer code from
 *   another PC since and this PC's never reached the server
 *
 * At the sign-in: the code @problem_id opens with — the server's, or this
 * PC's when it is newer than what the server holds and the server holds
 * what this PC last had saved (typed offline, then the app started
 * again); this PC's is then sent.
 *
 * Returns: (transfer full) (nullable): the code, %NULL for the starter
 */
char *
viva_remote_seat_reconcile (VivaRemoteSeat  *self,
                            const char      *problem_id,
                            char           **aside_path)
{
  g_autofree char *code = NULL;
  g_autofree char *aside = NULL;

  g_return_val_if_fail (VIVA_IS_REMOTE_SEAT (self), NULL);
  g_return_val_if_fail (problem_id != NULL, NULL);

  if (aside_path != NULL)
    *aside_path = NULL;
  if (viva_remote_sitting_reconcile (self->queue, problem_id, viva_remote_exam_get_saved_code (self->exam, problem_id),
                                     &code, &aside) == VIVA_REMOTE_CHOICE_SERVER_NEWER &&
      self->kept != NULL)
    {
      g_autofree char *path = viva_remote_kept_set_aside (self->kept, problem_id, aside);

      if (aside_path != NULL)
        *aside_path = g_steal_pointer (&path);
    }
  save_state_cb (self);
  return g_steal_pointer (&code);
}

/**
 * viva_remote_seat_add_event:
 * @problem_id: the problem @event is of
 * @event: an integrity event (viva-timeline.c's)
 *
 * Records @event: it goes to the server with the saves, numbered, and is
 * kept on this PC until the server has it.
 */
void
viva_remote_seat_add_event (VivaRemoteSeat *self,
                            const char     *problem_id,
                            JsonObject     *event)
{
  g_autoptr(JsonObject) copy = json_object_new ();
  JsonObjectIter iter;
  const char *name;
  JsonNode *value;

  g_return_if_fail (VIVA_IS_REMOTE_SEAT (self));
  g_return_if_fail (problem_id != NULL);
  g_return_if_fail (event != NULL);

  if (viva_remote_seat_get_stopped (self))
    return;

  json_object_iter_init (&iter, event);
  while (json_object_iter_next (&iter, &name, &value))
    json_object_set_member (copy, name, json_node_copy (value));
  json_object_set_string_member (copy, "problem", problem_id);
  viva_remote_sitting_queue_event (self->queue, copy);
}

static void
synced_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  if (viva_remote_sitting_flush_finish (VIVA_REMOTE_SITTING (object), result, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

/**
 * viva_remote_seat_sync_async:
 *
 * Completes once what is queued (code and events) is on the server, the
 * way a Submit waits so its defense has the timeline; fails when nothing
 * more is taken from here (signed out, handed in).
 */
void
viva_remote_seat_sync_async (VivaRemoteSeat      *self,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (VIVA_IS_REMOTE_SEAT (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_remote_seat_sync_async);
  viva_remote_sitting_flush_async (self->queue, cancellable, synced_cb, task);
}

gboolean
viva_remote_seat_sync_finish (VivaRemoteSeat  *self,
                              GAsyncResult    *result,
                              GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

VivaExamServerClient *
viva_remote_seat_get_client (VivaRemoteSeat *self)
{
  g_return_val_if_fail (VIVA_IS_REMOTE_SEAT (self), NULL);

  return self->client;
}

VivaRemoteExam *
viva_remote_seat_get_exam (VivaRemoteSeat *self)
{
  g_return_val_if_fail (VIVA_IS_REMOTE_SEAT (self), NULL);

  return self->exam;
}

gboolean
viva_remote_seat_get_signed_out (VivaRemoteSeat *self)
{
  g_return_val_if_fail (VIVA_IS_REMOTE_SEAT (self), FALSE);

  return self->signed_out;
}

/**
 * viva_remote_seat_get_stopped:
 *
 * Returns: whether nothing more is edited or sent from here: signed out,
 *   or the exam's time is up
 */
gboolean
viva_remote_seat_get_stopped (VivaRemoteSeat *self)
{
  g_return_val_if_fail (VIVA_IS_REMOTE_SEAT (self), TRUE);

  return self->signed_out || viva_remote_exam_get_time_up (self->exam);
}

/**
 * viva_remote_seat_get_dirty:
 *
 * Returns: whether something was typed that is not yet queued
 */
gboolean
viva_remote_seat_get_dirty (VivaRemoteSeat *self)
{
  g_return_val_if_fail (VIVA_IS_REMOTE_SEAT (self), FALSE);

  return self->dirty_since != 0;
}

/**
 * viva_remote_seat_get_save_text:
 *
 * Returns: (nullable): "Saved", "Offline — …", "Signed out"…, or %NULL
 *   while the typing is not due on the server yet
 */
const char *
viva_remote_seat_get_save_text (VivaRemoteSeat *self)
{
  g_return_val_if_fail (VIVA_IS_REMOTE_SEAT (self), NULL);

  return self->save_text;
}

/**
 * viva_remote_seat_get_clock_text:
 *
 * Returns: (nullable): the time left by the server's clock, or %NULL
 *   for an exam without a time limit
 */
const char *
viva_remote_seat_get_clock_text (VivaRemoteSeat *self)
{
  g_return_val_if_fail (VIVA_IS_REMOTE_SEAT (self), NULL);

  return self->clock_text;
}

/**
 * viva_remote_seat_get_clock_style:
 *
 * Returns: (nullable): "warning" in the last five minutes, "error" in the
 *   last one
 */
const char *
viva_remote_seat_get_clock_style (VivaRemoteSeat *self)
{
  g_return_val_if_fail (VIVA_IS_REMOTE_SEAT (self), NULL);

  return self->clock_style;
}

static void
viva_remote_seat_dispose (GObject *object)
{
  VivaRemoteSeat *self = (VivaRemoteSeat *)object;

  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->autosave_id, g_source_remove);
  g_clear_handle_id (&self->tick_id, g_source_remove);
  g_clear_handle_id (&self->refresh_id, g_source_remove);
  if (self->follower != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->follower, self);
      viva_remote_seat_defense_show (self->follower, NULL);
    }
  g_clear_object (&self->follower);
  if (self->queue != NULL)
    g_signal_handlers_disconnect_by_data (self->queue, self);
  if (self->exam != NULL)
    g_signal_handlers_disconnect_by_data (self->exam, self);
  g_clear_object (&self->queue);
  g_clear_object (&self->kept);
  g_clear_object (&self->exam);
  g_clear_object (&self->client);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (viva_remote_seat_parent_class)->dispose (object);
}

static void
viva_remote_seat_finalize (GObject *object)
{
  VivaRemoteSeat *self = (VivaRemoteSeat *)object;

  g_free (self->save_text);
  g_free (self->clock_text);

  G_OBJECT_CLASS (viva_remote_seat_parent_class)->finalize (object);
}

static void
viva_remote_seat_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  VivaRemoteSeat *self = VIVA_REMOTE_SEAT (object);

  switch (prop_id)
    {
    case PROP_SAVE_TEXT:
      g_value_set_string (value, viva_remote_seat_get_save_text (self));
      break;

    case PROP_CLOCK_TEXT:
      g_value_set_string (value, viva_remote_seat_get_clock_text (self));
      break;

    case PROP_CLOCK_STYLE:
      g_value_set_string (value, viva_remote_seat_get_clock_style (self));
      break;

    case PROP_DEFENSE:
      g_value_set_object (value, viva_remote_seat_get_defense (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_remote_seat_class_init (VivaRemoteSeatClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = viva_remote_seat_dispose;
  object_class->finalize = viva_remote_seat_finalize;
  object_class->get_property = viva_remote_seat_get_property;

  properties[PROP_SAVE_TEXT] =
    g_param_spec_string ("save-text", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_CLOCK_TEXT] =
    g_param_spec_string ("clock-text", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_CLOCK_STYLE] =
    g_param_spec_string ("clock-style", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_DEFENSE] =
    g_param_spec_object ("defense", NULL, NULL, VIVA_TYPE_REMOTE_DEFENSE,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * VivaRemoteSeat::autosave-due:
   *
   * The typing is due on the server: the window answers with
   * viva_remote_seat_send_code().
   */
  signals[AUTOSAVE_DUE] =
    g_signal_new ("autosave-due", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  /**
   * VivaRemoteSeat::signed-out:
   * @message: (nullable): what the server said
   *
   * The student signed in on another PC; this one stops.
   */
  signals[SIGNED_OUT] =
    g_signal_new ("signed-out", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
viva_remote_seat_init (VivaRemoteSeat *self)
{
  self->cancellable = g_cancellable_new ();
}

static void
keep_cb (VivaRemoteSitting *queue,
         JsonNode          *state,
         gpointer           user_data)
{
  viva_remote_kept_keep (VIVA_REMOTE_KEPT (user_data), state);
}

/**
 * viva_remote_seat_new:
 * @client: the client signed in to the exam
 * @exam: the sitting the server answered at the sign-in
 * @kept: (nullable): where this PC keeps its part of the sitting
 * @kept_state: (nullable): what @kept held at the sign-in
 *
 * Returns: (transfer full): the seat, its clock and refresh running
 */
VivaRemoteSeat *
viva_remote_seat_new (VivaExamServerClient *client,
                      VivaRemoteExam       *exam,
                      VivaRemoteKept       *kept,
                      JsonNode             *kept_state)
{
  VivaRemoteSeat *self;

  g_return_val_if_fail (VIVA_IS_EXAM_SERVER_CLIENT (client), NULL);
  g_return_val_if_fail (VIVA_IS_REMOTE_EXAM (exam), NULL);
  g_return_val_if_fail (!kept || VIVA_IS_REMOTE_KEPT (kept), NULL);

  self = g_object_new (VIVA_TYPE_REMOTE_SEAT, NULL);
  self->client = g_object_ref (client);
  self->exam = g_object_ref (exam);
  self->follower = viva_remote_seat_defense_new (client);
  g_signal_connect_object (self->follower, "notify::defense", G_CALLBACK (defense_notify_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->follower, "signed-out", G_CALLBACK (defense_signed_out_cb), self, G_CONNECT_SWAPPED);
  if (kept != NULL)
    {
      self->kept = g_object_ref (kept);
      self->queue = viva_remote_sitting_new_kept (client, kept_state, keep_cb, g_object_ref (kept), g_object_unref);
    }
  else
    self->queue = viva_remote_sitting_new (client);
  g_signal_connect_object (self->queue, "notify::save-state", G_CALLBACK (save_state_cb), self, G_CONNECT_SWAPPED);
  /* Before the window's own handler, so its clock says the time is up. */
  g_signal_connect_object (self->exam, "notify::time-up", G_CALLBACK (tick), self, G_CONNECT_SWAPPED);

  tick (self);
  self->tick_id = g_timeout_add_seconds (1, tick_cb, self);
  self->refresh_id = g_timeout_add_seconds (REFRESH_S, refresh_timeout_cb, self);
  save_state_cb (self);

  return self;
}

/* viva-remote-seat-defense.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-remote-seat-defense.h"

/* The seat's following of the defense the server runs that the window
 * shows (VivaRemoteSeat holds one): its events streamed
 * (VivaDefenseStream) into the VivaRemoteDefense, its answers sent back,
 * and a held verdict asked for again until the server tells it whole.
 * A stream the server closes because the student signed in elsewhere is
 * ::signed-out; the seat then stops this. */

#define HELD_POLL_S 10

struct _VivaRemoteSeatDefense
{
  GObject               parent_instance;

  VivaExamServerClient *client;
  VivaDefenseStream    *stream;
  VivaRemoteDefense    *defense;       /* the one the window shows */
  GCancellable         *cancellable;
  guint                 held_id;       /* asks again for a held verdict */
  guint                 stopped : 1;
};

G_DEFINE_FINAL_TYPE (VivaRemoteSeatDefense, viva_remote_seat_defense, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_DEFENSE,
  N_PROPS
};

enum {
  SIGNED_OUT,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

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
send_answer_cb (VivaRemoteSeatDefense *self,
                const char            *text,
                gint64                 question_seq,
                VivaRemoteDefense     *defense)
{
  viva_exam_server_client_answer_async (self->client, viva_remote_defense_get_id (defense), text,
                                        question_seq, self->cancellable, answer_sent_cb,
                                        g_object_ref (defense));
}

static void
stream_event_cb (VivaRemoteSeatDefense *self,
                 gint64                 seq,
                 const char            *kind,
                 JsonObject            *data,
                 VivaDefenseStream     *stream)
{
  if (self->defense != NULL)
    viva_remote_defense_feed (self->defense, seq, kind, data);
}

static void
stream_closed_cb (VivaRemoteSeatDefense *self,
                  const GError          *error,
                  VivaDefenseStream     *stream)
{
  if (error == NULL || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (g_error_matches (error, VIVA_REMOTE_ERROR, VIVA_REMOTE_ERROR_SIGNED_OUT))
    g_signal_emit (self, signals[SIGNED_OUT], 0, error->message);
  else
    viva_remote_seat_defense_fail (self, error->message);
}

static void
drop_stream (VivaRemoteSeatDefense *self)
{
  if (self->stream != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->stream, self);
      viva_defense_stream_stop (self->stream);
      g_clear_object (&self->stream);
    }
}

/* Streams the shown defense's events after @after. */
static void
follow (VivaRemoteSeatDefense *self,
        gint64                 after)
{
  drop_stream (self);
  self->stream = viva_defense_stream_new (self->client, viva_remote_defense_get_id (self->defense), after);
  g_signal_connect_object (self->stream, "event", G_CALLBACK (stream_event_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->stream, "closed", G_CALLBACK (stream_closed_cb), self, G_CONNECT_SWAPPED);
  viva_defense_stream_start (self->stream);
}

/* Once the exam closes, its held verdict is the student's: read from the
 * event before it, now and then, until the server tells it whole. */
static gboolean
held_poll_cb (gpointer user_data)
{
  VivaRemoteSeatDefense *self = user_data;

  if (self->defense == NULL || !viva_remote_defense_get_held (self->defense) || self->stopped)
    {
      self->held_id = 0;
      return G_SOURCE_REMOVE;
    }
  follow (self, viva_remote_defense_get_held_seq (self->defense) - 1);
  return G_SOURCE_CONTINUE;
}

static void
held_cb (VivaRemoteSeatDefense *self,
         GParamSpec            *pspec,
         VivaRemoteDefense     *defense)
{
  if (!viva_remote_defense_get_held (defense))
    g_clear_handle_id (&self->held_id, g_source_remove);
  else if (self->held_id == 0)
    self->held_id = g_timeout_add_seconds (HELD_POLL_S, held_poll_cb, self);
}

/**
 * viva_remote_seat_defense_show:
 * @defense: (nullable): a defense the server runs, or %NULL for none
 *
 * Follows @defense, streamed from after its last event (from its first
 * for a new one: the whole conversation so far, then what comes); its
 * answers go to the server. The one followed before is dropped.
 */
void
viva_remote_seat_defense_show (VivaRemoteSeatDefense *self,
                               VivaRemoteDefense     *defense)
{
  g_return_if_fail (VIVA_IS_REMOTE_SEAT_DEFENSE (self));
  g_return_if_fail (!defense || VIVA_IS_REMOTE_DEFENSE (defense));

  drop_stream (self);
  g_clear_handle_id (&self->held_id, g_source_remove);
  if (self->defense != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->defense, self);
      g_clear_object (&self->defense);
    }

  if (defense != NULL)
    {
      self->defense = g_object_ref (defense);
      g_signal_connect_object (defense, "send-answer", G_CALLBACK (send_answer_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (defense, "notify::held", G_CALLBACK (held_cb), self, G_CONNECT_SWAPPED);
      follow (self, viva_remote_defense_get_last_seq (defense));
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DEFENSE]);
}

/**
 * viva_remote_seat_defense_get_defense:
 *
 * Returns: (transfer none) (nullable): the defense followed
 */
VivaRemoteDefense *
viva_remote_seat_defense_get_defense (VivaRemoteSeatDefense *self)
{
  g_return_val_if_fail (VIVA_IS_REMOTE_SEAT_DEFENSE (self), NULL);

  return self->defense;
}

/**
 * viva_remote_seat_defense_stop:
 *
 * The student signed in on another PC: the stream stops, and a held
 * verdict is asked for no more.
 */
void
viva_remote_seat_defense_stop (VivaRemoteSeatDefense *self)
{
  g_return_if_fail (VIVA_IS_REMOTE_SEAT_DEFENSE (self));

  self->stopped = TRUE;
  if (self->stream != NULL)
    viva_defense_stream_stop (self->stream);
}

/**
 * viva_remote_seat_defense_fail:
 * @message: why
 *
 * The defense followed, unless it ended, goes on no more here.
 */
void
viva_remote_seat_defense_fail (VivaRemoteSeatDefense *self,
                               const char            *message)
{
  g_return_if_fail (VIVA_IS_REMOTE_SEAT_DEFENSE (self));

  if (self->defense != NULL && !viva_remote_defense_get_ended (self->defense))
    viva_remote_defense_fail (self->defense, message);
}

static void
viva_remote_seat_defense_dispose (GObject *object)
{
  VivaRemoteSeatDefense *self = (VivaRemoteSeatDefense *)object;

  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->held_id, g_source_remove);
  drop_stream (self);
  if (self->defense != NULL)
    g_signal_handlers_disconnect_by_data (self->defense, self);
  g_clear_object (&self->defense);
  g_clear_object (&self->client);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (viva_remote_seat_defense_parent_class)->dispose (object);
}

static void
viva_remote_seat_defense_get_property (GObject    *object,
                                       guint       prop_id,
                                       GValue     *value,
                                       GParamSpec *pspec)
{
  VivaRemoteSeatDefense *self = VIVA_REMOTE_SEAT_DEFENSE (object);

  switch (prop_id)
    {
    case PROP_DEFENSE:
      g_value_set_object (value, viva_remote_seat_defense_get_defense (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_remote_seat_defense_class_init (VivaRemoteSeatDefenseClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = viva_remote_seat_defense_dispose;
  object_class->get_property = viva_remote_seat_defense_get_property;

  properties[PROP_DEFENSE] =
    g_param_spec_object ("defense", NULL, NULL, VIVA_TYPE_REMOTE_DEFENSE,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * VivaRemoteSeatDefense::signed-out:
   * @message: what the server said
   *
   * The server closed the stream: the student signed in on another PC.
   */
  signals[SIGNED_OUT] =
    g_signal_new ("signed-out", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
viva_remote_seat_defense_init (VivaRemoteSeatDefense *self)
{
  self->cancellable = g_cancellable_new ();
}

VivaRemoteSeatDefense *
viva_remote_seat_defense_new (VivaExamServerClient *client)
{
  VivaRemoteSeatDefense *self;

  g_return_val_if_fail (VIVA_IS_EXAM_SERVER_CLIENT (client), NULL);

  self = g_object_new (VIVA_TYPE_REMOTE_SEAT_DEFENSE, NULL);
  self->client = g_object_ref (client);
  return self;
}

/* viva-defense-stream.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "viva-defense-stream.h"
#include "viva-exam-server-client-private.h"
#include "viva-json-bounded.h"
#include "viva-model-error.h"
#include "viva-sse-reader.h"

/* One defense's events as the exam server streams them (SSE, `id:` the
 * event's sequence number). The stream keeps the last number it told and
 * asks, at every (re)connection, for what followed it, so an event is
 * told once whatever the network does; a number not above the last is
 * dropped, in case a server sends one again. A connection that drops, or
 * a server that ends a page of a long history, is connected again: at
 * once after a connection that brought events, else after a wait that
 * doubles up to MAX_BACKOFF_MS. What the server sends is hostile input:
 * the model's SSE reader bounds its lines and bytes. */

#define FIRST_BACKOFF_MS 250
#define MAX_BACKOFF_MS 8000
#define MAX_EVENT_BYTES (1024 * 1024)
#define MAX_STREAM_BYTES (G_GUINT64_CONSTANT (1) << 30)
#define MAX_DEPTH 64

struct _VivaDefenseStream
{
  GObject                 parent_instance;

  VivaExamServerClient   *client;
  char                   *defense_id;
  gint64                  last_seq;
  VivaDefenseStreamState  state;
  guint                   reconnects;
  GError                 *error;

  GCancellable           *cancellable;
  VivaSseReader          *reader;
  SoupMessage            *msg;
  guint                   backoff_ms;
  guint                   retry_id;
  gboolean                got_events;
};

enum {
  PROP_0,
  PROP_STATE,
  PROP_LAST_SEQ,
  N_PROPS
};

enum {
  EVENT,
  CLOSED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_ENUM_TYPE (VivaDefenseStreamState, viva_defense_stream_state,
                    G_DEFINE_ENUM_VALUE (VIVA_DEFENSE_STREAM_IDLE, "idle"),
                    G_DEFINE_ENUM_VALUE (VIVA_DEFENSE_STREAM_CONNECTING, "connecting"),
                    G_DEFINE_ENUM_VALUE (VIVA_DEFENSE_STREAM_LIVE, "live"),
                    G_DEFINE_ENUM_VALUE (VIVA_DEFENSE_STREAM_OFFLINE, "offline"),
                    G_DEFINE_ENUM_VALUE (VIVA_DEFENSE_STREAM_CLOSED, "closed"))

G_DEFINE_FINAL_TYPE (VivaDefenseStream, viva_defense_stream, G_TYPE_OBJECT)

static void viva_defense_stream_connect (VivaDefenseStream *self);

static void
set_state (VivaDefenseStream      *self,
           VivaDefenseStreamState  state)
{
  if (self->state == state)
    return;
  self->state = state;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

static void
drop_connection (VivaDefenseStream *self)
{
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->reader);
  g_clear_object (&self->msg);
  g_clear_handle_id (&self->retry_id, g_source_remove);
}

/* Ends the stream, once: @error is NULL when the defense finished. */
static void
close_with (VivaDefenseStream *self,
            GError            *error)
{
  g_autoptr(GError) owned = error;

  if (self->state == VIVA_DEFENSE_STREAM_CLOSED)
    return;

  drop_connection (self);
  self->error = g_steal_pointer (&owned);
  set_state (self, VIVA_DEFENSE_STREAM_CLOSED);
  g_signal_emit (self, signals[CLOSED], 0, self->error);
}

static void
viva_defense_stream_dispose (GObject *object)
{
  VivaDefenseStream *self = (VivaDefenseStream *)object;

  drop_connection (self);
  g_clear_object (&self->client);

  G_OBJECT_CLASS (viva_defense_stream_parent_class)->dispose (object);
}

static void
viva_defense_stream_finalize (GObject *object)
{
  VivaDefenseStream *self = (VivaDefenseStream *)object;

  g_clear_pointer (&self->defense_id, g_free);
  g_clear_error (&self->error);

  G_OBJECT_CLASS (viva_defense_stream_parent_class)->finalize (object);
}

static void
viva_defense_stream_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  VivaDefenseStream *self = VIVA_DEFENSE_STREAM (object);

  switch (prop_id)
    {
    case PROP_STATE:
      g_value_set_enum (value, self->state);
      break;

    case PROP_LAST_SEQ:
      g_value_set_int64 (value, self->last_seq);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_defense_stream_class_init (VivaDefenseStreamClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = viva_defense_stream_dispose;
  object_class->finalize = viva_defense_stream_finalize;
  object_class->get_property = viva_defense_stream_get_property;

  properties[PROP_STATE] =
    g_param_spec_enum ("state", NULL, NULL, VIVA_TYPE_DEFENSE_STREAM_STATE, VIVA_DEFENSE_STREAM_IDLE,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_LAST_SEQ] =
    g_param_spec_int64 ("last-seq", NULL, NULL, 0, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * VivaDefenseStream::event:
   * @seq: the event's sequence number
   * @kind: `state`, `content`, `tool_call`, `tool_result`, `question`,
   *   `answer`, `refused`, `verdict`, `error`, `finished`
   * @data: what the student is sent of it
   */
  signals[EVENT] =
    g_signal_new ("event", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 3, G_TYPE_INT64, G_TYPE_STRING, JSON_TYPE_OBJECT);

  /**
   * VivaDefenseStream::closed:
   * @error: (nullable): why, or %NULL when the defense finished
   */
  signals[CLOSED] =
    g_signal_new ("closed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_ERROR);
}

static void
viva_defense_stream_init (VivaDefenseStream *self)
{
  self->backoff_ms = FIRST_BACKOFF_MS;
}

/**
 * viva_defense_stream_new:
 * @after_seq: the last event the caller has (0 for none)
 *
 * Returns: (transfer full): a stream, not started
 */
VivaDefenseStream *
viva_defense_stream_new (VivaExamServerClient *client,
                         const char           *defense_id,
                         gint64                after_seq)
{
  VivaDefenseStream *self;

  g_return_val_if_fail (VIVA_IS_EXAM_SERVER_CLIENT (client), NULL);
  g_return_val_if_fail (defense_id != NULL, NULL);
  g_return_val_if_fail (after_seq >= 0, NULL);

  self = g_object_new (VIVA_TYPE_DEFENSE_STREAM, NULL);
  self->client = g_object_ref (client);
  self->defense_id = g_strdup (defense_id);
  self->last_seq = after_seq;
  return self;
}

const char *
viva_defense_stream_get_defense_id (VivaDefenseStream *self)
{
  g_return_val_if_fail (VIVA_IS_DEFENSE_STREAM (self), NULL);

  return self->defense_id;
}

gint64
viva_defense_stream_get_last_seq (VivaDefenseStream *self)
{
  g_return_val_if_fail (VIVA_IS_DEFENSE_STREAM (self), 0);

  return self->last_seq;
}

VivaDefenseStreamState
viva_defense_stream_get_state (VivaDefenseStream *self)
{
  g_return_val_if_fail (VIVA_IS_DEFENSE_STREAM (self), VIVA_DEFENSE_STREAM_IDLE);

  return self->state;
}

/* How often the stream connected again after a drop (for tests). */
guint
viva_defense_stream_get_reconnects (VivaDefenseStream *self)
{
  g_return_val_if_fail (VIVA_IS_DEFENSE_STREAM (self), 0);

  return self->reconnects;
}

/**
 * viva_defense_stream_get_error:
 *
 * Returns: (nullable): why the stream closed, once closed
 */
const GError *
viva_defense_stream_get_error (VivaDefenseStream *self)
{
  g_return_val_if_fail (VIVA_IS_DEFENSE_STREAM (self), NULL);

  return self->error;
}

static gboolean
retry_cb (gpointer user_data)
{
  VivaDefenseStream *self = user_data;

  self->retry_id = 0;
  self->reconnects++;
  viva_defense_stream_connect (self);
  return G_SOURCE_REMOVE;
}

/* The connection ended without the defense's end: again, at once when it
 * brought events (a page of a long history), else after the backoff. */
static void
reconnect_later (VivaDefenseStream *self,
                 gboolean           offline)
{
  guint delay = 0;

  g_clear_object (&self->reader);
  g_clear_object (&self->msg);
  g_clear_object (&self->cancellable);

  if (self->got_events)
    self->backoff_ms = FIRST_BACKOFF_MS;
  else
    {
      delay = self->backoff_ms;
      self->backoff_ms = MIN (self->backoff_ms * 2, MAX_BACKOFF_MS);
    }
  if (offline)
    set_state (self, VIVA_DEFENSE_STREAM_OFFLINE);
  g_clear_handle_id (&self->retry_id, g_source_remove);
  self->retry_id = g_timeout_add (delay, retry_cb, self);
}

static gboolean
take_event (VivaDefenseStream *self,
            VivaSseEvent      *event)
{
  g_autoptr(JsonNode) node = NULL;
  JsonObject *object, *data;
  const char *kind;
  gint64 seq;

  if (g_strcmp0 (event->event, "signed_out") == 0)
    {
      close_with (self, g_error_new_literal (VIVA_REMOTE_ERROR, VIVA_REMOTE_ERROR_SIGNED_OUT,
                                             _("You signed in on another PC, so this one was signed out: go on there, or sign in here again.")));
      return FALSE;
    }

  node = viva_json_parse_bounded (event->data, -1, MAX_DEPTH, NULL);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node) ||
      !json_object_has_member ((object = json_node_get_object (node)), "seq") ||
      json_node_get_value_type (json_object_get_member (object, "seq")) != G_TYPE_INT64 ||
      !(kind = json_object_get_string_member_with_default (object, "kind", NULL)) ||
      !json_object_has_member (object, "data") || !JSON_NODE_HOLDS_OBJECT (json_object_get_member (object, "data")))
    {
      close_with (self, g_error_new_literal (VIVA_REMOTE_ERROR, VIVA_REMOTE_ERROR_PROTOCOL,
                                             _("The exam server sent an event that is not the exam server’s API: ask the teacher to check the server.")));
      return FALSE;
    }

  seq = json_object_get_int_member (object, "seq");
  if (seq <= self->last_seq)
    return TRUE;

  data = json_object_get_object_member (object, "data");
  self->last_seq = seq;
  self->got_events = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LAST_SEQ]);
  g_signal_emit (self, signals[EVENT], 0, seq, kind, data);

  if (self->state == VIVA_DEFENSE_STREAM_CLOSED)
    return FALSE;
  if (g_str_equal (kind, "finished"))
    {
      close_with (self, NULL);
      return FALSE;
    }
  return TRUE;
}

static void
read_event_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(VivaDefenseStream) self = user_data;
  g_autoptr(VivaSseEvent) event = NULL;
  g_autoptr(GError) error = NULL;

  event = viva_sse_reader_read_event_finish (VIVA_SSE_READER (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || self->state == VIVA_DEFENSE_STREAM_CLOSED ||
      VIVA_SSE_READER (object) != self->reader)
    return;

  if (event != NULL)
    {
      if (take_event (self, event))
        viva_sse_reader_read_event_async (self->reader, self->cancellable, read_event_cb, g_object_ref (self));
      return;
    }

  if (g_error_matches (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_REPLY_LIMIT))
    {
      /* Past the reader's limits: a server that does this again would again. */
      close_with (self, g_error_new_literal (VIVA_REMOTE_ERROR, VIVA_REMOTE_ERROR_PROTOCOL,
                                             _("The exam server sent more than an event may hold: ask the teacher to check the server.")));
      return;
    }

  reconnect_later (self, error != NULL);
}

static void
open_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(VivaDefenseStream) self = user_data;
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(SoupMessage) msg = NULL;
  g_autoptr(GError) error = NULL;

  stream = _viva_exam_server_client_open_finish (VIVA_EXAM_SERVER_CLIENT (object), result, &msg, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || self->state == VIVA_DEFENSE_STREAM_CLOSED)
    return;

  if (stream == NULL)
    {
      if (viva_remote_error_is_retryable (error))
        reconnect_later (self, TRUE);
      else
        close_with (self, g_steal_pointer (&error));
      return;
    }

  if (g_strcmp0 (soup_message_headers_get_content_type (soup_message_get_response_headers (msg), NULL),
                 "text/event-stream") != 0)
    {
      close_with (self, g_error_new_literal (VIVA_REMOTE_ERROR, VIVA_REMOTE_ERROR_PROTOCOL,
                                             _("The exam server did not stream the defense: check the exam link.")));
      return;
    }

  self->msg = g_steal_pointer (&msg);
  self->reader = viva_sse_reader_new (stream, VIVA_SSE_FORMAT_EVENT_STREAM);
  viva_sse_reader_set_limits (self->reader, MAX_EVENT_BYTES, MAX_STREAM_BYTES);
  set_state (self, VIVA_DEFENSE_STREAM_LIVE);
  viva_sse_reader_read_event_async (self->reader, self->cancellable, read_event_cb, g_object_ref (self));
}

static void
viva_defense_stream_connect (VivaDefenseStream *self)
{
  g_autofree char *exam = g_uri_escape_string (viva_exam_server_client_get_exam_id (self->client), NULL, FALSE);
  g_autofree char *defense = g_uri_escape_string (self->defense_id, NULL, FALSE);
  g_autofree char *path = g_strdup_printf ("/api/v1/exams/%s/defenses/%s/events?after=%" G_GINT64_FORMAT,
                                           exam, defense, self->last_seq);

  self->got_events = FALSE;
  self->cancellable = g_cancellable_new ();
  if (self->state != VIVA_DEFENSE_STREAM_OFFLINE)
    set_state (self, VIVA_DEFENSE_STREAM_CONNECTING);
  _viva_exam_server_client_open_async (self->client, "GET", path, NULL, "text/event-stream",
                                       self->cancellable, open_cb, g_object_ref (self));
}

void
viva_defense_stream_start (VivaDefenseStream *self)
{
  g_return_if_fail (VIVA_IS_DEFENSE_STREAM (self));
  g_return_if_fail (self->state == VIVA_DEFENSE_STREAM_IDLE);

  viva_defense_stream_connect (self);
}

/* Ends the stream; ::closed says %G_IO_ERROR_CANCELLED. */
void
viva_defense_stream_stop (VivaDefenseStream *self)
{
  g_return_if_fail (VIVA_IS_DEFENSE_STREAM (self));

  close_with (self, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, _("The defense’s stream was stopped.")));
}

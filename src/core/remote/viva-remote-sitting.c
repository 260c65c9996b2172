/* viva-remote-sitting.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-remote-sitting-private.h"

/* The student's code on its way to the exam server. Of each problem only
 * the newest code is kept (a save replaces a save), in the order the
 * problems were first queued, and one request is on the wire at a time. A
 * save that fails because the server is away or busy goes back in the
 * queue (unless newer code of its problem came meanwhile) and is tried
 * again after a wait that doubles up to max-backoff; the code is never
 * dropped, so a dropped network loses no typing. A sign-in elsewhere or a
 * handed-in sitting stop the queue: what it holds stays readable through
 * viva_remote_sitting_get_unsaved(). A problem the server refuses is
 * dropped from the queue with its sentence, so it never blocks the
 * others.
 *
 * The integrity events (pastes, runs, hints…) go the same way, after the
 * code: gathered for a few seconds into batches of at most EVENTS_PER_BATCH
 * (and BATCH_BYTES), each event with this PC's number, so a batch sent
 * again after a lost answer counts once on the server.
 *
 * A kept sitting (viva_remote_sitting_new_kept()) hands its state to the
 * front at every change — this PC's copy of each problem, what it knows
 * the server holds, the events not yet sent — and takes it back at the
 * next start; viva-remote-sitting-kept.c has the state and the rule of
 * whose code wins after a restart. */

#define FIRST_BACKOFF_MS 1000
#define DEFAULT_MAX_BACKOFF_MS 30000
#define EVENTS_DELAY_MS 2000
#define EVENTS_PER_BATCH 50
#define BATCH_BYTES (1024 * 1024)

typedef VivaRemoteEntry Entry;

enum {
  PROP_0,
  PROP_SAVE_STATE,
  PROP_PENDING,
  PROP_SAVED_AT,
  PROP_ERROR_MESSAGE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_ENUM_TYPE (VivaRemoteSaveState, viva_remote_save_state,
                    G_DEFINE_ENUM_VALUE (VIVA_REMOTE_SAVE_SAVED, "saved"),
                    G_DEFINE_ENUM_VALUE (VIVA_REMOTE_SAVE_SAVING, "saving"),
                    G_DEFINE_ENUM_VALUE (VIVA_REMOTE_SAVE_OFFLINE, "offline"),
                    G_DEFINE_ENUM_VALUE (VIVA_REMOTE_SAVE_SIGNED_OUT, "signed-out"),
                    G_DEFINE_ENUM_VALUE (VIVA_REMOTE_SAVE_CLOSED, "closed"))

G_DEFINE_FINAL_TYPE (VivaRemoteSitting, viva_remote_sitting, G_TYPE_OBJECT)

static void send_next (VivaRemoteSitting *self);

static void
entry_free (Entry *entry)
{
  g_free (entry->problem_id);
  g_free (entry->code);
  g_free (entry);
}

static gboolean
busy (VivaRemoteSitting *self)
{
  return self->in_flight != NULL || self->events_in_flight > 0;
}

static gboolean
is_stopped (VivaRemoteSitting *self)
{
  return self->save_state == VIVA_REMOTE_SAVE_SIGNED_OUT || self->save_state == VIVA_REMOTE_SAVE_CLOSED;
}

static void
set_save_state (VivaRemoteSitting   *self,
                VivaRemoteSaveState  state)
{
  if (self->save_state == state)
    return;
  self->save_state = state;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SAVE_STATE]);
}

static void
set_error_message (VivaRemoteSitting *self,
                   const char        *message)
{
  if (g_strcmp0 (self->error_message, message) == 0)
    return;
  g_free (self->error_message);
  self->error_message = g_strdup (message);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR_MESSAGE]);
}

static void
notify_pending (VivaRemoteSitting *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PENDING]);
}

/* Completes every flush waiting: TRUE with @error NULL. */
static void
complete_flushes (VivaRemoteSitting *self,
                  const GError      *error)
{
  g_autoptr(GPtrArray) flushes = g_steal_pointer (&self->flushes);

  self->flushes = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < flushes->len; i++)
    {
      GTask *task = g_ptr_array_index (flushes, i);

      if (error != NULL)
        g_task_return_error (task, g_error_copy (error));
      else
        g_task_return_boolean (task, TRUE);
    }
}

static void
viva_remote_sitting_dispose (GObject *object)
{
  VivaRemoteSitting *self = (VivaRemoteSitting *)object;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_handle_id (&self->retry_id, g_source_remove);
  g_clear_handle_id (&self->events_id, g_source_remove);
  g_clear_object (&self->client);
  if (self->keep_destroy != NULL)
    g_clear_pointer (&self->keep_data, self->keep_destroy);
  self->keep_func = NULL;

  G_OBJECT_CLASS (viva_remote_sitting_parent_class)->dispose (object);
}

static void
viva_remote_sitting_finalize (GObject *object)
{
  VivaRemoteSitting *self = (VivaRemoteSitting *)object;

  g_queue_clear (&self->order);
  g_clear_pointer (&self->queued, g_hash_table_unref);
  g_clear_pointer (&self->in_flight, entry_free);
  g_clear_pointer (&self->flushes, g_ptr_array_unref);
  g_clear_pointer (&self->error_message, g_free);
  g_clear_pointer (&self->copies, g_hash_table_unref);
  g_queue_clear_full (&self->events, (GDestroyNotify)_viva_remote_event_free);
  g_clear_pointer (&self->client_id, g_free);

  G_OBJECT_CLASS (viva_remote_sitting_parent_class)->finalize (object);
}

static void
viva_remote_sitting_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  VivaRemoteSitting *self = VIVA_REMOTE_SITTING (object);

  switch (prop_id)
    {
    case PROP_SAVE_STATE:
      g_value_set_enum (value, self->save_state);
      break;

    case PROP_PENDING:
      g_value_set_uint (value, viva_remote_sitting_get_pending (self));
      break;

    case PROP_SAVED_AT:
      g_value_set_int64 (value, self->saved_at);
      break;

    case PROP_ERROR_MESSAGE:
      g_value_set_string (value, self->error_message);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_remote_sitting_class_init (VivaRemoteSittingClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = viva_remote_sitting_dispose;
  object_class->finalize = viva_remote_sitting_finalize;
  object_class->get_property = viva_remote_sitting_get_property;

  properties[PROP_SAVE_STATE] =
    g_param_spec_enum ("save-state", NULL, NULL, VIVA_TYPE_REMOTE_SAVE_STATE, VIVA_REMOTE_SAVE_SAVED,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PENDING] =
    g_param_spec_uint ("pending", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SAVED_AT] =
    g_param_spec_int64 ("saved-at", NULL, NULL, 0, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ERROR_MESSAGE] =
    g_param_spec_string ("error-message", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
viva_remote_sitting_init (VivaRemoteSitting *self)
{
  self->queued = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify)entry_free);
  self->flushes = g_ptr_array_new_with_free_func (g_object_unref);
  self->cancellable = g_cancellable_new ();
  self->backoff_ms = FIRST_BACKOFF_MS;
  self->max_backoff_ms = DEFAULT_MAX_BACKOFF_MS;
  self->copies = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify)_viva_remote_copy_free);
  self->next_seq = 1;
  {
    guint32 bits[4] = { g_random_int (), g_random_int (), g_random_int (), g_random_int () };

    self->client_id = g_strdup_printf ("%08x%08x%08x%08x", bits[0], bits[1], bits[2], bits[3]);
  }
}

static gboolean
events_cb (gpointer user_data)
{
  VivaRemoteSitting *self = user_data;

  self->events_id = 0;
  send_next (self);
  return G_SOURCE_REMOVE;
}

/**
 * viva_remote_sitting_new:
 * @client: a client with the student's token
 *
 * Returns: (transfer full): an empty queue, "saved"
 */
VivaRemoteSitting *
viva_remote_sitting_new (VivaExamServerClient *client)
{
  VivaRemoteSitting *self;

  g_return_val_if_fail (VIVA_IS_EXAM_SERVER_CLIENT (client), NULL);

  self = g_object_new (VIVA_TYPE_REMOTE_SITTING, NULL);
  self->client = g_object_ref (client);
  return self;
}

/**
 * viva_remote_sitting_new_kept:
 * @client: a client with the student's token
 * @state: (nullable): what @keep_func was given last, at an earlier start
 * @keep_func: called with the state each time it changes
 * @user_data: for @keep_func
 * @destroy: (nullable): frees @user_data with the sitting
 *
 * A sitting whose PC keeps its part: this PC's copy of each problem and
 * what it knows the server holds (for viva_remote_sitting_reconcile() at
 * the next start), and the integrity events not yet on the server, which
 * are sent again (with their numbers, so they count once).
 *
 * Returns: (transfer full): the sitting
 */
VivaRemoteSitting *
viva_remote_sitting_new_kept (VivaExamServerClient      *client,
                              JsonNode                  *state,
                              VivaRemoteSittingKeepFunc  keep_func,
                              gpointer                   user_data,
                              GDestroyNotify             destroy)
{
  VivaRemoteSitting *self;

  g_return_val_if_fail (VIVA_IS_EXAM_SERVER_CLIENT (client), NULL);
  g_return_val_if_fail (keep_func != NULL, NULL);

  self = viva_remote_sitting_new (client);
  if (state != NULL)
    _viva_remote_sitting_restore (self, state);
  self->keep_func = keep_func;
  self->keep_data = user_data;
  self->keep_destroy = destroy;
  if (self->events.length > 0)
    self->events_id = g_timeout_add (EVENTS_DELAY_MS, events_cb, self);
  _viva_remote_sitting_keep (self);
  return self;
}

/**
 * viva_remote_sitting_get_client_id:
 *
 * Returns: this PC's id for its integrity events (kept across starts)
 */
const char *
viva_remote_sitting_get_client_id (VivaRemoteSitting *self)
{
  g_return_val_if_fail (VIVA_IS_REMOTE_SITTING (self), NULL);

  return self->client_id;
}

guint
viva_remote_sitting_get_pending_events (VivaRemoteSitting *self)
{
  g_return_val_if_fail (VIVA_IS_REMOTE_SITTING (self), 0);

  return self->events.length;
}

VivaExamServerClient *
viva_remote_sitting_get_client (VivaRemoteSitting *self)
{
  g_return_val_if_fail (VIVA_IS_REMOTE_SITTING (self), NULL);

  return self->client;
}

VivaRemoteSaveState
viva_remote_sitting_get_save_state (VivaRemoteSitting *self)
{
  g_return_val_if_fail (VIVA_IS_REMOTE_SITTING (self), VIVA_REMOTE_SAVE_SAVED);

  return self->save_state;
}

guint
viva_remote_sitting_get_pending (VivaRemoteSitting *self)
{
  guint pending;

  g_return_val_if_fail (VIVA_IS_REMOTE_SITTING (self), 0);

  pending = g_hash_table_size (self->queued);
  if (self->in_flight != NULL && !g_hash_table_contains (self->queued, self->in_flight->problem_id))
    pending++;
  return pending;
}

gint64
viva_remote_sitting_get_saved_at (VivaRemoteSitting *self)
{
  g_return_val_if_fail (VIVA_IS_REMOTE_SITTING (self), 0);

  return self->saved_at;
}

const char *
viva_remote_sitting_get_error_message (VivaRemoteSitting *self)
{
  g_return_val_if_fail (VIVA_IS_REMOTE_SITTING (self), NULL);

  return self->error_message;
}

const char *
viva_remote_sitting_get_unsaved (VivaRemoteSitting *self,
                                 const char        *problem_id)
{
  Entry *entry;

  g_return_val_if_fail (VIVA_IS_REMOTE_SITTING (self), NULL);
  g_return_val_if_fail (problem_id != NULL, NULL);

  if ((entry = g_hash_table_lookup (self->queued, problem_id)))
    return entry->code;
  if (self->in_flight != NULL && g_str_equal (self->in_flight->problem_id, problem_id))
    return self->in_flight->code;
  return NULL;
}

void
viva_remote_sitting_set_max_backoff (VivaRemoteSitting *self,
                                     guint              max_backoff_ms)
{
  g_return_if_fail (VIVA_IS_REMOTE_SITTING (self));
  g_return_if_fail (max_backoff_ms > 0);

  self->max_backoff_ms = max_backoff_ms;
  self->backoff_ms = MIN (self->backoff_ms, max_backoff_ms);
}

/* Puts @entry in the queue, replacing what the problem had; TRUE when it
 * went in (an older entry does not replace a newer one). */
static gboolean
enqueue (VivaRemoteSitting *self,
         Entry             *entry,
         gboolean           older)
{
  if (g_hash_table_contains (self->queued, entry->problem_id))
    {
      if (older)
        {
          entry_free (entry);
          return FALSE;
        }
      g_queue_remove (&self->order, ((Entry *)g_hash_table_lookup (self->queued, entry->problem_id))->problem_id);
      g_hash_table_remove (self->queued, entry->problem_id);
    }

  g_hash_table_insert (self->queued, entry->problem_id, entry);
  if (older)
    g_queue_push_head (&self->order, entry->problem_id);
  else
    g_queue_push_tail (&self->order, entry->problem_id);
  return TRUE;
}

static gboolean
retry_cb (gpointer user_data)
{
  VivaRemoteSitting *self = user_data;

  self->retry_id = 0;
  send_next (self);
  return G_SOURCE_REMOVE;
}

/* The server is away, busy, or not the exam's just now: what was on the
 * wire is kept, and tried again after the wait. */
static void
wait_and_retry (VivaRemoteSitting *self,
                const GError      *error)
{
  set_error_message (self, error->message);
  set_save_state (self, VIVA_REMOTE_SAVE_OFFLINE);
  g_clear_handle_id (&self->retry_id, g_source_remove);
  self->retry_id = g_timeout_add (self->backoff_ms, retry_cb, self);
  self->backoff_ms = MIN (self->backoff_ms * 2, self->max_backoff_ms);
}

/* Signed in elsewhere, or the sitting handed in: nothing more goes from
 * here; what is queued is kept, readable. TRUE when @error is one. */
static gboolean
stop_for (VivaRemoteSitting *self,
          const GError      *error)
{
  if (!g_error_matches (error, VIVA_REMOTE_ERROR, VIVA_REMOTE_ERROR_SIGNED_OUT) &&
      !g_error_matches (error, VIVA_REMOTE_ERROR, VIVA_REMOTE_ERROR_TIME_UP))
    return FALSE;

  set_error_message (self, error->message);
  set_save_state (self, g_error_matches (error, VIVA_REMOTE_ERROR, VIVA_REMOTE_ERROR_SIGNED_OUT)
                        ? VIVA_REMOTE_SAVE_SIGNED_OUT : VIVA_REMOTE_SAVE_CLOSED);
  complete_flushes (self, error);
  return TRUE;
}

static void
save_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(VivaRemoteSitting) self = user_data;
  g_autoptr(JsonObject) answer = NULL;
  g_autoptr(GError) error = NULL;
  Entry *entry;

  answer = viva_exam_server_client_save_code_finish (VIVA_EXAM_SERVER_CLIENT (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  entry = g_steal_pointer (&self->in_flight);

  if (answer != NULL)
    {
      gint64 saved_at = json_object_get_int_member_with_default (answer, "saved_at", 0);

      _viva_remote_sitting_acked (self, entry->problem_id, entry->code);
      entry_free (entry);
      self->backoff_ms = FIRST_BACKOFF_MS;
      if (saved_at != self->saved_at)
        {
          self->saved_at = saved_at;
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SAVED_AT]);
        }
      set_error_message (self, NULL);
      notify_pending (self);
      send_next (self);
      return;
    }

  if (g_error_matches (error, VIVA_REMOTE_ERROR, VIVA_REMOTE_ERROR_REJECTED))
    {
      /* This problem's code is not taken; the others still are. */
      entry_free (entry);
      set_error_message (self, error->message);
      notify_pending (self);
      send_next (self);
      return;
    }

  enqueue (self, entry, TRUE);
  if (!stop_for (self, error))
    wait_and_retry (self, error);
}

static void
events_sent_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(VivaRemoteSitting) self = user_data;
  g_autoptr(GError) error = NULL;
  guint sent;

  if (!viva_exam_server_client_add_timeline_finish (VIVA_EXAM_SERVER_CLIENT (object), result, &error) &&
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  sent = self->events_in_flight;
  self->events_in_flight = 0;

  if (error == NULL || g_error_matches (error, VIVA_REMOTE_ERROR, VIVA_REMOTE_ERROR_REJECTED))
    {
      /* On the server (or refused as they are: sent again they would be
       * refused again, and hold back every later one). */
      for (guint i = 0; i < sent; i++)
        _viva_remote_event_free (g_queue_pop_head (&self->events));
      _viva_remote_sitting_keep (self);
      if (error == NULL)
        {
          self->backoff_ms = FIRST_BACKOFF_MS;
          set_error_message (self, NULL);
        }
      else
        set_error_message (self, error->message);
      send_next (self);
      return;
    }

  if (!stop_for (self, error))
    wait_and_retry (self, error);
}

/* The oldest events, as many as one batch takes, numbered one after the
 * other from the first. */
static void
send_events (VivaRemoteSitting *self)
{
  g_autoptr(JsonArray) batch = json_array_new ();
  VivaRemoteEvent *first = g_queue_peek_head (&self->events);
  gint64 seq = first->seq;
  gsize bytes = 0;

  for (GList *l = self->events.head; l != NULL && json_array_get_length (batch) < EVENTS_PER_BATCH; l = l->next)
    {
      VivaRemoteEvent *event = l->data;

      if (event->seq != seq || (bytes > 0 && bytes + event->bytes > BATCH_BYTES))
        break;
      json_array_add_object_element (batch, json_object_ref (event->event));
      bytes += event->bytes;
      seq++;
    }

  self->events_in_flight = json_array_get_length (batch);
  if (self->save_state != VIVA_REMOTE_SAVE_OFFLINE)
    set_save_state (self, VIVA_REMOTE_SAVE_SAVING);
  viva_exam_server_client_add_timeline_async (self->client, self->client_id, first->seq, batch,
                                              self->cancellable, events_sent_cb, g_object_ref (self));
}

static void
send_next (VivaRemoteSitting *self)
{
  const char *problem_id;

  if (busy (self) || self->retry_id != 0 || is_stopped (self))
    return;

  if (!(problem_id = g_queue_pop_head (&self->order)))
    {
      /* The code is on the server: the events follow, at once when the
       * code went (with the autosave) or the gathering wait is over. */
      if (self->events.length > 0)
        {
          g_clear_handle_id (&self->events_id, g_source_remove);
          send_events (self);
          return;
        }
      set_save_state (self, VIVA_REMOTE_SAVE_SAVED);
      complete_flushes (self, NULL);
      return;
    }

  g_hash_table_steal_extended (self->queued, problem_id, NULL, (gpointer *)&self->in_flight);
  if (self->save_state != VIVA_REMOTE_SAVE_OFFLINE)
    set_save_state (self, VIVA_REMOTE_SAVE_SAVING);
  _viva_remote_sitting_sent (self, self->in_flight->problem_id, self->in_flight->code);
  viva_exam_server_client_save_code_async (self->client, self->in_flight->problem_id, self->in_flight->code,
                                           self->in_flight->kind, self->cancellable, save_cb, g_object_ref (self));
}

void
viva_remote_sitting_queue_code (VivaRemoteSitting *self,
                                const char        *problem_id,
                                const char        *code,
                                VivaCodeKind       kind)
{
  VivaRemoteCopy *copy;
  Entry *entry;

  g_return_if_fail (VIVA_IS_REMOTE_SITTING (self));
  g_return_if_fail (problem_id != NULL);
  g_return_if_fail (code != NULL);

  copy = _viva_remote_sitting_copy (self, problem_id);
  if (copy->mine != code)
    {
      g_free (copy->mine);
      copy->mine = g_strdup (code);
    }

  entry = g_new0 (Entry, 1);
  entry->problem_id = g_strdup (problem_id);
  entry->code = g_strdup (code);
  entry->kind = kind;
  enqueue (self, entry, FALSE);
  notify_pending (self);
  _viva_remote_sitting_keep (self);
  send_next (self);
}

void
viva_remote_sitting_queue_event (VivaRemoteSitting *self,
                                 JsonObject        *event)
{
  g_return_if_fail (VIVA_IS_REMOTE_SITTING (self));
  g_return_if_fail (event != NULL);

  if (self->events.length >= VIVA_REMOTE_MAX_EVENTS)
    {
      g_debug ("remote: %u integrity events wait already; one more is dropped", self->events.length);
      return;
    }

  g_queue_push_tail (&self->events, _viva_remote_event_new (self->next_seq++, event));
  _viva_remote_sitting_keep (self);

  /* A burst (a paste, then a run) goes as one batch. */
  if (self->events_id == 0 && !is_stopped (self))
    self->events_id = g_timeout_add (EVENTS_DELAY_MS, events_cb, self);
}

void
viva_remote_sitting_retry_now (VivaRemoteSitting *self)
{
  g_return_if_fail (VIVA_IS_REMOTE_SITTING (self));

  if (self->retry_id == 0)
    return;
  g_clear_handle_id (&self->retry_id, g_source_remove);
  send_next (self);
}

void
viva_remote_sitting_flush_async (VivaRemoteSitting   *self,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (VIVA_IS_REMOTE_SITTING (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_remote_sitting_flush_async);

  if (is_stopped (self))
    {
      g_task_return_new_error (task, VIVA_REMOTE_ERROR,
                               self->save_state == VIVA_REMOTE_SAVE_SIGNED_OUT
                               ? VIVA_REMOTE_ERROR_SIGNED_OUT : VIVA_REMOTE_ERROR_TIME_UP,
                               "%s", self->error_message ? self->error_message
                                                         : _("The exam server takes no more code from this PC."));
      return;
    }
  if (viva_remote_sitting_get_pending (self) == 0 && self->events.length == 0)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }
  g_ptr_array_add (self->flushes, g_steal_pointer (&task));
  /* A flush is now: the events do not wait for their batch. */
  if (self->events_id != 0)
    {
      g_clear_handle_id (&self->events_id, g_source_remove);
      send_next (self);
    }
}

gboolean
viva_remote_sitting_flush_finish (VivaRemoteSitting  *self,
                                  GAsyncResult       *result,
                                  GError            **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

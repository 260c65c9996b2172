/* viva-rehearsal-model.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "viva-rehearsal-private.h"

/* A VivaChatModel in front of another that times each stream for the
 * rehearsal: from the request to its first delta (what a student waits
 * before the examiner starts to speak, retries and a busy server's queue
 * included), to its end, and what the server said it read and wrote. It
 * passes deltas on as its own, so the examiner sees nothing different. */

struct _VivaMeasuredModel
{
  GObject             parent_instance;
  VivaChatModel      *inner;
  VivaRehearsalTurns *turns;
  gulong              delta_id;
  gulong              busy_id;
  GHashTable         *started;   /* VivaChatRequest → Timing */
};

typedef struct
{
  gint64 start;
  gint64 first;
} Timing;

static void chat_model_iface_init (VivaChatModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (VivaMeasuredModel, _viva_measured_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (VIVA_TYPE_CHAT_MODEL, chat_model_iface_init))

void
_viva_rehearsal_turns_init (VivaRehearsalTurns *turns)
{
  memset (turns, 0, sizeof *turns);
  turns->ttft_ms = g_array_new (FALSE, FALSE, sizeof (double));
  turns->turn_ms = g_array_new (FALSE, FALSE, sizeof (double));
}

void
_viva_rehearsal_turns_clear (VivaRehearsalTurns *turns)
{
  g_clear_pointer (&turns->ttft_ms, g_array_unref);
  g_clear_pointer (&turns->turn_ms, g_array_unref);
}

static void
on_inner_delta (VivaChatModel       *inner,
                VivaChatRequest     *request,
                const VivaChatDelta *delta,
                VivaMeasuredModel   *self)
{
  Timing *timing = g_hash_table_lookup (self->started, request);

  if (timing != NULL && timing->first == 0 && delta->kind != VIVA_CHAT_DELTA_USAGE)
    {
      double ms;

      timing->first = g_get_monotonic_time ();
      ms = (timing->first - timing->start) / 1000.0;
      g_array_append_val (self->turns->ttft_ms, ms);
    }

  viva_chat_model_emit_delta (VIVA_CHAT_MODEL (self), request, delta);
}

enum {
  PROP_0,
  PROP_BUSY,
};

/* Busy as the model behind it is. */
static void
viva_measured_model_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  VivaMeasuredModel *self = (VivaMeasuredModel *)object;

  switch (prop_id)
    {
    case PROP_BUSY:
      g_value_set_boolean (value, self->inner != NULL && viva_chat_model_get_busy (self->inner));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
on_inner_busy (VivaMeasuredModel *self)
{
  g_object_notify (G_OBJECT (self), "busy");
}

static void
viva_measured_model_dispose (GObject *object)
{
  VivaMeasuredModel *self = (VivaMeasuredModel *)object;

  g_clear_signal_handler (&self->delta_id, self->inner);
  g_clear_signal_handler (&self->busy_id, self->inner);
  g_clear_object (&self->inner);

  G_OBJECT_CLASS (_viva_measured_model_parent_class)->dispose (object);
}

static void
viva_measured_model_finalize (GObject *object)
{
  VivaMeasuredModel *self = (VivaMeasuredModel *)object;

  g_clear_pointer (&self->started, g_hash_table_unref);

  G_OBJECT_CLASS (_viva_measured_model_parent_class)->finalize (object);
}

static void
_viva_measured_model_class_init (VivaMeasuredModelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = viva_measured_model_dispose;
  object_class->finalize = viva_measured_model_finalize;
  object_class->get_property = viva_measured_model_get_property;

  g_object_class_override_property (object_class, PROP_BUSY, "busy");
}

static void
_viva_measured_model_init (VivaMeasuredModel *self)
{
  self->started = g_hash_table_new_full (g_direct_hash, g_direct_equal,
                                         (GDestroyNotify)viva_chat_request_unref, g_free);
}

/* @turns must outlive the model. */
VivaMeasuredModel *
_viva_measured_model_new (VivaChatModel      *inner,
                          VivaRehearsalTurns *turns)
{
  VivaMeasuredModel *self = g_object_new (VIVA_TYPE_MEASURED_MODEL, NULL);

  self->inner = g_object_ref (inner);
  self->turns = turns;
  self->delta_id = g_signal_connect (inner, "delta", G_CALLBACK (on_inner_delta), self);
  self->busy_id = g_signal_connect_swapped (inner, "notify::busy", G_CALLBACK (on_inner_busy), self);

  return self;
}

static guint
estimate_tokens (VivaChatReply *reply)
{
  gsize length = 0;
  GPtrArray *calls = viva_chat_reply_get_tool_calls (reply);

  if (viva_chat_reply_get_content (reply) != NULL)
    length += strlen (viva_chat_reply_get_content (reply));
  if (viva_chat_reply_get_reasoning (reply) != NULL)
    length += strlen (viva_chat_reply_get_reasoning (reply));
  for (guint i = 0; calls != NULL && i < calls->len; i++)
    length += strlen (viva_tool_call_get_arguments (g_ptr_array_index (calls, i)));

  /* About four characters a token, as the request's estimate has it. */
  return (guint)((length + 3) / 4);
}

static void
stream_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  VivaMeasuredModel *self = g_task_get_source_object (task);
  VivaChatRequest *request = g_task_get_task_data (task);
  Timing *timing = g_hash_table_lookup (self->started, request);
  g_autoptr(VivaChatReply) reply = NULL;
  GError *error = NULL;
  gint64 now = g_get_monotonic_time ();

  reply = viva_chat_model_stream_finish (VIVA_CHAT_MODEL (object), result, &error);

  if (reply != NULL && timing != NULL)
    {
      const VivaChatUsage *usage = viva_chat_reply_get_usage (reply);
      double ms = (now - timing->start) / 1000.0;
      guint prompt = usage != NULL && usage->prompt_tokens > 0
                   ? (guint)usage->prompt_tokens : viva_chat_request_estimate_prompt_tokens (request);

      g_array_append_val (self->turns->turn_ms, ms);
      self->turns->tokens += usage != NULL && usage->completion_tokens > 0
                           ? (guint64)usage->completion_tokens : estimate_tokens (reply);
      if (timing->first > 0)
        self->turns->generating_s += (now - timing->first) / (double)G_USEC_PER_SEC;
      self->turns->largest_prompt = MAX (self->turns->largest_prompt, prompt);
    }

  g_hash_table_remove (self->started, request);

  if (reply == NULL)
    return g_task_return_error (task, error);

  g_task_return_pointer (task, g_steal_pointer (&reply), (GDestroyNotify)viva_chat_reply_unref);
}

static void
measured_stream_async (VivaChatModel       *model,
                       VivaChatRequest     *request,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  VivaMeasuredModel *self = VIVA_MEASURED_MODEL (model);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  Timing *timing = g_new0 (Timing, 1);

  g_task_set_source_tag (task, measured_stream_async);
  g_task_set_task_data (task, viva_chat_request_ref (request), (GDestroyNotify)viva_chat_request_unref);

  timing->start = g_get_monotonic_time ();
  g_hash_table_replace (self->started, viva_chat_request_ref (request), timing);
  viva_chat_model_stream_async (self->inner, request, cancellable, stream_cb, g_steal_pointer (&task));
}

static VivaChatReply *
measured_stream_finish (VivaChatModel  *model,
                        GAsyncResult   *result,
                        GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, model), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
chat_model_iface_init (VivaChatModelInterface *iface)
{
  iface->stream_async = measured_stream_async;
  iface->stream_finish = measured_stream_finish;
}

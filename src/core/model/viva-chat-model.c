/* viva-chat-model.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-chat-model.h"

G_DEFINE_INTERFACE (VivaChatModel, viva_chat_model, G_TYPE_OBJECT)

enum {
  DELTA,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/**
 * viva_chat_delta_copy:
 *
 * Returns: (transfer full): a deep copy, owning its strings and usage
 */
VivaChatDelta *
viva_chat_delta_copy (const VivaChatDelta *self)
{
  VivaChatDelta *copy;

  g_return_val_if_fail (self != NULL, NULL);

  copy = g_new0 (VivaChatDelta, 1);
  copy->kind = self->kind;
  copy->index = self->index;
  copy->text = g_strdup (self->text);
  copy->id = g_strdup (self->id);
  copy->name = g_strdup (self->name);
  if (self->usage != NULL)
    copy->usage = g_memdup2 (self->usage, sizeof *self->usage);

  return copy;
}

/**
 * viva_chat_delta_free:
 *
 * Frees a delta made by viva_chat_delta_copy(), never one received in a
 * signal handler.
 */
void
viva_chat_delta_free (VivaChatDelta *self)
{
  if (self == NULL)
    return;

  g_free ((char *)self->text);
  g_free ((char *)self->id);
  g_free ((char *)self->name);
  g_free ((VivaChatUsage *)self->usage);
  g_free (self);
}

G_DEFINE_BOXED_TYPE (VivaChatDelta, viva_chat_delta, viva_chat_delta_copy, viva_chat_delta_free)

static void
viva_chat_model_default_init (VivaChatModelInterface *iface)
{
  /**
   * VivaChatModel::delta:
   * @self: the model
   * @request: the request whose reply this is part of
   * @delta: (transfer none): the piece that arrived
   *
   * Emitted for each piece of a reply as it arrives, in order, so a
   * handler may append blindly. A stream is retried only before its first
   * delta; a fault after that ends it with what arrived (the reply is then
   * marked truncated), so nothing shown is ever shown twice.
   */
  signals[DELTA] =
    g_signal_new ("delta",
                  G_TYPE_FROM_INTERFACE (iface),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2,
                  VIVA_TYPE_CHAT_REQUEST | G_SIGNAL_TYPE_STATIC_SCOPE,
                  VIVA_TYPE_CHAT_DELTA | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * VivaChatModel:busy:
   *
   * Whether a stream waits its turn at a busy server (a lab's shared
   * server answering 503 or 429, or a first token slow to come): a state,
   * not an error, which a front shows while it lasts. A model that never
   * waits is never busy.
   */
  g_object_interface_install_property (iface,
                                       g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                                                             G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY |
                                                             G_PARAM_STATIC_STRINGS));
}

/**
 * viva_chat_model_get_busy:
 *
 * Returns: whether a stream waits for a busy server (#VivaChatModel:busy)
 */
gboolean
viva_chat_model_get_busy (VivaChatModel *self)
{
  gboolean busy = FALSE;

  g_return_val_if_fail (VIVA_IS_CHAT_MODEL (self), FALSE);

  g_object_get (self, "busy", &busy, NULL);
  return busy;
}

/**
 * viva_chat_model_stream_async:
 * @request: (transfer none): what to ask; a reference is kept while streaming
 * @cancellable: (nullable): cancels the stream; what arrived is discarded
 *
 * Asks the model for one reply and streams it: #VivaChatModel::delta is
 * emitted for each piece, then @callback runs. Call from the thread whose
 * thread-default main context delivers the deltas and the callback.
 */
void
viva_chat_model_stream_async (VivaChatModel       *self,
                              VivaChatRequest     *request,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_return_if_fail (VIVA_IS_CHAT_MODEL (self));
  g_return_if_fail (request != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  VIVA_CHAT_MODEL_GET_IFACE (self)->stream_async (self, request, cancellable, callback, user_data);
}

/**
 * viva_chat_model_stream_finish:
 *
 * Returns: (transfer full) (nullable): the assembled reply, or %NULL with
 *   @error set (%VIVA_MODEL_ERROR, or %G_IO_ERROR_CANCELLED)
 */
VivaChatReply *
viva_chat_model_stream_finish (VivaChatModel  *self,
                               GAsyncResult   *result,
                               GError        **error)
{
  g_return_val_if_fail (VIVA_IS_CHAT_MODEL (self), NULL);
  g_return_val_if_fail (G_IS_ASYNC_RESULT (result), NULL);

  return VIVA_CHAT_MODEL_GET_IFACE (self)->stream_finish (self, result, error);
}

/**
 * viva_chat_model_emit_delta:
 *
 * For implementations: emits #VivaChatModel::delta.
 */
void
viva_chat_model_emit_delta (VivaChatModel       *self,
                            VivaChatRequest     *request,
                            const VivaChatDelta *delta)
{
  g_return_if_fail (VIVA_IS_CHAT_MODEL (self));
  g_return_if_fail (request != NULL);
  g_return_if_fail (delta != NULL);

  g_signal_emit (self, signals[DELTA], 0, request, delta);
}

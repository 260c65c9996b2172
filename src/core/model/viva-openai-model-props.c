/* viva-openai-model-props.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "viva-model-address.h"
#include "viva-openai-model-private.h"

/* VivaOpenAIModel's public accessors: its configuration (the endpoint,
 * the model and the knobs of a request: temperature, timeouts, context,
 * attempts, the busy wait), each a property told when it changes, and the
 * getters of what the server said of itself and of the busy state, which
 * viva-openai-model.c keeps and changes. */

const char *
viva_openai_model_get_base_url (VivaOpenAIModel *self)
{
  g_return_val_if_fail (VIVA_IS_OPENAI_MODEL (self), NULL);
  return self->base_url;
}

/**
 * viva_openai_model_set_base_url:
 * @base_url: (nullable): the endpoint; %NULL or empty means the default.
 *   A trailing `/` is dropped, and an address on this computer or the
 *   local network typed without its scheme gets `http://`
 *   (viva_model_address_complete()).
 *
 * A new address forgets what was learned about the old server.
 */
void
viva_openai_model_set_base_url (VivaOpenAIModel *self,
                                const char      *base_url)
{
  g_autofree char *url = NULL;
  g_autofree char *completed = NULL;
  gsize len;

  g_return_if_fail (VIVA_IS_OPENAI_MODEL (self));

  url = g_strstrip (g_strdup (base_url != NULL && base_url[0] != '\0' ? base_url : DEFAULT_BASE_URL));
  len = strlen (url);
  while (len > 0 && url[len - 1] == '/')
    url[--len] = '\0';
  /* "localhost:11434/v1" gets its http://; what cannot be completed is
   * kept as typed, and the first request says what is wrong with it. */
  if ((completed = viva_model_address_complete (url, NULL)))
    {
      g_free (url);
      url = g_steal_pointer (&completed);
    }

  if (g_strcmp0 (self->base_url, url) == 0)
    return;

  g_free (self->base_url);
  self->base_url = g_steal_pointer (&url);
  g_clear_pointer (&self->first_model, g_free);
  g_hash_table_remove_all (self->no_temperature);
  g_hash_table_remove_all (self->no_stream_options);
  _viva_openai_model_set_server (self, VIVA_SERVER_KIND_UNKNOWN, NULL);
  g_object_notify_by_pspec (G_OBJECT (self), _viva_openai_model_properties[PROP_BASE_URL]);
}

const char *
viva_openai_model_get_model (VivaOpenAIModel *self)
{
  g_return_val_if_fail (VIVA_IS_OPENAI_MODEL (self), NULL);
  return self->model;
}

/**
 * viva_openai_model_set_model:
 * @model: (nullable): the model's name; %NULL or empty for the server's first
 */
void
viva_openai_model_set_model (VivaOpenAIModel *self,
                             const char      *model)
{
  g_return_if_fail (VIVA_IS_OPENAI_MODEL (self));

  if (model == NULL)
    model = "";

  if (g_strcmp0 (self->model, model) == 0)
    return;

  g_free (self->model);
  self->model = g_strdup (model);
  g_object_notify_by_pspec (G_OBJECT (self), _viva_openai_model_properties[PROP_MODEL]);
}

double
viva_openai_model_get_temperature (VivaOpenAIModel *self)
{
  g_return_val_if_fail (VIVA_IS_OPENAI_MODEL (self), -1.0);
  return self->temperature;
}

/**
 * viva_openai_model_set_temperature:
 * @temperature: 0 to 2, or negative for the server's default
 */
void
viva_openai_model_set_temperature (VivaOpenAIModel *self,
                                   double           temperature)
{
  g_return_if_fail (VIVA_IS_OPENAI_MODEL (self));

  temperature = temperature < 0 ? -1.0 : MIN (temperature, 2.0);
  if (self->temperature == temperature)
    return;

  self->temperature = temperature;
  g_object_notify_by_pspec (G_OBJECT (self), _viva_openai_model_properties[PROP_TEMPERATURE]);
}

guint
viva_openai_model_get_first_byte_timeout (VivaOpenAIModel *self)
{
  g_return_val_if_fail (VIVA_IS_OPENAI_MODEL (self), 0);
  return self->first_byte_timeout;
}

/**
 * viva_openai_model_set_first_byte_timeout:
 * @timeout_ms: how long to wait for the first byte of a reply, in
 *   milliseconds; generous, as a local server may load the model first
 */
void
viva_openai_model_set_first_byte_timeout (VivaOpenAIModel *self,
                                          guint            timeout_ms)
{
  g_return_if_fail (VIVA_IS_OPENAI_MODEL (self));

  timeout_ms = MAX (timeout_ms, 1);
  if (self->first_byte_timeout == timeout_ms)
    return;

  self->first_byte_timeout = timeout_ms;
  g_object_notify_by_pspec (G_OBJECT (self), _viva_openai_model_properties[PROP_FIRST_BYTE_TIMEOUT]);
}

guint
viva_openai_model_get_idle_timeout (VivaOpenAIModel *self)
{
  g_return_val_if_fail (VIVA_IS_OPENAI_MODEL (self), 0);
  return self->idle_timeout;
}

/**
 * viva_openai_model_set_idle_timeout:
 * @timeout_ms: how long a reply may go without a byte, in milliseconds
 */
void
viva_openai_model_set_idle_timeout (VivaOpenAIModel *self,
                                    guint            timeout_ms)
{
  g_return_if_fail (VIVA_IS_OPENAI_MODEL (self));

  timeout_ms = MAX (timeout_ms, 1);
  if (self->idle_timeout == timeout_ms)
    return;

  self->idle_timeout = timeout_ms;
  g_object_notify_by_pspec (G_OBJECT (self), _viva_openai_model_properties[PROP_IDLE_TIMEOUT]);
}

guint
viva_openai_model_get_context_length (VivaOpenAIModel *self)
{
  g_return_val_if_fail (VIVA_IS_OPENAI_MODEL (self), 0);
  return self->context_length;
}

/**
 * viva_openai_model_set_context_length:
 * @context_length: tokens of context to ask Ollama for, 0 for its default
 */
void
viva_openai_model_set_context_length (VivaOpenAIModel *self,
                                      guint            context_length)
{
  g_return_if_fail (VIVA_IS_OPENAI_MODEL (self));

  if (self->context_length == context_length)
    return;

  self->context_length = context_length;
  g_object_notify_by_pspec (G_OBJECT (self), _viva_openai_model_properties[PROP_CONTEXT_LENGTH]);
}

guint
viva_openai_model_get_max_attempts (VivaOpenAIModel *self)
{
  g_return_val_if_fail (VIVA_IS_OPENAI_MODEL (self), 0);
  return self->max_attempts;
}

/**
 * viva_openai_model_set_max_attempts:
 * @max_attempts: tries for a transient fault, 1 to 10 (3 by default)
 */
void
viva_openai_model_set_max_attempts (VivaOpenAIModel *self,
                                    guint            max_attempts)
{
  g_return_if_fail (VIVA_IS_OPENAI_MODEL (self));

  max_attempts = CLAMP (max_attempts, 1, 10);
  if (self->max_attempts == max_attempts)
    return;

  self->max_attempts = max_attempts;
  g_object_notify_by_pspec (G_OBJECT (self), _viva_openai_model_properties[PROP_MAX_ATTEMPTS]);
}

guint
viva_openai_model_get_retry_delay (VivaOpenAIModel *self)
{
  g_return_val_if_fail (VIVA_IS_OPENAI_MODEL (self), 0);
  return self->retry_delay;
}

/**
 * viva_openai_model_set_retry_delay:
 * @delay_ms: the first backoff in milliseconds, doubled for each retry and
 *   jittered between half and all of it
 */
void
viva_openai_model_set_retry_delay (VivaOpenAIModel *self,
                                   guint            delay_ms)
{
  g_return_if_fail (VIVA_IS_OPENAI_MODEL (self));

  delay_ms = MIN (delay_ms, 60 * 1000);
  if (self->retry_delay == delay_ms)
    return;

  self->retry_delay = delay_ms;
  g_object_notify_by_pspec (G_OBJECT (self), _viva_openai_model_properties[PROP_RETRY_DELAY]);
}

gboolean
viva_openai_model_get_ollama_native (VivaOpenAIModel *self)
{
  g_return_val_if_fail (VIVA_IS_OPENAI_MODEL (self), FALSE);
  return self->ollama_native;
}

/**
 * viva_openai_model_set_ollama_native:
 * @ollama_native: whether to use Ollama's own /api/chat (with `num_ctx`
 *   and `keep_alive`) when the server is Ollama; %TRUE by default
 */
void
viva_openai_model_set_ollama_native (VivaOpenAIModel *self,
                                     gboolean         ollama_native)
{
  g_return_if_fail (VIVA_IS_OPENAI_MODEL (self));

  ollama_native = !!ollama_native;
  if (self->ollama_native == ollama_native)
    return;

  self->ollama_native = ollama_native;
  g_object_notify_by_pspec (G_OBJECT (self), _viva_openai_model_properties[PROP_OLLAMA_NATIVE]);
}

/* What the object holds and what the server said, read. */

/**
 * viva_openai_model_get_session:
 *
 * Returns: (transfer none): the session requests go through
 */
SoupSession *
viva_openai_model_get_session (VivaOpenAIModel *self)
{
  g_return_val_if_fail (VIVA_IS_OPENAI_MODEL (self), NULL);
  return self->session;
}

/**
 * viva_openai_model_get_secrets:
 *
 * Returns: (transfer none): where the API key is looked up
 */
VivaSecrets *
viva_openai_model_get_secrets (VivaOpenAIModel *self)
{
  g_return_val_if_fail (VIVA_IS_OPENAI_MODEL (self), NULL);
  return self->secrets;
}

/**
 * viva_openai_model_get_server_kind:
 *
 * Returns: what the server was found to be, once a stream, a listing or
 *   viva_openai_model_detect_server_async() asked
 */
VivaServerKind
viva_openai_model_get_server_kind (VivaOpenAIModel *self)
{
  g_return_val_if_fail (VIVA_IS_OPENAI_MODEL (self), VIVA_SERVER_KIND_UNKNOWN);
  return self->server_kind;
}

/**
 * viva_openai_model_get_server_version:
 *
 * Returns: (nullable): Ollama's version, when the server is Ollama
 */
const char *
viva_openai_model_get_server_version (VivaOpenAIModel *self)
{
  g_return_val_if_fail (VIVA_IS_OPENAI_MODEL (self), NULL);
  return self->server_version;
}

/**
 * viva_openai_model_get_error_message:
 *
 * The last problem with the server, worded as what to do next, for a
 * banner to bind to; %NULL after the next success.
 *
 * Returns: (nullable): the message
 */
const char *
viva_openai_model_get_error_message (VivaOpenAIModel *self)
{
  g_return_val_if_fail (VIVA_IS_OPENAI_MODEL (self), NULL);
  return self->error_message;
}

/**
 * viva_openai_model_get_busy:
 *
 * Whether a stream waits for a busy server: it answered 503 or 429, or its
 * first token is slow to come. The stream goes on by itself; a panel
 * shows a calm line with Stop rather than an error.
 *
 * Returns: %TRUE while a stream waits
 */
gboolean
viva_openai_model_get_busy (VivaOpenAIModel *self)
{
  g_return_val_if_fail (VIVA_IS_OPENAI_MODEL (self), FALSE);
  return self->n_busy > 0;
}

/**
 * viva_openai_model_get_busy_since:
 *
 * Returns: g_get_monotonic_time() when the wait began, or 0
 */
gint64
viva_openai_model_get_busy_since (VivaOpenAIModel *self)
{
  g_return_val_if_fail (VIVA_IS_OPENAI_MODEL (self), 0);
  return self->busy_since;
}

/**
 * viva_openai_model_get_busy_wait:
 *
 * Returns: the seconds the server last asked to wait (Retry-After), or 0
 */
guint
viva_openai_model_get_busy_wait (VivaOpenAIModel *self)
{
  g_return_val_if_fail (VIVA_IS_OPENAI_MODEL (self), 0);
  return self->busy_wait;
}

guint
viva_openai_model_get_max_busy_wait (VivaOpenAIModel *self)
{
  g_return_val_if_fail (VIVA_IS_OPENAI_MODEL (self), 0);
  return self->max_busy_wait;
}

/**
 * viva_openai_model_set_max_busy_wait:
 * @wait_ms: how long one stream waits for a busy server, in all, before
 *   it fails; 15 minutes by default
 */
void
viva_openai_model_set_max_busy_wait (VivaOpenAIModel *self,
                                     guint            wait_ms)
{
  g_return_if_fail (VIVA_IS_OPENAI_MODEL (self));

  if (self->max_busy_wait == wait_ms)
    return;

  self->max_busy_wait = wait_ms;
  g_object_notify_by_pspec (G_OBJECT (self), _viva_openai_model_properties[PROP_MAX_BUSY_WAIT]);
}

/**
 * viva_openai_model_get_served_model:
 *
 * Returns: (nullable): the model the server last answered with (the reply's
 *   `model`, else the name asked for), or %NULL before any reply
 */
const char *
viva_openai_model_get_served_model (VivaOpenAIModel *self)
{
  g_return_val_if_fail (VIVA_IS_OPENAI_MODEL (self), NULL);
  return self->served_model;
}

/**
 * viva_openai_model_get_n_retries:
 *
 * Returns: how many times streams were tried again, since the model was
 *   made (a busy server's waits included)
 */
guint
viva_openai_model_get_n_retries (VivaOpenAIModel *self)
{
  g_return_val_if_fail (VIVA_IS_OPENAI_MODEL (self), 0);
  return self->n_retries;
}

/* viva-openai-model.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "viva-model-address.h"
#include "viva-openai-model-private.h"

/* A VivaChatModel over any OpenAI-compatible endpoint, and over Ollama's
 * native /api/chat when the endpoint is Ollama (to set num_ctx, which its
 * /v1 cannot, so a long prompt is not silently cut). This file is the
 * object and its properties (the configuration's accessors are
 * viva-openai-model-props.c); the stream is in viva-openai-model-stream.c,
 * discovery and errors in viva-openai-model-discovery.c. */


GParamSpec *_viva_openai_model_properties[N_PROPS];
static GParamSpec *busy_pspec;

static void chat_model_iface_init (VivaChatModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (VivaOpenAIModel, viva_openai_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (VIVA_TYPE_CHAT_MODEL, chat_model_iface_init))

GType
viva_server_kind_get_type (void)
{
  static gsize type_id;

  if (g_once_init_enter (&type_id))
    {
      static const GEnumValue values[] = {
        { VIVA_SERVER_KIND_UNKNOWN, "VIVA_SERVER_KIND_UNKNOWN", "unknown" },
        { VIVA_SERVER_KIND_OPENAI, "VIVA_SERVER_KIND_OPENAI", "openai" },
        { VIVA_SERVER_KIND_OLLAMA, "VIVA_SERVER_KIND_OLLAMA", "ollama" },
        { 0, NULL, NULL }
      };

      g_once_init_leave (&type_id, g_enum_register_static ("VivaServerKind", values));
    }

  return type_id;
}

/* The object. */

static void
viva_openai_model_dispose (GObject *object)
{
  VivaOpenAIModel *self = (VivaOpenAIModel *)object;

  g_clear_object (&self->session);
  g_clear_object (&self->secrets);

  G_OBJECT_CLASS (viva_openai_model_parent_class)->dispose (object);
}

static void
viva_openai_model_finalize (GObject *object)
{
  VivaOpenAIModel *self = (VivaOpenAIModel *)object;

  g_clear_pointer (&self->base_url, g_free);
  g_clear_pointer (&self->model, g_free);
  g_clear_pointer (&self->server_version, g_free);
  g_clear_pointer (&self->error_message, g_free);
  g_clear_pointer (&self->first_model, g_free);
  g_clear_pointer (&self->served_model, g_free);
  g_clear_pointer (&self->no_temperature, g_hash_table_unref);
  g_clear_pointer (&self->no_stream_options, g_hash_table_unref);

  G_OBJECT_CLASS (viva_openai_model_parent_class)->finalize (object);
}

static void
viva_openai_model_constructed (GObject *object)
{
  VivaOpenAIModel *self = (VivaOpenAIModel *)object;

  G_OBJECT_CLASS (viva_openai_model_parent_class)->constructed (object);

  if (self->session == NULL)
    self->session = soup_session_new_with_options ("user-agent", "Viva/" PACKAGE_VERSION,
                                                   "max-conns-per-host", 4,
                                                   NULL);
  if (self->secrets == NULL)
    self->secrets = g_object_ref (viva_secrets_get_default ());
  if (self->base_url == NULL)
    viva_openai_model_set_base_url (self, DEFAULT_BASE_URL);
}

static void
viva_openai_model_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  VivaOpenAIModel *self = VIVA_OPENAI_MODEL (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    case PROP_SECRETS:
      g_value_set_object (value, self->secrets);
      break;
    case PROP_BASE_URL:
      g_value_set_string (value, viva_openai_model_get_base_url (self));
      break;
    case PROP_MODEL:
      g_value_set_string (value, viva_openai_model_get_model (self));
      break;
    case PROP_TEMPERATURE:
      g_value_set_double (value, viva_openai_model_get_temperature (self));
      break;
    case PROP_FIRST_BYTE_TIMEOUT:
      g_value_set_uint (value, viva_openai_model_get_first_byte_timeout (self));
      break;
    case PROP_IDLE_TIMEOUT:
      g_value_set_uint (value, viva_openai_model_get_idle_timeout (self));
      break;
    case PROP_CONTEXT_LENGTH:
      g_value_set_uint (value, viva_openai_model_get_context_length (self));
      break;
    case PROP_MAX_ATTEMPTS:
      g_value_set_uint (value, viva_openai_model_get_max_attempts (self));
      break;
    case PROP_RETRY_DELAY:
      g_value_set_uint (value, viva_openai_model_get_retry_delay (self));
      break;
    case PROP_OLLAMA_NATIVE:
      g_value_set_boolean (value, viva_openai_model_get_ollama_native (self));
      break;
    case PROP_SERVER_KIND:
      g_value_set_enum (value, viva_openai_model_get_server_kind (self));
      break;
    case PROP_SERVER_VERSION:
      g_value_set_string (value, viva_openai_model_get_server_version (self));
      break;
    case PROP_ERROR_MESSAGE:
      g_value_set_string (value, viva_openai_model_get_error_message (self));
      break;
    case PROP_BUSY:
      g_value_set_boolean (value, viva_openai_model_get_busy (self));
      break;
    case PROP_BUSY_SINCE:
      g_value_set_int64 (value, viva_openai_model_get_busy_since (self));
      break;
    case PROP_BUSY_WAIT:
      g_value_set_uint (value, viva_openai_model_get_busy_wait (self));
      break;
    case PROP_MAX_BUSY_WAIT:
      g_value_set_uint (value, viva_openai_model_get_max_busy_wait (self));
      break;

    case PROP_SERVED_MODEL:
      g_value_set_string (value, viva_openai_model_get_served_model (self));
      break;
    default:
      if (!_viva_openai_model_get_limit (self, prop_id, value))
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_openai_model_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  VivaOpenAIModel *self = VIVA_OPENAI_MODEL (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      self->session = g_value_dup_object (value);
      break;
    case PROP_SECRETS:
      self->secrets = g_value_dup_object (value);
      break;
    case PROP_BASE_URL:
      viva_openai_model_set_base_url (self, g_value_get_string (value));
      break;
    case PROP_MODEL:
      viva_openai_model_set_model (self, g_value_get_string (value));
      break;
    case PROP_TEMPERATURE:
      viva_openai_model_set_temperature (self, g_value_get_double (value));
      break;
    case PROP_FIRST_BYTE_TIMEOUT:
      viva_openai_model_set_first_byte_timeout (self, g_value_get_uint (value));
      break;
    case PROP_IDLE_TIMEOUT:
      viva_openai_model_set_idle_timeout (self, g_value_get_uint (value));
      break;
    case PROP_CONTEXT_LENGTH:
      viva_openai_model_set_context_length (self, g_value_get_uint (value));
      break;
    case PROP_MAX_ATTEMPTS:
      viva_openai_model_set_max_attempts (self, g_value_get_uint (value));
      break;
    case PROP_RETRY_DELAY:
      viva_openai_model_set_retry_delay (self, g_value_get_uint (value));
      break;
    case PROP_OLLAMA_NATIVE:
      viva_openai_model_set_ollama_native (self, g_value_get_boolean (value));
      break;
    case PROP_MAX_BUSY_WAIT:
      viva_openai_model_set_max_busy_wait (self, g_value_get_uint (value));
      break;
    default:
      if (!_viva_openai_model_set_limit (self, prop_id, value))
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_openai_model_class_init (VivaOpenAIModelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = viva_openai_model_dispose;
  object_class->finalize = viva_openai_model_finalize;
  object_class->constructed = viva_openai_model_constructed;
  object_class->get_property = viva_openai_model_get_property;
  object_class->set_property = viva_openai_model_set_property;

  /* The app's one SoupSession, shared by every model. */
  _viva_openai_model_properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, SOUP_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  _viva_openai_model_properties[PROP_SECRETS] =
    g_param_spec_object ("secrets", NULL, NULL, VIVA_TYPE_SECRETS,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  _viva_openai_model_properties[PROP_BASE_URL] =
    g_param_spec_string ("base-url", NULL, NULL, DEFAULT_BASE_URL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* Empty: the server's first model. */
  _viva_openai_model_properties[PROP_MODEL] =
    g_param_spec_string ("model", NULL, NULL, "",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* Negative: the server's default. */
  _viva_openai_model_properties[PROP_TEMPERATURE] =
    g_param_spec_double ("temperature", NULL, NULL, -1.0, 2.0, -1.0,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  _viva_openai_model_properties[PROP_FIRST_BYTE_TIMEOUT] =
    g_param_spec_uint ("first-byte-timeout", NULL, NULL, 1, G_MAXUINT, 180 * 1000,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  _viva_openai_model_properties[PROP_IDLE_TIMEOUT] =
    g_param_spec_uint ("idle-timeout", NULL, NULL, 1, G_MAXUINT, 60 * 1000,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  _viva_openai_model_properties[PROP_CONTEXT_LENGTH] =
    g_param_spec_uint ("context-length", NULL, NULL, 0, G_MAXUINT, 16384,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  _viva_openai_model_properties[PROP_MAX_ATTEMPTS] =
    g_param_spec_uint ("max-attempts", NULL, NULL, 1, 10, 3,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  _viva_openai_model_properties[PROP_RETRY_DELAY] =
    g_param_spec_uint ("retry-delay", NULL, NULL, 0, 60 * 1000, 1000,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  _viva_openai_model_properties[PROP_OLLAMA_NATIVE] =
    g_param_spec_boolean ("ollama-native", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  _viva_openai_model_properties[PROP_SERVER_KIND] =
    g_param_spec_enum ("server-kind", NULL, NULL, VIVA_TYPE_SERVER_KIND, VIVA_SERVER_KIND_UNKNOWN,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  _viva_openai_model_properties[PROP_SERVER_VERSION] =
    g_param_spec_string ("server-version", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  _viva_openai_model_properties[PROP_ERROR_MESSAGE] =
    g_param_spec_string ("error-message", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* g_get_monotonic_time() when the wait began; 0 when not busy. */
  _viva_openai_model_properties[PROP_BUSY_SINCE] =
    g_param_spec_int64 ("busy-since", NULL, NULL, 0, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* Seconds the server asked to wait (Retry-After), 0 when it did not say. */
  _viva_openai_model_properties[PROP_BUSY_WAIT] =
    g_param_spec_uint ("busy-wait", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* Milliseconds a stream waits for a busy server before it fails. */
  _viva_openai_model_properties[PROP_MAX_BUSY_WAIT] =
    g_param_spec_uint ("max-busy-wait", NULL, NULL, 0, G_MAXUINT, 15 * 60 * 1000,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /* The model the server last answered with: a reply's own `model`, else
   * the one asked for (the server's first when none is configured). What a
   * session records, since "" says nothing about who examined. */
  _viva_openai_model_properties[PROP_SERVED_MODEL] =
    g_param_spec_string ("served-model", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, _viva_openai_model_properties);
  /* A busy server (503, 429, or a first token slow to come) is a state,
   * not an error: what a panel shows while the stream waits its turn. */
  g_object_class_override_property (object_class, PROP_BUSY, "busy");
  busy_pspec = g_object_class_find_property (object_class, "busy");
  /* What one reply may take (viva-reply-limits.h), after the others. */
  _viva_openai_model_install_limits (object_class, PROP_BUSY + 1);
}

static void
viva_openai_model_init (VivaOpenAIModel *self)
{
  self->model = g_strdup ("");
  self->temperature = -1.0;
  self->first_byte_timeout = 180 * 1000;
  self->idle_timeout = 60 * 1000;
  self->context_length = 16384;
  self->max_attempts = 3;
  self->retry_delay = 1000;
  self->ollama_native = TRUE;
  self->max_busy_wait = 15 * 60 * 1000;
  _viva_openai_model_init_limits (self);
  self->no_temperature = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->no_stream_options = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

/**
 * viva_openai_model_new:
 * @base_url: (nullable): the endpoint, such as `http://localhost:11434/v1`
 *
 * A model with its own SoupSession and the default secrets store. Main
 * thread only, like everything on it.
 *
 * Returns: (transfer full): a new model
 */
VivaOpenAIModel *
viva_openai_model_new (const char *base_url)
{
  return g_object_new (VIVA_TYPE_OPENAI_MODEL,
                       "base-url", base_url != NULL ? base_url : DEFAULT_BASE_URL,
                       NULL);
}

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

void
_viva_openai_model_set_served_model (VivaOpenAIModel *self,
                                     const char      *name)
{
  if (name == NULL || name[0] == '\0' || g_strcmp0 (name, self->served_model) == 0)
    return;

  g_free (self->served_model);
  self->served_model = g_strdup (name);
  g_object_notify_by_pspec (G_OBJECT (self), _viva_openai_model_properties[PROP_SERVED_MODEL]);
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

/* A stream begins (or goes on) waiting for a busy server; @wait_s is what
 * the server announced, or 0. Streams wait independently; the model is
 * busy while any does. */
void
_viva_openai_model_busy_begin (VivaOpenAIModel *self,
                               gboolean         already,
                               guint            wait_s)
{
  g_object_freeze_notify (G_OBJECT (self));

  if (!already && self->n_busy++ == 0)
    {
      self->busy_since = g_get_monotonic_time ();
      g_object_notify_by_pspec (G_OBJECT (self), _viva_openai_model_properties[PROP_BUSY_SINCE]);
      g_object_notify_by_pspec (G_OBJECT (self), busy_pspec);
    }

  if (self->busy_wait != wait_s)
    {
      self->busy_wait = wait_s;
      g_object_notify_by_pspec (G_OBJECT (self), _viva_openai_model_properties[PROP_BUSY_WAIT]);
    }

  g_object_thaw_notify (G_OBJECT (self));
}

void
_viva_openai_model_busy_end (VivaOpenAIModel *self)
{
  g_return_if_fail (self->n_busy > 0);

  if (--self->n_busy > 0)
    return;

  g_object_freeze_notify (G_OBJECT (self));
  self->busy_since = 0;
  self->busy_wait = 0;
  g_object_notify_by_pspec (G_OBJECT (self), busy_pspec);
  g_object_notify_by_pspec (G_OBJECT (self), _viva_openai_model_properties[PROP_BUSY_SINCE]);
  g_object_notify_by_pspec (G_OBJECT (self), _viva_openai_model_properties[PROP_BUSY_WAIT]);
  g_object_thaw_notify (G_OBJECT (self));
}

static void
chat_model_iface_init (VivaChatModelInterface *iface)
{
  iface->stream_async = _viva_openai_model_stream_async;
  iface->stream_finish = _viva_openai_model_stream_finish;
}

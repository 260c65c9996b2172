/* viva-openai-model.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "viva-model-address.h"
#include "viva-model-private.h"
#include "viva-openai-model-private.h"

/* A VivaChatModel over any OpenAI-compatible endpoint, and over Ollama's
 * native /api/chat when the endpoint is Ollama (to set num_ctx, which its
 * /v1 cannot, so a long prompt is not silently cut). This file is the
 * object, its properties (the configuration's accessors are
 * viva-openai-model-props.c) and what it knows of the server: its kind,
 * asked once, its first model, the last error, the busy state. Each
 * satellite calls this file and nothing else of the class: the stream
 * (viva-openai-model-stream.c), discovery (…-discovery.c), warm-up
 * (…-warm.c) and the limits (…-limits.c). */


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

/* What the server is and what it said. */

char *
_viva_openai_model_url (VivaOpenAIModel *self,
                        const char      *path)
{
  return g_strconcat (self->base_url, path, NULL);
}

/* Ollama's own API lives beside its OpenAI one: `…:11434/v1` → `…:11434`. */
char *
_viva_openai_model_root_url (VivaOpenAIModel *self,
                             const char      *path)
{
  g_autofree char *root = g_strdup (self->base_url);

  if (g_str_has_suffix (root, "/v1"))
    root[strlen (root) - 3] = '\0';

  return g_strconcat (root, path, NULL);
}

gboolean
_viva_openai_model_looks_like_ollama (VivaOpenAIModel *self)
{
  return self->server_kind == VIVA_SERVER_KIND_OLLAMA ||
         (self->server_kind == VIVA_SERVER_KIND_UNKNOWN && strstr (self->base_url, ":11434") != NULL);
}

void
_viva_openai_model_set_server (VivaOpenAIModel *self,
                               VivaServerKind   kind,
                               const char      *version)
{
  g_object_freeze_notify (G_OBJECT (self));

  if (self->server_kind != kind)
    {
      self->server_kind = kind;
      g_object_notify (G_OBJECT (self), "server-kind");
    }

  if (g_strcmp0 (self->server_version, version) != 0)
    {
      g_free (self->server_version);
      self->server_version = g_strdup (version);
      g_object_notify (G_OBJECT (self), "server-version");
    }

  g_object_thaw_notify (G_OBJECT (self));
}

void
_viva_openai_model_set_error (VivaOpenAIModel *self,
                              const GError    *error)
{
  const char *message = error != NULL ? error->message : NULL;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  if (g_strcmp0 (self->error_message, message) != 0)
    {
      g_free (self->error_message);
      self->error_message = g_strdup (message);
      g_object_notify (G_OBJECT (self), "error-message");
    }
}

/* A transport's @error in words, and whether another attempt may help. */
GError *
_viva_openai_model_transport_error (VivaOpenAIModel *self,
                                    const GError    *error,
                                    gboolean        *retryable)
{
  g_autofree char *root = _viva_openai_model_looks_like_ollama (self) ? _viva_openai_model_root_url (self, "") : NULL;

  return _viva_model_error_new_for_transport (error, self->base_url, root, retryable);
}

/* The server's kind, asked once (viva-openai-model-discovery.c) and then
 * known: a stream and a warm-up each need it before their first request.
 * A server that could not be reached stays unknown, to be asked again. */
void
_viva_openai_model_know_server_async (VivaOpenAIModel     *self,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  if (self->server_kind == VIVA_SERVER_KIND_UNKNOWN)
    return viva_openai_model_detect_server_async (self, cancellable, callback, user_data);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, _viva_openai_model_know_server_async);
  g_task_return_int (task, self->server_kind);
}

/* Returns: the server's kind, or %VIVA_SERVER_KIND_UNKNOWN with @error set */
VivaServerKind
_viva_openai_model_know_server_finish (VivaOpenAIModel  *self,
                                       GAsyncResult     *result,
                                       GError          **error)
{
  /* Either task above returns the kind as detection's does. */
  return viva_openai_model_detect_server_finish (self, result, error);
}

/* The model @request goes to when it is known without asking: the
 * request's own, the configured one, or the server's first, listed before. */
const char *
_viva_openai_model_pick_model (VivaOpenAIModel *self,
                               VivaChatRequest *request)
{
  const char *model = viva_chat_request_get_model (request);

  if (model == NULL && self->model != NULL && self->model[0] != '\0')
    model = self->model;
  if (model == NULL)
    model = self->first_model;

  return model;
}

static void
first_model_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  VivaOpenAIModel *self = VIVA_OPENAI_MODEL (object);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) names = NULL;

  if (!(names = viva_openai_model_list_models_finish (self, result, &error)))
    return g_task_return_error (task, g_steal_pointer (&error));

  if (names[0] == NULL)
    return g_task_return_error (task, _viva_model_error_new_no_model (self->base_url,
                                                                      _viva_openai_model_looks_like_ollama (self)));

  g_free (self->first_model);
  self->first_model = g_strdup (names[0]);
  g_task_return_pointer (task, g_strdup (names[0]), g_free);
}

/* The server's first model, listed and kept for the streams that follow:
 * what "the server's first model" (an empty model setting) means. */
void
_viva_openai_model_first_model_async (VivaOpenAIModel     *self,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, _viva_openai_model_first_model_async);
  viva_openai_model_list_models_async (self, cancellable, first_model_cb, g_steal_pointer (&task));
}

/* Returns: (transfer full) (nullable): the name, or %NULL with @error set
 *   (%VIVA_MODEL_ERROR_NO_MODEL when the server has none) */
char *
_viva_openai_model_first_model_finish (VivaOpenAIModel  *self,
                                       GAsyncResult     *result,
                                       GError          **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
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

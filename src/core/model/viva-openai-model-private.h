/* viva-openai-model-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-openai-model.h"

G_BEGIN_DECLS

struct _VivaOpenAIModel
{
  GObject         parent_instance;

  SoupSession    *session;
  VivaSecrets    *secrets;

  char           *base_url;
  char           *model;
  double          temperature;
  guint           first_byte_timeout;
  guint           idle_timeout;
  guint           context_length;
  guint           max_attempts;
  guint           retry_delay;
  gboolean        ollama_native;
  guint           max_busy_wait;

  /* What one reply may take (viva-reply-limits.h). */
  guint           max_reply_bytes;
  guint           max_line_bytes;
  guint           max_deltas;
  guint           max_tool_calls;
  guint           max_reply_time;

  /* Streams waiting for a busy server, since when, what it announced. */
  guint           n_busy;
  gint64          busy_since;
  guint           busy_wait;
  guint           n_retries;

  VivaServerKind  server_kind;
  char           *server_version;
  char           *error_message;
  char           *first_model;
  char           *served_model;

  /* Models that rejected a parameter with a 400, so it is not sent again. */
  GHashTable     *no_temperature;
  GHashTable     *no_stream_options;
};

/* viva-openai-model.c: what the object knows, for its satellites. */
char     *_viva_openai_model_url              (VivaOpenAIModel      *self,
                                               const char           *path);
char     *_viva_openai_model_root_url         (VivaOpenAIModel      *self,
                                               const char           *path);
gboolean  _viva_openai_model_looks_like_ollama (VivaOpenAIModel     *self);
void      _viva_openai_model_set_server       (VivaOpenAIModel      *self,
                                               VivaServerKind        kind,
                                               const char           *version);
void      _viva_openai_model_set_error        (VivaOpenAIModel      *self,
                                               const GError         *error);
GError   *_viva_openai_model_transport_error  (VivaOpenAIModel      *self,
                                               const GError         *error,
                                               gboolean             *retryable);
void      _viva_openai_model_know_server_async (VivaOpenAIModel     *self,
                                               GCancellable         *cancellable,
                                               GAsyncReadyCallback   callback,
                                               gpointer              user_data);
VivaServerKind _viva_openai_model_know_server_finish (VivaOpenAIModel *self,
                                               GAsyncResult         *result,
                                               GError              **error);
const char *_viva_openai_model_pick_model     (VivaOpenAIModel      *self,
                                               VivaChatRequest      *request);
void      _viva_openai_model_first_model_async (VivaOpenAIModel     *self,
                                               GCancellable         *cancellable,
                                               GAsyncReadyCallback   callback,
                                               gpointer              user_data);
char     *_viva_openai_model_first_model_finish (VivaOpenAIModel    *self,
                                               GAsyncResult         *result,
                                               GError              **error);
void      _viva_openai_model_set_served_model (VivaOpenAIModel      *self,
                                               const char           *name);
void      _viva_openai_model_busy_begin       (VivaOpenAIModel      *self,
                                               gboolean              already,
                                               guint                 wait_s);
void      _viva_openai_model_busy_end         (VivaOpenAIModel      *self);

/* viva-openai-model-limits.c */
void      _viva_openai_model_install_limits   (GObjectClass         *object_class,
                                               guint                 prop_id);
void      _viva_openai_model_init_limits      (VivaOpenAIModel      *self);
gboolean  _viva_openai_model_get_limit        (VivaOpenAIModel      *self,
                                               guint                 prop_id,
                                               GValue               *value);
gboolean  _viva_openai_model_set_limit        (VivaOpenAIModel      *self,
                                               guint                 prop_id,
                                               const GValue         *value);

/* viva-openai-model-stream.c */
void      _viva_openai_model_stream_async     (VivaChatModel        *model,
                                               VivaChatRequest      *request,
                                               GCancellable         *cancellable,
                                               GAsyncReadyCallback   callback,
                                               gpointer              user_data);
VivaChatReply *_viva_openai_model_stream_finish (VivaChatModel      *model,
                                               GAsyncResult         *result,
                                               GError              **error);

#define DEFAULT_BASE_URL "http://localhost:11434/v1"

enum {
  PROP_0,
  PROP_SESSION,
  PROP_SECRETS,
  PROP_BASE_URL,
  PROP_MODEL,
  PROP_TEMPERATURE,
  PROP_FIRST_BYTE_TIMEOUT,
  PROP_IDLE_TIMEOUT,
  PROP_CONTEXT_LENGTH,
  PROP_MAX_ATTEMPTS,
  PROP_RETRY_DELAY,
  PROP_OLLAMA_NATIVE,
  PROP_SERVER_KIND,
  PROP_SERVER_VERSION,
  PROP_ERROR_MESSAGE,
  PROP_BUSY_SINCE,
  PROP_BUSY_WAIT,
  PROP_MAX_BUSY_WAIT,
  PROP_SERVED_MODEL,
  N_PROPS,
  /* VivaChatModel:busy, overridden */
  PROP_BUSY = N_PROPS,
};

extern GParamSpec *_viva_openai_model_properties[N_PROPS];

G_END_DECLS

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

/* How long Ollama keeps a model loaded after a request: longer than the
 * pause while a student thinks about a question. */
#define VIVA_OLLAMA_KEEP_ALIVE "30m"

/* Bodies read whole are small JSON documents (errors, model lists); a
 * larger one is not what was asked for. */
#define VIVA_OPENAI_MAX_SMALL_BODY (4 * 1024 * 1024)

char     *_viva_openai_model_url             (VivaOpenAIModel      *self,
                                              const char           *path);
char     *_viva_openai_model_root_url        (VivaOpenAIModel      *self,
                                              const char           *path);
gboolean  _viva_openai_model_looks_like_ollama (VivaOpenAIModel    *self);
void      _viva_openai_model_set_server      (VivaOpenAIModel      *self,
                                              VivaServerKind        kind,
                                              const char           *version);
void      _viva_openai_model_busy_begin  (VivaOpenAIModel      *self,
                                          gboolean              already,
                                          guint                 wait_s);
void      _viva_openai_model_busy_end    (VivaOpenAIModel      *self);
void      _viva_openai_model_clear_source    (GSource             **source);
void      _viva_openai_model_forward_cancel  (GCancellable         *cancellable,
                                              GCancellable         *target);
void      _viva_openai_model_set_served_model (VivaOpenAIModel *self,
                                                const char      *name);
void      _viva_openai_model_set_error       (VivaOpenAIModel      *self,
                                              const GError         *error);
GError   *_viva_openai_model_transport_error (VivaOpenAIModel      *self,
                                              const GError         *error,
                                              gboolean             *retryable);
GError   *_viva_openai_model_address_error   (const char           *url);
void      _viva_openai_model_install_limits  (GObjectClass         *object_class,
                                              guint                 prop_id);
void      _viva_openai_model_init_limits     (VivaOpenAIModel      *self);
gboolean  _viva_openai_model_get_limit       (VivaOpenAIModel      *self,
                                              guint                 prop_id,
                                              GValue               *value);
gboolean  _viva_openai_model_set_limit       (VivaOpenAIModel      *self,
                                              guint                 prop_id,
                                              const GValue         *value);
SoupMessage *_viva_openai_model_new_message  (VivaOpenAIModel      *self,
                                              const char           *method,
                                              const char           *url,
                                              const char           *api_key);
void      _viva_read_small_body_async        (GInputStream         *stream,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
GBytes   *_viva_read_small_body_finish       (GAsyncResult         *result,
                                              GError              **error);
void      _viva_openai_model_get_json_async  (VivaOpenAIModel      *self,
                                              const char           *url,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
JsonNode *_viva_openai_model_get_json_finish (VivaOpenAIModel      *self,
                                              GAsyncResult         *result,
                                              guint                *status,
                                              GError              **error);

GBytes   *_viva_openai_model_build_body (VivaOpenAIModel      *self,
                                        VivaChatRequest      *request,
                                        const char           *model,
                                        gboolean              native,
                                        gboolean              dropped_temperature,
                                        gboolean              dropped_stream_options);

void      _viva_openai_model_stream_async    (VivaChatModel        *model,
                                              VivaChatRequest      *request,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
VivaChatReply *_viva_openai_model_stream_finish (VivaChatModel     *model,
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

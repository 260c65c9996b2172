/* viva-openai-model.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <libsoup/soup.h>

#include "viva-chat-model.h"
#include "viva-secrets.h"

G_BEGIN_DECLS

/**
 * VivaServerKind:
 * @VIVA_SERVER_KIND_UNKNOWN: not asked yet
 * @VIVA_SERVER_KIND_OPENAI: an OpenAI-compatible server (vLLM, llama.cpp, hosted APIs…)
 * @VIVA_SERVER_KIND_OLLAMA: Ollama, which answers `/api/version`
 */
typedef enum
{
  VIVA_SERVER_KIND_UNKNOWN,
  VIVA_SERVER_KIND_OPENAI,
  VIVA_SERVER_KIND_OLLAMA,
} VivaServerKind;

#define VIVA_TYPE_SERVER_KIND (viva_server_kind_get_type ())
GType viva_server_kind_get_type (void) G_GNUC_CONST;

#define VIVA_TYPE_OPENAI_MODEL (viva_openai_model_get_type())

G_DECLARE_FINAL_TYPE (VivaOpenAIModel, viva_openai_model, VIVA, OPENAI_MODEL, GObject)

VivaOpenAIModel *viva_openai_model_new                    (const char           *base_url);
SoupSession     *viva_openai_model_get_session            (VivaOpenAIModel      *self);
VivaSecrets     *viva_openai_model_get_secrets            (VivaOpenAIModel      *self);
const char      *viva_openai_model_get_base_url           (VivaOpenAIModel      *self);
void             viva_openai_model_set_base_url           (VivaOpenAIModel      *self,
                                                           const char           *base_url);
const char      *viva_openai_model_get_model              (VivaOpenAIModel      *self);
void             viva_openai_model_set_model              (VivaOpenAIModel      *self,
                                                           const char           *model);
double           viva_openai_model_get_temperature        (VivaOpenAIModel      *self);
void             viva_openai_model_set_temperature        (VivaOpenAIModel      *self,
                                                           double                temperature);
guint            viva_openai_model_get_first_byte_timeout (VivaOpenAIModel      *self);
void             viva_openai_model_set_first_byte_timeout (VivaOpenAIModel      *self,
                                                           guint                 timeout_ms);
guint            viva_openai_model_get_idle_timeout       (VivaOpenAIModel      *self);
void             viva_openai_model_set_idle_timeout       (VivaOpenAIModel      *self,
                                                           guint                 timeout_ms);
guint            viva_openai_model_get_context_length     (VivaOpenAIModel      *self);
void             viva_openai_model_set_context_length     (VivaOpenAIModel      *self,
                                                           guint                 context_length);
guint            viva_openai_model_get_max_attempts       (VivaOpenAIModel      *self);
void             viva_openai_model_set_max_attempts       (VivaOpenAIModel      *self,
                                                           guint                 max_attempts);
guint            viva_openai_model_get_retry_delay        (VivaOpenAIModel      *self);
void             viva_openai_model_set_retry_delay        (VivaOpenAIModel      *self,
                                                           guint                 delay_ms);
gboolean         viva_openai_model_get_ollama_native      (VivaOpenAIModel      *self);
void             viva_openai_model_set_ollama_native      (VivaOpenAIModel      *self,
                                                           gboolean              ollama_native);
VivaServerKind   viva_openai_model_get_server_kind        (VivaOpenAIModel      *self);
const char      *viva_openai_model_get_server_version     (VivaOpenAIModel      *self);
const char      *viva_openai_model_get_error_message      (VivaOpenAIModel      *self);
gboolean         viva_openai_model_get_busy               (VivaOpenAIModel      *self);
gint64           viva_openai_model_get_busy_since         (VivaOpenAIModel      *self);
guint            viva_openai_model_get_busy_wait          (VivaOpenAIModel      *self);
guint            viva_openai_model_get_max_busy_wait      (VivaOpenAIModel      *self);
void             viva_openai_model_set_max_busy_wait      (VivaOpenAIModel      *self,
                                                           guint                 wait_ms);
const char      *viva_openai_model_get_served_model       (VivaOpenAIModel      *self);
guint            viva_openai_model_get_n_retries          (VivaOpenAIModel      *self);

void             viva_openai_model_detect_server_async    (VivaOpenAIModel      *self,
                                                           GCancellable         *cancellable,
                                                           GAsyncReadyCallback   callback,
                                                           gpointer              user_data);
VivaServerKind   viva_openai_model_detect_server_finish   (VivaOpenAIModel      *self,
                                                           GAsyncResult         *result,
                                                           GError              **error);
void             viva_openai_model_list_models_async      (VivaOpenAIModel      *self,
                                                           GCancellable         *cancellable,
                                                           GAsyncReadyCallback   callback,
                                                           gpointer              user_data);
GStrv            viva_openai_model_list_models_finish     (VivaOpenAIModel      *self,
                                                           GAsyncResult         *result,
                                                           GError              **error);
void             viva_openai_model_warm_up_async          (VivaOpenAIModel      *self,
                                                           const char           *model_name,
                                                           GCancellable         *cancellable,
                                                           GAsyncReadyCallback   callback,
                                                           gpointer              user_data);
gboolean         viva_openai_model_warm_up_finish         (VivaOpenAIModel      *self,
                                                           GAsyncResult         *result,
                                                           GError              **error);
void             viva_openai_model_check_health_async     (VivaOpenAIModel      *self,
                                                           GCancellable         *cancellable,
                                                           GAsyncReadyCallback   callback,
                                                           gpointer              user_data);
gboolean         viva_openai_model_check_health_finish    (VivaOpenAIModel      *self,
                                                           GAsyncResult         *result,
                                                           GError              **error);

G_END_DECLS

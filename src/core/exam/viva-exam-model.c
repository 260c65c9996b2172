/* viva-exam-model.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-exam-model.h"
#include "viva-openai-model.h"

/* The settings reach the model client here. Which mind examines a
 * defense is VivaExamEndpoint's one rule (viva-exam-endpoint.c). */

static gboolean
seconds_to_ms (GBinding     *binding,
               const GValue *from,
               GValue       *to,
               gpointer      user_data)
{
  g_value_set_uint (to, MIN (g_value_get_uint (from), G_MAXUINT / 1000) * 1000);
  return TRUE;
}

/**
 * viva_exam_model_new_for_settings:
 *
 * The settings reach the model client here, as its properties: its
 * address, model, temperature, timeouts and context length follow
 * @settings as they change. The client itself never reads settings.
 *
 * Returns: (transfer full): a new model
 */
VivaOpenAIModel *
viva_exam_model_new_for_settings (VivaSettings *settings)
{
  VivaOpenAIModel *self;

  g_return_val_if_fail (VIVA_IS_SETTINGS (settings), NULL);

  self = viva_openai_model_new (viva_settings_get_base_url (settings));
  g_object_bind_property (settings, "base-url", self, "base-url", G_BINDING_SYNC_CREATE);
  g_object_bind_property (settings, "model", self, "model", G_BINDING_SYNC_CREATE);
  g_object_bind_property (settings, "temperature", self, "temperature", G_BINDING_SYNC_CREATE);
  g_object_bind_property (settings, "context-length", self, "context-length", G_BINDING_SYNC_CREATE);
  g_object_bind_property_full (settings, "first-byte-timeout", self, "first-byte-timeout",
                               G_BINDING_SYNC_CREATE, seconds_to_ms, NULL, NULL, NULL);
  g_object_bind_property_full (settings, "idle-timeout", self, "idle-timeout",
                               G_BINDING_SYNC_CREATE, seconds_to_ms, NULL, NULL, NULL);

  return self;
}

/**
 * viva_exam_model_new_for_endpoint:
 * @settings: where timeouts, temperature and context length come from
 * @base_url: (nullable): the endpoint, instead of the configured one
 * @model_name: (nullable): the model, instead of the configured one
 *
 * A model for an endpoint named on a command line (`--base-url`,
 * `--model`): what is given is fixed, the rest follows @settings.
 *
 * Returns: (transfer full): a new model
 */
VivaOpenAIModel *
viva_exam_model_new_for_endpoint (VivaSettings *settings,
                                  const char   *base_url,
                                  const char   *model_name)
{
  g_autoptr(VivaOpenAIModel) self = NULL;

  g_return_val_if_fail (VIVA_IS_SETTINGS (settings), NULL);

  if (base_url == NULL && model_name == NULL)
    return viva_exam_model_new_for_settings (settings);

  self = viva_openai_model_new (base_url != NULL ? base_url : viva_settings_get_base_url (settings));
  if (base_url == NULL)
    g_object_bind_property (settings, "base-url", self, "base-url", G_BINDING_SYNC_CREATE);
  viva_openai_model_set_model (self, model_name != NULL ? model_name : viva_settings_get_model (settings));
  g_object_bind_property (settings, "temperature", self, "temperature", G_BINDING_SYNC_CREATE);
  g_object_bind_property (settings, "context-length", self, "context-length", G_BINDING_SYNC_CREATE);
  g_object_bind_property_full (settings, "first-byte-timeout", self, "first-byte-timeout",
                               G_BINDING_SYNC_CREATE, seconds_to_ms, NULL, NULL, NULL);
  g_object_bind_property_full (settings, "idle-timeout", self, "idle-timeout",
                               G_BINDING_SYNC_CREATE, seconds_to_ms, NULL, NULL, NULL);

  return g_steal_pointer (&self);
}

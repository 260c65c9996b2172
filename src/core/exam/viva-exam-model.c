/* viva-exam-model.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-exam-model.h"
#include "viva-openai-model.h"
#include "viva-scripted-model.h"

/* Which mind examines: the configured endpoint, or the offline examiner
 * when the settings say so or (in auto mode) nothing answers there. One
 * place for the app and the CLI. */

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

typedef struct
{
  VivaProblem *problem;
  char        *notice;
} Choice;

static void
choice_free (Choice *choice)
{
  g_clear_object (&choice->problem);
  g_free (choice->notice);
  g_free (choice);
}

static void
health_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Choice *choice = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  if (viva_openai_model_check_health_finish (VIVA_OPENAI_MODEL (object), result, &error))
    return g_task_return_pointer (task, g_object_ref (object), g_object_unref);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return g_task_return_error (task, g_steal_pointer (&error));

  choice->notice = g_strdup_printf (_("%s Using the offline examiner."), error->message);
  g_task_return_pointer (task, viva_scripted_model_new (choice->problem), g_object_unref);
}

/**
 * viva_exam_choose_model_async:
 * @settings: where the endpoint and the examiner mode are configured
 * @problem: the problem, which the offline examiner plays from
 *
 * Picks the examiner's model: in `offline` mode a #VivaScriptedModel; in
 * `model` mode a #VivaOpenAIModel for the settings, unchecked; in `auto`
 * mode the model if its endpoint answers (a health check), else the
 * offline examiner, with a notice saying why.
 */
void
viva_exam_choose_model_async (VivaSettings        *settings,
                              VivaProblem         *problem,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(VivaOpenAIModel) model = NULL;
  Choice *choice;

  g_return_if_fail (VIVA_IS_SETTINGS (settings));
  g_return_if_fail (VIVA_IS_PROBLEM (problem));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_exam_choose_model_async);
  choice = g_new0 (Choice, 1);
  choice->problem = g_object_ref (problem);
  g_task_set_task_data (task, choice, (GDestroyNotify)choice_free);

  switch (viva_settings_get_examiner_mode (settings))
    {
    case VIVA_EXAMINER_MODE_OFFLINE:
      g_task_return_pointer (task, viva_scripted_model_new (problem), g_object_unref);
      return;

    case VIVA_EXAMINER_MODE_MODEL:
      g_task_return_pointer (task, viva_exam_model_new_for_settings (settings), g_object_unref);
      return;

    case VIVA_EXAMINER_MODE_AUTO:
    default:
      model = viva_exam_model_new_for_settings (settings);
      viva_openai_model_check_health_async (model, cancellable, health_cb, g_steal_pointer (&task));
      return;
    }
}

/**
 * viva_exam_choose_model_finish:
 * @notice: (out) (optional) (nullable): set when the offline examiner
 *   stands in for an endpoint that did not answer, saying why
 *
 * Returns: (transfer full): the model to examine with
 */
VivaChatModel *
viva_exam_choose_model_finish (GAsyncResult  *result,
                               char         **notice,
                               GError       **error)
{
  Choice *choice;
  VivaChatModel *model;

  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  choice = g_task_get_task_data (G_TASK (result));
  model = g_task_propagate_pointer (G_TASK (result), error);
  if (notice != NULL)
    *notice = model != NULL ? g_strdup (choice->notice) : NULL;

  return model;
}

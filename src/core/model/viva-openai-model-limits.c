/* viva-openai-model-limits.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-openai-model-private.h"
#include "viva-reply-limits.h"

/* VivaOpenAIModel's reply limits as properties: max-reply-bytes,
 * max-line-bytes, max-deltas, max-tool-calls and max-reply-time (ms).
 * A table, since each is a number read by the stream when an attempt
 * starts, set by a lab or a test, and nothing more. */

static const struct
{
  const char *name;
  gsize       offset;
  guint       minimum;
  guint       fallback;
} limits[] = {
  { "max-reply-bytes", G_STRUCT_OFFSET (VivaOpenAIModel, max_reply_bytes), 1024, VIVA_REPLY_DEFAULT_MAX_BYTES },
  { "max-line-bytes", G_STRUCT_OFFSET (VivaOpenAIModel, max_line_bytes), 256, VIVA_REPLY_DEFAULT_MAX_LINE },
  { "max-deltas", G_STRUCT_OFFSET (VivaOpenAIModel, max_deltas), 1, VIVA_REPLY_DEFAULT_MAX_DELTAS },
  { "max-tool-calls", G_STRUCT_OFFSET (VivaOpenAIModel, max_tool_calls), 1, VIVA_REPLY_DEFAULT_MAX_TOOL_CALLS },
  { "max-reply-time", G_STRUCT_OFFSET (VivaOpenAIModel, max_reply_time), 100, VIVA_REPLY_DEFAULT_MAX_TIME_MS },
};

static guint first_prop_id;
static GParamSpec *specs[G_N_ELEMENTS (limits)];

/* Installs the limits' properties from @prop_id on. */
void
_viva_openai_model_install_limits (GObjectClass *object_class,
                                   guint         prop_id)
{
  first_prop_id = prop_id;
  for (guint i = 0; i < G_N_ELEMENTS (limits); i++)
    {
      specs[i] = g_param_spec_uint (limits[i].name, NULL, NULL, limits[i].minimum, G_MAXUINT, limits[i].fallback,
                                    G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
      g_object_class_install_property (object_class, prop_id + i, specs[i]);
    }
}

void
_viva_openai_model_init_limits (VivaOpenAIModel *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (limits); i++)
    G_STRUCT_MEMBER (guint, self, limits[i].offset) = limits[i].fallback;
}

/* Returns: %FALSE when @prop_id is not a limit's */
gboolean
_viva_openai_model_get_limit (VivaOpenAIModel *self,
                              guint            prop_id,
                              GValue          *value)
{
  if (prop_id < first_prop_id || prop_id - first_prop_id >= G_N_ELEMENTS (limits))
    return FALSE;

  g_value_set_uint (value, G_STRUCT_MEMBER (guint, self, limits[prop_id - first_prop_id].offset));
  return TRUE;
}

/* Returns: %FALSE when @prop_id is not a limit's */
gboolean
_viva_openai_model_set_limit (VivaOpenAIModel *self,
                              guint            prop_id,
                              const GValue    *value)
{
  guint i = prop_id - first_prop_id;
  guint *field;

  if (prop_id < first_prop_id || i >= G_N_ELEMENTS (limits))
    return FALSE;

  field = &G_STRUCT_MEMBER (guint, self, limits[i].offset);
  if (*field != g_value_get_uint (value))
    {
      *field = g_value_get_uint (value);
      g_object_notify_by_pspec (G_OBJECT (self), specs[i]);
    }
  return TRUE;
}

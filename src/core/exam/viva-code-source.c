/* viva-code-source.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-code-source.h"

G_DEFINE_INTERFACE (VivaCodeSource, viva_code_source, G_TYPE_OBJECT)

static guint changed_signal;

static void
viva_code_source_default_init (VivaCodeSourceInterface *iface)
{
  /**
   * VivaCodeSource::changed:
   *
   * The code changed; viva_code_source_dup_code() has the new text.
   */
  changed_signal = g_signal_new ("changed", G_TYPE_FROM_INTERFACE (iface), G_SIGNAL_RUN_LAST,
                                 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

/**
 * viva_code_source_emit_changed:
 *
 * For implementations: emits #VivaCodeSource::changed.
 */
void
viva_code_source_emit_changed (VivaCodeSource *self)
{
  g_return_if_fail (VIVA_IS_CODE_SOURCE (self));

  g_signal_emit (self, changed_signal, 0);
}

/**
 * viva_code_source_dup_code:
 *
 * Returns: (transfer full): the code as it is now, never %NULL
 */
char *
viva_code_source_dup_code (VivaCodeSource *self)
{
  char *code;

  g_return_val_if_fail (VIVA_IS_CODE_SOURCE (self), NULL);

  code = VIVA_CODE_SOURCE_GET_IFACE (self)->dup_code (self);

  return code != NULL ? code : g_strdup ("");
}

struct _VivaTextCodeSource
{
  GObject  parent_instance;
  char    *code;
};

enum {
  PROP_0,
  PROP_CODE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static char *
viva_text_code_source_dup_code (VivaCodeSource *source)
{
  return g_strdup (VIVA_TEXT_CODE_SOURCE (source)->code);
}

static void
code_source_iface_init (VivaCodeSourceInterface *iface)
{
  iface->dup_code = viva_text_code_source_dup_code;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (VivaTextCodeSource, viva_text_code_source, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (VIVA_TYPE_CODE_SOURCE, code_source_iface_init))

static void
viva_text_code_source_finalize (GObject *object)
{
  VivaTextCodeSource *self = (VivaTextCodeSource *)object;

  g_clear_pointer (&self->code, g_free);

  G_OBJECT_CLASS (viva_text_code_source_parent_class)->finalize (object);
}

static void
viva_text_code_source_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  VivaTextCodeSource *self = VIVA_TEXT_CODE_SOURCE (object);

  switch (prop_id)
    {
    case PROP_CODE:
      g_value_set_string (value, viva_text_code_source_get_code (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_text_code_source_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  VivaTextCodeSource *self = VIVA_TEXT_CODE_SOURCE (object);

  switch (prop_id)
    {
    case PROP_CODE:
      viva_text_code_source_set_code (self, g_value_get_string (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_text_code_source_class_init (VivaTextCodeSourceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = viva_text_code_source_finalize;
  object_class->get_property = viva_text_code_source_get_property;
  object_class->set_property = viva_text_code_source_set_property;

  properties[PROP_CODE] =
    g_param_spec_string ("code", NULL, NULL, "",
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
viva_text_code_source_init (VivaTextCodeSource *self)
{
  self->code = g_strdup ("");
}

/**
 * viva_text_code_source_new:
 *
 * A code source over a string, for the CLI and tests; set_code() plays a
 * student editing the buffer.
 */
VivaTextCodeSource *
viva_text_code_source_new (const char *code)
{
  return g_object_new (VIVA_TYPE_TEXT_CODE_SOURCE, "code", code, NULL);
}

const char *
viva_text_code_source_get_code (VivaTextCodeSource *self)
{
  g_return_val_if_fail (VIVA_IS_TEXT_CODE_SOURCE (self), NULL);

  return self->code;
}

void
viva_text_code_source_set_code (VivaTextCodeSource *self,
                                const char         *code)
{
  g_return_if_fail (VIVA_IS_TEXT_CODE_SOURCE (self));

  if (code == NULL)
    code = "";

  if (g_strcmp0 (self->code, code) == 0)
    return;

  g_free (self->code);
  self->code = g_strdup (code);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CODE]);
  viva_code_source_emit_changed (VIVA_CODE_SOURCE (self));
}

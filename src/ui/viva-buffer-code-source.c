/* viva-buffer-code-source.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-buffer-code-source.h"

/* The examiner's live view of the editor: each time it looks, it sees the
 * code as the student has it now, so an edit made mid-defense counts. */

struct _VivaBufferCodeSource
{
  GObject        parent_instance;
  GtkTextBuffer *buffer;
};

enum {
  PROP_0,
  PROP_BUFFER,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static char *
viva_buffer_code_source_dup_code (VivaCodeSource *source)
{
  VivaBufferCodeSource *self = VIVA_BUFFER_CODE_SOURCE (source);
  GtkTextIter start, end;

  if (self->buffer == NULL)
    return g_strdup ("");

  gtk_text_buffer_get_bounds (self->buffer, &start, &end);

  return gtk_text_buffer_get_text (self->buffer, &start, &end, FALSE);
}

static void
code_source_iface_init (VivaCodeSourceInterface *iface)
{
  iface->dup_code = viva_buffer_code_source_dup_code;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (VivaBufferCodeSource, viva_buffer_code_source, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (VIVA_TYPE_CODE_SOURCE, code_source_iface_init))

static void
viva_buffer_code_source_dispose (GObject *object)
{
  VivaBufferCodeSource *self = (VivaBufferCodeSource *)object;

  g_clear_object (&self->buffer);

  G_OBJECT_CLASS (viva_buffer_code_source_parent_class)->dispose (object);
}

static void
viva_buffer_code_source_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  VivaBufferCodeSource *self = VIVA_BUFFER_CODE_SOURCE (object);

  switch (prop_id)
    {
    case PROP_BUFFER:
      g_value_set_object (value, self->buffer);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_buffer_code_source_set_property (GObject      *object,
                                      guint         prop_id,
                                      const GValue *value,
                                      GParamSpec   *pspec)
{
  VivaBufferCodeSource *self = VIVA_BUFFER_CODE_SOURCE (object);

  switch (prop_id)
    {
    case PROP_BUFFER:
      self->buffer = g_value_dup_object (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_buffer_code_source_class_init (VivaBufferCodeSourceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = viva_buffer_code_source_dispose;
  object_class->get_property = viva_buffer_code_source_get_property;
  object_class->set_property = viva_buffer_code_source_set_property;

  properties[PROP_BUFFER] =
    g_param_spec_object ("buffer", NULL, NULL, GTK_TYPE_TEXT_BUFFER,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
viva_buffer_code_source_init (VivaBufferCodeSource *self)
{
}

/**
 * viva_buffer_code_source_new:
 *
 * Returns: (transfer full): a code source reading @buffer each time
 */
VivaBufferCodeSource *
viva_buffer_code_source_new (GtkTextBuffer *buffer)
{
  g_return_val_if_fail (GTK_IS_TEXT_BUFFER (buffer), NULL);

  return g_object_new (VIVA_TYPE_BUFFER_CODE_SOURCE, "buffer", buffer, NULL);
}

GtkTextBuffer *
viva_buffer_code_source_get_buffer (VivaBufferCodeSource *self)
{
  g_return_val_if_fail (VIVA_IS_BUFFER_CODE_SOURCE (self), NULL);

  return self->buffer;
}

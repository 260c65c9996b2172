/* viva-message-row.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-markdown-stream.h"
#include "viva-message-row.h"

/* One message of the defense. The examiner's words stream in as Markdown,
 * with its reasoning, when the model sends any, in a folded "Thinking…"
 * expander above them and never mixed in. The student's words are plain
 * text: what they typed is what they see. */

struct _VivaMessageRow
{
  GtkWidget           parent_instance;

  GtkBox             *box;
  GtkLabel           *author_label;
  GtkExpander        *thinking_expander;
  VivaMarkdownStream *reasoning_stream;
  VivaMarkdownStream *content_stream;
  GtkLabel           *plain_label;

  VivaMessageKind     kind;
  guint               finished : 1;
};

enum {
  PROP_0,
  PROP_KIND,
  PROP_FINISHED,
  N_PROPS
};

G_DEFINE_ENUM_TYPE (VivaMessageKind, viva_message_kind,
                    G_DEFINE_ENUM_VALUE (VIVA_MESSAGE_EXAMINER, "examiner"),
                    G_DEFINE_ENUM_VALUE (VIVA_MESSAGE_STUDENT, "student"),
                    G_DEFINE_ENUM_VALUE (VIVA_MESSAGE_QUESTION, "question"),
                    G_DEFINE_ENUM_VALUE (VIVA_MESSAGE_NOTE, "note"))

G_DEFINE_FINAL_TYPE (VivaMessageRow, viva_message_row, GTK_TYPE_WIDGET)

static GParamSpec *properties[N_PROPS];

static gboolean
viva_message_row_is_markdown (VivaMessageRow *self)
{
  return self->kind == VIVA_MESSAGE_EXAMINER || self->kind == VIVA_MESSAGE_QUESTION;
}

static void
viva_message_row_set_kind (VivaMessageRow  *self,
                           VivaMessageKind  kind)
{
  static const char * const classes[] = { "examiner", "student", "question", "note" };
  const char *author = NULL;

  self->kind = kind;

  switch (kind)
    {
    case VIVA_MESSAGE_EXAMINER:
      author = _("Examiner");
      break;

    case VIVA_MESSAGE_STUDENT:
      author = _("You");
      gtk_widget_set_halign (GTK_WIDGET (self), GTK_ALIGN_END);
      break;

    case VIVA_MESSAGE_QUESTION:
      author = _("The examiner asks");
      break;

    case VIVA_MESSAGE_NOTE:
      break;

    default:
      g_assert_not_reached ();
    }

  gtk_label_set_label (self->author_label, author);
  gtk_widget_set_visible (GTK_WIDGET (self->author_label), author != NULL);
  gtk_widget_add_css_class (GTK_WIDGET (self), classes[kind]);
}

GtkWidget *
viva_message_row_new (VivaMessageKind kind)
{
  return g_object_new (VIVA_TYPE_MESSAGE_ROW, "kind", kind, NULL);
}

VivaMessageKind
viva_message_row_get_kind (VivaMessageRow *self)
{
  g_return_val_if_fail (VIVA_IS_MESSAGE_ROW (self), VIVA_MESSAGE_EXAMINER);

  return self->kind;
}

/**
 * viva_message_row_set_text:
 *
 * Sets the whole message at once: Markdown for the examiner's kinds,
 * plain text for the others.
 */
void
viva_message_row_set_text (VivaMessageRow *self,
                           const char     *text)
{
  g_return_if_fail (VIVA_IS_MESSAGE_ROW (self));

  if (viva_message_row_is_markdown (self))
    {
      viva_markdown_stream_set_markdown (self->content_stream, text);
      gtk_widget_set_visible (GTK_WIDGET (self->content_stream), text != NULL && text[0] != '\0');
      gtk_accessible_update_property (GTK_ACCESSIBLE (self->content_stream),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, text ? text : "",
                                      -1);
    }
  else
    {
      gtk_label_set_label (self->plain_label, text);
      gtk_widget_set_visible (GTK_WIDGET (self->plain_label), text != NULL && text[0] != '\0');
    }
}

void
viva_message_row_append_content (VivaMessageRow *self,
                                 const char     *text,
                                 gssize          length)
{
  gboolean was_empty;

  g_return_if_fail (VIVA_IS_MESSAGE_ROW (self));
  g_return_if_fail (viva_message_row_is_markdown (self));

  was_empty = viva_markdown_stream_get_empty (self->content_stream);
  viva_markdown_stream_append (self->content_stream, text, length);
  if (was_empty && !viva_markdown_stream_get_empty (self->content_stream))
    {
      gtk_widget_set_visible (GTK_WIDGET (self->content_stream), TRUE);
      /* The answer has begun: the reasoning is over. */
      gtk_expander_set_label (self->thinking_expander, _("Reasoning"));
    }
}

void
viva_message_row_append_reasoning (VivaMessageRow *self,
                                   const char     *text,
                                   gssize          length)
{
  gboolean was_empty;

  g_return_if_fail (VIVA_IS_MESSAGE_ROW (self));

  was_empty = viva_markdown_stream_get_empty (self->reasoning_stream);
  viva_markdown_stream_append (self->reasoning_stream, text, length);
  if (was_empty && !viva_markdown_stream_get_empty (self->reasoning_stream))
    gtk_widget_set_visible (GTK_WIDGET (self->thinking_expander), TRUE);
}

/**
 * viva_message_row_finish:
 *
 * The message is complete: its last block is rendered.
 */
void
viva_message_row_finish (VivaMessageRow *self)
{
  g_return_if_fail (VIVA_IS_MESSAGE_ROW (self));

  if (self->finished)
    return;

  viva_markdown_stream_finish (self->reasoning_stream);
  viva_markdown_stream_finish (self->content_stream);
  gtk_expander_set_label (self->thinking_expander, _("Reasoning"));

  self->finished = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FINISHED]);
}

gboolean
viva_message_row_get_finished (VivaMessageRow *self)
{
  g_return_val_if_fail (VIVA_IS_MESSAGE_ROW (self), FALSE);

  return self->finished;
}

/**
 * viva_message_row_get_empty:
 *
 * Returns: whether nothing was said yet, neither words nor reasoning
 */
gboolean
viva_message_row_get_empty (VivaMessageRow *self)
{
  g_return_val_if_fail (VIVA_IS_MESSAGE_ROW (self), TRUE);

  if (viva_message_row_is_markdown (self))
    return viva_markdown_stream_get_empty (self->content_stream) &&
           viva_markdown_stream_get_empty (self->reasoning_stream);

  return gtk_label_get_label (self->plain_label)[0] == '\0';
}

/**
 * viva_message_row_dup_text:
 *
 * Returns: (transfer full): the message's text as shown, without its
 *   reasoning
 */
char *
viva_message_row_dup_text (VivaMessageRow *self)
{
  g_return_val_if_fail (VIVA_IS_MESSAGE_ROW (self), NULL);

  if (viva_message_row_is_markdown (self))
    return viva_markdown_stream_dup_text (self->content_stream);

  return g_strdup (gtk_label_get_label (self->plain_label));
}

static void
viva_message_row_dispose (GObject *object)
{
  GtkWidget *child;

  gtk_widget_dispose_template (GTK_WIDGET (object), VIVA_TYPE_MESSAGE_ROW);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (object))))
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (viva_message_row_parent_class)->dispose (object);
}

static void
viva_message_row_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  VivaMessageRow *self = VIVA_MESSAGE_ROW (object);

  switch (prop_id)
    {
    case PROP_KIND:
      g_value_set_enum (value, self->kind);
      break;

    case PROP_FINISHED:
      g_value_set_boolean (value, self->finished);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_message_row_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  VivaMessageRow *self = VIVA_MESSAGE_ROW (object);

  switch (prop_id)
    {
    case PROP_KIND:
      viva_message_row_set_kind (self, g_value_get_enum (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_message_row_class_init (VivaMessageRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = viva_message_row_dispose;
  object_class->get_property = viva_message_row_get_property;
  object_class->set_property = viva_message_row_set_property;

  properties[PROP_KIND] =
    g_param_spec_enum ("kind", NULL, NULL, VIVA_TYPE_MESSAGE_KIND, VIVA_MESSAGE_EXAMINER,
                       (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  properties[PROP_FINISHED] =
    g_param_spec_boolean ("finished", NULL, NULL, FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/viva-message-row.ui");
  gtk_widget_class_bind_template_child (widget_class, VivaMessageRow, box);
  gtk_widget_class_bind_template_child (widget_class, VivaMessageRow, author_label);
  gtk_widget_class_bind_template_child (widget_class, VivaMessageRow, thinking_expander);
  gtk_widget_class_bind_template_child (widget_class, VivaMessageRow, reasoning_stream);
  gtk_widget_class_bind_template_child (widget_class, VivaMessageRow, content_stream);
  gtk_widget_class_bind_template_child (widget_class, VivaMessageRow, plain_label);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "messagerow");

  g_type_ensure (VIVA_TYPE_MARKDOWN_STREAM);
}

static void
viva_message_row_init (VivaMessageRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

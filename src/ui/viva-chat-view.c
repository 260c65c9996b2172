/* viva-chat-view.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-chat-view.h"

/* The conversation: a column of rows that follows the end while the
 * student is at the end, and stays put once they scroll up to reread.
 * A defense has tens of rows, not thousands; the cost that grows is inside
 * a long message, which VivaMarkdownStream keeps flat. */

struct _VivaChatView
{
  GtkWidget          parent_instance;

  GtkScrolledWindow *scroller;
  GtkBox            *box;

  guint              n_rows;
  guint              follow_id;
  guint              follow : 1;
  guint              scrolling : 1;
};

enum {
  PROP_0,
  PROP_N_ROWS,
  PROP_FOLLOW,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (VivaChatView, viva_chat_view, GTK_TYPE_WIDGET)

static GParamSpec *properties[N_PROPS];

static void
viva_chat_view_set_follow (VivaChatView *self,
                           gboolean      follow)
{
  follow = !!follow;
  if (self->follow == follow)
    return;

  self->follow = follow;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FOLLOW]);
}

/* Keeps the end in sight. Only ever called outside a frame's layout. */
static void
move_to_end (VivaChatView *self)
{
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (self->scroller);
  double end = gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment);

  if (!self->follow || gtk_adjustment_get_value (adjustment) >= end)
    return;

  self->scrolling = TRUE;
  gtk_adjustment_set_value (adjustment, end);
  self->scrolling = FALSE;
}

static gboolean
follow_cb (gpointer user_data)
{
  VivaChatView *self = VIVA_CHAT_VIEW (user_data);

  self->follow_id = 0;
  move_to_end (self);

  return G_SOURCE_REMOVE;
}

static void
adjustment_changed_cb (VivaChatView  *self,
                       GtkAdjustment *adjustment)
{
  double end = gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment);

  /* The content grew: keep the end in sight if the student was there, but
   * not from here. The viewport configures its adjustment at the end of its
   * own allocation, so this runs inside the frame's layout; moving the
   * value now makes the viewport ask to be allocated again at a moment GTK
   * 4.8 does not carry the request up to the window. The viewport was then
   * drawn without an allocation ("Trying to snapshot GtkViewport without a
   * current allocation", seen in the GUI suite under load) and new rows
   * stayed unplaced until something else moved. Before the next frame the
   * request goes up the normal way. */
  if (self->follow && gtk_adjustment_get_value (adjustment) < end && self->follow_id == 0)
    self->follow_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE, follow_cb, self, NULL);
}

static void
value_changed_cb (VivaChatView  *self,
                  GtkAdjustment *adjustment)
{
  double end = gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment);

  if (self->scrolling)
    return;

  viva_chat_view_set_follow (self, gtk_adjustment_get_value (adjustment) >= end - 8);
}

GtkWidget *
viva_chat_view_new (void)
{
  return g_object_new (VIVA_TYPE_CHAT_VIEW, NULL);
}

/**
 * viva_chat_view_append:
 * @row: (transfer floating): a message row, tool card or verdict card
 */
void
viva_chat_view_append (VivaChatView *self,
                       GtkWidget    *row)
{
  g_return_if_fail (VIVA_IS_CHAT_VIEW (self));
  g_return_if_fail (GTK_IS_WIDGET (row));

  gtk_box_append (self->box, row);
  self->n_rows++;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ROWS]);
}

void
viva_chat_view_remove (VivaChatView *self,
                       GtkWidget    *row)
{
  g_return_if_fail (VIVA_IS_CHAT_VIEW (self));
  g_return_if_fail (gtk_widget_get_parent (row) == GTK_WIDGET (self->box));

  gtk_box_remove (self->box, row);
  self->n_rows--;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ROWS]);
}

void
viva_chat_view_clear (VivaChatView *self)
{
  GtkWidget *child;

  g_return_if_fail (VIVA_IS_CHAT_VIEW (self));

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->box))))
    gtk_box_remove (self->box, child);

  self->n_rows = 0;
  viva_chat_view_set_follow (self, TRUE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ROWS]);
}

guint
viva_chat_view_get_n_rows (VivaChatView *self)
{
  g_return_val_if_fail (VIVA_IS_CHAT_VIEW (self), 0);

  return self->n_rows;
}

/**
 * viva_chat_view_get_last_row:
 *
 * Returns: (transfer none) (nullable): the newest row
 */
GtkWidget *
viva_chat_view_get_last_row (VivaChatView *self)
{
  g_return_val_if_fail (VIVA_IS_CHAT_VIEW (self), NULL);

  return gtk_widget_get_last_child (GTK_WIDGET (self->box));
}

gboolean
viva_chat_view_get_follow (VivaChatView *self)
{
  g_return_val_if_fail (VIVA_IS_CHAT_VIEW (self), FALSE);

  return self->follow;
}

/**
 * viva_chat_view_scroll_to_end:
 *
 * Shows the newest row and follows the conversation again.
 */
void
viva_chat_view_scroll_to_end (VivaChatView *self)
{
  g_return_if_fail (VIVA_IS_CHAT_VIEW (self));

  viva_chat_view_set_follow (self, TRUE);
  move_to_end (self);
}

static void
viva_chat_view_dispose (GObject *object)
{
  GtkWidget *child;

  g_clear_handle_id (&VIVA_CHAT_VIEW (object)->follow_id, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (object), VIVA_TYPE_CHAT_VIEW);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (object))))
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (viva_chat_view_parent_class)->dispose (object);
}

static void
viva_chat_view_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  VivaChatView *self = VIVA_CHAT_VIEW (object);

  switch (prop_id)
    {
    case PROP_N_ROWS:
      g_value_set_uint (value, self->n_rows);
      break;

    case PROP_FOLLOW:
      g_value_set_boolean (value, self->follow);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_chat_view_class_init (VivaChatViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = viva_chat_view_dispose;
  object_class->get_property = viva_chat_view_get_property;

  properties[PROP_N_ROWS] =
    g_param_spec_uint ("n-rows", NULL, NULL, 0, G_MAXUINT, 0,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_FOLLOW] =
    g_param_spec_boolean ("follow", NULL, NULL, TRUE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/viva-chat-view.ui");
  gtk_widget_class_bind_template_child (widget_class, VivaChatView, scroller);
  gtk_widget_class_bind_template_child (widget_class, VivaChatView, box);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "chatview");
}

static void
viva_chat_view_init (VivaChatView *self)
{
  GtkAdjustment *adjustment;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->follow = TRUE;
  adjustment = gtk_scrolled_window_get_vadjustment (self->scroller);
  g_signal_connect_object (adjustment, "changed", G_CALLBACK (adjustment_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (adjustment, "value-changed", G_CALLBACK (value_changed_cb), self, G_CONNECT_SWAPPED);
}

/* viva-console.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-console.h"
#include "viva-figure-window.h"

/* The output of the student's runs: stdout, stderr, notices from Viva,
 * errors whose line can be clicked to jump there, and figures inline.
 * Output is only ever appended at the end, so a flood costs one insert per
 * chunk and never a re-layout of what came before. */

#define LINE_KEY "viva-error-line"
/* Room around a figure in the pane, and the smallest a figure is shown. */
#define FIGURE_MARGIN 24
#define FIGURE_MIN    96

struct _VivaConsole
{
  GtkWidget      parent_instance;
  GtkTextView   *view;
  GtkScrolledWindow *scroller;
  GtkLabel      *status_label;
  GtkSpinner    *spinner;
  GtkTextBuffer *buffer;
  GtkTextMark   *end_mark;
  GtkTextMark   *figure_mark;   /* the newest figure */
  guint          follow_end;    /* an idle that scrolls once laid out */
  guint          figure_last : 1;  /* nothing was printed after it */
  guint          busy : 1;
};

enum {
  PROP_0,
  PROP_BUSY,
  PROP_STATUS,
  N_PROPS
};

enum {
  LINE_ACTIVATED,
  N_SIGNALS
};

G_DEFINE_FINAL_TYPE (VivaConsole, viva_console, GTK_TYPE_WIDGET)

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
viva_console_scroll_to_end (VivaConsole *self)
{
  gtk_text_view_scroll_mark_onscreen (self->view, self->end_mark);
}

static gboolean
follow_end_cb (gpointer user_data)
{
  VivaConsole *self = user_data;

  self->follow_end = 0;
  if (self->figure_last)
    gtk_text_view_scroll_to_mark (self->view, self->figure_mark, 0.0, TRUE, 0.0, 0.0);
  else
    gtk_text_view_scroll_to_mark (self->view, self->end_mark, 0.0, FALSE, 0.0, 1.0);

  return G_SOURCE_REMOVE;
}

/**
 * viva_console_follow_end:
 *
 * Brings the end of the output into view once the text view has laid out
 * what was just appended: scrolling right after a large append uses the
 * lines' estimated heights and stops short of the end.
 */
void
viva_console_follow_end (VivaConsole *self)
{
  g_return_if_fail (VIVA_IS_CONSOLE (self));

  viva_console_scroll_to_end (self);
  /* GtkTextView validates its lines in idles above this priority. */
  if (self->follow_end == 0)
    self->follow_end = g_idle_add_full (G_PRIORITY_LOW, follow_end_cb, self, NULL);
}

static void
viva_console_insert (VivaConsole *self,
                     const char  *text,
                     gssize       len,
                     GtkTextTag  *tag,
                     GtkTextTag  *extra)
{
  GtkTextIter end;

  gtk_text_buffer_get_end_iter (self->buffer, &end);
  gtk_text_buffer_insert_with_tags (self->buffer, &end, text, len, tag, extra, NULL);
  /* Text after a figure moves the view on to it; a figure's own line end
   * does not. */
  self->figure_last = self->figure_last && len == 1 && text[0] == '\n';
  if (!self->figure_last)
    viva_console_scroll_to_end (self);
}

static GtkTextTag *
stream_tag (VivaConsole       *self,
            VivaConsoleStream  stream)
{
  static const char * const names[] = { "stdout", "stderr", "notice", "error" };
  GtkTextTagTable *table = gtk_text_buffer_get_tag_table (self->buffer);

  return gtk_text_tag_table_lookup (table, names[stream]);
}

static void
click_released_cb (GtkGestureClick *gesture,
                   int              n_press,
                   double           x,
                   double           y,
                   VivaConsole     *self)
{
  GtkTextIter iter;
  g_autoptr(GSList) tags = NULL;
  int bx, by;

  if (gtk_text_buffer_get_has_selection (self->buffer))
    return;

  gtk_text_view_window_to_buffer_coords (self->view, GTK_TEXT_WINDOW_WIDGET, x, y, &bx, &by);
  if (!gtk_text_view_get_iter_at_location (self->view, &iter, bx, by))
    return;

  tags = gtk_text_iter_get_tags (&iter);
  for (const GSList *l = tags; l; l = l->next)
    {
      guint line = GPOINTER_TO_UINT (g_object_get_data (l->data, LINE_KEY));

      if (line > 0)
        {
          g_signal_emit (self, signals[LINE_ACTIVATED], 0, line);
          return;
        }
    }
}

static void
clear_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *param)
{
  viva_console_clear (VIVA_CONSOLE (widget));
}

static void
viva_console_dispose (GObject *object)
{
  VivaConsole *self = (VivaConsole *)object;
  GtkWidget *child;

  g_clear_handle_id (&self->follow_end, g_source_remove);

  gtk_widget_dispose_template (GTK_WIDGET (self), VIVA_TYPE_CONSOLE);

  /* The template's root box is not a bound child, so it is ours to drop. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))))
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (viva_console_parent_class)->dispose (object);
}

static void
viva_console_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  VivaConsole *self = VIVA_CONSOLE (object);

  switch (prop_id)
    {
    case PROP_BUSY:
      g_value_set_boolean (value, self->busy);
      break;

    case PROP_STATUS:
      g_value_set_string (value, viva_console_get_status (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_console_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  VivaConsole *self = VIVA_CONSOLE (object);

  switch (prop_id)
    {
    case PROP_BUSY:
      viva_console_set_busy (self, g_value_get_boolean (value));
      break;

    case PROP_STATUS:
      viva_console_set_status (self, g_value_get_string (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_console_class_init (VivaConsoleClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = viva_console_dispose;
  object_class->get_property = viva_console_get_property;
  object_class->set_property = viva_console_set_property;

  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_STATUS] =
    g_param_spec_string ("status", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * VivaConsole::line-activated:
   * @line: the 1-based line of the student's code an error points at
   */
  signals[LINE_ACTIVATED] =
    g_signal_new ("line-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/viva-console.ui");
  gtk_widget_class_bind_template_child (widget_class, VivaConsole, view);
  gtk_widget_class_bind_template_child (widget_class, VivaConsole, scroller);
  gtk_widget_class_bind_template_child (widget_class, VivaConsole, status_label);
  gtk_widget_class_bind_template_child (widget_class, VivaConsole, spinner);
  gtk_widget_class_install_action (widget_class, "console.clear", NULL, clear_action);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
viva_console_init (VivaConsole *self)
{
  GtkGesture *click;
  GtkTextIter end;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->buffer = gtk_text_view_get_buffer (self->view);
  gtk_text_buffer_create_tag (self->buffer, "stdout", NULL);
  gtk_text_buffer_create_tag (self->buffer, "stderr", "foreground", "#c01c28", NULL);
  gtk_text_buffer_create_tag (self->buffer, "notice", "style", PANGO_STYLE_ITALIC,
                              "foreground", "rgba(127,127,127,1)", NULL);
  gtk_text_buffer_create_tag (self->buffer, "error", "foreground", "#c01c28",
                              "weight", PANGO_WEIGHT_BOLD, NULL);
  gtk_text_buffer_create_tag (self->buffer, "link", "underline", PANGO_UNDERLINE_SINGLE, NULL);

  gtk_text_buffer_get_end_iter (self->buffer, &end);
  self->end_mark = gtk_text_buffer_create_mark (self->buffer, "end", &end, FALSE);
  self->figure_mark = gtk_text_buffer_create_mark (self->buffer, "figure", &end, TRUE);

  click = gtk_gesture_click_new ();
  g_signal_connect_object (click, "released", G_CALLBACK (click_released_cb), self, 0);
  gtk_widget_add_controller (GTK_WIDGET (self->view), GTK_EVENT_CONTROLLER (click));
}

void
viva_console_clear (VivaConsole *self)
{
  g_return_if_fail (VIVA_IS_CONSOLE (self));

  gtk_text_buffer_set_text (self->buffer, "", 0);
  self->figure_last = FALSE;
  viva_console_set_status (self, NULL);
}

void
viva_console_append (VivaConsole       *self,
                     VivaConsoleStream  stream,
                     const char        *text)
{
  g_return_if_fail (VIVA_IS_CONSOLE (self));
  g_return_if_fail (stream <= VIVA_CONSOLE_ERROR);

  if (text == NULL || text[0] == '\0')
    return;

  viva_console_insert (self, text, -1, stream_tag (self, stream), NULL);
}

/**
 * viva_console_append_error_at:
 * @line: the 1-based line of the student's code, or 0
 *
 * Appends an error; when @line is set, clicking it emits
 * #VivaConsole::line-activated.
 */
void
viva_console_append_error_at (VivaConsole *self,
                              const char  *text,
                              guint        line)
{
  GtkTextTag *line_tag = NULL;

  g_return_if_fail (VIVA_IS_CONSOLE (self));

  if (line > 0)
    {
      line_tag = gtk_text_buffer_create_tag (self->buffer, NULL,
                                             "underline", PANGO_UNDERLINE_SINGLE, NULL);
      g_object_set_data (G_OBJECT (line_tag), LINE_KEY, GUINT_TO_POINTER (line));
    }

  viva_console_insert (self, text, -1, stream_tag (self, VIVA_CONSOLE_ERROR), line_tag);
}

static void
figure_clicked_cb (GtkButton *button,
                   gpointer   user_data)
{
  GBytes *png = g_object_get_data (G_OBJECT (button), "viva-png");
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (button));

  gtk_window_present (GTK_WINDOW (viva_figure_window_new (png, GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL)));
}

/**
 * viva_console_append_image:
 * @png: a PNG image, such as a matplotlib figure
 */
void
viva_console_append_image (VivaConsole *self,
                           GBytes      *png)
{
  g_autoptr(GdkTexture) texture = NULL;
  g_autoptr(GError) error = NULL;
  GtkTextChildAnchor *anchor;
  GtkWidget *picture;
  GtkWidget *button;
  GtkTextIter end;
  int width, height, max_width, max_height;

  g_return_if_fail (VIVA_IS_CONSOLE (self));
  g_return_if_fail (png != NULL);

  if (!(texture = gdk_texture_new_from_bytes (png, &error)))
    {
      g_autofree char *message = g_strdup_printf (_("A figure could not be shown: %s\n"), error->message);
      viva_console_append (self, VIVA_CONSOLE_NOTICE, message);
      return;
    }

  gtk_text_buffer_get_end_iter (self->buffer, &end);
  anchor = gtk_text_buffer_create_child_anchor (self->buffer, &end);

  /* Shrunk to fit what the pane shows, so the whole figure is in view at
   * once: a lab PC at 1024×768 gives the output some 180 px. */
  max_width = 480;
  max_height = 320;
  if (gtk_widget_get_width (GTK_WIDGET (self->scroller)) > 0)
    max_width = MIN (max_width, gtk_widget_get_width (GTK_WIDGET (self->scroller)) - FIGURE_MARGIN);
  if (gtk_widget_get_height (GTK_WIDGET (self->scroller)) > 0)
    max_height = MIN (max_height, gtk_widget_get_height (GTK_WIDGET (self->scroller)) - FIGURE_MARGIN);
  max_width = MAX (max_width, FIGURE_MIN);
  max_height = MAX (max_height, FIGURE_MIN);

  width = gdk_texture_get_width (texture);
  height = gdk_texture_get_height (texture);
  if (width > max_width)
    {
      height = height * max_width / width;
      width = max_width;
    }
  if (height > max_height)
    {
      width = width * max_height / height;
      height = max_height;
    }

  picture = gtk_picture_new_for_paintable (GDK_PAINTABLE (texture));
  gtk_picture_set_can_shrink (GTK_PICTURE (picture), TRUE);
  gtk_widget_set_size_request (picture, width, height);

  /* Shrunk to fit the pane; a click opens it full size, with Save As. */
  button = gtk_button_new ();
  gtk_button_set_child (GTK_BUTTON (button), picture);
  gtk_widget_add_css_class (button, "flat");
  gtk_widget_add_css_class (button, "viva-figure");
  gtk_widget_set_tooltip_text (button, _("Open the figure full size"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Figure"),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, _("Open the figure full size"),
                                  -1);
  g_object_set_data_full (G_OBJECT (button), "viva-png", g_bytes_ref (png), (GDestroyNotify)g_bytes_unref);
  g_signal_connect (button, "clicked", G_CALLBACK (figure_clicked_cb), NULL);
  gtk_text_view_add_child_at_anchor (self->view, button, anchor);
  viva_console_insert (self, "\n", 1, NULL, NULL);

  /* A new figure comes into view from its top, not its bottom half. */
  gtk_text_buffer_get_iter_at_child_anchor (self->buffer, &end, anchor);
  gtk_text_buffer_move_mark (self->buffer, self->figure_mark, &end);
  self->figure_last = TRUE;
  viva_console_follow_end (self);
}

/**
 * viva_console_append_widget:
 * @widget: (transfer floating): a widget to show in the output, on a line
 *   of its own, such as a paused program's stack or a button
 *
 * Shown where the output is now, and brought into view from its top.
 */
void
viva_console_append_widget (VivaConsole *self,
                            GtkWidget   *widget)
{
  GtkTextChildAnchor *anchor;
  GtkTextIter end;

  g_return_if_fail (VIVA_IS_CONSOLE (self));
  g_return_if_fail (GTK_IS_WIDGET (widget));

  gtk_text_buffer_get_end_iter (self->buffer, &end);
  if (!gtk_text_iter_starts_line (&end))
    viva_console_insert (self, "\n", 1, NULL, NULL);
  gtk_text_buffer_get_end_iter (self->buffer, &end);
  anchor = gtk_text_buffer_create_child_anchor (self->buffer, &end);
  gtk_text_view_add_child_at_anchor (self->view, widget, anchor);
  viva_console_insert (self, "\n", 1, NULL, NULL);

  /* Into view from its top, as a figure: a stack's innermost frame is
   * its first row. */
  gtk_text_buffer_get_iter_at_child_anchor (self->buffer, &end, anchor);
  gtk_text_buffer_move_mark (self->buffer, self->figure_mark, &end);
  self->figure_last = TRUE;
  viva_console_follow_end (self);
}

void
viva_console_set_busy (VivaConsole *self,
                       gboolean     busy)
{
  g_return_if_fail (VIVA_IS_CONSOLE (self));

  busy = !!busy;
  if (self->busy == busy)
    return;

  self->busy = busy;
  gtk_spinner_set_spinning (self->spinner, busy);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

void
viva_console_set_status (VivaConsole *self,
                         const char  *status)
{
  g_return_if_fail (VIVA_IS_CONSOLE (self));

  if (g_strcmp0 (gtk_label_get_label (self->status_label), status ? status : "") == 0)
    return;

  gtk_label_set_label (self->status_label, status ? status : "");
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATUS]);
}

const char *
viva_console_get_status (VivaConsole *self)
{
  g_return_val_if_fail (VIVA_IS_CONSOLE (self), NULL);

  return gtk_label_get_label (self->status_label);
}

/**
 * viva_console_dup_text:
 *
 * Returns: (transfer full): the output as plain text
 */
char *
viva_console_dup_text (VivaConsole *self)
{
  GtkTextIter begin, end;

  g_return_val_if_fail (VIVA_IS_CONSOLE (self), NULL);

  gtk_text_buffer_get_bounds (self->buffer, &begin, &end);

  return gtk_text_buffer_get_text (self->buffer, &begin, &end, FALSE);
}

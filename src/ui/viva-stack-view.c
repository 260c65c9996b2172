/* viva-stack-view.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "viva-stack-view.h"

/* Where a paused program stands, in the console: a heading with the line,
 * then one expandable row per frame of the student's code, innermost
 * first and open, its variables inside (name, value, type). Everything
 * shown came from the student's process, so nothing is read as markup. */

#define SHOWN_OPEN   1
/* Rows cost: a recursion's 32 frames as expander rows took 250-800 ms to
 * reach the screen (tests/bench/RESULTS.md, Pause); the innermost ones are
 * where the student looks, and the rest are counted. */
#define SHOWN_FRAMES 8

struct _VivaStackView
{
  GtkWidget   parent_instance;
  GtkWidget  *box;
  GtkLabel   *heading;
  GtkListBox *list;
};

G_DEFINE_FINAL_TYPE (VivaStackView, viva_stack_view, GTK_TYPE_WIDGET)

static void
viva_stack_view_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), VIVA_TYPE_STACK_VIEW);
  G_OBJECT_CLASS (viva_stack_view_parent_class)->dispose (object);
}

static void
viva_stack_view_class_init (VivaStackViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = viva_stack_view_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/viva-stack-view.ui");
  gtk_widget_class_bind_template_child (widget_class, VivaStackView, box);
  gtk_widget_class_bind_template_child (widget_class, VivaStackView, heading);
  gtk_widget_class_bind_template_child (widget_class, VivaStackView, list);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
viva_stack_view_init (VivaStackView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

static GtkWidget *
local_row (const VivaRunLocal *local)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *type = gtk_label_new (local->type_name);

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), local->name);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), local->value);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 2);
  gtk_widget_add_css_class (type, "dim-label");
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), type);
  return row;
}

/* A frame's variables become rows when it is first opened. */
static void
frame_expanded_cb (AdwExpanderRow *row,
                   GParamSpec     *pspec,
                   gpointer        user_data)
{
  const VivaRunFrame *frame = g_object_get_data (G_OBJECT (row), "viva-frame");

  if (!adw_expander_row_get_expanded (row) || frame == NULL)
    return;

  for (guint i = 0; i < frame->locals->len; i++)
    adw_expander_row_add_row (row, local_row (g_ptr_array_index (frame->locals, i)));
  g_object_set_data (G_OBJECT (row), "viva-frame", NULL);
}

static GtkWidget *
frame_row (VivaRunStack       *stack,
           const VivaRunFrame *frame,
           gboolean            open)
{
  GtkWidget *row = adw_expander_row_new ();
  g_autofree char *title = NULL;
  g_autofree char *subtitle = NULL;

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  if (g_str_equal (frame->function, "<module>"))
    title = g_strdup_printf (_("Top level, line %d"), frame->line);
  else
    title = g_strdup_printf (_("%s(), line %d"), frame->function, frame->line);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  subtitle = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u variable", "%u variables", frame->locals->len),
                              frame->locals->len);
  adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (row), subtitle);

  /* The frame lives as long as the stack, which the row keeps. */
  g_object_set_data_full (G_OBJECT (row), "viva-stack", g_object_ref (stack), g_object_unref);
  g_object_set_data (G_OBJECT (row), "viva-frame", (gpointer) frame);
  g_signal_connect (row, "notify::expanded", G_CALLBACK (frame_expanded_cb), NULL);
  adw_expander_row_set_enable_expansion (ADW_EXPANDER_ROW (row), frame->locals->len > 0);
  adw_expander_row_set_expanded (ADW_EXPANDER_ROW (row), open && frame->locals->len > 0);
  return row;
}

/**
 * viva_stack_view_new:
 * @stack: where the paused program stands
 *
 * Returns: (transfer floating): the view
 */
GtkWidget *
viva_stack_view_new (VivaRunStack *stack)
{
  VivaStackView *self = g_object_new (VIVA_TYPE_STACK_VIEW, NULL);
  guint n = MIN (viva_run_stack_get_n_frames (stack), SHOWN_FRAMES);
  guint depth = viva_run_stack_get_depth (stack);
  g_autofree char *heading = NULL;

  if (viva_run_stack_get_line (stack) > 0)
    heading = g_strdup_printf (_("Paused on line %d. Resume, or Stop."), viva_run_stack_get_line (stack));
  else
    heading = g_strdup (_("Paused outside your code. Resume, or Stop."));
  gtk_label_set_label (self->heading, heading);

  for (guint i = 0; i < n; i++)
    gtk_list_box_append (self->list, frame_row (stack, viva_run_stack_get_frame (stack, i), i < SHOWN_OPEN));

  if (depth > n)
    {
      g_autofree char *more = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                            "… and %u call further out",
                                                            "… and %u calls further out", depth - n),
                                               depth - n);
      GtkWidget *row = adw_action_row_new ();

      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), more);
      gtk_list_box_append (self->list, row);
    }

  return GTK_WIDGET (self);
}

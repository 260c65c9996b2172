/* viva-examiner-panel.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>

#include "viva-examiner-panel.h"

/* The right-hand panel where the defense takes place. */

struct _VivaExaminerPanel
{
  GtkWidget      parent_instance;
  AdwStatusPage *empty_page;
};

G_DEFINE_FINAL_TYPE (VivaExaminerPanel, viva_examiner_panel, GTK_TYPE_WIDGET)

static void
viva_examiner_panel_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), VIVA_TYPE_EXAMINER_PANEL);

  G_OBJECT_CLASS (viva_examiner_panel_parent_class)->dispose (object);
}

static void
viva_examiner_panel_class_init (VivaExaminerPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = viva_examiner_panel_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/viva-examiner-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, VivaExaminerPanel, empty_page);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
viva_examiner_panel_init (VivaExaminerPanel *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

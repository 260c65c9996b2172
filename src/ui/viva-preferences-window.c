/* viva-preferences-window.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-preferences-window.h"
#include "viva-settings.h"

struct _VivaPreferencesWindow
{
  AdwPreferencesWindow  parent_instance;
  AdwEntryRow          *base_url_row;
  AdwEntryRow          *model_row;
  GtkAdjustment        *temperature_adjustment;
  AdwComboRow          *mode_row;
  AdwComboRow          *language_row;
};

G_DEFINE_FINAL_TYPE (VivaPreferencesWindow, viva_preferences_window, ADW_TYPE_PREFERENCES_WINDOW)

/* Index in language_row ↔ locale name stored in settings. */
static const char * const languages[] = { "", "en", "zh_CN", "vi" };

static void
base_url_apply_cb (VivaPreferencesWindow *self,
                   AdwEntryRow           *row)
{
  g_autofree char *url = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (row))));

  if (url[0] == '\0')
    {
      gtk_editable_set_text (GTK_EDITABLE (row), "http://localhost:11434/v1");
      g_clear_pointer (&url, g_free);
      url = g_strdup ("http://localhost:11434/v1");
    }

  viva_settings_set_base_url (viva_settings_get_default (), url);
}

static void
model_apply_cb (VivaPreferencesWindow *self,
                AdwEntryRow           *row)
{
  g_autofree char *model = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (row))));

  viva_settings_set_model (viva_settings_get_default (), model);
}

static void
language_selected_cb (VivaPreferencesWindow *self)
{
  guint selected = adw_combo_row_get_selected (self->language_row);

  if (selected < G_N_ELEMENTS (languages))
    viva_settings_set_examiner_language (viva_settings_get_default (), languages[selected]);
}

static void
viva_preferences_window_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), VIVA_TYPE_PREFERENCES_WINDOW);

  G_OBJECT_CLASS (viva_preferences_window_parent_class)->dispose (object);
}

static void
viva_preferences_window_class_init (VivaPreferencesWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = viva_preferences_window_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/ui/viva-preferences-window.ui");
  gtk_widget_class_bind_template_child (widget_class, VivaPreferencesWindow, base_url_row);
  gtk_widget_class_bind_template_child (widget_class, VivaPreferencesWindow, model_row);
  gtk_widget_class_bind_template_child (widget_class, VivaPreferencesWindow, temperature_adjustment);
  gtk_widget_class_bind_template_child (widget_class, VivaPreferencesWindow, mode_row);
  gtk_widget_class_bind_template_child (widget_class, VivaPreferencesWindow, language_row);
  gtk_widget_class_bind_template_callback (widget_class, base_url_apply_cb);
  gtk_widget_class_bind_template_callback (widget_class, model_apply_cb);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
viva_preferences_window_init (VivaPreferencesWindow *self)
{
  VivaSettings *settings = viva_settings_get_default ();
  const char *language;

  gtk_widget_init_template (GTK_WIDGET (self));

  gtk_editable_set_text (GTK_EDITABLE (self->base_url_row), viva_settings_get_base_url (settings));
  gtk_editable_set_text (GTK_EDITABLE (self->model_row), viva_settings_get_model (settings));

  g_object_bind_property (settings, "temperature", self->temperature_adjustment, "value",
                          G_BINDING_SYNC_CREATE | G_BINDING_BIDIRECTIONAL);
  g_object_bind_property (settings, "examiner-mode", self->mode_row, "selected",
                          G_BINDING_SYNC_CREATE | G_BINDING_BIDIRECTIONAL);

  language = viva_settings_get_examiner_language (settings);
  for (guint i = 0; i < G_N_ELEMENTS (languages); i++)
    if (g_strcmp0 (language, languages[i]) == 0)
      adw_combo_row_set_selected (self->language_row, i);
  g_signal_connect_object (self->language_row, "notify::selected",
                           G_CALLBACK (language_selected_cb), self, G_CONNECT_SWAPPED);
}

VivaPreferencesWindow *
viva_preferences_window_new (void)
{
  return g_object_new (VIVA_TYPE_PREFERENCES_WINDOW, NULL);
}

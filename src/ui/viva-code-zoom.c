/* viva-code-zoom.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-code-zoom.h"
#include "viva-settings.h"

/* The size of code everywhere the student reads it — the editor, the
 * console, the pack editor's code — from the `code-font-size` setting,
 * which Ctrl+Plus, Ctrl+Minus and Ctrl+0 (app.zoom-in/out/reset) and
 * Preferences change. One style sheet on the display, so a window opened
 * later has it too. */

#define MIN_SIZE 6
#define MAX_SIZE 48

static void
update_css (GtkCssProvider *provider)
{
  int size = viva_settings_get_code_font_size (viva_settings_get_default ());
  g_autofree char *css = NULL;

  /* 0: the desktop's size, which follows its text scaling. */
  if (size > 0)
    css = g_strdup_printf (".viva-editor, .viva-console, .viva-code { font-size: %dpt; }", size);
  gtk_css_provider_load_from_data (provider, css ? css : "", -1);
}

/* The desktop's text size in points, where zooming starts from. */
static int
desktop_size (void)
{
  g_autofree char *font_name = NULL;
  g_autoptr(PangoFontDescription) font = NULL;
  int size;

  g_object_get (gtk_settings_get_default (), "gtk-font-name", &font_name, NULL);
  font = pango_font_description_from_string (font_name ? font_name : "Sans 11");
  size = pango_font_description_get_size (font) / PANGO_SCALE;

  return size > 0 ? size : 11;
}

static void
zoom_by (int steps)
{
  VivaSettings *settings = viva_settings_get_default ();
  int size = viva_settings_get_code_font_size (settings);

  if (steps == 0)
    size = 0;
  else
    size = CLAMP ((size > 0 ? size : desktop_size ()) + steps, MIN_SIZE, MAX_SIZE);

  viva_settings_set_code_font_size (settings, size);
}

static void
zoom_in_action (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  zoom_by (1);
}

static void
zoom_out_action (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       user_data)
{
  zoom_by (-1);
}

static void
zoom_reset_action (GSimpleAction *action,
                   GVariant      *parameter,
                   gpointer       user_data)
{
  zoom_by (0);
}

static const GActionEntry zoom_actions[] = {
  { "zoom-in", zoom_in_action },
  { "zoom-out", zoom_out_action },
  { "zoom-reset", zoom_reset_action },
};

/**
 * viva_code_zoom_install:
 *
 * Adds app.zoom-in, app.zoom-out and app.zoom-reset with their keys, and
 * keeps the code's font size in step with the setting. Call at startup.
 */
void
viva_code_zoom_install (GtkApplication *app)
{
  static const char *in_accels[] = { "<Control>plus", "<Control>equal", "<Control>KP_Add", NULL };
  static const char *out_accels[] = { "<Control>minus", "<Control>KP_Subtract", NULL };
  static const char *reset_accels[] = { "<Control>0", "<Control>KP_0", NULL };
  g_autoptr(GtkCssProvider) provider = gtk_css_provider_new ();

  g_return_if_fail (GTK_IS_APPLICATION (app));

  g_action_map_add_action_entries (G_ACTION_MAP (app), zoom_actions, G_N_ELEMENTS (zoom_actions), app);
  gtk_application_set_accels_for_action (app, "app.zoom-in", in_accels);
  gtk_application_set_accels_for_action (app, "app.zoom-out", out_accels);
  gtk_application_set_accels_for_action (app, "app.zoom-reset", reset_accels);

  update_css (provider);
  /* Above the app's own style.css, which sizes the console relative. */
  gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (provider),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION + 1);
  g_signal_connect_object (viva_settings_get_default (), "notify::code-font-size",
                           G_CALLBACK (update_css), provider, G_CONNECT_SWAPPED);
}

/* viva-console.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef enum
{
  VIVA_CONSOLE_STDOUT,
  VIVA_CONSOLE_STDERR,
  VIVA_CONSOLE_NOTICE,
  VIVA_CONSOLE_ERROR,
} VivaConsoleStream;

#define VIVA_TYPE_CONSOLE (viva_console_get_type())

G_DECLARE_FINAL_TYPE (VivaConsole, viva_console, VIVA, CONSOLE, GtkWidget)

void        viva_console_clear           (VivaConsole       *self);
void        viva_console_follow_end      (VivaConsole       *self);
void        viva_console_append          (VivaConsole       *self,
                                          VivaConsoleStream  stream,
                                          const char        *text);
void        viva_console_append_error_at (VivaConsole       *self,
                                          const char        *text,
                                          guint              line);
void        viva_console_append_image    (VivaConsole       *self,
                                          GBytes            *png);
void        viva_console_append_widget   (VivaConsole       *self,
                                          GtkWidget         *widget);
void        viva_console_set_busy        (VivaConsole       *self,
                                          gboolean           busy);
void        viva_console_set_status      (VivaConsole       *self,
                                          const char        *status);
const char *viva_console_get_status      (VivaConsole       *self);
char       *viva_console_dup_text        (VivaConsole       *self);

G_END_DECLS

/* viva-command-line.h: what viva-cli and viva-server say the same way
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

void     viva_command_line_print_event   (const char       *event,
                                          JsonObject       *object);
void     viva_command_line_usage_error   (const char       *program,
                                          GOptionContext   *context,
                                          const char       *format,
                                          ...) G_GNUC_PRINTF (3, 4);
gboolean viva_command_line_parse         (const char       *program,
                                          GOptionContext   *context,
                                          int              *argc,
                                          char           ***argv);

G_END_DECLS

/* viva-cli-util.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "viva-command-line.h"

G_BEGIN_DECLS

/* Exit statuses of the CLI contract in DESIGN.md. */
#define VIVA_CLI_EXIT_OK      0
#define VIVA_CLI_EXIT_FAILED  1
#define VIVA_CLI_EXIT_USAGE   2

typedef int (*VivaCliCommand) (int    argc,
                               char **argv);

int   viva_cli_parse_options (GOptionContext  *context,
                              int             *argc,
                              char          ***argv);
/* Said as viva-server says them (viva-command-line.h). */
#define viva_cli_print_event(event, object) viva_command_line_print_event (event, object)
#define viva_cli_usage_error(context, ...)  viva_command_line_usage_error ("viva-cli", context, __VA_ARGS__)
void  viva_cli_fail          (const char      *format,
                              ...) G_GNUC_PRINTF (1, 2);
gboolean viva_cli_write_text (const char      *path,
                              const char      *text,
                              GError         **error);
char *viva_cli_pad           (const char      *text,
                              guint            columns);
char *viva_cli_session_folder (const char     *session,
                               const char     *session_dir);
gboolean viva_cli_check_base_url (GOptionContext  *context,
                                  char           **base_url);
GPtrArray *viva_cli_load_answers (const char *path,
                                  GError    **error);
char *viva_cli_model_error_message (const GError  *error,
                                    const char    *base_url);

G_END_DECLS

/* viva-server-util.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "viva-command-line.h"
#include "viva-server-store.h"

G_BEGIN_DECLS

/* The exit statuses of the CLI contract in DESIGN.md, as viva-cli's. */
#define VIVA_SERVER_EXIT_OK      0
#define VIVA_SERVER_EXIT_FAILED  1
#define VIVA_SERVER_EXIT_USAGE   2

#define VIVA_SERVER_CONFIG_FILE  "server.json"
#define VIVA_SERVER_DEFAULT_PORT 8443

typedef int (*VivaServerCommand) (int    argc,
                                  char **argv);

/* What every command takes: --state-dir, --database and --json. */
typedef struct
{
  char     *state_dir;
  char     *database;
  gboolean  json;
} VivaServerCommon;

void             viva_server_common_add_entries (VivaServerCommon  *common,
                                                 GOptionContext    *context);
void             viva_server_common_clear       (VivaServerCommon  *common);
int              viva_server_parse_options      (GOptionContext    *context,
                                                 VivaServerCommon  *common,
                                                 int               *argc,
                                                 char            ***argv);
VivaServerStore *viva_server_open_store         (VivaServerCommon  *common);
JsonObject      *viva_server_load_config        (const char        *state_dir,
                                                 GError           **error);
GTlsCertificate *viva_server_load_certificate   (const char        *state_dir,
                                                 JsonObject        *config,
                                                 GError           **error);
char            *viva_server_exam_link          (JsonObject        *config,
                                                 const char        *exam_id,
                                                 const char        *fingerprint);
/* Said as viva-cli says them (viva-command-line.h). */
#define viva_server_print_event(event, object) viva_command_line_print_event (event, object)
#define viva_server_usage_error(context, ...)  viva_command_line_usage_error ("viva-server", context, __VA_ARGS__)
void             viva_server_fail               (VivaServerCommon  *common,
                                                 const char        *format,
                                                 ...) G_GNUC_PRINTF (2, 3);
gboolean         viva_server_write_text         (const char        *path,
                                                 const char        *text,
                                                 int                mode,
                                                 GError           **error);
gboolean         viva_server_parse_address      (const char        *text,
                                                 char             **host,
                                                 guint             *port);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (VivaServerCommon, viva_server_common_clear)

/* The commands, one file each. */
int viva_server_init_command    (int argc, char **argv);
int viva_server_exam_command    (int argc, char **argv);
int viva_server_codes_command   (int argc, char **argv);
int viva_server_serve_command   (int argc, char **argv);
int viva_server_status_command  (int argc, char **argv);
int viva_server_reports_command (int argc, char **argv);
int viva_server_routes_command  (int argc, char **argv);
int viva_server_worker_command  (int argc, char **argv);
int viva_server_worker_token_command (int argc, char **argv);

G_END_DECLS

/* viva-cli-class-server.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

int viva_cli_class_fetch (const char  *link,
                          const char  *teacher_token,
                          const char  *dir,
                          char       **key_pem,
                          GError     **error);
gboolean viva_cli_class_regrade_on_server (const char   *link,
                                           const char   *teacher_token,
                                           JsonObject  **regrade,
                                           GError      **error);

/* A temporary folder of fetched reports, removed when it goes out of scope. */
typedef struct
{
  char *path;
} VivaCliTempFolder;

void viva_cli_temp_folder_clear (VivaCliTempFolder *folder);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (VivaCliTempFolder, viva_cli_temp_folder_clear)

G_END_DECLS

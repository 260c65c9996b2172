/* viva-cli-remote.h: what the commands that reach an exam server share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-remote.h"

G_BEGIN_DECLS

VivaExamServerClient *viva_cli_remote_client (const char     *link,
                                              const char     *token,
                                              GError        **error);
void                  viva_cli_remote_store  (GObject        *object,
                                              GAsyncResult   *result,
                                              gpointer        user_data);
GAsyncResult         *viva_cli_remote_wait   (GAsyncResult  **slot);
void                  viva_cli_remote_fail   (const GError   *error,
                                              gboolean        json);
char                 *viva_cli_read_code     (const char     *path,
                                              GError        **error);

G_END_DECLS

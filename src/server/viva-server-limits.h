/* viva-server-limits.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <libsoup/soup.h>

G_BEGIN_DECLS

#define VIVA_SERVER_MAX_HEADER_BYTES (16 * 1024)
#define VIVA_SERVER_MAX_BODY_BYTES   (2 * 1024 * 1024)

/* Statuses libsoup 3.2 has no name for. */
#define VIVA_SERVER_STATUS_TOO_MANY_REQUESTS 429
#define VIVA_SERVER_STATUS_HEADERS_TOO_LARGE 431

typedef struct _VivaServerLimits VivaServerLimits;

VivaServerLimits *viva_server_limits_new           (void);
void              viva_server_limits_free          (VivaServerLimits *self);
void              viva_server_limits_watch         (VivaServerLimits *self,
                                                    SoupServer       *server);
gboolean          viva_server_limits_allow_request (VivaServerLimits *self,
                                                    const char       *client,
                                                    guint            *retry_after);
gboolean          viva_server_limits_allow_sign_in (VivaServerLimits *self,
                                                    const char       *client,
                                                    const char       *student,
                                                    guint            *retry_after);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (VivaServerLimits, viva_server_limits_free)

G_END_DECLS

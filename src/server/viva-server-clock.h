/* viva-server-clock.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-server-api.h"

G_BEGIN_DECLS

guint viva_server_clock_start (VivaServerApi *api);
guint viva_server_clock_tick  (VivaServerApi *api);

G_END_DECLS

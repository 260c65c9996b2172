/* viva-id.h: the one rule for ids that become file and folder names
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define VIVA_ID_MAX_LENGTH 128

gboolean viva_id_is_valid (const char *id);

G_END_DECLS

/* viva-duration.h: how long something took, as the window shows it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

char *viva_duration_format (double ms);

G_END_DECLS

/* viva-core.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

void        viva_core_init       (void);
const char *viva_core_locale_dir (void);

G_END_DECLS

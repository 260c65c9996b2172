/* viva-startup-timer.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

void viva_startup_timer_begin (void);
void viva_startup_timer_mark  (const char *what);

G_END_DECLS

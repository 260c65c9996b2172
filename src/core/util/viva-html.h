/* viva-html.h: text made safe to put in an HTML page Viva writes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

void viva_html_append_escaped (GString    *html,
                               const char *text,
                               gssize      length);

G_END_DECLS

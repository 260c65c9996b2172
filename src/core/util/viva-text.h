/* viva-text.h: small rules about text that several parts share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean  viva_text_is_blank (const char *text);
char     *viva_text_prefix   (const char *text,
                              gsize       max_chars);

G_END_DECLS

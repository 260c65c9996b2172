/* viva-eval-scan.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The shortest run of a secret, in characters after whitespace is
 * normalised, that counts as a leak. */
#define VIVA_EVAL_LEAK_MIN_CHARS 60

char     *viva_eval_normalize_text (const char         *text);
gboolean  viva_eval_text_leaks     (const char         *passage,
                                    const char * const *secrets,
                                    const char * const *public_texts);
gboolean  viva_eval_text_has_marker (const char        *passage,
                                    const char         *marker);

G_END_DECLS

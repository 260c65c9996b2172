/* viva-exam-language.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

char       *viva_exam_language_choose (const char *preference,
                                       const char *pack_language);
const char *viva_exam_language_name   (const char *language);

G_END_DECLS

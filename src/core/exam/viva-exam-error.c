/* viva-exam-error.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-exam-error.h"

G_DEFINE_QUARK (viva-exam-error-quark, viva_exam_error)

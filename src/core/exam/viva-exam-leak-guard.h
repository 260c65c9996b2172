/* viva-exam-leak-guard.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "viva-problem.h"

G_BEGIN_DECLS

/* Runs of at least this many visible characters (normalised: whitespace
 * and invisible characters dropped, case folded; about 40 of code as
 * written) shared with the reference or a hidden test, and with nothing
 * the student may see anyway, are withheld. Below the 60 that `viva-cli
 * eval` counts as a leak, so what the guard lets through the card would
 * not call one either. */
#define VIVA_EXAM_LEAK_MIN_CHARS 32

typedef struct _VivaExamLeakGuard VivaExamLeakGuard;

typedef struct
{
  gsize start;     /* byte offsets into the text checked */
  gsize end;
} VivaExamLeakRange;

VivaExamLeakGuard *_viva_exam_leak_guard_new      (VivaProblem        *problem);
void               _viva_exam_leak_guard_free     (VivaExamLeakGuard  *guard);
GArray            *_viva_exam_leak_guard_find     (VivaExamLeakGuard  *guard,
                                                   const char         *text,
                                                   gsize               length,
                                                   const char         *student_code);
char              *_viva_exam_leak_guard_apply    (const char         *text,
                                                   gsize               length,
                                                   GArray             *ranges);
const char        *_viva_exam_leak_guard_note     (void);

/* For VivaExamLeakStream: one normalised byte at a time. */
gboolean           _viva_exam_leak_guard_has_secrets (VivaExamLeakGuard *guard);
guint              _viva_exam_leak_guard_step     (VivaExamLeakGuard  *guard,
                                                   guint              *state,
                                                   guint               match,
                                                   guint8              byte);
void               _viva_exam_leak_guard_set_student_code (VivaExamLeakGuard *guard,
                                                   const char         *student_code);
gboolean           _viva_exam_leak_guard_is_open  (VivaExamLeakGuard  *guard,
                                                   const char         *window);
gsize              _viva_exam_leak_normalise_char (const char         *text,
                                                   gsize               length,
                                                   gboolean            at_end,
                                                   GString            *out);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (VivaExamLeakGuard, _viva_exam_leak_guard_free)

G_END_DECLS

/* viva-exam-leak-stream.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-exam-leak-guard.h"

G_BEGIN_DECLS

typedef struct _VivaExamLeakStream VivaExamLeakStream;

VivaExamLeakStream *_viva_exam_leak_stream_new        (VivaExamLeakGuard  *guard);
void                _viva_exam_leak_stream_free       (VivaExamLeakStream *stream);
void                _viva_exam_leak_stream_reset      (VivaExamLeakStream *stream);
void                _viva_exam_leak_stream_push       (VivaExamLeakStream *stream,
                                                       const char         *text,
                                                       gsize               length,
                                                       const char         *student_code);
void                _viva_exam_leak_stream_close      (VivaExamLeakStream *stream);
const GString      *_viva_exam_leak_stream_get_text   (VivaExamLeakStream *stream);
GArray             *_viva_exam_leak_stream_get_ranges (VivaExamLeakStream *stream);
gsize               _viva_exam_leak_stream_get_settled (VivaExamLeakStream *stream);
char               *_viva_exam_leak_stream_take_shown (VivaExamLeakStream *stream,
                                                       gsize               limit);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (VivaExamLeakStream, _viva_exam_leak_stream_free)

G_END_DECLS

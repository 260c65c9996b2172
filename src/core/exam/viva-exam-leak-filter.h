/* viva-exam-leak-filter.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-chat-model.h"
#include "viva-exam-leak-guard.h"
#include "viva-exam-leak-stream.h"
#include "viva-exam-protocol.h"

G_BEGIN_DECLS

/* The leak guard over one defense: the guard (made at first use), a
 * stream each for a reply's content and reasoning, the passages withheld. */
typedef struct
{
  VivaProblem        *problem;     /* borrowed from the examiner */
  VivaExamLeakGuard  *guard;
  VivaExamLeakStream *streams[2];  /* content, reasoning */
  guint               n_withheld;
  GPtrArray          *withheld;    /* JsonObject, not yet traced */
} VivaExamLeakFilter;

void             _viva_exam_leak_filter_init          (VivaExamLeakFilter  *self,
                                                       VivaProblem         *problem);
void             _viva_exam_leak_filter_clear         (VivaExamLeakFilter  *self);
char            *_viva_exam_leak_filter_delta         (VivaExamLeakFilter  *self,
                                                       guint                which,
                                                       const char          *text,
                                                       const char          *code);
VivaChatMessage *_viva_exam_leak_filter_reply         (VivaExamLeakFilter  *self,
                                                       VivaChatReply       *reply,
                                                       JsonObject          *trace_json,
                                                       VivaExamProtocol    *protocol,
                                                       const char          *code,
                                                       char               **rest);
GPtrArray       *_viva_exam_leak_filter_take_withheld (VivaExamLeakFilter  *self);

G_END_DECLS

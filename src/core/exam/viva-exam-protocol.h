/* viva-exam-protocol.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-exam-limits.h"
#include "viva-exam-private.h"

G_BEGIN_DECLS

/* One tool that ran, as the engine recorded it. */
typedef struct
{
  char          *id;
  char          *name;
  char          *arguments;
  JsonObject    *result;
  gboolean       ok;
  double         duration_ms;
  VivaExamProbe *probe;
} VivaExamStep;

void _viva_exam_step_free (VivaExamStep *step);

/* The protocol of one defense, a record the examiner keeps and its
 * checkpoint saves: the tools, the steps that ran, the signatures of the
 * last calls, the counts the guardrails read, the limits. */
typedef struct
{
  GPtrArray      *tools;
  GPtrArray      *steps;
  GPtrArray      *recent_calls;
  guint           iterations;
  guint           replies_without_tool;
  guint           step_counter;
  guint           n_answers;
  VivaExamLimits  limits;
} VivaExamProtocol;

void                     _viva_exam_protocol_init              (VivaExamProtocol *self);
void                     _viva_exam_protocol_clear             (VivaExamProtocol *self);
VivaExamTool            *_viva_exam_protocol_find_tool         (VivaExamProtocol *self,
                                                                const char       *name);
const VivaExamToolFacts *_viva_exam_protocol_tool_facts        (VivaExamProtocol *self,
                                                                const char       *name);
GPtrArray               *_viva_exam_protocol_collect_probes    (VivaExamProtocol *self);
GPtrArray               *_viva_exam_protocol_collect_step_names (VivaExamProtocol *self);

/* The guardrails: pure checks, no side effects. */
void                     _viva_exam_protocol_cap_output        (JsonObject       *object,
                                                                guint             limit);
char                    *_viva_exam_protocol_call_signature    (const char       *name,
                                                                JsonObject       *arguments);
char                    *_viva_exam_protocol_check_repeats     (VivaExamProtocol *self,
                                                                const char       *name,
                                                                const char       *signature);
char                    *_viva_exam_protocol_check_protocol    (VivaExamProtocol *self);
char                    *_viva_exam_protocol_check_evidence    (VivaExamProtocol *self,
                                                                JsonObject       *arguments);

G_END_DECLS

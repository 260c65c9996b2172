/* viva-exam-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-exam-tool.h"
#include "viva-exam-verdict.h"
#include "viva-run-result.h"

G_BEGIN_DECLS

/* How every message the engine (not the student) adds to the conversation
 * starts; reports show these as notes. */
#define VIVA_EXAM_SYSTEM_PREFIX "From the exam system"

/* Registers the default tools' types, so a lookup by name finds them. */
void             _viva_exam_tools_ensure_types (void);
JsonObject      *_viva_run_result_to_json      (VivaRunResult    *result);

/* The verdict is built by the examiner only. */
VivaExamVerdict *_viva_exam_verdict_new        (VivaExamStatus    status,
                                                gboolean          passed,
                                                int               score,
                                                const char       *comment,
                                                const char       *reason,
                                                GPtrArray        *steps,
                                                GPtrArray        *evidence,
                                                GPtrArray        *probes);

void             _viva_exam_verdict_set_grade   (VivaExamVerdict *verdict,
                                                 VivaGradeReport *grade,
                                                 const char      *error);
void             _viva_exam_verdict_set_items   (VivaExamVerdict *verdict,
                                                 GPtrArray       *items);
void             _viva_exam_verdict_set_n_withheld (VivaExamVerdict *verdict,
                                                    guint            n_withheld);
char            *_viva_exam_verdict_describe_for_model (VivaExamVerdict *verdict);

char            *_viva_exam_prompt_build       (const char       *template_text,
                                                VivaProblem      *problem,
                                                const char       *language,
                                                gboolean          withhold_hidden);
char            *_viva_exam_code_message       (const char       *code,
                                                gboolean          edited);
char            *_viva_exam_number_lines       (const char       *code);

G_END_DECLS

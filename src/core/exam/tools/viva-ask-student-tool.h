/* viva-ask-student-tool.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-exam-tool.h"

G_BEGIN_DECLS

#define VIVA_TYPE_ASK_STUDENT_TOOL (viva_ask_student_tool_get_type ())

G_DECLARE_FINAL_TYPE (VivaAskStudentTool, viva_ask_student_tool, VIVA, ASK_STUDENT_TOOL, VivaExamTool)

VivaExamTool *viva_ask_student_tool_new (void);

G_END_DECLS

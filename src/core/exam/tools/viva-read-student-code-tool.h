/* viva-read-student-code-tool.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-exam-tool.h"

G_BEGIN_DECLS

#define VIVA_TYPE_READ_STUDENT_CODE_TOOL (viva_read_student_code_tool_get_type ())

G_DECLARE_FINAL_TYPE (VivaReadStudentCodeTool, viva_read_student_code_tool, VIVA, READ_STUDENT_CODE_TOOL, VivaExamTool)

VivaExamTool *viva_read_student_code_tool_new (void);

G_END_DECLS

/* viva-exam-tools.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-ask-student-tool.h"
#include "viva-finish-defense-tool.h"
#include "viva-inject-test-case-tool.h"
#include "viva-message-tool.h"
#include "viva-read-student-code-tool.h"
#include "viva-run-python-tool.h"

/**
 * viva_exam_tools_new_default:
 *
 * Returns: (transfer full) (element-type VivaExamTool): the examiner's six
 *   tools, in the order they are offered to the model
 */
GPtrArray *
viva_exam_tools_new_default (void)
{
  GPtrArray *tools = g_ptr_array_new_with_free_func (g_object_unref);

  g_ptr_array_add (tools, viva_read_student_code_tool_new ());
  g_ptr_array_add (tools, viva_run_python_tool_new ());
  g_ptr_array_add (tools, viva_inject_test_case_tool_new ());
  g_ptr_array_add (tools, viva_ask_student_tool_new ());
  g_ptr_array_add (tools, viva_message_tool_new ());
  g_ptr_array_add (tools, viva_finish_defense_tool_new ());

  return tools;
}

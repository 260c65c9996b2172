/* viva-exam-tools.c
 *
 * The examiner's default tools, in the order they are offered to the
 * model. A tool is one file under tools/ (see viva-exam-tool.h); adding one
 * is its file plus its two lines here.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-exam-private.h"

/* Each defined in its own file with VIVA_DEFINE_EXAM_TOOL(). */
GType viva_read_student_code_tool_get_type (void);
GType viva_run_python_tool_get_type (void);
GType viva_inject_test_case_tool_get_type (void);
GType viva_ask_student_tool_get_type (void);
GType viva_message_tool_get_type (void);
GType viva_finish_defense_tool_get_type (void);

static GType (* const default_tools[]) (void) = {
  viva_read_student_code_tool_get_type,
  viva_run_python_tool_get_type,
  viva_inject_test_case_tool_get_type,
  viva_ask_student_tool_get_type,
  viva_message_tool_get_type,
  viva_finish_defense_tool_get_type,
};

void
_viva_exam_tools_ensure_types (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (default_tools); i++)
    g_type_ensure (default_tools[i] ());
}

/**
 * viva_exam_tools_new_default:
 *
 * Returns: (transfer full) (element-type VivaExamTool): the examiner's
 *   tools, in the order they are offered to the model
 */
GPtrArray *
viva_exam_tools_new_default (void)
{
  GPtrArray *tools = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < G_N_ELEMENTS (default_tools); i++)
    g_ptr_array_add (tools, g_object_new (default_tools[i] (), NULL));

  return tools;
}

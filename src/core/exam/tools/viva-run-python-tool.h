/* viva-run-python-tool.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-exam-tool.h"

G_BEGIN_DECLS

#define VIVA_TYPE_RUN_PYTHON_TOOL (viva_run_python_tool_get_type ())

G_DECLARE_FINAL_TYPE (VivaRunPythonTool, viva_run_python_tool, VIVA, RUN_PYTHON_TOOL, VivaExamTool)

VivaExamTool *viva_run_python_tool_new (void);

G_END_DECLS

/* viva-inject-test-case-tool.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-exam-tool.h"

G_BEGIN_DECLS

#define VIVA_TYPE_INJECT_TEST_CASE_TOOL (viva_inject_test_case_tool_get_type ())

G_DECLARE_FINAL_TYPE (VivaInjectTestCaseTool, viva_inject_test_case_tool, VIVA, INJECT_TEST_CASE_TOOL, VivaExamTool)

VivaExamTool *viva_inject_test_case_tool_new (void);

G_END_DECLS

/* viva-finish-defense-tool.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-exam-tool.h"

G_BEGIN_DECLS

#define VIVA_TYPE_FINISH_DEFENSE_TOOL (viva_finish_defense_tool_get_type ())

G_DECLARE_FINAL_TYPE (VivaFinishDefenseTool, viva_finish_defense_tool, VIVA, FINISH_DEFENSE_TOOL, VivaExamTool)

VivaExamTool *viva_finish_defense_tool_new (void);

G_END_DECLS

/* viva-message-tool.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-exam-tool.h"

G_BEGIN_DECLS

#define VIVA_TYPE_MESSAGE_TOOL (viva_message_tool_get_type ())

G_DECLARE_FINAL_TYPE (VivaMessageTool, viva_message_tool, VIVA, MESSAGE_TOOL, VivaExamTool)

VivaExamTool *viva_message_tool_new (void);

G_END_DECLS

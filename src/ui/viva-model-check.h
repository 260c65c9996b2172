/* viva-model-check.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-chat-model.h"

G_BEGIN_DECLS

/**
 * VivaModelCheckResult:
 * @VIVA_MODEL_CHECK_CAN_EXAMINE: it streams, calls a tool when asked and
 *   returns valid JSON
 * @VIVA_MODEL_CHECK_NO_STREAM: it answered, but all at once
 * @VIVA_MODEL_CHECK_NO_TOOLS: it did not call the tool, or not correctly
 * @VIVA_MODEL_CHECK_BAD_JSON: its tool arguments were not valid JSON
 */
typedef enum
{
  VIVA_MODEL_CHECK_CAN_EXAMINE,
  VIVA_MODEL_CHECK_NO_STREAM,
  VIVA_MODEL_CHECK_NO_TOOLS,
  VIVA_MODEL_CHECK_BAD_JSON,
} VivaModelCheckResult;

void                 viva_model_check_async    (VivaChatModel        *model,
                                                GCancellable         *cancellable,
                                                GAsyncReadyCallback   callback,
                                                gpointer              user_data);
VivaModelCheckResult viva_model_check_finish   (VivaChatModel        *model,
                                                GAsyncResult         *result,
                                                GError              **error);
const char          *viva_model_check_describe (VivaModelCheckResult  result);

G_END_DECLS

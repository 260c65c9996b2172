/* viva-exam-model.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "viva-chat-model.h"
#include "viva-openai-model.h"
#include "viva-problem.h"
#include "viva-settings.h"

G_BEGIN_DECLS

VivaOpenAIModel *viva_exam_model_new_for_settings (VivaSettings *settings);
VivaOpenAIModel *viva_exam_model_new_for_endpoint (VivaSettings *settings,
                                                   const char   *base_url,
                                                   const char   *model_name);

void           viva_exam_choose_model_async  (VivaSettings         *settings,
                                              VivaProblem          *problem,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
VivaChatModel *viva_exam_choose_model_finish (GAsyncResult         *result,
                                              char                **notice,
                                              GError              **error);

G_END_DECLS

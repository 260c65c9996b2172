/* viva-exam-model.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "viva-openai-model.h"
#include "viva-settings.h"

G_BEGIN_DECLS

VivaOpenAIModel *viva_exam_model_new_for_settings (VivaSettings *settings);
VivaOpenAIModel *viva_exam_model_new_for_endpoint (VivaSettings *settings,
                                                   const char   *base_url,
                                                   const char   *model_name);

G_END_DECLS

/* viva-explainer.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "viva-chat-model.h"
#include "viva-problem.h"
#include "viva-run-result.h"

G_BEGIN_DECLS

/**
 * VivaExplanationSource:
 * @VIVA_EXPLANATION_MODEL: the model explained it
 * @VIVA_EXPLANATION_TABLE: Viva's offline table of common errors, since no
 *   model was configured
 * @VIVA_EXPLANATION_TABLE_FALLBACK: the offline table, since the model
 *   could not be reached or failed
 */
typedef enum
{
  VIVA_EXPLANATION_MODEL,
  VIVA_EXPLANATION_TABLE,
  VIVA_EXPLANATION_TABLE_FALLBACK,
} VivaExplanationSource;

#define VIVA_EXPLAINER_MAX_CODE      (64 * 1024)
#define VIVA_EXPLAINER_MAX_TRACEBACK (16 * 1024)
#define VIVA_EXPLAINER_MAX_TOKENS    700

#define VIVA_TYPE_EXPLAINER (viva_explainer_get_type ())

G_DECLARE_FINAL_TYPE (VivaExplainer, viva_explainer, VIVA, EXPLAINER, GObject)

VivaExplainer *viva_explainer_new                     (VivaChatModel         *model,
                                                       VivaProblem           *problem,
                                                       const char            *language);
void           viva_explainer_explain_error_async     (VivaExplainer         *self,
                                                       const char            *code,
                                                       VivaRunResult         *result,
                                                       GCancellable          *cancellable,
                                                       GAsyncReadyCallback    callback,
                                                       gpointer               user_data);
void           viva_explainer_explain_selection_async (VivaExplainer         *self,
                                                       const char            *code,
                                                       guint                  first_line,
                                                       guint                  last_line,
                                                       GCancellable          *cancellable,
                                                       GAsyncReadyCallback    callback,
                                                       gpointer               user_data);
char          *viva_explainer_explain_finish          (VivaExplainer         *self,
                                                       GAsyncResult          *result,
                                                       VivaExplanationSource *source,
                                                       GError               **error);

G_END_DECLS

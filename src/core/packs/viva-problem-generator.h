/* viva-problem-generator.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "viva-chat-model.h"
#include "viva-problem-draft.h"
#include "viva-runner.h"

G_BEGIN_DECLS

/**
 * VivaGeneratorStage:
 * @VIVA_GENERATOR_STAGE_DRAFTING: the model is writing attempt @attempt
 * @VIVA_GENERATOR_STAGE_CHECKING: the attempt's reply is being checked
 * @VIVA_GENERATOR_STAGE_RETRYING: it failed a check; the errors go back to
 *   the model for the next attempt
 * @VIVA_GENERATOR_STAGE_PASSED: the attempt passed every check
 * @VIVA_GENERATOR_STAGE_FAILED: the last attempt failed; no retry is left
 */
typedef enum
{
  VIVA_GENERATOR_STAGE_DRAFTING,
  VIVA_GENERATOR_STAGE_CHECKING,
  VIVA_GENERATOR_STAGE_RETRYING,
  VIVA_GENERATOR_STAGE_PASSED,
  VIVA_GENERATOR_STAGE_FAILED,
} VivaGeneratorStage;

#define VIVA_GENERATOR_DEFAULT_MAX_RETRIES 3

const char *viva_generator_stage_to_string (VivaGeneratorStage stage);

#define VIVA_TYPE_PROBLEM_GENERATOR (viva_problem_generator_get_type())

G_DECLARE_FINAL_TYPE (VivaProblemGenerator, viva_problem_generator, VIVA, PROBLEM_GENERATOR, GObject)

VivaProblemGenerator *viva_problem_generator_new             (VivaChatModel         *model,
                                                             VivaRunner            *runner);
VivaChatModel        *viva_problem_generator_get_model       (VivaProblemGenerator  *self);
VivaRunner           *viva_problem_generator_get_runner      (VivaProblemGenerator  *self);
guint                 viva_problem_generator_get_max_retries (VivaProblemGenerator  *self);
void                  viva_problem_generator_set_max_retries (VivaProblemGenerator  *self,
                                                             guint                  max_retries);
gboolean              viva_problem_generator_get_busy        (VivaProblemGenerator  *self);
char                 *viva_problem_generator_build_prompt    (VivaProblemDraft      *draft);
GPtrArray            *viva_problem_generator_check_hint      (VivaProblem           *problem);
void                  viva_problem_generator_generate_async  (VivaProblemGenerator  *self,
                                                             VivaProblemDraft      *draft,
                                                             GCancellable          *cancellable,
                                                             GAsyncReadyCallback    callback,
                                                             gpointer               user_data);
VivaProblemDraft     *viva_problem_generator_generate_finish (VivaProblemGenerator  *self,
                                                             GAsyncResult          *result,
                                                             GError               **error);

G_END_DECLS

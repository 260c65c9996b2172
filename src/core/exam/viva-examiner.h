/* viva-examiner.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "viva-chat-model.h"
#include "viva-code-source.h"
#include "viva-exam-error.h"
#include "viva-exam-limits.h"
#include "viva-exam-runs.h"
#include "viva-exam-session.h"
#include "viva-exam-verdict.h"
#include "viva-problem.h"
#include "viva-runner.h"

G_BEGIN_DECLS

/**
 * VivaExaminerState:
 * @VIVA_EXAMINER_STATE_IDLE: not started
 * @VIVA_EXAMINER_STATE_THINKING: a model reply is streaming
 * @VIVA_EXAMINER_STATE_RUNNING_TOOL: a tool runs
 * @VIVA_EXAMINER_STATE_WAITING_FOR_STUDENT: a question waits for viva_examiner_answer()
 * @VIVA_EXAMINER_STATE_FINISHED: the defense ended (a verdict, or incomplete);
 *   follow-up questions are possible
 * @VIVA_EXAMINER_STATE_FAILED: the model failed; see #VivaExaminer:error-message
 * @VIVA_EXAMINER_STATE_CANCELLED: the defense was cancelled
 */
typedef enum
{
  VIVA_EXAMINER_STATE_IDLE,
  VIVA_EXAMINER_STATE_THINKING,
  VIVA_EXAMINER_STATE_RUNNING_TOOL,
  VIVA_EXAMINER_STATE_WAITING_FOR_STUDENT,
  VIVA_EXAMINER_STATE_FINISHED,
  VIVA_EXAMINER_STATE_FAILED,
  VIVA_EXAMINER_STATE_CANCELLED,
} VivaExaminerState;

#define VIVA_TYPE_EXAMINER_STATE (viva_examiner_state_get_type ())
GType       viva_examiner_state_get_type  (void) G_GNUC_CONST;
const char *viva_examiner_state_to_string (VivaExaminerState state);

#define VIVA_TYPE_EXAMINER (viva_examiner_get_type ())

G_DECLARE_FINAL_TYPE (VivaExaminer, viva_examiner, VIVA, EXAMINER, GObject)

VivaExaminer         *viva_examiner_new                  (VivaChatModel        *model,
                                                          VivaProblem          *problem,
                                                          VivaCodeSource       *code_source);
VivaChatModel        *viva_examiner_get_model            (VivaExaminer         *self);
VivaProblem          *viva_examiner_get_problem          (VivaExaminer         *self);
VivaCodeSource       *viva_examiner_get_code_source      (VivaExaminer         *self);
VivaRunner           *viva_examiner_get_runner           (VivaExaminer         *self);
void                  viva_examiner_set_runner           (VivaExaminer         *self,
                                                          VivaRunner           *runner);
void                  viva_examiner_set_reference_runner (VivaExaminer         *self,
                                                          VivaRunner           *runner);
void                  viva_examiner_set_runs             (VivaExaminer         *self,
                                                          VivaExamRuns         *runs);
VivaExamSession      *viva_examiner_get_session          (VivaExaminer         *self);
void                  viva_examiner_set_session          (VivaExaminer         *self,
                                                          VivaExamSession      *session);
const char           *viva_examiner_get_pack_id          (VivaExaminer         *self);
void                  viva_examiner_set_pack_id          (VivaExaminer         *self,
                                                          const char           *pack_id);
guint                 viva_examiner_get_n_withheld       (VivaExaminer         *self);
gboolean              viva_examiner_get_busy             (VivaExaminer         *self);
gint64                viva_examiner_get_busy_since       (VivaExaminer         *self);
void                  viva_examiner_set_pack_ref         (VivaExaminer         *self,
                                                          JsonObject           *pack_ref);
const char           *viva_examiner_get_language         (VivaExaminer         *self);
void                  viva_examiner_set_language         (VivaExaminer         *self,
                                                          const char           *language);
const VivaExamLimits *viva_examiner_get_limits           (VivaExaminer         *self);
void                  viva_examiner_set_limits           (VivaExaminer         *self,
                                                          const VivaExamLimits *limits);
VivaExaminerState     viva_examiner_get_state            (VivaExaminer         *self);
const char           *viva_examiner_get_pending_question (VivaExaminer         *self);
JsonObject           *viva_examiner_dup_pending_item     (VivaExaminer         *self);
void                  viva_examiner_set_scorer           (VivaExaminer         *self,
                                                          VivaChatModel        *scorer);
const char           *viva_examiner_get_error_message    (VivaExaminer         *self);
VivaExamVerdict      *viva_examiner_get_verdict          (VivaExaminer         *self);
GPtrArray            *viva_examiner_get_messages         (VivaExaminer         *self);
guint                 viva_examiner_get_n_steps          (VivaExaminer         *self);
guint                 viva_examiner_get_n_answers        (VivaExaminer         *self);

void                  viva_examiner_run_async            (VivaExaminer         *self,
                                                          GCancellable         *cancellable,
                                                          GAsyncReadyCallback   callback,
                                                          gpointer              user_data);
VivaExamVerdict      *viva_examiner_run_finish           (VivaExaminer         *self,
                                                          GAsyncResult         *result,
                                                          GError              **error);
void                  viva_examiner_resume_async         (VivaExaminer         *self,
                                                          VivaExamSession      *session,
                                                          GCancellable         *cancellable,
                                                          GAsyncReadyCallback   callback,
                                                          gpointer              user_data);
VivaExamVerdict      *viva_examiner_resume_finish        (VivaExaminer         *self,
                                                          GAsyncResult         *result,
                                                          GError              **error);
gboolean              viva_examiner_answer               (VivaExaminer         *self,
                                                          const char           *answer,
                                                          GError              **error);
void                  viva_examiner_ask_async            (VivaExaminer         *self,
                                                          const char           *question,
                                                          GCancellable         *cancellable,
                                                          GAsyncReadyCallback   callback,
                                                          gpointer              user_data);
char                 *viva_examiner_ask_finish           (VivaExaminer         *self,
                                                          GAsyncResult         *result,
                                                          GError              **error);

G_END_DECLS

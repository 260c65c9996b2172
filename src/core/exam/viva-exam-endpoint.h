/* viva-exam-endpoint.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "viva-chat-model.h"
#include "viva-exam-session.h"
#include "viva-openai-model.h"
#include "viva-problem.h"
#include "viva-settings.h"

G_BEGIN_DECLS

/**
 * VivaExamReach:
 * @VIVA_EXAM_REACH_UNKNOWN: not checked (or the settings changed since)
 * @VIVA_EXAM_REACH_CHECKING: a check runs
 * @VIVA_EXAM_REACH_YES: the server answered and has the model
 * @VIVA_EXAM_REACH_NO: it did not answer, or lacks the model; see
 *   #VivaExamEndpoint:error-message
 */
typedef enum
{
  VIVA_EXAM_REACH_UNKNOWN,
  VIVA_EXAM_REACH_CHECKING,
  VIVA_EXAM_REACH_YES,
  VIVA_EXAM_REACH_NO,
} VivaExamReach;

/**
 * VivaExamWarmth:
 * @VIVA_EXAM_WARMTH_COLD: nothing loaded that Viva knows of
 * @VIVA_EXAM_WARMTH_LOADING: the server is loading the model (Ollama)
 * @VIVA_EXAM_WARMTH_READY: loaded, or a server that needs no loading
 */
typedef enum
{
  VIVA_EXAM_WARMTH_COLD,
  VIVA_EXAM_WARMTH_LOADING,
  VIVA_EXAM_WARMTH_READY,
} VivaExamWarmth;

#define VIVA_TYPE_EXAM_REACH  (viva_exam_reach_get_type ())
#define VIVA_TYPE_EXAM_WARMTH (viva_exam_warmth_get_type ())
GType viva_exam_reach_get_type  (void) G_GNUC_CONST;
GType viva_exam_warmth_get_type (void) G_GNUC_CONST;

#define VIVA_TYPE_EXAM_ENDPOINT (viva_exam_endpoint_get_type ())

G_DECLARE_FINAL_TYPE (VivaExamEndpoint, viva_exam_endpoint, VIVA, EXAM_ENDPOINT, GObject)

VivaExamEndpoint *viva_exam_endpoint_new              (VivaSettings         *settings);
VivaExamEndpoint *viva_exam_endpoint_new_offline      (VivaSettings         *settings);
VivaExamEndpoint *viva_exam_endpoint_new_for_endpoint (VivaSettings         *settings,
                                                       const char           *base_url,
                                                       const char           *model_name);
VivaExamEndpoint *viva_exam_endpoint_new_for_session  (VivaSettings         *settings,
                                                       VivaExamSession      *session,
                                                       const char           *model_name);
VivaSettings     *viva_exam_endpoint_get_settings     (VivaExamEndpoint     *self);
VivaExaminerMode  viva_exam_endpoint_get_mode         (VivaExamEndpoint     *self);
gboolean          viva_exam_endpoint_get_explicit     (VivaExamEndpoint     *self);
const char       *viva_exam_endpoint_get_base_url     (VivaExamEndpoint     *self);
VivaExamReach     viva_exam_endpoint_get_reachability (VivaExamEndpoint     *self);
VivaExamWarmth    viva_exam_endpoint_get_warmth       (VivaExamEndpoint     *self);
const char       *viva_exam_endpoint_get_error_message (VivaExamEndpoint    *self);
VivaOpenAIModel  *viva_exam_endpoint_new_client       (VivaExamEndpoint     *self);
char             *viva_exam_endpoint_dup_notice       (VivaExamEndpoint     *self);

void              viva_exam_endpoint_warm             (VivaExamEndpoint     *self);

VivaChatModel    *viva_exam_endpoint_choose_now       (VivaExamEndpoint     *self,
                                                       VivaProblem          *problem,
                                                       char                **notice);
void              viva_exam_endpoint_choose_async     (VivaExamEndpoint     *self,
                                                       VivaProblem          *problem,
                                                       GCancellable         *cancellable,
                                                       GAsyncReadyCallback   callback,
                                                       gpointer              user_data);
VivaChatModel    *viva_exam_endpoint_choose_finish    (VivaExamEndpoint     *self,
                                                       GAsyncResult         *result,
                                                       char                **notice,
                                                       GError              **error);

G_END_DECLS

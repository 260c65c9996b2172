/* viva-defense.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "viva-code-source.h"
#include "viva-exam-endpoint.h"
#include "viva-exam-session.h"
#include "viva-examiner.h"
#include "viva-pack.h"
#include "viva-runner.h"

G_BEGIN_DECLS

#define VIVA_TYPE_DEFENSE (viva_defense_get_type ())

G_DECLARE_FINAL_TYPE (VivaDefense, viva_defense, VIVA, DEFENSE, GObject)

/**
 * VivaDefense:
 *
 * One defense, assembled once for every front (the app, viva-cli, the
 * lab, the eval, the exam server): the examiner's model chosen by the
 * #VivaExamEndpoint's one rule, the #VivaExaminer over a #VivaCodeSource
 * with its runner, pack reference, language and limits, and the session
 * with the student's stamp, the timeline ending in the `submit` event and
 * the hint trace. A resumed defense reads the checkpoint's model in here.
 *
 * Configure it, then viva_defense_prepare_async() (the choice; the
 * #VivaDefense:examiner and #VivaDefense:session exist once it returns, so
 * a front connects to the examiner's signals there) and
 * viva_defense_run_async() (prepares first if that was not done). The
 * session records the model the server answered with
 * (#VivaOpenAIModel:served-model). No GTK; main thread.
 */

VivaDefense      *viva_defense_new                 (VivaExamEndpoint     *endpoint,
                                                    VivaProblem          *problem,
                                                    VivaCodeSource       *code_source);
VivaDefense      *viva_defense_new_for_session     (VivaExamEndpoint     *endpoint,
                                                    VivaExamSession      *session,
                                                    VivaProblem          *problem,
                                                    VivaCodeSource       *code_source,
                                                    GError              **error);

void              viva_defense_set_runner          (VivaDefense          *self,
                                                    VivaRunner           *runner);
void              viva_defense_set_reference_runner (VivaDefense         *self,
                                                    VivaRunner           *runner);
void              viva_defense_set_pack            (VivaDefense          *self,
                                                    VivaPack             *pack);
void              viva_defense_set_pack_ref        (VivaDefense          *self,
                                                    const char           *pack_id,
                                                    JsonObject           *pack_ref,
                                                    const char           *pack_language);
void              viva_defense_set_language        (VivaDefense          *self,
                                                    const char           *language);
void              viva_defense_set_limits          (VivaDefense          *self,
                                                    const VivaExamLimits *limits);
void              viva_defense_set_sessions_dir    (VivaDefense          *self,
                                                    const char           *sessions_dir);
void              viva_defense_set_session         (VivaDefense          *self,
                                                    VivaExamSession      *session);
void              viva_defense_set_student         (VivaDefense          *self,
                                                    const char           *name,
                                                    const char           *id);
void              viva_defense_set_timeline        (VivaDefense          *self,
                                                    JsonArray            *events);
void              viva_defense_set_hint_used       (VivaDefense          *self,
                                                    gboolean              hint_used);
void              viva_defense_set_recorded        (VivaDefense          *self,
                                                    gboolean              recorded);
void              viva_defense_set_scorer          (VivaDefense          *self,
                                                    const char           *base_url,
                                                    const char           *model_name);

VivaExamEndpoint *viva_defense_get_endpoint        (VivaDefense          *self);
VivaProblem      *viva_defense_get_problem         (VivaDefense          *self);
VivaCodeSource   *viva_defense_get_code_source     (VivaDefense          *self);
gboolean          viva_defense_get_resumed         (VivaDefense          *self);
VivaExaminer     *viva_defense_get_examiner        (VivaDefense          *self);
VivaExamSession  *viva_defense_get_session         (VivaDefense          *self);
VivaChatModel    *viva_defense_get_model           (VivaDefense          *self);
gboolean          viva_defense_get_offline         (VivaDefense          *self);
const char       *viva_defense_get_notice          (VivaDefense          *self);
const char       *viva_defense_get_served_model    (VivaDefense          *self);
VivaExamReach     viva_defense_get_reachability    (VivaDefense          *self);
VivaExamWarmth    viva_defense_get_warmth          (VivaDefense          *self);

VivaExaminer     *viva_defense_assemble            (VivaDefense          *self,
                                                    VivaChatModel        *model);
gboolean          viva_defense_prepare_now         (VivaDefense          *self);
void              viva_defense_prepare_async       (VivaDefense          *self,
                                                    GCancellable         *cancellable,
                                                    GAsyncReadyCallback   callback,
                                                    gpointer              user_data);
gboolean          viva_defense_prepare_finish      (VivaDefense          *self,
                                                    GAsyncResult         *result,
                                                    GError              **error);
void              viva_defense_run_async           (VivaDefense          *self,
                                                    GCancellable         *cancellable,
                                                    GAsyncReadyCallback   callback,
                                                    gpointer              user_data);
VivaExamVerdict  *viva_defense_run_finish          (VivaDefense          *self,
                                                    GAsyncResult         *result,
                                                    GError              **error);

G_END_DECLS

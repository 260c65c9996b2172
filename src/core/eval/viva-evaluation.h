/* viva-evaluation.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "viva-chat-model.h"
#include "viva-eval-card.h"
#include "viva-eval-corpus.h"

G_BEGIN_DECLS

#define VIVA_TYPE_EVALUATION (viva_evaluation_get_type ())

G_DECLARE_FINAL_TYPE (VivaEvaluation, viva_evaluation, VIVA, EVALUATION, GObject)

VivaEvaluation *viva_evaluation_new          (VivaEvalCorpus      *corpus,
                                              GPtrArray           *cases,
                                              VivaChatModel       *model);
void            viva_evaluation_set_endpoint (VivaEvaluation      *self,
                                              const char          *base_url,
                                              const char          *model_name);
void            viva_evaluation_set_repeat   (VivaEvaluation      *self,
                                              guint                repeat);
void            viva_evaluation_set_short    (VivaEvaluation      *self,
                                              gboolean             short_card);
void            viva_evaluation_set_answer_program (VivaEvaluation     *self,
                                                    const char * const *argv);
guint           viva_evaluation_get_n_done   (VivaEvaluation      *self);
guint           viva_evaluation_get_n_total  (VivaEvaluation      *self);
void            viva_evaluation_run_async    (VivaEvaluation      *self,
                                              GCancellable        *cancellable,
                                              GAsyncReadyCallback  callback,
                                              gpointer             user_data);
VivaEvalCard   *viva_evaluation_run_finish   (VivaEvaluation      *self,
                                              GAsyncResult        *result,
                                              GError             **error);

G_END_DECLS

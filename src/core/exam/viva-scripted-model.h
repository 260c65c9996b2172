/* viva-scripted-model.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-chat-model.h"
#include "viva-problem.h"

G_BEGIN_DECLS

#define VIVA_TYPE_SCRIPTED_MODEL (viva_scripted_model_get_type ())

G_DECLARE_FINAL_TYPE (VivaScriptedModel, viva_scripted_model, VIVA, SCRIPTED_MODEL, GObject)

VivaScriptedModel *viva_scripted_model_new         (VivaProblem       *problem);
VivaProblem       *viva_scripted_model_get_problem (VivaScriptedModel *self);

G_END_DECLS

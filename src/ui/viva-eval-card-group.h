/* viva-eval-card-group.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define VIVA_TYPE_EVAL_CARD_GROUP (viva_eval_card_group_get_type ())

G_DECLARE_FINAL_TYPE (VivaEvalCardGroup, viva_eval_card_group, VIVA, EVAL_CARD_GROUP, AdwPreferencesGroup)

void viva_eval_card_group_set_endpoint (VivaEvalCardGroup *self,
                                        const char        *base_url,
                                        const char        *model);

G_END_DECLS

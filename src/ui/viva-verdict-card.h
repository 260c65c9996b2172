/* viva-verdict-card.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "viva-exam-verdict.h"

G_BEGIN_DECLS

#define VIVA_TYPE_VERDICT_CARD (viva_verdict_card_get_type())

G_DECLARE_FINAL_TYPE (VivaVerdictCard, viva_verdict_card, VIVA, VERDICT_CARD, GtkWidget)

GtkWidget       *viva_verdict_card_new         (VivaExamVerdict *verdict);
VivaExamVerdict *viva_verdict_card_get_verdict (VivaVerdictCard *self);

G_END_DECLS

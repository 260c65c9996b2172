/* viva-rehearsal-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-chat-model.h"

G_BEGIN_DECLS

/* What one defense's model turns measured. */
typedef struct
{
  GArray  *ttft_ms;          /* double, one per turn that said something */
  GArray  *turn_ms;          /* double, one per finished turn */
  guint64  tokens;           /* generated, as the server counted (or estimated) */
  double   generating_s;     /* from each turn's first token to its end */
  guint    largest_prompt;   /* tokens, as the server counted (or estimated) */
} VivaRehearsalTurns;

void           _viva_rehearsal_turns_init  (VivaRehearsalTurns *turns);
void           _viva_rehearsal_turns_clear (VivaRehearsalTurns *turns);

#define VIVA_TYPE_MEASURED_MODEL (_viva_measured_model_get_type ())
G_DECLARE_FINAL_TYPE (VivaMeasuredModel, _viva_measured_model, VIVA, MEASURED_MODEL, GObject)

VivaMeasuredModel *_viva_measured_model_new (VivaChatModel      *inner,
                                             VivaRehearsalTurns *turns);

G_END_DECLS

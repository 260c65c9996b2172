/* viva-rehearsal-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "viva-chat-model.h"
#include "viva-rehearsal.h"

G_BEGIN_DECLS

/* The rehearsal, shared by viva-rehearsal.c (running it) and
 * viva-rehearsal-figures.c (summing it up). */
typedef struct
{
  char  *reason;
  char  *kind;
  guint  count;
} Failure;

struct _VivaRehearsal
{
  GObject       parent_instance;

  char         *base_url;
  char         *model;
  guint         n_students;
  GPtrArray    *problems;
  guint         duration;
  guint         retry_delay;
  GStrv         answer_program;   /* the students answer through it, as `defend --answer-with` */

  GTask        *task;
  GCancellable *cancellable;
  gulong        cancelled_id;
  GHashTable   *runners;      /* code or "reference\n" + problem id → VivaRunner */
  GPtrArray    *students;
  guint         n_starting;
  gint64        started;

  guint         n_running;
  guint         n_completed;
  guint         n_failed;
  guint         n_cancelled;
  guint         n_busy;
  guint         n_defenses;

  GArray       *ttft_ms;
  GArray       *turn_ms;
  GArray       *defense_s;
  guint64       tokens;
  guint         turns;
  guint         retries;
  guint         largest_prompt;
  GPtrArray    *failures;
};

/* viva-rehearsal-figures.c */
void        _viva_rehearsal_count_failure (VivaRehearsal *self,
                                           const char    *reason,
                                           const char    *kind);
JsonObject *_viva_rehearsal_summary       (VivaRehearsal *self,
                                           gboolean       interrupted);
JsonObject *_viva_rehearsal_percentiles   (GArray        *values,
                                           double         scale,
                                           guint          decimals);
double      _viva_rehearsal_rounded       (double         value,
                                           guint          decimals);

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

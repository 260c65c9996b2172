/* viva-exam-endpoint-private.h: what the endpoint's two files share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-exam-endpoint.h"

G_BEGIN_DECLS

struct _VivaExamEndpoint
{
  GObject          parent_instance;

  VivaSettings    *settings;
  char            *base_url;      /* fixed, or NULL: the settings' */
  char            *model_name;    /* fixed, or NULL: the settings' */
  int              mode;          /* fixed, or -1: the settings' */

  VivaOpenAIModel *client;        /* checks and warm-up only */
  GCancellable    *cancellable;   /* the check and warm-up under way */
  GPtrArray       *waiting;       /* Waiter: choices waiting for the check */
  char            *warm_model;
  char            *error_message;
  VivaExamReach    reach;
  VivaExamWarmth   warmth;
  guint            asked : 1;     /* someone warmed: check again after a change */
};

/* viva-exam-endpoint-choice.c: the check has said; decide the waiting. */
void _viva_exam_endpoint_resolve_waiters (VivaExamEndpoint *self);

G_END_DECLS

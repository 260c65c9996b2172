/* viva-defense-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-defense.h"

G_BEGIN_DECLS

struct _VivaDefense
{
  GObject           parent_instance;

  VivaExamEndpoint *endpoint;
  VivaProblem      *problem;
  VivaCodeSource   *code_source;

  /* What the front configures before prepare. */
  VivaRunner       *runner;
  VivaRunner       *reference_runner;
  char             *pack_id;
  JsonObject       *pack_ref;
  char             *pack_language;
  char             *language;      /* fixed by the caller, over the settings */
  VivaExamLimits    limits;
  char             *sessions_dir;
  char             *student_name;
  char             *student_id;
  JsonArray        *timeline;
  JsonObject       *saved_model;   /* a resumed checkpoint's `model` */
  char             *scorer_base_url;  /* over the settings' scorer; "" the examiner's */
  char             *scorer_model;

  /* What prepare made. */
  VivaExamSession  *session;
  VivaExaminer     *examiner;
  VivaChatModel    *model;
  char             *notice;
  char             *served_model;

  guint             has_limits : 1;
  guint             hint_used : 1;
  guint             unrecorded : 1;
  guint             resumed : 1;
  guint             prepared : 1;
  guint             preparing : 1;
};

enum {
  PROP_0,
  PROP_ENDPOINT,
  PROP_PROBLEM,
  PROP_CODE_SOURCE,
  PROP_RESUMED,
  PROP_EXAMINER,
  PROP_SESSION,
  PROP_MODEL,
  PROP_OFFLINE,
  PROP_NOTICE,
  PROP_SERVED_MODEL,
  PROP_REACHABILITY,
  PROP_WARMTH,
  N_PROPS
};

extern GParamSpec *_viva_defense_properties[N_PROPS];

G_END_DECLS

/* viva-server-defenses-private.h: what the defenses' two files share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-defense.h"
#include "viva-server-defenses.h"

G_BEGIN_DECLS

/* One defense the server runs: the core's VivaDefense, and what its
 * clients were told of it. */
typedef struct
{
  VivaServerDefenses *self;        /* unowned */
  char               *id;
  char               *exam_id;
  char               *student_id;
  char               *problem_id;
  VivaDefense        *defense;
  VivaExaminer       *examiner;    /* the defense's */
  VivaExamSession    *session;     /* the defense's */
  GCancellable       *cancellable;
  GString            *content;
  guint               content_id;
  JsonNode           *saved_checkpoint; /* held, so a new one is never at its address */
  char               *pending;     /* the question waiting for an answer */
  gint64              pending_seq;
  char               *resumed_question; /* the pending question before a restart */
  gint64              resumed_seq;
  gboolean            auto_answer; /* handed in at time-up: nobody types */
  GHashTable         *told_steps;  /* "tool_call S3"…: told before a restart */
} VivaServerLive;

/* The main file's, for the events' file. */
VivaServerApi *_viva_server_defenses_get_api      (VivaServerDefenses *self);
void           _viva_server_defenses_emit         (VivaServerDefenses *self,
                                                   const char         *defense_id,
                                                   gint64              seq,
                                                   const char         *kind,
                                                   JsonObject         *data);
void           _viva_server_defenses_answer_later (VivaServerLive     *live);

/* viva-server-defense-events.c: the examiner's signals as committed
 * events. */
void           _viva_server_defense_watch         (VivaServerLive     *live);
void           _viva_server_defense_unwatch       (VivaServerLive     *live);
void           _viva_server_defense_recall        (VivaServerLive     *live);
gint64         _viva_server_defense_add_event     (VivaServerLive     *live,
                                                   const char         *kind,
                                                   JsonObject         *data);
void           _viva_server_defense_flush         (VivaServerLive     *live);
void           _viva_server_defense_set_state     (VivaServerLive     *live,
                                                   const char         *state);
JsonObject    *_viva_server_defense_verdict_data  (VivaExamVerdict    *verdict);

G_END_DECLS

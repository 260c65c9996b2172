/* viva-server-defenses-private.h: what the defenses' files share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-defense.h"
#include "viva-server-defenses.h"
#include "viva-server-store-live.h"

G_BEGIN_DECLS

struct _VivaServerDefenses
{
  GObject        parent_instance;
  VivaServerApi *api;              /* unowned: the api owns this */
  JsonObject    *examiner;         /* the server's model settings, or NULL */
  GHashTable    *endpoints;        /* exam id → VivaExamEndpoint */
  GHashTable    *live;             /* id → VivaServerLive */
  char          *holder;           /* this node's id, the leases' holder */
  guint          lease_id;
  guint          answers_listen_id;
  guint          timeline_listen_id;
  gint64         renewed_at;       /* monotonic µs of the last renewal of all leases */
  GHashTable    *unresumable;      /* ids that could not continue: not tried again */
  struct _VivaServerFollow *follow; /* the events of defenses another node runs */
};

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
  char               *resource;    /* its lease, "defense/ID" */
  gint64              epoch;       /* the lease's when this node took it: the fencing token */
  gboolean            fenced;      /* a write was refused: another node runs it now */
  gint64              timeline_seq; /* the student's last timeline row taken into its session */
  gboolean            timeline_synced; /* FALSE while resumed: the session's events not yet matched */
} VivaServerLive;

/* The main file's, for its satellites. */
VivaServerApi *_viva_server_defenses_get_api      (VivaServerDefenses *self);
void           _viva_server_defenses_emit         (VivaServerDefenses *self,
                                                   const char         *defense_id,
                                                   gint64              seq,
                                                   const char         *kind,
                                                   JsonObject         *data);
void           _viva_server_defenses_answer_later (VivaServerLive     *live);
const char    *_viva_server_defenses_get_holder   (VivaServerDefenses *self);
VivaServerLive *_viva_server_defenses_lookup      (VivaServerDefenses *self,
                                                   const char         *defense_id);
const VivaServerFence *_viva_server_defenses_fence (VivaServerLive    *live,
                                                   VivaServerFence    *fence);
void           _viva_server_defenses_fenced       (VivaServerLive     *live,
                                                   const GError       *error);
void           _viva_server_defenses_take_answer_later (VivaServerLive *live);
void           _viva_server_defenses_drop_now     (VivaServerLive     *live);
gboolean       _viva_server_defenses_resume_one   (VivaServerDefenses *self,
                                                   JsonObject         *row,
                                                   gint64              epoch,
                                                   GError            **error);

/* viva-server-defenses-build.c: what a defense is made of — the exam's
 * problem, the examiner the endpoint's rule gives, the PC's timeline. */
VivaDefense   *_viva_server_defenses_new_defense  (VivaServerDefenses *self,
                                                   JsonObject         *row,
                                                   const char         *code,
                                                   VivaExamSession    *session,
                                                   GError            **error);
void           _viva_server_defenses_give_timeline (VivaServerLive    *live);

/* viva-server-defenses-students.c: the PC's events during the defense. */
void           _viva_server_defenses_take_timeline (VivaServerLive    *live);
void           _viva_server_defenses_timeline_told (const char        *payload,
                                                   gpointer           user_data);

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

/* viva-server-defenses-nodes.c: several nodes over one database — the
 * leases, answers any node takes, events read back for a stream. */
char          *_viva_server_defenses_lease_resource (const char       *defense_id);
gint64         _viva_server_defenses_take_lease   (VivaServerDefenses *self,
                                                   const char         *defense_id);
void           _viva_server_defenses_renew_if_due (VivaServerDefenses *self);
gboolean       _viva_server_defense_queue_answer  (VivaServerDefenses *self,
                                                   const char         *defense_id,
                                                   const char         *text,
                                                   gint64              question_seq,
                                                   GError            **error);
void           _viva_server_defense_take_answer   (VivaServerLive     *live);
void           _viva_server_defense_answer_told   (const char         *payload,
                                                   gpointer            user_data);

G_END_DECLS

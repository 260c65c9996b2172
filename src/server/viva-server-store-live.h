/* viva-server-store-live.h: what a live defense writes, fenced by its lease; answers waiting for it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-server-store.h"

G_BEGIN_DECLS

/* Told at each commit of a defense's event (the payload: its id), and of
 * an answer waiting for the node that runs it. */
#define VIVA_SERVER_EVENTS_CHANNEL  "viva_events"
#define VIVA_SERVER_ANSWERS_CHANNEL "viva_answers"
/* The PC's timeline events kept: "EXAM\nSTUDENT", so the node that runs
 * one of the student's defenses takes them. */
#define VIVA_SERVER_TIMELINE_CHANNEL "viva_timeline"

/**
 * VivaServerFence:
 * @resource: the lease, `defense/ID`
 * @holder: this node's id
 * @epoch: the lease's epoch when this node took it
 *
 * A fencing token: a write carrying it commits only while the lease is
 * still @holder's at @epoch, checked in the write's own transaction.
 */
typedef struct
{
  const char *resource;
  const char *holder;
  gint64      epoch;
} VivaServerFence;

gint64      viva_server_store_add_live_event   (VivaServerStore        *self,
                                                const VivaServerFence  *fence,
                                                const char             *defense_id,
                                                const char             *kind,
                                                JsonObject             *data,
                                                const char             *checkpoint,
                                                gint64                  answers_question,
                                                GError                **error);
gboolean    viva_server_store_set_live_state   (VivaServerStore        *self,
                                                const VivaServerFence  *fence,
                                                const char             *defense_id,
                                                const char             *state,
                                                const char             *checkpoint,
                                                GError                **error);
gboolean    viva_server_store_check_fence      (VivaServerStore        *self,
                                                const VivaServerFence  *fence,
                                                GError                **error);

gint64      viva_server_store_queue_answer     (VivaServerStore        *self,
                                                const char             *defense_id,
                                                gint64                  question_seq,
                                                const char             *text,
                                                const char             *node_id,
                                                GError                **error);
JsonObject *viva_server_store_waiting_answer   (VivaServerStore        *self,
                                                const char             *defense_id,
                                                gint64                  question_seq,
                                                GError                **error);
JsonObject *viva_server_store_stored_question  (VivaServerStore        *self,
                                                const char             *defense_id,
                                                GError                **error);
gboolean    viva_server_store_defense_is_live  (VivaServerStore        *self,
                                                const char             *defense_id,
                                                GError                **error);

JsonArray  *viva_server_store_renew_leases     (VivaServerStore        *self,
                                                const char             *holder,
                                                guint                   ttl_ms,
                                                GError                **error);
JsonArray  *viva_server_store_list_unheld_defenses (VivaServerStore    *self,
                                                GError                **error);

G_END_DECLS

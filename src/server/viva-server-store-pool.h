/* viva-server-store-pool.h: several nodes over one database — nodes, leases, the job queue
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-server-store.h"

G_BEGIN_DECLS

/* Nodes: each `serve` says it is alive every few seconds. */
gboolean    viva_server_store_node_alive       (VivaServerStore  *self,
                                                const char       *node_id,
                                                const char       *address,
                                                gint64            started_at,
                                                const char       *host,
                                                const char       *home,
                                                gint64            pid,
                                                GError          **error);
JsonArray  *viva_server_store_list_home_nodes  (VivaServerStore  *self,
                                                const char       *node_id,
                                                const char       *host,
                                                const char       *home,
                                                GError          **error);
gboolean    viva_server_store_release_leases   (VivaServerStore  *self,
                                                const char       *holder,
                                                GError          **error);
JsonArray  *viva_server_store_list_nodes       (VivaServerStore  *self,
                                                gint64            seen_since,
                                                GError          **error);

/* Leases: one holder per resource until it stops renewing. */
gint64      viva_server_store_take_lease       (VivaServerStore  *self,
                                                const char       *resource,
                                                const char       *holder,
                                                guint             ttl_ms,
                                                GError          **error);
gboolean    viva_server_store_drop_lease       (VivaServerStore  *self,
                                                const char       *resource,
                                                const char       *holder,
                                                GError          **error);
JsonArray  *viva_server_store_list_leases      (VivaServerStore  *self,
                                                GError          **error);

/* The job queue. */
gint64      viva_server_store_save_submission  (VivaServerStore  *self,
                                                const char       *exam_id,
                                                const char       *student_id,
                                                const char       *problem_id,
                                                const char       *code,
                                                const char       *defense_id,
                                                char            **job_id,
                                                GError          **error);
gboolean    viva_server_store_enqueue_job      (VivaServerStore  *self,
                                                const char       *job_id,
                                                const char       *exam_id,
                                                const char       *kind,
                                                const char       *subject,
                                                JsonObject       *payload,
                                                GError          **error);
JsonObject *viva_server_store_claim_job        (VivaServerStore  *self,
                                                const char       *exam_id,
                                                const char       *claimer,
                                                guint             lease_ms,
                                                GError          **error);
JsonObject *viva_server_store_claim_job_of_kind (VivaServerStore *self,
                                                 const char      *exam_id,
                                                 const char      *kind,
                                                 const char      *claimer,
                                                 guint            lease_ms,
                                                 GError         **error);
gboolean    viva_server_store_renew_job        (VivaServerStore  *self,
                                                const char       *job_id,
                                                const char       *claim_id,
                                                guint             lease_ms,
                                                GError          **error);
gboolean    viva_server_store_finish_job       (VivaServerStore  *self,
                                                const char       *job_id,
                                                const char       *claim_id,
                                                const char       *finisher,
                                                const char       *result,
                                                GError          **error);
gboolean    viva_server_store_drop_waiting_job (VivaServerStore *self,
                                                const char      *job_id,
                                                GError         **error);
gboolean    viva_server_store_withdraw_unclaimed_job (VivaServerStore  *self,
                                                      const char       *job_id,
                                                      guint             claim_ms,
                                                      gboolean         *withdrawn,
                                                      GError          **error);
JsonObject *viva_server_store_get_job          (VivaServerStore  *self,
                                                const char       *job_id,
                                                GError          **error);
JsonObject *viva_server_store_queue_summary    (VivaServerStore  *self,
                                                GError          **error);
JsonArray  *viva_server_store_list_grades      (VivaServerStore  *self,
                                                const char       *exam_id,
                                                GError          **error);

gboolean    viva_server_store_defense_grade_job (VivaServerStore  *self,
                                                 const char       *defense_id,
                                                 const char       *code,
                                                 char            **job_id,
                                                 GError          **error);

/* The store's own, shared with viva-server-store.c. */
gint64      _viva_server_store_insert_snapshot (VivaServerStore  *self,
                                                const char       *exam_id,
                                                const char       *student_id,
                                                const char       *problem_id,
                                                const char       *kind,
                                                const char       *code,
                                                GError          **error);
void        _viva_server_store_job_enqueued    (VivaServerStore  *self,
                                                const char       *exam_id);

void        _viva_server_store_job_finished    (VivaServerStore  *self,
                                                const char       *job_id);

/* Told at the commit of each enqueue (the exam's id as payload), so the
 * other nodes' claimers wake at once; they poll as well. */
#define VIVA_SERVER_JOBS_CHANNEL "viva_jobs"
/* Told as each job's result is recorded (the job's id as payload), so a
 * defense waiting on it on another node reads it at once; it polls too. */
#define VIVA_SERVER_JOBS_DONE_CHANNEL "viva_jobs_done"

/* A claimer that stops renewing loses its job after this; a dead
 * claimer's job is claimed again, at most this many times in all. */
#define VIVA_SERVER_JOB_LEASE_MS     10000
#define VIVA_SERVER_JOB_MAX_ATTEMPTS 5
/* How long a defense's code run waits for a claimer before its tool call
 * fails (viva_server_pool_run_claim_ms()). */
#define VIVA_SERVER_RUN_CLAIM_MS     60000

guint       viva_server_pool_lease_ms          (void);
guint       viva_server_pool_run_claim_ms      (void);
gboolean    viva_server_store_add_worker_token (VivaServerStore  *self,
                                                const char       *exam_id,
                                                const char       *token_hash,
                                                GError          **error);

G_END_DECLS

/* viva-server-jobs.h: running the grading pool's jobs, here or on a worker
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "viva-server-api.h"

G_BEGIN_DECLS

GQuark      viva_server_job_error_quark  (void);

void        viva_server_job_run_async    (JsonObject           *exam_json,
                                          const char           *kind,
                                          JsonObject           *payload,
                                          GCancellable         *cancellable,
                                          GAsyncReadyCallback   callback,
                                          gpointer              user_data);
JsonObject *viva_server_job_run_finish   (GAsyncResult         *result,
                                          GError              **error);

typedef struct _VivaServerLocalJobs VivaServerLocalJobs;

VivaServerLocalJobs *viva_server_local_jobs_start (VivaServerApi       *api,
                                                   const char          *node_id,
                                                   guint                max_running);
void                 viva_server_local_jobs_stop  (VivaServerLocalJobs *self);
guint                viva_server_local_jobs_poll_ms (guint             fallback);

G_END_DECLS

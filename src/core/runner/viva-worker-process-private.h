/* viva-worker-process-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "viva-runner-launch.h"

G_BEGIN_DECLS

/* One viva-python-worker process and its channel. The owner (a VivaRunner)
 * hears about it through these callbacks, on the main thread, until it
 * discards the worker; after that nothing more is reported. */
typedef struct _VivaWorkerProcess VivaWorkerProcess;

typedef struct
{
  /* A frame from the channel, parsed into an object. `ready` comes here
   * too, after the worker has marked itself ready. */
  void (*event)         (VivaWorkerProcess *worker,
                         JsonObject        *event,
                         gpointer           user_data);
  /* Text on the worker's fd 1 or 2 once it is ready: the program's, from
   * C code or a crash. */
  void (*output)        (VivaWorkerProcess *worker,
                         int                fd,
                         const char        *text,
                         gpointer           user_data);
  /* The process exited and every frame it sent has been read. */
  void (*died)          (VivaWorkerProcess *worker,
                         gpointer           user_data);
  /* The worker was not ready in time; it has been discarded already. */
  void (*start_failed)  (VivaWorkerProcess *worker,
                         const GError      *error,
                         gpointer           user_data);
} VivaWorkerProcessCallbacks;

VivaWorkerProcess *_viva_worker_process_spawn        (VivaRunnerLaunch                 *launch,
                                                      VivaRunnerSandbox                 sandbox,
                                                      guint64                           memory_limit,
                                                      const VivaWorkerProcessCallbacks *callbacks,
                                                      gpointer                          user_data,
                                                      GError                          **error);
VivaWorkerProcess *_viva_worker_process_ref          (VivaWorkerProcess                *worker);
void               _viva_worker_process_unref        (VivaWorkerProcess                *worker);
void               _viva_worker_process_discard      (VivaWorkerProcess                *worker);
void               _viva_worker_process_send         (VivaWorkerProcess                *worker,
                                                      JsonObject                       *request);
void               _viva_worker_process_kill         (VivaWorkerProcess                *worker);
void               _viva_worker_process_reject       (VivaWorkerProcess                *worker,
                                                      const char                       *reason);

gboolean           _viva_worker_process_get_ready    (VivaWorkerProcess                *worker);
gboolean           _viva_worker_process_get_killed   (VivaWorkerProcess                *worker);
VivaRunnerSandbox  _viva_worker_process_get_sandbox  (VivaWorkerProcess                *worker);
GSubprocess       *_viva_worker_process_get_subprocess (VivaWorkerProcess              *worker);
const char        *_viva_worker_process_get_early_stderr (VivaWorkerProcess            *worker);
const char        *_viva_worker_process_get_violation (VivaWorkerProcess               *worker);

G_END_DECLS

/* viva-runner-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-runner-op-private.h"
#include "viva-worker-process-private.h"

G_BEGIN_DECLS

/* What VivaRunner's two halves share: the queue and the class
 * (viva-runner.c), and its worker process (viva-runner-worker.c). */

struct _VivaRunner
{
  GObject            parent_instance;
  VivaRunnerLaunch  *launch;
  VivaWorkerProcess *worker;
  GQueue             queue;
  Op                *current;
  gint64             next_id;
  char              *python_version;
  char              *sandbox_message;
  VivaRunnerSandbox  sandbox;
  gboolean           bwrap_failed;  /* the last start: the next one may go without, once */
  gboolean           warned;
  guint64            idle_output;   /* bytes received while no request ran */
  gboolean           busy;
  gboolean           paused;
  guint64            memory_limit;
  guint              output_limit;
};

enum {
  PROP_0,
  PROP_BUSY,
  PROP_PYTHON_VERSION,
  PROP_SANDBOX,
  PROP_SANDBOX_MESSAGE,
  PROP_MEMORY_LIMIT,
  PROP_OUTPUT_LIMIT,
  PROP_PAUSED,
  N_PROPS
};

enum {
  STDOUT,
  STDERR,
  IMAGE,
  PAUSED,
  N_SIGNALS
};

extern GParamSpec *_viva_runner_properties[N_PROPS];
extern guint       _viva_runner_signals[N_SIGNALS];

/* viva-runner.c: the queue */
void     _viva_runner_next             (VivaRunner     *self);
void     _viva_runner_complete_current (VivaRunner     *self,
                                        VivaRunResult  *result);
void     _viva_runner_fail_all         (VivaRunner     *self,
                                        GError         *error);
void     _viva_runner_take_paused      (VivaRunner     *self,
                                        JsonObject     *event);

/* viva-runner-props.c */
void     _viva_runner_install_properties (GObjectClass *object_class);

/* viva-runner-worker.c: the worker */
gboolean _viva_runner_spawn            (VivaRunner     *self,
                                        GError        **error);
void     _viva_runner_discard_worker   (VivaRunner     *self);

G_END_DECLS

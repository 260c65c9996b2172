/* viva-runner-launch.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-runner.h"

G_BEGIN_DECLS

/* How the worker is started (viva-runner-launch.c): which sandbox, the
 * programs, the folders kept across runs; found once by
 * _viva_runner_launch_new(), then each worker spawned from it. A unit of
 * its own, which VivaRunner owns and its worker half uses. */
typedef struct
{
  VivaRunnerSandbox  sandbox;
  gboolean           bwrap_missing; /* NONE because bubblewrap is not installed */
  char              *bwrap;         /* the bubblewrap program, for BUBBLEWRAP */
  char              *worker;        /* the worker program */
  char              *cache_dir;     /* host folder kept across runs (matplotlib's font cache) */
  char              *work_dir;      /* host folder used as the working directory without a sandbox */
} VivaRunnerLaunch;

VivaRunnerLaunch  *_viva_runner_launch_new       (GError                  **error);
void               _viva_runner_launch_free      (VivaRunnerLaunch         *launch);
char              *_viva_runner_launch_why_unsandboxed (VivaRunnerLaunch  *launch);
gboolean           _viva_runner_flatpak_is_build (const char              *info_path);
GSubprocess       *_viva_runner_launch_spawn     (VivaRunnerLaunch         *launch,
                                                  VivaRunnerSandbox         sandbox,
                                                  guint64                   memory_limit,
                                                  int                       channel_fd,
                                                  GError                  **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (VivaRunnerLaunch, _viva_runner_launch_free)

G_END_DECLS

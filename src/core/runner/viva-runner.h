/* viva-runner.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "viva-run-result.h"

G_BEGIN_DECLS

/**
 * VivaRunnerSandbox:
 * @VIVA_RUNNER_SANDBOX_NONE: the worker runs without a sandbox (see
 *   #VivaRunner:sandbox-message for why)
 * @VIVA_RUNNER_SANDBOX_BUBBLEWRAP: under bubblewrap: no network, read-only
 *   system, a private temporary folder, nothing of the user's home
 * @VIVA_RUNNER_SANDBOX_FLATPAK: inside Flatpak, through
 *   `flatpak-spawn --sandbox --no-network`
 */
typedef enum
{
  VIVA_RUNNER_SANDBOX_NONE,
  VIVA_RUNNER_SANDBOX_BUBBLEWRAP,
  VIVA_RUNNER_SANDBOX_FLATPAK,
} VivaRunnerSandbox;

#define VIVA_TYPE_RUNNER_SANDBOX (viva_runner_sandbox_get_type ())
GType viva_runner_sandbox_get_type (void) G_GNUC_CONST;

#define VIVA_RUNNER_DEFAULT_TIMEOUT_MS   10000
#define VIVA_RUNNER_DEFAULT_MEMORY_LIMIT (G_GUINT64_CONSTANT (1) << 30)
#define VIVA_RUNNER_DEFAULT_OUTPUT_LIMIT (1u << 20)

#define VIVA_TYPE_RUNNER (viva_runner_get_type ())

G_DECLARE_FINAL_TYPE (VivaRunner, viva_runner, VIVA, RUNNER, GObject)

VivaRunner        *viva_runner_new                  (void);

gboolean           viva_runner_get_busy             (VivaRunner           *self);
const char        *viva_runner_get_python_version   (VivaRunner           *self);
VivaRunnerSandbox  viva_runner_get_sandbox          (VivaRunner           *self);
const char        *viva_runner_get_sandbox_message  (VivaRunner           *self);
guint64            viva_runner_get_memory_limit     (VivaRunner           *self);
void               viva_runner_set_memory_limit     (VivaRunner           *self,
                                                     guint64               bytes);
guint              viva_runner_get_output_limit     (VivaRunner           *self);
void               viva_runner_set_output_limit     (VivaRunner           *self,
                                                     guint                 bytes);

void               viva_runner_start_async          (VivaRunner           *self,
                                                     GCancellable         *cancellable,
                                                     GAsyncReadyCallback   callback,
                                                     gpointer              user_data);
gboolean           viva_runner_start_finish         (VivaRunner           *self,
                                                     GAsyncResult         *result,
                                                     GError              **error);
void               viva_runner_run_async            (VivaRunner           *self,
                                                     const char           *code,
                                                     guint                 timeout_ms,
                                                     GCancellable         *cancellable,
                                                     GAsyncReadyCallback   callback,
                                                     gpointer              user_data);
VivaRunResult     *viva_runner_run_finish           (VivaRunner           *self,
                                                     GAsyncResult         *result,
                                                     GError              **error);
void               viva_runner_inject_async         (VivaRunner           *self,
                                                     const char           *code,
                                                     const char           *probe,
                                                     guint                 timeout_ms,
                                                     GCancellable         *cancellable,
                                                     GAsyncReadyCallback   callback,
                                                     gpointer              user_data);
VivaRunResult     *viva_runner_inject_finish        (VivaRunner           *self,
                                                     GAsyncResult         *result,
                                                     GError              **error);
void               viva_runner_check_async          (VivaRunner           *self,
                                                     const char           *code,
                                                     GCancellable         *cancellable,
                                                     GAsyncReadyCallback   callback,
                                                     gpointer              user_data);
VivaRunResult     *viva_runner_check_finish         (VivaRunner           *self,
                                                     GAsyncResult         *result,
                                                     GError              **error);
void               viva_runner_reset_async          (VivaRunner           *self,
                                                     gboolean              new_process,
                                                     GCancellable         *cancellable,
                                                     GAsyncReadyCallback   callback,
                                                     gpointer              user_data);
gboolean           viva_runner_reset_finish         (VivaRunner           *self,
                                                     GAsyncResult         *result,
                                                     GError              **error);
void               viva_runner_stop                 (VivaRunner           *self);
gboolean           viva_runner_pause                (VivaRunner           *self);
gboolean           viva_runner_resume               (VivaRunner           *self);
gboolean           viva_runner_get_paused           (VivaRunner           *self);

G_END_DECLS

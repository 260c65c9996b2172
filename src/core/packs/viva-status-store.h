/* viva-status-store.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/**
 * VivaProblemStatus:
 * @VIVA_PROBLEM_STATUS_NOT_STARTED: never run
 * @VIVA_PROBLEM_STATUS_RUNS: the student's code ran without an error
 * @VIVA_PROBLEM_STATUS_DEFENDED: a defense finished, with a verdict and score
 */
typedef enum
{
  VIVA_PROBLEM_STATUS_NOT_STARTED,
  VIVA_PROBLEM_STATUS_RUNS,
  VIVA_PROBLEM_STATUS_DEFENDED,
} VivaProblemStatus;

#define VIVA_TYPE_STATUS_STORE (viva_status_store_get_type())

G_DECLARE_FINAL_TYPE (VivaStatusStore, viva_status_store, VIVA, STATUS_STORE, GObject)

VivaStatusStore   *viva_status_store_new               (const char           *path);
const char        *viva_status_store_get_path          (VivaStatusStore      *self);
const char        *viva_status_store_get_error_message (VivaStatusStore      *self);
void               viva_status_store_load_async        (VivaStatusStore      *self,
                                                        GCancellable         *cancellable,
                                                        GAsyncReadyCallback   callback,
                                                        gpointer              user_data);
gboolean           viva_status_store_load_finish       (VivaStatusStore      *self,
                                                        GAsyncResult         *result,
                                                        GError              **error);
VivaProblemStatus  viva_status_store_get_status        (VivaStatusStore      *self,
                                                        const char           *pack_id,
                                                        const char           *problem_id);
gboolean           viva_status_store_get_verdict       (VivaStatusStore      *self,
                                                        const char           *pack_id,
                                                        const char           *problem_id,
                                                        double               *score,
                                                        gboolean             *passed);
void               viva_status_store_mark_runs         (VivaStatusStore      *self,
                                                        const char           *pack_id,
                                                        const char           *problem_id);
void               viva_status_store_mark_defended     (VivaStatusStore      *self,
                                                        const char           *pack_id,
                                                        const char           *problem_id,
                                                        double                score,
                                                        gboolean              passed);
void               viva_status_store_forget            (VivaStatusStore      *self,
                                                        const char           *pack_id,
                                                        const char           *problem_id);
gboolean           viva_status_store_has_pending       (VivaStatusStore      *self);
void               viva_status_store_flush_async       (VivaStatusStore      *self,
                                                        GCancellable         *cancellable,
                                                        GAsyncReadyCallback   callback,
                                                        gpointer              user_data);
gboolean           viva_status_store_flush_finish      (VivaStatusStore      *self,
                                                        GAsyncResult         *result,
                                                        GError              **error);

G_END_DECLS

/* viva-rehearsal.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "viva-problem.h"

G_BEGIN_DECLS

#define VIVA_TYPE_REHEARSAL (viva_rehearsal_get_type ())

G_DECLARE_FINAL_TYPE (VivaRehearsal, viva_rehearsal, VIVA, REHEARSAL, GObject)

VivaRehearsal *viva_rehearsal_new                 (const char           *base_url,
                                                   const char           *model,
                                                   guint                 n_students);
void           viva_rehearsal_add_problem         (VivaRehearsal        *self,
                                                   VivaProblem          *problem);
void           viva_rehearsal_set_duration        (VivaRehearsal        *self,
                                                   guint                 seconds);
void           viva_rehearsal_set_retry_delay     (VivaRehearsal        *self,
                                                   guint                 delay_ms);
void           viva_rehearsal_set_answer_program  (VivaRehearsal        *self,
                                                   const char * const   *argv);
const char    *viva_rehearsal_get_model           (VivaRehearsal        *self);
guint          viva_rehearsal_get_n_students      (VivaRehearsal        *self);
guint          viva_rehearsal_get_n_running       (VivaRehearsal        *self);
guint          viva_rehearsal_get_n_completed     (VivaRehearsal        *self);
guint          viva_rehearsal_get_n_failed        (VivaRehearsal        *self);
guint          viva_rehearsal_get_n_busy          (VivaRehearsal        *self);
guint          viva_rehearsal_get_n_workers       (VivaRehearsal        *self);

void           viva_rehearsal_run_async           (VivaRehearsal        *self,
                                                   GCancellable         *cancellable,
                                                   GAsyncReadyCallback   callback,
                                                   gpointer              user_data);
JsonObject    *viva_rehearsal_run_finish          (VivaRehearsal        *self,
                                                   GAsyncResult         *result,
                                                   GError              **error);

G_END_DECLS

/* viva-remote-kept.h: what a PC keeps of a sitting on an exam server
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define VIVA_TYPE_REMOTE_KEPT (viva_remote_kept_get_type ())

G_DECLARE_FINAL_TYPE (VivaRemoteKept, viva_remote_kept, VIVA, REMOTE_KEPT, GObject)

VivaRemoteKept *viva_remote_kept_new          (const char           *state_dir,
                                               const char           *exam_id,
                                               const char           *fingerprint,
                                               const char           *student_id);
const char     *viva_remote_kept_get_path     (VivaRemoteKept       *self);
void            viva_remote_kept_load_async   (VivaRemoteKept       *self,
                                               GCancellable         *cancellable,
                                               GAsyncReadyCallback   callback,
                                               gpointer              user_data);
JsonNode       *viva_remote_kept_load_finish  (VivaRemoteKept       *self,
                                               GAsyncResult         *result,
                                               GError              **error);
void            viva_remote_kept_keep         (VivaRemoteKept       *self,
                                               JsonNode             *state);
char           *viva_remote_kept_set_aside    (VivaRemoteKept       *self,
                                               const char           *problem_id,
                                               const char           *code);

G_END_DECLS

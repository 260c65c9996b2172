/* viva-pack.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "viva-pack-issue.h"
#include "viva-problem.h"

G_BEGIN_DECLS

#define VIVA_PACK_FORMAT "viva-pack/1"

#define VIVA_TYPE_PACK (viva_pack_get_type())

G_DECLARE_FINAL_TYPE (VivaPack, viva_pack, VIVA, PACK, GObject)

VivaPack    *viva_pack_new                  (const char           *id,
                                             const char           *title);
VivaPack    *viva_pack_new_from_bytes       (GBytes               *bytes,
                                             GError              **error);
VivaPack    *viva_pack_new_from_bytes_full  (GBytes               *bytes,
                                             GPtrArray           **issues,
                                             GError              **error);
void         viva_pack_new_from_file_async  (GFile                *file,
                                             GCancellable         *cancellable,
                                             GAsyncReadyCallback   callback,
                                             gpointer              user_data);
VivaPack    *viva_pack_new_from_file_finish (GAsyncResult         *result,
                                             GPtrArray           **issues,
                                             GError              **error);
VivaPack    *viva_pack_new_bundled          (void);
const char  *viva_pack_get_id               (VivaPack             *self);
const char  *viva_pack_get_title            (VivaPack             *self);
void         viva_pack_set_title            (VivaPack             *self,
                                             const char           *title);
const char  *viva_pack_get_author           (VivaPack             *self);
void         viva_pack_set_author           (VivaPack             *self,
                                             const char           *author);
const char  *viva_pack_get_language         (VivaPack             *self);
void         viva_pack_set_language         (VivaPack             *self,
                                             const char           *language);
const char  *viva_pack_get_version          (VivaPack             *self);
void         viva_pack_set_version          (VivaPack             *self,
                                             const char           *version);
GFile       *viva_pack_get_file             (VivaPack             *self);
GListModel  *viva_pack_get_problems         (VivaPack             *self);
VivaProblem *viva_pack_find_problem         (VivaPack             *self,
                                             const char           *problem_id);
void         viva_pack_add_problem          (VivaPack             *self,
                                             VivaProblem          *problem);
void         viva_pack_insert_problem       (VivaPack             *self,
                                             guint                 position,
                                             VivaProblem          *problem);
void         viva_pack_remove_problem       (VivaPack             *self,
                                             guint                 position);
JsonNode    *viva_pack_to_json              (VivaPack             *self);
GBytes      *viva_pack_to_bytes             (VivaPack             *self);
GPtrArray   *viva_pack_validate             (VivaPack             *self);
void         viva_pack_save_async           (VivaPack             *self,
                                             GFile                *file,
                                             GCancellable         *cancellable,
                                             GAsyncReadyCallback   callback,
                                             gpointer              user_data);
gboolean     viva_pack_save_finish          (VivaPack             *self,
                                             GAsyncResult         *result,
                                             GError              **error);

G_END_DECLS

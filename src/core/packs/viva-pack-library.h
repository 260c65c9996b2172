/* viva-pack-library.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "viva-pack.h"

G_BEGIN_DECLS

#define VIVA_TYPE_PACK_LIBRARY (viva_pack_library_get_type())

G_DECLARE_FINAL_TYPE (VivaPackLibrary, viva_pack_library, VIVA, PACK_LIBRARY, GObject)

VivaPackLibrary *viva_pack_library_new               (const char           *directory);
const char      *viva_pack_library_get_directory     (VivaPackLibrary      *self);
const char      *viva_pack_library_get_error_message (VivaPackLibrary      *self);
GListModel      *viva_pack_library_get_packs         (VivaPackLibrary      *self);
VivaPack        *viva_pack_library_find_pack         (VivaPackLibrary      *self,
                                                      const char           *pack_id);
gboolean         viva_pack_library_is_bundled        (VivaPackLibrary      *self,
                                                      VivaPack             *pack);
void             viva_pack_library_load_async        (VivaPackLibrary      *self,
                                                      GCancellable         *cancellable,
                                                      GAsyncReadyCallback   callback,
                                                      gpointer              user_data);
gboolean         viva_pack_library_load_finish       (VivaPackLibrary      *self,
                                                      GAsyncResult         *result,
                                                      GError              **error);
void             viva_pack_library_import_async      (VivaPackLibrary      *self,
                                                      GFile                *file,
                                                      GCancellable         *cancellable,
                                                      GAsyncReadyCallback   callback,
                                                      gpointer              user_data);
VivaPack        *viva_pack_library_import_finish     (VivaPackLibrary      *self,
                                                      GAsyncResult         *result,
                                                      GPtrArray           **issues,
                                                      GError              **error);

G_END_DECLS

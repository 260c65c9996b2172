/* viva-pack-editor.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "viva-pack-library.h"

G_BEGIN_DECLS

#define VIVA_TYPE_PACK_EDITOR (viva_pack_editor_get_type())

G_DECLARE_FINAL_TYPE (VivaPackEditor, viva_pack_editor, VIVA, PACK_EDITOR, AdwApplicationWindow)

VivaPackEditor *viva_pack_editor_new       (GtkApplication  *application,
                                            VivaPackLibrary *library);
VivaPack       *viva_pack_editor_get_pack  (VivaPackEditor  *self);
void            viva_pack_editor_open_pack (VivaPackEditor  *self,
                                            VivaPack        *pack,
                                            GFile           *file);
gboolean        viva_pack_editor_get_dirty (VivaPackEditor  *self);

G_END_DECLS

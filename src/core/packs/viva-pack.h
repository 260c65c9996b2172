/* viva-pack.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "viva-problem.h"

G_BEGIN_DECLS

#define VIVA_PACK_FORMAT "viva-pack/1"
#define VIVA_PACK_ERROR (viva_pack_error_quark())

typedef enum
{
  VIVA_PACK_ERROR_INVALID,
  VIVA_PACK_ERROR_FORMAT,
  VIVA_PACK_ERROR_TOO_LARGE,
} VivaPackError;

#define VIVA_TYPE_PACK (viva_pack_get_type())

G_DECLARE_FINAL_TYPE (VivaPack, viva_pack, VIVA, PACK, GObject)

GQuark       viva_pack_error_quark     (void);
VivaPack    *viva_pack_new             (const char    *id,
                                        const char    *title);
VivaPack    *viva_pack_new_from_bytes  (GBytes        *bytes,
                                        GError       **error);
VivaPack    *viva_pack_new_bundled     (void);
const char  *viva_pack_get_id          (VivaPack      *self);
const char  *viva_pack_get_title       (VivaPack      *self);
const char  *viva_pack_get_author      (VivaPack      *self);
const char  *viva_pack_get_language    (VivaPack      *self);
const char  *viva_pack_get_version     (VivaPack      *self);
GListModel  *viva_pack_get_problems    (VivaPack      *self);
VivaProblem *viva_pack_find_problem    (VivaPack      *self,
                                        const char    *problem_id);
void         viva_pack_add_problem     (VivaPack      *self,
                                        VivaProblem   *problem);

G_END_DECLS

/* viva-application.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "viva-pack-library.h"

G_BEGIN_DECLS

#define VIVA_TYPE_APPLICATION (viva_application_get_type())

G_DECLARE_FINAL_TYPE (VivaApplication, viva_application, VIVA, APPLICATION, AdwApplication)

VivaApplication *viva_application_new              (void);
VivaPackLibrary *viva_application_get_pack_library (VivaApplication *self);

G_END_DECLS

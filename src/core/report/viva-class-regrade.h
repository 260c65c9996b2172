/* viva-class-regrade.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "viva-problem.h"

G_BEGIN_DECLS

void      viva_class_regrade_async  (VivaProblem          *problem,
                                     const char           *code,
                                     GCancellable         *cancellable,
                                     GAsyncReadyCallback   callback,
                                     gpointer              user_data);
JsonNode *viva_class_regrade_finish (GAsyncResult         *result,
                                     GError              **error);

G_END_DECLS

/* viva-server-sitting.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-server-api.h"

G_BEGIN_DECLS

JsonObject *viva_server_sitting_describe   (VivaServerApi    *api,
                                            const char       *exam_id,
                                            const char       *student_id,
                                            GError          **error);
JsonArray  *viva_server_sitting_class      (VivaServerStore  *store,
                                            const char       *exam_id,
                                            GError          **error);
gboolean    viva_server_sitting_held       (VivaServerStore  *store,
                                            const char       *exam_id);

G_END_DECLS

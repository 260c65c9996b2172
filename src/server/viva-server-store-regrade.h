/* viva-server-store-regrade.h: re-grades, their jobs and the report revisions
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-server-store.h"

G_BEGIN_DECLS

JsonArray  *viva_server_store_list_reported      (VivaServerStore  *self,
                                                  const char       *exam_id,
                                                  GError          **error);
gboolean    viva_server_store_start_regrade      (VivaServerStore  *self,
                                                  const char       *regrade_id,
                                                  const char       *exam_id,
                                                  JsonArray        *defenses,
                                                  GError          **error);
JsonObject *viva_server_store_get_regrade        (VivaServerStore  *self,
                                                  const char       *regrade_id,
                                                  GError          **error);
JsonArray  *viva_server_store_list_regrade_items (VivaServerStore  *self,
                                                  const char       *exam_id,
                                                  const char       *regrade_id,
                                                  gboolean          unsettled,
                                                  GError          **error);
JsonObject *viva_server_store_newest_report      (VivaServerStore  *self,
                                                  const char       *defense_id,
                                                  GError          **error);
gboolean    viva_server_store_add_revision       (VivaServerStore  *self,
                                                  const char       *regrade_id,
                                                  const char       *defense_id,
                                                  gint64            revision,
                                                  const char       *report,
                                                  const char       *signature,
                                                  GError          **error);
gboolean    viva_server_store_fail_regrade_item  (VivaServerStore  *self,
                                                  const char       *regrade_id,
                                                  const char       *defense_id,
                                                  const char       *message,
                                                  GError          **error);
JsonArray  *viva_server_store_list_revisions     (VivaServerStore  *self,
                                                  const char       *exam_id,
                                                  GError          **error);

G_END_DECLS

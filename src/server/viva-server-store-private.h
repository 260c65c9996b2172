/* viva-server-store-private.h: what the store's files share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-server-store.h"

G_BEGIN_DECLS

struct _VivaServerStore
{
  GObject       parent_instance;
  VivaServerDb *db;
  char         *where;
  guint         schema_version;
};

/* Runs the transaction's statements; on any failure rolls back. */
#define TX_BEGIN(self, error) \
  if (!viva_server_db_begin ((self)->db, (error))) return FALSE;
#define TX_FAIL(self) \
  G_STMT_START { viva_server_db_rollback ((self)->db); return FALSE; } G_STMT_END
#define TX_COMMIT(self, error) \
  G_STMT_START { if (!viva_server_db_commit ((self)->db, (error))) TX_FAIL (self); } G_STMT_END

gboolean    _viva_server_store_insert_defense (VivaServerStore  *self,
                                               const char       *defense_id,
                                               const char       *exam_id,
                                               const char       *student_id,
                                               const char       *problem_id,
                                               const char       *code,
                                               gboolean          handed_in,
                                               const char       *grade_job,
                                               GError          **error);

JsonObject *_viva_server_store_row_or_error (JsonObject  *row,
                                             GError     **local,
                                             GError     **error);

G_END_DECLS

/* viva-server-sqlite.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <sqlite3.h>
#include <string.h>

#include "viva-server-sqlite.h"

/* The embedded engine: one connection, in WAL mode with synchronous=FULL,
 * so a commit that returned is on disk whatever happens to the process or
 * the machine afterwards. Statements are prepared per call: the server's
 * load (a lab) is far from where caching them would matter. */

struct _VivaServerSqlite
{
  GObject  parent_instance;
  sqlite3 *db;
};

static void viva_server_sqlite_db_iface_init (VivaServerDbInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (VivaServerSqlite, viva_server_sqlite, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (VIVA_TYPE_SERVER_DB, viva_server_sqlite_db_iface_init))

static void
set_error (VivaServerSqlite  *self,
           int                code,
           GError           **error)
{
  int primary = code & 0xff;
  VivaServerDbError kind = primary == SQLITE_BUSY || primary == SQLITE_LOCKED ? VIVA_SERVER_DB_ERROR_BUSY
                         : primary == SQLITE_CONSTRAINT ? VIVA_SERVER_DB_ERROR_CONSTRAINT
                         : VIVA_SERVER_DB_ERROR_FAILED;

  g_set_error (error, VIVA_SERVER_DB_ERROR, kind,
               _("The exam server’s database failed: %s"),
               self->db ? sqlite3_errmsg (self->db) : sqlite3_errstr (code));
}

static gboolean
exec_plain (VivaServerSqlite  *self,
            const char        *sql,
            GError           **error)
{
  int rc = sqlite3_exec (self->db, sql, NULL, NULL, NULL);

  if (rc != SQLITE_OK)
    {
      set_error (self, rc, error);
      return FALSE;
    }
  return TRUE;
}

static JsonArray *
viva_server_sqlite_query (VivaServerDb  *db,
                          const char    *sql,
                          const GValue  *params,
                          guint          n_params,
                          GError       **error)
{
  VivaServerSqlite *self = VIVA_SERVER_SQLITE (db);
  g_autoptr(JsonArray) rows = json_array_new ();
  g_autofree char *unlocked = NULL;
  sqlite3_stmt *stmt = NULL;
  int rc;

  /* Row locks are PostgreSQL's: here the write transaction (BEGIN
   * IMMEDIATE) already holds the whole database, so a claim's
   * `FOR UPDATE SKIP LOCKED` has nothing left to say. */
  if (g_str_has_suffix (sql, " FOR UPDATE SKIP LOCKED"))
    sql = unlocked = g_strndup (sql, strlen (sql) - strlen (" FOR UPDATE SKIP LOCKED"));
  else if (g_str_has_suffix (sql, " FOR UPDATE"))
    sql = unlocked = g_strndup (sql, strlen (sql) - strlen (" FOR UPDATE"));

  if ((rc = sqlite3_prepare_v2 (self->db, sql, -1, &stmt, NULL)) != SQLITE_OK)
    {
      set_error (self, rc, error);
      return NULL;
    }

  /* `$N` is a named parameter to SQLite: bind by name, so the order in
   * which they first appear in the statement does not matter. */
  for (guint i = 0; i < n_params; i++)
    {
      g_autofree char *name = g_strdup_printf ("$%u", i + 1);
      int index = sqlite3_bind_parameter_index (stmt, name);

      if (index == 0)
        continue;
      if (!G_IS_VALUE (&params[i]))
        rc = sqlite3_bind_null (stmt, index);
      else if (G_VALUE_HOLDS_INT64 (&params[i]))
        rc = sqlite3_bind_int64 (stmt, index, g_value_get_int64 (&params[i]));
      else
        rc = sqlite3_bind_text (stmt, index, g_value_get_string (&params[i]), -1, SQLITE_TRANSIENT);
      if (rc != SQLITE_OK)
        {
          set_error (self, rc, error);
          sqlite3_finalize (stmt);
          return NULL;
        }
    }

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      JsonObject *row = json_object_new ();
      int n = sqlite3_column_count (stmt);

      for (int c = 0; c < n; c++)
        {
          const char *name = sqlite3_column_name (stmt, c);

          switch (sqlite3_column_type (stmt, c))
            {
            case SQLITE_INTEGER:
              json_object_set_int_member (row, name, sqlite3_column_int64 (stmt, c));
              break;
            case SQLITE_FLOAT:
              json_object_set_double_member (row, name, sqlite3_column_double (stmt, c));
              break;
            case SQLITE_NULL:
              json_object_set_null_member (row, name);
              break;
            default:
              json_object_set_string_member (row, name, (const char *)sqlite3_column_text (stmt, c));
              break;
            }
        }
      json_array_add_object_element (rows, row);
    }

  if (rc != SQLITE_DONE)
    {
      set_error (self, rc, error);
      sqlite3_finalize (stmt);
      return NULL;
    }

  sqlite3_finalize (stmt);
  return g_steal_pointer (&rows);
}

static gboolean
viva_server_sqlite_begin (VivaServerDb  *db,
                          GError       **error)
{
  return exec_plain (VIVA_SERVER_SQLITE (db), "BEGIN IMMEDIATE", error);
}

static gboolean
viva_server_sqlite_commit (VivaServerDb  *db,
                           GError       **error)
{
  return exec_plain (VIVA_SERVER_SQLITE (db), "COMMIT", error);
}

static void
viva_server_sqlite_rollback (VivaServerDb *db)
{
  VivaServerSqlite *self = VIVA_SERVER_SQLITE (db);

  if (!sqlite3_get_autocommit (self->db))
    sqlite3_exec (self->db, "ROLLBACK", NULL, NULL, NULL);
}

static void
viva_server_sqlite_db_iface_init (VivaServerDbInterface *iface)
{
  iface->query = viva_server_sqlite_query;
  iface->begin = viva_server_sqlite_begin;
  iface->commit = viva_server_sqlite_commit;
  iface->rollback = viva_server_sqlite_rollback;
}

static void
viva_server_sqlite_finalize (GObject *object)
{
  VivaServerSqlite *self = (VivaServerSqlite *)object;

  g_clear_pointer (&self->db, sqlite3_close_v2);

  G_OBJECT_CLASS (viva_server_sqlite_parent_class)->finalize (object);
}

static void
viva_server_sqlite_class_init (VivaServerSqliteClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = viva_server_sqlite_finalize;
}

static void
viva_server_sqlite_init (VivaServerSqlite *self)
{
}

/**
 * viva_server_sqlite_open:
 * @path: the database file, made (private to its owner) when missing
 *
 * Returns: (transfer full): the open database, in WAL mode with
 *   synchronous=FULL and foreign keys on
 */
VivaServerSqlite *
viva_server_sqlite_open (const char  *path,
                         GError     **error)
{
  g_autoptr(VivaServerSqlite) self = g_object_new (VIVA_TYPE_SERVER_SQLITE, NULL);
  int rc;

  g_return_val_if_fail (path != NULL, NULL);

  rc = sqlite3_open_v2 (path, &self->db,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL);
  if (rc != SQLITE_OK)
    {
      set_error (self, rc, error);
      return NULL;
    }

  /* Another command (status, codes) may read while serve writes: wait for
   * the lock a while rather than fail at once. */
  sqlite3_busy_timeout (self->db, 5000);

  if (!exec_plain (self, "PRAGMA journal_mode=WAL", error) ||
      !exec_plain (self, "PRAGMA synchronous=FULL", error) ||
      !exec_plain (self, "PRAGMA foreign_keys=ON", error))
    return NULL;

  return g_steal_pointer (&self);
}

/* viva-server-db.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define VIVA_SERVER_DB_ERROR (viva_server_db_error_quark ())

typedef enum
{
  VIVA_SERVER_DB_ERROR_FAILED,
  VIVA_SERVER_DB_ERROR_BUSY,
  VIVA_SERVER_DB_ERROR_CONSTRAINT,
  VIVA_SERVER_DB_ERROR_SCHEMA,
  VIVA_SERVER_DB_ERROR_FENCED,
} VivaServerDbError;

GQuark viva_server_db_error_quark (void);

typedef void (*VivaServerDbNotifyFunc) (const char *payload,
                                        gpointer    user_data);

#define VIVA_TYPE_SERVER_DB (viva_server_db_get_type ())

G_DECLARE_INTERFACE (VivaServerDb, viva_server_db, VIVA, SERVER_DB, GObject)

/**
 * VivaServerDbInterface:
 * @query: runs one statement with its parameters, positional as `$1`,
 *   `$2`… (the spelling both SQLite and PostgreSQL accept); returns its
 *   rows as JSON objects keyed by column name (text, integers, nulls), or
 *   %NULL with @error set
 * @begin: starts a transaction that writes (SQLite: BEGIN IMMEDIATE)
 * @commit: commits; on SQLite with `synchronous=FULL` the data is on disk
 *   when it returns
 * @rollback: abandons the transaction
 *
 * The whole of what the exam server asks of a database engine, so that
 * another engine (PostgreSQL through libpq, issue 31) is one more
 * implementation of these four calls. Every statement the store sends is
 * portable SQL: no AUTOINCREMENT, no engine functions, BIGINT and TEXT.
 * A parameter is a #GValue holding a string, an int64 or nothing
 * (%G_TYPE_INVALID, bound as NULL).
 */
struct _VivaServerDbInterface
{
  GTypeInterface parent_iface;

  JsonArray *(*query)    (VivaServerDb  *self,
                          const char    *sql,
                          const GValue  *params,
                          guint          n_params,
                          GError       **error);
  gboolean   (*begin)    (VivaServerDb  *self,
                          GError       **error);
  gboolean   (*commit)   (VivaServerDb  *self,
                          GError       **error);
  void       (*rollback) (VivaServerDb  *self);

  /* Optional: an engine shared by several processes tells them of a
   * commit (PostgreSQL's NOTIFY, sent at the commit of the transaction it
   * is in); without it they poll. */
  gboolean   (*notify)   (VivaServerDb            *self,
                          const char              *channel,
                          const char              *payload,
                          GError                 **error);
  guint      (*listen)   (VivaServerDb            *self,
                          const char              *channel,
                          VivaServerDbNotifyFunc   func,
                          gpointer                 user_data);
  void       (*unlisten) (VivaServerDb            *self,
                          guint                    id);
};

JsonArray *viva_server_db_query    (VivaServerDb  *self,
                                    const char    *sql,
                                    const GValue  *params,
                                    guint          n_params,
                                    GError       **error);
JsonArray *viva_server_db_queryf   (VivaServerDb  *self,
                                    GError       **error,
                                    const char    *sql,
                                    const char    *types,
                                    ...);
gboolean   viva_server_db_execf    (VivaServerDb  *self,
                                    GError       **error,
                                    const char    *sql,
                                    const char    *types,
                                    ...);
JsonObject *viva_server_db_rowf    (VivaServerDb  *self,
                                    GError       **error,
                                    const char    *sql,
                                    const char    *types,
                                    ...);
gboolean   viva_server_db_begin    (VivaServerDb  *self,
                                    GError       **error);
gboolean   viva_server_db_commit   (VivaServerDb  *self,
                                    GError       **error);
void       viva_server_db_rollback (VivaServerDb  *self);
gboolean   viva_server_db_notify   (VivaServerDb            *self,
                                    const char              *channel,
                                    const char              *payload,
                                    GError                 **error);
guint      viva_server_db_listen   (VivaServerDb            *self,
                                    const char              *channel,
                                    VivaServerDbNotifyFunc   func,
                                    gpointer                 user_data);
void       viva_server_db_unlisten (VivaServerDb            *self,
                                    guint                    id);

G_END_DECLS

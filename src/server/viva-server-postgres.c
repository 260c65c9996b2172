/* viva-server-postgres.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <libpq-fe.h>
#include <stdlib.h>
#include <string.h>

#include "viva-server-postgres.h"
#include "viva-server-postgres-listen.h"

/* The shared engine: one libpq connection per process, the store's
 * statements sent as they are (`$1…` is PostgreSQL's own spelling).
 *
 * Calls are synchronous, as the SQLite engine's are, and each has a
 * bounded budget instead of a thread of its own: a connection attempt
 * gives up after a few seconds, a statement after a few more, and a
 * connection whose peer vanished is noticed by the kernel within
 * tcp_user_timeout. The server's load (a room that presses Start at
 * once) is many short statements, each well under a millisecond on a
 * database in the same room; moving them to a thread would put every
 * route behind a callback for no gain while the database answers, and
 * when it does not answer the budget keeps the stall short. While the
 * database is away the engine does not ask again on every request: it
 * fails at once (BUSY, which the API turns into “the exam server is busy”
 * with Retry-After) until the next attempt is due, backing off from a
 * half second to two. A transaction whose connection broke is never
 * finished on a new connection: every call fails until the store rolls
 * it back, so a half-done change is never committed, and nothing is
 * acknowledged before its COMMIT returned. */

#define CONNECT_TIMEOUT_S   "3"
#define STATEMENT_BUDGET_MS 5000
#define TCP_USER_TIMEOUT_MS "5000"
#define RETRY_FIRST_US      (G_USEC_PER_SEC / 2)
#define RETRY_MOST_US       (2 * G_USEC_PER_SEC)

/* Type OIDs from pg_type.h, which libpq-fe.h does not include. */
#define BOOLOID    16
#define INT8OID    20
#define INT2OID    21
#define INT4OID    23
#define OIDOID     26
#define FLOAT4OID  700
#define FLOAT8OID  701
#define NUMERICOID 1700

struct _VivaServerPostgres
{
  GObject   parent_instance;
  PGconn   *conn;
  char     *link;
  gint64    retry_at;
  gint64    retry_wait;
  /* Between a BEGIN that succeeded and its COMMIT or ROLLBACK. */
  gboolean  in_tx;
  /* The connection broke inside a transaction: nothing more until the
   * store's rollback. */
  gboolean  tx_lost;
  VivaServerPgListener *listener;  /* on its own connection, at the first listen */
};

static void viva_server_postgres_db_iface_init (VivaServerDbInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (VivaServerPostgres, viva_server_postgres, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (VIVA_TYPE_SERVER_DB, viva_server_postgres_db_iface_init))

/* NOTICEs (CREATE TABLE IF NOT EXISTS says it skipped) are not the
 * teacher's business; libpq would print them on stderr. */
static void
quiet_notice (void       *arg,
              const char *message)
{
  g_debug ("postgres: %s", message);
}

static void
set_busy (GError **error)
{
  g_set_error (error, VIVA_SERVER_DB_ERROR, VIVA_SERVER_DB_ERROR_BUSY, "%s",
               _("The exam server’s database is not answering; the server keeps trying."));
}

static void
drop_connection (VivaServerPostgres *self)
{
  gint64 now = g_get_monotonic_time ();

  if (self->conn != NULL)
    {
      g_message ("database: lost the connection to PostgreSQL; trying again in the background");
      /* Not PQtransactionStatus: on a broken connection it says
       * "unknown", also for a BEGIN that never started anything. */
      if (self->in_tx)
        self->tx_lost = TRUE;
    }
  g_clear_pointer (&self->conn, PQfinish);
  self->retry_wait = self->retry_wait == 0 ? RETRY_FIRST_US : MIN (self->retry_wait * 2, RETRY_MOST_US);
  self->retry_at = now + self->retry_wait;
}

static PGconn *
connect_now (const char  *link,
             char       **message)
{
  g_autofree char *options = g_strdup_printf ("-c statement_timeout=%d -c lock_timeout=%d",
                                              STATEMENT_BUDGET_MS, STATEMENT_BUDGET_MS);
  /* Ours first, the link last: what the teacher wrote in the link wins. */
  const char *keywords[] = { "connect_timeout", "tcp_user_timeout", "keepalives_idle", "keepalives_interval",
                             "keepalives_count", "application_name", "options", "dbname", NULL };
  const char *values[] = { CONNECT_TIMEOUT_S, TCP_USER_TIMEOUT_MS, "5", "2", "2", "viva-server", options, link, NULL };
  PGconn *conn = PQconnectdbParams (keywords, values, 1);

  if (conn == NULL || PQstatus (conn) != CONNECTION_OK)
    {
      *message = g_strchomp (g_strdup (conn ? PQerrorMessage (conn) : "out of memory"));
      g_clear_pointer (&conn, PQfinish);
      return NULL;
    }
  PQsetNoticeProcessor (conn, quiet_notice, NULL);
  return conn;
}

/* A usable connection, or FALSE (BUSY) while the database is away. */
static gboolean
ensure_connection (VivaServerPostgres  *self,
                   GError             **error)
{
  g_autofree char *message = NULL;

  if (self->tx_lost)
    {
      set_busy (error);
      return FALSE;
    }
  if (self->conn != NULL && PQstatus (self->conn) == CONNECTION_OK)
    return TRUE;
  if (self->conn != NULL)
    drop_connection (self);
  if (g_get_monotonic_time () < self->retry_at)
    {
      set_busy (error);
      return FALSE;
    }

  if (!(self->conn = connect_now (self->link, &message)))
    {
      g_message ("database: PostgreSQL is not answering (%s)", message);
      self->retry_wait = self->retry_wait == 0 ? RETRY_FIRST_US : MIN (self->retry_wait * 2, RETRY_MOST_US);
      self->retry_at = g_get_monotonic_time () + self->retry_wait;
      set_busy (error);
      return FALSE;
    }
  if (self->retry_wait != 0)
    g_message ("database: connected to PostgreSQL again");
  self->retry_wait = 0;
  self->retry_at = 0;
  return TRUE;
}

static VivaServerDbError
error_kind (const char *state)
{
  if (state == NULL)
    return VIVA_SERVER_DB_ERROR_FAILED;
  /* 23: integrity constraint violation. */
  if (g_str_has_prefix (state, "23"))
    return VIVA_SERVER_DB_ERROR_CONSTRAINT;
  /* 40: serialization failure and deadlock; 55P03 lock not available;
   * 57: statement timeout, the server shutting down; 08: connection;
   * 53: out of resources (too many connections). Each passes. */
  if (g_str_has_prefix (state, "40") || g_str_equal (state, "55P03") ||
      g_str_has_prefix (state, "57") || g_str_has_prefix (state, "08") || g_str_has_prefix (state, "53"))
    return VIVA_SERVER_DB_ERROR_BUSY;
  return VIVA_SERVER_DB_ERROR_FAILED;
}

/* Turns a failed result into @error; a broken connection is dropped so
 * that the next call reconnects. */
static void
set_result_error (VivaServerPostgres  *self,
                  PGresult            *result,
                  GError             **error)
{
  const char *state = result ? PQresultErrorField (result, PG_DIAG_SQLSTATE) : NULL;
  g_autofree char *message = g_strchomp (g_strdup (result && PQresultErrorMessage (result)[0]
                                                   ? PQresultErrorMessage (result)
                                                   : PQerrorMessage (self->conn)));

  /* No SQLSTATE is libpq's own failure (the peer closed the socket);
   * 57P01-03 is the server shutting down: either way this connection is
   * done, whatever PQstatus says yet. */
  if (PQstatus (self->conn) != CONNECTION_OK || state == NULL ||
      g_str_has_prefix (state, "08") || g_str_has_prefix (state, "57P0"))
    {
      g_debug ("database: %s", message);
      drop_connection (self);
      set_busy (error);
      return;
    }

  g_set_error (error, VIVA_SERVER_DB_ERROR, error_kind (state),
               _("The exam server’s database failed: %s"), message);
}

static void
add_value (JsonObject *row,
           const char *name,
           Oid         type,
           const char *text)
{
  switch (type)
    {
    case INT8OID:
    case INT4OID:
    case INT2OID:
    case OIDOID:
      json_object_set_int_member (row, name, g_ascii_strtoll (text, NULL, 10));
      break;
    case FLOAT4OID:
    case FLOAT8OID:
    case NUMERICOID:
      json_object_set_double_member (row, name, g_ascii_strtod (text, NULL));
      break;
    case BOOLOID:
      json_object_set_int_member (row, name, text[0] == 't' ? 1 : 0);
      break;
    default:
      json_object_set_string_member (row, name, text);
      break;
    }
}

static JsonArray *
viva_server_postgres_query (VivaServerDb  *db,
                            const char    *sql,
                            const GValue  *params,
                            guint          n_params,
                            GError       **error)
{
  VivaServerPostgres *self = VIVA_SERVER_POSTGRES (db);
  g_autofree Oid *types = g_new0 (Oid, MAX (n_params, 1));
  g_autofree const char **values = g_new0 (const char *, MAX (n_params, 1));
  g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(JsonArray) rows = NULL;
  PGresult *result;
  ExecStatusType status;

  if (!ensure_connection (self, error))
    return NULL;

  /* Integers go as int8; text goes untyped, so the server takes the
   * column's type, as SQLite does. */
  for (guint i = 0; i < n_params; i++)
    {
      if (!G_IS_VALUE (&params[i]))
        continue;
      if (G_VALUE_HOLDS_INT64 (&params[i]))
        {
          char *text = g_strdup_printf ("%" G_GINT64_FORMAT, g_value_get_int64 (&params[i]));

          g_ptr_array_add (texts, text);
          types[i] = INT8OID;
          values[i] = text;
        }
      else
        values[i] = g_value_get_string (&params[i]);
    }

  result = PQexecParams (self->conn, sql, (int)n_params, types, values, NULL, NULL, 0);
  status = result ? PQresultStatus (result) : PGRES_FATAL_ERROR;
  if (status != PGRES_TUPLES_OK && status != PGRES_COMMAND_OK)
    {
      set_result_error (self, result, error);
      PQclear (result);
      return NULL;
    }

  rows = json_array_new ();
  for (int r = 0; r < PQntuples (result); r++)
    {
      JsonObject *row = json_object_new ();

      for (int c = 0; c < PQnfields (result); c++)
        {
          const char *name = PQfname (result, c);

          if (PQgetisnull (result, r, c))
            json_object_set_null_member (row, name);
          else
            add_value (row, name, PQftype (result, c), PQgetvalue (result, r, c));
        }
      json_array_add_object_element (rows, row);
    }
  PQclear (result);

  return g_steal_pointer (&rows);
}

static gboolean
exec_plain (VivaServerPostgres  *self,
            const char          *sql,
            const char          *expect,
            GError             **error)
{
  PGresult *result;

  if (!ensure_connection (self, error))
    return FALSE;

  result = PQexec (self->conn, sql);
  if (result == NULL || PQresultStatus (result) != PGRES_COMMAND_OK)
    {
      set_result_error (self, result, error);
      PQclear (result);
      return FALSE;
    }
  /* A COMMIT of a transaction that had failed answers ROLLBACK. */
  if (expect != NULL && !g_str_equal (PQcmdStatus (result), expect))
    {
      g_set_error (error, VIVA_SERVER_DB_ERROR, VIVA_SERVER_DB_ERROR_FAILED,
                   _("The exam server’s database failed: %s"), PQcmdStatus (result));
      PQclear (result);
      return FALSE;
    }
  PQclear (result);
  return TRUE;
}

static gboolean
viva_server_postgres_begin (VivaServerDb  *db,
                            GError       **error)
{
  VivaServerPostgres *self = VIVA_SERVER_POSTGRES (db);

  if (!exec_plain (self, "BEGIN", NULL, error))
    return FALSE;
  self->in_tx = TRUE;
  return TRUE;
}

static gboolean
viva_server_postgres_commit (VivaServerDb  *db,
                             GError       **error)
{
  VivaServerPostgres *self = VIVA_SERVER_POSTGRES (db);

  if (!exec_plain (self, "COMMIT", "COMMIT", error))
    return FALSE;
  self->in_tx = FALSE;
  return TRUE;
}

static void
viva_server_postgres_rollback (VivaServerDb *db)
{
  VivaServerPostgres *self = VIVA_SERVER_POSTGRES (db);

  self->tx_lost = FALSE;
  self->in_tx = FALSE;
  if (self->conn != NULL && PQstatus (self->conn) == CONNECTION_OK &&
      PQtransactionStatus (self->conn) != PQTRANS_IDLE)
    PQclear (PQexec (self->conn, "ROLLBACK"));
}

/* NOTIFY through pg_notify(), which takes its channel as a value. */
static gboolean
viva_server_postgres_notify (VivaServerDb  *db,
                             const char    *channel,
                             const char    *payload,
                             GError       **error)
{
  g_autoptr(JsonArray) rows = NULL;
  GValue params[2] = { G_VALUE_INIT, G_VALUE_INIT };

  g_value_init (&params[0], G_TYPE_STRING);
  g_value_set_string (&params[0], channel);
  g_value_init (&params[1], G_TYPE_STRING);
  g_value_set_string (&params[1], payload);
  rows = viva_server_postgres_query (db, "SELECT pg_notify($1, $2)", params, 2, error);
  g_value_unset (&params[0]);
  g_value_unset (&params[1]);
  return rows != NULL;
}

static guint
viva_server_postgres_listen (VivaServerDb           *db,
                             const char             *channel,
                             VivaServerDbNotifyFunc  func,
                             gpointer                user_data)
{
  VivaServerPostgres *self = VIVA_SERVER_POSTGRES (db);

  if (self->listener == NULL)
    self->listener = viva_server_pg_listener_new (self->link);
  return viva_server_pg_listener_add (self->listener, channel, func, user_data);
}

static void
viva_server_postgres_unlisten (VivaServerDb *db,
                               guint         id)
{
  VivaServerPostgres *self = VIVA_SERVER_POSTGRES (db);

  if (self->listener != NULL)
    viva_server_pg_listener_remove (self->listener, id);
}

static void
viva_server_postgres_db_iface_init (VivaServerDbInterface *iface)
{
  iface->query = viva_server_postgres_query;
  iface->begin = viva_server_postgres_begin;
  iface->commit = viva_server_postgres_commit;
  iface->rollback = viva_server_postgres_rollback;
  iface->notify = viva_server_postgres_notify;
  iface->listen = viva_server_postgres_listen;
  iface->unlisten = viva_server_postgres_unlisten;
}

static void
viva_server_postgres_finalize (GObject *object)
{
  VivaServerPostgres *self = (VivaServerPostgres *)object;

  g_clear_pointer (&self->listener, viva_server_pg_listener_free);
  g_clear_pointer (&self->conn, PQfinish);
  g_clear_pointer (&self->link, g_free);

  G_OBJECT_CLASS (viva_server_postgres_parent_class)->finalize (object);
}

static void
viva_server_postgres_class_init (VivaServerPostgresClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = viva_server_postgres_finalize;
}

static void
viva_server_postgres_init (VivaServerPostgres *self)
{
}

/**
 * viva_server_postgres_open:
 * @link: a libpq connection link, `postgresql://user@host:port/db?…`
 *
 * The first connection must succeed: a command that cannot reach its
 * database says so at once. Later losses are retried (see above).
 *
 * Returns: (transfer full): the open database
 */
VivaServerPostgres *
viva_server_postgres_open (const char  *link,
                           GError     **error)
{
  g_autoptr(VivaServerPostgres) self = g_object_new (VIVA_TYPE_SERVER_POSTGRES, NULL);
  g_autofree char *message = NULL;

  g_return_val_if_fail (link != NULL, NULL);

  self->link = g_strdup (link);
  if (!(self->conn = connect_now (link, &message)))
    {
      g_set_error (error, VIVA_SERVER_DB_ERROR, VIVA_SERVER_DB_ERROR_BUSY,
                   _("Could not reach the PostgreSQL database (%s): check the link given to --database and that the database is up."),
                   message);
      return NULL;
    }

  return g_steal_pointer (&self);
}

/* Where the data is, without the password: for status and the log. */
char *
viva_server_postgres_describe (VivaServerPostgres *self)
{
  g_return_val_if_fail (VIVA_IS_SERVER_POSTGRES (self), NULL);

  if (self->conn == NULL)
    return g_strdup ("PostgreSQL");
  return g_strdup_printf ("PostgreSQL %d.%d, database %s at %s:%s", PQserverVersion (self->conn) / 10000,
                          PQserverVersion (self->conn) % 10000, PQdb (self->conn), PQhost (self->conn),
                          PQport (self->conn));
}

/* viva-server-postgres-listen.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib-unix.h>
#include <libpq-fe.h>
#include <string.h>

#include "viva-server-postgres-listen.h"

/* A node is told at once what another node committed (an answer waiting
 * for the defense it runs, an event of a defense a student follows here)
 * through PostgreSQL's LISTEN/NOTIFY, on a connection of its own: the
 * statements' connection is synchronous and may sit in a transaction,
 * while this one only waits, watched by the main loop. A notification is
 * a hint, never the record: whoever is told reads the tables, and polls
 * them anyway, so a notification lost with a broken connection delays a
 * step by one poll and loses nothing. A broken connection is opened again
 * every few seconds. */

#define RECONNECT_S 3

typedef struct
{
  guint                   id;
  char                   *channel;
  VivaServerDbNotifyFunc  func;
  gpointer                user_data;
} Listener;

struct _VivaServerPgListener
{
  char      *link;
  PGconn    *conn;
  guint      watch_id;
  guint      retry_id;
  guint      last_id;
  GPtrArray *listeners;
};

static void
listener_free (Listener *listener)
{
  g_free (listener->channel);
  g_free (listener);
}

static void reconnect_later (VivaServerPgListener *self);

static gboolean
send_listen (VivaServerPgListener *self,
             const char           *channel)
{
  g_autofree char *quoted = NULL;
  g_autofree char *sql = NULL;
  PGresult *result;
  gboolean ok;
  char *escaped = PQescapeIdentifier (self->conn, channel, strlen (channel));

  if (escaped == NULL)
    return FALSE;
  quoted = g_strdup (escaped);
  PQfreemem (escaped);
  sql = g_strconcat ("LISTEN ", quoted, NULL);
  result = PQexec (self->conn, sql);
  ok = result != NULL && PQresultStatus (result) == PGRES_COMMAND_OK;
  PQclear (result);
  return ok;
}

static void
drop (VivaServerPgListener *self)
{
  g_clear_handle_id (&self->watch_id, g_source_remove);
  g_clear_pointer (&self->conn, PQfinish);
}

static gboolean
readable_cb (int          fd,
             GIOCondition condition,
             gpointer     user_data)
{
  VivaServerPgListener *self = user_data;
  PGnotify *notify;

  if (!PQconsumeInput (self->conn) || PQstatus (self->conn) != CONNECTION_OK)
    {
      g_message ("database: lost the notifications' connection; polling until it is back");
      self->watch_id = 0;
      g_clear_pointer (&self->conn, PQfinish);
      reconnect_later (self);
      return G_SOURCE_REMOVE;
    }

  while ((notify = PQnotifies (self->conn)) != NULL)
    {
      /* Copied: a callback may add or remove listeners. */
      g_autoptr(GPtrArray) told = g_ptr_array_new ();

      for (guint i = 0; i < self->listeners->len; i++)
        {
          Listener *listener = g_ptr_array_index (self->listeners, i);

          if (g_str_equal (listener->channel, notify->relname))
            g_ptr_array_add (told, GUINT_TO_POINTER (listener->id));
        }
      for (guint i = 0; i < told->len; i++)
        for (guint j = 0; j < self->listeners->len; j++)
          {
            Listener *listener = g_ptr_array_index (self->listeners, j);

            if (listener->id == GPOINTER_TO_UINT (told->pdata[i]))
              {
                listener->func (notify->extra, listener->user_data);
                break;
              }
          }
      PQfreemem (notify);
    }
  return G_SOURCE_CONTINUE;
}

static gboolean
connect_now (VivaServerPgListener *self)
{
  const char *keywords[] = { "connect_timeout", "application_name", "dbname", NULL };
  const char *values[] = { "3", "viva-server-listen", self->link, NULL };
  g_autoptr(GHashTable) channels = g_hash_table_new (g_str_hash, g_str_equal);

  self->conn = PQconnectdbParams (keywords, values, 1);
  if (self->conn == NULL || PQstatus (self->conn) != CONNECTION_OK)
    {
      g_clear_pointer (&self->conn, PQfinish);
      return FALSE;
    }
  for (guint i = 0; i < self->listeners->len; i++)
    {
      Listener *listener = g_ptr_array_index (self->listeners, i);

      if (!g_hash_table_add (channels, listener->channel))
        continue;
      if (!send_listen (self, listener->channel))
        {
          drop (self);
          return FALSE;
        }
    }
  PQsetnonblocking (self->conn, 1);
  self->watch_id = g_unix_fd_add (PQsocket (self->conn), G_IO_IN | G_IO_HUP | G_IO_ERR, readable_cb, self);
  return TRUE;
}

static gboolean
retry_cb (gpointer user_data)
{
  VivaServerPgListener *self = user_data;

  self->retry_id = 0;
  if (!connect_now (self))
    reconnect_later (self);
  return G_SOURCE_REMOVE;
}

static void
reconnect_later (VivaServerPgListener *self)
{
  if (self->retry_id == 0)
    self->retry_id = g_timeout_add_seconds (RECONNECT_S, retry_cb, self);
}

/**
 * viva_server_pg_listener_new:
 *
 * Returns: (transfer full): a listener that connects at its first channel
 */
VivaServerPgListener *
viva_server_pg_listener_new (const char *link)
{
  VivaServerPgListener *self = g_new0 (VivaServerPgListener, 1);

  self->link = g_strdup (link);
  self->listeners = g_ptr_array_new_with_free_func ((GDestroyNotify)listener_free);
  return self;
}

/**
 * viva_server_pg_listener_add:
 * @func: called on the main loop with each notification's payload
 *
 * Returns: an id for viva_server_pg_listener_remove()
 */
guint
viva_server_pg_listener_add (VivaServerPgListener   *self,
                             const char             *channel,
                             VivaServerDbNotifyFunc  func,
                             gpointer                user_data)
{
  Listener *listener = g_new0 (Listener, 1);

  listener->id = ++self->last_id;
  listener->channel = g_strdup (channel);
  listener->func = func;
  listener->user_data = user_data;
  g_ptr_array_add (self->listeners, listener);

  if (self->conn == NULL && self->retry_id == 0)
    {
      if (!connect_now (self))
        reconnect_later (self);
    }
  else if (self->conn != NULL && !send_listen (self, channel))
    {
      drop (self);
      reconnect_later (self);
    }
  return listener->id;
}

void
viva_server_pg_listener_remove (VivaServerPgListener *self,
                                guint                 id)
{
  for (guint i = 0; i < self->listeners->len; i++)
    if (((Listener *)g_ptr_array_index (self->listeners, i))->id == id)
      {
        g_ptr_array_remove_index (self->listeners, i);
        return;
      }
}

void
viva_server_pg_listener_free (VivaServerPgListener *self)
{
  if (self == NULL)
    return;
  drop (self);
  g_clear_handle_id (&self->retry_id, g_source_remove);
  g_ptr_array_unref (self->listeners);
  g_free (self->link);
  g_free (self);
}

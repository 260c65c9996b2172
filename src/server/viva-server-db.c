/* viva-server-db.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "viva-server-db.h"

G_DEFINE_QUARK (viva-server-db-error-quark, viva_server_db_error)

G_DEFINE_INTERFACE (VivaServerDb, viva_server_db, G_TYPE_OBJECT)

static void
viva_server_db_default_init (VivaServerDbInterface *iface)
{
}

JsonArray *
viva_server_db_query (VivaServerDb  *self,
                      const char    *sql,
                      const GValue  *params,
                      guint          n_params,
                      GError       **error)
{
  g_return_val_if_fail (VIVA_IS_SERVER_DB (self), NULL);
  g_return_val_if_fail (sql != NULL, NULL);

  return VIVA_SERVER_DB_GET_IFACE (self)->query (self, sql, params, n_params, error);
}

/* @types spells the parameters: `s` a string (NULL binds NULL), `i` a
 * gint64. Kept this small on purpose: the store never needs more. */
static JsonArray *
query_valist (VivaServerDb  *self,
              GError       **error,
              const char    *sql,
              const char    *types,
              va_list        args)
{
  guint n = types ? strlen (types) : 0;
  g_autofree GValue *params = g_new0 (GValue, MAX (n, 1));
  JsonArray *rows;

  for (guint i = 0; i < n; i++)
    {
      if (types[i] == 's')
        {
          const char *text = va_arg (args, const char *);

          if (text != NULL)
            {
              g_value_init (&params[i], G_TYPE_STRING);
              g_value_set_string (&params[i], text);
            }
        }
      else if (types[i] == 'i')
        {
          g_value_init (&params[i], G_TYPE_INT64);
          g_value_set_int64 (&params[i], va_arg (args, gint64));
        }
      else
        g_assert_not_reached ();
    }

  rows = viva_server_db_query (self, sql, params, n, error);

  for (guint i = 0; i < n; i++)
    if (G_IS_VALUE (&params[i]))
      g_value_unset (&params[i]);

  return rows;
}

JsonArray *
viva_server_db_queryf (VivaServerDb  *self,
                       GError       **error,
                       const char    *sql,
                       const char    *types,
                       ...)
{
  va_list args;
  JsonArray *rows;

  va_start (args, types);
  rows = query_valist (self, error, sql, types, args);
  va_end (args);

  return rows;
}

gboolean
viva_server_db_execf (VivaServerDb  *self,
                      GError       **error,
                      const char    *sql,
                      const char    *types,
                      ...)
{
  va_list args;
  JsonArray *rows;

  va_start (args, types);
  rows = query_valist (self, error, sql, types, args);
  va_end (args);

  if (rows == NULL)
    return FALSE;
  json_array_unref (rows);
  return TRUE;
}

/**
 * viva_server_db_rowf:
 *
 * Returns: (transfer full) (nullable): the first row, or %NULL when there
 *   is none (@error unset) or the statement failed (@error set)
 */
JsonObject *
viva_server_db_rowf (VivaServerDb  *self,
                     GError       **error,
                     const char    *sql,
                     const char    *types,
                     ...)
{
  va_list args;
  g_autoptr(JsonArray) rows = NULL;

  va_start (args, types);
  rows = query_valist (self, error, sql, types, args);
  va_end (args);

  if (rows == NULL || json_array_get_length (rows) == 0)
    return NULL;
  return json_object_ref (json_array_get_object_element (rows, 0));
}

gboolean
viva_server_db_begin (VivaServerDb  *self,
                      GError       **error)
{
  g_return_val_if_fail (VIVA_IS_SERVER_DB (self), FALSE);

  return VIVA_SERVER_DB_GET_IFACE (self)->begin (self, error);
}

gboolean
viva_server_db_commit (VivaServerDb  *self,
                       GError       **error)
{
  g_return_val_if_fail (VIVA_IS_SERVER_DB (self), FALSE);

  return VIVA_SERVER_DB_GET_IFACE (self)->commit (self, error);
}

void
viva_server_db_rollback (VivaServerDb *self)
{
  g_return_if_fail (VIVA_IS_SERVER_DB (self));

  VIVA_SERVER_DB_GET_IFACE (self)->rollback (self);
}

/**
 * viva_server_db_notify:
 *
 * Tells the other processes on this database of @payload on @channel
 * when the transaction it is in commits (at once outside one). An engine
 * of one process does nothing.
 */
gboolean
viva_server_db_notify (VivaServerDb  *self,
                       const char    *channel,
                       const char    *payload,
                       GError       **error)
{
  VivaServerDbInterface *iface = VIVA_SERVER_DB_GET_IFACE (self);

  if (iface->notify == NULL)
    return TRUE;
  return iface->notify (self, channel, payload, error);
}

/**
 * viva_server_db_listen:
 * @func: called on the main loop with each payload
 *
 * Returns: an id for viva_server_db_unlisten(), or 0 when the engine
 *   tells nothing (then the caller polls, as it does anyway)
 */
guint
viva_server_db_listen (VivaServerDb           *self,
                       const char             *channel,
                       VivaServerDbNotifyFunc  func,
                       gpointer                user_data)
{
  VivaServerDbInterface *iface = VIVA_SERVER_DB_GET_IFACE (self);

  if (iface->listen == NULL)
    return 0;
  return iface->listen (self, channel, func, user_data);
}

void
viva_server_db_unlisten (VivaServerDb *self,
                         guint         id)
{
  VivaServerDbInterface *iface = VIVA_SERVER_DB_GET_IFACE (self);

  if (id != 0 && iface->unlisten != NULL)
    iface->unlisten (self, id);
}

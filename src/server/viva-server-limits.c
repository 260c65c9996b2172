/* viva-server-limits.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "viva-server-api.h"
#include "viva-server-limits.h"

/* What keeps one client from hurting the others: token buckets per client
 * address (every request) and per student and address (sign-in codes, so
 * a 40-bit code cannot be guessed), caps on headers and bodies checked
 * before a body is read, and timeouts on a connection that sits idle or
 * sends its request slowly. */

typedef struct
{
  double capacity;
  double per_second;
} Rate;

static const Rate request_rate = { 240, 120 };
/* Five tries, then one every 30 s: a student who mistypes twice is fine,
 * a script guessing codes gets nowhere. */
static const Rate student_sign_in_rate = { 5, 1.0 / 30 };
/* A lab's PCs each have their own address; a room behind one NAT still
 * signs in 60 students in a minute. */
static const Rate address_sign_in_rate = { 90, 1.0 };

typedef struct
{
  double tokens;
  gint64 last;
} Bucket;

struct _VivaServerLimits
{
  GHashTable *requests;  /* address → Bucket */
  GHashTable *sign_ins;  /* address or exam/student → Bucket */
  guint       idle_timeout;
  guint       body_timeout;
  guint       sweep_id;
};

static gboolean
take (GHashTable *table,
      const char *key,
      const Rate *rate,
      guint      *retry_after)
{
  gint64 now = g_get_monotonic_time ();
  Bucket *bucket = g_hash_table_lookup (table, key);

  if (bucket == NULL)
    {
      bucket = g_new0 (Bucket, 1);
      bucket->tokens = rate->capacity;
      bucket->last = now;
      g_hash_table_insert (table, g_strdup (key), bucket);
    }

  bucket->tokens = MIN (rate->capacity, bucket->tokens + (now - bucket->last) / 1e6 * rate->per_second);
  bucket->last = now;

  if (bucket->tokens >= 1)
    {
      bucket->tokens -= 1;
      return TRUE;
    }

  if (retry_after != NULL)
    *retry_after = (guint)((1 - bucket->tokens) / rate->per_second) + 1;
  return FALSE;
}

/* Forgets full buckets now and then, so the tables stay small. */
static gboolean
sweep_cb (gpointer user_data)
{
  VivaServerLimits *self = user_data;
  GHashTable *tables[] = { self->requests, self->sign_ins };
  gint64 now = g_get_monotonic_time ();

  for (guint t = 0; t < G_N_ELEMENTS (tables); t++)
    {
      GHashTableIter iter;
      Bucket *bucket;

      g_hash_table_iter_init (&iter, tables[t]);
      while (g_hash_table_iter_next (&iter, NULL, (gpointer *)&bucket))
        if (now - bucket->last > 10 * 60 * G_USEC_PER_SEC)
          g_hash_table_iter_remove (&iter);
    }
  return G_SOURCE_CONTINUE;
}

static guint
env_seconds (const char *name,
             guint       fallback)
{
  const char *value = g_getenv (name);
  guint64 seconds;

  if (value == NULL || !g_ascii_string_to_unsigned (value, 10, 1, 3600, &seconds, NULL))
    return fallback;
  return seconds;
}

VivaServerLimits *
viva_server_limits_new (void)
{
  VivaServerLimits *self = g_new0 (VivaServerLimits, 1);

  self->requests = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->sign_ins = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  /* From a connection's start (or its last answer) to a request's headers,
   * and from the headers to the whole body. The tests shorten them. */
  self->idle_timeout = env_seconds ("VIVA_SERVER_IDLE_TIMEOUT", 60);
  self->body_timeout = env_seconds ("VIVA_SERVER_BODY_TIMEOUT", 30);
  self->sweep_id = g_timeout_add_seconds (60, sweep_cb, self);
  return self;
}

void
viva_server_limits_free (VivaServerLimits *self)
{
  g_clear_handle_id (&self->sweep_id, g_source_remove);
  g_hash_table_unref (self->requests);
  g_hash_table_unref (self->sign_ins);
  g_free (self);
}

gboolean
viva_server_limits_allow_request (VivaServerLimits *self,
                                  const char       *client,
                                  guint            *retry_after)
{
  return take (self->requests, client, &request_rate, retry_after);
}

/* Both buckets are charged, so neither many students from one address nor
 * many addresses against one student get far. */
gboolean
viva_server_limits_allow_sign_in (VivaServerLimits *self,
                                  const char       *client,
                                  const char       *student,
                                  guint            *retry_after)
{
  g_autofree char *key = g_strconcat ("student:", student, NULL);
  guint retry_student = 0, retry_address = 0;
  gboolean ok_student = take (self->sign_ins, key, &student_sign_in_rate, &retry_student);
  gboolean ok_address = take (self->sign_ins, client, &address_sign_in_rate, &retry_address);

  if (retry_after != NULL)
    *retry_after = MAX (retry_student, retry_address);
  return ok_student && ok_address;
}

/* One connection's watch: a timer that closes it when the request it is
 * waiting for does not come in time. */
typedef struct
{
  SoupServerMessage *msg;
  guint              timeout_id;
} Watch;

static void
watch_free (Watch *watch)
{
  g_clear_handle_id (&watch->timeout_id, g_source_remove);
  g_free (watch);
}

static gboolean
timeout_cb (gpointer user_data)
{
  Watch *watch = user_data;
  GSocket *socket = soup_server_message_get_socket (watch->msg);

  watch->timeout_id = 0;
  /* Shutting the socket down ends the connection's reads: libsoup then
   * drops it like any client that went away. */
  if (socket != NULL)
    g_socket_shutdown (socket, TRUE, TRUE, NULL);
  return G_SOURCE_REMOVE;
}

static void
restart (Watch *watch,
         guint  seconds)
{
  g_clear_handle_id (&watch->timeout_id, g_source_remove);
  if (seconds > 0)
    watch->timeout_id = g_timeout_add_seconds (seconds, timeout_cb, watch);
}

static void
closed_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_io_stream_close_finish (G_IO_STREAM (object), result, NULL);
}

static void
written_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GIOStream) stream = user_data;

  g_output_stream_write_all_finish (G_OUTPUT_STREAM (object), result, NULL, NULL);
  g_io_stream_close_async (stream, G_PRIORITY_DEFAULT, NULL, closed_cb, NULL);
}

/* Answers a request refused from its headers and closes the connection:
 * libsoup would otherwise read the body it announced before answering. */
static void
refuse (SoupServerMessage *msg,
        guint              status,
        const char        *reason,
        const char        *code,
        const char        *message)
{
  g_autoptr(JsonObject) object = json_object_new ();
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *body = NULL;
  GIOStream *stream;
  GBytes *bytes;
  JsonObject *error = json_object_new ();

  json_object_set_string_member (error, "code", code);
  json_object_set_string_member (error, "message", message);
  json_object_set_int_member (error, "status", status);
  json_object_set_object_member (object, "error", error);
  node = json_node_init_object (json_node_alloc (), object);
  body = json_to_string (node, FALSE);

  {
    char *text = g_strdup_printf ("HTTP/1.1 %u %s\r\nContent-Type: application/json\r\n"
                                  "Content-Length: %zu\r\nConnection: close\r\n\r\n%s",
                                  status, reason, strlen (body), body);

    bytes = g_bytes_new_take (text, strlen (text));
  }

  stream = soup_server_message_steal_connection (msg);
  if (stream == NULL)
    {
      g_bytes_unref (bytes);
      return;
    }
  g_object_set_data_full (G_OBJECT (stream), "viva-bytes", bytes, (GDestroyNotify)g_bytes_unref);
  g_output_stream_write_all_async (g_io_stream_get_output_stream (stream), g_bytes_get_data (bytes, NULL),
                                   g_bytes_get_size (bytes), G_PRIORITY_DEFAULT, NULL, written_cb, stream);
}

static void
got_headers_cb (SoupServerMessage *msg,
                VivaServerLimits  *self)
{
  Watch *watch = g_object_get_data (G_OBJECT (msg), "viva-watch");
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (msg);
  SoupMessageHeadersIter iter;
  const char *name, *value;
  gsize total = 0;

  restart (watch, self->body_timeout);

  soup_message_headers_iter_init (&iter, headers);
  while (soup_message_headers_iter_next (&iter, &name, &value))
    total += strlen (name) + strlen (value) + 4;

  /* Refused here, before the body is read; the connection is closed after
   * the answer so an unread body cannot be taken for the next request. */
  if (total > VIVA_SERVER_MAX_HEADER_BYTES)
    {
      restart (watch, 0);
      refuse (msg, VIVA_SERVER_STATUS_HEADERS_TOO_LARGE, "Request Header Fields Too Large", "headers_too_large",
              _("The request’s headers are too large."));
      return;
    }

  if (soup_message_headers_get_encoding (headers) == SOUP_ENCODING_CHUNKED ||
      soup_message_headers_get_content_length (headers) > VIVA_SERVER_MAX_BODY_BYTES)
    {
      restart (watch, 0);
      refuse (msg, SOUP_STATUS_REQUEST_ENTITY_TOO_LARGE, "Payload Too Large", "body_too_large",
              _("The request’s body is too large, or has no length: send at most 2 MiB with a Content-Length."));
    }
}

static void
got_body_cb (SoupServerMessage *msg,
             VivaServerLimits  *self)
{
  Watch *watch = g_object_get_data (G_OBJECT (msg), "viva-watch");

  /* The request is whole: from here the route decides how long it takes
   * (a stream of a defense's events lasts as long as the defense). */
  restart (watch, 0);
}

static void
request_started_cb (SoupServer        *server,
                    SoupServerMessage *msg,
                    VivaServerLimits  *self)
{
  Watch *watch = g_new0 (Watch, 1);

  watch->msg = msg;
  g_object_set_data_full (G_OBJECT (msg), "viva-watch", watch, (GDestroyNotify)watch_free);
  restart (watch, self->idle_timeout);

  g_signal_connect (msg, "got-headers", G_CALLBACK (got_headers_cb), self);
  g_signal_connect (msg, "got-body", G_CALLBACK (got_body_cb), self);
}

void
viva_server_limits_watch (VivaServerLimits *self,
                          SoupServer       *server)
{
  g_signal_connect (server, "request-started", G_CALLBACK (request_started_cb), self);
}

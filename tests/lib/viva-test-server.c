/* viva-test-server.c: the scripted HTTP server on 127.0.0.1.
 *
 * A SoupServer that answers each "METHOD /path" from its queue, default or
 * responder, serves a response in the chunks and at the pace it asks for,
 * holds streams to a capacity like a busy lab server, and records every
 * request. The responses themselves are built in viva-test-response.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "viva-test-server-private.h"

struct _VivaTestServer
{
  GObject     parent_instance;
  SoupServer *server;
  char       *url;
  GHashTable *queues;    /* "METHOD /path" → GQueue of VivaTestResponse */
  GHashTable *defaults;  /* "METHOD /path" → VivaTestResponse */
  GHashTable *responders; /* "METHOD /path" → Responder */

  /* Capacity: POST streams served at once, how many may wait. */
  guint       max_streams;
  guint       max_queue;
  guint       n_streams;
  guint       peak_streams;
  guint       n_turned_away;
  GQueue      waiting;    /* Serving, not started */
  guint       pump_id;
  GPtrArray  *requests;
  GPtrArray  *servings;
  guint64     bytes_sent;
};

G_DEFINE_FINAL_TYPE (VivaTestServer, viva_test_server, G_TYPE_OBJECT)
/* Serving one response. */

typedef struct
{
  VivaTestServer    *server;
  SoupServerMessage *message;
  VivaTestResponse  *response;
  gsize              sent;
  gsize              written;
  guint              timeout_id;
  gulong             wrote_id;
  gulong             finished_id;
  gboolean           dropping;
  gboolean           stream;    /* counts against the capacity */
  guint              phase;     /* made as sent: head, pieces, tail, done */
  guint64            pieces;
} Serving;

static gboolean pump_cb (gpointer user_data);
static gboolean generate_cb (gpointer user_data);

static void
serving_free (Serving *serving)
{
  VivaTestServer *self = serving->server;

  g_queue_remove (&self->waiting, serving);
  if (serving->stream)
    {
      self->n_streams--;
      /* A slot is free: the next waiting request goes, from an idle since
       * this runs inside the message's signals. */
      if (self->servings != NULL && self->pump_id == 0 && !g_queue_is_empty (&self->waiting))
        self->pump_id = g_idle_add (pump_cb, self);
    }

  g_clear_handle_id (&serving->timeout_id, g_source_remove);
  g_clear_signal_handler (&serving->wrote_id, serving->message);
  g_clear_signal_handler (&serving->finished_id, serving->message);
  g_clear_object (&serving->message);
  viva_test_response_unref (serving->response);
  g_free (serving);
}

/* Frees @serving: its handlers and timeouts go with it. */
static void
serving_done (Serving *serving)
{
  g_ptr_array_remove_fast (serving->server->servings, serving);
}

static void
drop_connection (Serving *serving)
{
  g_autoptr(SoupServerMessage) message = g_object_ref (serving->message);
  g_autoptr(GIOStream) stream = NULL;

  /* Done first: stealing may emit "finished". */
  serving_done (serving);
  stream = soup_server_message_steal_connection (message);
  if (stream != NULL)
    g_io_stream_close (stream, NULL, NULL);
}

static gboolean
drop_idle_cb (gpointer user_data)
{
  Serving *serving = user_data;

  serving->timeout_id = 0;
  drop_connection (serving);
  return G_SOURCE_REMOVE;
}

static void
wrote_body_data_cb (SoupServerMessage *message,
                    guint              chunk_size,
                    Serving           *serving)
{
  serving->written += chunk_size;

  /* A body made as it is sent: the next chunk once this one is out, so a
   * client that stops reading stops the server too. */
  if (serving->response->piece != NULL && serving->phase < 3 &&
      serving->written >= serving->sent && serving->timeout_id == 0)
    serving->timeout_id = serving->response->chunk_delay > 0
                          ? g_timeout_add (serving->response->chunk_delay, generate_cb, serving)
                          : g_idle_add (generate_cb, serving);

  if (serving->dropping && serving->written >= serving->sent && serving->timeout_id == 0)
    serving->timeout_id = g_timeout_add (20, drop_idle_cb, serving);
}

static gsize
next_boundary (Serving *serving)
{
  VivaTestResponse *response = serving->response;
  gsize length = g_bytes_get_size (response->body);
  gsize end = length;

  if (response->chunk_size > 0)
    end = MIN (end, (serving->sent / response->chunk_size + 1) * response->chunk_size);

  for (guint i = 0; i < response->splits->len; i++)
    {
      gsize offset = g_array_index (response->splits, gsize, i);

      if (offset > serving->sent)
        {
          end = MIN (end, offset);
          break;
        }
    }

  if (response->stall_after >= 0 && (gsize)response->stall_after > serving->sent)
    end = MIN (end, (gsize)response->stall_after);
  if (response->drop_after >= 0 && (gsize)response->drop_after > serving->sent)
    end = MIN (end, (gsize)response->drop_after);

  return end;
}

static gboolean serve_more_cb (gpointer user_data);

static void
append_piece (GString    *out,
              const char *piece,
              guint64     number)
{
  const char *mark;

  while ((mark = strstr (piece, "@N@")))
    {
      g_string_append_len (out, piece, mark - piece);
      g_string_append_printf (out, "%" G_GUINT64_FORMAT, number);
      piece = mark + 3;
    }
  g_string_append (out, piece);
}

/* The next chunk of a body made as it is sent: about 64 KiB of pieces, or
 * one piece a chunk when the pieces are paced. */
static void
serve_generated (Serving *serving)
{
  VivaTestResponse *response = serving->response;
  SoupMessageBody *body = soup_server_message_get_response_body (serving->message);
  g_autoptr(GString) chunk = g_string_new (NULL);
  guint64 per_chunk = response->chunk_delay > 0 ? 1 : MAX (1, 65536 / MAX (strlen (response->piece), 1));

  if (serving->phase == 0)
    {
      /* Sent chunks are let go of, or the server would hold it all. */
      soup_message_body_set_accumulate (body, FALSE);
      g_string_append_len (chunk, g_bytes_get_data (response->body, NULL), g_bytes_get_size (response->body));
      serving->phase = 1;
    }

  while (serving->phase == 1 && per_chunk-- > 0)
    {
      if (response->n_pieces > 0 && serving->pieces >= response->n_pieces)
        break;
      append_piece (chunk, response->piece, serving->pieces++);
    }

  if (serving->phase == 1 && response->n_pieces > 0 && serving->pieces >= response->n_pieces)
    {
      g_string_append (chunk, response->tail);
      serving->phase = 2;
    }

  if (chunk->len > 0)
    {
      soup_message_body_append (body, SOUP_MEMORY_COPY, chunk->str, chunk->len);
      serving->sent += chunk->len;
      serving->server->bytes_sent += chunk->len;
    }

  if (serving->phase == 2)
    {
      serving->phase = 3;
      soup_message_body_complete (body);
      soup_server_message_unpause (serving->message);
      serving_done (serving);
      return;
    }

  soup_server_message_unpause (serving->message);
}

static gboolean
generate_cb (gpointer user_data)
{
  Serving *serving = user_data;

  serving->timeout_id = 0;
  serve_generated (serving);
  return G_SOURCE_REMOVE;
}

static void
serve_more (Serving *serving)
{
  VivaTestResponse *response = serving->response;
  SoupMessageBody *body = soup_server_message_get_response_body (serving->message);
  gsize length = g_bytes_get_size (response->body);
  const char *data = g_bytes_get_data (response->body, NULL);

  if (response->piece != NULL)
    return serve_generated (serving);

  while (TRUE)
    {
      gsize end;

      if (response->drop_after >= 0 && serving->sent >= (gsize)response->drop_after)
        {
          serving->dropping = TRUE;
          if (serving->written >= serving->sent)
            serving->timeout_id = g_timeout_add (20, drop_idle_cb, serving);
          soup_server_message_unpause (serving->message);
          return;
        }

      if (response->stall_after >= 0 && serving->sent >= (gsize)response->stall_after)
        {
          soup_server_message_unpause (serving->message);
          return;
        }

      if (serving->sent >= length)
        {
          soup_message_body_complete (body);
          soup_server_message_unpause (serving->message);
          serving_done (serving);
          return;
        }

      end = next_boundary (serving);
      soup_message_body_append (body, SOUP_MEMORY_COPY, data + serving->sent, end - serving->sent);
      serving->sent = end;

      if (response->chunk_delay > 0 && serving->sent < length)
        {
          soup_server_message_unpause (serving->message);
          serving->timeout_id = g_timeout_add (response->chunk_delay, serve_more_cb, serving);
          return;
        }
    }
}

static gboolean
serve_more_cb (gpointer user_data)
{
  Serving *serving = user_data;

  serving->timeout_id = 0;
  serve_more (serving);
  return G_SOURCE_REMOVE;
}

static gboolean
send_headers_cb (gpointer user_data)
{
  Serving *serving = user_data;

  serving->timeout_id = 0;
  serve_more (serving);
  return G_SOURCE_REMOVE;
}

static void
start_serving (Serving *serving)
{
  if (serving->response->header_delay > 0)
    serving->timeout_id = g_timeout_add (serving->response->header_delay, send_headers_cb, serving);
  else
    serve_more (serving);
}

static gboolean
pump_cb (gpointer user_data)
{
  VivaTestServer *self = user_data;

  self->pump_id = 0;
  while (self->n_streams < self->max_streams && !g_queue_is_empty (&self->waiting))
    {
      Serving *serving = g_queue_pop_head (&self->waiting);

      serving->stream = TRUE;
      self->n_streams++;
      self->peak_streams = MAX (self->peak_streams, self->n_streams);
      start_serving (serving);
    }

  return G_SOURCE_REMOVE;
}

static void
message_finished_cb (SoupServerMessage *message,
                     Serving           *serving)
{
  serving_done (serving);
}

typedef struct
{
  VivaTestResponder func;
  gpointer          user_data;
} Responder;

static char *
make_key (const char *method,
          const char *path)
{
  return g_strdup_printf ("%s %s", method, path);
}

static void
handler_cb (SoupServer        *server,
            SoupServerMessage *message,
            const char        *path,
            GHashTable        *query,
            gpointer           user_data)
{
  VivaTestServer *self = user_data;
  VivaTestRequest *request = g_new0 (VivaTestRequest, 1);
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (message);
  SoupMessageHeadersIter iter;
  g_autofree char *key = NULL;
  VivaTestResponse *response = NULL;
  Responder *responder;
  gboolean stream;
  GQueue *queue;
  Serving *serving;
  const char *name;
  const char *value;

  request->method = g_strdup (soup_server_message_get_method (message));
  request->path = g_strdup (path);
  request->headers = soup_message_headers_new (SOUP_MESSAGE_HEADERS_REQUEST);
  soup_message_headers_iter_init (&iter, headers);
  while (soup_message_headers_iter_next (&iter, &name, &value))
    soup_message_headers_append (request->headers, name, value);
  request->body = soup_message_body_flatten (soup_server_message_get_request_body (message));
  g_ptr_array_add (self->requests, request);

  key = make_key (request->method, path);
  if ((queue = g_hash_table_lookup (self->queues, key)) && !g_queue_is_empty (queue))
    response = g_queue_pop_head (queue);
  else if ((responder = g_hash_table_lookup (self->responders, key)))
    response = responder->func (self, request, responder->user_data);
  else if ((response = g_hash_table_lookup (self->defaults, key)))
    viva_test_response_ref (response);
  else
    {
      g_autofree char *text = g_strdup_printf ("{\"error\":\"nothing scripted for %s\"}", key);

      response = viva_test_response_new_json (404, text);
    }

  /* A stream beyond the capacity waits its turn, or is turned away as
   * Ollama does when its queue is full. */
  stream = self->max_streams > 0 && response->status == 200 && g_str_equal (request->method, "POST");
  if (stream && self->n_streams >= self->max_streams && self->waiting.length >= self->max_queue)
    {
      viva_test_response_unref (response);
      response = viva_test_response_new_busy (503, 0);
      self->n_turned_away++;
      stream = FALSE;
    }

  soup_server_message_set_status (message, response->status, NULL);
  if (response->content_type != NULL)
    soup_message_headers_set_content_type (soup_server_message_get_response_headers (message),
                                           response->content_type, NULL);
  for (guint i = 0; i + 1 < response->headers->len; i += 2)
    soup_message_headers_append (soup_server_message_get_response_headers (message),
                                 g_ptr_array_index (response->headers, i),
                                 g_ptr_array_index (response->headers, i + 1));
  soup_message_headers_set_encoding (soup_server_message_get_response_headers (message),
                                     SOUP_ENCODING_CHUNKED);

  serving = g_new0 (Serving, 1);
  serving->server = self;
  serving->message = g_object_ref (message);
  serving->response = response;
  g_ptr_array_add (self->servings, serving);
  serving->finished_id = g_signal_connect (message, "finished", G_CALLBACK (message_finished_cb), serving);
  serving->wrote_id = g_signal_connect (message, "wrote-body-data", G_CALLBACK (wrote_body_data_cb), serving);

  soup_server_message_pause (message);
  if (stream && self->n_streams >= self->max_streams)
    {
      g_queue_push_tail (&self->waiting, serving);
      return;
    }

  if (stream)
    {
      serving->stream = TRUE;
      self->n_streams++;
      self->peak_streams = MAX (self->peak_streams, self->n_streams);
    }
  start_serving (serving);
}

static void
viva_test_server_dispose (GObject *object)
{
  VivaTestServer *self = (VivaTestServer *)object;

  if (self->server != NULL)
    soup_server_disconnect (self->server);
  g_clear_object (&self->server);
  g_clear_pointer (&self->servings, g_ptr_array_unref);
  g_clear_handle_id (&self->pump_id, g_source_remove);
  g_queue_clear (&self->waiting);

  G_OBJECT_CLASS (viva_test_server_parent_class)->dispose (object);
}

static void
viva_test_server_finalize (GObject *object)
{
  VivaTestServer *self = (VivaTestServer *)object;

  g_free (self->url);
  g_hash_table_unref (self->queues);
  g_hash_table_unref (self->defaults);
  g_hash_table_unref (self->responders);
  g_ptr_array_unref (self->requests);

  G_OBJECT_CLASS (viva_test_server_parent_class)->finalize (object);
}

static void
viva_test_server_class_init (VivaTestServerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = viva_test_server_dispose;
  object_class->finalize = viva_test_server_finalize;
}

static void
free_queue (GQueue *queue)
{
  g_queue_free_full (queue, (GDestroyNotify)viva_test_response_unref);
}

static void
viva_test_server_init (VivaTestServer *self)
{
  self->queues = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify)free_queue);
  self->defaults = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify)viva_test_response_unref);
  self->responders = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->requests = g_ptr_array_new_with_free_func ((GDestroyNotify)_viva_test_request_free);
  self->servings = g_ptr_array_new_with_free_func ((GDestroyNotify)serving_free);
  g_queue_init (&self->waiting);
}

/**
 * viva_test_server_new:
 *
 * Listens on 127.0.0.1 on a free port; serves on the thread-default main
 * context, so the test must run its main loop while a client talks to it.
 */
VivaTestServer *
viva_test_server_new (void)
{
  VivaTestServer *self = g_object_new (VIVA_TYPE_TEST_SERVER, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  GSList *uris;

  self->server = soup_server_new ("server-header", "viva-test-server", NULL);
  soup_server_add_handler (self->server, NULL, handler_cb, self, NULL);
  soup_server_listen (self->server, address, 0, &error);
  g_assert_no_error (error);

  uris = soup_server_get_uris (self->server);
  g_assert_nonnull (uris);
  self->url = g_strdup_printf ("http://127.0.0.1:%d", g_uri_get_port (uris->data));
  g_slist_free_full (uris, (GDestroyNotify)g_uri_unref);

  return self;
}

/* "http://127.0.0.1:PORT", without a trailing slash. */
const char *
viva_test_server_get_url (VivaTestServer *self)
{
  return self->url;
}

/* The URL plus "/v1", as an OpenAI-compatible base URL. */
char *
viva_test_server_get_base_url (VivaTestServer *self)
{
  return g_strconcat (self->url, "/v1", NULL);
}

/* @response answers the next request for @method @path not yet answered
 * by an earlier queued one. A reference is taken. */
void
viva_test_server_queue (VivaTestServer   *self,
                        const char       *method,
                        const char       *path,
                        VivaTestResponse *response)
{
  g_autofree char *key = make_key (method, path);
  GQueue *queue;

  if (!(queue = g_hash_table_lookup (self->queues, key)))
    {
      queue = g_queue_new ();
      g_hash_table_insert (self->queues, g_steal_pointer (&key), queue);
    }

  g_queue_push_tail (queue, viva_test_response_ref (response));
}

/* @response answers every request for @method @path once its queue is
 * empty; %NULL removes the default. */
void
viva_test_server_set_default (VivaTestServer   *self,
                              const char       *method,
                              const char       *path,
                              VivaTestResponse *response)
{
  if (response != NULL)
    g_hash_table_replace (self->defaults, make_key (method, path), viva_test_response_ref (response));
  else
    {
      g_autofree char *key = make_key (method, path);

      g_hash_table_remove (self->defaults, key);
    }
}

/**
 * viva_test_server_set_responder:
 * @responder: (nullable): builds each response; %NULL removes it
 */
void
viva_test_server_set_responder (VivaTestServer    *self,
                                const char        *method,
                                const char        *path,
                                VivaTestResponder  responder,
                                gpointer           user_data)
{
  Responder *entry;

  if (responder == NULL)
    {
      g_autofree char *key = make_key (method, path);

      g_hash_table_remove (self->responders, key);
      return;
    }

  entry = g_new0 (Responder, 1);
  entry->func = responder;
  entry->user_data = user_data;
  g_hash_table_replace (self->responders, make_key (method, path), entry);
}

/**
 * viva_test_server_set_capacity:
 * @max_streams: POST requests answered 200 that are served at once (as
 *   OLLAMA_NUM_PARALLEL or vLLM's max-num-seqs); 0 for no limit
 * @max_queue: how many more wait, not started (OLLAMA_MAX_QUEUE); beyond
 *   that a request gets Ollama's 503
 */
void
viva_test_server_set_capacity (VivaTestServer *self,
                               guint           max_streams,
                               guint           max_queue)
{
  self->max_streams = max_streams;
  self->max_queue = max_queue;
}

/* The most streams served at once so far. */
guint
viva_test_server_get_peak_streams (VivaTestServer *self)
{
  return self->peak_streams;
}

/* How many requests the full queue turned away with a 503. */
guint
viva_test_server_get_n_turned_away (VivaTestServer *self)
{
  return self->n_turned_away;
}

static char *
models_json (const char * const *models,
             const char         *array_member,
             const char         *name_member,
             const char         *extra)
{
  g_autoptr(GString) out = g_string_new (NULL);

  g_string_append_printf (out, "{%s\"%s\":", extra, array_member);
  if (models == NULL)
    g_string_append (out, "null");
  else
    {
      g_string_append_c (out, '[');
      for (guint i = 0; models[i] != NULL; i++)
        {
          g_autofree char *name = _viva_test_json_string (models[i]);

          g_string_append_printf (out, "%s{\"%s\":%s,\"object\":\"model\",\"created\":1730000000,\"owned_by\":\"test\"}",
                                  i > 0 ? "," : "", name_member, name);
        }
      g_string_append_c (out, ']');
    }
  g_string_append_c (out, '}');

  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* GET /v1/models lists @models (%NULL: `"data": null`, as Ollama says
 * with no model installed). */
void
viva_test_server_serve_models (VivaTestServer     *self,
                               const char * const *models)
{
  g_autofree char *json = models_json (models, "data", "id", "\"object\":\"list\",");
  g_autoptr(VivaTestResponse) response = viva_test_response_new_json (200, json);

  viva_test_server_set_default (self, "GET", "/v1/models", response);
}

/* Answers like Ollama @version: /api/version, /api/tags and /v1/models. */
void
viva_test_server_serve_ollama (VivaTestServer     *self,
                               const char         *version,
                               const char * const *models)
{
  g_autofree char *version_json = g_strdup_printf ("{\"version\":\"%s\"}", version);
  g_autofree char *tags_json = models_json (models != NULL ? models : (const char * const []) { NULL },
                                            "models", "name", "");
  g_autoptr(VivaTestResponse) version_response = viva_test_response_new_json (200, version_json);
  g_autoptr(VivaTestResponse) tags_response = viva_test_response_new_json (200, tags_json);

  viva_test_server_set_default (self, "GET", "/api/version", version_response);
  viva_test_server_set_default (self, "GET", "/api/tags", tags_response);
  viva_test_server_serve_models (self, models);
}

guint
viva_test_server_get_n_requests (VivaTestServer *self)
{
  return self->requests->len;
}

const VivaTestRequest *
viva_test_server_get_request (VivaTestServer *self,
                              guint           index)
{
  g_assert_cmpuint (index, <, self->requests->len);
  return g_ptr_array_index (self->requests, index);
}

/* The @nth (from 0) request for @method @path, or %NULL. */
const VivaTestRequest *
viva_test_server_find_request (VivaTestServer *self,
                               const char     *method,
                               const char     *path,
                               guint           nth)
{
  for (guint i = 0; i < self->requests->len; i++)
    {
      const VivaTestRequest *request = g_ptr_array_index (self->requests, i);

      if (g_str_equal (request->method, method) && g_str_equal (request->path, path) && nth-- == 0)
        return request;
    }

  return NULL;
}

guint
viva_test_server_count_requests (VivaTestServer *self,
                                 const char     *method,
                                 const char     *path)
{
  guint count = 0;

  for (guint i = 0; i < self->requests->len; i++)
    {
      const VivaTestRequest *request = g_ptr_array_index (self->requests, i);

      count += g_str_equal (request->method, method) && g_str_equal (request->path, path);
    }

  return count;
}

void
viva_test_server_clear_requests (VivaTestServer *self)
{
  g_ptr_array_set_size (self->requests, 0);
}

/* Responses still being sent: 0 once every client has its whole answer or
 * has closed the connection. */
guint
viva_test_server_get_n_serving (VivaTestServer *self)
{
  return self->servings->len;
}

/* The bytes of bodies made as they are sent, so far. */
guint64
viva_test_server_get_bytes_sent (VivaTestServer *self)
{
  return self->bytes_sent;
}

/* An address where nothing listens, for "connection refused". */
char *
viva_test_get_unused_url (void)
{
  g_autoptr(GSocket) socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, NULL);
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;
  g_autoptr(GError) error = NULL;

  g_socket_bind (socket, address, FALSE, &error);
  g_assert_no_error (error);
  bound = g_socket_get_local_address (socket, &error);
  g_assert_no_error (error);

  return g_strdup_printf ("http://127.0.0.1:%u/v1",
                          g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound)));
}

/* tests/<area>/fixtures/<name> in the source tree. */
char *
viva_test_fixture_path (const char *area,
                        const char *name)
{
  return g_test_build_filename (G_TEST_DIST, area, "fixtures", name, NULL);
}

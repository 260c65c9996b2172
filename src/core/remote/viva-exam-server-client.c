/* viva-exam-server-client.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "viva-exam-server-client-private.h"
#include "viva-json-bounded.h"

/* The client of an exam server: one SoupSession for one exam link. The
 * certificate is PINNED: the session has no certificate database, so every
 * handshake asks the message's accept-certificate, which takes exactly the
 * certificate whose SHA-256 the link carries and no other (a lab's own
 * authority, the system's, a prompt: none of them is asked). The token
 * goes out only after that handshake. No proxy is used either: the exam
 * server is on the lab's network, and a student's proxy setting must not
 * stand between.
 *
 * A server is hostile input like any other: an answer is read up to a
 * bound (the Content-Length is checked first), its nesting measured
 * before it is parsed, and the server's message is taken only as text of
 * bounded length. The link's addresses are tried in turn; the one that
 * answered is tried first next time.
 *
 * Connections are kept: libsoup opens a new one (a handshake) for every
 * POST unless the message is marked idempotent, so every message is, and
 * a POST that finds its kept connection closed by the server is sent
 * once more on a new one. The pin is checked at each handshake; each
 * answer's peer certificate is then the one checked, or hashed again. */

#define DEFAULT_TIMEOUT_S 30
#define MAX_ERROR_BODY (64 * 1024)
#define MAX_DEPTH 64
#define READ_CHUNK 65536
#define MAX_CONNS_PER_HOST 8
/* Below the server's idle timeout (60 s), so a kept connection is rarely
 * one the server just closed. */
#define KEPT_IDLE_S 30

struct _VivaExamServerClient
{
  GObject       parent_instance;

  VivaExamLink *link;
  SoupSession  *session;
  char         *token;
  guint         timeout;
  guint         current;
  gboolean      keep_alive;
  guint         handshakes;
  GTlsCertificate *pinned;     /* the peer certificate last found pinned */
  GHashTable   *connections;   /* ids of connections that gave an answer */
};

enum {
  PROP_0,
  PROP_LINK,
  PROP_TOKEN,
  PROP_TIMEOUT,
  PROP_KEEP_ALIVE,
  PROP_HANDSHAKES,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (VivaExamServerClient, viva_exam_server_client, G_TYPE_OBJECT)

const char *
viva_code_kind_to_string (VivaCodeKind kind)
{
  switch (kind)
    {
    case VIVA_CODE_KIND_RUN:
      return "run";
    case VIVA_CODE_KIND_SUBMIT:
      return "submit";
    case VIVA_CODE_KIND_AUTOSAVE:
    default:
      return "autosave";
    }
}

static void
viva_exam_server_client_dispose (GObject *object)
{
  VivaExamServerClient *self = (VivaExamServerClient *)object;

  if (self->session != NULL)
    soup_session_abort (self->session);
  g_clear_object (&self->session);
  g_clear_object (&self->link);
  g_clear_object (&self->pinned);

  G_OBJECT_CLASS (viva_exam_server_client_parent_class)->dispose (object);
}

static void
viva_exam_server_client_finalize (GObject *object)
{
  VivaExamServerClient *self = (VivaExamServerClient *)object;

  g_clear_pointer (&self->token, g_free);
  g_clear_pointer (&self->connections, g_hash_table_unref);

  G_OBJECT_CLASS (viva_exam_server_client_parent_class)->finalize (object);
}

static void
viva_exam_server_client_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  VivaExamServerClient *self = VIVA_EXAM_SERVER_CLIENT (object);

  switch (prop_id)
    {
    case PROP_LINK:
      g_value_set_object (value, self->link);
      break;

    case PROP_TOKEN:
      g_value_set_string (value, self->token);
      break;

    case PROP_TIMEOUT:
      g_value_set_uint (value, self->timeout);
      break;

    case PROP_KEEP_ALIVE:
      g_value_set_boolean (value, self->keep_alive);
      break;

    case PROP_HANDSHAKES:
      g_value_set_uint (value, self->handshakes);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_exam_server_client_set_property (GObject      *object,
                                      guint         prop_id,
                                      const GValue *value,
                                      GParamSpec   *pspec)
{
  VivaExamServerClient *self = VIVA_EXAM_SERVER_CLIENT (object);

  switch (prop_id)
    {
    case PROP_LINK:
      self->link = g_value_dup_object (value);
      break;

    case PROP_TOKEN:
      viva_exam_server_client_set_token (self, g_value_get_string (value));
      break;

    case PROP_TIMEOUT:
      viva_exam_server_client_set_timeout (self, g_value_get_uint (value));
      break;

    case PROP_KEEP_ALIVE:
      viva_exam_server_client_set_keep_alive (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_exam_server_client_constructed (GObject *object)
{
  VivaExamServerClient *self = (VivaExamServerClient *)object;

  G_OBJECT_CLASS (viva_exam_server_client_parent_class)->constructed (object);

  g_assert (VIVA_IS_EXAM_LINK (self->link));

  /* Each live defense stream holds a connection; saves need one more. */
  self->session = soup_session_new_with_options ("timeout", self->timeout,
                                                 "max-conns-per-host", MAX_CONNS_PER_HOST,
                                                 "idle-timeout", KEPT_IDLE_S,
                                                 "proxy-resolver", NULL,
                                                 "user-agent", "Viva/" PACKAGE_VERSION,
                                                 NULL);
  /* No database: the pin in accept_certificate_cb() is the only check. */
  soup_session_set_tls_database (self->session, NULL);
  soup_session_set_proxy_resolver (self->session, NULL);
  if (g_getenv ("VIVA_REMOTE_DEBUG"))
    {
      g_autoptr(SoupLogger) logger = soup_logger_new (SOUP_LOGGER_LOG_HEADERS);

      soup_session_add_feature (self->session, SOUP_SESSION_FEATURE (logger));
    }
}

static void
viva_exam_server_client_class_init (VivaExamServerClientClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = viva_exam_server_client_constructed;
  object_class->dispose = viva_exam_server_client_dispose;
  object_class->finalize = viva_exam_server_client_finalize;
  object_class->get_property = viva_exam_server_client_get_property;
  object_class->set_property = viva_exam_server_client_set_property;

  properties[PROP_LINK] =
    g_param_spec_object ("link", NULL, NULL, VIVA_TYPE_EXAM_LINK,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TOKEN] =
    g_param_spec_string ("token", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TIMEOUT] =
    g_param_spec_uint ("timeout", NULL, NULL, 1, 3600, DEFAULT_TIMEOUT_S,
                       G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* FALSE: libsoup's own rule, as before connections were kept for every
   * call (a POST opens a connection, and a handshake, of its own); the
   * benchmark compares the two. */
  properties[PROP_KEEP_ALIVE] =
    g_param_spec_boolean ("keep-alive", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_HANDSHAKES] =
    g_param_spec_uint ("handshakes", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
viva_exam_server_client_init (VivaExamServerClient *self)
{
  self->timeout = DEFAULT_TIMEOUT_S;
  self->keep_alive = TRUE;
  self->connections = g_hash_table_new (NULL, NULL);
}

/**
 * viva_exam_server_client_new:
 * @link: the exam link (its addresses, its exam, its certificate's pin)
 *
 * Returns: (transfer full): a client with no token yet
 */
VivaExamServerClient *
viva_exam_server_client_new (VivaExamLink *link)
{
  g_return_val_if_fail (VIVA_IS_EXAM_LINK (link), NULL);

  return g_object_new (VIVA_TYPE_EXAM_SERVER_CLIENT, "link", link, NULL);
}

VivaExamLink *
viva_exam_server_client_get_link (VivaExamServerClient *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_SERVER_CLIENT (self), NULL);

  return self->link;
}

const char *
viva_exam_server_client_get_exam_id (VivaExamServerClient *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_SERVER_CLIENT (self), NULL);

  return viva_exam_link_get_exam_id (self->link);
}

const char *
viva_exam_server_client_get_token (VivaExamServerClient *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_SERVER_CLIENT (self), NULL);

  return self->token;
}

void
viva_exam_server_client_set_token (VivaExamServerClient *self,
                                   const char           *token)
{
  g_return_if_fail (VIVA_IS_EXAM_SERVER_CLIENT (self));

  if (g_strcmp0 (self->token, token) == 0)
    return;

  g_free (self->token);
  self->token = g_strdup (token);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TOKEN]);
}

guint
viva_exam_server_client_get_timeout (VivaExamServerClient *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_SERVER_CLIENT (self), 0);

  return self->timeout;
}

gboolean
viva_exam_server_client_get_keep_alive (VivaExamServerClient *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_SERVER_CLIENT (self), FALSE);

  return self->keep_alive;
}

void
viva_exam_server_client_set_keep_alive (VivaExamServerClient *self,
                                        gboolean              keep_alive)
{
  g_return_if_fail (VIVA_IS_EXAM_SERVER_CLIENT (self));

  keep_alive = !!keep_alive;
  if (self->keep_alive == keep_alive)
    return;

  self->keep_alive = keep_alive;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_KEEP_ALIVE]);
}

/**
 * viva_exam_server_client_get_handshakes:
 *
 * Returns: the TLS handshakes that found the pinned certificate: one per
 *   connection the client opened
 */
guint
viva_exam_server_client_get_handshakes (VivaExamServerClient *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_SERVER_CLIENT (self), 0);

  return self->handshakes;
}

void
viva_exam_server_client_set_timeout (VivaExamServerClient *self,
                                     guint                 seconds)
{
  g_return_if_fail (VIVA_IS_EXAM_SERVER_CLIENT (self));

  if (self->timeout == seconds)
    return;

  self->timeout = seconds;
  if (self->session != NULL)
    soup_session_set_timeout (self->session, seconds);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIMEOUT]);
}

char *
_viva_exam_server_client_dup_address (VivaExamServerClient *self)
{
  return g_strdup_printf ("%s:%u", viva_exam_link_get_host (self->link, self->current),
                          viva_exam_link_get_port (self->link, self->current));
}

/* The request machinery. */

static char *
fingerprint_of (GTlsCertificate *certificate)
{
  g_autoptr(GByteArray) der = NULL;

  if (certificate == NULL)
    return NULL;
  g_object_get (certificate, "certificate", &der, NULL);
  if (der == NULL)
    return NULL;
  return g_compute_checksum_for_data (G_CHECKSUM_SHA256, der->data, der->len);
}

static gboolean
accept_certificate_cb (SoupMessage          *msg,
                       GTlsCertificate      *certificate,
                       GTlsCertificateFlags  errors,
                       VivaExamServerClient *self)
{
  g_autofree char *fingerprint = fingerprint_of (certificate);
  gboolean pinned = fingerprint != NULL &&
                    g_str_equal (fingerprint, viva_exam_link_get_fingerprint (self->link));

  /* The pin decides: an unknown authority is what a self-signed server
   * always has. Expiry is not checked: the lab's server made its own
   * certificate, and the fingerprint is what the teacher handed out. */
  if (!pinned)
    g_object_set_data (G_OBJECT (msg), "viva-pin-refused", GINT_TO_POINTER (TRUE));
  else
    {
      self->handshakes++;
      g_set_object (&self->pinned, certificate);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HANDSHAKES]);
    }
  return pinned;
}

typedef struct
{
  char         *method;
  char         *path;
  GBytes       *body;
  char         *accept;
  SoupMessage  *msg;
  GInputStream *stream;
  GByteArray   *bytes;
  gsize         max_bytes;
  guint         address;
  guint         tried;
  gboolean      json;
  gboolean      fresh;   /* sent again, on a connection of its own */
} Request;

static void
request_free (Request *request)
{
  g_free (request->method);
  g_free (request->path);
  g_clear_pointer (&request->body, g_bytes_unref);
  g_free (request->accept);
  g_clear_object (&request->msg);
  g_clear_object (&request->stream);
  g_clear_pointer (&request->bytes, g_byte_array_unref);
  g_free (request);
}

static void request_try (GTask *task);
static void read_cb (GObject *object, GAsyncResult *result, gpointer user_data);

static void
error_body_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Request *request = g_task_get_task_data (task);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(JsonNode) body = NULL;
  guint status = soup_message_get_status (request->msg);

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, NULL);
  g_clear_object (&request->msg);
  if (g_task_return_error_if_cancelled (task))
    return;
  if (bytes != NULL)
    body = viva_json_parse_bounded (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), MAX_DEPTH, NULL);

  g_task_return_error (task, _viva_exam_server_client_status_error (status, body));
}

static gboolean
is_unreachable (const GError *error)
{
  return error->domain == G_RESOLVER_ERROR ||
         g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED) ||
         g_error_matches (error, G_IO_ERROR, G_IO_ERROR_HOST_UNREACHABLE) ||
         g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NETWORK_UNREACHABLE) ||
         g_error_matches (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT) ||
         g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED);
}

static gboolean
is_stale (const GError *error)
{
  return g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED) ||
         g_error_matches (error, G_IO_ERROR, G_IO_ERROR_BROKEN_PIPE) ||
         g_error_matches (error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT);
}

static void
send_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  VivaExamServerClient *self = g_task_get_source_object (task);
  Request *request = g_task_get_task_data (task);
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *fingerprint = NULL;
  GTlsCertificate *peer;
  GCancellable *cancellable;
  goffset length;
  guint status;

  stream = soup_session_send_finish (SOUP_SESSION (object), result, &error);
  if (g_task_return_error_if_cancelled (task))
    return;

  if (stream == NULL)
    {
      g_autofree char *address = g_strdup_printf ("%s:%u", viva_exam_link_get_host (self->link, request->address),
                                                  viva_exam_link_get_port (self->link, request->address));

      if (g_object_get_data (G_OBJECT (request->msg), "viva-pin-refused") != NULL ||
          g_error_matches (error, G_TLS_ERROR, G_TLS_ERROR_BAD_CERTIFICATE))
        return g_task_return_error (task, _viva_exam_server_client_certificate_error (address));

      /* A kept connection the server had closed: nothing of the request
       * was answered, so it goes once more, on a new connection. */
      if (!request->fresh && is_stale (error) &&
          g_hash_table_contains (self->connections, GUINT_TO_POINTER (soup_message_get_connection_id (request->msg))))
        {
          request->fresh = TRUE;
          request->tried--;
          return request_try (g_steal_pointer (&task));
        }

      /* Another node may answer: the next address, until each was tried. */
      if (is_unreachable (error) && request->tried < viva_exam_link_get_n_addresses (self->link))
        {
          request->address = (request->address + 1) % viva_exam_link_get_n_addresses (self->link);
          return request_try (g_steal_pointer (&task));
        }

      self->current = request->address;
      return g_task_return_error (task, _viva_exam_server_client_network_error (self, error));
    }

  self->current = request->address;

  /* The handshake was pinned; this says so again for a connection that
   * was reused, whatever the TLS backend decided: the certificate the pin
   * took is known, any other is hashed and must match. */
  peer = soup_message_get_tls_peer_certificate (request->msg);
  if (peer == NULL || peer != self->pinned)
    {
      fingerprint = fingerprint_of (peer);
      if (fingerprint == NULL || !g_str_equal (fingerprint, viva_exam_link_get_fingerprint (self->link)))
        {
          g_autofree char *address = _viva_exam_server_client_dup_address (self);

          return g_task_return_error (task, _viva_exam_server_client_certificate_error (address));
        }
    }
  g_hash_table_add (self->connections, GUINT_TO_POINTER (soup_message_get_connection_id (request->msg)));

  status = soup_message_get_status (request->msg);
  if (!SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      cancellable = g_task_get_cancellable (task);
      g_input_stream_read_bytes_async (stream, MAX_ERROR_BODY, G_PRIORITY_DEFAULT, cancellable,
                                       error_body_cb, g_steal_pointer (&task));
      return;
    }

  request->stream = g_steal_pointer (&stream);
  if (!request->json)
    {
      g_task_return_pointer (task, g_object_ref (request->stream), g_object_unref);
      return;
    }

  length = soup_message_headers_get_content_length (soup_message_get_response_headers (request->msg));
  if (length > 0 && (guint64)length > request->max_bytes)
    return g_task_return_new_error (task, VIVA_REMOTE_ERROR, VIVA_REMOTE_ERROR_PROTOCOL, "%s",
                                    _("The exam server sent a longer answer than any it gives: ask the teacher to check the server."));
  request->bytes = g_byte_array_new ();
  cancellable = g_task_get_cancellable (task);
  g_input_stream_read_bytes_async (request->stream, READ_CHUNK, G_PRIORITY_DEFAULT,
                                   cancellable, read_cb, g_steal_pointer (&task));
}

static void
request_try (GTask *task)
{
  VivaExamServerClient *self = g_task_get_source_object (task);
  Request *request = g_task_get_task_data (task);
  g_autofree char *base = viva_exam_link_dup_base_uri (self->link, request->address);
  g_autofree char *uri = g_strconcat (base, request->path, NULL);
  SoupMessageHeaders *headers;

  request->tried++;
  g_clear_object (&request->msg);
  if (!(request->msg = soup_message_new (request->method, uri)))
    {
      g_task_return_new_error (task, VIVA_REMOTE_ERROR, VIVA_REMOTE_ERROR_INVALID_LINK, "%s",
                               _("The exam link does not make a server address: copy it again from the teacher."));
      g_object_unref (task);
      return;
    }

  g_signal_connect (request->msg, "accept-certificate", G_CALLBACK (accept_certificate_cb), self);
  /* libsoup keeps connections for idempotent methods only: a POST would
   * cost a handshake each. */
  if (request->fresh)
    soup_message_add_flags (request->msg, SOUP_MESSAGE_NEW_CONNECTION);
  else if (self->keep_alive)
    soup_message_add_flags (request->msg, SOUP_MESSAGE_IDEMPOTENT);
  headers = soup_message_get_request_headers (request->msg);
  if (self->token != NULL)
    {
      g_autofree char *authorization = g_strconcat ("Bearer ", self->token, NULL);

      soup_message_headers_replace (headers, "Authorization", authorization);
    }
  soup_message_headers_replace (headers, "Accept", request->accept ? request->accept : "application/json");
  if (request->body != NULL)
    soup_message_set_request_body_from_bytes (request->msg, "application/json", request->body);

  soup_session_send_async (self->session, request->msg, G_PRIORITY_DEFAULT, g_task_get_cancellable (task),
                           send_cb, task);
}

static GTask *
request_new (VivaExamServerClient *self,
             const char           *method,
             const char           *path,
             GBytes               *body,
             const char           *accept,
             GCancellable         *cancellable,
             GAsyncReadyCallback   callback,
             gpointer              user_data)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  Request *request = g_new0 (Request, 1);

  request->method = g_strdup (method);
  request->path = g_strdup (path);
  request->body = body ? g_bytes_ref (body) : NULL;
  request->accept = g_strdup (accept);
  request->address = self->current;
  g_task_set_task_data (task, request, (GDestroyNotify)request_free);
  return task;
}

void
_viva_exam_server_client_open_async (VivaExamServerClient *self,
                                     const char           *method,
                                     const char           *path,
                                     GBytes               *body,
                                     const char           *accept,
                                     GCancellable         *cancellable,
                                     GAsyncReadyCallback   callback,
                                     gpointer              user_data)
{
  GTask *task = request_new (self, method, path, body, accept, cancellable, callback, user_data);

  g_task_set_source_tag (task, _viva_exam_server_client_open_async);
  request_try (task);
}

/**
 * _viva_exam_server_client_open_finish:
 * @msg: (out) (transfer full) (optional): the message
 *
 * Returns: (transfer full): the response body's stream
 */
GInputStream *
_viva_exam_server_client_open_finish (VivaExamServerClient  *self,
                                      GAsyncResult          *result,
                                      SoupMessage          **msg,
                                      GError               **error)
{
  Request *request;

  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  request = g_task_get_task_data (G_TASK (result));
  if (msg != NULL)
    *msg = request->msg ? g_object_ref (request->msg) : NULL;
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* A JSON call: the body read whole (bounded), then parsed. */

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Request *request = g_task_get_task_data (task);
  VivaExamServerClient *self = g_task_get_source_object (task);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, &error);
  if (g_task_return_error_if_cancelled (task))
    return;
  if (bytes == NULL)
    return g_task_return_error (task, _viva_exam_server_client_network_error (self, error));

  if (g_bytes_get_size (bytes) > 0)
    {
      GCancellable *cancellable = g_task_get_cancellable (task);

      if (request->bytes->len + g_bytes_get_size (bytes) > request->max_bytes)
        return g_task_return_new_error (task, VIVA_REMOTE_ERROR, VIVA_REMOTE_ERROR_PROTOCOL, "%s",
                                        _("The exam server sent a longer answer than any it gives: ask the teacher to check the server."));
      g_byte_array_append (request->bytes, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
      g_input_stream_read_bytes_async (request->stream, READ_CHUNK, G_PRIORITY_DEFAULT,
                                       cancellable, read_cb, g_steal_pointer (&task));
      return;
    }

  /* The connection goes back to the pool now, not when the caller lets
   * go of the result. */
  g_clear_object (&request->stream);
  g_clear_object (&request->msg);

  node = viva_json_parse_bounded ((const char *)request->bytes->data, request->bytes->len, MAX_DEPTH, NULL);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return g_task_return_new_error (task, VIVA_REMOTE_ERROR, VIVA_REMOTE_ERROR_PROTOCOL, "%s",
                                    _("The exam server’s answer is not the exam server’s API: check the exam link."));

  g_task_return_pointer (task, json_object_ref (json_node_get_object (node)), (GDestroyNotify)json_object_unref);
}

void
_viva_exam_server_client_call_json (VivaExamServerClient *self,
                                    const char           *method,
                                    const char           *path,
                                    JsonObject           *body,
                                    gsize                 max_bytes,
                                    gpointer              source_tag,
                                    GCancellable         *cancellable,
                                    GAsyncReadyCallback   callback,
                                    gpointer              user_data)
{
  g_autoptr(GBytes) bytes = NULL;
  Request *request;
  GTask *task;

  if (body != NULL)
    {
      g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), body);
      char *text = json_to_string (node, FALSE);

      bytes = g_bytes_new_take (text, strlen (text));
    }

  task = request_new (self, method, path, bytes, NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, source_tag);
  request = g_task_get_task_data (task);
  request->json = TRUE;
  request->max_bytes = max_bytes;
  request_try (task);
}

JsonObject *
_viva_exam_server_client_call_json_finish (VivaExamServerClient  *self,
                                           GAsyncResult          *result,
                                           gpointer               source_tag,
                                           GError               **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == source_tag, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* A path under the exam; every piece put in it is escaped. */
char *
_viva_exam_server_client_exam_path (VivaExamServerClient *self,
                                    const char           *format,
                                    ...)
{
  g_autofree char *exam = g_uri_escape_string (viva_exam_link_get_exam_id (self->link), NULL, FALSE);
  g_autofree char *rest = NULL;
  va_list args;

  va_start (args, format);
  rest = g_strdup_vprintf (format, args);
  va_end (args);
  return g_strconcat ("/api/v1/exams/", exam, rest, NULL);
}


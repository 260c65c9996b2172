/* viva-server-api.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "viva-server-api.h"
#include "viva-server-keys.h"
#include "viva-server-limits.h"
#include "viva-server-routes-private.h"

/* The HTTPS front door: one SoupServer with TLS, one handler that finds the
 * route (viva-server-routes.c has the table), checks who calls and how
 * often, parses the body, and hands the request on. Everything a client can
 * send is hostile: headers and bodies are capped before they are read,
 * a connection that dawdles is closed, and any request that is wrong gets
 * a JSON error with a 4xx status while the server goes on serving. */

struct _VivaServerApi
{
  GObject             parent_instance;

  char               *state_dir;
  VivaServerStore    *store;
  SoupServer         *server;
  GHashTable         *exams;      /* id → VivaExamFile */
  VivaServerLimits   *limits;
  VivaServerDefenses *defenses;
  VivaServerClock    *clock;
  guint               port;
};

G_DEFINE_FINAL_TYPE (VivaServerApi, viva_server_api, G_TYPE_OBJECT)

const char *
viva_server_auth_to_string (VivaServerAuth auth)
{
  switch (auth)
    {
    case VIVA_SERVER_AUTH_NONE: return "none";
    case VIVA_SERVER_AUTH_STUDENT: return "student";
    case VIVA_SERVER_AUTH_TEACHER: return "teacher";
    case VIVA_SERVER_AUTH_WORKER: return "worker";
    default: g_assert_not_reached ();
    }
}

static void
set_json_body (SoupServerMessage *msg,
               guint              status,
               JsonObject        *object)
{
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), object);
  char *text = json_to_string (node, FALSE);
  SoupMessageHeaders *headers = soup_server_message_get_response_headers (msg);

  soup_server_message_set_status (msg, status,
                                  status == VIVA_SERVER_STATUS_TOO_MANY_REQUESTS ? "Too Many Requests" :
                                  status == VIVA_SERVER_STATUS_HEADERS_TOO_LARGE ? "Request Header Fields Too Large" :
                                  NULL);
  soup_message_headers_replace (headers, "Cache-Control", "no-store");
  soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_TAKE, text, strlen (text));
}

void
viva_server_message_error (SoupServerMessage *msg,
                           guint              status,
                           const char        *code,
                           const char        *message)
{
  g_autoptr(JsonObject) object = json_object_new ();
  JsonObject *error = json_object_new ();

  json_object_set_string_member (error, "code", code);
  json_object_set_string_member (error, "message", message);
  json_object_set_int_member (error, "status", status);
  json_object_set_object_member (object, "error", error);
  set_json_body (msg, status, object);
}

void
viva_server_reply_json (VivaServerRequest *request,
                        guint              status,
                        JsonObject        *object)
{
  set_json_body (request->msg, status, object);
}

void
viva_server_reply_error (VivaServerRequest *request,
                         guint              status,
                         const char        *code,
                         const char        *format,
                         ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  viva_server_message_error (request->msg, status, code, message);
}

/* A database that fails is the server's fault, never the client's; the
 * client is told to try again, the log says what broke. */
void
viva_server_reply_db_error (VivaServerRequest *request,
                            GError            *error)
{
  g_message ("database: %s", error ? error->message : "no row");
  /* A database that went away is back within seconds, or the node's
   * peers answer: the app waits this long and asks again. */
  soup_message_headers_replace (soup_server_message_get_response_headers (request->msg), "Retry-After", "2");
  viva_server_reply_error (request, SOUP_STATUS_SERVICE_UNAVAILABLE, "busy", "%s",
                           _("The exam server is busy: try again in a moment. Your work is kept."));
}

/* Matches @path against a route's pattern, filling @params. */
static gboolean
match_path (const char *pattern,
            const char *path,
            GHashTable *params)
{
  g_auto(GStrv) want = g_strsplit (pattern, "/", -1);
  g_auto(GStrv) have = g_strsplit (path, "/", -1);

  if (g_strv_length (want) != g_strv_length (have))
    return FALSE;

  for (guint i = 0; want[i] != NULL; i++)
    {
      gsize len = strlen (want[i]);

      if (len > 2 && want[i][0] == '{' && want[i][len - 1] == '}')
        {
          g_autofree char *value = g_uri_unescape_string (have[i], NULL);

          if (value == NULL || value[0] == '\0' || !g_utf8_validate (value, -1, NULL) ||
              strchr (value, '/') != NULL || strlen (value) > 128)
            return FALSE;
          g_hash_table_insert (params, g_strndup (want[i] + 1, len - 2), g_steal_pointer (&value));
        }
      else if (!g_str_equal (want[i], have[i]))
        return FALSE;
    }
  return TRUE;
}

static const char *
bearer_token (SoupServerMessage *msg)
{
  const char *header = soup_message_headers_get_one (soup_server_message_get_request_headers (msg), "Authorization");

  if (header == NULL || g_ascii_strncasecmp (header, "Bearer ", 7) != 0)
    return NULL;
  return header + 7;
}

/* Who is calling, and may they call this route for this exam? Replies and
 * returns FALSE when not. */
static gboolean
authorize (VivaServerApi         *self,
           VivaServerRequest     *request,
           const VivaServerRoute *route,
           JsonObject           **token_row)
{
  const char *token = bearer_token (request->msg);
  const char *exam_id = g_hash_table_lookup (request->params, "exam");
  g_autofree char *hash = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *row;
  const char *role;

  if (route->auth == VIVA_SERVER_AUTH_NONE)
    return TRUE;

  if (token == NULL || strlen (token) > 256)
    {
      soup_message_headers_replace (soup_server_message_get_response_headers (request->msg),
                                    "WWW-Authenticate", "Bearer");
      viva_server_reply_error (request, SOUP_STATUS_UNAUTHORIZED, "unauthorized", "%s",
                               _("Sign in first: this needs the token the sign-in gave."));
      return FALSE;
    }

  hash = viva_server_keys_hash_token (token);
  if (!(row = viva_server_store_find_token (self->store, hash, &error)))
    {
      if (error != NULL)
        viva_server_reply_db_error (request, error);
      else
        viva_server_reply_error (request, SOUP_STATUS_UNAUTHORIZED, "signed_out", "%s",
                                 _("This token is not valid any more (signed in elsewhere, or never given): sign in again."));
      return FALSE;
    }
  *token_row = row;

  role = json_object_get_string_member (row, "role");
  if (!g_str_equal (role, viva_server_auth_to_string (route->auth)))
    {
      viva_server_reply_error (request, SOUP_STATUS_FORBIDDEN, "forbidden", "%s",
                               route->auth == VIVA_SERVER_AUTH_TEACHER
                               ? _("Only the exam’s teacher token may do this.")
                               : route->auth == VIVA_SERVER_AUTH_WORKER
                               ? _("Only a grading worker’s token may do this (viva-server worker-token).")
                               : _("Only a signed-in student may do this."));
      return FALSE;
    }

  if (exam_id == NULL || !g_str_equal (exam_id, json_object_get_string_member (row, "exam_id")))
    {
      viva_server_reply_error (request, SOUP_STATUS_FORBIDDEN, "forbidden", "%s",
                               _("This token is for another exam."));
      return FALSE;
    }

  request->exam_id = json_object_get_string_member (row, "exam_id");
  request->student_id = json_object_get_string_member_with_default (row, "student_id", NULL);
  return TRUE;
}

static JsonObject *
parse_body (VivaServerRequest *request)
{
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (request->msg);
  SoupMessageBody *body = soup_server_message_get_request_body (request->msg);
  g_autoptr(GBytes) bytes = soup_message_body_flatten (body);
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  g_autoptr(GError) error = NULL;
  const char *type = soup_message_headers_get_content_type (headers, NULL);
  gsize length;
  const char *data = g_bytes_get_data (bytes, &length);
  JsonNode *root;

  if (type == NULL || g_ascii_strcasecmp (type, "application/json") != 0)
    {
      viva_server_reply_error (request, SOUP_STATUS_UNSUPPORTED_MEDIA_TYPE, "not_json", "%s",
                               _("Send the body as JSON (Content-Type: application/json)."));
      return NULL;
    }

  if (length == 0 || !g_utf8_validate (data, length, NULL) ||
      !json_parser_load_from_data (parser, data, length, &error) ||
      !(root = json_parser_get_root (parser)) || !JSON_NODE_HOLDS_OBJECT (root))
    {
      viva_server_reply_error (request, SOUP_STATUS_BAD_REQUEST, "bad_json", "%s",
                               _("The body is not a JSON object: send one, as the API document describes."));
      return NULL;
    }

  return json_object_ref (json_node_get_object (root));
}

static void
handle (SoupServer        *server,
        SoupServerMessage *msg,
        const char        *path,
        GHashTable        *query,
        gpointer           user_data)
{
  VivaServerApi *self = user_data;
  const char *method = soup_server_message_get_method (msg);
  g_autoptr(GHashTable) params = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(JsonObject) token_row = NULL;
  g_autoptr(JsonObject) body = NULL;
  VivaServerRequest request = { 0 };
  const VivaServerRoute *routes, *route = NULL;
  gboolean path_known = FALSE;
  GSocketAddress *remote;
  g_autofree char *client = NULL;
  guint n_routes;
  guint retry;

  /* Refused already, when its headers came (viva-server-limits.c). */
  if (soup_server_message_get_status (msg) != SOUP_STATUS_NONE)
    return;

  remote = soup_server_message_get_remote_address (msg);
  if (G_IS_INET_SOCKET_ADDRESS (remote))
    client = g_inet_address_to_string (g_inet_socket_address_get_address (G_INET_SOCKET_ADDRESS (remote)));
  else
    client = g_strdup ("unknown");

  request.api = self;
  request.msg = msg;
  request.params = params;
  request.query = query;
  request.client = client;

  if (!viva_server_limits_allow_request (self->limits, client, &retry))
    {
      g_autofree char *seconds = g_strdup_printf ("%u", retry);

      soup_message_headers_replace (soup_server_message_get_response_headers (msg), "Retry-After", seconds);
      viva_server_reply_error (&request, VIVA_SERVER_STATUS_TOO_MANY_REQUESTS, "rate_limited", "%s",
                               _("Too many requests from this PC: wait a moment and try again."));
      return;
    }

  routes = viva_server_routes_get (&n_routes);
  for (guint i = 0; i < n_routes && route == NULL; i++)
    {
      g_hash_table_remove_all (params);
      if (match_path (routes[i].path, path, params))
        {
          path_known = TRUE;
          if (g_str_equal (routes[i].method, method))
            route = &routes[i];
        }
    }

  if (route == NULL)
    {
      if (path_known)
        viva_server_reply_error (&request, SOUP_STATUS_METHOD_NOT_ALLOWED, "method_not_allowed",
                                 _("%s is not a method of %s: see the API document."), method, path);
      else
        viva_server_reply_error (&request, SOUP_STATUS_NOT_FOUND, "not_found", "%s",
                                 _("There is no such route: see the API document (data/viva-server.openapi.json)."));
      return;
    }

  if (!authorize (self, &request, route, &token_row))
    return;

  if (route->has_body && !(body = parse_body (&request)))
    return;
  request.body = body;

  route->handler (&request);
}

static void
viva_server_api_dispose (GObject *object)
{
  VivaServerApi *self = (VivaServerApi *)object;

  if (self->server != NULL)
    soup_server_disconnect (self->server);
  g_clear_object (&self->server);
  g_clear_object (&self->defenses);
  g_clear_object (&self->clock);

  G_OBJECT_CLASS (viva_server_api_parent_class)->dispose (object);
}

static void
viva_server_api_finalize (GObject *object)
{
  VivaServerApi *self = (VivaServerApi *)object;

  g_clear_pointer (&self->exams, g_hash_table_unref);
  g_clear_pointer (&self->limits, viva_server_limits_free);
  g_clear_object (&self->store);
  g_clear_pointer (&self->state_dir, g_free);

  G_OBJECT_CLASS (viva_server_api_parent_class)->finalize (object);
}

static void
viva_server_api_class_init (VivaServerApiClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = viva_server_api_dispose;
  object_class->finalize = viva_server_api_finalize;
}

static void
viva_server_api_init (VivaServerApi *self)
{
  self->exams = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  self->limits = viva_server_limits_new ();
}

VivaServerApi *
viva_server_api_new (const char       *state_dir,
                     VivaServerStore  *store,
                     GTlsCertificate  *certificate,
                     GError          **error)
{
  VivaServerApi *self;

  g_return_val_if_fail (G_IS_TLS_CERTIFICATE (certificate), NULL);

  self = g_object_new (VIVA_TYPE_SERVER_API, NULL);
  self->state_dir = g_strdup (state_dir);
  self->store = g_object_ref (store);
  self->server = soup_server_new ("tls-certificate", certificate,
                                  "server-header", "viva-server",
                                  NULL);
  soup_server_add_handler (self->server, NULL, handle, self, NULL);
  viva_server_limits_watch (self->limits, self->server);

  return self;
}

gboolean
viva_server_api_listen (VivaServerApi  *self,
                        const char     *host,
                        guint           port,
                        GError        **error)
{
  g_autoptr(GInetAddress) address = g_inet_address_new_from_string (host);
  g_autoptr(GSocketAddress) socket_address = NULL;
  GSList *uris;

  g_return_val_if_fail (VIVA_IS_SERVER_API (self), FALSE);

  if (address == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("“%s” is not an address to listen at: give a numeric address like 0.0.0.0 or ::."), host);
      return FALSE;
    }

  socket_address = g_inet_socket_address_new (address, port);
  if (!soup_server_listen (self->server, socket_address, SOUP_SERVER_LISTEN_HTTPS, error))
    return FALSE;

  uris = soup_server_get_uris (self->server);
  if (uris != NULL)
    self->port = g_uri_get_port (uris->data);
  g_slist_free_full (uris, (GDestroyNotify)g_uri_unref);

  return TRUE;
}

guint
viva_server_api_get_port (VivaServerApi *self)
{
  g_return_val_if_fail (VIVA_IS_SERVER_API (self), 0);
  return self->port;
}

VivaServerStore *
viva_server_api_get_store (VivaServerApi *self)
{
  g_return_val_if_fail (VIVA_IS_SERVER_API (self), NULL);
  return self->store;
}

const char *
viva_server_api_get_state_dir (VivaServerApi *self)
{
  g_return_val_if_fail (VIVA_IS_SERVER_API (self), NULL);
  return self->state_dir;
}

VivaServerDefenses *
viva_server_api_get_defenses (VivaServerApi *self)
{
  g_return_val_if_fail (VIVA_IS_SERVER_API (self), NULL);
  return self->defenses;
}

void
viva_server_api_set_defenses (VivaServerApi      *self,
                              VivaServerDefenses *defenses)
{
  g_return_if_fail (VIVA_IS_SERVER_API (self));
  g_set_object (&self->defenses, defenses);
}

/**
 * viva_server_api_get_clock:
 *
 * Returns: (transfer none) (nullable): the sittings the server runs, set
 *   by `serve`
 */
VivaServerClock *
viva_server_api_get_clock (VivaServerApi *self)
{
  g_return_val_if_fail (VIVA_IS_SERVER_API (self), NULL);
  return self->clock;
}

void
viva_server_api_set_clock (VivaServerApi   *self,
                           VivaServerClock *clock)
{
  g_return_if_fail (VIVA_IS_SERVER_API (self));
  g_set_object (&self->clock, clock);
}

VivaServerLimits *
_viva_server_api_get_limits (VivaServerApi *self)
{
  return self->limits;
}

/**
 * viva_server_api_get_exam:
 *
 * Returns: (transfer none) (nullable): the exam, read from the database
 *   once and kept; %NULL without @error when the server holds no such exam
 */
VivaExamFile *
viva_server_api_get_exam (VivaServerApi  *self,
                          const char     *exam_id,
                          GError        **error)
{
  g_autoptr(JsonObject) row = NULL;
  g_autoptr(GBytes) bytes = NULL;
  VivaExamFile *exam;
  const char *text;

  g_return_val_if_fail (VIVA_IS_SERVER_API (self), NULL);

  if ((exam = g_hash_table_lookup (self->exams, exam_id)))
    return exam;

  if (!(row = viva_server_store_get_exam (self->store, exam_id, error)))
    return NULL;

  text = json_object_get_string_member (row, "exam_json");
  bytes = g_bytes_new (text, strlen (text));
  if (!(exam = viva_exam_file_new_from_bytes (bytes, NULL, NULL, error)))
    return NULL;

  g_hash_table_insert (self->exams, g_strdup (exam_id), exam);
  return exam;
}

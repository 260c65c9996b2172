/* viva-exam-server-client-errors.c: what a failed call tells its caller
 *
 * A refused pin, a server away, a status the server answered: each a
 * VIVA_REMOTE_ERROR whose kind says whether trying again helps, with the
 * server's own sentence when it gave a short one.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "viva-exam-server-client-private.h"

#define MAX_SERVER_MESSAGE 400

GError *
_viva_exam_server_client_certificate_error (const char *address)
{
  return g_error_new (VIVA_REMOTE_ERROR, VIVA_REMOTE_ERROR_CERTIFICATE,
                      _("The server at %s is not this exam’s server: its certificate is not the one the exam link names, so nothing was sent to it. Ask the teacher for the exam link again."),
                      address);
}

GError *
_viva_exam_server_client_network_error (VivaExamServerClient *self,
                                        const GError         *error)
{
  g_autofree char *address = _viva_exam_server_client_dup_address (self);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return g_error_copy (error);
  /* Only a refused certificate is one: a handshake the server cut off
   * (a loaded server closes a slow one) is the server away. */
  if (g_error_matches (error, G_TLS_ERROR, G_TLS_ERROR_BAD_CERTIFICATE))
    return _viva_exam_server_client_certificate_error (address);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT))
    return g_error_new (VIVA_REMOTE_ERROR, VIVA_REMOTE_ERROR_OFFLINE,
                        _("The exam server at %s did not answer in time: your work is kept here and sent when the server is back."),
                        address);
  return g_error_new (VIVA_REMOTE_ERROR, VIVA_REMOTE_ERROR_OFFLINE,
                      _("The exam server at %s cannot be reached (%s): your work is kept here and sent when the server is back."),
                      address, error->message);
}

/* The server's sentence, if it gave a short one. */
static const char *
server_message (JsonNode   *body,
                const char *member)
{
  JsonObject *error;
  const char *text;

  if (body == NULL || !JSON_NODE_HOLDS_OBJECT (body) ||
      !json_object_has_member (json_node_get_object (body), "error"))
    return NULL;
  if (!JSON_NODE_HOLDS_OBJECT (json_object_get_member (json_node_get_object (body), "error")))
    return NULL;
  error = json_object_get_object_member (json_node_get_object (body), "error");
  if (!json_object_has_member (error, member) ||
      json_node_get_value_type (json_object_get_member (error, member)) != G_TYPE_STRING)
    return NULL;
  text = json_object_get_string_member (error, member);
  if (text == NULL || text[0] == '\0' || strlen (text) > MAX_SERVER_MESSAGE || !g_utf8_validate (text, -1, NULL))
    return NULL;
  return text;
}

GError *
_viva_exam_server_client_status_error (guint     status,
                                       JsonNode *body)
{
  const char *code = server_message (body, "code");
  const char *message = server_message (body, "message");
  VivaRemoteError kind;
  const char *fallback;

  if (status == SOUP_STATUS_UNAUTHORIZED && g_strcmp0 (code, "wrong_code") != 0)
    {
      kind = VIVA_REMOTE_ERROR_SIGNED_OUT;
      fallback = _("You were signed out (signed in on another PC, or never signed in): sign in again with your seat card’s code.");
    }
  else if (status == SOUP_STATUS_CONFLICT && (g_strcmp0 (code, "time_up") == 0 || g_strcmp0 (code, "defended") == 0))
    {
      kind = VIVA_REMOTE_ERROR_TIME_UP;
      fallback = _("The exam server takes nothing more for this: the time is up or the problem was handed in.");
    }
  else if (status == 429 || status == SOUP_STATUS_SERVICE_UNAVAILABLE || status >= 500)
    {
      kind = VIVA_REMOTE_ERROR_BUSY;
      fallback = _("The exam server is busy: Viva tries again in a moment. Your work is kept.");
    }
  else
    {
      kind = VIVA_REMOTE_ERROR_REJECTED;
      fallback = _("The exam server refused this request: check the exam link, or ask the teacher.");
    }

  return g_error_new_literal (VIVA_REMOTE_ERROR, kind, message ? message : fallback);
}

/* viva-cli-remote.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "viva-cli-remote.h"
#include "viva-cli-util.h"

/* viva-cli reaches an exam server only through the core's client
 * (src/core/remote); a command waits on a call by running the main loop
 * until the call's result is in. */

#define MAX_CODE_BYTES (512 * 1024)

/**
 * viva_cli_remote_client:
 * @token: (nullable): a student's or the teacher's token
 *
 * Returns: (transfer full): a client for @link, or %NULL with the link's error
 */
VivaExamServerClient *
viva_cli_remote_client (const char  *link,
                        const char  *token,
                        GError     **error)
{
  g_autoptr(VivaExamLink) parsed = viva_exam_link_parse (link, error);
  VivaExamServerClient *client;

  if (parsed == NULL)
    return NULL;
  client = viva_exam_server_client_new (parsed);
  viva_exam_server_client_set_token (client, token);
  return client;
}

void
viva_cli_remote_store (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  GAsyncResult **slot = user_data;

  *slot = g_object_ref (result);
}

GAsyncResult *
viva_cli_remote_wait (GAsyncResult **slot)
{
  while (*slot == NULL)
    g_main_context_iteration (NULL, TRUE);
  return *slot;
}

/* An `error` event with the error's kind (offline, signed_out, …), or
 * the sentence on standard error. */
void
viva_cli_remote_fail (const GError *error,
                      gboolean      json)
{
  if (json)
    {
      g_autoptr(JsonObject) object = json_object_new ();

      json_object_set_string_member (object, "kind", viva_remote_error_kind (error));
      json_object_set_string_member (object, "message", error->message);
      viva_cli_print_event ("error", object);
    }
  else
    viva_cli_fail ("%s", error->message);
}

/* The student's code file: text, and no larger than the server takes. */
char *
viva_cli_read_code (const char  *path,
                    GError     **error)
{
  g_autofree char *code = NULL;
  gsize length = 0;

  if (!g_file_get_contents (path, &code, &length, error))
    return NULL;
  if (length > MAX_CODE_BYTES || !g_utf8_validate (code, length, NULL) || memchr (code, '\0', length) != NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s is not a code file the exam server takes (UTF-8 text, at most 512 KiB)."), path);
      return NULL;
    }
  return g_steal_pointer (&code);
}

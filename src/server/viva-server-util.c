/* viva-server-util.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "viva-command-line.h"
#include "viva-file-writer.h"
#include "viva-json-bytes.h"
#include "viva-server-keys.h"
#include "viva-server-util.h"

static char *
default_state_dir (void)
{
  const char *env = g_getenv ("VIVA_SERVER_STATE_DIR");

  if (env != NULL && env[0] != '\0')
    return g_strdup (env);
  return g_build_filename (g_get_user_state_dir (), "viva-server", NULL);
}

void
viva_server_common_add_entries (VivaServerCommon *common,
                                GOptionContext   *context)
{
  GOptionEntry entries[] = {
    { "state-dir", 0, 0, G_OPTION_ARG_FILENAME, &common->state_dir,
      N_("The server’s state folder (default: $VIVA_SERVER_STATE_DIR, then ~/.local/state/viva-server)"), N_("DIR") },
    { "database", 0, 0, G_OPTION_ARG_STRING, &common->database,
      N_("Keep the data in this PostgreSQL database (postgresql://…) instead of the state folder’s SQLite; init remembers it"), N_("LINK") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &common->json, N_("Print one JSON event a line"), NULL },
    { NULL }
  };
  GOptionGroup *group = g_option_group_new ("common", _("Every command’s options:"),
                                            _("Show every command’s options"), NULL, NULL);

  g_option_group_add_entries (group, entries);
  g_option_group_set_translation_domain (group, GETTEXT_PACKAGE);
  g_option_context_set_main_group (context, group);
}

void
viva_server_common_clear (VivaServerCommon *common)
{
  g_clear_pointer (&common->state_dir, g_free);
  g_clear_pointer (&common->database, g_free);
}

int
viva_server_parse_options (GOptionContext    *context,
                           VivaServerCommon  *common,
                           int               *argc,
                           char            ***argv)
{
  if (!viva_command_line_parse ("viva-server", context, argc, argv))
    return VIVA_SERVER_EXIT_USAGE;

  if (common->state_dir == NULL)
    common->state_dir = default_state_dir ();
  else
    {
      char *absolute = g_canonicalize_filename (common->state_dir, NULL);

      g_free (common->state_dir);
      common->state_dir = absolute;
    }

  return VIVA_SERVER_EXIT_OK;
}

/**
 * viva_server_open_store:
 *
 * Returns: (transfer full) (nullable): the state folder's store (its
 *   SQLite, or the PostgreSQL of --database or of init), or %NULL after
 *   saying why (a folder that was never initialised is not made here)
 */
VivaServerStore *
viva_server_open_store (VivaServerCommon *common)
{
  g_autofree char *config = g_build_filename (common->state_dir, VIVA_SERVER_CONFIG_FILE, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) settings = NULL;
  VivaServerStore *store;

  if (!g_file_test (config, G_FILE_TEST_EXISTS))
    {
      viva_server_fail (common, _("%s is not an exam server’s state folder: run “viva-server init --state-dir %s” first."),
                        common->state_dir, common->state_dir);
      return NULL;
    }

  /* --database wins; without it, the database init was given. */
  if (common->database == NULL && (settings = viva_server_load_config (common->state_dir, NULL)))
    common->database = g_strdup (json_object_get_string_member_with_default (settings, "database", NULL));

  if (!(store = viva_server_store_open_database (common->state_dir, common->database, &error)))
    viva_server_fail (common, "%s", error->message);
  return store;
}

JsonObject *
viva_server_load_config (const char  *state_dir,
                         GError     **error)
{
  g_autofree char *path = g_build_filename (state_dir, VIVA_SERVER_CONFIG_FILE, NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonNode *root;

  if (!json_parser_load_from_file (parser, path, error))
    return NULL;
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s is not the server’s settings: run “viva-server init” again in a new folder."), path);
      return NULL;
    }
  return json_object_ref (json_node_get_object (root));
}

static char *
config_path (const char *state_dir,
             JsonObject *config,
             const char *member,
             const char *fallback)
{
  const char *path = json_object_get_string_member_with_default (config, member, NULL);

  if (path == NULL)
    return g_build_filename (state_dir, fallback, NULL);
  return g_canonicalize_filename (path, state_dir);
}

/**
 * viva_server_load_certificate:
 *
 * Returns: (transfer full): the server's certificate with its key: the one
 *   made at init, or the `tls_cert` and `tls_key` files init was given
 */
GTlsCertificate *
viva_server_load_certificate (const char  *state_dir,
                              JsonObject  *config,
                              GError     **error)
{
  g_autofree char *cert = config_path (state_dir, config, "tls_cert", VIVA_SERVER_TLS_CERT_FILE);
  g_autofree char *key = config_path (state_dir, config, "tls_key", VIVA_SERVER_TLS_KEY_FILE);
  g_autoptr(GError) local = NULL;
  GTlsCertificate *certificate = g_tls_certificate_new_from_files (cert, key, &local);

  if (certificate == NULL)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                 _("Could not read the TLS certificate %s or its key %s: %s"), cert, key, local->message);
  return certificate;
}

char *
viva_server_exam_link (JsonObject *config,
                       const char *exam_id,
                       const char *fingerprint)
{
  const char *host = json_object_get_string_member_with_default (config, "host", "localhost");
  gint64 port = json_object_get_int_member_with_default (config, "port", VIVA_SERVER_DEFAULT_PORT);
  g_autofree char *escaped = g_uri_escape_string (exam_id, NULL, FALSE);
  gboolean v6 = strchr (host, ':') != NULL;

  return g_strdup_printf ("viva://%s%s%s:%" G_GINT64_FORMAT "/%s#sha256=%s",
                          v6 ? "[" : "", host, v6 ? "]" : "", port, escaped, fingerprint);
}

/**
 * viva_server_parse_address:
 * @text: `HOST:PORT`, `[V6]:PORT` or `:PORT`
 */
gboolean
viva_server_parse_address (const char  *text,
                           char       **host,
                           guint       *port)
{
  const char *colon = strrchr (text, ':');
  g_autofree char *name = NULL;
  guint64 value;
  char *end;

  if (colon == NULL)
    return FALSE;
  value = g_ascii_strtoull (colon + 1, &end, 10);
  if (*end != '\0' || end == colon + 1 || value == 0 || value > 65535)
    return FALSE;

  name = g_strndup (text, colon - text);
  if (name[0] == '[')
    {
      gsize len = strlen (name);

      if (len < 2 || name[len - 1] != ']')
        return FALSE;
      name[len - 1] = '\0';
      memmove (name, name + 1, len - 1);
    }
  *host = name[0] ? g_steal_pointer (&name) : g_strdup ("0.0.0.0");
  *port = value;
  return TRUE;
}

/* Says why a command failed: on stderr, and as the last `error` event with
 * --json, so a script reading stdout sees the end too. */
void
viva_server_fail (VivaServerCommon *common,
                  const char       *format,
                  ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  g_printerr ("viva-server: %s\n", message);
  if (common != NULL && common->json)
    {
      g_autoptr(JsonObject) object = json_object_new ();

      json_object_set_string_member (object, "message", message);
      viva_server_print_event ("error", object);
    }
}

gboolean
viva_server_write_text (const char  *path,
                        const char  *text,
                        int          mode,
                        GError     **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GBytes) bytes = g_bytes_new_static (text, strlen (text));

  return viva_file_writer_write (file, bytes, mode, VIVA_FILE_WRITER_NONE, error);
}

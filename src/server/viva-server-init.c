/* viva-server-init.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <stdio.h>

#include "viva-json-bytes.h"
#include "viva-server-keys.h"
#include "viva-server-util.h"

/* viva-server init: the state folder (private), its database at the newest
 * schema, the TLS certificate (made here unless given) and the key that
 * signs reports. A folder already made is left alone: init never replaces
 * a key students' links or signed reports depend on. */

int
viva_server_init_command (int    argc,
                          char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_auto(VivaServerCommon) common = { 0 };
  g_autofree char *tls_cert = NULL;
  g_autofree char *tls_key = NULL;
  g_autofree char *listen = NULL;
  g_autofree char *host = NULL;
  g_autofree char *listen_host = NULL;
  g_autofree char *config_path = NULL;
  g_autofree char *cert_path = NULL;
  g_autofree char *key_path = NULL;
  g_autofree char *sign_path = NULL;
  g_autofree char *pub_path = NULL;
  g_autofree char *fingerprint = NULL;
  g_autofree char *text = NULL;
  g_autoptr(JsonObject) config = json_object_new ();
  g_autoptr(JsonObject) result = json_object_new ();
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GTlsCertificate) certificate = NULL;
  g_autoptr(VivaServerStore) store = NULL;
  g_autoptr(GError) error = NULL;
  guint port = VIVA_SERVER_DEFAULT_PORT;
  int status;
  GOptionEntry entries[] = {
    { "listen", 0, 0, G_OPTION_ARG_STRING, &listen, N_("Where serve listens (default: 0.0.0.0:8443)"), N_("ADDR:PORT") },
    { "host", 0, 0, G_OPTION_ARG_STRING, &host, N_("The name or address students’ PCs reach this server at, put in exam links and the certificate (default: this machine’s name)"), N_("HOST") },
    { "tls-cert", 0, 0, G_OPTION_ARG_FILENAME, &tls_cert, N_("A TLS certificate (PEM) to use instead of a self-signed one"), N_("FILE") },
    { "tls-key", 0, 0, G_OPTION_ARG_FILENAME, &tls_key, N_("The certificate’s private key (PEM)"), N_("FILE") },
    { NULL }
  };

  context = g_option_context_new (_("— make an exam server’s state folder"));
  viva_server_common_add_entries (&common, context);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if ((status = viva_server_parse_options (context, &common, &argc, &argv)) != VIVA_SERVER_EXIT_OK)
    return status;

  if (argc != 1)
    {
      viva_server_usage_error (context, "%s", _("init takes no arguments besides its options."));
      return VIVA_SERVER_EXIT_USAGE;
    }
  if ((tls_cert == NULL) != (tls_key == NULL))
    {
      viva_server_usage_error (context, "%s", _("Give --tls-cert and --tls-key together, or neither."));
      return VIVA_SERVER_EXIT_USAGE;
    }
  if (listen != NULL && !viva_server_parse_address (listen, &listen_host, &port))
    {
      viva_server_usage_error (context, _("“%s” is not an address to listen at: write it like 0.0.0.0:8443."), listen);
      return VIVA_SERVER_EXIT_USAGE;
    }
  if (host == NULL)
    host = g_strdup (g_get_host_name ());

  config_path = g_build_filename (common.state_dir, VIVA_SERVER_CONFIG_FILE, NULL);
  if (g_file_test (config_path, G_FILE_TEST_EXISTS))
    {
      viva_server_fail (&common, _("%s is already an exam server’s state folder; init leaves its keys alone. Use another folder for a new server."),
                        common.state_dir);
      return VIVA_SERVER_EXIT_FAILED;
    }

  if (g_mkdir_with_parents (common.state_dir, 0700) != 0 || g_chmod (common.state_dir, 0700) != 0)
    {
      viva_server_fail (&common, _("Could not make the folder %s: %s"), common.state_dir, g_strerror (errno));
      return VIVA_SERVER_EXIT_FAILED;
    }

  cert_path = g_build_filename (common.state_dir, VIVA_SERVER_TLS_CERT_FILE, NULL);
  key_path = g_build_filename (common.state_dir, VIVA_SERVER_TLS_KEY_FILE, NULL);
  sign_path = g_build_filename (common.state_dir, VIVA_SERVER_SIGNING_KEY_FILE, NULL);
  pub_path = g_build_filename (common.state_dir, VIVA_SERVER_SIGNING_PUB_FILE, NULL);

  json_object_set_string_member (config, "format", "viva-server/1");
  json_object_set_string_member (config, "listen", listen_host ? listen_host : "0.0.0.0");
  json_object_set_int_member (config, "port", port);
  json_object_set_string_member (config, "host", host);
  if (common.database != NULL)
    json_object_set_string_member (config, "database", common.database);
  if (tls_cert != NULL)
    {
      g_autofree char *cert = g_canonicalize_filename (tls_cert, NULL);
      g_autofree char *key = g_canonicalize_filename (tls_key, NULL);

      json_object_set_string_member (config, "tls_cert", cert);
      json_object_set_string_member (config, "tls_key", key);
    }
  else if (!viva_server_keys_make_tls (cert_path, key_path, host, &error))
    {
      viva_server_fail (&common, "%s", error->message);
      return VIVA_SERVER_EXIT_FAILED;
    }

  if (!(certificate = viva_server_load_certificate (common.state_dir, config, &error)) ||
      !viva_server_keys_make_signing (sign_path, pub_path, &error) ||
      !(store = viva_server_store_open_database (common.state_dir, common.database, &error)))
    {
      viva_server_fail (&common, "%s", error->message);
      return VIVA_SERVER_EXIT_FAILED;
    }

  /* Last: the settings file is what makes the folder a server's. */
  node = json_node_init_object (json_node_alloc (), config);
  text = json_to_string (node, TRUE);
  if (!viva_server_write_text (config_path, text, 0600, &error))
    {
      viva_server_fail (&common, "%s", error->message);
      return VIVA_SERVER_EXIT_FAILED;
    }

  fingerprint = viva_server_keys_fingerprint (certificate);
  json_object_set_string_member (result, "state_dir", common.state_dir);
  json_object_set_string_member (result, "fingerprint", fingerprint);
  json_object_set_string_member (result, "host", host);
  json_object_set_int_member (result, "port", port);
  json_object_set_int_member (result, "schema", viva_server_store_get_schema_version (store));
  json_object_set_string_member (result, "database", viva_server_store_get_where (store));
  json_object_set_string_member (result, "signing_key", pub_path);

  if (common.json)
    viva_server_print_event ("init", result);
  else
    {
      printf (_("Made the exam server’s state folder %s.\n"), common.state_dir);
      printf (_("TLS certificate SHA-256 fingerprint: %s\n"), fingerprint);
      printf (_("Reports are signed with the key whose public half is %s.\n"), pub_path);
      printf (_("Next: viva-server exam add EXAM.json --roster ROSTER.csv --state-dir %s\n"), common.state_dir);
    }

  return VIVA_SERVER_EXIT_OK;
}

/* viva-cli-report-verify.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "viva-cli-commands.h"
#include "viva-cli-util.h"
#include "viva-report-signature.h"

/* viva-cli report verify FILE… [--key FILE]: checks reports an exam
 * server signed, outside the server. With --key (the server's
 * viva-server-signing-key.pem) a valid signature means the server made
 * the report as it is; without it, only that the file matches the key its
 * own signature file names. */

int
viva_cli_report_verify (int    argc,
                        char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *key_path = NULL;
  g_autofree char *key = NULL;
  gboolean json = FALSE;
  guint valid = 0;
  int status;
  const GOptionEntry entries[] = {
    { "key", 0, 0, G_OPTION_ARG_FILENAME, &key_path, N_("The exam server’s public key (viva-server-signing-key.pem)"), N_("FILE") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print one JSON event a line"), NULL },
    { NULL }
  };

  context = g_option_context_new (_("FILE… — check an exam server’s signature on reports"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if ((status = viva_cli_parse_options (context, &argc, &argv)) != VIVA_CLI_EXIT_OK)
    return status;
  if (argc < 2)
    {
      viva_cli_usage_error (context, "%s", _("Name at least one report (NAME.json, its signature beside it as NAME.json.sig)."));
      return VIVA_CLI_EXIT_USAGE;
    }
  if (key_path != NULL && !(key = viva_report_signature_read_key (key_path, &error)))
    {
      viva_cli_fail ("%s", error->message);
      return VIVA_CLI_EXIT_FAILED;
    }

  for (int i = 1; i < argc; i++)
    {
      g_autofree char *message = NULL;
      VivaReportSignature result = viva_report_signature_check (argv[i], key, &message);

      if (result == VIVA_REPORT_SIGNATURE_VALID)
        valid++;
      if (json)
        {
          g_autoptr(JsonObject) object = json_object_new ();

          json_object_set_string_member (object, "file", argv[i]);
          json_object_set_string_member (object, "signature", viva_report_signature_to_string (result));
          json_object_set_string_member (object, "key", key != NULL ? "given" : "embedded");
          json_object_set_string_member (object, "message", message);
          viva_cli_print_event ("report", object);
        }
      else
        printf ("%s: %s\n", argv[i], message);
    }

  if (json)
    {
      g_autoptr(JsonObject) object = json_object_new ();

      json_object_set_int_member (object, "reports", argc - 1);
      json_object_set_int_member (object, "valid", valid);
      viva_cli_print_event ("verified", object);
    }
  return valid == (guint)(argc - 1) ? VIVA_CLI_EXIT_OK : VIVA_CLI_EXIT_FAILED;
}

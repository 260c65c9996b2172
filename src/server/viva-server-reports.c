/* viva-server-reports.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

#include "viva-exam-report.h"
#include "viva-report-signature.h"
#include "viva-server-keys.h"
#include "viva-server-store-regrade.h"
#include "viva-server-util.h"

/* viva-server reports EXAM-ID --output DIR: each report as the JSON that
 * was signed (byte for byte), its signature beside it (`NAME.json.sig`,
 * JSON: the algorithm, the public key, the base64 Ed25519 signature of
 * NAME.json's bytes) and its HTML; the server's public key as
 * `viva-server-signing-key.pem`. */

int
viva_server_reports_command (int    argc,
                             char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_auto(VivaServerCommon) common = { 0 };
  g_autofree char *output = NULL;
  g_autofree char *pub_path = NULL;
  g_autofree char *pub = NULL;
  g_autofree char *key_copy = NULL;
  g_autoptr(VivaServerStore) store = NULL;
  g_autoptr(JsonObject) exam = NULL;
  g_autoptr(JsonArray) rows = NULL;
  g_autoptr(JsonObject) summary = json_object_new ();
  g_autoptr(GHashTable) names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GError) error = NULL;
  int status;
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("The folder the reports are written to"), N_("DIR") },
    { NULL }
  };

  context = g_option_context_new (_("EXAM-ID --output DIR — write every signed report"));
  viva_server_common_add_entries (&common, context);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if ((status = viva_server_parse_options (context, &common, &argc, &argv)) != VIVA_SERVER_EXIT_OK)
    return status;

  if (argc != 2 || output == NULL)
    {
      viva_server_usage_error (context, "%s", _("Write “viva-server reports EXAM-ID --output DIR”."));
      return VIVA_SERVER_EXIT_USAGE;
    }

  if (!(store = viva_server_open_store (&common)))
    return VIVA_SERVER_EXIT_FAILED;

  pub_path = g_build_filename (common.state_dir, VIVA_SERVER_SIGNING_PUB_FILE, NULL);
  if (!(exam = viva_server_store_get_exam (store, argv[1], &error)) ||
      !(rows = viva_server_store_list_reports (store, argv[1], &error)) ||
      !g_file_get_contents (pub_path, &pub, NULL, &error))
    {
      viva_server_fail (&common, "%s", error ? error->message : _("This server holds no such exam."));
      return VIVA_SERVER_EXIT_FAILED;
    }

  if (g_mkdir_with_parents (output, 0700) != 0)
    {
      viva_server_fail (&common, _("Could not make the folder %s: %s"), output, g_strerror (errno));
      return VIVA_SERVER_EXIT_FAILED;
    }

  key_copy = g_build_filename (output, "viva-server-signing-key.pem", NULL);
  if (!viva_server_write_text (key_copy, pub, 0644, &error))
    {
      viva_server_fail (&common, "%s", error->message);
      return VIVA_SERVER_EXIT_FAILED;
    }

  for (guint i = 0; i < json_array_get_length (rows); i++)
    {
      JsonObject *row = json_array_get_object_element (rows, i);
      /* A re-graded report is written as its newest signed revision (the
       * database keeps every one before it). */
      g_autoptr(JsonObject) newest = viva_server_store_newest_report (store, json_object_get_string_member (row, "defense_id"),
                                                                      NULL);
      JsonObject *chosen = newest != NULL ? newest : row;
      const char *text = json_object_get_string_member (chosen, "report_json");
      g_autoptr(JsonNode) report = json_from_string (text, NULL);
      g_autofree char *base = NULL;
      g_autofree char *stem = NULL;
      g_autofree char *json_name = NULL;
      g_autofree char *json_path = NULL;
      g_autofree char *sig_path = NULL;
      g_autofree char *html_path = NULL;
      g_autofree char *html = NULL;
      g_autofree char *sig = NULL;
      g_autoptr(JsonObject) line = json_object_new ();

      if (report == NULL)
        continue;

      /* Two reports of one name (two defenses in a minute) keep both. */
      base = viva_exam_report_dup_file_name (report, NULL);
      if (g_str_has_suffix (base, "."))
        base[strlen (base) - 1] = '\0';
      stem = g_strdup (base);
      for (guint n = 2; g_hash_table_contains (names, stem); n++)
        {
          g_free (stem);
          stem = g_strdup_printf ("%s-%u", base, n);
        }
      g_hash_table_add (names, g_strdup (stem));

      json_name = g_strconcat (stem, ".json", NULL);
      json_path = g_build_filename (output, json_name, NULL);
      sig_path = g_strconcat (json_path, ".sig", NULL);
      html_path = g_strconcat (json_path, NULL);
      strcpy (html_path + strlen (html_path) - 4, "html");
      html = viva_exam_report_render_html (report);
      sig = viva_report_signature_file (json_name, json_object_get_string_member (chosen, "signature"), pub);

      if (!viva_server_write_text (json_path, text, 0644, &error) ||
          !viva_server_write_text (sig_path, sig, 0644, &error) ||
          !viva_server_write_text (html_path, html, 0644, &error))
        {
          viva_server_fail (&common, "%s", error->message);
          return VIVA_SERVER_EXIT_FAILED;
        }

      if (common.json)
        {
          json_object_set_string_member (line, "student_id", json_object_get_string_member (row, "student_id"));
          json_object_set_string_member (line, "problem", json_object_get_string_member (row, "problem_id"));
          json_object_set_string_member (line, "json", json_path);
          json_object_set_string_member (line, "signature", sig_path);
          json_object_set_string_member (line, "html", html_path);
          viva_server_print_event ("report", line);
        }
    }

  json_object_set_string_member (summary, "exam", argv[1]);
  json_object_set_int_member (summary, "reports", json_array_get_length (rows));
  json_object_set_string_member (summary, "output", output);
  json_object_set_string_member (summary, "public_key", key_copy);
  if (common.json)
    viva_server_print_event ("reports", summary);
  else
    printf (_("Wrote %u signed reports of “%s” to %s.\n"), json_array_get_length (rows),
            json_object_get_string_member (exam, "title"), output);

  return VIVA_SERVER_EXIT_OK;
}

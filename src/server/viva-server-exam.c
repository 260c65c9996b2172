/* viva-server-exam.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "viva-exam-file.h"
#include "viva-server-keys.h"
#include "viva-server-roster.h"
#include "viva-server-util.h"

/* viva-server exam add EXAM.json --roster ROSTER.csv [--pack PACK.json]:
 * the exam is read as strictly as the app reads it, its pack put inside it
 * (so the server holds everything it grades with, and nothing is read from
 * a share again), a seat code made for every student, and the teacher
 * token printed once: only its hash is kept. */

static JsonNode *
parse_file (const char  *path,
            char       **text,
            gsize       *length,
            GError     **error)
{
  if (!g_file_get_contents (path, text, length, error))
    return NULL;
  return json_from_string (*text, error);
}

/* The exam's JSON as the server keeps it: the file as written, with the
 * pack whole inside when it named an installed one. */
static char *
exam_with_pack (JsonNode   *exam,
                JsonNode   *pack)
{
  g_autoptr(JsonNode) copy = json_node_copy (exam);

  if (pack != NULL)
    json_object_set_member (json_node_get_object (copy), "pack", json_node_copy (pack));
  return json_to_string (copy, FALSE);
}

static int
exam_add (int    argc,
          char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_auto(VivaServerCommon) common = { 0 };
  g_autofree char *roster_path = NULL;
  g_autofree char *pack_path = NULL;
  g_autofree char *exam_text = NULL;
  g_autofree char *pack_text = NULL;
  g_autofree char *roster_text = NULL;
  g_autofree char *stored = NULL;
  g_autofree char *token = NULL;
  g_autofree char *token_hash = NULL;
  g_autofree char *fingerprint = NULL;
  g_autofree char *link = NULL;
  g_autoptr(JsonNode) exam_node = NULL;
  g_autoptr(JsonNode) pack_node = NULL;
  g_autoptr(JsonArray) roster = NULL;
  g_autoptr(JsonObject) row = json_object_new ();
  g_autoptr(JsonObject) config = NULL;
  g_autoptr(JsonObject) result = json_object_new ();
  g_autoptr(GTlsCertificate) certificate = NULL;
  g_autoptr(VivaExamFile) exam = NULL;
  g_autoptr(VivaServerStore) store = NULL;
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(GError) error = NULL;
  gsize exam_length = 0, pack_length = 0, roster_length = 0;
  int status;
  GOptionEntry entries[] = {
    { "roster", 0, 0, G_OPTION_ARG_FILENAME, &roster_path, N_("The class: CSV with the columns student_id,name"), N_("FILE") },
    { "pack", 0, 0, G_OPTION_ARG_FILENAME, &pack_path, N_("The pack (viva-pack/1), when the exam names it by id"), N_("FILE") },
    { NULL }
  };

  context = g_option_context_new (_("add EXAM.json --roster ROSTER.csv — add an exam and its class"));
  viva_server_common_add_entries (&common, context);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if ((status = viva_server_parse_options (context, &common, &argc, &argv)) != VIVA_SERVER_EXIT_OK)
    return status;

  if (argc != 3 || !g_str_equal (argv[1], "add") || roster_path == NULL)
    {
      viva_server_usage_error (context, "%s", _("Write “viva-server exam add EXAM.json --roster ROSTER.csv”."));
      return VIVA_SERVER_EXIT_USAGE;
    }

  if (!(store = viva_server_open_store (&common)))
    return VIVA_SERVER_EXIT_FAILED;

  if (!(exam = viva_exam_file_load (argv[2], &issues, &error)))
    {
      g_autofree char *described = issues ? viva_exam_file_describe_issues (issues) : NULL;

      viva_server_fail (&common, _("The exam %s cannot be served: %s"), argv[2],
                        described ? described : error->message);
      return VIVA_SERVER_EXIT_FAILED;
    }

  if (!(exam_node = parse_file (argv[2], &exam_text, &exam_length, &error)))
    {
      viva_server_fail (&common, _("Could not read the exam %s: %s"), argv[2], error->message);
      return VIVA_SERVER_EXIT_FAILED;
    }

  if (pack_path != NULL)
    {
      g_autoptr(VivaPack) pack = NULL;
      g_autoptr(GBytes) bytes = NULL;

      if (!(pack_node = parse_file (pack_path, &pack_text, &pack_length, &error)) ||
          !(pack = viva_pack_new_from_bytes ((bytes = g_bytes_new_static (pack_text, pack_length)), &error)) ||
          !viva_exam_file_set_pack (exam, pack, &error))
        {
          viva_server_fail (&common, _("Could not use the pack %s: %s"), pack_path, error->message);
          return VIVA_SERVER_EXIT_FAILED;
        }
    }
  else if (!viva_exam_file_get_pack_embedded (exam))
    {
      viva_server_fail (&common, _("The exam names the pack “%s” by id: give the pack’s file with --pack, so the server holds what it grades with."),
                        viva_exam_file_get_pack_id (exam));
      return VIVA_SERVER_EXIT_FAILED;
    }

  if (!g_file_get_contents (roster_path, &roster_text, &roster_length, &error) ||
      !(roster = viva_server_roster_parse (roster_text, roster_length, &error)))
    {
      viva_server_fail (&common, _("Could not read the roster %s: %s"), roster_path, error->message);
      return VIVA_SERVER_EXIT_FAILED;
    }

  for (guint i = 0; i < json_array_get_length (roster); i++)
    {
      g_autofree char *code = viva_server_keys_random_code ();

      json_object_set_string_member (json_array_get_object_element (roster, i), "seat_code", code);
    }

  if (!(config = viva_server_load_config (common.state_dir, &error)) ||
      !(certificate = viva_server_load_certificate (common.state_dir, config, &error)))
    {
      viva_server_fail (&common, "%s", error->message);
      return VIVA_SERVER_EXIT_FAILED;
    }

  token = viva_server_keys_random_token ();
  token_hash = viva_server_keys_hash_token (token);
  stored = exam_with_pack (exam_node, pack_node);

  json_object_set_string_member (row, "id", viva_exam_file_get_id (exam));
  json_object_set_string_member (row, "title", viva_exam_file_get_title (exam));
  json_object_set_string_member (row, "exam_json", stored);
  json_object_set_string_member (row, "digest", viva_exam_file_get_digest (exam));
  json_object_set_int_member (row, "time_limit", viva_exam_file_get_time_limit (exam));
  json_object_set_string_member (row, "show_verdict",
                                 viva_exam_file_get_verdict_after_exam (exam) ? "after_exam" : "immediately");
  json_object_set_string_member (row, "teacher_token_hash", token_hash);

  if (!viva_server_store_add_exam (store, row, roster, &error))
    {
      viva_server_fail (&common, "%s", error->message);
      return VIVA_SERVER_EXIT_FAILED;
    }

  fingerprint = viva_server_keys_fingerprint (certificate);
  link = viva_server_exam_link (config, viva_exam_file_get_id (exam), fingerprint);

  json_object_set_string_member (result, "exam", viva_exam_file_get_id (exam));
  json_object_set_string_member (result, "title", viva_exam_file_get_title (exam));
  json_object_set_int_member (result, "students", json_array_get_length (roster));
  json_object_set_string_member (result, "link", link);
  json_object_set_string_member (result, "teacher_token", token);

  if (common.json)
    viva_server_print_event ("exam", result);
  else
    {
      printf (_("Added the exam “%s” for %u students.\n"), viva_exam_file_get_title (exam),
              json_array_get_length (roster));
      printf (_("Exam link (for the lab PCs): %s\n"), link);
      printf (_("Teacher token (shown only now; keep it safe): %s\n"), token);
      printf (_("Seat cards: viva-server codes %s --html cards.html\n"), viva_exam_file_get_id (exam));
    }

  return VIVA_SERVER_EXIT_OK;
}

int
viva_server_exam_command (int    argc,
                          char **argv)
{
  if (argc >= 2 && g_str_equal (argv[1], "add"))
    return exam_add (argc, argv);

  if (argc >= 2 && (g_str_equal (argv[1], "--help") || g_str_equal (argv[1], "-h")))
    {
      printf ("%s\n", _("Usage: viva-server exam add EXAM.json --roster ROSTER.csv [--pack PACK.json] [--state-dir DIR] [--json]"));
      return VIVA_SERVER_EXIT_OK;
    }

  g_printerr ("viva-server: %s\n", _("Write “viva-server exam add EXAM.json --roster ROSTER.csv”."));
  return VIVA_SERVER_EXIT_USAGE;
}

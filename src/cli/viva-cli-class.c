/* viva-cli-class.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "viva-class-results.h"
#include "viva-cli-class-server.h"
#include "viva-cli-commands.h"
#include "viva-cli-remote.h"
#include "viva-cli-util.h"
#include "viva-pack-library.h"

/* viva-cli class collect [--pack FILE]… [--exam FILE] [--regrade]
 * [--csv OUT] [--gradebook-csv OUT] [--html OUT] [--json] PATH…: a class's
 * reports in one table, re-graded on this machine when asked, scored with
 * the hint cost of the teacher's exam file when one is named. Exit 0 when
 * every report was read (and re-graded, when asked), 1 when any could not
 * be. */

static void
store_result_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

/* The CLI waits on the default main context: nothing else runs there. */
static GAsyncResult *
wait_for (GAsyncResult **slot)
{
  while (*slot == NULL)
    g_main_context_iteration (NULL, TRUE);

  return *slot;
}

/* The teacher's library and the bundled pack, after the packs named
 * with --pack (which come first in @packs and win). */
static gboolean
library_packs (GListStore  *packs,
               GError     **error)
{
  g_autoptr(VivaPackLibrary) library = viva_pack_library_new (NULL);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(VivaPack) bundled = viva_pack_new_bundled ();
  GListModel *installed;

  viva_pack_library_load_async (library, NULL, store_result_cb, &result);
  if (!viva_pack_library_load_finish (library, wait_for (&result), error))
    return FALSE;

  installed = viva_pack_library_get_packs (library);
  for (guint i = 0; i < g_list_model_get_n_items (installed); i++)
    {
      g_autoptr(VivaPack) pack = g_list_model_get_item (installed, i);
      g_list_store_insert (packs, 0, pack);
    }
  g_list_store_insert (packs, 0, bundled);

  return TRUE;
}

static gboolean
add_library_packs (VivaClassResults  *results,
                   GError           **error)
{
  g_autoptr(VivaPackLibrary) library = viva_pack_library_new (NULL);
  g_autoptr(GAsyncResult) result = NULL;
  GListModel *packs;

  viva_pack_library_load_async (library, NULL, store_result_cb, &result);
  if (!viva_pack_library_load_finish (library, wait_for (&result), error))
    return FALSE;

  packs = viva_pack_library_get_packs (library);
  for (guint i = 0; i < g_list_model_get_n_items (packs); i++)
    {
      g_autoptr(VivaPack) pack = g_list_model_get_item (packs, i);

      viva_class_results_add_pack (results, pack);
    }

  return TRUE;
}

static void
print_row (VivaClassReport *report)
{
  const char *name = viva_class_report_get_student_name (report);
  const char *id = viva_class_report_get_student_id (report);
  g_autofree char *file = g_path_get_basename (viva_class_report_get_path (report));
  /* Translators: a report that names no student, shown by its file name */
  g_autofree char *nobody = g_strdup_printf (_("No name — %s"), file);
  g_autofree char *who = id[0] ? g_strdup_printf ("%s (%s)", name[0] ? name : "?", id) : g_strdup (name[0] ? name : nobody);
  g_autofree char *hidden = viva_class_report_get_hidden_total (report) >= 0
    ? g_strdup_printf ("%d/%d", viva_class_report_get_hidden_passed (report), viva_class_report_get_hidden_total (report))
    : g_strdup ("–");
  g_autofree char *regraded = viva_class_report_get_regraded_total (report) >= 0
    ? g_strdup_printf ("%d/%d", viva_class_report_get_regraded_passed (report), viva_class_report_get_regraded_total (report))
    : g_strdup ("–");
  g_autofree char *who_cell = NULL;
  g_autofree char *problem_cell = NULL;

  if (!viva_class_report_get_readable (report))
    {
      g_print ("%s: %s\n", viva_class_report_get_path (report), viva_class_report_get_note (report));
      return;
    }

  who_cell = viva_cli_pad (who, 28);
  problem_cell = viva_cli_pad (viva_class_report_get_problem_id (report), 24);
  g_print ("%s %s %-5s %5s  %s %s  %s\n", who_cell, problem_cell, viva_class_report_get_verdict (report), hidden,
           _("re-graded"), regraded, viva_class_report_get_flags (report));
  if (viva_class_report_get_note (report)[0] != '\0')
    g_print ("    %s\n", viva_class_report_get_note (report));
}

static int
collect (int    argc,
         char **argv)
{
  g_auto(GStrv) pack_paths = NULL;
  g_autofree char *csv_path = NULL;
  g_autofree char *gradebook_path = NULL;
  g_autofree char *html_path = NULL;
  g_autofree char *exam_path = NULL;
  g_autofree char *teacher_path = NULL;
  g_autofree char *server_key_path = NULL;
  g_autofree char *server_key = NULL;
  g_autofree char *server = NULL;
  g_autofree char *teacher_token = NULL;
  g_autofree char *save_reports = NULL;
  g_autofree char *fetched = NULL;
  g_auto(VivaCliTempFolder) temp = { NULL };
  g_autoptr(GPtrArray) paths = g_ptr_array_new ();
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(VivaTeacherScores) teacher_scores = viva_teacher_scores_new ();
  g_autoptr(GFile) teacher_store = viva_teacher_scores_default_file ();
  g_autoptr(VivaClassResults) results = viva_class_results_new ();
  g_autoptr(GAsyncResult) collected = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) summary = NULL;
  gboolean regrade = FALSE;
  gboolean json = FALSE;
  GListModel *reports;
  guint n, failed_regrades = 0, server_regrades_failed = 0;
  const GOptionEntry entries[] = {
    { "pack", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &pack_paths, N_("Your copy of a pack the reports used (repeatable; your library’s packs are used too)"), N_("FILE") },
    { "exam", 0, 0, G_OPTION_ARG_FILENAME, &exam_path, N_("Your copy of the exam file: its hint cost is the one the scores use"), N_("FILE") },
    { "teacher-scores", 0, 0, G_OPTION_ARG_FILENAME, &teacher_path, N_("Your scores as CSV (student_id,problem,score[,verdict]): the exports grade by them"), N_("FILE") },
    { "regrade", 0, 0, G_OPTION_ARG_NONE, &regrade, N_("Re-grade every report’s final code on this machine (with --server: on the exam server, each a new signed revision)"), NULL },
    { "csv", 0, 0, G_OPTION_ARG_FILENAME, &csv_path, N_("Write one row per report as CSV"), N_("FILE") },
    { "gradebook-csv", 0, 0, G_OPTION_ARG_FILENAME, &gradebook_path, N_("Write a gradebook CSV for Canvas or Moodle (one row per student)"), N_("FILE") },
    { "html", 0, 0, G_OPTION_ARG_FILENAME, &html_path, N_("Write the class results as one HTML page"), N_("FILE") },
    { "server-key", 0, 0, G_OPTION_ARG_FILENAME, &server_key_path, N_("The exam server’s public key: flag every report it did not sign as it is"), N_("FILE") },
    { "server", 0, 0, G_OPTION_ARG_STRING, &server, N_("Fetch the exam’s signed reports from its exam server (the exam link)"), N_("LINK") },
    { "teacher-token", 0, 0, G_OPTION_ARG_STRING, &teacher_token, N_("The exam’s teacher token, for --server"), N_("TOKEN") },
    { "save-reports", 0, 0, G_OPTION_ARG_FILENAME, &save_reports, N_("Where --server writes the reports it fetched (default: a temporary folder)"), N_("DIR") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print one JSON event a line"), NULL },
    { NULL }
  };
  g_autoptr(GListStore) teacher_packs = g_list_store_new (VIVA_TYPE_PACK);
  int status;

  context = g_option_context_new (_("PATH… — collect a class’s reports"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);

  if ((status = viva_cli_parse_options (context, &argc, &argv)) != VIVA_CLI_EXIT_OK)
    return status;

  if (argc < 2 && server == NULL)
    {
      viva_cli_usage_error (context, _("Name at least one report or folder of reports."));
      return VIVA_CLI_EXIT_USAGE;
    }
  if ((server == NULL) != (teacher_token == NULL) || (save_reports != NULL && server == NULL))
    {
      viva_cli_usage_error (context, "%s", _("--server needs --teacher-token (and --save-reports needs --server)."));
      return VIVA_CLI_EXIT_USAGE;
    }
  if (server_key_path != NULL && !(server_key = viva_report_signature_read_key (server_key_path, &error)))
    {
      viva_cli_fail ("%s", error->message);
      return VIVA_CLI_EXIT_FAILED;
    }

  if (server != NULL)
    {
      g_autofree char *key = NULL;

      g_autoptr(JsonObject) regraded = NULL;

      /* The server re-grades, in its own workers, from the code it holds;
       * what is fetched next are the signed revisions it made. */
      if (regrade && !viva_cli_class_regrade_on_server (server, teacher_token, &regraded, &error))
        {
          if (json && error->domain == VIVA_REMOTE_ERROR)
            viva_cli_remote_fail (error, TRUE);
          else
            viva_cli_fail (_("Re-grading on the exam server stopped: %s"), error->message);
          return error->domain == VIVA_REMOTE_ERROR && error->code == VIVA_REMOTE_ERROR_INVALID_LINK
            ? VIVA_CLI_EXIT_USAGE : VIVA_CLI_EXIT_FAILED;
        }
      if (regraded != NULL)
        {
          JsonArray *items = json_object_get_array_member (regraded, "items");

          regrade = FALSE;
          server_regrades_failed = json_object_get_int_member_with_default (regraded, "failed", 0);
          for (guint i = 0; items != NULL && i < json_array_get_length (items); i++)
            {
              JsonObject *item = json_array_get_object_element (items, i);

              if (!json && json_object_has_member (item, "error"))
                viva_cli_fail (_("%s, %s: not re-graded: %s"),
                               json_object_get_string_member_with_default (item, "student_id", ""),
                               json_object_get_string_member_with_default (item, "problem", ""),
                               json_object_get_string_member_with_default (item, "error", ""));
            }
          if (json)
            viva_cli_print_event ("regrade", regraded);
        }

      fetched = save_reports ? g_strdup (save_reports) : g_dir_make_tmp ("viva-class-XXXXXX", &error);
      if (fetched == NULL || viva_cli_class_fetch (server, teacher_token, fetched, &key, &error) < 0)
        {
          if (json && error->domain == VIVA_REMOTE_ERROR)
            viva_cli_remote_fail (error, TRUE);
          else
            viva_cli_fail ("%s", error->message);
          return error->domain == VIVA_REMOTE_ERROR && error->code == VIVA_REMOTE_ERROR_INVALID_LINK
            ? VIVA_CLI_EXIT_USAGE : VIVA_CLI_EXIT_FAILED;
        }
      /* The key the teacher gave wins over the one the server sent. */
      if (server_key == NULL)
        server_key = g_steal_pointer (&key);
      if (save_reports == NULL)
        temp.path = g_strdup (fetched);
      g_ptr_array_add (paths, fetched);
    }
  for (int i = 1; i < argc; i++)
    g_ptr_array_add (paths, argv[i]);
  g_ptr_array_add (paths, NULL);
  viva_class_results_set_signing_key (results, server_key);

  for (guint i = 0; pack_paths != NULL && pack_paths[i] != NULL; i++)
    {
      g_autofree char *data = NULL;
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(VivaPack) pack = NULL;
      gsize length;

      if (!g_file_get_contents (pack_paths[i], &data, &length, &error))
        {
          viva_cli_fail (_("The pack “%s” could not be read: %s"), pack_paths[i], error->message);
          return VIVA_CLI_EXIT_FAILED;
        }
      bytes = g_bytes_new_take (g_steal_pointer (&data), length);
      if (!(pack = viva_pack_new_from_bytes (bytes, &error)))
        {
          viva_cli_fail (_("The pack “%s” could not be loaded: %s"), pack_paths[i], error->message);
          return VIVA_CLI_EXIT_FAILED;
        }
      viva_class_results_add_pack (results, pack);
      g_list_store_append (teacher_packs, pack);
    }

  if (exam_path != NULL)
    {
      g_autoptr(VivaExamFile) exam = NULL;
      g_autoptr(GHashTable) installed = NULL;

      /* The exam's problems checked against the packs the teacher has, in
       * the same pass as the rest of the file. */
      if (!library_packs (teacher_packs, &error))
        {
          viva_cli_fail (_("Your pack library could not be read: %s"), error->message);
          return VIVA_CLI_EXIT_FAILED;
        }
      installed = viva_exam_file_installed_problems_new (G_LIST_MODEL (teacher_packs));
      if (!(exam = viva_exam_file_load_full (exam_path, installed, NULL, &error)))
        {
          viva_cli_fail (_("The exam file “%s” could not be loaded: %s"), exam_path, error->message);
          return VIVA_CLI_EXIT_FAILED;
        }
      viva_class_results_set_exam (results, exam);
    }

  /* The scores set in the window (the teacher's data), then the CSV's,
   * which name no session and so never hide a window's score. */
  if (!viva_teacher_scores_load (teacher_scores, teacher_store, &error))
    {
      viva_cli_fail ("%s", error->message);
      return VIVA_CLI_EXIT_FAILED;
    }
  if (teacher_path != NULL && !viva_teacher_scores_load_csv (teacher_scores, teacher_path, &error))
    {
      viva_cli_fail (_("Your scores in “%s” could not be read:\n%s"), teacher_path, error->message);
      return VIVA_CLI_EXIT_FAILED;
    }
  viva_class_results_set_teacher_scores (results, teacher_scores);

  if (regrade && !add_library_packs (results, &error))
    {
      viva_cli_fail (_("Your pack library could not be read: %s"), error->message);
      return VIVA_CLI_EXIT_FAILED;
    }

  viva_class_results_collect_async (results, (const char * const *)paths->pdata, NULL, store_result_cb, &collected);
  if (!viva_class_results_collect_finish (results, wait_for (&collected), &error))
    {
      viva_cli_fail ("%s", error->message);
      return VIVA_CLI_EXIT_FAILED;
    }

  if (regrade)
    {
      g_autoptr(GAsyncResult) regraded = NULL;

      viva_class_results_regrade_async (results, NULL, store_result_cb, &regraded);
      if (!viva_class_results_regrade_finish (results, wait_for (&regraded), &error))
        {
          viva_cli_fail (_("Re-grading stopped: %s"), error->message);
          return VIVA_CLI_EXIT_FAILED;
        }
    }

  reports = viva_class_results_get_reports (results);
  n = g_list_model_get_n_items (reports);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(VivaClassReport) report = g_list_model_get_item (reports, i);

      if (viva_class_report_has_flag (report, VIVA_CLASS_FLAG_REGRADE_FAILED))
        failed_regrades++;

      if (json)
        {
          g_autoptr(JsonObject) row = viva_class_report_to_json (report);
          viva_cli_print_event ("row", row);
        }
      else
        print_row (report);
    }

  if (csv_path != NULL)
    {
      g_autofree char *text = viva_class_results_to_csv (results);
      if (!viva_cli_write_text (csv_path, text, &error))
        {
          viva_cli_fail (_("The CSV could not be written: %s"), error->message);
          return VIVA_CLI_EXIT_FAILED;
        }
    }
  if (gradebook_path != NULL)
    {
      g_autofree char *text = viva_class_results_to_gradebook_csv (results);
      if (!viva_cli_write_text (gradebook_path, text, &error))
        {
          viva_cli_fail (_("The gradebook CSV could not be written: %s"), error->message);
          return VIVA_CLI_EXIT_FAILED;
        }
    }
  if (html_path != NULL)
    {
      g_autofree char *text = viva_class_results_to_html (results);
      if (!viva_cli_write_text (html_path, text, &error))
        {
          viva_cli_fail (_("The HTML page could not be written: %s"), error->message);
          return VIVA_CLI_EXIT_FAILED;
        }
    }

  summary = viva_class_results_summary (results);
  if (json)
    viva_cli_print_event ("summary", summary);
  else
    {
      g_autofree char *line = g_strdup_printf (_("%u reports from %u students; %u flagged, %u unreadable."),
                                               n, viva_class_results_count_students (results),
                                               viva_class_results_count_flagged (results),
                                               viva_class_results_count_unreadable (results));
      g_print ("%s\n", line);
    }

  return viva_class_results_count_unreadable (results) > 0 || failed_regrades > 0 || server_regrades_failed > 0
    ? VIVA_CLI_EXIT_FAILED : VIVA_CLI_EXIT_OK;
}

int
viva_cli_class (int    argc,
                char **argv)
{
  if (argc < 2 || g_str_equal (argv[1], "--help") || g_str_equal (argv[1], "-h"))
    {
      FILE *out = argc < 2 ? stderr : stdout;

      fprintf (out, "%s\n\n  collect   %s\n", _("Usage: viva-cli class collect [OPTION…] PATH…"),
               _("Collect a class’s reports into one table, re-graded on request"));
      return argc < 2 ? VIVA_CLI_EXIT_USAGE : VIVA_CLI_EXIT_OK;
    }

  if (g_str_equal (argv[1], "collect"))
    return collect (argc - 1, argv + 1);

  viva_cli_usage_error (NULL, _("“%s” is not a class command; try “viva-cli class collect”."), argv[1]);
  return VIVA_CLI_EXIT_USAGE;
}

/* viva-cli-calibrate.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "viva-class-results.h"
#include "viva-cli-commands.h"
#include "viva-cli-util.h"

/* viva-cli calibrate --teacher-scores FILE.csv [--json] REPORT…: how well
 * Viva agrees with a teacher over the defenses the teacher scored. The
 * reports are read as `class collect` reads them (hostile folders); each
 * CSV line is matched to the report of that student and problem (the
 * later one when there are two). Exit 0 when the figures were computed
 * over at least one defense, 1 when the CSV could not be read or matched
 * nothing, 2 on bad usage. */

static void
store_result_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

static gboolean
has_report (GListModel             *reports,
            const VivaTeacherScore *score)
{
  for (guint i = 0; i < g_list_model_get_n_items (reports); i++)
    {
      g_autoptr(VivaClassReport) report = g_list_model_get_item (reports, i);

      if (viva_class_report_get_readable (report) &&
          viva_class_report_get_score (report) >= 0 &&
          g_strcmp0 (viva_class_report_get_student_id (report), score->student_id) == 0 &&
          g_strcmp0 (viva_class_report_get_problem_id (report), score->problem) == 0)
        return TRUE;
    }

  return FALSE;
}

int
viva_cli_calibrate (int    argc,
                    char **argv)
{
  g_autofree char *csv_path = NULL;
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(VivaClassResults) results = viva_class_results_new ();
  g_autoptr(VivaTeacherScores) scores = viva_teacher_scores_new ();
  g_autoptr(VivaCalibration) calibration = NULL;
  g_autoptr(GAsyncResult) collected = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) event = NULL;
  gboolean json = FALSE;
  GListModel *reports;
  const GOptionEntry entries[] = {
    { "teacher-scores", 0, 0, G_OPTION_ARG_FILENAME, &csv_path, N_("Your scores as CSV: student_id,problem,score[,verdict]"), N_("FILE") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print one JSON event a line"), NULL },
    { NULL }
  };
  int status;

  context = g_option_context_new (_("REPORT… — how well Viva agrees with your scores"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);

  if ((status = viva_cli_parse_options (context, &argc, &argv)) != VIVA_CLI_EXIT_OK)
    return status;

  if (csv_path == NULL)
    {
      viva_cli_usage_error (context, _("Name your scores with --teacher-scores FILE.csv."));
      return VIVA_CLI_EXIT_USAGE;
    }
  if (argc < 2)
    {
      viva_cli_usage_error (context, _("Name at least one report or folder of reports."));
      return VIVA_CLI_EXIT_USAGE;
    }

  if (!viva_teacher_scores_load_csv (scores, csv_path, &error))
    {
      viva_cli_fail (_("Your scores in “%s” could not be read:\n%s"), csv_path, error->message);
      return VIVA_CLI_EXIT_FAILED;
    }

  viva_class_results_collect_async (results, (const char * const *)argv + 1, NULL, store_result_cb, &collected);
  while (collected == NULL)
    g_main_context_iteration (NULL, TRUE);
  if (!viva_class_results_collect_finish (results, collected, &error))
    {
      viva_cli_fail ("%s", error->message);
      return VIVA_CLI_EXIT_FAILED;
    }
  viva_class_results_set_teacher_scores (results, scores);

  /* What the figures leave out, said before them. */
  reports = viva_class_results_get_reports (results);
  for (guint i = 0; i < g_list_model_get_n_items (reports); i++)
    {
      g_autoptr(VivaClassReport) report = g_list_model_get_item (reports, i);

      if (viva_class_report_get_readable (report))
        continue;
      if (json)
        {
          g_autoptr(JsonObject) object = json_object_new ();

          json_object_set_string_member (object, "file", viva_class_report_get_path (report));
          json_object_set_string_member (object, "reason", viva_class_report_get_note (report));
          viva_cli_print_event ("unreadable", object);
        }
      else
        g_printerr ("%s: %s\n", viva_class_report_get_path (report), viva_class_report_get_note (report));
    }
  for (guint i = 0; i < viva_teacher_scores_get_n_scores (scores); i++)
    {
      const VivaTeacherScore *score = viva_teacher_scores_get_score (scores, i);

      if (has_report (reports, score))
        continue;
      if (json)
        {
          g_autoptr(JsonObject) object = json_object_new ();

          json_object_set_int_member (object, "line", score->line);
          json_object_set_string_member (object, "student_id", score->student_id);
          json_object_set_string_member (object, "problem", score->problem);
          viva_cli_print_event ("unmatched", object);
        }
      else
        {
          g_autofree char *line = g_strdup_printf (_("Line %u: no scored report of student “%s” on problem “%s”; it is left out."),
                                                   score->line, score->student_id, score->problem);

          g_printerr ("%s\n", line);
        }
    }

  calibration = viva_class_results_calibrate (results);
  event = viva_calibration_to_json (calibration);
  if (json)
    viva_cli_print_event ("calibration", event);
  else
    {
      g_autofree char *icc = viva_calibration_describe_icc (calibration);
      g_autofree char *kappa = viva_calibration_describe_kappa (calibration);
      g_autofree char *difference = viva_calibration_describe_difference (calibration);

      g_print ("%s\n%s\n%s\n", icc, kappa, difference);
    }

  if (viva_calibration_get_n (calibration) == 0)
    {
      if (!json)
        viva_cli_fail (_("No line of your scores matched a report: check the student ids and problem ids against the reports."));
      return VIVA_CLI_EXIT_FAILED;
    }

  return VIVA_CLI_EXIT_OK;
}

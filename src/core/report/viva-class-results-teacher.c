/* viva-class-results-teacher.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-class-results-private.h"

/* The teacher's scores on the class's rows, and calibration over the rows
 * both scored. A CSV's score names a student and a problem, not a session;
 * when a student defended a problem twice, the score is the later
 * defense's (by the time it started), so one teacher score is one pair in
 * the statistics, never two. */

static char *
teacher_key (VivaClassReport *report)
{
  return g_strdup_printf ("%s\x1f%s", viva_class_report_get_student_id (report),
                          viva_class_report_get_problem_id (report));
}

void
_viva_class_results_apply_teacher (GListModel        *reports,
                                   VivaTeacherScores *scores)
{
  guint n = g_list_model_get_n_items (reports);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(VivaClassReport) report = g_list_model_get_item (reports, i);

      viva_class_report_apply_teacher (report, scores);
    }
}

VivaCalibration *
_viva_class_results_calibrate (GListModel *reports)
{
  g_autoptr(GHashTable) latest = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  VivaCalibration *calibration = viva_calibration_new ();
  guint n = g_list_model_get_n_items (reports);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(VivaClassReport) report = g_list_model_get_item (reports, i);
      g_autofree char *key = NULL;
      VivaClassReport *other;

      if (!viva_class_report_get_readable (report) ||
          viva_class_report_get_teacher_score (report) < 0 ||
          viva_class_report_get_score (report) < 0)
        continue;

      key = teacher_key (report);
      other = g_hash_table_lookup (latest, key);
      if (other == NULL ||
          g_strcmp0 (viva_class_report_get_started (report), viva_class_report_get_started (other)) > 0)
        g_hash_table_insert (latest, g_steal_pointer (&key), g_object_ref (report));
    }

  /* In the class's order, so the figures do not depend on a hash. */
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(VivaClassReport) report = g_list_model_get_item (reports, i);
      g_autofree char *key = NULL;

      if (!viva_class_report_get_readable (report))
        continue;
      key = teacher_key (report);
      if (g_hash_table_lookup (latest, key) != report)
        continue;

      viva_calibration_add (calibration, viva_class_report_get_score (report),
                            viva_class_report_get_teacher_score (report),
                            viva_class_report_get_viva_verdict (report),
                            viva_class_report_get_teacher_verdict (report));
    }

  return calibration;
}

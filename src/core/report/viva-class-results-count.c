/* viva-class-results-count.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-class-results-private.h"

/* What a class's list adds up to: students, flagged and unreadable
 * reports, the summary the CLI prints last, and per problem the
 * statistics the Class Results window shows. Read only. */

void
viva_class_stat_free (VivaClassStat *stat)
{
  if (stat == NULL)
    return;

  g_free (stat->problem_id);
  g_free (stat->name);
  g_free (stat);
}

guint
viva_class_results_count_students (VivaClassResults *self)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  guint n;

  g_return_val_if_fail (VIVA_IS_CLASS_RESULTS (self), 0);

  n = g_list_model_get_n_items (G_LIST_MODEL (self->reports));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(VivaClassReport) report = g_list_model_get_item (G_LIST_MODEL (self->reports), i);

      /* A report that names nobody is nobody's: not a student more. */
      if (viva_class_report_get_readable (report) && !viva_class_report_has_flag (report, VIVA_CLASS_FLAG_NO_STUDENT))
        g_hash_table_add (seen, (gpointer)viva_class_report_get_student_key (report));
    }

  return g_hash_table_size (seen);
}

static guint
count_where (VivaClassResults *self,
             gboolean          unreadable)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->reports));
  guint count = 0;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(VivaClassReport) report = g_list_model_get_item (G_LIST_MODEL (self->reports), i);

      if (unreadable ? !viva_class_report_get_readable (report) : viva_class_report_get_flags (report)[0] != '\0')
        count++;
    }

  return count;
}

guint
viva_class_results_count_flagged (VivaClassResults *self)
{
  g_return_val_if_fail (VIVA_IS_CLASS_RESULTS (self), 0);
  return count_where (self, FALSE);
}

guint
viva_class_results_count_unreadable (VivaClassResults *self)
{
  g_return_val_if_fail (VIVA_IS_CLASS_RESULTS (self), 0);
  return count_where (self, TRUE);
}

/**
 * viva_class_results_summary:
 *
 * Returns: (transfer full): `reports`, `students`, `flagged`, `unreadable`
 *   and `regraded`, as the CLI's `summary` event has them
 */
JsonObject *
viva_class_results_summary (VivaClassResults *self)
{
  JsonObject *summary = json_object_new ();

  g_return_val_if_fail (VIVA_IS_CLASS_RESULTS (self), NULL);

  json_object_set_int_member (summary, "reports", g_list_model_get_n_items (G_LIST_MODEL (self->reports)));
  json_object_set_int_member (summary, "students", viva_class_results_count_students (self));
  json_object_set_int_member (summary, "flagged", viva_class_results_count_flagged (self));
  json_object_set_int_member (summary, "unreadable", viva_class_results_count_unreadable (self));
  json_object_set_int_member (summary, "regraded", self->n_regraded);

  return summary;
}

static VivaClassStat *
stat_for (GHashTable *index,
          GPtrArray  *stats,
          const char *problem_id,
          const char *name,
          gboolean    is_question)
{
  g_autofree char *key = g_strdup_printf ("%c\x1f%s\x1f%s", is_question ? 'q' : 't', problem_id, name);
  VivaClassStat *stat = g_hash_table_lookup (index, key);

  if (stat == NULL)
    {
      stat = g_new0 (VivaClassStat, 1);
      stat->problem_id = g_strdup (problem_id);
      stat->name = g_strdup (name);
      stat->is_question = is_question;
      g_ptr_array_add (stats, stat);
      g_hash_table_insert (index, g_steal_pointer (&key), stat);
    }

  return stat;
}

static int
compare_stats (gconstpointer a,
               gconstpointer b)
{
  const VivaClassStat *sa = *(VivaClassStat **)a;
  const VivaClassStat *sb = *(VivaClassStat **)b;
  double ra = sa->total ? (double)sa->failed / sa->total : 0;
  double rb = sb->total ? (double)sb->failed / sb->total : 0;

  if (sa->is_question != sb->is_question)
    return sa->is_question ? 1 : -1;
  if (sa->failed != sb->failed)
    return sa->failed > sb->failed ? -1 : 1;
  if (ra != rb)
    return ra > rb ? -1 : 1;
  if (g_strcmp0 (sa->problem_id, sb->problem_id) != 0)
    return g_strcmp0 (sa->problem_id, sb->problem_id);
  return g_strcmp0 (sa->name, sb->name);
}

/**
 * viva_class_results_statistics:
 *
 * Which hidden tests and which questions the class failed most: the hidden
 * tests first, most failed first (re-graded results where there are any),
 * then the questions the examiner asked, by how many defenses that asked
 * them ended in a fail.
 *
 * Returns: (transfer container) (element-type VivaClassStat): the figures
 */
GPtrArray *
viva_class_results_statistics (VivaClassResults *self)
{
  g_autoptr(GHashTable) index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GPtrArray *stats = g_ptr_array_new_with_free_func ((GDestroyNotify)viva_class_stat_free);
  guint n;

  g_return_val_if_fail (VIVA_IS_CLASS_RESULTS (self), NULL);

  n = g_list_model_get_n_items (G_LIST_MODEL (self->reports));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(VivaClassReport) report = g_list_model_get_item (G_LIST_MODEL (self->reports), i);
      const char *problem_id = viva_class_report_get_problem_id (report);
      JsonArray *tests = viva_class_report_get_tests (report);
      const char * const *questions = viva_class_report_get_questions (report);
      gboolean failed_defense = g_str_equal (viva_class_report_get_verdict (report), "fail");

      if (!viva_class_report_get_readable (report))
        continue;

      for (guint j = 0; tests != NULL && j < json_array_get_length (tests); j++)
        {
          JsonNode *node = json_array_get_element (tests, j);
          JsonObject *test;
          VivaClassStat *stat;

          if (!JSON_NODE_HOLDS_OBJECT (node) || !json_object_has_member (json_node_get_object (node), "name"))
            continue;
          test = json_node_get_object (node);
          stat = stat_for (index, stats, problem_id, json_object_get_string_member_with_default (test, "name", ""), FALSE);
          stat->total++;
          if (!json_object_get_boolean_member_with_default (test, "passed", FALSE))
            stat->failed++;
        }

      for (guint j = 0; questions[j] != NULL; j++)
        {
          VivaClassStat *stat = stat_for (index, stats, problem_id, questions[j], TRUE);

          stat->total++;
          if (failed_defense)
            stat->failed++;
        }
    }

  g_ptr_array_sort (stats, compare_stats);

  return stats;
}

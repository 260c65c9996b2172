/* viva-class-claims.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-class-results-private.h"

/* Two reports that claim one student and one problem (the same student
 * id, or with no id the same name) are both flagged `duplicate-claim`:
 * the gradebook takes neither over the other. Only reports that may give
 * a grade are counted, so a practice report beside the exam's is not a
 * second claim once the exam file is given. */
void
_viva_class_results_update_claims (GListModel *reports)
{
  g_autoptr(GHashTable) claims = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify)g_ptr_array_unref);
  guint n = g_list_model_get_n_items (reports);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(VivaClassReport) report = g_list_model_get_item (reports, i);
      g_autofree char *key = NULL;
      GPtrArray *same;

      if (!viva_class_report_get_in_gradebook (report))
        {
          viva_class_report_set_duplicate (report, NULL);
          continue;
        }

      key = g_strdup_printf ("%s\x1f%s\x1f%s", viva_class_report_get_student_key (report),
                             viva_class_report_get_pack_id (report), viva_class_report_get_problem_id (report));
      if (!(same = g_hash_table_lookup (claims, key)))
        {
          same = g_ptr_array_new_with_free_func (g_object_unref);
          g_hash_table_insert (claims, g_steal_pointer (&key), same);
        }
      g_ptr_array_add (same, g_steal_pointer (&report));
    }

  {
    GHashTableIter iter;
    GPtrArray *same;

    g_hash_table_iter_init (&iter, claims);
    while (g_hash_table_iter_next (&iter, NULL, (gpointer *)&same))
      for (guint i = 0; i < same->len; i++)
        {
          VivaClassReport *report = g_ptr_array_index (same, i);
          g_autoptr(GString) others = g_string_new (NULL);
          g_autofree char *note = NULL;

          if (same->len < 2)
            {
              viva_class_report_set_duplicate (report, NULL);
              continue;
            }

          for (guint j = 0; j < same->len; j++)
            if (j != i)
              {
                g_autofree char *name = g_path_get_basename (viva_class_report_get_path (g_ptr_array_index (same, j)));

                if (others->len > 0)
                  g_string_append (others, ", ");
                g_string_append (others, name);
              }
          note = g_strdup_printf (_("Another report claims the same student and problem (%s); the gradebook takes neither until you keep one."),
                                  others->str);
          viva_class_report_set_duplicate (report, note);
        }
  }
}

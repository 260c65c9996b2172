/* viva-class-results-regrade.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-class-regrade.h"
#include "viva-class-results-private.h"

/* Re-grading a class on the teacher's machine: each report's code through
 * the grader (viva-class-regrade.c) against the teacher's own copy of its
 * problem, a few at a time; the object's busy state and progress are set
 * through viva-class-results.c. */

typedef struct
{
  GPtrArray *queue;     /* VivaClassReport, with their problems in problems */
  GPtrArray *problems;
  guint      next;
  guint      running;
  guint      done;
} RegradeAll;

static void
regrade_all_free (gpointer data)
{
  RegradeAll *ra = data;

  g_ptr_array_unref (ra->queue);
  g_ptr_array_unref (ra->problems);
  g_free (ra);
}

static VivaProblem *
find_problem (VivaClassResults *self,
              VivaClassReport  *report,
              char            **why)
{
  const char *pack_id = viva_class_report_get_pack_id (report);
  const char *problem_id = viva_class_report_get_problem_id (report);

  for (guint i = 0; i < self->packs->len; i++)
    {
      VivaPack *pack = g_ptr_array_index (self->packs, i);
      VivaProblem *problem;

      if (g_strcmp0 (viva_pack_get_id (pack), pack_id) != 0)
        continue;
      if ((problem = viva_pack_find_problem (pack, problem_id)) != NULL)
        return problem;

      *why = g_strdup_printf (_("Your copy of the pack “%s” has no problem “%s”; import the pack version the class used."),
                              pack_id, problem_id);
      return NULL;
    }

  *why = g_strdup_printf (_("You do not have the pack “%s”; import it or name it with --pack to re-grade this report."),
                          pack_id[0] != '\0' ? pack_id : "?");
  return NULL;
}

static void start_regrades (GTask *task);

typedef struct
{
  GTask           *task;
  VivaClassReport *report;
} RegradeOne;

static void
regrade_one_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  RegradeOne *one = user_data;
  g_autoptr(GTask) task = one->task;
  g_autoptr(VivaClassReport) report = one->report;
  VivaClassResults *self = g_task_get_source_object (task);
  RegradeAll *ra = g_task_get_task_data (task);
  g_autoptr(JsonNode) grade = NULL;
  g_autoptr(GError) error = NULL;

  g_free (one);
  ra->running--;
  ra->done++;

  if ((grade = viva_class_regrade_finish (result, &error)) != NULL)
    viva_class_report_set_regrade (report, grade);
  else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_autofree char *message = g_strdup_printf (_("The re-grade could not run: %s"), error->message);
      viva_class_report_set_regrade_error (report, VIVA_CLASS_FLAG_REGRADE_FAILED, message);
    }

  _viva_class_results_set_progress (self, ra->done, ra->queue->len);

  if (g_task_get_cancellable (task) != NULL && g_cancellable_is_cancelled (g_task_get_cancellable (task)))
    {
      if (ra->running == 0)
        {
          _viva_class_results_set_busy (self, FALSE);
          g_task_return_error_if_cancelled (task);
        }
      return;
    }

  start_regrades (g_steal_pointer (&task));
}

/* Keeps max_parallel re-grades running: each is a worker process, and a
 * lab PC has few cores. Takes the task's reference. */
static void
start_regrades (GTask *task)
{
  g_autoptr(GTask) owned = task;
  VivaClassResults *self = g_task_get_source_object (task);
  RegradeAll *ra = g_task_get_task_data (task);

  while (ra->running < self->max_parallel && ra->next < ra->queue->len)
    {
      RegradeOne *one = g_new0 (RegradeOne, 1);
      VivaClassReport *report = g_ptr_array_index (ra->queue, ra->next);

      one->task = g_object_ref (task);
      one->report = g_object_ref (report);
      ra->running++;
      viva_class_regrade_async (g_ptr_array_index (ra->problems, ra->next), viva_class_report_get_code (report),
                                g_task_get_cancellable (task), regrade_one_cb, one);
      ra->next++;
    }

  if (ra->running == 0 && ra->next == ra->queue->len)
    {
      _viva_class_results_set_busy (self, FALSE);
      g_task_return_boolean (task, TRUE);
    }
}

/**
 * viva_class_results_regrade_async:
 *
 * Re-grades every readable report against the added packs, at most
 * #VivaClassResults:max-parallel at a time, on the main loop (each re-grade
 * is a worker process). #VivaClassResults:n-regraded counts up as they end;
 * each report's row is updated and flagged as its re-grade ends. A report
 * whose pack or problem is missing is flagged `unknown-pack` at once.
 */
void
viva_class_results_regrade_async (VivaClassResults    *self,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  RegradeAll *ra;
  guint n;

  g_return_if_fail (VIVA_IS_CLASS_RESULTS (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_class_results_regrade_async);

  ra = g_new0 (RegradeAll, 1);
  ra->queue = g_ptr_array_new_with_free_func (g_object_unref);
  ra->problems = g_ptr_array_new_with_free_func (g_object_unref);
  g_task_set_task_data (task, ra, regrade_all_free);

  n = g_list_model_get_n_items (G_LIST_MODEL (self->reports));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(VivaClassReport) report = g_list_model_get_item (G_LIST_MODEL (self->reports), i);
      g_autofree char *why = NULL;
      VivaProblem *problem;

      if (!viva_class_report_get_readable (report))
        continue;

      if (!(problem = find_problem (self, report, &why)))
        {
          viva_class_report_set_regrade_error (report, VIVA_CLASS_FLAG_UNKNOWN_PACK, why);
          continue;
        }

      g_ptr_array_add (ra->queue, g_object_ref (report));
      g_ptr_array_add (ra->problems, g_object_ref (problem));
    }

  _viva_class_results_set_progress (self, 0, ra->queue->len);
  _viva_class_results_set_busy (self, TRUE);
  start_regrades (g_steal_pointer (&task));
}

gboolean
viva_class_results_regrade_finish (VivaClassResults  *self,
                                   GAsyncResult      *result,
                                   GError           **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

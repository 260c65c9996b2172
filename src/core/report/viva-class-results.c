/* viva-class-results.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-class-regrade.h"
#include "viva-class-results-private.h"
#include "viva-report-file.h"
#include "viva-report-signature.h"

/* A class's reports in one list: collected from files and folders off the
 * main loop, re-graded on the teacher's machine a few at a time against the
 * teacher's own copies of the packs, counted and summed up. The list is a
 * GListModel of VivaClassReport, which both the CLI and the Class Results
 * window read; exports are in viva-class-export.c. */

#define DEFAULT_MAX_PARALLEL 2

enum {
  PROP_0,
  PROP_BUSY,
  PROP_N_REGRADED,
  PROP_N_TO_REGRADE,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (VivaClassResults, viva_class_results, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

static void
viva_class_results_finalize (GObject *object)
{
  VivaClassResults *self = (VivaClassResults *)object;

  g_clear_object (&self->reports);
  g_clear_pointer (&self->packs, g_ptr_array_unref);
  g_clear_object (&self->exam);
  if (self->teacher_scores != NULL)
    g_clear_signal_handler (&self->teacher_changed_id, self->teacher_scores);
  g_clear_object (&self->teacher_scores);
  g_clear_pointer (&self->signing_key, g_free);

  G_OBJECT_CLASS (viva_class_results_parent_class)->finalize (object);
}

static void
viva_class_results_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  VivaClassResults *self = VIVA_CLASS_RESULTS (object);

  switch (prop_id)
    {
    case PROP_BUSY: g_value_set_boolean (value, self->busy); break;
    case PROP_N_REGRADED: g_value_set_uint (value, self->n_regraded); break;
    case PROP_N_TO_REGRADE: g_value_set_uint (value, self->n_to_regrade); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_class_results_class_init (VivaClassResultsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = viva_class_results_finalize;
  object_class->get_property = viva_class_results_get_property;

  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_N_REGRADED] =
    g_param_spec_uint ("n-regraded", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_N_TO_REGRADE] =
    g_param_spec_uint ("n-to-regrade", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
viva_class_results_init (VivaClassResults *self)
{
  self->reports = g_list_store_new (VIVA_TYPE_CLASS_REPORT);
  self->packs = g_ptr_array_new_with_free_func (g_object_unref);
  self->max_parallel = DEFAULT_MAX_PARALLEL;
}

VivaClassResults *
viva_class_results_new (void)
{
  return g_object_new (VIVA_TYPE_CLASS_RESULTS, NULL);
}

/**
 * viva_class_results_get_reports:
 *
 * Returns: (transfer none): a #GListModel of #VivaClassReport, sorted by
 *   student, then problem, then start
 */
GListModel *
viva_class_results_get_reports (VivaClassResults *self)
{
  g_return_val_if_fail (VIVA_IS_CLASS_RESULTS (self), NULL);

  return G_LIST_MODEL (self->reports);
}

/**
 * viva_class_results_add_pack:
 * @pack: the teacher's copy of a pack
 *
 * Adds a pack re-grading looks problems up in. The first pack added with
 * an id wins, so add the packs named on the command line before the
 * library's.
 */
void
viva_class_results_add_pack (VivaClassResults *self,
                             VivaPack         *pack)
{
  g_return_if_fail (VIVA_IS_CLASS_RESULTS (self));
  g_return_if_fail (VIVA_IS_PACK (pack));

  g_ptr_array_add (self->packs, g_object_ref (pack));
}

static void
apply_exam (VivaClassResults *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->reports));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(VivaClassReport) report = g_list_model_get_item (G_LIST_MODEL (self->reports), i);

      viva_class_report_set_exam (report, self->exam);
    }
  _viva_class_results_update_claims (G_LIST_MODEL (self->reports));
}

/**
 * viva_class_results_set_exam:
 * @exam: (nullable): the teacher's copy of the exam the reports are of
 *
 * Makes the exam file's hint cost the one every report of that exam is
 * scored with, whatever the report recorded (a report records it in the
 * student's account, where it can be edited); a report that recorded
 * another cost is flagged `hint-cost-mismatch`. Applies to the reports
 * collected so far and to those collected later. Main thread.
 */
void
viva_class_results_set_exam (VivaClassResults *self,
                             VivaExamFile     *exam)
{
  g_return_if_fail (VIVA_IS_CLASS_RESULTS (self));
  g_return_if_fail (exam == NULL || VIVA_IS_EXAM_FILE (exam));

  g_set_object (&self->exam, exam);
  apply_exam (self);
}

/**
 * viva_class_results_get_exam:
 *
 * Returns: (transfer none) (nullable): the exam given to
 *   viva_class_results_set_exam()
 */
VivaExamFile *
viva_class_results_get_exam (VivaClassResults *self)
{
  g_return_val_if_fail (VIVA_IS_CLASS_RESULTS (self), NULL);
  return self->exam;
}

gboolean
viva_class_results_get_busy (VivaClassResults *self)
{
  g_return_val_if_fail (VIVA_IS_CLASS_RESULTS (self), FALSE);
  return self->busy;
}

guint
viva_class_results_get_n_regraded (VivaClassResults *self)
{
  g_return_val_if_fail (VIVA_IS_CLASS_RESULTS (self), 0);
  return self->n_regraded;
}

guint
viva_class_results_get_n_to_regrade (VivaClassResults *self)
{
  g_return_val_if_fail (VIVA_IS_CLASS_RESULTS (self), 0);
  return self->n_to_regrade;
}

guint
viva_class_results_get_max_parallel (VivaClassResults *self)
{
  g_return_val_if_fail (VIVA_IS_CLASS_RESULTS (self), 0);
  return self->max_parallel;
}

/**
 * viva_class_results_set_max_parallel:
 * @max_parallel: how many re-grades run at once; 0 for the default (2)
 */
void
viva_class_results_set_max_parallel (VivaClassResults *self,
                                     guint             max_parallel)
{
  g_return_if_fail (VIVA_IS_CLASS_RESULTS (self));
  self->max_parallel = max_parallel > 0 ? max_parallel : DEFAULT_MAX_PARALLEL;
}

void
_viva_class_results_set_busy (VivaClassResults *self,
                              gboolean          busy)
{
  if (self->busy == busy)
    return;

  self->busy = busy;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

void
_viva_class_results_set_progress (VivaClassResults *self,
                                  guint             n_regraded,
                                  guint             n_to_regrade)
{
  if (self->n_to_regrade != n_to_regrade)
    {
      self->n_to_regrade = n_to_regrade;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_TO_REGRADE]);
    }
  if (self->n_regraded != n_regraded)
    {
      self->n_regraded = n_regraded;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_REGRADED]);
    }
}

/* Collecting */

static int
compare_reports (gconstpointer a,
                 gconstpointer b)
{
  VivaClassReport *ra = *(VivaClassReport **)a;
  VivaClassReport *rb = *(VivaClassReport **)b;
  int cmp;

  if ((cmp = g_utf8_collate (viva_class_report_get_student_name (ra), viva_class_report_get_student_name (rb))) != 0)
    return cmp;
  if ((cmp = g_strcmp0 (viva_class_report_get_student_id (ra), viva_class_report_get_student_id (rb))) != 0)
    return cmp;
  if ((cmp = g_strcmp0 (viva_class_report_get_problem_id (ra), viva_class_report_get_problem_id (rb))) != 0)
    return cmp;
  if ((cmp = g_strcmp0 (viva_class_report_get_started (ra), viva_class_report_get_started (rb))) != 0)
    return cmp;
  return g_strcmp0 (viva_class_report_get_path (ra), viva_class_report_get_path (rb));
}

typedef struct
{
  char **paths;
  char  *signing_key;
} Collect;

static void
collect_free (Collect *collect)
{
  g_strfreev (collect->paths);
  g_free (collect->signing_key);
  g_free (collect);
}

/* With the server's key, a report is what the server signed or flagged:
 * a report that can be edited in a student's account proves nothing
 * without it. */
static void
check_signature (VivaClassReport *report,
                 const char      *key_pem)
{
  g_autofree char *message = NULL;
  VivaReportSignature status;

  if (!viva_class_report_get_readable (report))
    return;
  status = viva_report_signature_check (viva_class_report_get_path (report), key_pem, &message);
  viva_class_report_set_signature (report, status, message);
}

static void
collect_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  Collect *collect = task_data;
  const char * const *paths = (const char * const *)collect->paths;
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) reports = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; paths[i] != NULL; i++)
    {
      if (!g_file_test (paths[i], G_FILE_TEST_EXISTS))
        {
          g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                                   _("“%s” does not exist; name a report or a folder of reports."), paths[i]);
          return;
        }
      viva_report_file_list (paths[i], files);
    }

  g_ptr_array_sort (files, (GCompareFunc)g_strcmp0);
  for (guint i = 0; i < files->len; i++)
    {
      if (g_task_return_error_if_cancelled (task))
        return;
      g_ptr_array_add (reports, viva_class_report_new_from_file (g_ptr_array_index (files, i)));
      if (collect->signing_key != NULL)
        check_signature (g_ptr_array_index (reports, reports->len - 1), collect->signing_key);
    }

  g_ptr_array_sort (reports, compare_reports);
  g_task_return_pointer (task, g_steal_pointer (&reports), (GDestroyNotify)g_ptr_array_unref);
}

/**
 * viva_class_results_set_signing_key:
 * @key_pem: (nullable): the exam server's public key (PEM)
 *
 * Reports collected from now on are checked against it: one without its
 * signature file is flagged `unsigned`, one whose signature does not
 * match `bad-signature`.
 */
void
viva_class_results_set_signing_key (VivaClassResults *self,
                                    const char       *key_pem)
{
  g_return_if_fail (VIVA_IS_CLASS_RESULTS (self));

  g_free (self->signing_key);
  self->signing_key = g_strdup (key_pem);
}

/**
 * viva_class_results_collect_async:
 * @paths: report files and folders (searched recursively for `*.json`)
 *
 * Reads the reports in a thread and replaces the list with them when done.
 * A file that is not a readable report still makes a row, flagged
 * `unreadable`; only a path that does not exist fails the collection.
 */
void
viva_class_results_collect_async (VivaClassResults    *self,
                                  const char * const  *paths,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  Collect *collect;

  g_return_if_fail (VIVA_IS_CLASS_RESULTS (self));
  g_return_if_fail (paths != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_class_results_collect_async);
  collect = g_new0 (Collect, 1);
  collect->paths = g_strdupv ((char **)paths);
  collect->signing_key = g_strdup (self->signing_key);
  g_task_set_task_data (task, collect, (GDestroyNotify)collect_free);
  _viva_class_results_set_busy (self, TRUE);
  g_task_run_in_thread (task, collect_thread);
}

gboolean
viva_class_results_collect_finish (VivaClassResults  *self,
                                   GAsyncResult      *result,
                                   GError           **error)
{
  g_autoptr(GPtrArray) reports = NULL;

  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  _viva_class_results_set_busy (self, FALSE);
  if (!(reports = g_task_propagate_pointer (G_TASK (result), error)))
    return FALSE;

  _viva_class_results_set_progress (self, 0, 0);
  /* The rows are read in a thread and the exam file is a GObject: its
   * cost is applied here, on the main thread, before anyone sees them. */
  for (guint i = 0; self->exam != NULL && i < reports->len; i++)
    viva_class_report_set_exam (g_ptr_array_index (reports, i), self->exam);
  g_list_store_splice (self->reports, 0, g_list_model_get_n_items (G_LIST_MODEL (self->reports)),
                       reports->pdata, reports->len);
  _viva_class_results_update_claims (G_LIST_MODEL (self->reports));
  if (self->teacher_scores != NULL)
    _viva_class_results_apply_teacher (G_LIST_MODEL (self->reports), self->teacher_scores);

  return TRUE;
}

static void
teacher_changed_cb (VivaClassResults  *self,
                    VivaTeacherScores *scores)
{
  _viva_class_results_apply_teacher (G_LIST_MODEL (self->reports), scores);
}

/**
 * viva_class_results_set_teacher_scores:
 * @scores: (nullable): the teacher's own scores
 *
 * Puts the teacher's score beside the examiner's in every row it scores,
 * now, for rows collected later, and whenever @scores changes. Main
 * thread.
 */
void
viva_class_results_set_teacher_scores (VivaClassResults  *self,
                                       VivaTeacherScores *scores)
{
  g_return_if_fail (VIVA_IS_CLASS_RESULTS (self));
  g_return_if_fail (scores == NULL || VIVA_IS_TEACHER_SCORES (scores));

  if (self->teacher_scores == scores)
    return;

  if (self->teacher_scores != NULL)
    g_clear_signal_handler (&self->teacher_changed_id, self->teacher_scores);
  g_set_object (&self->teacher_scores, scores);
  if (scores != NULL)
    self->teacher_changed_id = g_signal_connect_swapped (scores, "changed", G_CALLBACK (teacher_changed_cb), self);
  _viva_class_results_apply_teacher (G_LIST_MODEL (self->reports), scores);
}

/**
 * viva_class_results_get_teacher_scores:
 *
 * Returns: (transfer none) (nullable): the teacher's scores
 */
VivaTeacherScores *
viva_class_results_get_teacher_scores (VivaClassResults *self)
{
  g_return_val_if_fail (VIVA_IS_CLASS_RESULTS (self), NULL);
  return self->teacher_scores;
}

/**
 * viva_class_results_calibrate:
 *
 * Returns: (transfer full): how Viva agrees with the teacher over the
 *   defenses the teacher scored (see viva-class-results-teacher.c)
 */
VivaCalibration *
viva_class_results_calibrate (VivaClassResults *self)
{
  g_return_val_if_fail (VIVA_IS_CLASS_RESULTS (self), NULL);
  return _viva_class_results_calibrate (G_LIST_MODEL (self->reports));
}

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

struct _VivaClassResults
{
  GObject       parent_instance;

  GListStore   *reports;
  GPtrArray    *packs;
  VivaExamFile *exam;           /* the teacher's copy of the exam, if given */
  VivaTeacherScores *teacher_scores;    /* the teacher's own scores, if given */
  char         *signing_key;    /* the exam server's public key (PEM), if given */
  gulong        teacher_changed_id;
  guint         max_parallel;
  guint         n_regraded;
  guint         n_to_regrade;
  gboolean      busy;
};

enum {
  PROP_0,
  PROP_BUSY,
  PROP_N_REGRADED,
  PROP_N_TO_REGRADE,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (VivaClassResults, viva_class_results, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

void
viva_class_stat_free (VivaClassStat *stat)
{
  if (stat == NULL)
    return;

  g_free (stat->problem_id);
  g_free (stat->name);
  g_free (stat);
}

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

static void
set_busy (VivaClassResults *self,
          gboolean          busy)
{
  if (self->busy == busy)
    return;

  self->busy = busy;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static void
set_progress (VivaClassResults *self,
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
  set_busy (self, TRUE);
  g_task_run_in_thread (task, collect_thread);
}

gboolean
viva_class_results_collect_finish (VivaClassResults  *self,
                                   GAsyncResult      *result,
                                   GError           **error)
{
  g_autoptr(GPtrArray) reports = NULL;

  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  set_busy (self, FALSE);
  if (!(reports = g_task_propagate_pointer (G_TASK (result), error)))
    return FALSE;

  set_progress (self, 0, 0);
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

/* Re-grading */

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

  set_progress (self, ra->done, ra->queue->len);

  if (g_task_get_cancellable (task) != NULL && g_cancellable_is_cancelled (g_task_get_cancellable (task)))
    {
      if (ra->running == 0)
        {
          set_busy (self, FALSE);
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
      set_busy (self, FALSE);
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

  set_progress (self, 0, ra->queue->len);
  set_busy (self, TRUE);
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

/* Counting */

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

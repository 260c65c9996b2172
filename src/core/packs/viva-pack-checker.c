/* viva-pack-checker.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-pack-checker.h"
#include "viva-problem-grade.h"

/* A problem proves itself: its reference solution passes every hidden test
 * and its starter code fails at least one (an explain problem's starter is
 * the code under discussion, so it is not held to that). Both are judged by
 * the grader exactly as a student's code is (viva_problem_grade_async():
 * fresh workers, structured tests judged outside the process), so a
 * reference that exits early or never returns a value fails. Gradings go one
 * at a time, in pack order, and each test is announced by ::checked. */

struct _VivaPackChecker
{
  GObject     parent_instance;
  VivaRunner *runner;
  guint       timeout_ms;
};

enum {
  PROP_0,
  PROP_RUNNER,
  PROP_TIMEOUT,
  N_PROPS
};

enum {
  CHECKED,
  N_SIGNALS
};

G_DEFINE_FINAL_TYPE (VivaPackChecker, viva_pack_checker, G_TYPE_OBJECT)
G_DEFINE_BOXED_TYPE (VivaPackCheck, viva_pack_check, viva_pack_check_copy, viva_pack_check_free)

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

VivaPackCheck *
viva_pack_check_copy (const VivaPackCheck *check)
{
  VivaPackCheck *copy;

  g_return_val_if_fail (check != NULL, NULL);

  copy = g_memdup2 (check, sizeof *check);
  copy->problem_id = g_strdup (check->problem_id);
  copy->test_name = g_strdup (check->test_name);
  copy->error_type = g_strdup (check->error_type);
  copy->error_message = g_strdup (check->error_message);

  return copy;
}

void
viva_pack_check_free (VivaPackCheck *check)
{
  if (check == NULL)
    return;

  g_free (check->problem_id);
  g_free (check->test_name);
  g_free (check->error_type);
  g_free (check->error_message);
  g_free (check);
}

const char *
viva_pack_check_subject_to_string (VivaPackCheckSubject subject)
{
  return subject == VIVA_PACK_CHECK_REFERENCE ? "reference" : "starter";
}

static void
viva_pack_checker_dispose (GObject *object)
{
  VivaPackChecker *self = (VivaPackChecker *)object;

  g_clear_object (&self->runner);

  G_OBJECT_CLASS (viva_pack_checker_parent_class)->dispose (object);
}

static void
viva_pack_checker_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  VivaPackChecker *self = VIVA_PACK_CHECKER (object);

  switch (prop_id)
    {
    case PROP_RUNNER:
      g_value_set_object (value, viva_pack_checker_get_runner (self));
      break;

    case PROP_TIMEOUT:
      g_value_set_uint (value, viva_pack_checker_get_timeout (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_pack_checker_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  VivaPackChecker *self = VIVA_PACK_CHECKER (object);

  switch (prop_id)
    {
    case PROP_RUNNER:
      self->runner = g_value_dup_object (value);
      if (self->runner == NULL)
        self->runner = viva_runner_new ();
      break;

    case PROP_TIMEOUT:
      viva_pack_checker_set_timeout (self, g_value_get_uint (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
viva_pack_checker_class_init (VivaPackCheckerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = viva_pack_checker_dispose;
  object_class->get_property = viva_pack_checker_get_property;
  object_class->set_property = viva_pack_checker_set_property;

  properties[PROP_RUNNER] =
    g_param_spec_object ("runner", NULL, NULL, VIVA_TYPE_RUNNER,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TIMEOUT] =
    g_param_spec_uint ("timeout", NULL, NULL, 1, G_MAXUINT, VIVA_RUNNER_DEFAULT_TIMEOUT_MS,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * VivaPackChecker::checked:
   * @check: (type VivaPackCheck): the run that just ended
   *
   * One subject ran with one test; for progress and for `--json` events.
   */
  signals[CHECKED] =
    g_signal_new ("checked", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, VIVA_TYPE_PACK_CHECK | G_SIGNAL_TYPE_STATIC_SCOPE);
}

static void
viva_pack_checker_init (VivaPackChecker *self)
{
  self->timeout_ms = VIVA_RUNNER_DEFAULT_TIMEOUT_MS;
}

/**
 * viva_pack_checker_new:
 * @runner: (nullable): kept for the property; checks no longer run on it,
 *   but through the grader in workers of their own
 *
 * Returns: (transfer full): a new checker
 */
VivaPackChecker *
viva_pack_checker_new (VivaRunner *runner)
{
  g_return_val_if_fail (!runner || VIVA_IS_RUNNER (runner), NULL);

  return g_object_new (VIVA_TYPE_PACK_CHECKER, "runner", runner, NULL);
}

/**
 * viva_pack_checker_get_runner:
 *
 * Returns: (transfer none): the runner the checks run on
 */
VivaRunner *
viva_pack_checker_get_runner (VivaPackChecker *self)
{
  g_return_val_if_fail (VIVA_IS_PACK_CHECKER (self), NULL);

  return self->runner;
}

guint
viva_pack_checker_get_timeout (VivaPackChecker *self)
{
  g_return_val_if_fail (VIVA_IS_PACK_CHECKER (self), 0);

  return self->timeout_ms;
}

/**
 * viva_pack_checker_set_timeout:
 * @timeout_ms: kept for the property; each test of a grading has
 *   %VIVA_GRADER_TIMEOUT_MS
 */
void
viva_pack_checker_set_timeout (VivaPackChecker *self,
                               guint            timeout_ms)
{
  g_return_if_fail (VIVA_IS_PACK_CHECKER (self));
  g_return_if_fail (timeout_ms > 0);

  if (self->timeout_ms == timeout_ms)
    return;

  self->timeout_ms = timeout_ms;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIMEOUT]);
}

typedef struct
{
  VivaProblem          *problem;
  guint                 problem_index;
  VivaPackCheckSubject  subject;
} Job;

typedef struct
{
  GPtrArray *jobs;
  guint      next;
  GPtrArray *issues;
  gint64     started_us;
} CheckData;

static void
job_free (gpointer data)
{
  Job *job = data;

  g_clear_object (&job->problem);
  g_free (job);
}

static void
check_data_free (gpointer data)
{
  CheckData *cd = data;

  g_clear_pointer (&cd->jobs, g_ptr_array_unref);
  g_clear_pointer (&cd->issues, g_ptr_array_unref);
  g_free (cd);
}

static void
add_jobs (CheckData   *cd,
          VivaProblem *problem,
          guint        problem_index)
{
  gboolean starter = viva_problem_get_problem_type (problem) != VIVA_PROBLEM_EXPLAIN;

  for (guint pass = 0; pass < (starter ? 2 : 1); pass++)
    {
      Job *job = g_new0 (Job, 1);

      job->problem = g_object_ref (problem);
      job->problem_index = problem_index;
      job->subject = pass == 0 ? VIVA_PACK_CHECK_REFERENCE : VIVA_PACK_CHECK_STARTER;
      g_ptr_array_add (cd->jobs, job);
    }
}

static void run_next (GTask *task);

static void
add_issue (CheckData     *cd,
           VivaPackError  code,
           guint          problem_index,
           const char    *key,
           char          *message)
{
  g_autofree char *path = g_strdup_printf ("problems[%u].%s", problem_index, key);
  g_autofree char *owned = message;

  g_ptr_array_add (cd->issues, viva_pack_issue_new (code, VIVA_PACK_ISSUE_ERROR, path, owned));
}

static VivaRunStatus
status_from_grade (const char *status)
{
  if (g_str_equal (status, "passed"))
    return VIVA_RUN_STATUS_OK;
  if (g_str_equal (status, "timeout"))
    return VIVA_RUN_STATUS_TIMEOUT;
  if (g_str_equal (status, "crashed"))
    return VIVA_RUN_STATUS_CRASHED;
  return VIVA_RUN_STATUS_ERROR;
}

/* One grading's tests, as checks and issues. */
static void
record (GTask           *task,
        Job             *job,
        VivaGradeReport *report,
        double           duration_ms)
{
  VivaPackChecker *self = g_task_get_source_object (task);
  CheckData *cd = g_task_get_task_data (task);
  const char *problem_id = viva_problem_get_id (job->problem);
  guint n = viva_grade_report_get_n_tests (report);

  for (guint i = 0; i < n; i++)
    {
      const VivaGradeTest *test = viva_grade_report_get_test (report, i);
      g_autoptr(VivaPackCheck) check = g_new0 (VivaPackCheck, 1);

      check->problem_id = g_strdup (problem_id);
      check->problem_index = job->problem_index;
      check->subject = job->subject;
      check->test_name = g_strdup (test->name);
      check->test_index = i;
      check->status = status_from_grade (test->status);
      check->passed = test->passed;
      check->error_type = test->passed ? NULL : g_strdup (test->status);
      check->error_message = test->passed ? NULL : g_strdup (test->message);
      check->duration_ms = duration_ms / MAX (n, 1);

      /* An old-form test is evidence, never a pass, for the reference too;
       * the validator says so of each. */
      if (job->subject == VIVA_PACK_CHECK_REFERENCE && !check->passed &&
          g_strcmp0 (test->status, "evidence") != 0)
        add_issue (cd, VIVA_PACK_ERROR_REFERENCE_FAILS, job->problem_index, "reference_solution",
                   g_strdup_printf (_("fails test “%s” (%s) — in problem “%s”, the reference solution must pass every test; fix the solution or the test"),
                                    test->name, test->message, problem_id));

      g_signal_emit (self, signals[CHECKED], 0, check);
    }

  /* The examples are what a student Checks against first: a starter that
   * passes them all teaches nothing until the held-out tests fail. */
  if (job->subject == VIVA_PACK_CHECK_STARTER && viva_problem_get_n_shown_tests (job->problem) > 0)
    {
      gboolean fails_shown = FALSE;

      for (guint i = 0; i < n && i < viva_problem_get_n_tests (job->problem); i++)
        if (viva_problem_test_is_shown (viva_problem_get_test (job->problem, i)) &&
            !viva_grade_report_get_test (report, i)->passed)
          fails_shown = TRUE;

      if (!fails_shown)
        {
          g_autofree char *path = g_strdup_printf ("problems[%u].starter_code", job->problem_index);
          g_autofree char *message = g_strdup_printf (_("passes every shown test — in problem “%s”, the examples teach the student nothing; show a test the starter code fails"),
                                                      problem_id);

          g_ptr_array_add (cd->issues,
                           viva_pack_issue_new (VIVA_PACK_ERROR_STARTER_PASSES, VIVA_PACK_ISSUE_WARNING, path, message));
        }
    }

  if (job->subject == VIVA_PACK_CHECK_STARTER && n > 0 && viva_grade_report_get_n_passed (report) == n)
    add_issue (cd, VIVA_PACK_ERROR_STARTER_PASSES, job->problem_index, "starter_code",
               g_strdup_printf (_("passes every test — in problem “%s”, the student would start with the problem solved; leave part of the work out of the starter code or add a test it fails"),
                                problem_id));
}

static void
grade_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  CheckData *cd = g_task_get_task_data (task);
  g_autoptr(VivaGradeReport) report = NULL;
  g_autoptr(GError) error = NULL;

  if (g_task_return_error_if_cancelled (task))
    return;

  if (!(report = viva_problem_grade_finish (VIVA_PROBLEM (object), result, &error)))
    return g_task_return_error (task, g_steal_pointer (&error));

  record (task, g_ptr_array_index (cd->jobs, cd->next - 1), report,
          (g_get_monotonic_time () - cd->started_us) / 1000.0);
  run_next (g_steal_pointer (&task));
}

/* Each reference and starter goes through the grader, as a student's code
 * does: fresh workers, structured tests judged outside the process, so a
 * reference that only exits early or never returns fails. */
static void
run_next (GTask *task)
{
  CheckData *cd = g_task_get_task_data (task);
  g_autoptr(GTask) owned = task;
  GCancellable *cancellable;
  const char *code;
  Job *job;

  if (cd->next == cd->jobs->len)
    return g_task_return_pointer (owned, g_ptr_array_ref (cd->issues), (GDestroyNotify)g_ptr_array_unref);

  job = g_ptr_array_index (cd->jobs, cd->next++);
  code = job->subject == VIVA_PACK_CHECK_REFERENCE
    ? viva_problem_get_reference (job->problem)
    : viva_problem_get_starter_code (job->problem);

  cancellable = g_task_get_cancellable (owned);
  cd->started_us = g_get_monotonic_time ();
  viva_problem_grade_for_author_async (job->problem, code ? code : "", cancellable,
                                       grade_cb, g_steal_pointer (&owned));
}

static void
viva_pack_checker_start (VivaPackChecker *self,
                         GTask           *task)
{
  run_next (task);
}

static GTask *
new_check_task (VivaPackChecker     *self,
                GCancellable        *cancellable,
                GAsyncReadyCallback  callback,
                gpointer             user_data)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  CheckData *cd = g_new0 (CheckData, 1);

  cd->jobs = g_ptr_array_new_with_free_func (job_free);
  cd->issues = viva_pack_issues_new ();
  g_task_set_task_data (task, cd, check_data_free);

  return task;
}

/**
 * viva_pack_checker_check_pack_async:
 * @pack: a valid pack
 *
 * Runs every problem's reference solution and starter code against each of
 * its tests. Completes with the problems found (see
 * viva_pack_checker_check_finish()); emits ::checked after each run.
 */
void
viva_pack_checker_check_pack_async (VivaPackChecker     *self,
                                    VivaPack            *pack,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  GListModel *problems;
  GTask *task;

  g_return_if_fail (VIVA_IS_PACK_CHECKER (self));
  g_return_if_fail (VIVA_IS_PACK (pack));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = new_check_task (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_pack_checker_check_pack_async);

  problems = viva_pack_get_problems (pack);
  for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr(VivaProblem) problem = g_list_model_get_item (problems, i);
      add_jobs (g_task_get_task_data (task), problem, i);
    }

  viva_pack_checker_start (self, task);
}

/**
 * viva_pack_checker_check_problem_async:
 * @problem: the problem to check, for example while a teacher edits it
 * @problem_index: its place in its pack, used in the issues' paths
 *
 * Like viva_pack_checker_check_pack_async() for one problem.
 */
void
viva_pack_checker_check_problem_async (VivaPackChecker     *self,
                                       VivaProblem         *problem,
                                       guint                problem_index,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (VIVA_IS_PACK_CHECKER (self));
  g_return_if_fail (VIVA_IS_PROBLEM (problem));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = new_check_task (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_pack_checker_check_problem_async);
  add_jobs (g_task_get_task_data (task), problem, problem_index);

  viva_pack_checker_start (self, task);
}

/**
 * viva_pack_checker_check_finish:
 *
 * Returns: (transfer full) (element-type VivaPackIssue): what the runs
 *   found wrong, empty when every reference passed and every starter
 *   failed a test; %NULL with @error set when the checks could not run
 *   (the worker did not start, or the check was cancelled)
 */
GPtrArray *
viva_pack_checker_check_finish (VivaPackChecker  *self,
                                GAsyncResult     *result,
                                GError          **error)
{
  g_return_val_if_fail (VIVA_IS_PACK_CHECKER (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

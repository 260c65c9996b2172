/* viva-grader.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "viva-grader.h"
#include "viva-grader-value-private.h"
#include "viva-run-result-private.h"
#include "viva-runner-op-private.h"
#include "viva-text.h"

/* The grader: judges hidden tests where the student's code cannot reach.
 *
 * Each grading starts its own workers and never reuses one: a student's
 * worker per test (fresh, so nothing from earlier Runs or another test
 * survives into it: no thread, hook, file in /tmp or module state), at most
 * PARALLEL_STUDENTS at once; the reference's (which never sees student
 * code) and the judge's (which never runs any code but the pack's setup and
 * checks). A whole grading has a deadline (VIVA_GRADER_DEADLINE_MS by
 * default): past it the tests not decided yet fail, saying so, and their
 * workers are stopped, so code that sleeps costs one deadline, not a
 * timeout per test. For a structured test the
 * student's worker runs the code, the setup and the call in a fresh
 * namespace and sends the call's value as plain data; that text is checked
 * here by a strict decoder (viva-grader-value.c) and only then handed to
 * the judge, which runs the setup again, binds `result` (and the reference's
 * value as `expected`) and runs the check. So the pass/fail fact of such a
 * test depends on nothing but a plain value, whatever the student's code did
 * inside its own process: replaced builtins, forged frames on the channel,
 * threads, hooks or an early exit only change that value, or lose it.
 *
 * Old unstructured tests still run, inside the student's process after the
 * code, and are labelled as such (out_of_process is FALSE); one that runs
 * to its end is "evidence", never "passed": a ten-line builtins.compile
 * hook makes any of them run to its end. A test that
 * cannot be decided (a crash, a timeout, a value that is not plain data, a
 * judge or reference that failed) fails, never passes. */

#define GRADER_OUTPUT_LIMIT (64 * 1024)

/* Two cold workers at once keep two cores busy while one starts and the
 * other runs; more only queue for the CPU (tests/bench/RESULTS.md). */
#define PARALLEL_STUDENTS 2

struct _VivaGrader
{
  GObject parent_instance;
  guint   deadline_ms;
};

G_DEFINE_FINAL_TYPE (VivaGrader, viva_grader, G_TYPE_OBJECT)

/* A grading */

typedef struct
{
  VivaRunner    **students;      /* per test, while its request runs */
  VivaRunner     *reference;     /* NULL when no test compares */
  VivaRunner     *judge;         /* NULL when no test is structured */
  char           *student_code;
  char           *reference_code;
  GPtrArray      *tests;         /* VivaGraderTest */
  guint           threshold;
  VivaGradeTest **outcomes;
  VivaRunResult **values;        /* the student's call results */
  VivaRunResult **expected;      /* the reference's */
  gboolean       *expected_done;
  char           *marker;        /* printed at the end of an old-form test */
  guint           pending;
  guint           next;          /* the next test whose student worker starts */
  guint           running;       /* student workers at work */
  guint           deadline_ms;
  guint           deadline_id;
  GCancellable   *cancellable;   /* the workers': cancelled at the deadline */
  GCancellable   *caller;        /* the caller's, which cancels ours */
  gulong          caller_id;
  gboolean        returned;
  GError         *error;         /* a worker that could not run at all */
} Grading;

static void
grading_free (Grading *g)
{
  for (guint i = 0; i < g->tests->len; i++)
    {
      g_clear_pointer (&g->outcomes[i], viva_grade_test_free);
      g_clear_object (&g->values[i]);
      g_clear_object (&g->expected[i]);
    }
  g_clear_error (&g->error);
  g_clear_handle_id (&g->deadline_id, g_source_remove);
  if (g->caller != NULL)
    g_cancellable_disconnect (g->caller, g->caller_id);
  g_clear_object (&g->caller);
  /* Dropping the runners kills their workers. */
  for (guint i = 0; i < g->tests->len; i++)
    g_clear_object (&g->students[i]);
  g_free (g->students);
  g_free (g->outcomes);
  g_free (g->values);
  g_free (g->expected);
  g_free (g->expected_done);
  g_clear_object (&g->reference);
  g_clear_object (&g->judge);
  g_clear_object (&g->cancellable);
  g_free (g->student_code);
  g_free (g->reference_code);
  g_free (g->marker);
  g_ptr_array_unref (g->tests);
  g_free (g);
}

typedef struct
{
  GTask *task;
  guint  index;
} Job;

static Job *
job_new (GTask *task,
         guint  index)
{
  Job *job = g_new0 (Job, 1);

  job->task = g_object_ref (task);
  job->index = index;
  return job;
}

static void
job_free (Job *job)
{
  g_object_unref (job->task);
  g_free (job);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Job, job_free)

static VivaRunner *
grading_runner_new (void)
{
  VivaRunner *runner = viva_runner_new ();

  viva_runner_set_output_limit (runner, GRADER_OUTPUT_LIMIT);
  return runner;
}

static void
grading_take_error (Grading      *g,
                    const GError *error)
{
  if (g->error == NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g->error = g_error_copy (error);
}

/* Every test has its outcome: the report goes back. A cancelled grading
 * answers once, with the error, as soon as it is seen. */
static void
grading_settle (GTask *task,
                guint  index,
                VivaGradeTest *outcome)
{
  Grading *g = g_task_get_task_data (task);
  g_autoptr(VivaGradeReport) report = NULL;

  /* Past the deadline a test has its outcome already; what its worker
   * says after that (cancelled, mostly) changes nothing. */
  if (g->outcomes[index] != NULL)
    {
      viva_grade_test_free (outcome);
      return;
    }
  g->outcomes[index] = outcome;
  g->pending--;

  if (g->returned)
    return;

  if (g_task_return_error_if_cancelled (task))
    {
      g->returned = TRUE;
      return;
    }

  if (g->pending > 0)
    return;

  if (g->error != NULL)
    {
      /* No grade rather than a grade of errors: nothing was judged. */
      g->returned = TRUE;
      g_task_return_new_error (task, g->error->domain, g->error->code,
                               _("The hidden tests could not be run: %s"), g->error->message);
      return;
    }

  report = viva_grade_report_new (g->threshold);
  for (guint i = 0; i < g->tests->len; i++)
    viva_grade_report_add_test (report, viva_grade_test_copy (g->outcomes[i]));
  g->returned = TRUE;
  g_clear_handle_id (&g->deadline_id, g_source_remove);
  /* Whatever still runs (a reference call, a judge) is not needed. */
  g_cancellable_cancel (g->cancellable);
  g_task_return_pointer (task, g_steal_pointer (&report), g_object_unref);
}

static VivaGradeTest *
outcome (Grading    *g,
         guint       index,
         gboolean    out_of_process,
         const char *status,
         const char *message)
{
  VivaGraderTest *test = g_ptr_array_index (g->tests, index);

  return viva_grade_test_new (test->name, g_str_equal (status, "passed"), out_of_process, status, message);
}

/* Settles @job's test with an outcome of @status. */
static void
job_settle (Job        *job,
            gboolean    out_of_process,
            const char *status,
            const char *message)
{
  Grading *g = g_task_get_task_data (job->task);

  grading_settle (job->task, job->index, outcome (g, job->index, out_of_process, status, message));
}

/* The student's code could not be run for @job's test at all. */
static void
job_not_run (Job          *job,
             gboolean      out_of_process,
             const GError *error)
{
  g_autofree char *message = g_strdup_printf (_("Your code could not be run for this test (%s); it counts as failed."),
                                              error->message);

  grading_take_error (g_task_get_task_data (job->task), error);
  job_settle (job, out_of_process, "error", message);
}

/* A failed assert's own words, @detail, for the student. */
static char *
assertion_message (const char *detail)
{
  /* Translators: %s is the test's own explanation of what went wrong */
  return detail[0] ? g_strdup_printf (_("The test failed: %s"), detail)
                   : g_strdup (_("The test failed."));
}

/* A type name from the student's process, fit to show: it may be forged. */
static char *
sanitize_name (const char *name)
{
  GString *clean = g_string_new (NULL);

  for (const char *p = name ? name : ""; *p && clean->len < 60; p++)
    if (g_ascii_isalnum (*p) || *p == '_' || *p == '.')
      g_string_append_c (clean, *p);

  if (clean->len == 0)
    g_string_append (clean, "object");
  return g_string_free (clean, FALSE);
}

/* What a failed run of the student's code on a test says to the student. */
static VivaGradeTest *
student_failure (Grading       *g,
                 guint          index,
                 gboolean       out_of_process,
                 VivaRunResult *result)
{
  switch (result->status)
    {
    case VIVA_RUN_STATUS_TIMEOUT:
      return outcome (g, index, out_of_process, "timeout",
                      _("Your code ran too long on this test and was stopped."));

    case VIVA_RUN_STATUS_KILLED:
    case VIVA_RUN_STATUS_CRASHED:
      if (result->forged)
        return outcome (g, index, out_of_process, "crashed",
                        _("Your code wrote to Viva’s private channel while this test ran, so its Python was stopped; the test counts as failed."));
      return outcome (g, index, out_of_process, "crashed",
                      _("Python stopped while running your code on this test (it crashed or ended the process)."));

    case VIVA_RUN_STATUS_OK:
    case VIVA_RUN_STATUS_ERROR:
    default:
      break;
    }

  if (g_strcmp0 (result->error_type, "VivaNotComparable") == 0)
    {
      g_autofree char *what = sanitize_name (result->error_message);

      if (g_strcmp0 (result->error_where, "too-large") == 0)
        return outcome (g, index, out_of_process, "too-large",
                        _("Your code returned a value too large to compare."));
      {
        /* Translators: %s is a Python type name, such as Foo or numpy array of object */
        g_autofree char *message = g_strdup_printf (_("Your code returned something Viva cannot compare (a `%s` object)."),
                                                    what);

        return outcome (g, index, out_of_process, "not-plain-data", message);
      }
    }

  {
    g_autofree char *type = sanitize_name (result->error_type ? result->error_type : "Exception");
    g_autofree char *detail = viva_text_prefix (result->error_message, 200);
    g_autofree char *message = NULL;

    if (!out_of_process && g_strcmp0 (result->error_type, "AssertionError") == 0)
      {
        message = assertion_message (detail);
        return outcome (g, index, out_of_process, "failed", message);
      }

    if (result->error_line > 0)
      /* Translators: an exception type, its message, then a line number of the student's code */
      message = g_strdup_printf (_("Your code raised %s: %s (line %d)."), type, detail, result->error_line);
    else
      message = g_strdup_printf (_("Your code raised %s: %s."), type, detail);
    return outcome (g, index, out_of_process, "error", message);
  }
}

static void
judge_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(Job) job = user_data;
  Grading *g = g_task_get_task_data (job->task);
  g_autoptr(VivaRunResult) judged = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *detail = NULL;
  g_autofree char *message = NULL;

  judged = _viva_runner_judge_finish (VIVA_RUNNER (object), result, &error);

  if (judged == NULL)
    {
      grading_take_error (g, error);
      message = g_strdup_printf (_("The grader could not check this test (%s); it counts as failed."),
                                 error->message);
      job_settle (job, TRUE, "error", message);
      return;
    }

  switch (judged->status)
    {
    case VIVA_RUN_STATUS_OK:
      job_settle (job, TRUE, "passed", "");
      return;

    case VIVA_RUN_STATUS_TIMEOUT:
      job_settle (job, TRUE, "timeout",
                  _("The hidden check did not finish in time; the test counts as failed."));
      return;

    case VIVA_RUN_STATUS_KILLED:
    case VIVA_RUN_STATUS_CRASHED:
      job_settle (job, TRUE, "error",
                  _("The grader stopped while checking this test; it counts as failed."));
      return;

    case VIVA_RUN_STATUS_ERROR:
    default:
      break;
    }

  /* The check's own words (its assert messages) are for the student; its
   * source and the traceback are not. */
  detail = viva_text_prefix (judged->error_message, 300);
  if (g_strcmp0 (judged->error_type, "AssertionError") == 0)
    message = assertion_message (detail);
  else
    {
      g_autofree char *type = sanitize_name (judged->error_type);

      /* Translators: an exception type and its message, raised by the hidden check */
      message = g_strdup_printf (_("The hidden check could not use the value your code returned (%s: %s)."),
                                 type, detail);
    }
  job_settle (job, TRUE, "failed", message);
}

/* Once the student's value (and the reference's, if needed) is in. */
static void
grading_judge (GTask *task,
               guint  index)
{
  Grading *g = g_task_get_task_data (task);
  VivaGraderTest *test = g_ptr_array_index (g->tests, index);
  VivaRunResult *value = g->values[index];
  VivaRunResult *expected = g->expected[index];
  g_autofree char *value_text = NULL;
  g_autofree char *expected_text = NULL;

  if (value == NULL || (test->compare && !g->expected_done[index]) || g->outcomes[index] != NULL)
    return;

  if (value->status != VIVA_RUN_STATUS_OK)
    {
      grading_settle (task, index, student_failure (g, index, TRUE, value));
      return;
    }

  switch (_viva_grader_value_check (value->value, &value_text))
    {
    case VIVA_GRADER_VALUE_OK:
      break;
    case VIVA_GRADER_VALUE_TOO_LARGE:
      grading_settle (task, index, outcome (g, index, TRUE, "too-large",
                                            _("Your code returned a value too large to compare.")));
      return;
    case VIVA_GRADER_VALUE_NOT_PLAIN:
    default:
      grading_settle (task, index, outcome (g, index, TRUE, "not-plain-data",
                                            _("Your code returned something Viva cannot compare (a value that is not plain data).")));
      return;
    }

  if (test->compare)
    {
      if (expected == NULL || expected->status != VIVA_RUN_STATUS_OK ||
          _viva_grader_value_check (expected->value, &expected_text) != VIVA_GRADER_VALUE_OK)
        {
          /* Never the reference's source or its error text: only that the
           * pack needs fixing. */
          grading_settle (task, index,
                          outcome (g, index, TRUE, "error",
                                   g->reference_code == NULL
                                   ? _("This test compares with a reference solution, but the problem has none; it counts as failed.")
                                   : _("The reference solution did not produce a value for this test, so the pack needs fixing; it counts as failed.")));
          return;
        }
    }

  _viva_runner_judge_async (g->judge, test->setup, test->check, value_text, expected_text,
                            test->compare, test->tolerance, VIVA_GRADER_TIMEOUT_MS,
                            g_task_get_cancellable (task), judge_cb, job_new (task, index));
}

static gboolean
drop_runner_cb (gpointer user_data)
{
  g_object_unref (user_data);
  return G_SOURCE_REMOVE;
}

static void grading_start_students (GTask *task);
static void student_call_cb (GObject      *object,
                             GAsyncResult *result,
                             gpointer      user_data);
static void legacy_cb       (GObject      *object,
                             GAsyncResult *result,
                             gpointer      user_data);

/* A test's student worker has answered (or was stopped): it is dropped,
 * which kills it, and the next test's starts. Dropped from an idle: the
 * runner is still calling back. */
static void
student_done (GTask *task,
              guint  index)
{
  Grading *g = g_task_get_task_data (task);
  VivaRunner *runner = g_steal_pointer (&g->students[index]);

  if (runner != NULL)
    {
      g->running--;
      g_idle_add (drop_runner_cb, runner);
    }
  grading_start_students (task);
}

/* Starts student workers for the next tests, PARALLEL_STUDENTS at a time. */
static void
grading_start_students (GTask *task)
{
  Grading *g = g_task_get_task_data (task);

  while (g->running < PARALLEL_STUDENTS && g->next < g->tests->len &&
         !g->returned && !g_cancellable_is_cancelled (g->cancellable))
    {
      guint i = g->next++;
      VivaGraderTest *test = g_ptr_array_index (g->tests, i);
      VivaRunner *runner;

      if (g->outcomes[i] != NULL)
        continue;

      runner = g->students[i] = grading_runner_new ();
      g->running++;

      if (test->legacy_code != NULL)
        {
          g_autofree char *probe = g_strdup_printf ("%s\nprint('%s')\n", test->legacy_code, g->marker);

          /* In the student's process after the code. */
          viva_runner_inject_async (runner, g->student_code, probe, VIVA_GRADER_TIMEOUT_MS,
                                    g->cancellable, legacy_cb, job_new (task, i));
        }
      else
        _viva_runner_call_async (runner, g->student_code, test->setup, test->call,
                                 VIVA_GRADER_TIMEOUT_MS, g->cancellable, student_call_cb, job_new (task, i));
    }
}

/* The whole grading ran too long: every test not decided yet fails, and
 * the workers still at it are stopped. */
static gboolean
grading_deadline_cb (gpointer user_data)
{
  GTask *task = user_data;
  Grading *g = g_task_get_task_data (task);
  g_autofree char *message = NULL;

  g->deadline_id = 0;
  /* Translators: %u is a number of seconds */
  message = g_strdup_printf (_("The grading ran past its deadline of %u s, so this test was stopped or never started; it counts as failed."),
                             (g->deadline_ms + 999) / 1000);

  /* Settling may return the task, which drops the caller's reference. */
  g_object_ref (task);
  for (guint i = 0; i < g->tests->len && !g->returned; i++)
    if (g->outcomes[i] == NULL)
      {
        VivaGraderTest *test = g_ptr_array_index (g->tests, i);

        /* "timeout", as for one test: what readers of a report know. */
        grading_settle (task, i, outcome (g, i, test->legacy_code == NULL, "timeout", message));
      }
  g_cancellable_cancel (g->cancellable);
  g_object_unref (task);
  return G_SOURCE_REMOVE;
}

static void
caller_cancelled_cb (GCancellable *caller,
                     GCancellable *ours)
{
  g_cancellable_cancel (ours);
}

static void
student_call_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(Job) job = user_data;
  Grading *g = g_task_get_task_data (job->task);
  g_autoptr(GError) error = NULL;

  g->values[job->index] = _viva_runner_call_finish (VIVA_RUNNER (object), result, &error);
  student_done (job->task, job->index);

  if (g->values[job->index] == NULL)
    return job_not_run (job, TRUE, error);

  grading_judge (job->task, job->index);
}

static void
reference_call_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(Job) job = user_data;
  Grading *g = g_task_get_task_data (job->task);
  g_autoptr(GError) error = NULL;

  if (!(g->expected[job->index] = _viva_runner_call_finish (VIVA_RUNNER (object), result, &error)))
    grading_take_error (g, error);
  g->expected_done[job->index] = TRUE;
  grading_judge (job->task, job->index);
}

static void
legacy_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(Job) job = user_data;
  Grading *g = g_task_get_task_data (job->task);
  g_autoptr(VivaRunResult) run = NULL;
  g_autoptr(GError) error = NULL;

  run = viva_runner_inject_finish (VIVA_RUNNER (object), result, &error);
  student_done (job->task, job->index);

  if (run == NULL)
    return job_not_run (job, FALSE, error);

  if (run->status == VIVA_RUN_STATUS_OK)
    {
      g_autofree char *needle = g_strdup_printf ("%s\n", g->marker);

      /* "ok" also means the code ended the run with sys.exit(0) before the
       * test ran: only a test that printed the marker at its end passed. */
      if (run->stdout_text != NULL && strstr (run->stdout_text, needle) != NULL)
        job_settle (job, FALSE, "evidence",
                    _("This old-form test ran to its end inside your program, where your code can change what it sees, so it is evidence for the examiner only and never counts as a pass."));
      else
        job_settle (job, FALSE, "error",
                    _("The test did not reach its end: the run ended early (sys.exit(), os._exit() or a replaced sys.stdout)."));
    }
  else
    grading_settle (job->task, job->index, student_failure (g, job->index, FALSE, run));
}

static void
ignore_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  /* A failed reset or start shows up in the request queued after it. */
  if (VIVA_IS_RUNNER (object))
    g_task_propagate_boolean (G_TASK (result), NULL);
}

/**
 * viva_grader_new:
 *
 * Returns: (transfer full): a grader; each grading starts fresh sandboxed
 *   workers (one per test for the student's code) and never reuses one
 */
VivaGrader *
viva_grader_new (void)
{
  return g_object_new (VIVA_TYPE_GRADER, NULL);
}

/**
 * viva_grader_grade_async:
 * @student_code: the code to grade
 * @reference_code: (nullable): the problem's reference solution, for tests
 *   that compare with it; it only ever runs in a worker of its own
 * @tests: (element-type VivaGraderTest): the hidden tests, copied
 * @pass_threshold: how many tests must pass, 0 for all
 *
 * Grades @student_code on every test. Main thread only.
 */
void
viva_grader_grade_async (VivaGrader          *self,
                         const char          *student_code,
                         const char          *reference_code,
                         GPtrArray           *tests,
                         guint                pass_threshold,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  gboolean any_structured = FALSE;
  gboolean any_compare = FALSE;
  Grading *g;

  g_return_if_fail (VIVA_IS_GRADER (self));
  g_return_if_fail (student_code != NULL);
  g_return_if_fail (tests != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_grader_grade_async);

  g = g_new0 (Grading, 1);
  g->student_code = g_strdup (student_code);
  g->reference_code = g_strdup (reference_code);
  g->threshold = pass_threshold;
  g->tests = g_ptr_array_new_with_free_func ((GDestroyNotify) viva_grader_test_free);
  for (guint i = 0; i < tests->len; i++)
    {
      VivaGraderTest *test = g_ptr_array_index (tests, i);

      g_ptr_array_add (g->tests, viva_grader_test_copy (test));
      any_structured |= test->legacy_code == NULL;
      any_compare |= test->legacy_code == NULL && test->compare && reference_code != NULL;
    }
  g->students = g_new0 (VivaRunner *, tests->len);
  g->outcomes = g_new0 (VivaGradeTest *, tests->len);
  g->values = g_new0 (VivaRunResult *, tests->len);
  g->expected = g_new0 (VivaRunResult *, tests->len);
  g->expected_done = g_new0 (gboolean, tests->len);
  g->pending = tests->len;
  {
    g_autofree char *uuid = g_uuid_string_random ();

    g->marker = g_strdup_printf ("viva-test-end-%s", uuid);
  }
  g_task_set_task_data (task, g, (GDestroyNotify) grading_free);

  if (tests->len == 0)
    {
      g_task_return_pointer (task, viva_grade_report_new (pass_threshold), g_object_unref);
      return;
    }

  g->cancellable = g_cancellable_new ();
  if (cancellable != NULL)
    {
      g->caller = g_object_ref (cancellable);
      g->caller_id = g_cancellable_connect (cancellable, G_CALLBACK (caller_cancelled_cb),
                                            g_object_ref (g->cancellable), g_object_unref);
    }
  g->deadline_ms = self->deadline_ms;
  /* Borrowed: the source goes before the task's data does. */
  g->deadline_id = g_timeout_add (g->deadline_ms, grading_deadline_cb, task);

  /* The reference and the judge start at once, each for all tests (they run
   * only the pack's code); the judge is ready by the first value. */
  if (any_compare)
    g->reference = grading_runner_new ();
  if (any_structured)
    {
      g->judge = grading_runner_new ();
      viva_runner_start_async (g->judge, g->cancellable, ignore_cb, NULL);
    }

  for (guint i = 0; i < g->tests->len; i++)
    {
      VivaGraderTest *test = g_ptr_array_index (g->tests, i);

      if (test->legacy_code == NULL && test->compare && g->reference != NULL)
        _viva_runner_call_async (g->reference, g->reference_code, test->setup, test->call,
                                 VIVA_GRADER_TIMEOUT_MS, g->cancellable, reference_call_cb, job_new (task, i));
      else
        g->expected_done[i] = TRUE;
    }

  grading_start_students (task);
}

/**
 * viva_grader_grade_finish:
 *
 * Returns: (transfer full): the report; %NULL with @error when the grading
 *   was cancelled or a worker could not start at all (a test whose code
 *   crashed, timed out or returned no value fails, in the report)
 */
VivaGradeReport *
viva_grader_grade_finish (VivaGrader    *self,
                          GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (VIVA_IS_GRADER (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
viva_grader_class_init (VivaGraderClass *klass)
{
}

static void
viva_grader_init (VivaGrader *self)
{
  self->deadline_ms = VIVA_GRADER_DEADLINE_MS;
}

/**
 * viva_grader_set_deadline:
 * @deadline_ms: how long one whole grading may take, in milliseconds
 *
 * Past it, the tests not decided yet fail with a sentence saying so (never
 * pass) and the grading's workers are stopped. Takes effect for the next
 * grading; %VIVA_GRADER_DEADLINE_MS by default.
 */
void
viva_grader_set_deadline (VivaGrader *self,
                          guint       deadline_ms)
{
  g_return_if_fail (VIVA_IS_GRADER (self));
  g_return_if_fail (deadline_ms > 0);

  self->deadline_ms = deadline_ms;
}

guint
viva_grader_get_deadline (VivaGrader *self)
{
  g_return_val_if_fail (VIVA_IS_GRADER (self), 0);

  return self->deadline_ms;
}

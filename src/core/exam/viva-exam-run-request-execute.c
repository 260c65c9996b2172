/* viva-exam-run-request-execute.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-exam-run-request.h"
#include "viva-json-member.h"
#include "viva-run-result-json.h"
#include "viva-runner.h"

/* What a claimer of the grading pool does with a request: runs it against
 * the problem it holds, in workers of its own that live as long as the
 * request (a fresh VivaRunner, stopped at the end; a fresh VivaGrader),
 * so nothing of one student's run is left for the next request, whoever
 * sent it. The student's interpreter is rebuilt from the history first.
 * Main thread. */

typedef struct
{
  VivaProblem *problem;
  JsonObject  *request;
  VivaRunner  *runner;
  VivaGrader  *grader;
  guint        step;        /* the next step of the history to replay */
  gboolean     replay_cut;  /* a step reset the interpreter or timed out */
} Execute;

static gboolean
stop_runner (gpointer user_data)
{
  g_autoptr(VivaRunner) runner = user_data;

  viva_runner_stop (runner);
  return G_SOURCE_REMOVE;
}

static void
execute_free (Execute *execute)
{
  /* From the main loop: this is freed inside the runner's own callback,
   * which may still use the runner once it returns. */
  if (execute->runner != NULL)
    g_idle_add (stop_runner, g_steal_pointer (&execute->runner));
  g_clear_object (&execute->grader);
  g_clear_object (&execute->problem);
  g_clear_pointer (&execute->request, json_object_unref);
  g_free (execute);
}

static guint
timeout_of (Execute *execute)
{
  return (guint)viva_json_member_int (execute->request, "timeout_ms");
}

static gboolean
on_reference (Execute *execute)
{
  return g_strcmp0 (viva_json_member_string (execute->request, "side"), "reference") == 0;
}

/* A result of its own, not an error: what the sender reads as the run's
 * outcome. Only a cancellation fails the task. */
static void
complete (GTask      *task,
          const char *kind,
          JsonNode   *node)
{
  JsonObject *result = json_object_new ();

  json_object_set_member (result, kind, node);
  g_task_return_pointer (task, result, (GDestroyNotify) json_object_unref);
}

static void
complete_error (GTask      *task,
                const char *message)
{
  if (g_task_return_error_if_cancelled (task))
    return;

  complete (task, "error", json_node_init_string (json_node_alloc (), message));
}

static void
complete_run (GTask         *task,
              VivaRunResult *run)
{
  Execute *execute = g_task_get_task_data (task);
  JsonObject *object = viva_run_result_to_json (run);

  /* The replay did not rebuild the interpreter: the sender's history no
   * longer says what its globals are. */
  if (execute->replay_cut)
    json_object_set_boolean_member (object, "state_reset", TRUE);

  complete (task, "run", json_node_init_object (json_node_alloc (), object));
  json_object_unref (object);
}

static void
own_cb (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(VivaRunResult) run = NULL;
  g_autoptr(GError) error = NULL;

  if (g_task_return_error_if_cancelled (task))
    return;

  if (!(run = viva_runner_run_finish (VIVA_RUNNER (object), result, &error)))
    return complete_error (task, error->message);

  complete_run (task, run);
}

static void
own_inject_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(VivaRunResult) run = NULL;
  g_autoptr(GError) error = NULL;

  if (g_task_return_error_if_cancelled (task))
    return;

  if (!(run = viva_runner_inject_finish (VIVA_RUNNER (object), result, &error)))
    return complete_error (task, error->message);

  complete_run (task, run);
}

static void
run_own (GTask *task)
{
  Execute *execute = g_task_get_task_data (task);
  JsonObject *request = execute->request;
  GCancellable *cancellable = g_task_get_cancellable (task);

  if (g_str_equal (viva_json_member_string (request, "op"), "run"))
    viva_runner_run_async (execute->runner, viva_json_member_string (request, "code"),
                           timeout_of (execute), cancellable, own_cb, task);
  else if (on_reference (execute))
    viva_runner_inject_async (execute->runner, viva_problem_get_reference (execute->problem),
                              viva_json_member_string (request, "probe"),
                              timeout_of (execute), cancellable, own_inject_cb, task);
  else
    viva_runner_inject_async (execute->runner, viva_json_member_string (request, "code"),
                              viva_json_member_string (request, "probe"),
                              timeout_of (execute), cancellable, own_inject_cb, task);
}

static void replay_next (GTask *task);

static void
replay_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Execute *execute = g_task_get_task_data (task);
  g_autoptr(VivaRunResult) run = NULL;
  g_autoptr(GError) error = NULL;
  VivaRunStatus status;

  if (g_task_return_error_if_cancelled (task))
    return;

  /* run_finish serves an inject too: both end in the runner's result. */
  if (!(run = viva_runner_run_finish (VIVA_RUNNER (object), result, &error)))
    return complete_error (task, error->message);

  /* Its output is not wanted; only whether the interpreter is as it was. */
  status = viva_run_result_get_status (run);
  if (viva_run_result_get_state_reset (run) || status == VIVA_RUN_STATUS_TIMEOUT ||
      status == VIVA_RUN_STATUS_KILLED || status == VIVA_RUN_STATUS_CRASHED)
    {
      execute->replay_cut = TRUE;
      return run_own (g_steal_pointer (&task));
    }

  execute->step++;
  replay_next (g_steal_pointer (&task));
}

static void
replay_next (GTask *task)
{
  Execute *execute = g_task_get_task_data (task);
  JsonArray *history = viva_json_member_array (execute->request, "history");
  JsonObject *step;
  const char *code;

  if (history == NULL || execute->step >= json_array_get_length (history))
    return run_own (task);

  step = json_array_get_object_element (history, execute->step);
  code = viva_json_member_string (step, "code");
  if (g_str_equal (viva_json_member_string (step, "op"), "inject"))
    viva_runner_inject_async (execute->runner, code, viva_json_member_string (step, "probe"),
                              timeout_of (execute), g_task_get_cancellable (task), replay_cb, task);
  else
    viva_runner_run_async (execute->runner, code, timeout_of (execute),
                           g_task_get_cancellable (task), replay_cb, task);
}

static void
start_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Execute *execute = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  if (g_task_return_error_if_cancelled (task))
    return;

  if (!viva_runner_start_finish (VIVA_RUNNER (object), result, &error))
    return complete_error (task, error->message);

  if (on_reference (execute))
    return run_own (g_steal_pointer (&task));

  replay_next (g_steal_pointer (&task));
}

static void
grade_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(VivaGradeReport) report = NULL;
  g_autoptr(GError) error = NULL;

  if (g_task_return_error_if_cancelled (task))
    return;

  if (!(report = viva_grader_grade_finish (VIVA_GRADER (object), result, &error)))
    return complete_error (task, error->message);

  complete (task, "report", viva_grade_report_to_json (report));
}

static void
grade (GTask *task)
{
  Execute *execute = g_task_get_task_data (task);
  JsonArray *array = viva_json_member_array (execute->request, "tests");
  const char *reference = viva_problem_get_reference (execute->problem);
  g_autoptr(GPtrArray) tests = g_ptr_array_new_with_free_func ((GDestroyNotify) viva_grader_test_free);
  double tolerance = 0;

  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonObject *test = json_array_get_object_element (array, i);

      viva_json_member_number (test, "tolerance", &tolerance);
      g_ptr_array_add (tests, viva_grader_test_new_structured (viva_json_member_string (test, "name"),
                                                               viva_json_member_string (test, "setup"),
                                                               viva_json_member_string (test, "call"),
                                                               viva_json_member_string (test, "check"),
                                                               viva_json_member_flag (test, "compare"),
                                                               tolerance));
    }

  /* As the tools grade: the reference's side is the reference against
   * itself, in workers of its own. */
  execute->grader = viva_grader_new ();
  viva_grader_grade_async (execute->grader,
                           on_reference (execute) ? reference : viva_json_member_string (execute->request, "code"),
                           reference ? reference : "",
                           tests,
                           (guint)viva_json_member_int (execute->request, "pass_threshold"),
                           g_task_get_cancellable (task),
                           grade_cb,
                           task);
}

/**
 * viva_exam_run_request_execute_async:
 * @problem: the problem the request's defense is of (its reference)
 * @request: a request, checked here first (viva_exam_run_request_check())
 *
 * Runs @request in fresh sandboxed workers: a run or a student's inject
 * replays the history in a new interpreter, then runs; a reference's
 * inject runs the reference then the probe; a grade grades with a new
 * #VivaGrader. Whatever went wrong — a request refused, a worker that
 * did not start, a problem without a reference for the reference's side
 * — is the result `{"error": MESSAGE}`, so the sender sees it.
 */
void
viva_exam_run_request_execute_async (VivaProblem         *problem,
                                     JsonObject          *request,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  Execute *execute;
  const char *reference;

  g_return_if_fail (VIVA_IS_PROBLEM (problem));
  g_return_if_fail (request != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_exam_run_request_execute_async);
  execute = g_new0 (Execute, 1);
  execute->problem = g_object_ref (problem);
  execute->request = json_object_ref (request);
  g_task_set_task_data (task, execute, (GDestroyNotify) execute_free);

  if (!viva_exam_run_request_check (request, &error))
    return complete_error (task, error->message);

  reference = viva_problem_get_reference (problem);
  if (on_reference (execute) && (reference == NULL || reference[0] == '\0'))
    return complete_error (task, _("This problem has no reference solution to run."));

  if (g_str_equal (viva_json_member_string (request, "op"), "grade"))
    return grade (g_steal_pointer (&task));

  execute->runner = viva_runner_new ();
  viva_runner_start_async (execute->runner, cancellable, start_cb, g_steal_pointer (&task));
}

/**
 * viva_exam_run_request_execute_finish:
 *
 * Returns: (transfer full): the result (`{"run"}`, `{"report"}` or
 *   `{"error"}`), or %NULL with @error only when cancelled
 */
JsonObject *
viva_exam_run_request_execute_finish (GAsyncResult  *result,
                                      GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

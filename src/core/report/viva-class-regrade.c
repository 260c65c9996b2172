/* viva-class-regrade.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-class-regrade.h"
#include "viva-runner.h"

/* Re-grading one submission on the teacher's machine: the report's final
 * code against the hidden tests of the teacher's copy of the problem, each
 * test in a fresh sandboxed worker, with the result in the grade report's
 * JSON shape (`passed`, `total`, `out_of_process`, `pass`, `tests`).
 *
 * The grader (runner/viva-grader.h, packs/viva-problem-grade.h) judges
 * hidden tests outside the student's process; until it is in the tree this
 * runs each test after the code in the worker, as the pack checker does.
 * The result's shape is the grader's, so callers do not change when it
 * arrives. */

#define REGRADE_TIMEOUT_MS 10000

typedef struct
{
  VivaProblem *problem;
  char        *code;
  VivaRunner  *runner;
  JsonArray   *tests;
  guint        next;
  guint        passed;
} Regrade;

static void
regrade_free (gpointer data)
{
  Regrade *rg = data;

  g_clear_object (&rg->problem);
  g_clear_object (&rg->runner);
  g_clear_pointer (&rg->tests, json_array_unref);
  g_free (rg->code);
  g_free (rg);
}

static void run_next (GTask *task);

static void
finish (GTask *task)
{
  g_autoptr(GTask) owned = task;
  Regrade *rg = g_task_get_task_data (task);
  g_autoptr(JsonObject) grade = json_object_new ();
  guint total = json_array_get_length (rg->tests);

  json_object_set_int_member (grade, "passed", rg->passed);
  json_object_set_int_member (grade, "total", total);
  json_object_set_int_member (grade, "out_of_process", 0);
  json_object_set_boolean_member (grade, "pass", total > 0 && rg->passed == total);
  json_object_set_array_member (grade, "tests", json_array_ref (rg->tests));

  viva_runner_stop (rg->runner);
  g_task_return_pointer (task, json_node_init_object (json_node_alloc (), grade), (GDestroyNotify)json_node_unref);
}

static void
inject_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Regrade *rg = g_task_get_task_data (task);
  g_autoptr(VivaRunResult) run = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *test;
  VivaRunStatus status;

  if (g_task_return_error_if_cancelled (task))
    return;

  if (!(run = viva_runner_inject_finish (VIVA_RUNNER (object), result, &error)))
    return g_task_return_error (task, g_steal_pointer (&error));

  status = viva_run_result_get_status (run);
  test = json_object_new ();
  json_object_set_string_member (test, "name", viva_problem_get_test (rg->problem, rg->next)->name);
  json_object_set_boolean_member (test, "passed", status == VIVA_RUN_STATUS_OK);
  json_object_set_boolean_member (test, "out_of_process", FALSE);
  json_object_set_string_member (test, "status",
                                 status == VIVA_RUN_STATUS_OK ? "passed" :
                                 status == VIVA_RUN_STATUS_ERROR ? "failed" :
                                 status == VIVA_RUN_STATUS_CRASHED ? "crashed" : "timeout");
  json_object_set_string_member (test, "message",
                                 viva_run_result_get_error_message (run) ? viva_run_result_get_error_message (run) : "");
  json_array_add_object_element (rg->tests, test);

  if (status == VIVA_RUN_STATUS_OK)
    rg->passed++;

  rg->next++;
  run_next (g_steal_pointer (&task));
}

static void
reset_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Regrade *rg = g_task_get_task_data (task);
  GCancellable *cancellable = g_task_get_cancellable (task);
  g_autoptr(GError) error = NULL;

  if (g_task_return_error_if_cancelled (task))
    return;

  if (!viva_runner_reset_finish (VIVA_RUNNER (object), result, &error))
    return g_task_return_error (task, g_steal_pointer (&error));

  viva_runner_inject_async (rg->runner, rg->code, viva_problem_get_test (rg->problem, rg->next)->code,
                            REGRADE_TIMEOUT_MS, cancellable, inject_cb, g_steal_pointer (&task));
}

static void
run_next (GTask *task)
{
  Regrade *rg = g_task_get_task_data (task);

  if (rg->next == viva_problem_get_n_tests (rg->problem))
    return finish (task);

  /* A fresh worker for each submission and a fresh namespace for each
   * test, as the grader does. */
  if (rg->next == 0)
    viva_runner_inject_async (rg->runner, rg->code, viva_problem_get_test (rg->problem, 0)->code,
                              REGRADE_TIMEOUT_MS, g_task_get_cancellable (task), inject_cb, task);
  else
    viva_runner_reset_async (rg->runner, FALSE, g_task_get_cancellable (task), reset_cb, task);
}

static void
start_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  if (g_task_return_error_if_cancelled (task))
    return;

  if (!viva_runner_start_finish (VIVA_RUNNER (object), result, &error))
    return g_task_return_error (task, g_steal_pointer (&error));

  run_next (g_steal_pointer (&task));
}

/**
 * viva_class_regrade_async:
 * @problem: the teacher's copy of the problem
 * @code: the report's final code
 *
 * Runs every hidden test of @problem against @code in a worker of its own.
 */
void
viva_class_regrade_async (VivaProblem         *problem,
                          const char          *code,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  Regrade *rg;

  g_return_if_fail (VIVA_IS_PROBLEM (problem));
  g_return_if_fail (code != NULL);

  rg = g_new0 (Regrade, 1);
  rg->problem = g_object_ref (problem);
  rg->code = g_strdup (code);
  rg->runner = viva_runner_new ();
  rg->tests = json_array_new ();

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_class_regrade_async);
  g_task_set_task_data (task, rg, regrade_free);

  if (viva_problem_get_n_tests (problem) == 0)
    return finish (g_steal_pointer (&task));

  viva_runner_start_async (rg->runner, cancellable, start_cb, g_steal_pointer (&task));
}

/**
 * viva_class_regrade_finish:
 *
 * Returns: (transfer full): the grade report's JSON, or %NULL with @error
 *   set when the worker could not run
 */
JsonNode *
viva_class_regrade_finish (GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

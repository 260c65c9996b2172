/* viva-server-jobs.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "viva-exam-file.h"
#include "viva-exam-run-request.h"
#include "viva-server-defense-jobs.h"
#include "viva-pack.h"
#include "viva-problem-grade.h"
#include "viva-server-jobs.h"
#include "viva-server-store-pool.h"

/* A job, wherever it runs: `grade` grades a submission with every hidden
 * test, in fresh sandboxed workers (viva_problem_grade_for_author_async:
 * the teacher's grade, every message); `run` is one of a defense's tool
 * runs (a VivaExamRemoteRuns request, viva-exam-run-request.h), checked as
 * hostile and executed against the problem. The same code runs in a node's
 * local claimer (viva-server-local-jobs.c) and in `viva-server worker` on another machine.
 * Either gets the job's problem alone, as a pack of one problem
 * (viva_server_job_pack()): a claimer sees no other problem or exam. */

G_DEFINE_QUARK (viva-server-job-error-quark, viva_server_job_error)

typedef struct
{
  VivaPack   *pack;
  JsonObject *request;
} Job;

static void
job_free (Job *job)
{
  g_clear_object (&job->pack);
  g_clear_pointer (&job->request, json_object_unref);
  g_free (job);
}

static void
execute_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  JsonObject *out;

  if (!(out = viva_exam_run_request_execute_finish (result, &error)))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, out, (GDestroyNotify)json_object_unref);
}

static void
grade_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(VivaGradeReport) report = NULL;
  JsonObject *out;

  if (!(report = viva_problem_grade_finish (VIVA_PROBLEM (object), result, &error)))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  out = json_object_new ();
  json_object_set_string_member (out, "kind", "grade");
  json_object_set_int_member (out, "passed", viva_grade_report_get_n_passed (report));
  json_object_set_int_member (out, "total", viva_grade_report_get_n_tests (report));
  json_object_set_boolean_member (out, "verdict", viva_grade_report_get_passed (report));
  json_object_set_member (out, "report", viva_grade_report_to_json (report));
  g_task_return_pointer (task, out, (GDestroyNotify)json_object_unref);
}

/**
 * viva_server_job_run_async:
 * @pack_json: what the job carries: its exam's pack with the one problem
 *   it is of (viva_server_job_pack())
 * @kind: the job's kind (`grade`, `run`)
 * @payload: the job's payload (`problem_id`, and `code` for a grade or
 *   `request` for a run)
 */
void
viva_server_job_run_async (JsonObject          *pack_json,
                           const char          *kind,
                           JsonObject          *payload,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), pack_json);
  g_autofree char *text = json_to_string (node, FALSE);
  g_autoptr(GBytes) bytes = g_bytes_new (text, strlen (text));
  g_autoptr(GError) error = NULL;
  VivaProblem *problem;
  Job *job;
  const char *problem_id = json_object_get_string_member_with_default (payload, "problem_id", "");
  const char *code = json_object_get_string_member_with_default (payload, "code", NULL);
  JsonNode *request = json_object_get_member (payload, "request");
  gboolean is_run = g_strcmp0 (kind, "run") == 0;

  g_task_set_source_tag (task, viva_server_job_run_async);

  if (is_run ? (request == NULL || !JSON_NODE_HOLDS_OBJECT (request))
             : (g_strcmp0 (kind, "grade") != 0 || code == NULL))
    {
      g_task_return_new_error (task, viva_server_job_error_quark (), 0,
                               _("This worker does not know jobs of kind “%s”: run the same Viva on the worker as on the server."),
                               kind ? kind : "");
      return;
    }
  /* Whoever enqueued it, a run is read as hostile before it runs. */
  if (is_run && !viva_exam_run_request_check (json_node_get_object (request), &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  job = g_new0 (Job, 1);
  /* The problem is the pack's: the pack lives as long as the job. */
  g_task_set_task_data (task, job, (GDestroyNotify)job_free);
  if (!(job->pack = viva_pack_new_from_bytes (bytes, &error)))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (!(problem = viva_pack_find_problem (job->pack, problem_id)))
    {
      g_task_return_new_error (task, viva_server_job_error_quark (), 0,
                               _("The exam has no problem “%s”."), problem_id);
      return;
    }

  if (is_run)
    {
      job->request = json_object_ref (json_node_get_object (request));
      viva_exam_run_request_execute_async (problem, job->request, cancellable, execute_cb, g_steal_pointer (&task));
      return;
    }
  viva_problem_grade_for_author_async (problem, code, cancellable, grade_cb, g_steal_pointer (&task));
}

/**
 * viva_server_job_run_finish:
 *
 * Returns: (transfer full): the job's result
 */
JsonObject *
viva_server_job_run_finish (GAsyncResult  *result,
                            GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

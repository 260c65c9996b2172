/* viva-server-defense-jobs.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "viva-exam-file.h"
#include "viva-pack.h"
#include "viva-problem-grade.h"
#include "viva-server-defense-jobs.h"
#include "viva-server-store-pool.h"

/* A defense's grading is the pool's job (its tool runs are too:
 * viva-server-defense-runs.c). The submission's job was
 * enqueued with its snapshot (one transaction, at Submit); a defense
 * started at time-up enqueues its own when it first needs it, named on
 * its row in the same transaction. At finishDefense the examiner's grade
 * (viva_examiner_set_grade_func) waits on that job's result, whoever
 * claims it — this node's claimer, another node's, a worker — and the
 * verdict is bound to it: the submission is graded once. A node that
 * continues the defense after another died waits on the same job.
 *
 * The wait, for a grade or a tool run alike, is viva-server-job-wait.c's. */

/* What a worker may post back: a grade is a few lines per test. */
#define MAX_RESULT_BYTES (256 * 1024)
#define MAX_ERROR_BYTES  2048

typedef struct
{
  VivaServerApi *api;          /* unowned: the api owns the defenses, which own the examiner */
  char          *defense_id;
} Hook;

static void
hook_free (Hook *hook)
{
  g_free (hook->defense_id);
  g_free (hook);
}

/* The job's result as the defense takes it: the teacher's grade, redacted
 * as a grade given to the examiner always is. */
static VivaGradeReport *
grade_from_result (VivaProblem  *problem,
                   const char   *text,
                   GError      **error)
{
  g_autoptr(JsonNode) node = text ? json_from_string (text, NULL) : NULL;
  g_autoptr(VivaGradeReport) full = NULL;
  JsonObject *object;
  const char *said;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("The grading pool kept no grade for this submission; re-grade it."));
      return NULL;
    }
  object = json_node_get_object (node);
  if ((said = json_object_get_string_member_with_default (object, "error", NULL)))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("The grading failed: %s"), said);
      return NULL;
    }
  if (!(full = viva_grade_report_new_from_json (json_object_get_member (object, "report"), error)))
    return NULL;
  return viva_problem_grade_redact (problem, full);
}

static void
graded_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(JsonObject) job = NULL;
  g_autoptr(GError) error = NULL;
  VivaGradeReport *grade;

  if (!(job = _viva_server_job_wait_finish (result, &error)))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
        g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "%s",
                                 _("The grading job of this defense is gone; re-grade the submission."));
      else
        g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (g_str_equal (json_object_get_string_member (job, "state"), "failed"))
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED, "%s",
                               _("The grading stopped every worker that tried it; re-grade the submission."));
      return;
    }
  if ((grade = grade_from_result (g_task_get_task_data (task), json_object_get_string_member (job, "result"), &error)))
    g_task_return_pointer (task, grade, g_object_unref);
  else
    g_task_return_error (task, g_steal_pointer (&error));
}

/* VivaExamGradeFunc: the defense's grade, from its job. */
static void
grade_in_pool (VivaProblem         *problem,
               const char          *code,
               GCancellable        *cancellable,
               GAsyncReadyCallback  callback,
               gpointer             callback_data,
               gpointer             user_data)
{
  Hook *hook = user_data;
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, callback_data);
  g_autoptr(GError) error = NULL;
  g_autofree char *job_id = NULL;

  g_task_set_source_tag (task, grade_in_pool);
  g_task_set_task_data (task, g_object_ref (problem), g_object_unref);

  if (!viva_server_store_defense_grade_job (viva_server_api_get_store (hook->api), hook->defense_id, code,
                                            &job_id, &error) ||
      job_id == NULL)
    {
      if (error == NULL)
        g_set_error_literal (&error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                             _("The grading job of this defense is gone; re-grade the submission."));
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  /* No deadline: a grading may rightly wait for a worker to be started,
   * and the teacher sees it wait in `status`. */
  _viva_server_job_wait_async (hook->api, job_id, 0, cancellable, graded_cb, g_steal_pointer (&task));
}

/**
 * _viva_server_defense_grade_in_pool:
 * @examiner: the defense's
 *
 * From now on the defense's grade is its job's in the pool.
 */
void
_viva_server_defense_grade_in_pool (VivaServerApi *api,
                                    VivaExaminer  *examiner,
                                    const char    *defense_id)
{
  Hook *hook = g_new0 (Hook, 1);

  hook->api = api;
  hook->defense_id = g_strdup (defense_id);
  viva_examiner_set_grade_func (examiner, grade_in_pool, hook, (GDestroyNotify)hook_free);
}

/**
 * viva_server_job_pack:
 * @exam: the exam the job is of
 * @problem_id: the problem to grade
 *
 * What a job carries to whoever runs it: the exam's pack with this one
 * problem (its tests and reference: the grader needs them), never the
 * exam's other problems, its roster or anything of another exam.
 *
 * Returns: (transfer full) (nullable): a viva-pack/1 object, %NULL when
 *   the exam has no such problem
 */
JsonObject *
viva_server_job_pack (VivaExamFile *exam,
                      const char   *problem_id)
{
  g_autoptr(JsonNode) node = viva_pack_to_json (viva_exam_file_get_pack (exam));
  JsonObject *pack;
  JsonArray *problems, *kept;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;
  pack = json_object_ref (json_node_get_object (node));
  problems = json_object_get_array_member (pack, "problems");
  kept = json_array_new ();
  for (guint i = 0; problems != NULL && i < json_array_get_length (problems); i++)
    {
      JsonObject *problem = json_array_get_object_element (problems, i);

      if (g_strcmp0 (json_object_get_string_member_with_default (problem, "id", NULL), problem_id) == 0)
        json_array_add_object_element (kept, json_object_ref (problem));
    }
  if (json_array_get_length (kept) != 1)
    {
      json_array_unref (kept);
      json_object_unref (pack);
      return NULL;
    }
  json_object_set_array_member (pack, "problems", kept);
  return pack;
}

/**
 * viva_server_job_check_result:
 * @job: the job's row
 * @result: what a claimer says it found
 *
 * A result is hostile input (a worker is another machine): kept only in
 * the form a job gives, rebuilt from its parts, for this job's problem —
 * as many tests as its grading has, its threshold, nothing else.
 *
 * Returns: (transfer full) (nullable): the result to keep, JSON text
 */
char *
viva_server_job_check_result (VivaExamFile  *exam,
                              JsonObject    *job,
                              JsonNode      *result,
                              GError       **error)
{
  g_autoptr(JsonNode) payload = json_from_string (json_object_get_string_member (job, "payload"), NULL);
  g_autoptr(VivaGradeReport) report = NULL;
  g_autoptr(GPtrArray) tests = NULL;
  g_autoptr(JsonObject) out = json_object_new ();
  g_autoptr(JsonNode) out_node = NULL;
  g_autofree char *text = NULL;
  JsonObject *object;
  VivaProblem *problem;
  const char *said;

  if (result == NULL || !JSON_NODE_HOLDS_OBJECT (result))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("The body needs “%s” as an object."), "result");
      return NULL;
    }
  /* A defense's tool run has a result of its own form. */
  if (g_strcmp0 (json_object_get_string_member (job, "kind"), "run") == 0)
    return _viva_server_job_check_run_result (job, result, error);
  text = json_to_string (result, FALSE);
  if (strlen (text) > MAX_RESULT_BYTES)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE,
                   _("The result is larger than a grade can be (%u KiB at most)."), MAX_RESULT_BYTES / 1024);
      return NULL;
    }
  object = json_node_get_object (result);

  /* A job that could not run says why, in a few words. */
  if (json_object_has_member (object, "error"))
    {
      JsonNode *member = json_object_get_member (object, "error");

      if (!JSON_NODE_HOLDS_VALUE (member) || json_node_get_value_type (member) != G_TYPE_STRING ||
          !(said = json_node_get_string (member)) || strlen (said) > MAX_ERROR_BYTES ||
          !g_utf8_validate (said, -1, NULL) || json_object_get_size (object) != 1)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s",
                       _("A failed job’s result is one short “error” text and nothing else."));
          return NULL;
        }
      json_object_set_string_member (out, "error", said);
    }
  else
    {
      if (g_strcmp0 (json_object_get_string_member_with_default (object, "kind", NULL),
                     json_object_get_string_member (job, "kind")) != 0 ||
          payload == NULL || !JSON_NODE_HOLDS_OBJECT (payload) ||
          !(problem = viva_pack_find_problem (viva_exam_file_get_pack (exam),
                                              json_object_get_string_member_with_default (json_node_get_object (payload),
                                                                                          "problem_id", ""))) ||
          !(report = viva_grade_report_new_from_json (json_object_get_member (object, "report"), error)))
        {
          if (error != NULL && *error == NULL)
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s",
                         _("The result is not this job’s grade: post what the job gave."));
          return NULL;
        }
      tests = viva_problem_get_grader_tests (problem);
      if (viva_grade_report_get_n_tests (report) != tests->len ||
          viva_grade_report_get_pass_threshold (report) != viva_problem_get_pass_threshold (problem))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s",
                       _("The result is not this job’s grade: it has other tests than the problem’s."));
          return NULL;
        }
      /* Rebuilt from the tests: the counts are recomputed, never taken. */
      json_object_set_string_member (out, "kind", "grade");
      json_object_set_int_member (out, "passed", viva_grade_report_get_n_passed (report));
      json_object_set_int_member (out, "total", viva_grade_report_get_n_tests (report));
      json_object_set_boolean_member (out, "verdict", viva_grade_report_get_passed (report));
      json_object_set_member (out, "report", viva_grade_report_to_json (report));
    }

  out_node = json_node_init_object (json_node_alloc (), out);
  return json_to_string (out_node, FALSE);
}

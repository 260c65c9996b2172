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
 * The wait, for a grade or a tool run alike, is a poll of the job's row:
 * the result may be recorded by any node of the pool (a worker posts to
 * whichever the balancer picks), and one indexed read every POLL_MS of
 * each job waited on is nothing beside a grading or a sandbox's start. */

#define POLL_MS 100

/* What a worker may post back: a grade is a few lines per test. */
#define MAX_RESULT_BYTES (256 * 1024)
#define MAX_ERROR_BYTES  2048

typedef struct
{
  VivaServerApi *api;          /* unowned: the api owns the defenses, which own the examiner */
  char          *defense_id;
} Hook;

typedef struct
{
  VivaServerApi *api;
  char          *job_id;
  guint          poll_id;
  guint          wake_id;
  gulong         finished_id;
  guint          listen_id;
} Wait;

static void
hook_free (Hook *hook)
{
  g_free (hook->defense_id);
  g_free (hook);
}

/* Stops whatever would read the row again. */
static void
wait_stop (Wait *wait)
{
  VivaServerStore *store = viva_server_api_get_store (wait->api);

  g_clear_handle_id (&wait->poll_id, g_source_remove);
  g_clear_handle_id (&wait->wake_id, g_source_remove);
  g_clear_signal_handler (&wait->finished_id, store);
  viva_server_db_unlisten (viva_server_store_get_db (store), wait->listen_id);
  wait->listen_id = 0;
}

static void
wait_free (Wait *wait)
{
  wait_stop (wait);
  g_clear_object (&wait->api);
  g_free (wait->job_id);
  g_free (wait);
}

/* Reads the job's row; TRUE once the task is returned. */
static gboolean
check (GTask *task)
{
  Wait *wait = g_task_get_task_data (task);
  g_autoptr(JsonObject) job = NULL;
  g_autoptr(GError) error = NULL;
  const char *state;

  /* A cancelled defense (the node stopping, its lease lost) stops waiting;
   * the job runs on, its result unread. */
  if (g_task_return_error_if_cancelled (task))
    return TRUE;

  /* The database away: the next poll asks again. */
  if (!(job = viva_server_store_get_job (viva_server_api_get_store (wait->api), wait->job_id, &error)))
    {
      if (error != NULL)
        return FALSE;
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "job %s is gone", wait->job_id);
      return TRUE;
    }

  state = json_object_get_string_member (job, "state");
  if (!g_str_equal (state, "failed") && !g_str_equal (state, "done"))
    return FALSE;
  g_task_return_pointer (task, g_steal_pointer (&job), (GDestroyNotify)json_object_unref);
  return TRUE;
}

/* The waiting holds the task until it is returned. */
static void
done_waiting (GTask *task)
{
  wait_stop (g_task_get_task_data (task));
  g_object_unref (task);
}

static gboolean
poll_cb (gpointer user_data)
{
  GTask *task = user_data;
  Wait *wait = g_task_get_task_data (task);

  if (!check (task))
    return G_SOURCE_CONTINUE;
  wait->poll_id = 0;
  done_waiting (task);
  return G_SOURCE_REMOVE;
}

static gboolean
wake_cb (gpointer user_data)
{
  GTask *task = user_data;
  Wait *wait = g_task_get_task_data (task);

  wait->wake_id = 0;
  if (check (task))
    done_waiting (task);
  return G_SOURCE_REMOVE;
}

/* Told of a result: read it now, from the main loop (the store tells
 * from inside the call that recorded it), rather than at the next poll. */
static void
wake (GTask      *task,
      const char *job_id)
{
  Wait *wait = g_task_get_task_data (task);

  if (g_strcmp0 (job_id, wait->job_id) == 0 && wait->wake_id == 0)
    wait->wake_id = g_idle_add (wake_cb, task);
}

static void
job_finished_cb (VivaServerStore *store,
                 const char      *job_id,
                 gpointer         user_data)
{
  wake (user_data, job_id);
}

static void
job_told_cb (const char *payload,
             gpointer    user_data)
{
  wake (user_data, payload);
}

/**
 * _viva_server_job_wait_async:
 * @job_id: a job of the pool
 *
 * Waits for the job's end, whoever claims it — this node's claimer,
 * another node's, a worker: the result may land on any node of the pool.
 * It is read when this process records it or the database tells of it,
 * and every POLL_MS anyway (a notification is a hint, never the record).
 */
void
_viva_server_job_wait_async (VivaServerApi       *api,
                             const char          *job_id,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  VivaServerStore *store = viva_server_api_get_store (api);
  Wait *wait = g_new0 (Wait, 1);

  g_task_set_source_tag (task, _viva_server_job_wait_async);
  wait->api = g_object_ref (api);
  wait->job_id = g_strdup (job_id);
  g_task_set_task_data (task, wait, (GDestroyNotify)wait_free);
  wait->finished_id = g_signal_connect (store, "job-finished", G_CALLBACK (job_finished_cb), task);
  wait->listen_id = viva_server_db_listen (viva_server_store_get_db (store), VIVA_SERVER_JOBS_DONE_CHANNEL,
                                           job_told_cb, task);
  wait->poll_id = g_timeout_add (POLL_MS, poll_cb, g_steal_pointer (&task));
}

/**
 * _viva_server_job_wait_finish:
 *
 * Returns: (transfer full): the job's row, `done` or `failed` (it stopped
 *   every claimer that tried it); %NULL with %G_IO_ERROR_NOT_FOUND when
 *   the job is gone
 */
JsonObject *
_viva_server_job_wait_finish (GAsyncResult  *result,
                              GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
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
  _viva_server_job_wait_async (hook->api, job_id, cancellable, graded_cb, g_steal_pointer (&task));
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

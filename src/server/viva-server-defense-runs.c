/* viva-server-defense-runs.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "viva-exam-remote-runs.h"
#include "viva-exam-run-request.h"
#include "viva-server-defense-jobs.h"
#include "viva-server-keys.h"
#include "viva-server-store-pool.h"

/* A defense's tool runs are the pool's jobs, as its grade is: the prime,
 * runPython, injectTestCase, a prediction's check — each a VivaExamRemoteRuns
 * request (viva-exam-run-request.h) enqueued as a `run` job of the
 * defense's exam and problem, and waited on as the grade is
 * (_viva_server_job_wait_async). Whoever claims it runs it against the
 * job's one-problem pack: this node's claimer, another node's, or a worker
 * on another machine, which holds no database credentials and sees no
 * other exam. The remote runs keep the student's interpreter as its
 * history, sent with each request, so runPython's globals persist whichever
 * machine ran the runs before. A `run` job is claimed before a `grade` job
 * (viva_server_store_claim_job): a student waits on it, a grading can wait.
 * It waits for a claimer a minute at most (viva_server_pool_run_claim_ms):
 * with none alive, the tool fails with a sentence and the defense goes on. */

#define MAX_ERROR_BYTES 2048

typedef struct
{
  VivaServerApi *api;          /* unowned: the api owns the defenses, which own the examiner */
  char          *exam_id;
  char          *problem_id;
  char          *subject;
} Sender;

static void
sender_free (Sender *sender)
{
  g_free (sender->exam_id);
  g_free (sender->problem_id);
  g_free (sender->subject);
  g_free (sender);
}

/* A request sent: its job, until its result is read. */
typedef struct
{
  VivaServerApi *api;
  char          *job_id;
  guint          claim_ms;
  GCancellable  *cancellable;
  gulong         cancelled_id;
} Sent;

static void
sent_free (Sent *sent)
{
  if (sent->cancellable != NULL)
    g_cancellable_disconnect (sent->cancellable, sent->cancelled_id);
  g_clear_object (&sent->cancellable);
  g_clear_object (&sent->api);
  g_free (sent->job_id);
  g_free (sent);
}

/* The defense no longer waits (it stopped here, or went to another node,
 * which asks again): a run no claimer took yet is dropped, not run for
 * nothing. At once, from the cancel itself: a node stopping cancels its
 * defenses and does not come back to the main loop. */
static void
cancelled_cb (GCancellable *cancellable,
              Sent         *sent)
{
  g_autoptr(GError) error = NULL;

  if (!viva_server_store_drop_waiting_job (viva_server_api_get_store (sent->api), sent->job_id, &error))
    g_debug ("job %s not dropped: %s", sent->job_id, error->message);
}

static void
ran_cb (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Sent *sent = g_task_get_task_data (task);
  g_autoptr(JsonObject) job = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  const char *text;

  if (!(job = _viva_server_job_wait_finish (result, &error)))
    {
      guint seconds = (sent->claim_ms + 999) / 1000;

      /* The tool's error, as any failed run: the model reads it and goes
       * on, the student's card says the run failed, the report keeps it. */
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT))
        g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                                 ngettext ("No worker ran this code within %u second: the exam server has no free "
                                           "worker for this exam. Tell the teacher (viva-server status shows the "
                                           "queue); the defense goes on without this run.",
                                           "No worker ran this code within %u seconds: the exam server has no free "
                                           "worker for this exam. Tell the teacher (viva-server status shows the "
                                           "queue); the defense goes on without this run.",
                                           seconds),
                                 seconds);
      else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
        g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "%s",
                                 _("The defense’s code run is gone from the grading pool; the teacher should look at the queue (viva-server status)."));
      else
        g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (g_str_equal (json_object_get_string_member (job, "state"), "failed"))
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED, "%s",
                               _("The defense’s code run could not be done: it stopped every worker that tried it. "
                                 "The teacher should look at the workers’ logs and the queue (viva-server status)."));
      return;
    }
  text = json_object_get_string_member_with_default (job, "result", NULL);
  if (text == NULL || !(node = json_from_string (text, NULL)) || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s",
                               _("The grading pool kept no result for the defense’s code run; the teacher should look at the workers’ logs."));
      return;
    }
  /* As it came: the remote runs read it as hostile. */
  g_task_return_pointer (task, json_object_ref (json_node_get_object (node)), (GDestroyNotify)json_object_unref);
}

/* VivaExamRunSendFunc: the request as a `run` job, and its result. */
static void
send_to_pool (JsonObject          *request,
              GCancellable        *cancellable,
              GAsyncReadyCallback  callback,
              gpointer             callback_data,
              gpointer             user_data)
{
  Sender *sender = user_data;
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, callback_data);
  g_autoptr(JsonObject) payload = json_object_new ();
  g_autofree char *job_id = viva_server_keys_random_id ();
  g_autoptr(GError) error = NULL;
  Sent *sent;

  g_task_set_source_tag (task, send_to_pool);
  json_object_set_string_member (payload, "problem_id", sender->problem_id);
  json_object_set_object_member (payload, "request", json_object_ref (request));
  if (!viva_server_store_enqueue_job (viva_server_api_get_store (sender->api), job_id, sender->exam_id, "run",
                                      sender->subject, payload, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  sent = g_new0 (Sent, 1);
  sent->api = g_object_ref (sender->api);
  sent->job_id = g_strdup (job_id);
  sent->claim_ms = viva_server_pool_run_claim_ms ();
  g_task_set_task_data (task, sent, (GDestroyNotify)sent_free);
  if (cancellable != NULL)
    {
      sent->cancellable = g_object_ref (cancellable);
      sent->cancelled_id = g_cancellable_connect (cancellable, G_CALLBACK (cancelled_cb), sent, NULL);
    }
  _viva_server_job_wait_async (sender->api, job_id, sent->claim_ms, cancellable, ran_cb, g_steal_pointer (&task));
}

/**
 * _viva_server_defense_runs_in_pool:
 * @examiner: the defense's, not yet started
 *
 * From now on every code run of the defense is a job of the pool.
 */
void
_viva_server_defense_runs_in_pool (VivaServerApi *api,
                                   VivaExaminer  *examiner,
                                   const char    *exam_id,
                                   const char    *problem_id,
                                   const char    *defense_id)
{
  g_autoptr(VivaExamRemoteRuns) runs = NULL;
  Sender *sender = g_new0 (Sender, 1);

  sender->api = api;
  sender->exam_id = g_strdup (exam_id);
  sender->problem_id = g_strdup (problem_id);
  sender->subject = g_strconcat ("defense/", defense_id, NULL);
  runs = viva_exam_remote_runs_new (send_to_pool, sender, (GDestroyNotify)sender_free);
  viva_examiner_set_runs (examiner, VIVA_EXAM_RUNS (runs));
}

/* The test names a grade request asked for. */
static GHashTable *
asked_tests (JsonObject *request)
{
  GHashTable *names = g_hash_table_new (g_str_hash, g_str_equal);
  JsonArray *tests = json_object_has_member (request, "tests") ? json_object_get_array_member (request, "tests") : NULL;

  for (guint i = 0; tests != NULL && i < json_array_get_length (tests); i++)
    {
      JsonNode *test = json_array_get_element (tests, i);

      if (JSON_NODE_HOLDS_OBJECT (test))
        g_hash_table_add (names, (char *)json_object_get_string_member_with_default (json_node_get_object (test),
                                                                                     "name", ""));
    }
  return names;
}

/* A report of the tests asked, each at most once. */
static gboolean
only_asked (JsonObject  *request,
            JsonObject  *result,
            GError     **error)
{
  g_autoptr(GHashTable) asked = asked_tests (request);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(VivaGradeReport) report = NULL;

  if (!(report = viva_grade_report_new_from_json (json_object_get_member (result, "report"), error)))
    return FALSE;
  for (guint i = 0; i < viva_grade_report_get_n_tests (report); i++)
    {
      const char *name = viva_grade_report_get_test (report, i)->name;

      if (!g_hash_table_contains (asked, name) || !g_hash_table_add (seen, (char *)name))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("The result is not this run’s: it reports a test “%s” the run did not ask."), name);
          return FALSE;
        }
    }
  return TRUE;
}

/**
 * _viva_server_job_check_run_result:
 * @job: a `run` job's row
 * @result: what a worker says it found
 *
 * A worker's result for a run is hostile input: kept only within
 * %VIVA_EXAM_RUN_RESULT_MAX_BYTES and of the one form the request's op
 * gives — `{"run": …}` for a run or inject, `{"report": …}` of the tests
 * asked for a grade, or a short `{"error": …}` — read as the defense
 * will read it (viva_exam_run_request_read_run()/_read_grade()).
 *
 * Returns: (transfer full) (nullable): the result to keep, JSON text
 */
char *
_viva_server_job_check_run_result (JsonObject  *job,
                                   JsonNode    *result,
                                   GError     **error)
{
  g_autoptr(JsonNode) payload = json_from_string (json_object_get_string_member (job, "payload"), NULL);
  g_autoptr(GError) read_error = NULL;
  g_autofree char *text = NULL;
  JsonObject *object, *request = NULL;
  JsonNode *member;
  const char *op, *expected;
  gboolean is_grade;

  if (payload != NULL && JSON_NODE_HOLDS_OBJECT (payload) &&
      (member = json_object_get_member (json_node_get_object (payload), "request")) && JSON_NODE_HOLDS_OBJECT (member))
    request = json_node_get_object (member);
  if (request == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s",
                   _("The result is not this job’s: post what the job gave."));
      return NULL;
    }

  text = json_to_string (result, FALSE);
  if (strlen (text) > VIVA_EXAM_RUN_RESULT_MAX_BYTES)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE,
                   _("The result is larger than a code run’s can be (%u MiB at most)."),
                   VIVA_EXAM_RUN_RESULT_MAX_BYTES / (1024 * 1024));
      return NULL;
    }
  object = json_node_get_object (result);
  op = json_object_get_string_member_with_default (request, "op", "");
  is_grade = g_str_equal (op, "grade");
  expected = is_grade ? "report" : "run";

  /* A run that could not be done says why, in a few words. */
  if (json_object_has_member (object, "error"))
    {
      const char *said;

      member = json_object_get_member (object, "error");
      if (!JSON_NODE_HOLDS_VALUE (member) || json_node_get_value_type (member) != G_TYPE_STRING ||
          !(said = json_node_get_string (member)) || strlen (said) > MAX_ERROR_BYTES ||
          !g_utf8_validate (said, -1, NULL) || json_object_get_size (object) != 1)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s",
                       _("A failed job’s result is one short “error” text and nothing else."));
          return NULL;
        }
      return g_steal_pointer (&text);
    }

  if (json_object_get_size (object) != 1 || !json_object_has_member (object, expected))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("The result is not this run’s: a “%s” request’s result is “%s” alone."), op, expected);
      return NULL;
    }
  if (is_grade)
    {
      g_autoptr(VivaGradeReport) report = NULL;

      if (!only_asked (request, object, error))
        return NULL;
      report = viva_exam_run_request_read_grade (request, object, &read_error);
      if (report == NULL)
        goto refused;
    }
  else
    {
      g_autoptr(VivaRunResult) run = viva_exam_run_request_read_run (request, object, &read_error);

      if (run == NULL)
        goto refused;
    }
  return g_steal_pointer (&text);

refused:
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("The result is not this run’s: %s"),
               read_error ? read_error->message : "");
  return NULL;
}

/* viva-server-routes-worker.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-server-defense-jobs.h"
#include "viva-server-jobs.h"
#include "viva-server-routes-private.h"
#include "viva-server-store-pool.h"

/* The grading pool's routes: a worker (`viva-server worker`, on another
 * machine) claims its exam's next job (a defense's code run before a
 * grading; of one kind when it asks so), renews its lease while it runs and
 * posts the result. It holds a worker token of one exam and no database
 * credentials: the claim answers with that job and its problem alone (a
 * pack of one problem), nothing of the exam's other problems or of any
 * other exam. What it posts back is hostile input: refused unless it is
 * this job's result in the form a job gives, and kept as rebuilt. */

static JsonObject *
parse_object (const char *text)
{
  g_autoptr(JsonNode) node = text ? json_from_string (text, NULL) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return json_object_new ();
  return json_object_ref (json_node_get_object (node));
}

/* Claims the exam's next job and answers with it. Returns %FALSE, having
 * answered nothing, when no job waits. */
/* A worker's claim may wait this long for a job to come (well below the
 * worker's 30 s request timeout); meanwhile it tries again every second
 * as well (a NOTIFY lost, two processes on one SQLite file). */
#define CLAIM_MAX_WAIT_MS 20000
#define CLAIM_RETRY_MS    1000

static gboolean
claim_and_reply (VivaServerApi     *api,
                 SoupServerMessage *msg,
                 const char        *exam_id,
                 const char        *kind,
                 const char        *claimer)
{
  VivaServerRequest request = { .api = api, .msg = msg, .exam_id = exam_id };
  g_autoptr(JsonObject) object = json_object_new ();
  g_autoptr(JsonObject) job = NULL;
  g_autoptr(JsonObject) pack = NULL;
  g_autoptr(JsonObject) payload = NULL;
  g_autoptr(GError) error = NULL;
  VivaExamFile *exam;
  JsonObject *out;
  guint lease_ms = viva_server_pool_lease_ms ();

  if (!(job = viva_server_store_claim_job_of_kind (viva_server_api_get_store (api), exam_id, kind, claimer, lease_ms,
                                                   &error)))
    {
      if (error == NULL)
        return FALSE;
      viva_server_reply_db_error (&request, error);
      return TRUE;
    }
  payload = parse_object (json_object_get_string_member (job, "payload"));
  if (!(exam = viva_server_api_get_exam (api, exam_id, &error)) ||
      !(pack = viva_server_job_pack (exam, json_object_get_string_member_with_default (payload, "problem_id", ""))))
    {
      /* Left to its lease: no claimer can run it either. */
      viva_server_reply_error (&request, SOUP_STATUS_INTERNAL_SERVER_ERROR, "internal", "%s",
                               _("The exam server cannot read this job’s problem; the teacher should look at its log."));
      g_message ("job %s: %s", json_object_get_string_member (job, "id"), error ? error->message : "no such problem");
      return TRUE;
    }

  out = json_object_new ();
  json_object_set_string_member (out, "id", json_object_get_string_member (job, "id"));
  json_object_set_string_member (out, "claim_id", json_object_get_string_member (job, "claim_id"));
  json_object_set_string_member (out, "kind", json_object_get_string_member (job, "kind"));
  json_object_set_int_member (out, "attempts", json_object_get_int_member (job, "attempts"));
  json_object_set_int_member (out, "lease_ms", lease_ms);
  json_object_set_object_member (out, "payload", g_steal_pointer (&payload));
  json_object_set_object_member (object, "job", out);
  json_object_set_object_member (object, "pack", g_steal_pointer (&pack));
  viva_server_reply_json (&request, SOUP_STATUS_OK, object);
  return TRUE;
}

static void
reply_none (SoupServerMessage *msg)
{
  VivaServerRequest request = { .msg = msg };
  g_autoptr(JsonObject) object = json_object_new ();

  json_object_set_null_member (object, "job");
  viva_server_reply_json (&request, SOUP_STATUS_OK, object);
}

/* A claim that waits for a job (`wait_ms`): answered as soon as one is
 * enqueued (told by the store on this node, by NOTIFY from another; tried
 * again every second as well, the safety net), else with none when the
 * wait is over. Bounded well below the worker's request timeout; the
 * limits leave a request alone once its body is in (viva-server-limits.c). */
typedef struct
{
  VivaServerApi     *api;         /* unowned: its data holds the waiters */
  SoupServerMessage *msg;
  char              *exam_id;
  char              *kind;
  char              *claimer;
  gulong             disconnected_id;
  guint              wake_id;
  guint              retry_id;
  guint              timeout_id;
} Waiter;

/* A node's waiting claims, told of jobs by one handler and one LISTEN. */
typedef struct
{
  GPtrArray       *list;
  VivaServerStore *store;
  gulong           enqueued_id;
  guint            listen_id;
} Waiters;

static void
waiter_free (Waiter *waiter)
{
  g_clear_signal_handler (&waiter->disconnected_id, waiter->msg);
  g_clear_handle_id (&waiter->wake_id, g_source_remove);
  g_clear_handle_id (&waiter->retry_id, g_source_remove);
  g_clear_handle_id (&waiter->timeout_id, g_source_remove);
  g_clear_object (&waiter->msg);
  g_free (waiter->exam_id);
  g_free (waiter->kind);
  g_free (waiter->claimer);
  g_free (waiter);
}

static void
waiters_free (Waiters *waiters)
{
  g_clear_signal_handler (&waiters->enqueued_id, waiters->store);
  viva_server_db_unlisten (viva_server_store_get_db (waiters->store), waiters->listen_id);
  g_ptr_array_unref (waiters->list);
  g_clear_object (&waiters->store);
  g_free (waiters);
}

static void job_enqueued_cb (VivaServerStore *store,
                             const char      *exam_id,
                             gpointer         user_data);
static void job_told_cb     (const char      *payload,
                             gpointer         user_data);

static Waiters *
get_waiters (VivaServerApi *api)
{
  Waiters *waiters = g_object_get_data (G_OBJECT (api), "viva-claim-waiters");

  if (waiters == NULL)
    {
      waiters = g_new0 (Waiters, 1);
      waiters->list = g_ptr_array_new_with_free_func ((GDestroyNotify)waiter_free);
      waiters->store = g_object_ref (viva_server_api_get_store (api));
      waiters->enqueued_id = g_signal_connect (waiters->store, "job-enqueued", G_CALLBACK (job_enqueued_cb), waiters);
      waiters->listen_id = viva_server_db_listen (viva_server_store_get_db (waiters->store), VIVA_SERVER_JOBS_CHANNEL,
                                                  job_told_cb, waiters);
      g_object_set_data_full (G_OBJECT (api), "viva-claim-waiters", waiters, (GDestroyNotify)waiters_free);
    }
  return waiters;
}

static void
waiter_done (Waiter *waiter)
{
  soup_server_message_unpause (waiter->msg);
  g_ptr_array_remove (get_waiters (waiter->api)->list, waiter);
}

/* A worker that waits sends nothing: a connection with something to read
 * is one the worker closed (killed, it closes at once), or one it means
 * to close. libsoup reads nothing of a paused message, so it is asked
 * here, before a job is claimed for nobody (and held until its lease ran
 * out). */
static gboolean
client_gone (SoupServerMessage *msg)
{
  GSocket *socket = soup_server_message_get_socket (msg);

  return socket == NULL || g_socket_condition_check (socket, G_IO_IN | G_IO_HUP | G_IO_ERR) != 0;
}

/* Whether the claim is over: answered with a job, or the worker gone. */
static gboolean
claim_for (Waiter *waiter)
{
  if (client_gone (waiter->msg))
    {
      reply_none (waiter->msg);
      return TRUE;
    }
  return claim_and_reply (waiter->api, waiter->msg, waiter->exam_id, waiter->kind, waiter->claimer);
}

static void
try_claim (Waiter *waiter)
{
  if (claim_for (waiter))
    waiter_done (waiter);
}

static gboolean
wake_cb (gpointer user_data)
{
  Waiter *waiter = user_data;

  waiter->wake_id = 0;
  try_claim (waiter);
  return G_SOURCE_REMOVE;
}

/* Each claim waiting for the exam's jobs tries, from the main loop: the
 * store tells from inside the enqueue's transaction. */
static void
wake (Waiters    *waiters,
      const char *exam_id)
{
  for (guint i = 0; i < waiters->list->len; i++)
    {
      Waiter *waiter = g_ptr_array_index (waiters->list, i);

      if (waiter->wake_id == 0 && g_strcmp0 (exam_id, waiter->exam_id) == 0)
        waiter->wake_id = g_idle_add (wake_cb, waiter);
    }
}

static void
job_enqueued_cb (VivaServerStore *store,
                 const char      *exam_id,
                 gpointer         user_data)
{
  wake (user_data, exam_id);
}

static void
job_told_cb (const char *payload,
             gpointer    user_data)
{
  wake (user_data, payload);
}

static gboolean
retry_cb (gpointer user_data)
{
  Waiter *waiter = user_data;

  if (claim_for (waiter))
    {
      waiter->retry_id = 0;
      waiter_done (waiter);
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

static gboolean
timeout_cb (gpointer user_data)
{
  Waiter *waiter = user_data;

  waiter->timeout_id = 0;
  reply_none (waiter->msg);
  waiter_done (waiter);
  return G_SOURCE_REMOVE;
}

/* The worker went away while it waited: nothing to answer. */
static void
disconnected_cb (SoupServerMessage *msg,
                 gpointer           user_data)
{
  Waiter *waiter = user_data;

  g_ptr_array_remove (get_waiters (waiter->api)->list, waiter);
}

void
_viva_server_worker_claim (VivaServerRequest *request)
{
  g_autofree char *claimer = NULL;
  const char *worker;
  const char *kind = NULL;
  JsonNode *wait = json_object_get_member (request->body, "wait_ms");
  gint64 wait_ms = 0;
  Waiter *waiter;

  if (!(worker = _viva_server_body_string (request, "worker", 128)))
    return;
  /* A worker may be kept for one kind: the defenses' code runs, which
   * keep a student waiting, or the gradings. */
  if (json_object_has_member (request->body, "kind") &&
      (!(kind = _viva_server_body_string (request, "kind", 16)) ||
       !(g_str_equal (kind, "run") || g_str_equal (kind, "grade"))))
    {
      if (kind != NULL)
        viva_server_reply_error (request, SOUP_STATUS_BAD_REQUEST, "bad_request", "%s",
                                 _("“kind” is “run” or “grade”, or left out for any job."));
      return;
    }
  if (wait != NULL &&
      (!JSON_NODE_HOLDS_VALUE (wait) || json_node_get_value_type (wait) != G_TYPE_INT64 ||
       (wait_ms = json_node_get_int (wait)) < 0 || wait_ms > CLAIM_MAX_WAIT_MS))
    {
      viva_server_reply_error (request, SOUP_STATUS_BAD_REQUEST, "bad_request",
                               _("“wait_ms” is how long to wait for a job, from 0 to %u milliseconds."),
                               CLAIM_MAX_WAIT_MS);
      return;
    }
  claimer = g_strdup_printf ("worker %s (%s)", worker, request->client);

  if (claim_and_reply (request->api, request->msg, request->exam_id, kind, claimer))
    return;
  if (wait_ms == 0)
    {
      reply_none (request->msg);
      return;
    }

  waiter = g_new0 (Waiter, 1);
  waiter->api = request->api;
  waiter->msg = g_object_ref (request->msg);
  waiter->exam_id = g_strdup (request->exam_id);
  waiter->kind = g_strdup (kind);
  waiter->claimer = g_steal_pointer (&claimer);
  waiter->disconnected_id = g_signal_connect (request->msg, "disconnected", G_CALLBACK (disconnected_cb), waiter);
  waiter->retry_id = g_timeout_add (viva_server_local_jobs_poll_ms (CLAIM_RETRY_MS), retry_cb, waiter);
  waiter->timeout_id = g_timeout_add ((guint)wait_ms, timeout_cb, waiter);
  g_ptr_array_add (get_waiters (request->api)->list, waiter);
  soup_server_message_pause (request->msg);
}

/* The job, when it is this exam's; replies otherwise. */
static JsonObject *
own_job (VivaServerRequest *request)
{
  const char *job_id = g_hash_table_lookup (request->params, "job");
  g_autoptr(JsonObject) job = NULL;
  g_autoptr(GError) error = NULL;

  if (!(job = viva_server_store_get_job (viva_server_api_get_store (request->api), job_id, &error)))
    {
      if (error != NULL)
        viva_server_reply_db_error (request, error);
      else
        viva_server_reply_error (request, SOUP_STATUS_NOT_FOUND, "not_found", "%s",
                                 _("There is no such job in this exam."));
      return NULL;
    }
  if (!g_str_equal (json_object_get_string_member (job, "exam_id"), request->exam_id))
    {
      viva_server_reply_error (request, SOUP_STATUS_NOT_FOUND, "not_found", "%s",
                               _("There is no such job in this exam."));
      return NULL;
    }
  return g_steal_pointer (&job);
}

/* A lost claim is the worker's news, not the server's failure. */
static void
reply_claim_error (VivaServerRequest *request,
                   GError            *error)
{
  if (g_error_matches (error, VIVA_SERVER_DB_ERROR, VIVA_SERVER_DB_ERROR_CONSTRAINT))
    viva_server_reply_error (request, SOUP_STATUS_CONFLICT, "lost", "%s", error->message);
  else
    viva_server_reply_db_error (request, error);
}

void
_viva_server_worker_renew (VivaServerRequest *request)
{
  g_autoptr(JsonObject) object = json_object_new ();
  g_autoptr(JsonObject) job = NULL;
  g_autoptr(GError) error = NULL;
  const char *claim_id;
  guint lease_ms = viva_server_pool_lease_ms ();

  if (!(claim_id = _viva_server_body_string (request, "claim_id", 128)) || !(job = own_job (request)))
    return;

  if (!viva_server_store_renew_job (viva_server_api_get_store (request->api),
                                    g_hash_table_lookup (request->params, "job"), claim_id, lease_ms, &error))
    {
      reply_claim_error (request, error);
      return;
    }
  json_object_set_int_member (object, "lease_ms", lease_ms);
  viva_server_reply_json (request, SOUP_STATUS_OK, object);
}

void
_viva_server_worker_result (VivaServerRequest *request)
{
  g_autoptr(JsonObject) object = json_object_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *finisher = NULL;
  g_autoptr(JsonObject) job = NULL;
  const char *claim_id;
  VivaExamFile *exam;

  if (!(claim_id = _viva_server_body_string (request, "claim_id", 128)) || !(job = own_job (request)))
    return;
  /* A claim that is not this worker's is refused before its result is
   * even read; then the result must be this job's. */
  if (json_object_get_null_member (job, "claim_id") ||
      !g_str_equal (json_object_get_string_member (job, "claim_id"), claim_id))
    {
      viva_server_reply_error (request, SOUP_STATUS_CONFLICT, "lost", "%s",
                               _("This job went to another worker: its lease ran out. Drop it and claim the next."));
      return;
    }
  if (!(exam = viva_server_api_get_exam (request->api, request->exam_id, &error)))
    {
      if (error != NULL)
        viva_server_reply_db_error (request, error);
      else
        viva_server_reply_error (request, SOUP_STATUS_NOT_FOUND, "not_found", "%s",
                                 _("There is no such job in this exam."));
      return;
    }
  if (!(text = viva_server_job_check_result (exam, job, json_object_get_member (request->body, "result"), &error)))
    {
      viva_server_reply_error (request, g_error_matches (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE)
                                        ? SOUP_STATUS_REQUEST_ENTITY_TOO_LARGE : SOUP_STATUS_BAD_REQUEST,
                               "bad_result", "%s", error->message);
      return;
    }
  finisher = g_strdup_printf ("worker (%s)", request->client);

  if (!viva_server_store_finish_job (viva_server_api_get_store (request->api),
                                     g_hash_table_lookup (request->params, "job"), claim_id, finisher, text, &error))
    {
      reply_claim_error (request, error);
      return;
    }
  json_object_set_boolean_member (object, "recorded", TRUE);
  viva_server_reply_json (request, SOUP_STATUS_OK, object);
}

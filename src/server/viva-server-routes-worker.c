/* viva-server-routes-worker.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-server-defense-jobs.h"
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

void
_viva_server_worker_claim (VivaServerRequest *request)
{
  VivaServerStore *store = viva_server_api_get_store (request->api);
  g_autoptr(JsonObject) object = json_object_new ();
  g_autoptr(JsonObject) job = NULL;
  g_autoptr(JsonObject) pack = NULL;
  g_autoptr(JsonObject) payload = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *claimer = NULL;
  VivaExamFile *exam;
  const char *worker;
  const char *kind = NULL;
  JsonObject *out;
  guint lease_ms = viva_server_pool_lease_ms ();

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
  claimer = g_strdup_printf ("worker %s (%s)", worker, request->client);

  if (!(job = viva_server_store_claim_job_of_kind (store, request->exam_id, kind, claimer, lease_ms, &error)))
    {
      if (error != NULL)
        {
          viva_server_reply_db_error (request, error);
          return;
        }
      json_object_set_null_member (object, "job");
      viva_server_reply_json (request, SOUP_STATUS_OK, object);
      return;
    }
  payload = parse_object (json_object_get_string_member (job, "payload"));
  if (!(exam = viva_server_api_get_exam (request->api, request->exam_id, &error)) ||
      !(pack = viva_server_job_pack (exam, json_object_get_string_member_with_default (payload, "problem_id", ""))))
    {
      /* Left to its lease: no claimer can run it either. */
      viva_server_reply_error (request, SOUP_STATUS_INTERNAL_SERVER_ERROR, "internal", "%s",
                               _("The exam server cannot read this job’s problem; the teacher should look at its log."));
      g_message ("job %s: %s", json_object_get_string_member (job, "id"), error ? error->message : "no such problem");
      return;
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
  viva_server_reply_json (request, SOUP_STATUS_OK, object);
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

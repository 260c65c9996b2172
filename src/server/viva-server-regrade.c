/* viva-server-regrade.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "viva-server-keys.h"
#include "viva-server-routes-private.h"
#include "viva-server-store-regrade.h"

/* Re-grading on the server, for the exam's teacher: every reported
 * defense's code, as the server holds it, graded again by the grading
 * pool (one `grade` job each, run in fresh sandboxed workers on a node or
 * a `viva-server worker`) against the exam the server holds — the pack
 * the students were examined on, never one sent with the request: the
 * teacher changes an exam with `exam add`, where it is checked. Each
 * finished job becomes a new signed revision of the report: the report as
 * it was, plus `revision` and `regrade` (when, the new grade, the previous
 * revision's verdict and hidden tests). Nothing is rewritten.
 *
 * A job's end is turned into its revision when the re-grade or the reports
 * are next asked for (settle()), by whichever node is asked: the signing
 * key is a node's, and a remote worker only reports a result. */

static JsonObject *
parse_object (const char *text)
{
  g_autoptr(JsonNode) node = text ? json_from_string (text, NULL) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;
  return json_object_ref (json_node_get_object (node));
}

static char *
iso_time (gint64 ms)
{
  g_autoptr(GDateTime) utc = g_date_time_new_from_unix_utc (ms / 1000);

  return utc ? g_date_time_format_iso8601 (utc) : g_strdup ("");
}

/* What the previous revision said: the defense's verdict, and the hidden
 * tests as last graded (by its re-grade if it had one). */
static JsonObject *
previous_of (JsonObject *report,
             gint64      revision)
{
  JsonObject *previous = json_object_new ();
  JsonObject *verdict = json_object_has_member (report, "verdict") &&
                        JSON_NODE_HOLDS_OBJECT (json_object_get_member (report, "verdict"))
                        ? json_object_get_object_member (report, "verdict") : NULL;
  JsonObject *regrade = json_object_has_member (report, "regrade") &&
                        JSON_NODE_HOLDS_OBJECT (json_object_get_member (report, "regrade"))
                        ? json_object_get_object_member (report, "regrade") : NULL;
  JsonObject *hidden = NULL;

  json_object_set_int_member (previous, "revision", revision);
  if (verdict != NULL && json_object_has_member (verdict, "verdict"))
    json_object_set_member (previous, "verdict", json_object_dup_member (verdict, "verdict"));
  else
    json_object_set_null_member (previous, "verdict");
  if (verdict != NULL && json_object_has_member (verdict, "score"))
    json_object_set_member (previous, "score", json_object_dup_member (verdict, "score"));

  if (regrade != NULL && json_object_has_member (regrade, "hidden_tests"))
    hidden = json_object_get_object_member (regrade, "hidden_tests");
  else if (verdict != NULL && json_object_has_member (verdict, "hidden_tests") &&
           JSON_NODE_HOLDS_OBJECT (json_object_get_member (verdict, "hidden_tests")))
    hidden = json_object_get_object_member (verdict, "hidden_tests");
  if (hidden != NULL)
    json_object_set_object_member (previous, "hidden_tests", json_object_ref (hidden));
  if (regrade != NULL && json_object_has_member (regrade, "engine_pass"))
    json_object_set_member (previous, "engine_pass", json_object_dup_member (regrade, "engine_pass"));
  else if (verdict != NULL && json_object_has_member (verdict, "engine_pass"))
    json_object_set_member (previous, "engine_pass", json_object_dup_member (verdict, "engine_pass"));
  return previous;
}

/* One finished job: its revision signed and kept, or its failure said. */
static gboolean
settle_item (VivaServerApi  *api,
             JsonObject     *item,
             GError        **error)
{
  VivaServerStore *store = viva_server_api_get_store (api);
  const char *regrade_id = json_object_get_string_member (item, "regrade_id");
  const char *defense_id = json_object_get_string_member (item, "defense_id");
  g_autofree char *key_path = g_build_filename (viva_server_api_get_state_dir (api), "signing-key.pem", NULL);
  g_autoptr(JsonObject) result = NULL;
  g_autoptr(JsonObject) newest = NULL;
  g_autoptr(JsonObject) report = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *text = NULL;
  g_autofree char *signature = NULL;
  g_autofree char *when = NULL;
  JsonObject *regrade, *hidden;
  gint64 revision, finished_at;

  if (g_strcmp0 (json_object_get_string_member_with_default (item, "state", ""), "done") != 0 ||
      json_object_get_null_member (item, "result") ||
      !(result = parse_object (json_object_get_string_member (item, "result"))) ||
      json_object_has_member (result, "error") ||
      !json_object_has_member (result, "report") ||
      !JSON_NODE_HOLDS_OBJECT (json_object_get_member (result, "report")))
    {
      const char *why = result && json_object_has_member (result, "error")
                        ? json_object_get_string_member_with_default (result, "error", "")
                        : _("The grading pool gave up on this report: every worker that took it stopped.");

      return viva_server_store_fail_regrade_item (store, regrade_id, defense_id, why, error);
    }

  if (!(newest = viva_server_store_newest_report (store, defense_id, error)))
    return FALSE;
  if (!(report = parse_object (json_object_get_string_member (newest, "report_json"))))
    return viva_server_store_fail_regrade_item (store, regrade_id, defense_id,
                                                _("The kept report is not readable, so it was not re-graded."), error);

  revision = json_object_get_int_member (newest, "revision") + 1;
  finished_at = json_object_get_null_member (item, "finished_at") ? viva_server_store_now ()
                                                                   : json_object_get_int_member (item, "finished_at");
  when = iso_time (finished_at);

  regrade = json_object_new ();
  json_object_set_int_member (regrade, "revision", revision);
  json_object_set_string_member (regrade, "regrade", regrade_id);
  json_object_set_string_member (regrade, "job", json_object_get_string_member (item, "job_id"));
  json_object_set_string_member (regrade, "regraded_at", when);
  json_object_set_int_member (regrade, "regraded_at_ms", finished_at);
  json_object_set_string_member (regrade, "by", "viva-server");
  hidden = json_object_new ();
  json_object_set_int_member (hidden, "passed", json_object_get_int_member_with_default (result, "passed", 0));
  json_object_set_int_member (hidden, "total", json_object_get_int_member_with_default (result, "total", 0));
  json_object_set_object_member (regrade, "hidden_tests", hidden);
  json_object_set_boolean_member (regrade, "engine_pass", json_object_get_boolean_member_with_default (result, "verdict", FALSE));
  json_object_set_member (regrade, "grade", json_object_dup_member (result, "report"));
  json_object_set_object_member (regrade, "previous", previous_of (report, revision - 1));

  json_object_set_int_member (report, "revision", revision);
  json_object_set_object_member (report, "regrade", regrade);

  node = json_node_init_object (json_node_alloc (), report);
  text = json_to_string (node, TRUE);
  if (!(signature = viva_server_keys_sign (key_path, text, strlen (text), error)))
    return FALSE;

  if (!viva_server_store_add_revision (store, regrade_id, defense_id, revision, text, signature, error))
    {
      /* Another node settled it first: its revision stands. */
      if (error != NULL && g_error_matches (*error, VIVA_SERVER_DB_ERROR, VIVA_SERVER_DB_ERROR_CONSTRAINT))
        {
          g_clear_error (error);
          return TRUE;
        }
      return FALSE;
    }
  return TRUE;
}

/**
 * _viva_server_regrade_settle:
 * @regrade_id: (nullable): one re-grade, or every one of the exam
 *
 * Turns every finished re-grade job of the exam into its revision.
 */
gboolean
_viva_server_regrade_settle (VivaServerApi  *api,
                             const char     *exam_id,
                             const char     *regrade_id,
                             GError        **error)
{
  g_autoptr(JsonArray) items = NULL;

  if (!(items = viva_server_store_list_regrade_items (viva_server_api_get_store (api), exam_id, regrade_id,
                                                      TRUE, error)))
    return FALSE;
  for (guint i = 0; i < json_array_get_length (items); i++)
    if (!settle_item (api, json_array_get_object_element (items, i), error))
      return FALSE;
  return TRUE;
}

static JsonObject *
describe (VivaServerApi  *api,
          const char     *exam_id,
          const char     *regrade_id,
          GError        **error)
{
  VivaServerStore *store = viva_server_api_get_store (api);
  g_autoptr(JsonObject) row = NULL;
  g_autoptr(JsonArray) items = NULL;
  g_autoptr(GError) local = NULL;
  JsonObject *object;
  JsonArray *list;
  guint done = 0, failed = 0;

  if (!_viva_server_regrade_settle (api, exam_id, regrade_id, error))
    return NULL;
  if (!(row = viva_server_store_get_regrade (store, regrade_id, &local)))
    {
      if (local != NULL)
        g_propagate_error (error, g_steal_pointer (&local));
      return NULL;
    }
  if (g_strcmp0 (json_object_get_string_member (row, "exam_id"), exam_id) != 0)
    return NULL;
  if (!(items = viva_server_store_list_regrade_items (store, exam_id, regrade_id, FALSE, error)))
    return NULL;

  object = json_object_new ();
  list = json_array_new ();
  for (guint i = 0; i < json_array_get_length (items); i++)
    {
      JsonObject *item = json_array_get_object_element (items, i);
      JsonObject *out = json_object_new ();
      const char *state;

      json_object_set_string_member (out, "defense", json_object_get_string_member (item, "defense_id"));
      json_object_set_string_member (out, "student_id", json_object_get_string_member (item, "student_id"));
      json_object_set_string_member (out, "problem", json_object_get_string_member (item, "problem_id"));
      if (!json_object_get_null_member (item, "revision"))
        {
          g_autoptr(JsonObject) result = parse_object (json_object_get_string_member (item, "result"));

          state = "done";
          done++;
          json_object_set_int_member (out, "revision", json_object_get_int_member (item, "revision"));
          if (result != NULL)
            {
              json_object_set_int_member (out, "passed", json_object_get_int_member_with_default (result, "passed", 0));
              json_object_set_int_member (out, "total", json_object_get_int_member_with_default (result, "total", 0));
            }
        }
      else if (!json_object_get_null_member (item, "error"))
        {
          state = "failed";
          failed++;
          json_object_set_string_member (out, "error", json_object_get_string_member (item, "error"));
        }
      else
        state = g_strcmp0 (json_object_get_string_member (item, "state"), "running") == 0 ? "running" : "waiting";
      json_object_set_string_member (out, "state", state);
      json_array_add_object_element (list, out);
    }

  json_object_set_string_member (object, "id", regrade_id);
  json_object_set_string_member (object, "exam", exam_id);
  json_object_set_int_member (object, "created_at", json_object_get_int_member (row, "created_at"));
  json_object_set_int_member (object, "total", json_array_get_length (items));
  json_object_set_int_member (object, "done", done);
  json_object_set_int_member (object, "failed", failed);
  json_object_set_boolean_member (object, "finished", done + failed == json_array_get_length (items));
  json_object_set_array_member (object, "items", list);
  return object;
}

void
_viva_server_teacher_regrade (VivaServerRequest *request)
{
  VivaServerStore *store = viva_server_api_get_store (request->api);
  g_autofree char *regrade_id = viva_server_keys_random_id ();
  g_autoptr(JsonArray) defenses = NULL;
  g_autoptr(JsonObject) object = NULL;
  g_autoptr(GError) error = NULL;

  if (!(defenses = viva_server_store_list_reported (store, request->exam_id, &error)) ||
      !viva_server_store_start_regrade (store, regrade_id, request->exam_id, defenses, &error) ||
      !(object = describe (request->api, request->exam_id, regrade_id, &error)))
    {
      viva_server_reply_db_error (request, error);
      return;
    }
  viva_server_reply_json (request, SOUP_STATUS_ACCEPTED, object);
}

void
_viva_server_teacher_get_regrade (VivaServerRequest *request)
{
  const char *regrade_id = g_hash_table_lookup (request->params, "regrade");
  g_autoptr(JsonObject) object = NULL;
  g_autoptr(GError) error = NULL;

  if (!(object = describe (request->api, request->exam_id, regrade_id, &error)))
    {
      if (error != NULL)
        viva_server_reply_db_error (request, error);
      else
        viva_server_reply_error (request, SOUP_STATUS_NOT_FOUND, "no_regrade", "%s",
                                 _("This exam has no such re-grade: start one again."));
      return;
    }
  viva_server_reply_json (request, SOUP_STATUS_OK, object);
}

static JsonObject *
revision_entry (JsonObject *row)
{
  JsonObject *entry = json_object_new ();

  json_object_set_string_member (entry, "defense", json_object_get_string_member (row, "defense_id"));
  json_object_set_string_member (entry, "student_id", json_object_get_string_member (row, "student_id"));
  json_object_set_string_member (entry, "problem", json_object_get_string_member (row, "problem_id"));
  json_object_set_string_member (entry, "report", json_object_get_string_member (row, "report_json"));
  json_object_set_string_member (entry, "signature", json_object_get_string_member (row, "signature"));
  json_object_set_int_member (entry, "created_at", json_object_get_int_member (row, "created_at"));
  json_object_set_int_member (entry, "revision", json_object_get_int_member (row, "revision"));
  return entry;
}

/**
 * _viva_server_regrade_revise_reports:
 * @reports: the reports route's entries, one per defense (revision 1)
 * @earlier: where the revisions a newer one replaced go
 *
 * Puts each defense's newest revision in @reports, the ones before it in
 * @earlier: the teacher gets every signed revision, the newest in place.
 */
gboolean
_viva_server_regrade_revise_reports (VivaServerApi  *api,
                                     const char     *exam_id,
                                     JsonArray      *reports,
                                     JsonArray      *earlier,
                                     GError        **error)
{
  g_autoptr(JsonArray) revisions = NULL;
  g_autoptr(GHashTable) newest = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify)json_object_unref);

  if (!_viva_server_regrade_settle (api, exam_id, NULL, error) ||
      !(revisions = viva_server_store_list_revisions (viva_server_api_get_store (api), exam_id, error)))
    return FALSE;

  /* Oldest first per defense: the last one kept is the newest. */
  for (guint i = 0; i < json_array_get_length (revisions); i++)
    {
      JsonObject *row = json_array_get_object_element (revisions, i);
      JsonObject *before = g_hash_table_lookup (newest, json_object_get_string_member (row, "defense_id"));

      if (before != NULL)
        json_array_add_object_element (earlier, json_object_ref (before));
      g_hash_table_replace (newest, g_strdup (json_object_get_string_member (row, "defense_id")),
                            revision_entry (row));
    }

  for (guint i = 0; i < json_array_get_length (reports); i++)
    {
      JsonObject *entry = json_array_get_object_element (reports, i);
      JsonObject *revised = g_hash_table_lookup (newest, json_object_get_string_member (entry, "defense"));

      if (!json_object_has_member (entry, "revision"))
        json_object_set_int_member (entry, "revision", 1);
      if (revised == NULL)
        continue;
      json_array_add_object_element (earlier, json_object_ref (entry));
      json_array_remove_element (reports, i);
      json_array_add_object_element (reports, json_object_ref (revised));
      i--;
      /* Each defense's newest goes in once. */
      g_hash_table_remove (newest, json_object_get_string_member (revised, "defense"));
    }
  return TRUE;
}

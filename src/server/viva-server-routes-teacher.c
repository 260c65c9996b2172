/* viva-server-routes-teacher.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-server-keys.h"
#include "viva-server-routes-private.h"
#include "viva-server-sitting.h"

/* The teacher's routes, for the teacher token of the exam in the path
 * only: the class live, every signed report, closing the exam (which
 * releases verdicts held until then). Re-grading is viva-server-regrade.c. */

void
_viva_server_teacher_status (VivaServerRequest *request)
{
  VivaServerStore *store = viva_server_api_get_store (request->api);
  g_autoptr(JsonObject) object = json_object_new ();
  g_autoptr(JsonObject) exam = NULL;
  g_autoptr(GError) error = NULL;
  JsonArray *students;

  if (!(exam = viva_server_store_get_exam (store, request->exam_id, &error)) ||
      !(students = viva_server_sitting_class (store, request->exam_id, &error)))
    {
      viva_server_reply_db_error (request, error);
      return;
    }

  json_object_set_string_member (object, "exam", request->exam_id);
  json_object_set_string_member (object, "title", json_object_get_string_member (exam, "title"));
  json_object_set_boolean_member (object, "closed", !json_object_get_null_member (exam, "closed_at"));
  json_object_set_int_member (object, "now", viva_server_store_now ());
  json_object_set_array_member (object, "students", students);
  viva_server_reply_json (request, SOUP_STATUS_OK, object);
}

void
_viva_server_teacher_reports (VivaServerRequest *request)
{
  VivaServerStore *store = viva_server_api_get_store (request->api);
  g_autofree char *pub_path = g_build_filename (viva_server_api_get_state_dir (request->api),
                                                VIVA_SERVER_SIGNING_PUB_FILE, NULL);
  g_autofree char *pub = NULL;
  g_autoptr(JsonObject) object = json_object_new ();
  g_autoptr(JsonArray) rows = NULL;
  g_autoptr(GError) error = NULL;
  JsonArray *reports = json_array_new ();
  JsonArray *earlier = json_array_new ();

  json_object_set_array_member (object, "reports", reports);
  json_object_set_array_member (object, "earlier", earlier);
  if (!(rows = viva_server_store_list_reports (store, request->exam_id, &error)) ||
      !g_file_get_contents (pub_path, &pub, NULL, &error))
    {
      viva_server_reply_db_error (request, error);
      return;
    }

  for (guint i = 0; i < json_array_get_length (rows); i++)
    {
      JsonObject *row = json_array_get_object_element (rows, i);
      JsonObject *entry = json_object_new ();

      json_object_set_string_member (entry, "defense", json_object_get_string_member (row, "defense_id"));
      json_object_set_string_member (entry, "student_id", json_object_get_string_member (row, "student_id"));
      json_object_set_string_member (entry, "problem", json_object_get_string_member (row, "problem_id"));
      /* The report as the exact text that was signed. */
      json_object_set_string_member (entry, "report", json_object_get_string_member (row, "report_json"));
      json_object_set_string_member (entry, "signature", json_object_get_string_member (row, "signature"));
      json_object_set_int_member (entry, "created_at", json_object_get_int_member (row, "created_at"));
      json_array_add_object_element (reports, entry);
    }

  /* A re-graded report's newest signed revision stands in its place; the
   * ones before it are kept and sent too (viva-server-regrade.c). */
  if (!_viva_server_regrade_revise_reports (request->api, request->exam_id, reports, earlier, &error))
    {
      viva_server_reply_db_error (request, error);
      return;
    }

  json_object_set_string_member (object, "signature_algorithm", "ed25519");
  json_object_set_string_member (object, "public_key", pub);
  viva_server_reply_json (request, SOUP_STATUS_OK, object);
}

void
_viva_server_teacher_close (VivaServerRequest *request)
{
  VivaServerStore *store = viva_server_api_get_store (request->api);
  g_autoptr(JsonObject) object = json_object_new ();
  g_autoptr(GError) error = NULL;

  if (!viva_server_store_close_exam (store, request->exam_id, &error))
    {
      viva_server_reply_db_error (request, error);
      return;
    }

  json_object_set_string_member (object, "exam", request->exam_id);
  json_object_set_boolean_member (object, "closed", TRUE);
  viva_server_reply_json (request, SOUP_STATUS_OK, object);
}

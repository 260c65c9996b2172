/* viva-server-status.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "viva-server-api.h"
#include "viva-server-node.h"
#include "viva-server-sitting.h"
#include "viva-server-store-pool.h"
#include "viva-server-util.h"

/* viva-server status EXAM-ID: the class from the database (serve may be
 * running: SQLite in WAL mode lets this read beside it), then the nodes
 * serving it, their leases and the grading queue. `viva-server routes`,
 * at the end, prints the API's route table. */

#define STUCK_RUN_MS 5000

static gboolean
print_pool (VivaServerCommon  *common,
            VivaServerStore   *store,
            JsonObject        *summary,
            GError           **error)
{
  gint64 now = viva_server_store_now ();
  g_autoptr(JsonArray) nodes = NULL;
  g_autoptr(JsonArray) leases = NULL;
  g_autoptr(JsonObject) queue = NULL;

  if (!(nodes = viva_server_store_list_nodes (store, now - 3 * VIVA_SERVER_NODE_HEARTBEAT_MS, error)) ||
      !(leases = viva_server_store_list_leases (store, error)) ||
      !(queue = viva_server_store_queue_summary (store, error)))
    return FALSE;

  for (guint i = 0; i < json_array_get_length (nodes); i++)
    {
      JsonObject *node = json_array_get_object_element (nodes, i);

      if (common->json)
        viva_server_print_event ("node", node);
      else
        printf (_("Node %s at %s, up %u s.\n"), json_object_get_string_member (node, "id"),
                json_object_get_string_member (node, "address"),
                (guint)((now - json_object_get_int_member (node, "started_at")) / 1000));
    }
  for (guint i = 0; i < json_array_get_length (leases); i++)
    {
      JsonObject *lease = json_array_get_object_element (leases, i);

      if (common->json)
        viva_server_print_event ("lease", lease);
      else
        printf (_("Lease %s held by %s for %u s more.\n"), json_object_get_string_member (lease, "resource"),
                json_object_get_string_member (lease, "holder"),
                (guint)((json_object_get_int_member (lease, "expires_at") - now + 999) / 1000));
    }

  json_object_set_int_member (summary, "nodes", json_array_get_length (nodes));
  if (!common->json)
    printf (_("Grading queue: %u waiting, %u running, %u done, %u failed; the oldest has waited %u s.\n"),
            (guint)(json_object_get_int_member (queue, "waiting") + json_object_get_int_member (queue, "expired")),
            (guint)json_object_get_int_member (queue, "running"),
            (guint)json_object_get_int_member (queue, "done"),
            (guint)json_object_get_int_member (queue, "failed"),
            (guint)(json_object_get_int_member (queue, "oldest_wait_ms") / 1000));
  if (!common->json)
    {
      JsonObject *kinds = json_object_get_object_member (queue, "kinds");
      JsonObject *run = json_object_has_member (kinds, "run") ? json_object_get_object_member (kinds, "run") : NULL;
      JsonObject *grade = json_object_has_member (kinds, "grade") ? json_object_get_object_member (kinds, "grade") : NULL;

      /* A defense's code run keeps a student waiting; a grading less so.
       * (g_print: GCC's sanitizer build takes printf's translated format
       * here for one that may be NULL.) */
      g_print (_("Of them, the defenses’ code runs: %u waiting, %u running; gradings: %u waiting, %u running.\n"),
              run ? (guint)json_object_get_int_member (run, "waiting") : 0,
              run ? (guint)json_object_get_int_member (run, "running") : 0,
              grade ? (guint)json_object_get_int_member (grade, "waiting") : 0,
              grade ? (guint)json_object_get_int_member (grade, "running") : 0);

      /* A free claimer takes a run within a second (a node polls every
       * 250 ms, a worker's claim every second), so runs that wait longer
       * with none running have no claimer alive: each student's run ends
       * at its deadline without running. */
      if (run != NULL && json_object_get_int_member (run, "waiting") > 0 &&
          json_object_get_int_member (run, "running") == 0 &&
          json_object_get_int_member (run, "oldest_wait_ms") >= STUCK_RUN_MS)
        {
          guint n = (guint)json_object_get_int_member (run, "waiting");

          printf (ngettext ("Warning: %u code run waits and no worker or node claims runs: start "
                            "`viva-server worker` or serve with --local-jobs.\n",
                            "Warning: %u code runs wait and no worker or node claims runs: start "
                            "`viva-server worker` or serve with --local-jobs.\n", n), n);
        }
    }
  json_object_set_object_member (summary, "queue", g_steal_pointer (&queue));
  return TRUE;
}

int
viva_server_status_command (int    argc,
                            char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_auto(VivaServerCommon) common = { 0 };
  g_autoptr(VivaServerStore) store = NULL;
  g_autoptr(JsonObject) exam = NULL;
  g_autoptr(JsonArray) students = NULL;
  g_autoptr(JsonObject) summary = json_object_new ();
  g_autoptr(GError) error = NULL;
  guint counts[4] = { 0 };
  static const char * const states[] = { "not_signed_in", "working", "defending", "handed_in" };
  int status;

  context = g_option_context_new (_("EXAM-ID — who is signed in, working, defending, handed in"));
  viva_server_common_add_entries (&common, context);
  if ((status = viva_server_parse_options (context, &common, &argc, &argv)) != VIVA_SERVER_EXIT_OK)
    return status;

  if (argc != 2)
    {
      viva_server_usage_error (context, "%s", _("Give exactly one EXAM-ID."));
      return VIVA_SERVER_EXIT_USAGE;
    }

  if (!(store = viva_server_open_store (&common)))
    return VIVA_SERVER_EXIT_FAILED;

  if (!(exam = viva_server_store_get_exam (store, argv[1], &error)) ||
      !(students = viva_server_sitting_class (store, argv[1], &error)))
    {
      viva_server_fail (&common, "%s", error ? error->message : _("This server holds no such exam."));
      return VIVA_SERVER_EXIT_FAILED;
    }

  for (guint i = 0; i < json_array_get_length (students); i++)
    {
      JsonObject *student = json_array_get_object_element (students, i);
      const char *state = json_object_get_string_member (student, "state");

      for (guint s = 0; s < G_N_ELEMENTS (states); s++)
        if (g_str_equal (state, states[s]))
          counts[s]++;

      if (common.json)
        viva_server_print_event ("student", student);
      else
        printf ("%-16s %-14s %-30s %u saved, %u reports\n",
                json_object_get_string_member (student, "student_id"), state,
                json_object_get_string_member (student, "name"),
                (guint)json_object_get_int_member (student, "saved"),
                (guint)json_object_get_int_member (student, "reports"));
    }

  json_object_set_string_member (summary, "database", viva_server_store_get_where (store));
  json_object_set_string_member (summary, "exam", argv[1]);
  json_object_set_string_member (summary, "title", json_object_get_string_member (exam, "title"));
  json_object_set_boolean_member (summary, "closed", !json_object_get_null_member (exam, "closed_at"));
  json_object_set_int_member (summary, "students", json_array_get_length (students));
  for (guint s = 0; s < G_N_ELEMENTS (states); s++)
    json_object_set_int_member (summary, states[s], counts[s]);

  if (!print_pool (&common, store, summary, &error))
    {
      viva_server_fail (&common, "%s", error->message);
      return VIVA_SERVER_EXIT_FAILED;
    }

  if (common.json)
    viva_server_print_event ("status", summary);
  else
    printf (_("%u students: %u not signed in, %u working, %u defending, %u handed in.\n"),
            json_array_get_length (students), counts[0], counts[1], counts[2], counts[3]);
  if (!common.json)
    printf (_("Data kept in %s.\n"), viva_server_store_get_where (store));

  return VIVA_SERVER_EXIT_OK;
}

int
viva_server_routes_command (int    argc,
                            char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_auto(VivaServerCommon) common = { 0 };
  const VivaServerRoute *routes;
  guint n;
  int status;

  context = g_option_context_new (_("— list the API’s routes and who may use each"));
  viva_server_common_add_entries (&common, context);
  if ((status = viva_server_parse_options (context, &common, &argc, &argv)) != VIVA_SERVER_EXIT_OK)
    return status;

  routes = viva_server_routes_get (&n);
  for (guint i = 0; i < n; i++)
    {
      if (common.json)
        {
          g_autoptr(JsonObject) object = json_object_new ();

          json_object_set_string_member (object, "method", routes[i].method);
          json_object_set_string_member (object, "path", routes[i].path);
          json_object_set_string_member (object, "auth", viva_server_auth_to_string (routes[i].auth));
          json_object_set_boolean_member (object, "body", routes[i].has_body);
          viva_server_print_event ("route", object);
        }
      else
        printf ("%-6s %-60s %s\n", routes[i].method, routes[i].path, viva_server_auth_to_string (routes[i].auth));
    }

  return VIVA_SERVER_EXIT_OK;
}

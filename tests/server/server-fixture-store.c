/* server-fixture-store.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "server-fixture-store.h"
#include "viva-server-store-pool.h"

/* The server's own database, opened as `viva-server status` opens it: a
 * second connection beside the running server's. */
VivaServerStore *
server_fixture_open_store (ServerFixture *fixture)
{
  g_autoptr(GError) error = NULL;
  VivaServerStore *store = viva_server_store_open_database (fixture->state_dir, fixture->database, &error);

  g_assert_no_error (error);
  return store;
}

/* A job's row: it must exist. */
JsonObject *
server_fixture_job (ServerFixture *fixture,
                    const char    *job_id)
{
  g_autoptr(VivaServerStore) store = server_fixture_open_store (fixture);
  g_autoptr(GError) error = NULL;
  JsonObject *job = viva_server_store_get_job (store, job_id, &error);

  g_assert_no_error (error);
  g_assert_nonnull (job);
  return job;
}

const char *
server_fixture_job_state (ServerFixture *fixture,
                          const char    *job_id)
{
  g_autoptr(JsonObject) job = server_fixture_job (fixture, job_id);

  return g_intern_string (json_object_get_string_member (job, "state"));
}

/* Every `run` job, oldest first. */
JsonArray *
server_fixture_run_jobs (ServerFixture *fixture)
{
  g_autoptr(VivaServerStore) store = server_fixture_open_store (fixture);
  g_autoptr(GError) error = NULL;
  JsonArray *rows = viva_server_db_queryf (viva_server_store_get_db (store), &error,
                                           "SELECT * FROM jobs WHERE kind = 'run' ORDER BY enqueued_at, id", "");

  g_assert_no_error (error);
  return rows;
}

/* status --json's queue: waiting and running of one kind. */
void
server_fixture_queue_of (ServerFixture *fixture,
                         const char    *exam_id,
                         const char    *kind,
                         gint64        *waiting,
                         gint64        *running)
{
  const char *args[] = { "status", exam_id, "--json", NULL };
  g_autofree char *out = NULL;
  g_auto(GStrv) lines = NULL;

  *waiting = *running = 0;
  g_assert_cmpint (server_fixture_run (fixture, args, &out), ==, 0);
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(JsonNode) node = lines[i][0] ? json_from_string (lines[i], NULL) : NULL;
      JsonObject *row, *kinds;

      if (node == NULL)
        continue;
      row = json_node_get_object (node);
      if (!g_str_equal (json_object_get_string_member (row, "event"), "status"))
        continue;
      kinds = json_object_get_object_member (json_object_get_object_member (row, "queue"), "kinds");
      if (json_object_has_member (kinds, kind))
        {
          *waiting = json_object_get_int_member (json_object_get_object_member (kinds, kind), "waiting");
          *running = json_object_get_int_member (json_object_get_object_member (kinds, kind), "running");
        }
    }
}

/* status's words, as the teacher reads them. */
char *
server_fixture_status_text (ServerFixture *fixture,
                            const char    *exam_id)
{
  const char *args[] = { "status", exam_id, NULL };
  char *out = NULL;

  g_assert_cmpint (server_fixture_run (fixture, args, &out), ==, 0);
  return out;
}

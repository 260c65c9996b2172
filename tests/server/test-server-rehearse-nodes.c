/* test-server-rehearse-nodes.c: `lab rehearse --server` with a link that
 * lists two nodes over one PostgreSQL; 12 students in the server suite,
 * 120 in the bench suite (VIVA_BENCH_STUDENTS), which prints the figures
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>

#include "server-fixture.h"
#include "server-postgres.h"
#include "viva-server-store.h"

static void
die_with_parent (gpointer user_data)
{
  prctl (PR_SET_PDEATHSIG, SIGKILL);
}

static guint
students_wanted (void)
{
  const char *env = g_getenv ("VIVA_BENCH_STUDENTS");
  guint64 n = 12;

  if (env != NULL)
    g_assert_true (g_ascii_string_to_unsigned (env, 10, 2, 1000, &n, NULL));
  return (guint)n;
}

/* A second node: a copy of the first's state folder, as on a second
 * machine (the same certificate and keys, the same database). */
static GSubprocess *
start_node (ServerFixture  *fixture,
            char          **state_dir,
            guint          *port)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *copy = g_dir_make_tmp ("viva-server-node-XXXXXX", &error);
  g_autofree char *cp = g_strdup_printf ("cp -a '%s/.' '%s'", fixture->state_dir, copy);
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr(GDataInputStream) lines = NULL;
  g_autofree char *line = NULL;
  g_autoptr(JsonNode) node = NULL;
  const char *argv[] = { server_fixture_binary (), "serve", "--state-dir", copy, "--listen", "127.0.0.1:0",
                         "--json", NULL };
  GSubprocess *process;

  g_assert_cmpint (system (cp), ==, 0);
  g_subprocess_launcher_set_child_setup (launcher, die_with_parent, NULL, NULL);
  process = g_subprocess_launcher_spawnv (launcher, argv, &error);
  g_assert_no_error (error);
  lines = g_data_input_stream_new (g_subprocess_get_stdout_pipe (process));
  line = g_data_input_stream_read_line_utf8 (lines, NULL, NULL, &error);
  g_assert_nonnull (line);
  node = json_from_string (line, NULL);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (node), "event"), ==, "listening");
  *state_dir = g_steal_pointer (&copy);
  *port = json_object_get_int_member (json_node_get_object (node), "port");
  return process;
}

static JsonObject *
last_event (const char *text,
            const char *kind)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  JsonObject *found = NULL;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(JsonNode) node = lines[i][0] == '{' ? json_from_string (lines[i], NULL) : NULL;

      if (node != NULL && JSON_NODE_HOLDS_OBJECT (node) &&
          g_strcmp0 (json_object_get_string_member_with_default (json_node_get_object (node), "event", ""), kind) == 0)
        {
          g_clear_pointer (&found, json_object_unref);
          found = json_object_ref (json_node_get_object (node));
        }
    }
  return found;
}

/* The students spread over both nodes by the link's addresses: every one
 * finishes, with no failure, the defenses run on both nodes, and every
 * report is kept once. */
static void
test_rehearse_two_nodes (void)
{
  ServerFixture fixture;
  guint n = students_wanted ();
  g_autofree char *work = g_dir_make_tmp ("viva-rehearse-nodes-XXXXXX", NULL);
  g_autofree char *roster_path = g_build_filename (work, "roster.csv", NULL);
  g_autofree char *codes_path = g_build_filename (work, "codes.jsonl", NULL);
  g_autofree char *code_path = g_build_filename (work, "double.py", NULL);
  g_autofree char *exam_path = g_test_build_filename (G_TEST_DIST, "server", "exam-other.json", NULL);
  g_autofree char *added = NULL;
  g_autofree char *codes = NULL;
  g_autofree char *link = NULL;
  g_autofree char *b_dir = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GString) roster = g_string_new ("student_id,name\n");
  g_autoptr(JsonObject) result = NULL;
  g_autoptr(JsonObject) summary = NULL;
  g_autoptr(GSubprocess) node_b = NULL;
  g_autoptr(GSubprocess) rehearse = NULL;
  g_autoptr(VivaServerStore) store = NULL;
  g_autoptr(JsonArray) rows = NULL;
  g_autoptr(GError) error = NULL;
  const char *teacher;
  guint b_port = 0, defenses = 0, failed = 0;
  gint64 started;
  double wall_s;

  for (guint i = 0; i < n; i++)
    g_string_append_printf (roster, "r%03u,Student %u\n", i + 1, i + 1);
  g_assert_true (g_file_set_contents (roster_path, roster->str, -1, NULL));
  g_assert_true (g_file_set_contents (code_path, "def double(x):\n    return 2 * x\n", -1, NULL));

  server_fixture_setup (&fixture, NULL);
  {
    const char *add[] = { "exam", "add", exam_path, "--roster", roster_path, "--json", NULL };
    const char *codes_args[] = { "codes", "other-quiz", "--json", NULL };

    g_assert_cmpint (server_fixture_run (&fixture, add, &added), ==, 0);
    result = last_event (added, "exam");
    g_assert_nonnull (result);
    g_assert_cmpint (server_fixture_run (&fixture, codes_args, &codes), ==, 0);
    g_assert_true (g_file_set_contents (codes_path, codes, -1, NULL));
  }
  teacher = json_object_get_string_member (result, "teacher_token");
  node_b = start_node (&fixture, &b_dir, &b_port);
  link = g_strdup_printf ("viva://127.0.0.1:%u,127.0.0.1:%u/other-quiz#sha256=%s", fixture.port, b_port,
                          fixture.fingerprint);

  {
    g_autofree char *students = g_strdup_printf ("%u", n);
    const char *argv[] = { g_getenv ("VIVA_CLI"), "lab", "rehearse", "--server", link, "--teacher-token", teacher,
                           "--codes", codes_path, "--students", students, "--code", code_path, "--json", NULL };

    started = g_get_monotonic_time ();
    rehearse = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
    g_assert_no_error (error);
    g_subprocess_communicate_utf8 (rehearse, NULL, NULL, &out, &err, &error);
    g_assert_no_error (error);
    wall_s = (g_get_monotonic_time () - started) / 1e6;
  }
  if (g_subprocess_get_exit_status (rehearse) != 0)
    g_printerr ("%s\n%s\n", out, err);
  g_assert_cmpint (g_subprocess_get_exit_status (rehearse), ==, 0);

  {
    g_auto(GStrv) lines = g_strsplit (out, "\n", -1);

    for (guint i = 0; lines[i] != NULL; i++)
      {
        g_autoptr(JsonNode) node = lines[i][0] == '{' ? json_from_string (lines[i], NULL) : NULL;
        JsonObject *event = node ? json_node_get_object (node) : NULL;

        if (event == NULL || !g_str_equal (json_object_get_string_member (event, "event"), "defense"))
          continue;
        defenses++;
        if (!g_str_equal (json_object_get_string_member (event, "status"), "completed"))
          failed++;
      }
  }
  summary = last_event (out, "rehearsal");
  g_assert_nonnull (summary);
  g_assert_cmpuint (defenses, ==, n);
  g_assert_cmpuint (failed, ==, 0);
  g_assert_cmpint (json_object_get_int_member (summary, "completed"), ==, n);
  g_assert_cmpint (json_object_get_int_member (summary, "reports"), ==, n);

  /* Both nodes ran defenses: the students were spread by the link. */
  store = viva_server_store_open_database (fixture.state_dir, fixture.database, &error);
  g_assert_no_error (error);
  rows = viva_server_db_queryf (viva_server_store_get_db (store), &error,
                                "SELECT node_id, COUNT(DISTINCT defense_id) AS n FROM defense_events"
                                " GROUP BY node_id ORDER BY node_id", NULL);
  g_assert_no_error (error);
  g_assert_cmpuint (json_array_get_length (rows), ==, 2);
  for (guint i = 0; i < json_array_get_length (rows); i++)
    g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (rows, i), "n"), >, 0);

  {
    g_autofree char *ttft = json_object_has_member (summary, "ttft_ms")
                            ? json_to_string (json_object_get_member (summary, "ttft_ms"), FALSE) : g_strdup ("-");
    g_autofree char *figures = g_strdup_printf ("%u students over 2 nodes: %u completed, %u failed, wall %.1f s;"
                                                " defenses per node %" G_GINT64_FORMAT " / %" G_GINT64_FORMAT "; TTFT %s",
                                                n, defenses - failed, failed, wall_s,
                                                json_object_get_int_member (json_array_get_object_element (rows, 0), "n"),
                                                json_object_get_int_member (json_array_get_object_element (rows, 1), "n"),
                                                ttft);
    g_test_message ("%s", figures);
    if (g_getenv ("VIVA_BENCH_STUDENTS") != NULL)
      {
        g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), summary);
        g_autofree char *text = json_to_string (node, FALSE);

        printf ("# %s\n# rehearsal %s\n", figures, text);
      }
  }

  g_subprocess_send_signal (node_b, SIGTERM);
  g_subprocess_wait (node_b, NULL, NULL);
  server_fixture_teardown (&fixture);
  {
    g_autofree char *rm = g_strdup_printf ("rm -rf '%s' '%s'", b_dir, work);

    g_assert_cmpint (system (rm), ==, 0);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *reason = NULL;

  g_test_init (&argc, &argv, NULL);
  if (!server_postgres_check (&reason))
    {
      g_print ("SKIP: %s\n", reason);
      return 77;
    }
  g_setenv ("VIVA_TEST_SERVER_DATABASE", "postgresql-tcp", TRUE);

  g_test_add_func ("/viva/server/nodes/rehearse", test_rehearse_two_nodes);

  return g_test_run ();
}

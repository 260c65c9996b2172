/* bench-server-failover.c: from a node's death (SIGKILL) with a question
 * pending to the defense continuing on the other node, with the default
 * lease; two nodes over one PostgreSQL on 127.0.0.1; goal: under 10 s.
 * Since every node serves every student, the other node tells the
 * pending question (from the database) and takes the answer at once:
 * what is timed is the student's answer, sent to the other node right
 * after the death, becoming the defense's answer event there — the
 * defense continuing, its lease taken and the answer consumed
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

static const char * const one_exam[] = { "exam.json", NULL };
static const char * const students[] = { "s1", "s2", "s3" };

static void
die_with_parent (gpointer user_data)
{
  prctl (PR_SET_PDEATHSIG, SIGKILL);
}

static guint
start_second_node (ServerFixture  *fixture,
                   char          **state_dir,
                   GSubprocess   **process)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *copy = g_dir_make_tmp ("viva-server-node-XXXXXX", &error);
  g_autofree char *cp = g_strdup_printf ("cp -a '%s/.' '%s'", fixture->state_dir, copy);
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr(GDataInputStream) lines = NULL;
  g_autofree char *line = NULL;
  g_autoptr(JsonNode) node = NULL;
  const char *argv[] = { server_fixture_binary (), "serve", "--state-dir", copy, "--listen", "127.0.0.1:0",
                         "--local-jobs", "1", "--json", NULL };

  g_assert_cmpint (system (cp), ==, 0);
  g_subprocess_launcher_set_child_setup (launcher, die_with_parent, NULL, NULL);
  *process = g_subprocess_launcher_spawnv (launcher, argv, &error);
  g_assert_no_error (error);
  lines = g_data_input_stream_new (g_subprocess_get_stdout_pipe (*process));
  line = g_data_input_stream_read_line_utf8 (lines, NULL, NULL, &error);
  g_assert_nonnull (line);
  node = json_from_string (line, NULL);
  *state_dir = g_steal_pointer (&copy);
  return json_object_get_int_member (json_node_get_object (node), "port");
}

int
main (int   argc,
      char *argv[])
{
  ServerFixture fixture;
  g_autofree char *reason = NULL;
  g_autofree char *b_dir = NULL;
  g_autoptr(GSubprocess) node_b = NULL;
  /* One claimer of its own per node: the defenses' code runs are jobs. */
  static const char * const own_claimer[] = { "--local-jobs", "1", NULL };
  double figures[G_N_ELEMENTS (students)];
  guint a_port, b_port;

  g_test_init (&argc, &argv, NULL);
  if (!server_postgres_check (&reason))
    {
      g_print ("SKIP: %s\n", reason);
      return 77;
    }
  g_setenv ("VIVA_TEST_SERVER_DATABASE", "postgresql-tcp", TRUE);
  g_unsetenv ("VIVA_SERVER_LEASE_MS");

  server_fixture_setup_full (&fixture, one_exam, own_claimer);
  b_port = start_second_node (&fixture, &b_dir, &node_b);

  for (guint round = 0; round < G_N_ELEMENTS (students); round++)
    {
      g_autofree char *token = NULL;
      g_autofree char *defense = NULL;
      g_autofree char *path = NULL;
      g_autoptr(JsonObject) question = NULL;
      gint64 after = 0, killed;
      guint status = 0;

      a_port = fixture.port;
      token = server_fixture_sign_in (&fixture, "server-quiz", students[round]);
      defense = server_fixture_submit (&fixture, token, "server-quiz", "double", "def double(x):\n    return x + x\n");
      question = server_fixture_wait_for (&fixture, token, "server-quiz", defense, "question", &after, NULL);

      server_fixture_kill (&fixture);
      killed = g_get_monotonic_time ();
      fixture.port = b_port;
      path = g_strdup_printf ("/api/v1/exams/server-quiz/defenses/%s/answer", defense);
      {
        g_autofree char *body = g_strdup_printf ("{\"text\":\"zero\",\"question_seq\":%" G_GINT64_FORMAT "}",
                                                 json_object_get_int_member (question, "seq"));
        g_autoptr(JsonNode) answered = server_fixture_request (&fixture, "POST", path, token, body, &status, NULL);
        g_autoptr(JsonObject) taken = NULL;

        /* Kept by b (the question pending in the database) before the
         * defense runs anywhere. */
        g_assert_cmpuint (status, ==, 200);
        taken = server_fixture_wait_for (&fixture, token, "server-quiz", defense, "answer", &after, NULL);
        g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (taken, "data"), "question_seq"),
                         ==, json_object_get_int_member (question, "seq"));
      }
      figures[round] = (g_get_monotonic_time () - killed) / (double)G_USEC_PER_SEC;

      /* Node a again, for the next round. */
      fixture.port = 0;
      server_fixture_start (&fixture);
      (void)a_port;
    }

  printf ("node death to the answer sent at once to the other node taken by the defense there (default 6 s lease, 2 s renewal), %u rounds:",
          (guint)G_N_ELEMENTS (students));
  for (guint i = 0; i < G_N_ELEMENTS (students); i++)
    printf (" %.1f s", figures[i]);
  printf ("\n");

  g_subprocess_send_signal (node_b, SIGKILL);
  g_subprocess_wait (node_b, NULL, NULL);
  server_fixture_teardown (&fixture);
  {
    g_autofree char *rm = g_strdup_printf ("rm -rf '%s'", b_dir);

    g_assert_cmpint (system (rm), ==, 0);
  }
  return 0;
}

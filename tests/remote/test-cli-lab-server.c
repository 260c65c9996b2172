/* test-cli-lab.c: lab rehearse --server with a handful of scripted
 * students against a real viva-server (60 of them are in the bench suite)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "remote-util.h"
#include "viva-test-cli.h"
#include "viva-test-util.h"

static const char * const one_exam[] = { "exam.json", NULL };

static void
test_rehearse (void)
{
  ServerFixture fixture;
  g_autofree char *home = g_dir_make_tmp ("viva-cli-lab-XXXXXX", NULL);
  g_autofree char *codes_path = g_build_filename (home, "codes.jsonl", NULL);
  g_autofree char *code_path = g_build_filename (home, "double.py", NULL);
  g_autofree char *codes = NULL;
  g_autofree char *link = NULL;
  const char *teacher;
  const char *codes_args[] = { "codes", "server-quiz", "--json", NULL };
  guint defenses = 0;

  server_fixture_setup (&fixture, one_exam);
  link = remote_link_text (&fixture, "server-quiz");
  teacher = g_hash_table_lookup (fixture.teacher_tokens, "server-quiz");
  g_assert_cmpint (server_fixture_run (&fixture, codes_args, &codes), ==, 0);
  g_assert_true (g_file_set_contents (codes_path, codes, -1, NULL));
  g_assert_true (g_file_set_contents (code_path, "def double(x):\n    return 2 * x\n", -1, NULL));

  /* More students than the roster: bad usage, said. */
  {
    const char *args[] = { "lab", "rehearse", "--server", link, "--teacher-token", teacher, "--codes", codes_path,
                           "--students", "4", NULL };
    g_auto(VivaTestCliRun) run = { 0 };

    viva_test_cli_run (&run, home, args);
    g_assert_cmpint (run.status, ==, 2);
    g_assert_nonnull (strstr (run.err, "The roster has 3 students"));
  }

  {
    const char *args[] = { "lab", "rehearse", "--server", link, "--teacher-token", teacher, "--codes", codes_path,
                           "--students", "3", "--code", code_path, "--json", NULL };
    g_auto(VivaTestCliRun) run = { 0 };
    JsonObject *summary;

    viva_test_cli_run (&run, home, args);
    g_assert_cmpint (run.status, ==, 0);
    for (guint i = 0; i < run.events->len; i++)
      {
        JsonObject *event = g_ptr_array_index (run.events, i);

        if (!g_str_equal (json_object_get_string_member (event, "event"), "defense"))
          continue;
        defenses++;
        g_assert_cmpstr (json_object_get_string_member (event, "status"), ==, "completed");
        g_assert_cmpfloat (json_object_get_double_member (event, "ttft_ms"), >, 0);
        g_assert_cmpint (json_object_get_int_member (event, "questions"), >=, 1);
        /* The students take the problems in turn; the double code passes double. */
        if (g_str_equal (json_object_get_string_member (event, "problem"), "double"))
          g_assert_cmpstr (json_object_get_string_member (event, "verdict"), ==, "pass");
      }
    g_assert_cmpuint (defenses, ==, 3);
    summary = g_ptr_array_index (run.events, run.events->len - 1);
    g_assert_cmpstr (json_object_get_string_member (summary, "event"), ==, "rehearsal");
    g_assert_cmpint (json_object_get_int_member (summary, "completed"), ==, 3);
    g_assert_cmpint (json_object_get_int_member (summary, "reports"), ==, 3);
    g_assert_false (json_object_get_null_member (json_object_get_object_member (summary, "ttft_ms"), "p50"));
    /* Beside the first words, how long each grading waited in the
     * server's queue: every defense's grade was a job, claimed. */
    g_assert_cmpint (json_object_get_int_member (summary, "jobs"), ==, 3);
    {
      JsonObject *waits = json_object_get_object_member (summary, "queue_wait_ms");

      g_assert_false (json_object_get_null_member (waits, "p50"));
      g_assert_cmpfloat (json_object_get_double_member (waits, "p50"), >=, 0);
      g_assert_cmpfloat (json_object_get_double_member (waits, "p95"), >=, json_object_get_double_member (waits, "p50"));
    }
  }

  /* The server kept a signed report of every defense. */
  {
    g_autoptr(VivaExamServerClient) client = remote_client (&fixture, "server-quiz", teacher);
    g_autoptr(GAsyncResult) result = NULL;
    g_autoptr(JsonObject) reports = NULL;
    g_autoptr(GError) error = NULL;

    viva_exam_server_client_get_reports_async (client, NULL, remote_store_result, &result);
    reports = viva_exam_server_client_get_reports_finish (client, remote_wait (&result), &error);
    g_assert_no_error (error);
    g_assert_cmpuint (json_array_get_length (json_object_get_array_member (reports, "reports")), ==, 3);
  }

  server_fixture_teardown (&fixture);
  viva_test_remove_tree (home);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/viva/remote/lab/rehearse", test_rehearse);

  return g_test_run ();
}

/* test-remote-model.c: a defense through the exam server against a real
 * model server (tests/gui's viva-gui-server, the `lab` script), side by
 * side with the same defense run locally: the same events, the same
 * questions, the same verdict
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "remote-util.h"
#include "viva-test-cli.h"
#include "viva-test-util.h"

static const char * const model_exam[] = { "exam-model.json", NULL };

static GSubprocess *
start_model (char **url)
{
  const char *argv[] = { VIVA_GUI_SERVER_PATH, "--script", "lab", NULL };
  g_autoptr(GDataInputStream) lines = NULL;
  g_autoptr(GError) error = NULL;
  GSubprocess *process;

  /* It serves until its standard input closes: with this test. */
  process = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDIN_PIPE, &error);
  g_assert_no_error (error);
  lines = g_data_input_stream_new (g_subprocess_get_stdout_pipe (process));
  *url = g_data_input_stream_read_line_utf8 (lines, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (*url, "http://127.0.0.1:"));
  return process;
}

/* The kinds a defense told, each once, in their first order; the
 * questions in order. */
static void
summarize (VivaTestCliRun *run,
           GString        *kinds,
           GString        *questions,
           JsonObject    **verdict)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < run->events->len; i++)
    {
      JsonObject *event = g_ptr_array_index (run->events, i);
      const char *kind = json_object_get_string_member (event, "event");

      if (g_str_equal (kind, "defense") || g_str_equal (kind, "reasoning"))
        continue;
      if (g_str_equal (kind, "question"))
        g_string_append_printf (questions, "%s\n", json_object_get_string_member (event, "question"));
      if (g_str_equal (kind, "verdict"))
        *verdict = event;
      if (!g_hash_table_contains (seen, kind))
        {
          g_hash_table_add (seen, (char *)kind);
          g_string_append_printf (kinds, "%s ", kind);
        }
    }
}

static void
test_same_as_local (void)
{
  ServerFixture fixture;
  g_autofree char *url = NULL;
  g_autoptr(GSubprocess) model = start_model (&url);
  const char *serve_args[] = { "--base-url", url, "--model", "lab-model", NULL };
  g_autofree char *home = g_dir_make_tmp ("viva-remote-model-XXXXXX", NULL);
  g_autofree char *code = g_build_filename (home, "double.py", NULL);
  g_autofree char *answers = g_build_filename (home, "answers.json", NULL);
  g_autofree char *pack = g_build_filename (home, "pack.json", NULL);
  g_autofree char *sessions = g_build_filename (home, "sessions", NULL);
  g_autofree char *exam_path = g_test_build_filename (G_TEST_DIST, "server", "exam-model.json", NULL);
  g_autofree char *exam_text = NULL;
  g_autofree char *link = NULL;
  g_autofree char *token = NULL;
  g_autoptr(JsonNode) exam = NULL;
  g_autoptr(VivaExamServerClient) client = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) local_kinds = g_string_new (NULL);
  g_autoptr(GString) local_questions = g_string_new (NULL);
  g_autoptr(GString) server_kinds = g_string_new (NULL);
  g_autoptr(GString) server_questions = g_string_new (NULL);
  g_auto(VivaTestCliRun) local = { 0 };
  g_auto(VivaTestCliRun) remote = { 0 };
  JsonObject *local_verdict = NULL, *server_verdict = NULL;

  g_assert_true (g_file_set_contents (code, "def double(x):\n    return 2 * x\n", -1, NULL));
  g_assert_true (g_file_set_contents (answers, "[\"It doubles x.\", \"Zero.\", \"Two.\", \"Four.\"]", -1, NULL));
  g_assert_true (g_file_get_contents (exam_path, &exam_text, NULL, NULL));
  exam = json_from_string (exam_text, &error);
  g_assert_no_error (error);
  {
    g_autoptr(JsonNode) pack_node = json_node_copy (json_object_get_member (json_node_get_object (exam), "pack"));
    g_autofree char *pack_text = json_to_string (pack_node, TRUE);

    g_assert_true (g_file_set_contents (pack, pack_text, -1, NULL));
  }

  /* The defense on this PC, against the model server. */
  {
    const char *args[] = { "defend", "--pack", pack, "--problem", "double", "--code", code, "--answers", answers,
                           "--base-url", url, "--model", "lab-model", "--session-dir", sessions, "--json", NULL };

    viva_test_cli_run (&local, home, args);
    g_assert_cmpint (local.status, ==, 0);
  }

  /* The same defense run by the exam server against the same model. */
  server_fixture_setup_full (&fixture, model_exam, serve_args);
  link = remote_link_text (&fixture, "model-quiz");
  client = remote_client (&fixture, "model-quiz", NULL);
  token = remote_sign_in (client, &fixture, "s1", &error);
  g_assert_no_error (error);
  {
    const char *args[] = { "defend", "--server", link, "--token", token, "--problem", "double", "--code", code,
                           "--answers", answers, "--json", NULL };

    viva_test_cli_run (&remote, home, args);
    g_assert_cmpint (remote.status, ==, 0);
  }

  summarize (&local, local_kinds, local_questions, &local_verdict);
  summarize (&remote, server_kinds, server_questions, &server_verdict);
  g_test_message ("local: %s\nserver: %s", local_kinds->str, server_kinds->str);

  /* The model spoke through the server: the same kinds of event, the same
   * questions, the same verdict and hidden tests. */
  g_assert_cmpstr (server_kinds->str, ==, local_kinds->str);
  g_assert_cmpuint (local_questions->len, >, 0);
  g_assert_cmpstr (server_questions->str, ==, local_questions->str);
  g_assert_nonnull (local_verdict);
  g_assert_nonnull (server_verdict);
  g_assert_cmpstr (json_object_get_string_member (server_verdict, "verdict"), ==,
                   json_object_get_string_member (local_verdict, "verdict"));
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (server_verdict, "hidden_tests"), "passed"), ==,
                   json_object_get_int_member (json_object_get_object_member (local_verdict, "hidden_tests"), "passed"));

  server_fixture_teardown (&fixture);
  g_subprocess_force_exit (model);
  viva_test_remove_tree (home);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/viva/remote/model/same-as-local", test_same_as_local);

  return g_test_run ();
}

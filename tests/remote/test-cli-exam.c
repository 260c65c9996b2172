/* test-cli-exam.c: viva-cli's exam sign-in, exam save and defend --server
 * against a real viva-server
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "remote-util.h"
#include "viva-test-cli.h"
#include "viva-test-util.h"

static const char * const one_exam[] = { "exam.json", NULL };

static JsonObject *
last_event (VivaTestCliRun *run)
{
  g_assert_cmpuint (run->events->len, >, 0);
  return g_ptr_array_index (run->events, run->events->len - 1);
}

static guint
count_events (VivaTestCliRun *run,
              const char     *kind)
{
  guint n = 0;

  for (guint i = 0; i < run->events->len; i++)
    if (g_str_equal (json_object_get_string_member (g_ptr_array_index (run->events, i), "event"), kind))
      n++;
  return n;
}

static char *
write_temp (const char *dir,
            const char *name,
            const char *text)
{
  char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
  return path;
}

static void
test_sign_in_save_defend (void)
{
  ServerFixture fixture;
  g_autofree char *link = NULL;
  g_autofree char *home = g_dir_make_tmp ("viva-cli-exam-XXXXXX", NULL);
  g_autofree char *code = NULL;
  g_autofree char *none = NULL;
  g_autofree char *answers = NULL;
  g_autofree char *token = NULL;
  g_autoptr(VivaExamServerClient) client = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonObject) sitting = NULL;
  g_autoptr(GError) error = NULL;
  const char *seat_code;
  JsonObject *event;

  server_fixture_setup (&fixture, one_exam);
  link = remote_link_text (&fixture, "server-quiz");
  seat_code = g_hash_table_lookup (fixture.codes, "server-quiz/s1");
  code = write_temp (home, "double.py", "def double(x):\n    return 2 * x\n");
  none = write_temp (home, "none.json", "[]");
  answers = write_temp (home, "answers.json",
                        "[\"It doubles x.\", \"2 * x is x + x.\", \"Zero stays zero.\", \"It returns a number.\"]");

  /* Sign-in: a wrong code is a sentence and exit 1; the right one the token. */
  {
    const char *args[] = { "exam", "sign-in", link, "--student-id", "s1", "--code", "ZZZZ-ZZZZ", "--json", NULL };
    g_auto(VivaTestCliRun) run = { 0 };

    viva_test_cli_run (&run, home, args);
    g_assert_cmpint (run.status, ==, 1);
    g_assert_cmpstr (json_object_get_string_member (last_event (&run), "event"), ==, "error");
    g_assert_cmpstr (json_object_get_string_member (last_event (&run), "kind"), ==, "rejected");
  }
  {
    const char *args[] = { "exam", "sign-in", link, "--student-id", "s1", "--code", seat_code, NULL };
    g_auto(VivaTestCliRun) run = { 0 };

    viva_test_cli_run (&run, home, args);
    g_assert_cmpint (run.status, ==, 0);
    token = g_strstrip (g_strdup (run.out));
    g_assert_cmpuint (strlen (token), >=, 43);
  }

  /* Save, as the autosave does: the server has it. */
  {
    const char *args[] = { "exam", "save", link, "--token", token, "--problem", "double", "--code", code, "--json", NULL };
    g_auto(VivaTestCliRun) run = { 0 };

    viva_test_cli_run (&run, home, args);
    g_assert_cmpint (run.status, ==, 0);
    event = last_event (&run);
    g_assert_cmpstr (json_object_get_string_member (event, "event"), ==, "saved");
    g_assert_cmpint (json_object_get_int_member (event, "saved_at"), >, 0);
  }
  client = remote_client (&fixture, "server-quiz", token);
  viva_exam_server_client_get_sitting_async (client, NULL, remote_store_result, &result);
  sitting = viva_exam_server_client_get_sitting_finish (client, remote_wait (&result), &error);
  g_assert_no_error (error);
  {
    JsonArray *problems = json_object_get_array_member (sitting, "problems");
    gboolean found = FALSE;

    for (guint i = 0; i < json_array_get_length (problems); i++)
      {
        JsonObject *problem = json_array_get_object_element (problems, i);

        if (g_str_equal (json_object_get_string_member (problem, "id"), "double"))
          {
            g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (problem, "code"), "text"),
                             ==, "def double(x):\n    return 2 * x\n");
            found = TRUE;
          }
      }
    g_assert_true (found);
  }

  /* A defense with no answer for its question stops there (exit 1); the
   * question waits on the server. */
  {
    const char *args[] = { "defend", "--server", link, "--token", token, "--problem", "double", "--code", code,
                           "--answers", none, "--json", NULL };
    g_auto(VivaTestCliRun) run = { 0 };

    viva_test_cli_run (&run, home, args);
    g_assert_cmpint (run.status, ==, 1);
    event = g_ptr_array_index (run.events, 0);
    g_assert_cmpstr (json_object_get_string_member (event, "event"), ==, "defense");
    g_assert_false (json_object_get_boolean_member (event, "attached"));
    g_assert_cmpuint (count_events (&run, "question"), ==, 1);
    g_assert_cmpuint (count_events (&run, "verdict"), ==, 0);
    g_assert_nonnull (strstr (run.err, "answers file has no answer for question 1"));
  }

  /* Again with answers: attached to the pending defense, shown whole,
   * answered, the verdict last, in local defend's shape. */
  {
    const char *args[] = { "defend", "--server", link, "--token", token, "--problem", "double", "--code", code,
                           "--answers", answers, "--json", NULL };
    g_auto(VivaTestCliRun) run = { 0 };

    viva_test_cli_run (&run, home, args);
    g_assert_cmpint (run.status, ==, 0);
    event = g_ptr_array_index (run.events, 0);
    g_assert_cmpstr (json_object_get_string_member (event, "event"), ==, "defense");
    g_assert_true (json_object_get_boolean_member (event, "attached"));
    g_assert_cmpuint (count_events (&run, "question"), >=, 1);
    g_assert_cmpuint (count_events (&run, "answer"), ==, count_events (&run, "question"));
    g_assert_cmpuint (count_events (&run, "state"), >=, 1);
    g_assert_cmpuint (count_events (&run, "verdict"), ==, 1);
    event = last_event (&run);
    g_assert_cmpstr (json_object_get_string_member (event, "event"), ==, "verdict");
    g_assert_cmpstr (json_object_get_string_member (event, "verdict"), ==, "pass");
    g_assert_true (json_object_has_member (event, "hidden_tests"));
    g_assert_true (json_object_get_boolean_member (event, "consistent"));
    g_assert_nonnull (json_object_get_string_member (event, "defense"));
  }

  /* Defended already: said, exit 1. */
  {
    const char *args[] = { "defend", "--server", link, "--token", token, "--problem", "double", "--code", code,
                           "--answers", answers, "--json", NULL };
    g_auto(VivaTestCliRun) run = { 0 };

    viva_test_cli_run (&run, home, args);
    g_assert_cmpint (run.status, ==, 1);
    g_assert_cmpstr (json_object_get_string_member (last_event (&run), "kind"), ==, "time_up");
  }

  server_fixture_teardown (&fixture);
  viva_test_remove_tree (home);
}

static void
test_bad_links (void)
{
  ServerFixture fixture;
  g_autofree char *home = g_dir_make_tmp ("viva-cli-exam-XXXXXX", NULL);
  g_autofree char *wrong = NULL;
  g_autofree char *other = NULL;

  server_fixture_setup (&fixture, one_exam);

  /* Not a link: bad usage, with the link's sentence. */
  {
    const char *args[] = { "exam", "sign-in", "http://127.0.0.1/q", "--student-id", "s1", "--code", "X", NULL };
    g_auto(VivaTestCliRun) run = { 0 };

    viva_test_cli_run (&run, home, args);
    g_assert_cmpint (run.status, ==, 2);
    g_assert_nonnull (strstr (run.err, "viva://"));
  }

  /* Another certificate: refused, nothing sent. */
  other = g_strdup (fixture.fingerprint);
  other[0] = other[0] == 'a' ? 'b' : 'a';
  wrong = g_strdup_printf ("viva://127.0.0.1:%u/server-quiz#sha256=%s", fixture.port, other);
  {
    const char *code = g_hash_table_lookup (fixture.codes, "server-quiz/s2");
    const char *args[] = { "exam", "sign-in", wrong, "--student-id", "s2", "--code", code, "--json", NULL };
    g_auto(VivaTestCliRun) run = { 0 };

    viva_test_cli_run (&run, home, args);
    g_assert_cmpint (run.status, ==, 1);
    g_assert_cmpstr (json_object_get_string_member (last_event (&run), "kind"), ==, "certificate");
  }

  server_fixture_teardown (&fixture);
  viva_test_remove_tree (home);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/viva/remote/cli/sign-in-save-defend", test_sign_in_save_defend);
  g_test_add_func ("/viva/remote/cli/bad-links", test_bad_links);

  return g_test_run ();
}

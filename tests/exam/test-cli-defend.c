/* test-cli-defend.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>

#include "exam-test-common.h"
#include "viva-core.h"
#include "viva-pack.h"
#include "viva-test-cli.h"
#include "viva-test-util.h"

/* viva-cli defend and resume as DESIGN.md's CLI contract says: usage
 * errors exit 2, failures the command reports exit 1, and the offline
 * examiner (asked for, or when nothing answers in auto mode). */

typedef struct
{
  char *dir;
  char *pack;
  char *code;
  char *answers;
} Fixture;


static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(VivaPack) pack = viva_pack_new ("cli-pack", "CLI tests");
  g_autoptr(VivaProblem) problem = exam_problem_new ();
  g_autoptr(GBytes) bytes = NULL;

  fixture->dir = g_dir_make_tmp ("viva-cli-defend-XXXXXX", NULL);
  viva_pack_add_problem (pack, problem);
  bytes = viva_pack_to_bytes (pack);
  fixture->pack = g_build_filename (fixture->dir, "pack.json", NULL);
  g_assert_true (g_file_set_contents (fixture->pack, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL));
  fixture->code = g_build_filename (fixture->dir, "code.py", NULL);
  g_assert_true (g_file_set_contents (fixture->code, "def add(a, b):\n    return a + b\n", -1, NULL));
  fixture->answers = g_build_filename (fixture->dir, "answers.json", NULL);
  g_assert_true (g_file_set_contents (fixture->answers, "[\"The + operator concatenates strings.\"]", -1, NULL));
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  viva_test_remove_tree (fixture->dir);
  g_clear_pointer (&fixture->dir, g_free);
  g_clear_pointer (&fixture->pack, g_free);
  g_clear_pointer (&fixture->code, g_free);
  g_clear_pointer (&fixture->answers, g_free);
}

static void
test_usage (Fixture       *fixture,
            gconstpointer  data)
{
  const char *no_code[] = { "defend", "--pack", fixture->pack, "--problem", "add", NULL };
  const char *both[] = { "defend", "--pack", fixture->pack, "--problem", "add", "--code", fixture->code,
                         "--offline", "--base-url", "http://127.0.0.1:9/v1", NULL };
  const char *no_session[] = { "resume", NULL };
  const char *missing_problem[] = { "defend", "--pack", fixture->pack, "--problem", "nope", "--code", fixture->code,
                                    "--offline", NULL };
  const char *missing_session[] = { "resume", "20000101-000000-abcdef", "--session-dir", fixture->dir, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  g_assert_cmpint (viva_test_cli (no_code, &out, &err), ==, 2);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (viva_test_cli (both, &out, &err), ==, 2);
  g_assert_nonnull (strstr (err, "--offline"));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (viva_test_cli (no_session, &out, &err), ==, 2);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (viva_test_cli (missing_problem, &out, &err), ==, 1);
  g_assert_nonnull (strstr (err, "“nope”"));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (viva_test_cli (missing_session, &out, &err), ==, 1);
  g_assert_nonnull (strstr (err, "no saved defense"));
}

static void
test_offline_text (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autofree char *sessions = g_build_filename (fixture->dir, "sessions", NULL);
  const char *args[] = { "defend", "--pack", fixture->pack, "--problem", "add", "--code", fixture->code,
                         "--answers", fixture->answers, "--offline", "--session-dir", sessions, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  g_assert_cmpint (viva_test_cli (args, &out, &err), ==, 0);
  g_assert_nonnull (strstr (out, "Question: Why does add work for strings too?"));
  g_assert_nonnull (strstr (out, "Verdict: pass (100/100)"));
  g_assert_nonnull (strstr (out, "Probes: 1 passed, 0 failed, 0 invalid."));
}

static void
test_resume_corrupt (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autofree char *session = g_build_filename (fixture->dir, "broken", NULL);
  g_autofree char *path = g_build_filename (session, "checkpoint.json", NULL);
  const char *args[] = { "resume", "broken", "--session-dir", fixture->dir, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  g_assert_cmpint (g_mkdir_with_parents (session, 0700), ==, 0);
  g_assert_true (g_file_set_contents (path, "{\"format\": \"viva-checkpoint\", \"version\": 1, \"sess", -1, NULL));

  g_assert_cmpint (viva_test_cli (args, &out, &err), ==, 1);
  g_assert_nonnull (strstr (err, "cannot be continued"));
  g_assert_nonnull (strstr (err, "checkpoint.json.corrupt-"));
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
}

static void
test_auto_falls_back (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autofree char *sessions = g_build_filename (fixture->dir, "sessions", NULL);
  const char *args[] = { "defend", "--pack", fixture->pack, "--problem", "add", "--code", fixture->code,
                         "--answers", fixture->answers, "--session-dir", sessions, "--json", NULL };
  g_autoptr(GSocketClient) client = g_socket_client_new ();
  g_autoptr(GSocketConnection) connection = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  /* The default endpoint is Ollama's; this test needs nothing there. */
  connection = g_socket_client_connect_to_host (client, "localhost", 11434, NULL, NULL);
  if (connection != NULL)
    {
      g_test_skip ("something listens on localhost:11434");
      return;
    }

  g_assert_cmpint (viva_test_cli (args, &out, &err), ==, 0);
  /* The one notice, the same words as the app's panel. */
  g_assert_nonnull (strstr (err, "so the offline examiner runs this defense."));
  g_assert_nonnull (strstr (out, "\"event\":\"verdict\""));
  g_assert_nonnull (strstr (out, "\"status\":\"finished\""));
  /* The engine's facts beside the verdict (issue 13). */
  g_assert_nonnull (strstr (out, "\"hidden_tests\":{\"passed\":1,\"total\":1,\"out_of_process\":1}"));
  g_assert_nonnull (strstr (out, "\"consistent\":true"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  viva_core_init ();

#define ADD(path, func) \
  g_test_add ("/viva/exam/cli/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("usage", test_usage);
  ADD ("offline-text", test_offline_text);
  ADD ("resume-corrupt", test_resume_corrupt);
  ADD ("auto-falls-back", test_auto_falls_back);

  return g_test_run ();
}

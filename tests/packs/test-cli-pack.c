/* test-cli-pack.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <json-glib/json-glib.h>

/* `viva-cli pack …` as teachers and scripts run it: the real binary, its
 * exit status, its output. */

typedef struct
{
  int        status;
  char      *out;
  char      *err;
  GPtrArray *events;   /* JsonObject, with --json */
} CliRun;

static void
cli_run_free (CliRun *run)
{
  g_free (run->out);
  g_free (run->err);
  g_clear_pointer (&run->events, g_ptr_array_unref);
  g_free (run);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CliRun, cli_run_free)

static const char *worker_override;

static CliRun *
cli_run (const char *first,
         ...)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  const char *cli = g_getenv ("VIVA_CLI");
  CliRun *run = g_new0 (CliRun, 1);
  gboolean json = FALSE;
  va_list ap;

  g_assert_nonnull (cli);
  g_ptr_array_add (args, (char *)cli);
  va_start (ap, first);
  for (const char *arg = first; arg != NULL; arg = va_arg (ap, const char *))
    {
      g_ptr_array_add (args, (char *)arg);
      json |= g_str_equal (arg, "--json");
    }
  va_end (ap);
  g_ptr_array_add (args, NULL);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  if (worker_override != NULL)
    g_subprocess_launcher_setenv (launcher, "VIVA_WORKER", worker_override, TRUE);
  process = g_subprocess_launcher_spawnv (launcher, (const char * const *)args->pdata, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (process, NULL, NULL, &run->out, &run->err, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (process));
  run->status = g_subprocess_get_exit_status (process);

  run->events = g_ptr_array_new_with_free_func ((GDestroyNotify)json_object_unref);
  if (json)
    {
      g_auto(GStrv) lines = g_strsplit (run->out, "\n", -1);

      for (guint i = 0; lines[i] && lines[i][0]; i++)
        {
          g_autoptr(JsonParser) parser = json_parser_new ();
          JsonNode *root;

          json_parser_load_from_data (parser, lines[i], -1, &error);
          g_assert_no_error (error);
          root = json_parser_get_root (parser);
          g_assert_true (JSON_NODE_HOLDS_OBJECT (root));
          g_assert_true (json_object_has_member (json_node_get_object (root), "event"));
          g_ptr_array_add (run->events, json_object_ref (json_node_get_object (root)));
        }
    }

  return run;
}

static char *
fixture (const char *dir,
         const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "packs", dir, name, NULL);
}

static char *
bundled_path (void)
{
  return g_build_filename (g_getenv ("VIVA_SOURCE_ROOT"), "data", "packs", "intro-ai.json", NULL);
}

static JsonObject *
last_event (CliRun *run)
{
  g_assert_cmpuint (run->events->len, >, 0);
  return g_ptr_array_index (run->events, run->events->len - 1);
}

static void
test_valid (void)
{
  g_autofree char *path = bundled_path ();
  g_autoptr(CliRun) run = cli_run ("pack", "validate", path, NULL);
  g_autoptr(CliRun) json = cli_run ("pack", "validate", "--json", path, NULL);
  JsonObject *result;

  g_assert_cmpint (run->status, ==, 0);
  g_assert_nonnull (strstr (run->out, "valid — “Introduction to AI” (intro-ai)"));

  g_assert_cmpint (json->status, ==, 0);
  g_assert_cmpuint (json->events->len, ==, 1);
  result = last_event (json);
  g_assert_cmpstr (json_object_get_string_member (result, "event"), ==, "result");
  g_assert_true (json_object_get_boolean_member (result, "valid"));
  g_assert_cmpstr (json_object_get_string_member (result, "pack"), ==, "intro-ai");
  g_assert_cmpint (json_object_get_int_member (result, "problems"), >=, 10);
  g_assert_cmpint (json_object_get_int_member (result, "errors"), ==, 0);
}

static void
test_invalid (void)
{
  g_autofree char *path = fixture ("bad", "missing-test-code.json");
  g_autoptr(CliRun) run = cli_run ("pack", "validate", path, NULL);
  g_autoptr(CliRun) json = cli_run ("pack", "validate", "--json", path, NULL);
  JsonObject *issue;

  g_assert_cmpint (run->status, ==, 1);
  g_assert_nonnull (strstr (run->out,
                            "error: problems[0].tests[0].code: missing — each test needs a “call” judged by the grader, or old-style Python “code” that raises on failure\n"));
  g_assert_nonnull (strstr (run->out, "not a valid pack, 1 error"));

  g_assert_cmpint (json->status, ==, 1);
  g_assert_cmpuint (json->events->len, ==, 2);
  issue = g_ptr_array_index (json->events, 0);
  g_assert_cmpstr (json_object_get_string_member (issue, "event"), ==, "issue");
  g_assert_cmpstr (json_object_get_string_member (issue, "level"), ==, "error");
  g_assert_cmpstr (json_object_get_string_member (issue, "code"), ==, "missing");
  g_assert_cmpstr (json_object_get_string_member (issue, "path"), ==, "problems[0].tests[0].code");
  g_assert_false (json_object_get_boolean_member (last_event (json), "valid"));
  g_assert_cmpint (json_object_get_int_member (last_event (json), "errors"), ==, 1);
}

static void
test_warnings_only (void)
{
  g_autofree char *path = fixture ("good", "unknown-keys.json");
  g_autoptr(CliRun) run = cli_run ("pack", "validate", path, NULL);

  g_assert_cmpint (run->status, ==, 0);
  g_assert_nonnull (strstr (run->out, "warning: x-course: unknown key"));
  /* An old pack's tests say whether they convert or run in the student's process. */
  g_assert_nonnull (strstr (run->out, "warning: problems[0].tests[0]: runs inside the student's process"));
  g_assert_nonnull (strstr (run->out, "warning: problems[0].tests[1]: is an old-form test that Viva converts on import: the grader evaluates “double(-4)”"));
  g_assert_nonnull (strstr (run->out, "(6 warnings)"));
}

static void
test_unreadable (void)
{
  g_autoptr(CliRun) run = cli_run ("pack", "validate", "/nonexistent/pack.json", NULL);
  g_autoptr(CliRun) json = cli_run ("pack", "validate", "--json", "/nonexistent/pack.json", NULL);

  g_assert_cmpint (run->status, ==, 1);
  g_assert_nonnull (strstr (run->err, "/nonexistent/pack.json does not exist"));
  g_assert_cmpint (json->status, ==, 1);
  g_assert_cmpstr (json_object_get_string_member (last_event (json), "event"), ==, "result");
  g_assert_nonnull (json_object_get_string_member (last_event (json), "message"));
}

static void
test_run_bundled (void)
{
  g_autofree char *path = bundled_path ();
  g_autoptr(CliRun) run = cli_run ("pack", "validate", "--run", path, NULL);

  g_assert_cmpint (run->status, ==, 0);
  g_assert_nonnull (strstr (run->out, "  kmeans: reference passes 5 of 5 tests, starter fails"));
  g_assert_null (strstr (run->out, "error:"));
  g_assert_nonnull (strstr (run->out, "valid — “Introduction to AI”"));
}

static void
test_run_wrong_reference (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "packs", "run", "wrong-reference.json", NULL);
  g_autoptr(CliRun) run = cli_run ("pack", "validate", "--run", path, NULL);

  g_assert_cmpint (run->status, ==, 1);
  g_assert_nonnull (strstr (run->out, "error: problems[0].reference_solution: fails test “negative numbers”"));
  g_assert_nonnull (strstr (run->out, "in problem “double”"));
  g_assert_nonnull (strstr (run->out, "1 run check failed"));
}

static void
test_run_starter_passes_json (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "packs", "run", "starter-passes.json", NULL);
  g_autoptr(CliRun) run = cli_run ("pack", "validate", "--run", "--json", path, NULL);
  JsonObject *result;
  guint n_checks = 0;
  gboolean saw_issue = FALSE;

  g_assert_cmpint (run->status, ==, 1);
  for (guint i = 0; i < run->events->len; i++)
    {
      JsonObject *event = g_ptr_array_index (run->events, i);
      const char *name = json_object_get_string_member (event, "event");

      if (g_str_equal (name, "check"))
        {
          n_checks++;
          g_assert_cmpstr (json_object_get_string_member (event, "problem"), ==, "double");
          g_assert_true (json_object_get_boolean_member (event, "passed"));
          g_assert_cmpstr (json_object_get_string_member (event, "status"), ==, "ok");
        }
      else if (g_str_equal (name, "issue"))
        {
          saw_issue = TRUE;
          g_assert_cmpstr (json_object_get_string_member (event, "code"), ==, "starter-passes");
          g_assert_cmpstr (json_object_get_string_member (event, "path"), ==, "problems[0].starter_code");
        }
    }
  g_assert_cmpuint (n_checks, ==, 4);
  g_assert_true (saw_issue);

  result = last_event (run);
  g_assert_cmpstr (json_object_get_string_member (result, "event"), ==, "result");
  g_assert_false (json_object_get_boolean_member (result, "valid"));
  g_assert_cmpint (json_object_get_int_member (result, "checks"), ==, 4);
}

static void
test_run_without_worker (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "packs", "run", "wrong-reference.json", NULL);
  g_autoptr(CliRun) run = NULL;
  g_autoptr(CliRun) json = NULL;

  worker_override = "/nonexistent/viva-python-worker";
  run = cli_run ("pack", "validate", "--run", path, NULL);
  json = cli_run ("pack", "validate", "--run", "--json", path, NULL);
  worker_override = NULL;

  g_assert_cmpint (run->status, ==, 1);
  g_assert_nonnull (strstr (run->err, "the checks could not run"));
  g_assert_cmpint (json->status, ==, 1);
  g_assert_false (json_object_get_boolean_member (last_event (json), "valid"));
  g_assert_nonnull (json_object_get_string_member (last_event (json), "message"));
}

static void
test_usage (void)
{
  g_autoptr(CliRun) none = cli_run ("pack", NULL);
  g_autoptr(CliRun) no_file = cli_run ("pack", "validate", NULL);
  g_autoptr(CliRun) two = cli_run ("pack", "validate", "a.json", "b.json", NULL);
  g_autoptr(CliRun) bad_option = cli_run ("pack", "validate", "--frobnicate", "a.json", NULL);
  g_autoptr(CliRun) generate = cli_run ("pack", "generate", "--topic", "search", NULL);
  g_autoptr(CliRun) help = cli_run ("pack", "--help", NULL);

  g_assert_cmpint (none->status, ==, 2);
  g_assert_cmpint (no_file->status, ==, 2);
  g_assert_nonnull (strstr (no_file->err, "Which pack?"));
  g_assert_cmpint (two->status, ==, 2);
  g_assert_cmpint (bad_option->status, ==, 2);
  g_assert_cmpint (generate->status, ==, 2);
  g_assert_nonnull (strstr (generate->err, "--type"));
  g_assert_cmpint (help->status, ==, 0);
  g_assert_nonnull (strstr (help->out, "validate"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/viva/packs/cli/valid", test_valid);
  g_test_add_func ("/viva/packs/cli/invalid", test_invalid);
  g_test_add_func ("/viva/packs/cli/warnings-only", test_warnings_only);
  g_test_add_func ("/viva/packs/cli/unreadable", test_unreadable);
  g_test_add_func ("/viva/packs/cli/usage", test_usage);
  g_test_add_func ("/viva/packs/cli/run-bundled", test_run_bundled);
  g_test_add_func ("/viva/packs/cli/run-wrong-reference", test_run_wrong_reference);
  g_test_add_func ("/viva/packs/cli/run-starter-passes-json", test_run_starter_passes_json);
  g_test_add_func ("/viva/packs/cli/run-without-worker", test_run_without_worker);

  return g_test_run ();
}

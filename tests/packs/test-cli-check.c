/* test-cli-check.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-core.h"
#include "viva-pack.h"
#include "viva-test-cli.h"
#include "viva-test-util.h"

/* `viva-cli check`: the Check button, headless, through the real binary,
 * the real grader and its workers. On every bundled problem the starter
 * fails at least one shown test (a Check that passes untouched starter code
 * teaches nothing) and the reference passes them all. */

static char *
bundled_path (void)
{
  return g_build_filename (g_getenv ("VIVA_SOURCE_ROOT"), "data", "packs", "intro-ai.json", NULL);
}

static char *
write_code (const char *dir,
            const char *name,
            const char *code)
{
  char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, code, -1, &error);
  g_assert_no_error (error);
  return path;
}

/* Runs check --json and asserts the events' shape: a `test` per shown
 * test, in the pack's order, then `check` with the counts. */
static void
check_json (VivaTestCliRun *run,
            const char     *pack,
            VivaProblem    *problem,
            const char     *code_path,
            guint          *passed)
{
  const char *args[] = { "check", "--pack", pack, "--problem", viva_problem_get_id (problem),
                         "--code", code_path, "--json", NULL };
  g_autoptr(GPtrArray) shown = viva_problem_get_shown_tests (problem);
  JsonObject *last;
  guint n_passed = 0;

  viva_test_cli_run (run, NULL, args);
  g_assert_cmpuint (run->events->len, ==, shown->len + 1);
  for (guint i = 0; i < shown->len; i++)
    {
      JsonObject *event = g_ptr_array_index (run->events, i);
      const VivaProblemTest *test = g_ptr_array_index (shown, i);

      g_assert_cmpstr (json_object_get_string_member (event, "event"), ==, "test");
      g_assert_cmpstr (json_object_get_string_member (event, "name"), ==, test->name);
      if (json_object_get_boolean_member (event, "passed"))
        n_passed++;
      else
        /* A failure says why, in the check's own words. */
        g_assert_cmpstr (json_object_get_string_member (event, "message"), !=, "");
    }

  last = g_ptr_array_index (run->events, shown->len);
  g_assert_cmpstr (json_object_get_string_member (last, "event"), ==, "check");
  g_assert_cmpint (json_object_get_int_member (last, "passed"), ==, n_passed);
  g_assert_cmpint (json_object_get_int_member (last, "total"), ==, shown->len);
  g_assert_cmpint (run->status, ==, n_passed == shown->len ? 0 : 1);
  *passed = n_passed;
}

static void
test_bundled (void)
{
  g_autofree char *pack_path = bundled_path ();
  g_autofree char *dir = g_dir_make_tmp ("viva-cli-check-XXXXXX", NULL);
  g_autoptr(VivaPack) pack = viva_pack_new_bundled ();
  GListModel *problems = viva_pack_get_problems (pack);

  for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr(VivaProblem) problem = g_list_model_get_item (problems, i);
      g_autofree char *starter = write_code (dir, "starter.py", viva_problem_get_starter_code (problem));
      g_autofree char *reference = write_code (dir, "reference.py", viva_problem_get_reference (problem));
      g_auto(VivaTestCliRun) starter_run = { 0 };
      g_auto(VivaTestCliRun) reference_run = { 0 };
      guint n = viva_problem_get_n_shown_tests (problem);
      guint passed;

      g_test_message ("%s: %u shown tests", viva_problem_get_id (problem), n);
      g_assert_cmpuint (n, >=, 2);
      g_assert_cmpuint (n, <=, 3);

      check_json (&starter_run, pack_path, problem, starter, &passed);
      g_test_message ("  the starter passes %u", passed);
      g_assert_cmpuint (passed, <, n);
      g_assert_cmpint (starter_run.status, ==, 1);

      check_json (&reference_run, pack_path, problem, reference, &passed);
      g_assert_cmpuint (passed, ==, n);
      g_assert_cmpint (reference_run.status, ==, 0);
    }

  viva_test_remove_tree (dir);
}

static void
test_plain (void)
{
  g_autofree char *pack_path = bundled_path ();
  g_autofree char *dir = g_dir_make_tmp ("viva-cli-check-XXXXXX", NULL);
  g_autofree char *code = write_code (dir, "knn.py", "def knn_predict(train_X, train_y, x, k):\n    return train_y[0]\n");
  const char *args[] = { "check", "--pack", pack_path, "--problem", "knn", "--code", code, NULL };
  const char *missing[] = { "check", "--pack", pack_path, "--problem", "no-such", "--code", code, NULL };
  const char *usage[] = { "check", "--pack", pack_path, NULL };
  g_auto(VivaTestCliRun) run = { 0 };
  g_auto(VivaTestCliRun) none = { 0 };
  g_auto(VivaTestCliRun) bad = { 0 };

  /* Text: a line a test, then the count, and only shown tests' names. */
  viva_test_cli_run (&run, NULL, args);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.out, "✗ majority of the k nearest — "));
  g_assert_nonnull (strstr (run.out, "shown tests passed.\n"));
  g_assert_null (strstr (run.out, "k = 1 is the nearest neighbour"));

  viva_test_cli_run (&none, NULL, missing);
  g_assert_cmpint (none.status, ==, 1);
  g_assert_nonnull (strstr (none.err, "has no problem “no-such”"));

  viva_test_cli_run (&bad, NULL, usage);
  g_assert_cmpint (bad.status, ==, 2);

  viva_test_remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  viva_core_init ();

  g_test_add_func ("/viva/cli/check/bundled", test_bundled);
  g_test_add_func ("/viva/cli/check/plain", test_plain);

  return g_test_run ();
}

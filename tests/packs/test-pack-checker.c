/* test-pack-checker.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-core.h"
#include "viva-pack-checker.h"

/* The checker against the real sandboxed worker. */

typedef struct
{
  GMainLoop       *loop;
  GAsyncResult    *result;
  VivaPackChecker *checker;
  GPtrArray       *checks;   /* VivaPackCheck */
} Fixture;

static void
checked_cb (VivaPackChecker     *checker,
            const VivaPackCheck *check,
            Fixture             *fixture)
{
  g_ptr_array_add (fixture->checks, viva_pack_check_copy (check));
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  fixture->loop = g_main_loop_new (NULL, FALSE);
  fixture->checker = viva_pack_checker_new (NULL);
  fixture->checks = g_ptr_array_new_with_free_func ((GDestroyNotify)viva_pack_check_free);
  g_signal_connect (fixture->checker, "checked", G_CALLBACK (checked_cb), fixture);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  viva_runner_stop (viva_pack_checker_get_runner (fixture->checker));
  g_clear_object (&fixture->result);
  g_clear_object (&fixture->checker);
  g_clear_pointer (&fixture->checks, g_ptr_array_unref);
  g_clear_pointer (&fixture->loop, g_main_loop_unref);
}

static void
store_result_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  Fixture *fixture = user_data;

  g_assert_null (fixture->result);
  fixture->result = g_object_ref (result);
  g_main_loop_quit (fixture->loop);
}

static VivaPack *
load_fixture (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "packs", "run", name, NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  g_autoptr(GBytes) bytes = NULL;
  VivaPack *pack;
  gsize len;

  g_file_get_contents (path, &contents, &len, &error);
  g_assert_no_error (error);
  bytes = g_bytes_new_take (g_steal_pointer (&contents), len);
  pack = viva_pack_new_from_bytes (bytes, &error);
  g_assert_no_error (error);

  return pack;
}

static GPtrArray *
check_pack (Fixture   *fixture,
            VivaPack  *pack,
            GError   **error)
{
  g_clear_object (&fixture->result);
  viva_pack_checker_check_pack_async (fixture->checker, pack, NULL, store_result_cb, fixture);
  while (fixture->result == NULL)
    g_main_loop_run (fixture->loop);

  return viva_pack_checker_check_finish (fixture->checker, fixture->result, error);
}

static const VivaPackCheck *
find_check (Fixture              *fixture,
            VivaPackCheckSubject  subject,
            const char           *problem_id,
            const char           *test_name)
{
  for (guint i = 0; i < fixture->checks->len; i++)
    {
      const VivaPackCheck *check = g_ptr_array_index (fixture->checks, i);

      if (check->subject == subject && g_str_equal (check->problem_id, problem_id) &&
          g_str_equal (check->test_name, test_name))
        return check;
    }

  return NULL;
}

static void
test_wrong_reference (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(VivaPack) pack = load_fixture ("wrong-reference.json");
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(GError) error = NULL;
  const VivaPackIssue *issue;
  const VivaPackCheck *check;

  issues = check_pack (fixture, pack, &error);
  g_assert_no_error (error);

  /* double(-4) fails; double(3) passes. */
  g_assert_cmpuint (issues->len, ==, 1);
  issue = g_ptr_array_index (issues, 0);
  g_assert_cmpint (issue->code, ==, VIVA_PACK_ERROR_REFERENCE_FAILS);
  g_assert_cmpstr (issue->path, ==, "problems[0].reference_solution");
  g_assert_nonnull (strstr (issue->message, "“negative numbers”"));
  g_assert_nonnull (strstr (issue->message, "“double”"));
  g_assert_nonnull (strstr (issue->message, "double(-4) must be -8"));

  g_assert_cmpuint (fixture->checks->len, ==, 4);
  check = find_check (fixture, VIVA_PACK_CHECK_REFERENCE, "double", "negative numbers");
  g_assert_false (check->passed);
  g_assert_cmpint (check->status, ==, VIVA_RUN_STATUS_ERROR);
  g_assert_cmpstr (check->error_type, ==, "failed");
  g_assert_cmpstr (check->error_message, ==, "The test failed: double(-4) must be -8");
  g_assert_true (find_check (fixture, VIVA_PACK_CHECK_REFERENCE, "double", "small numbers")->passed);
}

static void
test_starter_passes (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(VivaPack) pack = load_fixture ("starter-passes.json");
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(GError) error = NULL;
  const VivaPackIssue *issue;

  issues = check_pack (fixture, pack, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (issues->len, ==, 1);
  issue = g_ptr_array_index (issues, 0);
  g_assert_cmpint (issue->code, ==, VIVA_PACK_ERROR_STARTER_PASSES);
  g_assert_cmpstr (issue->path, ==, "problems[0].starter_code");
  g_assert_nonnull (strstr (issue->message, "“double”"));
  g_assert_true (find_check (fixture, VIVA_PACK_CHECK_STARTER, "double", "small numbers")->passed);
}

static void
test_fresh_namespace (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(VivaPack) pack = load_fixture ("fresh-namespace.json");
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(GError) error = NULL;

  issues = check_pack (fixture, pack, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (issues->len, ==, 0);

  /* Two reference runs and two starter runs for the implement problem;
   * the explain problem's starter is the code discussed, not run. */
  g_assert_cmpuint (fixture->checks->len, ==, 6);
  /* Old-form tests: the second ran to its end (it would have failed had it
   * seen the first's global), which is evidence, never a pass. */
  g_assert_cmpstr (find_check (fixture, VIVA_PACK_CHECK_REFERENCE, "double", "sees no other test's globals")->error_type,
                   ==, "evidence");
  g_assert_false (find_check (fixture, VIVA_PACK_CHECK_REFERENCE, "double", "sees no other test's globals")->passed);
  g_assert_null (find_check (fixture, VIVA_PACK_CHECK_STARTER, "explain-double", "defines a global"));
}

static void
test_one_problem (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(VivaPack) pack = load_fixture ("wrong-reference.json");
  VivaProblem *problem = viva_pack_find_problem (pack, "double");
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(GError) error = NULL;

  viva_pack_checker_check_problem_async (fixture->checker, problem, 7, NULL, store_result_cb, fixture);
  while (fixture->result == NULL)
    g_main_loop_run (fixture->loop);
  issues = viva_pack_checker_check_finish (fixture->checker, fixture->result, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (issues->len, ==, 1);
  g_assert_cmpstr (((VivaPackIssue *)g_ptr_array_index (issues, 0))->path, ==, "problems[7].reference_solution");
}

static void
test_reference_times_out (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autoptr(VivaPack) pack = viva_pack_new ("loops", "Loops");
  g_autoptr(VivaProblem) problem = viva_problem_new ("spin", "Spin");
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(GError) error = NULL;
  const VivaPackIssue *issue;
  const VivaPackCheck *check;

  viva_problem_set_reference (problem, "def spin():\n    while True:\n        pass\n");
  viva_problem_set_starter_code (problem, "def spin():\n    return 1\n");
  viva_problem_add_test (problem, "returns", "spin()\n");
  viva_pack_add_problem (pack, problem);
  viva_pack_checker_set_timeout (fixture->checker, 300);

  issues = check_pack (fixture, pack, &error);
  g_assert_no_error (error);

  /* The reference never returns. The starter's run of the old-form test
   * reaches its end, which is evidence, never a pass. */
  g_assert_cmpuint (issues->len, ==, 1);
  issue = g_ptr_array_index (issues, 0);
  g_assert_cmpint (issue->code, ==, VIVA_PACK_ERROR_REFERENCE_FAILS);
  g_assert_nonnull (strstr (issue->message, "“returns”"));
  g_assert_cmpstr (find_check (fixture, VIVA_PACK_CHECK_STARTER, "spin", "returns")->error_type, ==, "evidence");

  check = find_check (fixture, VIVA_PACK_CHECK_REFERENCE, "spin", "returns");
  g_assert_false (check->passed);
  g_assert_true (check->status == VIVA_RUN_STATUS_TIMEOUT || check->status == VIVA_RUN_STATUS_KILLED);
}

static void
test_cancel (Fixture       *fixture,
             gconstpointer  data)
{
  g_autoptr(VivaPack) pack = load_fixture ("fresh-namespace.json");
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(GError) error = NULL;

  viva_pack_checker_check_pack_async (fixture->checker, pack, cancellable, store_result_cb, fixture);
  g_cancellable_cancel (cancellable);
  while (fixture->result == NULL)
    g_main_loop_run (fixture->loop);
  issues = viva_pack_checker_check_finish (fixture->checker, fixture->result, &error);
  g_assert_null (issues);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

static void
count_notify_cb (GObject    *object,
                 GParamSpec *pspec,
                 guint      *count)
{
  (*count)++;
}

static void
test_properties (void)
{
  g_autoptr(VivaRunner) runner = viva_runner_new ();
  VivaPackChecker *checker = viva_pack_checker_new (runner);
  guint notified = 0;

  g_assert_true (viva_pack_checker_get_runner (checker) == runner);
  g_signal_connect (checker, "notify::timeout", G_CALLBACK (count_notify_cb), &notified);
  viva_pack_checker_set_timeout (checker, 5000);
  viva_pack_checker_set_timeout (checker, 5000);
  g_assert_cmpuint (notified, ==, 1);
  g_assert_cmpuint (viva_pack_checker_get_timeout (checker), ==, 5000);

  g_assert_finalize_object (checker);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  viva_core_init ();

#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/viva/packs/checker/wrong-reference", test_wrong_reference);
  ADD ("/viva/packs/checker/starter-passes", test_starter_passes);
  ADD ("/viva/packs/checker/fresh-namespace", test_fresh_namespace);
  ADD ("/viva/packs/checker/one-problem", test_one_problem);
  ADD ("/viva/packs/checker/reference-times-out", test_reference_times_out);
  ADD ("/viva/packs/checker/cancel", test_cancel);
#undef ADD
  g_test_add_func ("/viva/packs/checker/properties", test_properties);

  return g_test_run ();
}

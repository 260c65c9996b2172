/* test-held-out.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>

#include "viva-core.h"
#include "viva-exam-private.h"
#include "viva-grader.h"
#include "viva-pack.h"
#include "viva-problem-grade.h"
#include "viva-test-cli.h"
#include "viva-test-examiner.h"
#include "viva-test-server.h"
#include "viva-test-util.h"

/* Held-out tests stay with the grader: a real viva-cli defense of the
 * bundled pack, offline and with a model on a test server, and every text
 * it leaves (its events, the requests the model got, the checkpoint, the
 * trace, the report) holds no held-out test's setup, call, check or
 * message, and no line of the reference solution. The secrets are taken
 * from the pack, the messages from the author's grade of the same code. */

typedef struct
{
  char *dir;
  char *code;
  char *answers;
} Fixture;

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  fixture->dir = g_dir_make_tmp ("viva-held-out-XXXXXX", NULL);
  fixture->code = g_build_filename (fixture->dir, "code.py", NULL);
  fixture->answers = g_build_filename (fixture->dir, "answers.json", NULL);
  g_assert_true (g_file_set_contents (fixture->answers, "[\"It takes the k nearest points by distance.\", \"'a'\"]", -1, NULL));
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  viva_test_remove_tree (fixture->dir);
  g_clear_pointer (&fixture->dir, g_free);
  g_clear_pointer (&fixture->code, g_free);
  g_clear_pointer (&fixture->answers, g_free);
}

static char *
pack_path (void)
{
  return g_build_filename (g_getenv ("VIVA_SOURCE_ROOT"), "data", "packs", "intro-ai.json", NULL);
}

static gboolean
in_public (const char * const *public,
           const char         *text)
{
  for (guint i = 0; public[i] != NULL; i++)
    if (strstr (public[i], text) != NULL)
      return TRUE;
  return FALSE;
}

/* Each line of @text long enough to be telling that no public text holds. */
static void
add_secret_lines (GPtrArray          *secrets,
                  const char         *text,
                  guint               min_length,
                  const char * const *public)
{
  g_auto(GStrv) lines = g_strsplit (text ? text : "", "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *line = g_strstrip (lines[i]);

      if (strlen (line) >= min_length && !in_public (public, line))
        g_ptr_array_add (secrets, g_strdup (line));
    }
}

static void
grade_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static GPtrArray *
collect_secrets (VivaProblem *problem,
                 const char  *code)
{
  GPtrArray *secrets = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) public_texts = g_ptr_array_new ();
  g_autoptr(GPtrArray) shown = viva_problem_get_shown_tests (problem);
  g_autoptr(GPtrArray) held_out = viva_problem_get_held_out_tests (problem);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(VivaGradeReport) report = NULL;
  g_autoptr(GError) error = NULL;
  const char * const *public;

  g_ptr_array_add (public_texts, (char *) viva_problem_get_description (problem));
  g_ptr_array_add (public_texts, (char *) viva_problem_get_starter_code (problem));
  g_ptr_array_add (public_texts, (char *) viva_problem_get_hint (problem));
  g_ptr_array_add (public_texts, (char *) code);
  for (guint i = 0; i < shown->len; i++)
    g_ptr_array_add (public_texts, ((VivaProblemTest *) g_ptr_array_index (shown, i))->code);
  g_ptr_array_add (public_texts, NULL);
  public = (const char * const *) public_texts->pdata;

  for (guint i = 0; i < held_out->len; i++)
    {
      const VivaProblemTest *test = g_ptr_array_index (held_out, i);

      add_secret_lines (secrets, test->setup, 12, public);
      add_secret_lines (secrets, test->call, 12, public);
      add_secret_lines (secrets, test->check, 12, public);
    }
  add_secret_lines (secrets, viva_problem_get_reference (problem), 24, public);

  /* What the grader would say of each held-out test on this code. */
  viva_problem_grade_for_author_async (problem, code, NULL, grade_cb, &result);
  viva_test_run_until_result (&result);
  report = viva_problem_grade_finish (problem, result, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < viva_grade_report_get_n_tests (report); i++)
    {
      const VivaGradeTest *test = viva_grade_report_get_test (report, i);

      if (!viva_problem_test_is_shown (viva_problem_get_test (problem, i)) && !test->passed &&
          strlen (test->message) >= 12 && !in_public (public, test->message))
        g_ptr_array_add (secrets, g_strdup (test->message));
    }

  return secrets;
}

/* @text as written and as read back: JSON's and HTML's escapes undone. */
static void
assert_no_secret (GPtrArray  *secrets,
                  const char *where,
                  const char *text)
{
  g_autoptr(GString) plain = g_string_new (text);
  g_autofree char *compressed = NULL;

  g_string_replace (plain, "&quot;", "\"", 0);
  g_string_replace (plain, "&#39;", "'", 0);
  g_string_replace (plain, "&lt;", "<", 0);
  g_string_replace (plain, "&gt;", ">", 0);
  g_string_replace (plain, "&amp;", "&", 0);
  compressed = g_strcompress (plain->str);

  for (guint i = 0; i < secrets->len; i++)
    {
      const char *secret = g_ptr_array_index (secrets, i);

      if (strstr (text, secret) != NULL || strstr (plain->str, secret) != NULL ||
          strstr (compressed, secret) != NULL)
        g_error ("%s holds a held-out secret: %s", where, secret);
    }
}

static void
assert_tree_clean (GPtrArray  *secrets,
                   const char *dir,
                   guint      *n_files)
{
  g_autoptr(GDir) listing = g_dir_open (dir, 0, NULL);
  const char *name;

  g_assert_nonnull (listing);
  while ((name = g_dir_read_name (listing)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autofree char *contents = NULL;

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        {
          assert_tree_clean (secrets, path, n_files);
          continue;
        }
      g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
      assert_no_secret (secrets, path, contents);
      (*n_files)++;
    }
}

static const char *
session_of (VivaTestCliRun *run)
{
  JsonObject *last;

  g_assert_cmpuint (run->events->len, >, 0);
  last = g_ptr_array_index (run->events, run->events->len - 1);
  g_assert_cmpstr (json_object_get_string_member (last, "event"), ==, "verdict");
  return json_object_get_string_member (last, "session");
}

/* One defense through viva-cli, then its report, every output scanned. */
static void
defend_and_scan (Fixture        *fixture,
                 const char     *problem_id,
                 gboolean        starter,
                 VivaTestServer *server)
{
  g_autoptr(VivaPack) pack = viva_pack_new_bundled ();
  VivaProblem *problem = viva_pack_find_problem (pack, problem_id);
  const char *code = starter ? viva_problem_get_starter_code (problem) : viva_problem_get_reference (problem);
  g_autofree char *path = pack_path ();
  g_autofree char *sessions = g_build_filename (fixture->dir, problem_id, "sessions", NULL);
  g_autofree char *data_home = g_build_filename (fixture->dir, problem_id, "data", NULL);
  g_autofree char *html = g_build_filename (fixture->dir, problem_id, "sessions", "report.html", NULL);
  g_autofree char *json = g_build_filename (fixture->dir, problem_id, "sessions", "report.json", NULL);
  g_autofree char *base_url = server ? viva_test_server_get_base_url (server) : NULL;
  g_autoptr(GPtrArray) secrets = NULL;
  g_auto(VivaTestCliRun) run = { 0 };
  g_auto(VivaTestCliRun) report = { 0 };
  g_autofree char *session = NULL;
  guint n_files = 0;

  g_assert_true (g_file_set_contents (fixture->code, code, -1, NULL));
  secrets = collect_secrets (problem, code);
  g_assert_cmpuint (secrets->len, >, 10);

  if (server == NULL)
    {
      const char *args[] = { "defend", "--pack", path, "--problem", problem_id, "--code", fixture->code,
                             "--answers", fixture->answers, "--offline", "--session-dir", sessions, "--json", NULL };

      viva_test_cli_run (&run, data_home, args);
    }
  else
    {
      const char *args[] = { "defend", "--pack", path, "--problem", problem_id, "--code", fixture->code,
                             "--answers", fixture->answers, "--base-url", base_url, "--model", "lab-model",
                             "--session-dir", sessions, "--json", NULL };

      viva_test_cli_run (&run, data_home, args);
    }
  if (run.status != 0)
    g_error ("viva-cli defend failed: %s", run.err);
  session = g_strdup (session_of (&run));
  assert_no_secret (secrets, "defend's output", run.out);
  assert_no_secret (secrets, "defend's errors", run.err);

  {
    const char *args[] = { "report", session, "--session-dir", sessions, "--html", html, "--json", json, NULL };

    viva_test_cli_run (&report, data_home, args);
    g_assert_cmpint (report.status, ==, 0);
  }
  assert_no_secret (secrets, "report's output", report.out);
  /* The checkpoint, the trace and both reports. */
  assert_tree_clean (secrets, sessions, &n_files);
  g_assert_cmpuint (n_files, >=, 4);

  if (server != NULL)
    {
      guint n_chat = 0;

      const VivaTestRequest *request;

      while ((request = viva_test_server_find_request (server, "POST", "/v1/chat/completions", n_chat)) != NULL)
        {
          g_autoptr(JsonNode) node = viva_test_request_get_json (request);
          g_autofree char *text = json_to_string (node, FALSE);

          assert_no_secret (secrets, "a request to the model", text);
          /* The model gets the shown tests whole and the held-out names;
           * a scoring request, the question, its points and the answer. */
          if (strstr (text, "You score one answer") == NULL)
            g_assert_nonnull (strstr (text, "Held-out tests (names only)"));
          n_chat++;
        }
      g_assert_cmpuint (n_chat, >=, 4);
    }
}

static void
test_offline (Fixture       *fixture,
              gconstpointer  data)
{
  defend_and_scan (fixture, "knn", TRUE, NULL);
  defend_and_scan (fixture, "kmeans", TRUE, NULL);
}

static void
test_model (Fixture       *fixture,
            gconstpointer  data)
{
  g_autoptr(VivaTestServer) server = viva_test_server_new ();
  VivaTestExaminer examiner = { 0 };

  viva_test_examiner_serve (&examiner, server);
  defend_and_scan (fixture, "knn", TRUE, server);
}

/* The prompt: the shown tests in full, the held-out ones by name only. */
static void
test_prompt (void)
{
  g_autoptr(VivaPack) pack = viva_pack_new_bundled ();
  VivaProblem *problem = viva_pack_find_problem (pack, "knn");
  g_autoptr(GPtrArray) secrets = collect_secrets (problem, viva_problem_get_starter_code (problem));
  g_autoptr(GPtrArray) shown = viva_problem_get_shown_tests (problem);
  g_autoptr(GPtrArray) held_out = viva_problem_get_held_out_tests (problem);
  g_autoptr(GBytes) template = g_resources_lookup_data (RESOURCE_PREFIX "/core/prompts/examiner.md", 0, NULL);
  g_autofree char *prompt = NULL;

  g_assert_nonnull (template);
  prompt = _viva_exam_prompt_build (g_bytes_get_data (template, NULL), problem, "en", FALSE);
  assert_no_secret (secrets, "the system prompt", prompt);
  for (guint i = 0; i < shown->len; i++)
    {
      const VivaProblemTest *test = g_ptr_array_index (shown, i);

      g_assert_nonnull (strstr (prompt, test->call));
      g_assert_nonnull (strstr (prompt, test->check));
    }
  for (guint i = 0; i < held_out->len; i++)
    g_assert_nonnull (strstr (prompt, ((VivaProblemTest *) g_ptr_array_index (held_out, i))->name));
}

/* A student who hard-codes every answer Viva shows (the shown tests and
 * the description's example) passes the shown tests and nothing else: the
 * held-out tests have other inputs, some drawn from the grading's seed. */
static void
test_hard_coded (void)
{
  static const char code[] =
    "ANSWERS = {\n"
    "    repr(([(0, 0), (0, 1), (1, 0), (9, 9), (9, 8), (8, 9), (5, 5)], ['a', 'a', 'a', 'b', 'b', 'b', 'b'], (8.5, 8.5), 3)): 'b',\n"
    "    repr(([(0, 0), (0, 1), (1, 0), (9, 9), (9, 8), (8, 9), (5, 5)], ['a', 'a', 'a', 'b', 'b', 'b', 'b'], (0.2, 0.3), 5)): 'a',\n"
    "    repr(([(0, 0), (10, 10), (11, 10)], ['near', 'far', 'far'], (0, 0), 10)): 'far',\n"
    "    repr(([(0, 0), (3, 0), (-2, 0), (5, 0)], [1, 2, 2, 1], (0.1, 0), 4)): 1,\n"
    "    repr(([(0, 0), (3, 0), (-2, 0), (5, 0)], [1, 2, 2, 1], (-1.5, 0), 2)): 2,\n"
    "    repr(([(0, 0), (1, 0), (5, 5), (6, 5)], ['red', 'red', 'blue', 'blue'], (0.5, 0.2), 3)): 'red',\n"
    "}\n\n"
    "def knn_predict(train_X, train_y, x, k):\n"
    "    return ANSWERS.get(repr((train_X, train_y, x, k)), train_y[0])\n";
  g_autoptr(VivaPack) pack = viva_pack_new_bundled ();
  VivaProblem *problem = viva_pack_find_problem (pack, "knn");
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(VivaGradeReport) report = NULL;
  g_autoptr(GError) error = NULL;
  guint held_out_passed = 0;

  viva_problem_grade_async (problem, code, NULL, grade_cb, &result);
  viva_test_run_until_result (&result);
  report = viva_problem_grade_finish (problem, result, &error);
  g_assert_no_error (error);

  for (guint i = 0; i < viva_grade_report_get_n_tests (report); i++)
    {
      const VivaProblemTest *test = viva_problem_get_test (problem, i);
      const VivaGradeTest *graded = viva_grade_report_get_test (report, i);

      if (viva_problem_test_is_shown (test))
        g_assert_true (graded->passed);
      else
        held_out_passed += graded->passed ? 1 : 0;
      /* The seeded test in particular. */
      if (strstr (test->setup, "Random(seed)") != NULL)
        g_assert_false (graded->passed);
    }
  g_assert_cmpuint (held_out_passed, <=, 1);
  g_assert_false (viva_grade_report_get_passed (report));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  viva_core_init ();

  g_test_add_func ("/viva/exam/held-out/prompt", test_prompt);
  g_test_add_func ("/viva/exam/held-out/hard-coded", test_hard_coded);
  g_test_add ("/viva/exam/held-out/offline", Fixture, NULL, fixture_setup, test_offline, fixture_teardown);
  g_test_add ("/viva/exam/held-out/model", Fixture, NULL, fixture_setup, test_model, fixture_teardown);

  return g_test_run ();
}

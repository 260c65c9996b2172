/* test-pack.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "viva-core.h"
#include "viva-pack.h"
#include "viva-grader.h"
#include "viva-problem-grade.h"
#include "viva-problem-template.h"

typedef struct
{
  GMainLoop    *loop;
  GAsyncResult *result;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  fixture->loop = g_main_loop_new (NULL, FALSE);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_clear_object (&fixture->result);
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

static GAsyncResult *
wait_for_result (Fixture *fixture)
{
  while (fixture->result == NULL)
    g_main_loop_run (fixture->loop);

  return fixture->result;
}

static GBytes *
read_fixture (const char *dir,
              const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "packs", dir, name, NULL);
  g_autoptr(GError) error = NULL;
  char *contents = NULL;
  gsize len = 0;

  g_file_get_contents (path, &contents, &len, &error);
  g_assert_no_error (error);

  return g_bytes_new_take (contents, len);
}

static const VivaPackIssue *
find_issue (GPtrArray  *issues,
            const char *path)
{
  for (guint i = 0; i < issues->len; i++)
    {
      const VivaPackIssue *issue = g_ptr_array_index (issues, i);

      if (g_str_equal (issue->path, path))
        return issue;
    }

  return NULL;
}

static void
test_bundled (void)
{
  g_autoptr(VivaPack) pack = viva_pack_new_bundled ();
  g_autoptr(GPtrArray) issues = NULL;
  GListModel *problems = viva_pack_get_problems (pack);
  guint n = g_list_model_get_n_items (problems);

  g_assert_cmpstr (viva_pack_get_id (pack), ==, "intro-ai");
  g_assert_cmpstr (viva_pack_get_title (pack), ==, "Introduction to AI");
  g_assert_cmpuint (n, >=, 10);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(VivaProblem) problem = g_list_model_get_item (problems, i);

      g_assert_nonnull (viva_problem_get_description (problem));
      g_assert_true (strstr (viva_problem_get_description (problem), "```python") != NULL);
      g_assert_nonnull (viva_problem_get_starter_code (problem));
      g_assert_nonnull (viva_problem_get_hint (problem));
      g_assert_nonnull (viva_problem_get_reference (problem));
      g_assert_nonnull (viva_problem_get_rubric (problem));
      g_assert_cmpuint (viva_problem_get_time_limit (problem), >, 0);
      g_assert_cmpuint (viva_problem_get_n_tests (problem), >=, 4);
      g_assert_cmpuint (viva_problem_get_n_questions (problem), >=, 1);
      g_assert_true (viva_pack_find_problem (pack, viva_problem_get_id (problem)) == problem);
    }

  /* Not even a warning: the bundled pack is the example teachers copy. */
  issues = viva_pack_validate (pack);
  g_assert_cmpuint (issues->len, ==, 0);
}

static void
test_good (void)
{
  g_autoptr(GBytes) bytes = read_fixture ("good", "minimal.json");
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(VivaPack) pack = NULL;
  VivaProblem *problem;
  const VivaProblemQuestion *question;

  pack = viva_pack_new_from_bytes_full (bytes, &issues, &error);
  g_assert_no_error (error);
  g_assert_nonnull (pack);
  g_assert_cmpuint (issues->len, ==, 0);

  g_assert_cmpstr (viva_pack_get_id (pack), ==, "tiny");
  g_assert_cmpstr (viva_pack_get_author (pack), ==, "Viva tests");
  g_assert_cmpstr (viva_pack_get_language (pack), ==, "en");
  g_assert_cmpstr (viva_pack_get_version (pack), ==, "1");
  g_assert_null (viva_pack_get_file (pack));

  problem = viva_pack_find_problem (pack, "double");
  g_assert_nonnull (problem);
  g_assert_null (viva_pack_find_problem (pack, "triple"));
  g_assert_cmpint (viva_problem_get_problem_type (problem), ==, VIVA_PROBLEM_IMPLEMENT);
  g_assert_cmpstr (viva_problem_get_hint (problem), ==, "Multiply by two.");
  g_assert_cmpuint (viva_problem_get_time_limit (problem), ==, 5);
  g_assert_cmpuint (viva_problem_get_n_tests (problem), ==, 2);
  g_assert_cmpstr (viva_problem_get_test (problem, 1)->name, ==, "negative numbers");
  question = viva_problem_get_question (problem, 0);
  g_assert_cmpstr (question->question, ==, "What does double(0) return?");
  g_assert_cmpuint (g_strv_length (question->points), ==, 2);
}

typedef struct
{
  const char    *file;
  VivaPackError  code;
  const char    *path;
} BadCase;

static const BadCase bad_cases[] = {
  { "missing-test-code.json", VIVA_PACK_ERROR_MISSING, "problems[0].tests[0].code" },
  { "missing-fields.json", VIVA_PACK_ERROR_MISSING, "title" },
  { "wrong-types.json", VIVA_PACK_ERROR_WRONG_TYPE, "problems[0].title" },
  { "duplicate-ids.json", VIVA_PACK_ERROR_DUPLICATE, "problems[1].id" },
  { "duplicate-test-names.json", VIVA_PACK_ERROR_DUPLICATE, "problems[0].tests[1].name" },
  { "duplicate-keys.json", VIVA_PACK_ERROR_DUPLICATE, "" },
  { "other-format.json", VIVA_PACK_ERROR_FORMAT, "format" },
  { "bad-id.json", VIVA_PACK_ERROR_INVALID, "problems[0].id" },
  { "bad-type.json", VIVA_PACK_ERROR_INVALID, "problems[0].type" },
  { "empty-tests.json", VIVA_PACK_ERROR_INVALID, "problems[0].tests" },
  { "no-problems.json", VIVA_PACK_ERROR_INVALID, "problems" },
  { "time-limit-range.json", VIVA_PACK_ERROR_INVALID, "problems[0].time_limit_minutes" },
  { "pass-threshold-range.json", VIVA_PACK_ERROR_INVALID, "problems[0].pass_threshold" },
  { "weights-sum.json", VIVA_PACK_ERROR_INVALID, "problems[0].weights" },
  { "prediction-unused-input.json", VIVA_PACK_ERROR_INVALID, "problems[0].predictions[0].inputs.y" },
  { "not-an-object.json", VIVA_PACK_ERROR_WRONG_TYPE, "" },
  { "not-a-pack.json", VIVA_PACK_ERROR_MISSING, "format" },
  { "truncated.json", VIVA_PACK_ERROR_TRUNCATED, "" },
  { "syntax.json", VIVA_PACK_ERROR_SYNTAX, "" },
  { "empty.json", VIVA_PACK_ERROR_EMPTY, "" },
  { "whitespace.json", VIVA_PACK_ERROR_EMPTY, "" },
  { "deep-nesting.json", VIVA_PACK_ERROR_TOO_DEEP, "" },
  { "invalid-utf8.json", VIVA_PACK_ERROR_ENCODING, "" },
  { "binary.json", VIVA_PACK_ERROR_BINARY, "" },
  { "utf16.json", VIVA_PACK_ERROR_BINARY, "" },
};

static void
test_bad (gconstpointer data)
{
  const BadCase *bad = data;
  g_autoptr(GBytes) bytes = read_fixture ("bad", bad->file);
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(VivaPack) pack = NULL;
  const VivaPackIssue *first = NULL;

  pack = viva_pack_new_from_bytes_full (bytes, &issues, &error);
  g_assert_null (pack);
  g_assert_error (error, VIVA_PACK_ERROR, (int)bad->code);
  g_assert_nonnull (issues);

  for (guint i = 0; i < issues->len && first == NULL; i++)
    if (((VivaPackIssue *)g_ptr_array_index (issues, i))->level == VIVA_PACK_ISSUE_ERROR)
      first = g_ptr_array_index (issues, i);

  g_assert_nonnull (first);
  g_assert_cmpint (first->code, ==, bad->code);
  g_assert_cmpstr (first->path, ==, bad->path);

  /* The sentence starts with the path and goes on to say what to do. */
  g_assert_true (g_str_has_prefix (error->message, bad->path));
  g_assert_cmpuint (strlen (first->message), >, 20);
  g_assert_nonnull (strstr (first->message, " — "));
}

static void
test_every_issue (void)
{
  g_autoptr(GBytes) bytes = read_fixture ("bad", "missing-fields.json");
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(VivaPack) pack = NULL;
  const char * const paths[] = {
    "title", "problems[0].description", "problems[0].hint", "problems[0].reference_solution",
  };

  pack = viva_pack_new_from_bytes_full (bytes, &issues, &error);
  g_assert_null (pack);
  g_assert_cmpuint (viva_pack_issues_count_errors (issues), ==, G_N_ELEMENTS (paths));
  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      const VivaPackIssue *issue = find_issue (issues, paths[i]);

      g_assert_nonnull (issue);
      g_assert_cmpint (issue->code, ==, VIVA_PACK_ERROR_MISSING);
    }
  g_assert_nonnull (strstr (error->message, "3 more problems"));

  g_clear_pointer (&issues, g_ptr_array_unref);
  g_clear_pointer (&bytes, g_bytes_unref);
  g_clear_error (&error);
  bytes = read_fixture ("bad", "wrong-types.json");
  pack = viva_pack_new_from_bytes_full (bytes, &issues, &error);
  g_assert_null (pack);
  g_assert_cmpint (find_issue (issues, "problems[0].time_limit_minutes")->code, ==, VIVA_PACK_ERROR_WRONG_TYPE);
  g_assert_cmpint (find_issue (issues, "problems[0].questions[0].points")->code, ==, VIVA_PACK_ERROR_WRONG_TYPE);
  g_assert_cmpuint (viva_pack_issues_count_errors (issues), ==, 3);
}

static void
test_missing_test_code_sentence (void)
{
  g_autoptr(GBytes) bytes = read_fixture ("bad", "missing-test-code.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(VivaPack) pack = viva_pack_new_from_bytes (bytes, &error);

  g_assert_null (pack);
  g_assert_cmpstr (error->message, ==,
                   "problems[0].tests[0].code: missing — each test needs a “call” judged by the grader, or old-style Python “code” that raises on failure");
}

static void
test_duplicate_key_sentence (void)
{
  g_autoptr(GBytes) bytes = read_fixture ("bad", "duplicate-keys.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(VivaPack) pack = viva_pack_new_from_bytes (bytes, &error);
  const char *text = "{\"a\": {\"hint\": 1}, \"b\": {\"hint\": 2}, \"c\": [{\"x\": 1}, {\"x\": 2}]}";
  g_autoptr(GBytes) nested = g_bytes_new_static (text, strlen (text));
  g_autoptr(GPtrArray) issues = NULL;

  g_assert_null (pack);
  g_assert_cmpstr (error->message, ==,
                   "line 16: the key “hint” appears twice in the same object — only one would be kept; delete or rename the other");

  /* Equal keys in different objects are fine. */
  g_clear_error (&error);
  pack = viva_pack_new_from_bytes_full (nested, &issues, &error);
  g_assert_null (pack);
  for (guint i = 0; i < issues->len; i++)
    g_assert_cmpint (((VivaPackIssue *)g_ptr_array_index (issues, i))->code, !=, VIVA_PACK_ERROR_DUPLICATE);
}

static void
test_warnings (void)
{
  const char *text =
    "{\"format\": \"viva-pack/1\", \"id\": \"w\", \"title\": \"W\", \"problems\": [{"
    "\"id\": \"p\", \"title\": \"P\", \"type\": \"debug\", \"description\": \"d\", \"starter_code\": \"\","
    "\"hints\": \"typo\", \"hint\": \"h\", \"reference_solution\": \"pass\","
    "\"tests\": [{\"name\": \"t\", \"call\": \"1\", \"check\": \"assert result == 1\"}],"
    "\"questions\": [{\"question\": \"q\", \"points\": [\"a\"]}]}]}";
  g_autoptr(GBytes) bytes = g_bytes_new_static (text, strlen (text));
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(VivaPack) pack = NULL;
  const VivaPackIssue *issue;

  pack = viva_pack_new_from_bytes_full (bytes, &issues, &error);
  g_assert_no_error (error);
  g_assert_nonnull (pack);
  g_assert_cmpuint (issues->len, ==, 1);
  g_assert_cmpuint (viva_pack_issues_count_errors (issues), ==, 0);

  issue = find_issue (issues, "problems[0].hints");
  g_assert_nonnull (issue);
  g_assert_cmpint (issue->level, ==, VIVA_PACK_ISSUE_WARNING);
  g_assert_cmpint (issue->code, ==, VIVA_PACK_ERROR_UNKNOWN_KEY);
  g_assert_nonnull (strstr (issue->message, "“hint”"));
  g_assert_cmpint (viva_problem_get_problem_type (viva_pack_find_problem (pack, "p")), ==, VIVA_PROBLEM_DEBUG);
}

static void
test_too_large (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("viva-pack-XXXXXX", &error);
  g_autofree char *path = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(VivaPack) pack = NULL;
  g_autoptr(GBytes) bytes = NULL;
  GString *big;

  g_assert_no_error (error);

  /* 50 MB of a plausible pack: a huge description. Made here, not kept in
   * the repository. */
  big = g_string_sized_new (50 * 1024 * 1024 + 128);
  g_string_append (big, "{\"format\": \"viva-pack/1\", \"id\": \"big\", \"title\": \"");
  while (big->len < 50 * 1024 * 1024)
    g_string_append (big, "All work and no play makes Jack a dull boy. ");
  g_string_append (big, "\"}");
  bytes = g_string_free_to_bytes (big);

  pack = viva_pack_new_from_bytes_full (bytes, &issues, &error);
  g_assert_null (pack);
  g_assert_error (error, VIVA_PACK_ERROR, VIVA_PACK_ERROR_TOO_LARGE);
  g_assert_cmpuint (issues->len, ==, 1);
  g_clear_error (&error);
  g_clear_pointer (&issues, g_ptr_array_unref);

  path = g_build_filename (dir, "big.json", NULL);
  g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);

  file = g_file_new_for_path (path);
  viva_pack_new_from_file_async (file, NULL, store_result_cb, fixture);
  pack = viva_pack_new_from_file_finish (wait_for_result (fixture), &issues, &error);
  g_assert_null (pack);
  g_assert_error (error, VIVA_PACK_ERROR, VIVA_PACK_ERROR_TOO_LARGE);
  g_assert_cmpint (((VivaPackIssue *)g_ptr_array_index (issues, 0))->code, ==, VIVA_PACK_ERROR_TOO_LARGE);

  g_assert_cmpint (g_unlink (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

static void
test_file_async (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "packs", "good", "minimal.json", NULL);
  g_autofree char *bad_path = g_test_build_filename (G_TEST_DIST, "packs", "bad", "duplicate-ids.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFile) bad = g_file_new_for_path (bad_path);
  g_autoptr(GFile) missing = g_file_new_for_path ("/nonexistent/viva/pack.json");
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(VivaPack) pack = NULL;

  viva_pack_new_from_file_async (file, NULL, store_result_cb, fixture);
  pack = viva_pack_new_from_file_finish (wait_for_result (fixture), &issues, &error);
  g_assert_no_error (error);
  g_assert_true (g_file_equal (viva_pack_get_file (pack), file));
  g_assert_cmpuint (issues->len, ==, 0);
  g_clear_object (&fixture->result);
  g_clear_pointer (&issues, g_ptr_array_unref);

  viva_pack_new_from_file_async (bad, NULL, store_result_cb, fixture);
  g_assert_null (viva_pack_new_from_file_finish (wait_for_result (fixture), &issues, &error));
  g_assert_error (error, VIVA_PACK_ERROR, VIVA_PACK_ERROR_DUPLICATE);
  g_assert_nonnull (find_issue (issues, "problems[1].id"));
  g_clear_object (&fixture->result);
  g_clear_error (&error);

  viva_pack_new_from_file_async (missing, NULL, store_result_cb, fixture);
  g_assert_null (viva_pack_new_from_file_finish (wait_for_result (fixture), NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
}

static JsonObject *
parse_object (GBytes *bytes)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_data (parser, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);

  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

static void
test_round_trip (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(GBytes) bytes = read_fixture ("good", "unknown-keys.json");
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("viva-pack-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "saved.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(VivaPack) pack = NULL;
  g_autoptr(VivaPack) again = NULL;
  g_autoptr(GBytes) saved = NULL;
  g_autoptr(GBytes) resaved = NULL;
  g_autoptr(JsonObject) root = NULL;
  g_autoptr(GPtrArray) issues = NULL;
  JsonObject *problem;
  char *contents = NULL;
  gsize len;

  pack = viva_pack_new_from_bytes_full (bytes, &issues, &error);
  g_assert_no_error (error);
  /* Four unknown keys and two tests of the old form, each a warning,
   * none an error. */
  g_assert_cmpuint (issues->len, ==, 6);
  g_assert_cmpuint (viva_pack_issues_count_errors (issues), ==, 0);

  viva_pack_set_title (pack, "A renamed pack");
  viva_problem_set_hint (viva_pack_find_problem (pack, "double"), "Use * 2.");

  viva_pack_save_async (pack, file, NULL, store_result_cb, fixture);
  g_assert_true (viva_pack_save_finish (pack, wait_for_result (fixture), &error));
  g_assert_no_error (error);

  g_file_get_contents (path, &contents, &len, &error);
  g_assert_no_error (error);
  saved = g_bytes_new_take (contents, len);
  g_assert_true (g_str_has_prefix (contents, "{\n  \"format\" : \"viva-pack/1\""));
  g_assert_true (g_str_has_suffix (contents, "}\n"));

  root = parse_object (saved);
  g_assert_cmpstr (json_object_get_string_member (root, "title"), ==, "A renamed pack");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (root, "x-course"), "code"), ==, "AI-101");
  problem = json_array_get_object_element (json_object_get_array_member (root, "problems"), 0);
  g_assert_cmpint (json_object_get_int_member (problem, "x-difficulty"), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (problem, "hint"), ==, "Use * 2.");
  g_assert_cmpfloat (json_object_get_double_member (json_array_get_object_element (json_object_get_array_member (problem, "tests"), 0), "x-weight"), ==, 0.5);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (json_object_get_array_member (problem, "questions"), 0), "x-bloom"), ==, "recall");

  /* Saving what was loaded from a save changes nothing. */
  again = viva_pack_new_from_bytes (saved, &error);
  g_assert_no_error (error);
  resaved = viva_pack_to_bytes (again);
  g_assert_true (g_bytes_equal (saved, resaved));

  g_assert_cmpint (g_unlink (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

static void
test_save_fails_cleanly (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autoptr(GBytes) bytes = read_fixture ("good", "minimal.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(VivaPack) pack = viva_pack_new_from_bytes (bytes, &error);
  g_autoptr(GFile) file = g_file_new_for_path ("/nonexistent/viva/saved.json");

  g_assert_no_error (error);
  viva_pack_save_async (pack, file, NULL, store_result_cb, fixture);
  g_assert_false (viva_pack_save_finish (pack, wait_for_result (fixture), &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
}

static void
test_validate_memory (void)
{
  g_autoptr(VivaPack) pack = viva_pack_new ("mem", "In memory");
  g_autoptr(VivaProblem) problem = viva_problem_new ("p1", "First");
  g_autoptr(VivaProblem) twin = viva_problem_new ("p1", "Twin");
  g_autoptr(GPtrArray) issues = NULL;
  const char * const points[] = { "a point", NULL };

  viva_problem_set_description (problem, "Do it.");
  viva_problem_set_starter_code (problem, "");
  viva_problem_set_hint (problem, "Think.");
  viva_problem_set_reference (problem, "x = 1\n");
  viva_problem_add_test (problem, "x is one", NULL);
  viva_problem_add_question (problem, "Why?", points);
  viva_pack_add_problem (pack, problem);
  viva_pack_add_problem (pack, twin);

  issues = viva_pack_validate (pack);
  g_assert_cmpint (find_issue (issues, "problems[0].tests[0].code")->code, ==, VIVA_PACK_ERROR_MISSING);
  g_assert_cmpint (find_issue (issues, "problems[1].id")->code, ==, VIVA_PACK_ERROR_DUPLICATE);
  g_assert_cmpint (find_issue (issues, "problems[1].tests")->code, ==, VIVA_PACK_ERROR_INVALID);
  g_assert_null (find_issue (issues, "problems[0].hint"));
}

/* A new problem's template is an example, not a problem: saved under any
 * title it does not validate until each placeholder is replaced. */
static void
test_template_placeholders (void)
{
  g_autoptr(VivaPack) pack = viva_pack_new ("week-4", "Week 4");
  g_autoptr(VivaProblem) problem = viva_problem_new_from_template ("dls");
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(GPtrArray) after = NULL;
  static const char * const placeholders[] = {
    "problems[0].description", "problems[0].starter_code", "problems[0].reference_solution",
    "problems[0].tests[0].check",
  };

  viva_problem_set_title (problem, "Depth-limited search");
  viva_pack_add_problem (pack, problem);

  issues = viva_pack_validate (pack);
  for (guint i = 0; i < G_N_ELEMENTS (placeholders); i++)
    {
      const VivaPackIssue *issue = find_issue (issues, placeholders[i]);

      g_assert_nonnull (issue);
      g_assert_cmpint (issue->level, ==, VIVA_PACK_ISSUE_ERROR);
      g_assert_nonnull (strstr (issue->message, "template"));
    }
  g_assert_null (find_issue (issues, "problems[0].tests[1].check"));

  viva_problem_set_description (problem, "Search to a depth of `limit`.");
  viva_problem_set_starter_code (problem, "def dls(graph, start, goal, limit):\n    pass\n");
  viva_problem_set_reference (problem, "def dls(graph, start, goal, limit):\n    return None\n");
  viva_problem_clear_tests (problem);
  viva_problem_add_structured_test (problem, "no path", "", "dls({}, 'a', 'b', 1)", "assert result is None\n", FALSE, 0.0);
  after = viva_pack_validate (pack);
  for (guint i = 0; i < after->len; i++)
    g_assert_cmpint (((VivaPackIssue *) after->pdata[i])->level, !=, VIVA_PACK_ISSUE_ERROR);
}

/* The schema and the loader must require the same keys. */
static void
test_schema_agrees (void)
{
  g_autofree char *schema_path = g_build_filename (g_getenv ("VIVA_SOURCE_ROOT"), "data", "viva-pack.schema.json", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  const char *text = "{\"format\": \"viva-pack/1\", \"problems\": [{\"tests\": [{}], \"questions\": [{}]}]}";
  g_autoptr(GBytes) bytes = g_bytes_new_static (text, strlen (text));
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(VivaPack) pack = NULL;
  JsonObject *schema, *defs;
  struct { const char *prefix; JsonArray *required; } levels[4];

  json_parser_load_from_file (parser, schema_path, &error);
  g_assert_no_error (error);
  schema = json_node_get_object (json_parser_get_root (parser));
  defs = json_object_get_object_member (schema, "$defs");

  levels[0].prefix = "";
  levels[0].required = json_object_get_array_member (schema, "required");
  levels[1].prefix = "problems[0].";
  levels[1].required = json_object_get_array_member (json_object_get_object_member (defs, "problem"), "required");
  {
    JsonObject *props = json_object_get_object_member (json_object_get_object_member (defs, "problem"), "properties");
    levels[2].prefix = "problems[0].tests[0].";
    levels[2].required = json_object_get_array_member (json_object_get_object_member (json_object_get_object_member (props, "tests"), "items"), "required");
    levels[3].prefix = "problems[0].questions[0].";
    levels[3].required = json_object_get_array_member (json_object_get_object_member (json_object_get_object_member (props, "questions"), "items"), "required");
  }

  pack = viva_pack_new_from_bytes_full (bytes, &issues, &error);
  g_assert_null (pack);

  for (guint l = 0; l < G_N_ELEMENTS (levels); l++)
    for (guint i = 0; i < json_array_get_length (levels[l].required); i++)
      {
        const char *key = json_array_get_string_element (levels[l].required, i);
        g_autofree char *path = g_strconcat (levels[l].prefix, key, NULL);
        const VivaPackIssue *issue = find_issue (issues, path);

        /* format, problems, tests and questions are present but empty or
         * wrong here, so only the absent keys must be reported missing. */
        if (g_str_equal (key, "format") || g_str_equal (key, "problems") ||
            g_str_equal (key, "tests") || g_str_equal (key, "questions"))
          continue;

        if (issue == NULL)
          g_error ("the schema requires %s but the loader does not", path);
        g_assert_cmpint (issue->code, ==, VIVA_PACK_ERROR_MISSING);
      }

  for (guint i = 0; i < issues->len; i++)
    {
      const VivaPackIssue *issue = g_ptr_array_index (issues, i);

      if (issue->code == VIVA_PACK_ERROR_MISSING)
        {
          const char *key = strrchr (issue->path, '.') ? strrchr (issue->path, '.') + 1 : issue->path;
          gboolean found = FALSE;

          for (guint l = 0; l < G_N_ELEMENTS (levels); l++)
            for (guint i2 = 0; i2 < json_array_get_length (levels[l].required); i2++)
              if (g_str_equal (key, json_array_get_string_element (levels[l].required, i2)))
                found = TRUE;

          /* A test has either a call or code: the schema's oneOf says so,
           * and an empty test is reported as missing the old form's code. */
          if (g_str_equal (issue->path, "problems[0].tests[0].code"))
            {
              JsonObject *props = json_object_get_object_member (json_object_get_object_member (defs, "problem"), "properties");
              JsonObject *items = json_object_get_object_member (json_object_get_object_member (props, "tests"), "items");
              JsonArray *one_of = json_object_get_array_member (items, "oneOf");

              for (guint k = 0; k < json_array_get_length (one_of); k++)
                {
                  JsonArray *required = json_object_get_array_member (json_array_get_object_element (one_of, k), "required");

                  for (guint r = 0; r < json_array_get_length (required); r++)
                    found |= g_str_equal (json_array_get_string_element (required, r), "code");
                }
            }

          if (!found)
            g_error ("the loader requires %s but the schema does not", issue->path);
        }
    }
}

static void
test_issue_boxed (void)
{
  g_autoptr(VivaPackIssue) issue =
    viva_pack_issue_new (VIVA_PACK_ERROR_MISSING, VIVA_PACK_ISSUE_ERROR, "a.b", "missing — why");
  g_autoptr(VivaPackIssue) copy = g_boxed_copy (VIVA_TYPE_PACK_ISSUE, issue);
  g_autofree char *text = viva_pack_issue_to_string (copy);
  g_autoptr(VivaPackIssue) whole = viva_pack_issue_new (VIVA_PACK_ERROR_EMPTY, VIVA_PACK_ISSUE_ERROR, NULL, "empty");
  g_autofree char *whole_text = viva_pack_issue_to_string (whole);

  g_assert_cmpstr (text, ==, "a.b: missing — why");
  g_assert_cmpstr (whole_text, ==, "empty");
  g_assert_cmpstr (viva_pack_error_to_string (VIVA_PACK_ERROR_WRONG_TYPE), ==, "wrong-type");
}

static void
notify_count_cb (GObject    *object,
                 GParamSpec *pspec,
                 gpointer    user_data)
{
  (*(guint *)user_data)++;
}

static void
test_properties (void)
{
  VivaPack *pack = viva_pack_new ("p", "Title");
  const char * const props[] = { "title", "author", "language", "version" };

  for (guint i = 0; i < G_N_ELEMENTS (props); i++)
    {
      g_autofree char *signal = g_strconcat ("notify::", props[i], NULL);
      g_autofree char *value = NULL;
      guint count = 0;
      gulong id = g_signal_connect (pack, signal, G_CALLBACK (notify_count_cb), &count);

      g_object_set (pack, props[i], "one", NULL);
      g_object_set (pack, props[i], "one", NULL);
      g_assert_cmpuint (count, ==, 1);
      g_object_set (pack, props[i], "two", NULL);
      g_assert_cmpuint (count, ==, 2);
      g_object_get (pack, props[i], &value, NULL);
      g_assert_cmpstr (value, ==, "two");
      g_signal_handler_disconnect (pack, id);
    }

  g_assert_finalize_object (pack);
}

/* Every bundled problem shows a few examples and holds the rest out; a
 * starter fails a shown test (checked through the grader by test-cli-pack),
 * and "shown" survives a save while a held-out test gains no member. */
static void
test_shown_tests (void)
{
  g_autoptr(VivaPack) bundled = viva_pack_new_bundled ();
  GListModel *problems = viva_pack_get_problems (bundled);
  const char *text =
    "{\"format\": \"viva-pack/1\", \"id\": \"s\", \"title\": \"S\", \"problems\": [{"
    "\"id\": \"p\", \"title\": \"P\", \"type\": \"implement\", \"description\": \"d\", \"starter_code\": \"\","
    "\"hint\": \"h\", \"reference_solution\": \"pass\","
    "\"tests\": [{\"name\": \"an example\", \"shown\": true, \"call\": \"1\", \"check\": \"assert result == 1\"},"
    "{\"name\": \"held out\", \"setup\": \"x = seed\", \"call\": \"x\", \"check\": \"\"}],"
    "\"questions\": [{\"question\": \"q\", \"points\": [\"a\"]}]}]}";
  const char *all_shown =
    "{\"format\": \"viva-pack/1\", \"id\": \"s\", \"title\": \"S\", \"problems\": [{"
    "\"id\": \"p\", \"title\": \"P\", \"type\": \"implement\", \"description\": \"d\", \"starter_code\": \"\","
    "\"hint\": \"h\", \"reference_solution\": \"pass\","
    "\"tests\": [{\"name\": \"a\", \"shown\": true, \"call\": \"1\"}, {\"name\": \"b\", \"shown\": \"yes\", \"call\": \"2\"}],"
    "\"questions\": [{\"question\": \"q\", \"points\": [\"a\"]}]}]}";
  g_autoptr(GBytes) bytes = g_bytes_new_static (text, strlen (text));
  const char *every_shown =
    "{\"format\": \"viva-pack/1\", \"id\": \"s\", \"title\": \"S\", \"problems\": [{"
    "\"id\": \"p\", \"title\": \"P\", \"type\": \"implement\", \"description\": \"d\", \"starter_code\": \"\","
    "\"hint\": \"h\", \"reference_solution\": \"pass\","
    "\"tests\": [{\"name\": \"a\", \"shown\": true, \"call\": \"1\"}],"
    "\"questions\": [{\"question\": \"q\", \"points\": [\"a\"]}]}]}";
  g_autoptr(GBytes) bad = g_bytes_new_static (all_shown, strlen (all_shown));
  g_autoptr(GBytes) every = g_bytes_new_static (every_shown, strlen (every_shown));
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(VivaPack) pack = NULL;
  g_autoptr(VivaPack) again = NULL;
  g_autoptr(GPtrArray) shown = NULL;
  g_autoptr(GPtrArray) held_out = NULL;
  g_autoptr(GPtrArray) graded = NULL;
  g_autoptr(GBytes) saved = NULL;
  g_autoptr(JsonObject) root = NULL;
  const VivaPackIssue *issue;
  VivaProblem *problem;
  JsonArray *tests;

  for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr(VivaProblem) item = g_list_model_get_item (problems, i);
      g_autoptr(GPtrArray) examples = viva_problem_get_shown_tests (item);
      g_autoptr(GPtrArray) secret = viva_problem_get_held_out_tests (item);
      gboolean seeded = FALSE;

      g_assert_cmpuint (examples->len, >=, 2);
      g_assert_cmpuint (examples->len, <=, 3);
      g_assert_cmpuint (viva_problem_get_n_shown_tests (item), ==, examples->len);
      g_assert_cmpuint (examples->len + secret->len, ==, viva_problem_get_n_tests (item));
      for (guint j = 0; j < examples->len; j++)
        {
          const VivaProblemTest *test = g_ptr_array_index (examples, j);

          g_assert_true (viva_problem_test_is_shown (test));
          /* An example's input is the same each time: the student reads it. */
          g_assert_null (strstr (test->setup, "seed"));
        }
      /* At least one held-out test draws its inputs from the grading's seed. */
      for (guint j = 0; j < secret->len; j++)
        {
          const VivaProblemTest *test = g_ptr_array_index (secret, j);

          g_assert_false (viva_problem_test_is_shown (test));
          seeded |= strstr (test->setup, "Random(seed)") != NULL;
        }
      g_assert_true (seeded);
    }

  pack = viva_pack_new_from_bytes_full (bytes, &issues, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (issues->len, ==, 0);
  problem = viva_pack_find_problem (pack, "p");
  g_assert_true (viva_problem_test_is_shown (viva_problem_get_test (problem, 0)));
  g_assert_false (viva_problem_test_is_shown (viva_problem_get_test (problem, 1)));
  shown = viva_problem_get_shown_tests (problem);
  held_out = viva_problem_get_held_out_tests (problem);
  g_assert_cmpuint (shown->len, ==, 1);
  g_assert_cmpstr (((const VivaProblemTest *) g_ptr_array_index (shown, 0))->name, ==, "an example");
  g_assert_cmpuint (held_out->len, ==, 1);
  g_assert_cmpstr (((const VivaProblemTest *) g_ptr_array_index (held_out, 0))->name, ==, "held out");

  /* The grader's copy of every setup binds the grading's seed first. */
  graded = viva_problem_get_grader_tests_seeded (problem, 4242);
  g_assert_cmpstr (((VivaGraderTest *) g_ptr_array_index (graded, 1))->setup, ==, "seed = 4242\nx = seed");

  saved = viva_pack_to_bytes (pack);
  root = parse_object (saved);
  tests = json_object_get_array_member (json_array_get_object_element (json_object_get_array_member (root, "problems"), 0), "tests");
  g_assert_true (json_object_get_boolean_member (json_array_get_object_element (tests, 0), "shown"));
  g_assert_false (json_object_has_member (json_array_get_object_element (tests, 1), "shown"));
  again = viva_pack_new_from_bytes (saved, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (viva_problem_get_n_shown_tests (viva_pack_find_problem (again, "p")), ==, 1);

  /* A "shown" that is not a boolean is an error at its path; a problem
   * whose every test is shown a warning, since hard-coding then passes. */
  g_clear_pointer (&issues, g_ptr_array_unref);
  g_clear_object (&pack);
  pack = viva_pack_new_from_bytes_full (bad, &issues, &error);
  g_assert_null (pack);
  g_clear_error (&error);
  issue = find_issue (issues, "problems[0].tests[1].shown");
  g_assert_nonnull (issue);
  g_assert_cmpint (issue->level, ==, VIVA_PACK_ISSUE_ERROR);
  g_assert_nonnull (strstr (issue->message, "“shown”"));

  g_clear_pointer (&issues, g_ptr_array_unref);
  g_clear_object (&pack);
  pack = viva_pack_new_from_bytes_full (every, &issues, &error);
  g_assert_no_error (error);
  g_assert_nonnull (pack);
  issue = find_issue (issues, "problems[0].tests");
  g_assert_nonnull (issue);
  g_assert_cmpint (issue->level, ==, VIVA_PACK_ISSUE_WARNING);
  g_assert_nonnull (strstr (issue->message, "hard-codes"));
}

/* Old-form tests of one safe shape become structured on import; any other
 * shape stays as it was, and the validator says which is which. */
static void
test_convert_legacy (void)
{
  struct { const char *code; const char *call; const char *check; } cases[] = {
    { "assert add(2, 3) == 5\n", "add(2, 3)", "assert result == 5\n" },
    { "  assert double(-4) == -8, 'double(-4) must be -8'", "double(-4)", "assert result == -8, 'double(-4) must be -8'\n" },
    { "assert f([1, 2], k=3) == [1, (2, 'a == b')]", "f([1, 2], k=3)", "assert result == [1, (2, 'a == b')]\n" },
    { "assert double(3) == 6 and type(double(3)) is int", NULL, NULL },
    { "x = 2\nassert double(x) == 4", NULL, NULL },
    { "assert double(3) == expected", NULL, NULL },
    { "assert double(3) + 1 == 7", NULL, NULL },
    { "assert double(3) == 6, message()", NULL, NULL },
    { "print(1)", NULL, NULL },
  };
  const char *text =
    "{\"format\": \"viva-pack/1\", \"id\": \"o\", \"title\": \"O\", \"problems\": [{"
    "\"id\": \"p\", \"title\": \"P\", \"type\": \"implement\", \"description\": \"d\", \"starter_code\": \"\","
    "\"hint\": \"h\", \"reference_solution\": \"def add(a, b):\\n    return a + b\\n\","
    "\"tests\": [{\"name\": \"converts\", \"code\": \"assert add(2, 3) == 5, 'five'\"},"
    "{\"name\": \"stays\", \"code\": \"x = 2\\nassert add(x, 3) == 5\"}],"
    "\"questions\": [{\"question\": \"q\", \"points\": [\"a\"]}]}]}";
  g_autoptr(GBytes) bytes = g_bytes_new_static (text, strlen (text));
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(VivaPack) pack = NULL;
  const VivaProblemTest *test;
  const VivaPackIssue *issue;
  VivaProblem *problem;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *call = NULL;
      g_autofree char *check = NULL;
      gboolean converted = viva_problem_test_convert_legacy (cases[i].code, &call, &check);

      g_assert_cmpint (converted, ==, cases[i].call != NULL);
      g_assert_cmpstr (call, ==, cases[i].call);
      g_assert_cmpstr (check, ==, cases[i].check);
    }

  pack = viva_pack_new_from_bytes_full (bytes, &issues, &error);
  g_assert_no_error (error);
  problem = viva_pack_find_problem (pack, "p");
  test = viva_problem_get_test (problem, 0);
  g_assert_true (viva_problem_test_is_structured (test));
  g_assert_cmpstr (test->call, ==, "add(2, 3)");
  g_assert_cmpstr (test->check, ==, "assert result == 5, 'five'\n");
  g_assert_false (viva_problem_test_is_structured (viva_problem_get_test (problem, 1)));
  g_assert_cmpuint (viva_problem_get_n_in_process_tests (problem), ==, 1);

  issue = find_issue (issues, "problems[0].tests[0]");
  g_assert_nonnull (issue);
  g_assert_nonnull (strstr (issue->message, "converts on import"));
  issue = find_issue (issues, "problems[0].tests[1]");
  g_assert_nonnull (issue);
  g_assert_nonnull (strstr (issue->message, "does not convert"));
}

static void
test_problem (void)
{
  VivaProblem *problem = viva_problem_new ("p", "Title");
  const char * const props[] = { "title", "description", "starter-code", "hint", "reference", "rubric" };
  const char * const points[] = { "one", "two", NULL };
  VivaProblemType type;
  guint count = 0;

  for (guint i = 0; i < G_N_ELEMENTS (props); i++)
    {
      g_autofree char *signal = g_strconcat ("notify::", props[i], NULL);
      g_autofree char *value = NULL;
      gulong id = g_signal_connect (problem, signal, G_CALLBACK (notify_count_cb), &count);

      count = 0;
      g_object_set (problem, props[i], "one", NULL);
      g_object_set (problem, props[i], "one", NULL);
      g_assert_cmpuint (count, ==, 1);
      g_object_get (problem, props[i], &value, NULL);
      g_assert_cmpstr (value, ==, "one");
      g_signal_handler_disconnect (problem, id);
    }

  viva_problem_add_test (problem, "t", "assert True");
  viva_problem_add_question (problem, "q", points);
  g_assert_cmpuint (viva_problem_get_n_tests (problem), ==, 1);
  g_assert_cmpstrv (viva_problem_get_question (problem, 0)->points, points);

  g_assert_true (viva_problem_type_from_string ("debug", &type));
  g_assert_cmpint (type, ==, VIVA_PROBLEM_DEBUG);
  g_assert_false (viva_problem_type_from_string ("essay", NULL));
  g_assert_cmpstr (viva_problem_type_to_string (VIVA_PROBLEM_EXPLAIN), ==, "explain");

  g_assert_finalize_object (problem);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  viva_core_init ();

  g_test_add_func ("/viva/packs/pack/bundled", test_bundled);
  g_test_add_func ("/viva/packs/pack/good", test_good);
  for (guint i = 0; i < G_N_ELEMENTS (bad_cases); i++)
    {
      g_autofree char *name = g_strdup_printf ("/viva/packs/pack/bad/%s", bad_cases[i].file);
      g_test_add_data_func (name, &bad_cases[i], test_bad);
    }
  g_test_add_func ("/viva/packs/pack/every-issue", test_every_issue);
  g_test_add_func ("/viva/packs/pack/missing-test-code-sentence", test_missing_test_code_sentence);
  g_test_add_func ("/viva/packs/pack/duplicate-key-sentence", test_duplicate_key_sentence);
  g_test_add_func ("/viva/packs/pack/warnings", test_warnings);
  g_test_add ("/viva/packs/pack/too-large", Fixture, NULL, fixture_set_up, test_too_large, fixture_tear_down);
  g_test_add ("/viva/packs/pack/file-async", Fixture, NULL, fixture_set_up, test_file_async, fixture_tear_down);
  g_test_add ("/viva/packs/pack/round-trip", Fixture, NULL, fixture_set_up, test_round_trip, fixture_tear_down);
  g_test_add ("/viva/packs/pack/save-fails-cleanly", Fixture, NULL, fixture_set_up, test_save_fails_cleanly, fixture_tear_down);
  g_test_add_func ("/viva/packs/pack/validate-memory", test_validate_memory);
  g_test_add_func ("/viva/packs/pack/template-placeholders", test_template_placeholders);
  g_test_add_func ("/viva/packs/pack/schema-agrees", test_schema_agrees);
  g_test_add_func ("/viva/packs/pack/issue-boxed", test_issue_boxed);
  g_test_add_func ("/viva/packs/pack/properties", test_properties);
  g_test_add_func ("/viva/packs/pack/problem", test_problem);
  g_test_add_func ("/viva/packs/pack/shown-tests", test_shown_tests);
  g_test_add_func ("/viva/packs/pack/convert-legacy", test_convert_legacy);

  return g_test_run ();
}

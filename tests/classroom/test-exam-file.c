/* test-exam-file.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The viva-exam/1 loader: good exam files load with what they say; bad
 * ones report every error with its JSON path and do not load.
 */

#include "config.h"

#include <glib/gstdio.h>

#include "viva-core.h"
#include "viva-exam-file.h"

static char *
fixture_path (const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "classroom", "exams", name, NULL);
}

static VivaExamFile *
load_good (const char *name)
{
  g_autofree char *path = fixture_path (name);
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(GError) error = NULL;
  VivaExamFile *exam = viva_exam_file_load (path, &issues, &error);

  g_assert_no_error (error);
  g_assert_nonnull (exam);
  g_assert_cmpuint (issues->len, ==, 0);
  return exam;
}

static GPtrArray *
load_bad (const char  *name,
          char       **message)
{
  g_autofree char *path = fixture_path (name);
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(VivaExamFile) exam = viva_exam_file_load (path, &issues, &error);

  g_assert_null (exam);
  g_assert_error (error, VIVA_PACK_ERROR, (int)((VivaPackIssue *)g_ptr_array_index (issues, 0))->code);
  g_assert_nonnull (strstr (error->message, "cannot start"));
  if (message != NULL)
    *message = g_strdup (error->message);
  return g_steal_pointer (&issues);
}

/* An issue at @path whose message contains @needle. */
static void
assert_issue (GPtrArray     *issues,
              VivaPackError  code,
              const char    *path,
              const char    *needle)
{
  for (guint i = 0; i < issues->len; i++)
    {
      const VivaPackIssue *issue = g_ptr_array_index (issues, i);

      if (g_str_equal (issue->path, path) && issue->code == code &&
          (needle == NULL || strstr (issue->message, needle) != NULL))
        return;
    }

  for (guint i = 0; i < issues->len; i++)
    {
      g_autofree char *text = viva_pack_issue_to_string (g_ptr_array_index (issues, i));
      g_test_message ("issue: %s", text);
    }
  g_error ("no issue at “%s” (code %d) containing “%s”", path, code, needle ? needle : "");
}

static void
test_embedded (void)
{
  g_autoptr(VivaExamFile) exam = load_good ("good-embedded.json");
  g_autofree char *path = fixture_path ("good-embedded.json");
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *reports = g_build_filename (dir, "reports", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *digest = NULL;
  g_autoptr(JsonNode) ref = NULL;
  gsize length;

  g_assert_cmpstr (viva_exam_file_get_id (exam), ==, "tiny-quiz");
  g_assert_cmpstr (viva_exam_file_get_title (exam), ==, "Tiny quiz");
  g_assert_cmpstr (viva_exam_file_get_pack_id (exam), ==, "tiny");
  g_assert_nonnull (viva_exam_file_get_pack (exam));
  g_assert_nonnull (viva_pack_find_problem (viva_exam_file_get_pack (exam), "double"));
  g_assert_true (viva_exam_file_has_problem (exam, "double"));
  g_assert_false (viva_exam_file_has_problem (exam, "triple"));
  g_assert_cmpuint (viva_exam_file_get_time_limit (exam), ==, 45 * 60);
  g_assert_true (viva_exam_file_get_hints_allowed (exam));
  g_assert_cmpfloat (viva_exam_file_get_hint_cost (exam), ==, 10);
  g_assert_false (viva_exam_file_get_followup_allowed (exam));
  g_assert_true (viva_exam_file_has_examiner (exam));
  g_assert_cmpint (viva_exam_file_get_examiner_mode (exam), ==, VIVA_EXAMINER_MODE_OFFLINE);
  g_assert_null (viva_exam_file_get_base_url (exam));
  /* A relative report folder sits beside the exam file. */
  g_assert_cmpstr (viva_exam_file_get_report_folder (exam), ==, reports);

  /* The session keeps the path and the digest of the bytes, nothing more. */
  g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
  digest = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *)contents, length);
  g_assert_cmpstr (viva_exam_file_get_digest (exam), ==, digest);
  ref = viva_exam_file_to_ref (exam);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (ref), "digest"), ==, digest);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (ref), "path"), ==, path);
  g_assert_false (json_object_has_member (json_node_get_object (ref), "pack"));
  /* And the hint cost, which the report takes off the score. */
  g_assert_cmpfloat (json_object_get_double_member (json_node_get_object (ref), "hint_cost"), ==, 10);
}

static void
test_by_id (void)
{
  g_autoptr(VivaExamFile) exam = load_good ("good-by-id.json");
  g_autoptr(VivaPack) bundled = viva_pack_new_bundled ();
  g_autoptr(VivaPack) other = viva_pack_new ("other", "Other");
  g_autoptr(GError) error = NULL;

  g_assert_cmpstr (viva_exam_file_get_pack_id (exam), ==, "intro-ai");
  g_assert_null (viva_exam_file_get_pack (exam));
  g_assert_cmpuint (viva_exam_file_get_time_limit (exam), ==, 90 * 60);
  g_assert_false (viva_exam_file_get_hints_allowed (exam));
  g_assert_false (viva_exam_file_get_check_allowed (exam));
  {
    guint count = 0, minutes = 0;

    g_assert_true (viva_exam_file_get_grading_limit (exam, &count, &minutes));
    g_assert_cmpuint (count, ==, 3);
    g_assert_cmpuint (minutes, ==, 10);
  }
  g_assert_true (viva_exam_file_get_followup_allowed (exam));
  g_assert_cmpint (viva_exam_file_get_examiner_mode (exam), ==, VIVA_EXAMINER_MODE_MODEL);
  g_assert_cmpstr (viva_exam_file_get_base_url (exam), ==, "http://10.0.0.5:11434/v1");
  g_assert_cmpstr (viva_exam_file_get_model (exam), ==, "qwen3:8b");
  g_assert_cmpstr (viva_exam_file_get_language (exam), ==, "vi");
  g_assert_cmpstr (viva_exam_file_get_report_folder (exam), ==, "/srv/viva-reports");
  g_assert_cmpstr (viva_exam_file_get_problems (exam)[1], ==, "knn");

  g_assert_false (viva_exam_file_set_pack (exam, other, &error));
  g_assert_error (error, VIVA_PACK_ERROR, VIVA_PACK_ERROR_INVALID);
  g_clear_error (&error);

  g_assert_true (viva_exam_file_set_pack (exam, bundled, &error));
  g_assert_no_error (error);
  g_assert_true (viva_exam_file_get_pack (exam) == bundled);
  g_assert_true (viva_exam_file_has_problem (exam, "knn"));
  g_assert_false (viva_exam_file_has_problem (exam, "astar"));
}

static void
test_minimal (void)
{
  g_autoptr(VivaExamFile) exam = load_good ("good-minimal.json");
  g_autofree char *reports = g_build_filename (g_get_home_dir (), "Exam reports", NULL);
  g_autoptr(VivaPack) bundled = viva_pack_new_bundled ();
  g_autoptr(JsonNode) ref = viva_exam_file_to_ref (exam);

  g_assert_null (viva_exam_file_get_problems (exam));
  g_assert_cmpuint (viva_exam_file_get_time_limit (exam), ==, 0);
  g_assert_true (viva_exam_file_get_hints_allowed (exam));
  g_assert_cmpfloat (viva_exam_file_get_hint_cost (exam), ==, 0);
  /* Hints that cost nothing leave the session's record as it was. */
  g_assert_false (json_object_has_member (json_node_get_object (ref), "hint_cost"));
  g_assert_true (viva_exam_file_get_followup_allowed (exam));
  /* Check allowed and gradings unlimited when the keys are left out. */
  g_assert_true (viva_exam_file_get_check_allowed (exam));
  g_assert_false (viva_exam_file_get_grading_limit (exam, NULL, NULL));
  g_assert_false (viva_exam_file_has_examiner (exam));
  g_assert_cmpstr (viva_exam_file_get_report_folder (exam), ==, reports);

  g_assert_true (viva_exam_file_set_pack (exam, bundled, NULL));
  g_assert_true (viva_exam_file_has_problem (exam, "astar"));
}

/* The Check and grading-limit keys, wrong in each way, each an error at
 * its path; an exam with any of them does not load. */
static void
test_check_keys (void)
{
  static const struct {
    const char *keys;
    const char *path;
  } cases[] = {
    { "\"check\": true", "check" },
    { "\"check\": {}", "check.allowed" },
    { "\"check\": {\"allowed\": \"no\"}", "check.allowed" },
    { "\"check\": {\"allowed\": false, \"cost\": 1}", "check.cost" },
    { "\"grading_limit\": {\"count\": 0, \"per_minutes\": 10}", "grading_limit.count" },
    { "\"grading_limit\": {\"count\": 2.5, \"per_minutes\": 10}", "grading_limit.count" },
    { "\"grading_limit\": {\"count\": 3}", "grading_limit.per_minutes" },
    { "\"grading_limit\": {\"count\": 3, \"per_minutes\": 100000}", "grading_limit.per_minutes" },
    { "\"grading_limit\": {\"count\": 3, \"per_minute\": 10}", "grading_limit.per_minute" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = g_strdup_printf ("{\"format\": \"viva-exam/1\", \"id\": \"m\", \"title\": \"M\", "
                                               "\"pack\": \"intro-ai\", \"report_folder\": \"/tmp\", %s}",
                                               cases[i].keys);
      g_autoptr(GBytes) bytes = g_bytes_new (text, strlen (text));
      g_autoptr(GPtrArray) issues = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(VivaExamFile) exam = viva_exam_file_new_from_bytes (bytes, NULL, &issues, &error);
      gboolean found = FALSE;

      g_test_message ("%s", cases[i].keys);
      g_assert_null (exam);
      g_assert_nonnull (issues);
      for (guint j = 0; j < issues->len; j++)
        {
          const VivaPackIssue *issue = g_ptr_array_index (issues, j);

          g_test_message ("  %s: %s", issue->path, issue->message);
          found |= g_strcmp0 (issue->path, cases[i].path) == 0;
        }
      g_assert_true (found);
    }
}

static void
test_many_errors (void)
{
  g_autofree char *message = NULL;
  g_autoptr(GPtrArray) issues = load_bad ("bad-many.json", &message);

  /* Every error, not just the first. */
  assert_issue (issues, VIVA_PACK_ERROR_UNKNOWN_KEY, "time_limt", "time_limit");
  assert_issue (issues, VIVA_PACK_ERROR_INVALID, "id", NULL);
  assert_issue (issues, VIVA_PACK_ERROR_INVALID, "title", "empty");
  assert_issue (issues, VIVA_PACK_ERROR_INVALID, "problems[1]", "triple");
  assert_issue (issues, VIVA_PACK_ERROR_DUPLICATE, "problems[2]", NULL);
  assert_issue (issues, VIVA_PACK_ERROR_WRONG_TYPE, "problems[3]", NULL);
  assert_issue (issues, VIVA_PACK_ERROR_INVALID, "time_limit", "soon");
  assert_issue (issues, VIVA_PACK_ERROR_WRONG_TYPE, "hints.allowed", NULL);
  assert_issue (issues, VIVA_PACK_ERROR_INVALID, "hints.cost", "150");
  assert_issue (issues, VIVA_PACK_ERROR_UNKNOWN_KEY, "hints.price", NULL);
  assert_issue (issues, VIVA_PACK_ERROR_WRONG_TYPE, "followup", NULL);
  assert_issue (issues, VIVA_PACK_ERROR_INVALID, "examiner.mode", "cloud");
  assert_issue (issues, VIVA_PACK_ERROR_INVALID, "examiner.base_url", "ftp://x");
  assert_issue (issues, VIVA_PACK_ERROR_MISSING, "report_folder", NULL);
  g_assert_cmpuint (issues->len, ==, 14);

  /* The message a teacher reads names each path. */
  g_assert_nonnull (strstr (message, "14 errors"));
  g_assert_nonnull (strstr (message, "\nhints.cost: "));
  g_assert_nonnull (strstr (message, "\nexaminer.base_url: "));
}

static void
test_bad_pack (void)
{
  g_autoptr(GPtrArray) issues = load_bad ("bad-pack.json", NULL);

  /* The embedded pack's own errors, at their place in the exam file. */
  assert_issue (issues, VIVA_PACK_ERROR_MISSING, "pack.problems[0].reference_solution", NULL);
}

static void
test_file_level (void)
{
  g_autoptr(GPtrArray) format = load_bad ("bad-format.json", NULL);
  g_autoptr(GPtrArray) newer = load_bad ("bad-newer.json", NULL);
  g_autoptr(GPtrArray) time = load_bad ("bad-time.json", NULL);
  g_autoptr(GPtrArray) truncated = load_bad ("bad-truncated.json", NULL);
  g_autoptr(GPtrArray) empty = load_bad ("bad-empty.json", NULL);
  g_autoptr(GPtrArray) array = load_bad ("bad-array.json", NULL);
  g_autoptr(GPtrArray) deep = load_bad ("bad-deep.json", NULL);

  assert_issue (format, VIVA_PACK_ERROR_FORMAT, "format", "not an exam file");
  assert_issue (newer, VIVA_PACK_ERROR_FORMAT, "format", "update Viva");
  assert_issue (time, VIVA_PACK_ERROR_INVALID, "time_limit", "10 seconds");
  assert_issue (truncated, VIVA_PACK_ERROR_SYNTAX, "", NULL);
  assert_issue (empty, VIVA_PACK_ERROR_EMPTY, "", NULL);
  assert_issue (array, VIVA_PACK_ERROR_WRONG_TYPE, "", "a list");
  assert_issue (deep, VIVA_PACK_ERROR_TOO_DEEP, "", NULL);
}

static void
test_missing_file (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(VivaExamFile) exam = viva_exam_file_load ("/nonexistent/exam.json", &issues, &error);

  g_assert_null (exam);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_null (issues);
}

static void
test_duration (void)
{
  static const struct { const char *text; guint seconds; } good[] = {
    { "45m", 2700 }, { "1h30m", 5400 }, { "1h 30m", 5400 }, { "90s", 90 },
    { "2h", 7200 }, { "1h 15m 30s", 4530 }, { " 20 s ", 20 },
  };
  static const char * const bad[] = { "", "45", "m", "30m1h", "1h1h", "1.5h", "-5m", "0m", "45min", "1d" };

  for (guint i = 0; i < G_N_ELEMENTS (good); i++)
    {
      guint seconds = 0;

      g_assert_true (viva_exam_file_parse_duration (good[i].text, &seconds));
      g_assert_cmpuint (seconds, ==, good[i].seconds);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    g_assert_false (viva_exam_file_parse_duration (bad[i], NULL));
}

static void
load_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

static void
test_async (void)
{
  g_autofree char *good = fixture_path ("good-embedded.json");
  g_autofree char *bad = fixture_path ("bad-many.json");
  g_autoptr(GAsyncResult) good_result = NULL;
  g_autoptr(GAsyncResult) bad_result = NULL;
  g_autoptr(VivaExamFile) exam = NULL;
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(GError) error = NULL;

  viva_exam_file_load_async (good, NULL, load_cb, &good_result);
  viva_exam_file_load_async (bad, NULL, load_cb, &bad_result);
  while (good_result == NULL || bad_result == NULL)
    g_main_context_iteration (NULL, TRUE);

  exam = viva_exam_file_load_finish (good_result, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (viva_exam_file_get_id (exam), ==, "tiny-quiz");
  g_assert_finalize_object (g_steal_pointer (&exam));

  exam = viva_exam_file_load_finish (bad_result, &issues, &error);
  g_assert_null (exam);
  g_assert_nonnull (error);
  g_assert_cmpuint (issues->len, ==, 14);
}

/* An exam naming an installed pack has its problem ids checked in the same
 * pass as the rest of the file: a teacher sees every error at once. */
static void
test_installed_one_pass (void)
{
  static const char text[] =
    "{\"format\": \"viva-exam/1\", \"id\": \"ai-midterm\", \"title\": \"AI midterm\","
    " \"pack\": \"intro-ai\", \"problems\": [\"kmeans\", \"knn-typo\"],"
    " \"time_limit\": \"ninety minutes\", \"hints\": {\"allowed\": \"yes\"},"
    " \"report_folder\": 7, \"colour\": \"blue\"}";
  g_autoptr(GBytes) bytes = g_bytes_new_static (text, strlen (text));
  g_autoptr(VivaPack) bundled = viva_pack_new_bundled ();
  g_autoptr(GListStore) packs = g_list_store_new (VIVA_TYPE_PACK);
  g_autoptr(GHashTable) installed = NULL;
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(GPtrArray) without = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) error_without = NULL;
  g_autoptr(VivaExamFile) exam = NULL;
  gboolean typo = FALSE;

  g_list_store_append (packs, bundled);
  installed = viva_exam_file_installed_problems_new (G_LIST_MODEL (packs));

  exam = viva_exam_file_new_from_bytes_full (bytes, "/srv/exams/midterm.json", installed, &issues, &error);
  g_assert_null (exam);
  g_assert_nonnull (issues);
  for (guint i = 0; i < issues->len; i++)
    {
      const VivaPackIssue *issue = g_ptr_array_index (issues, i);

      if (g_str_equal (issue->path, "problems[1]"))
        {
          typo = TRUE;
          g_assert_nonnull (strstr (issue->message, "knn-typo"));
        }
    }
  g_assert_true (typo);
  /* The four others are there too, and the message lists every one. */
  g_assert_cmpuint (issues->len, ==, 5);
  g_assert_nonnull (strstr (error->message, "knn-typo"));
  g_assert_nonnull (strstr (error->message, "time_limit"));

  /* Without the installed packs the typo cannot be seen. */
  g_assert_null (viva_exam_file_new_from_bytes_full (bytes, "/srv/exams/midterm.json", NULL, &without, &error_without));
  g_assert_cmpuint (without->len, ==, 4);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  viva_core_init ();

  g_test_add_func ("/viva/exam-file/embedded", test_embedded);
  g_test_add_func ("/viva/exam-file/by-id", test_by_id);
  g_test_add_func ("/viva/exam-file/minimal", test_minimal);
  g_test_add_func ("/viva/exam-file/check-keys", test_check_keys);
  g_test_add_func ("/viva/exam-file/many-errors", test_many_errors);
  g_test_add_func ("/viva/exam-file/bad-pack", test_bad_pack);
  g_test_add_func ("/viva/exam-file/file-level", test_file_level);
  g_test_add_func ("/viva/exam-file/missing-file", test_missing_file);
  g_test_add_func ("/viva/exam-file/duration", test_duration);
  g_test_add_func ("/viva/exam-file/async", test_async);
  g_test_add_func ("/viva/exam-file/installed-one-pass", test_installed_one_pass);

  return g_test_run ();
}

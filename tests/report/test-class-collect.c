/* test-class-collect.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>

#include "viva-class-results.h"
#include "viva-core.h"
#include "viva-test-csv.h"
#include "viva-test-util.h"

/* A classroom: five students defend the same problem through the real
 * viva-cli and worker with the offline examiner — one correct, one wrong,
 * one who swapped a correct solution into the report afterwards, one who
 * edited a wrong defense's report to say "pass", one whose code cheats
 * (its results claim to equal anything) — and the teacher collects the
 * reports with viva-cli class collect --regrade. */

#define CHEAT \
  "class Anything(str):\n" \
  "    def __eq__(self, other):\n" \
  "        return True\n" \
  "    def __ne__(self, other):\n" \
  "        return False\n" \
  "    __hash__ = str.__hash__\n" \
  "\n" \
  "\n" \
  "def knn_predict(train_X, train_y, x, k):\n" \
  "    return Anything(train_y[0])\n"


static char *classroom;     /* a folder holding reports/ and the work files */
static char *reports_dir;
static char *pack_path;


static int
cli (const char * const  *args,
     char               **out)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;

  g_ptr_array_add (argv, (gpointer)g_getenv ("VIVA_CLI"));
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer)args[i]);
  g_ptr_array_add (argv, NULL);

  process = g_subprocess_newv ((const char * const *)argv->pdata,
                               G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (process, NULL, NULL, out, &err, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (process));
  if (err != NULL && err[0] != '\0')
    g_test_message ("stderr: %s", err);

  return g_subprocess_get_exit_status (process);
}

static JsonNode *
parse (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);

  return json_node_copy (json_parser_get_root (parser));
}

static JsonNode *
read_json (const char *path)
{
  g_autofree char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return parse (text);
}

static void
write_json (const char *path,
            JsonNode   *node)
{
  g_autofree char *text = json_to_string (node, TRUE);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
}

static char *
problem_part (const char *member)
{
  g_autoptr(JsonNode) pack = read_json (pack_path);
  JsonArray *problems = json_object_get_array_member (json_node_get_object (pack), "problems");

  for (guint i = 0; i < json_array_get_length (problems); i++)
    {
      JsonObject *problem = json_array_get_object_element (problems, i);

      if (g_str_equal (json_object_get_string_member (problem, "id"), "knn"))
        return g_strdup (json_object_get_string_member (problem, member));
    }

  g_assert_not_reached ();
}

/* One student's defense, its report exported as JSON into reports/ under
 * the name a report gets, the student named with --student-name and
 * --student-id. */
static char *
defend (const char *name,
        const char *id,
        const char *code_member)
{
  g_autofree char *code = code_member ? problem_part (code_member) : g_strdup (CHEAT);
  g_autofree char *code_path = g_build_filename (classroom, "code.py", NULL);
  g_autofree char *answers = g_build_filename (classroom, "answers.json", NULL);
  g_autofree char *sessions = g_build_filename (classroom, "sessions", NULL);
  g_autofree char *out = NULL;
  g_autofree char *report_path = NULL;
  g_autofree char *file_name = NULL;
  g_autoptr(JsonNode) verdict = NULL;
  g_autoptr(JsonNode) report = NULL;
  JsonObject *student;
  g_auto(GStrv) lines = NULL;
  const char *session;
  guint n;

  g_assert_true (g_file_set_contents (code_path, code, -1, NULL));
  g_assert_true (g_file_set_contents (answers, "[\"I sort by distance and count the votes.\", \"'a'\"]", -1, NULL));

  {
    const char *args[] = { "defend", "--pack", pack_path, "--problem", "knn", "--code", code_path,
                           "--answers", answers, "--offline", "--session-dir", sessions,
                           "--student-name", name, "--student-id", id, "--json", NULL };
    g_assert_cmpint (cli (args, &out), ==, 0);
  }

  lines = g_strsplit (g_strstrip (out), "\n", -1);
  n = g_strv_length (lines);
  verdict = parse (lines[n - 1]);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (verdict), "event"), ==, "verdict");
  session = json_object_get_string_member (json_node_get_object (verdict), "session");

  file_name = g_strdup_printf ("%s-%s-knn-20261130-1000.json", name, id);
  report_path = g_build_filename (reports_dir, file_name, NULL);
  {
    const char *args[] = { "report", session, "--session-dir", sessions, "--json", report_path, NULL };
    g_assert_cmpint (cli (args, NULL), ==, 0);
  }

  /* The identity given to viva-cli defend is in the report. */
  report = read_json (report_path);
  student = json_object_get_object_member (json_node_get_object (report), "student");
  g_assert_nonnull (student);
  g_assert_cmpstr (json_object_get_string_member (student, "name"), ==, name);
  g_assert_cmpstr (json_object_get_string_member (student, "id"), ==, id);

  return g_steal_pointer (&report_path);
}

static void
setup_classroom (void)
{
  g_autofree char *correct = NULL;
  g_autofree char *wrong = NULL;
  g_autofree char *swapped = NULL;
  g_autofree char *edited = NULL;
  g_autofree char *cheat = NULL;
  g_autofree char *reference = NULL;
  g_autoptr(JsonNode) report = NULL;
  JsonObject *root, *verdict, *grade, *paste;

  classroom = g_dir_make_tmp ("viva-class-XXXXXX", NULL);
  reports_dir = g_build_filename (classroom, "reports", NULL);
  g_assert_cmpint (g_mkdir (reports_dir, 0755), ==, 0);
  pack_path = g_build_filename (g_getenv ("VIVA_SOURCE_ROOT"), "data", "packs", "intro-ai.json", NULL);

  correct = defend ("Ana Lima", "s001", "reference_solution");
  wrong = defend ("Binh Tran", "s002", "starter_code");
  swapped = defend ("Chen Wei", "s003", "starter_code");
  edited = defend ("Dao Minh", "s004", "starter_code");
  cheat = defend ("Eve Ngo", "s005", NULL);

  /* Chen pasted a classmate's solution into the report after a failed
   * defense. */
  report = read_json (swapped);
  root = json_node_get_object (report);
  reference = problem_part ("reference_solution");
  json_object_set_string_member (json_object_get_object_member (root, "code"), "text", reference);
  paste = json_object_new ();
  json_object_set_string_member (paste, "time", "2026-11-30T10:05:00Z");
  json_object_set_string_member (paste, "kind", "paste");
  json_object_set_int_member (paste, "length", 900);
  if (!json_object_has_member (root, "timeline"))
    json_object_set_array_member (root, "timeline", json_array_new ());
  json_array_add_object_element (json_object_get_array_member (root, "timeline"), paste);
  write_json (swapped, report);
  g_clear_pointer (&report, json_node_unref);

  /* Dao edited a failed defense's report to say "pass", with the engine's
   * facts made to match. */
  report = read_json (edited);
  root = json_node_get_object (report);
  verdict = json_object_get_object_member (root, "verdict");
  json_object_set_string_member (verdict, "verdict", "pass");
  json_object_set_int_member (verdict, "score", 100);
  grade = json_object_new ();
  json_object_set_int_member (grade, "passed", 6);
  json_object_set_int_member (grade, "total", 6);
  json_object_set_int_member (grade, "out_of_process", 6);
  json_object_set_boolean_member (grade, "pass", TRUE);
  json_object_set_object_member (root, "grade", grade);
  write_json (edited, report);
}

static int
column (GPtrArray  *header,
        const char *name)
{
  for (guint i = 0; i < header->len; i++)
    if (g_str_equal (g_ptr_array_index (header, i), name))
      return i;

  g_error ("no column %s", name);
}

static GPtrArray *
row_of (GPtrArray  *rows,
        const char *student_id)
{
  GPtrArray *header = g_ptr_array_index (rows, 0);

  for (guint i = 1; i < rows->len; i++)
    {
      GPtrArray *row = g_ptr_array_index (rows, i);

      g_assert_cmpuint (row->len, ==, header->len);
      if (g_str_equal (g_ptr_array_index (row, column (header, "student_id")), student_id))
        return row;
    }

  g_error ("no row for %s", student_id);
}

#define CELL(row, name) ((const char *)g_ptr_array_index ((row), column (header, (name))))

static gboolean
has_flag (const char *flags,
          const char *flag)
{
  g_auto(GStrv) parts = g_strsplit (flags, ";", -1);

  return g_strv_contains ((const char * const *)parts, flag);
}

static void
test_classroom (void)
{
  g_autofree char *csv_path = g_build_filename (classroom, "class.csv", NULL);
  g_autofree char *out = NULL;
  g_autofree char *csv = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(JsonNode) summary = NULL;
  g_auto(GStrv) lines = NULL;
  GPtrArray *header, *row;
  const char *args[] = { "class", "collect", "--regrade", "--csv", csv_path, "--json", reports_dir, NULL };

  g_assert_cmpint (cli (args, &out), ==, 0);

  lines = g_strsplit (g_strstrip (out), "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 6);
  summary = parse (lines[5]);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (summary), "event"), ==, "summary");
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (summary), "reports"), ==, 5);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (summary), "students"), ==, 5);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (summary), "flagged"), ==, 4);
  for (guint i = 0; i < 5; i++)
    {
      g_autoptr(JsonNode) event = parse (lines[i]);
      g_assert_cmpstr (json_object_get_string_member (json_node_get_object (event), "event"), ==, "row");
    }

  g_assert_true (g_file_get_contents (csv_path, &csv, NULL, NULL));
  g_assert_true (g_str_has_prefix (csv, "student_name,student_id,pack,problem,session,status,verdict,score,"
                                        "hidden_passed,hidden_total,regraded_passed,regraded_total,flags"));
  rows = viva_test_parse_csv (csv);
  g_assert_cmpuint (rows->len, ==, 6);
  header = g_ptr_array_index (rows, 0);

  /* Every student is in the table. */
  row = row_of (rows, "s001");
  g_assert_cmpstr (CELL (row, "student_name"), ==, "Ana Lima");
  g_assert_cmpstr (CELL (row, "pack"), ==, "intro-ai");
  g_assert_cmpstr (CELL (row, "problem"), ==, "knn");
  g_assert_cmpstr (CELL (row, "verdict"), ==, "pass");
  g_assert_cmpstr (CELL (row, "regraded_passed"), ==, "6");
  g_assert_cmpstr (CELL (row, "regraded_total"), ==, "6");
  g_assert_cmpstr (CELL (row, "flags"), ==, "");
  /* The score built from items: every test passed gives the tests' 60 of
   * 100; the prediction and the question add theirs. */
  g_assert_cmpfloat (g_ascii_strtod (CELL (row, "item_points"), NULL), >=, 60);
  g_assert_cmpfloat (g_ascii_strtod (CELL (row, "item_points"), NULL), <=, 100);
  /* Items for a teacher: what the report's verdict marked (the offline
   * scorer sends an answer it cannot match confidently). */
  {
    g_autofree char *path = g_build_filename (reports_dir, "Ana Lima-s001-knn-20261130-1000.json", NULL);
    g_autofree char *text = NULL;
    g_autoptr(JsonNode) report = NULL;
    g_autofree char *want = NULL;
    JsonArray *items;
    guint n = 0;

    g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
    report = parse (text);
    items = json_object_get_array_member (json_object_get_object_member (json_node_get_object (report), "verdict"),
                                          "items");
    for (guint i = 0; i < json_array_get_length (items); i++)
      n += json_object_get_boolean_member_with_default (json_array_get_object_element (items, i), "needs_review", FALSE);
    want = g_strdup_printf ("%u", n);
    g_assert_cmpstr (CELL (row, "items_review"), ==, want);
  }

  row = row_of (rows, "s002");
  g_assert_cmpstr (CELL (row, "student_name"), ==, "Binh Tran");
  g_assert_cmpstr (CELL (row, "verdict"), ==, "fail");
  g_assert_cmpint (atoi (CELL (row, "regraded_passed")), <, 6);
  g_assert_true (has_flag (CELL (row, "flags"), "tests-failed"));
  g_assert_false (has_flag (CELL (row, "flags"), "verdict-contradicts-tests"));

  row = row_of (rows, "s003");
  g_assert_cmpstr (CELL (row, "student_name"), ==, "Chen Wei");
  g_assert_true (has_flag (CELL (row, "flags"), "code-edited"));
  g_assert_true (has_flag (CELL (row, "flags"), "pasted"));

  row = row_of (rows, "s004");
  g_assert_cmpstr (CELL (row, "student_name"), ==, "Dao Minh");
  g_assert_cmpstr (CELL (row, "verdict"), ==, "pass");
  g_assert_cmpstr (CELL (row, "hidden_passed"), ==, "6");
  g_assert_cmpint (atoi (CELL (row, "regraded_passed")), <, 6);
  g_assert_true (has_flag (CELL (row, "flags"), "regrade-mismatch"));
  g_assert_true (has_flag (CELL (row, "flags"), "verdict-contradicts-tests"));
  g_assert_nonnull (strstr (CELL (row, "note"), "Recorded 6/6, re-graded"));

  /* The cheat got past the defense's own probes; judged where its code
   * does not run, it passes no hidden test. */
  row = row_of (rows, "s005");
  g_assert_cmpstr (CELL (row, "student_name"), ==, "Eve Ngo");
  g_assert_cmpstr (CELL (row, "regraded_passed"), ==, "0");
  g_assert_true (has_flag (CELL (row, "flags"), "tests-failed"));
}

static void
test_without_regrade (void)
{
  g_autofree char *csv_path = g_build_filename (classroom, "plain.csv", NULL);
  g_autofree char *csv = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  GPtrArray *header, *row;
  const char *args[] = { "class", "collect", "--csv", csv_path, reports_dir, NULL };

  g_assert_cmpint (cli (args, NULL), ==, 0);
  g_assert_true (g_file_get_contents (csv_path, &csv, NULL, NULL));
  rows = viva_test_parse_csv (csv);
  header = g_ptr_array_index (rows, 0);

  for (guint i = 1; i < rows->len; i++)
    {
      row = g_ptr_array_index (rows, i);
      g_assert_cmpstr (CELL (row, "regraded_passed"), ==, "");
      g_assert_cmpstr (CELL (row, "regraded_total"), ==, "");
    }

  /* The edited report's own facts contradict nothing without a re-grade,
   * but the code swapped in afterwards still shows. */
  row = row_of (rows, "s003");
  g_assert_true (has_flag (CELL (row, "flags"), "code-edited"));
}

static void
test_bad_input (void)
{
  g_autofree char *bad = g_build_filename (classroom, "bad", NULL);
  g_autofree char *good = g_build_filename (reports_dir, "Ana Lima-s001-knn-20261130-1000.json", NULL);
  g_autofree char *not_viva = g_build_filename (bad, "notes.json", NULL);
  g_autofree char *truncated = g_build_filename (bad, "truncated.json", NULL);
  g_autofree char *newer = g_build_filename (bad, "newer.json", NULL);
  g_autofree char *unknown = g_build_filename (bad, "unknown.json", NULL);
  g_autofree char *text = NULL;
  g_autofree char *out = NULL;
  g_autoptr(JsonNode) report = NULL;
  g_auto(GStrv) lines = NULL;
  const char *args[] = { "class", "collect", "--regrade", "--json", bad, NULL };
  guint unreadable = 0, unknown_pack = 0, fine = 0;

  g_assert_cmpint (g_mkdir (bad, 0755), ==, 0);
  g_assert_true (g_file_set_contents (not_viva, "{\"name\": \"my notes\", \"items\": [1, 2]}", -1, NULL));
  g_assert_true (g_file_get_contents (good, &text, NULL, NULL));
  g_assert_true (g_file_set_contents (truncated, text, strlen (text) / 2, NULL));

  report = parse (text);
  json_object_set_string_member (json_node_get_object (report), "format", "viva-report/7");
  write_json (newer, report);
  json_object_set_string_member (json_node_get_object (report), "format", "viva-report/1");
  json_object_set_string_member (json_object_get_object_member (json_node_get_object (report), "problem"),
                                 "pack_id", "a-pack-nobody-has");
  write_json (unknown, report);

  /* And a good one beside them, still collected. */
  {
    g_autofree char *copy = g_build_filename (bad, "good.json", NULL);
    g_assert_true (g_file_set_contents (copy, text, -1, NULL));
  }

  g_assert_cmpint (cli (args, &out), ==, 1);
  lines = g_strsplit (g_strstrip (out), "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 6);
  for (guint i = 0; i < 5; i++)
    {
      g_autoptr(JsonNode) event = parse (lines[i]);
      JsonObject *row = json_node_get_object (event);
      JsonArray *flags = json_object_get_array_member (row, "flags");
      const char *file = json_object_get_string_member (row, "file");

      g_assert_cmpstr (json_object_get_string_member (row, "event"), ==, "row");
      if (g_str_has_suffix (file, "good.json"))
        {
          g_assert_cmpuint (json_array_get_length (flags), ==, 0);
          g_assert_cmpint (json_object_get_int_member (row, "regraded_passed"), ==, 6);
          fine++;
        }
      else if (g_str_has_suffix (file, "unknown.json"))
        {
          g_assert_cmpstr (json_array_get_string_element (flags, 0), ==, "unknown-pack");
          g_assert_nonnull (strstr (json_object_get_string_member (row, "note"), "a-pack-nobody-has"));
          unknown_pack++;
        }
      else
        {
          g_assert_cmpstr (json_array_get_string_element (flags, 0), ==, "unreadable");
          g_assert_cmpstr (json_object_get_string_member (row, "status"), ==, "unreadable");
          if (g_str_has_suffix (file, "newer.json"))
            g_assert_nonnull (strstr (json_object_get_string_member (row, "note"), "viva-report/7"));
          unreadable++;
        }
    }
  g_assert_cmpuint (fine, ==, 1);
  g_assert_cmpuint (unknown_pack, ==, 1);
  g_assert_cmpuint (unreadable, ==, 3);

  viva_test_remove_tree (bad);
}

static void
test_usage (void)
{
  const char *none[] = { "class", "collect", NULL };
  const char *missing[] = { "class", "collect", "/nonexistent/reports", NULL };
  const char *unknown[] = { "class", "gather", reports_dir, NULL };

  g_assert_cmpint (cli (none, NULL), ==, 2);
  g_assert_cmpint (cli (unknown, NULL), ==, 2);
  g_assert_cmpint (cli (missing, NULL), ==, 1);
}

static void
test_exports (void)
{
  g_autofree char *gradebook_path = g_build_filename (classroom, "gradebook.csv", NULL);
  g_autofree char *html_path = g_build_filename (classroom, "class.html", NULL);
  g_autofree char *gradebook = NULL;
  g_autofree char *html = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  GPtrArray *header;
  const char *args[] = { "class", "collect", "--gradebook-csv", gradebook_path, "--html", html_path, reports_dir, NULL };

  g_assert_cmpint (cli (args, NULL), ==, 0);

  g_assert_true (g_file_get_contents (gradebook_path, &gradebook, NULL, NULL));
  rows = viva_test_parse_csv (gradebook);
  header = g_ptr_array_index (rows, 0);
  g_assert_cmpuint (rows->len, ==, 6);
  g_assert_cmpuint (header->len, ==, 6);
  g_assert_cmpstr (g_ptr_array_index (header, 0), ==, "Student");
  g_assert_cmpstr (g_ptr_array_index (header, 1), ==, "ID");
  g_assert_cmpstr (g_ptr_array_index (header, 2), ==, "SIS User ID");
  g_assert_cmpstr (g_ptr_array_index (header, 3), ==, "SIS Login ID");
  g_assert_cmpstr (g_ptr_array_index (header, 4), ==, "Section");
  g_assert_cmpstr (g_ptr_array_index (header, 5), ==, "k-nearest neighbours (knn)");
  for (guint i = 1; i < rows->len; i++)
    {
      GPtrArray *row = g_ptr_array_index (rows, i);

      g_assert_cmpuint (row->len, ==, 6);
      if (g_str_equal (g_ptr_array_index (row, 2), "s001"))
        g_assert_cmpstr (g_ptr_array_index (row, 5), ==, "100");
    }

  g_assert_true (g_file_get_contents (html_path, &html, NULL, NULL));
  g_assert_nonnull (strstr (html, "Binh Tran"));
  g_assert_nonnull (strstr (html, "Dao Minh"));
  g_assert_nonnull (strstr (html, "5 reports from 5 students"));
}

static void
store_result_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  *(GAsyncResult **)user_data = g_object_ref (result);
}

static void
test_csv_quoting (void)
{
  g_autoptr(VivaClassResults) results = viva_class_results_new ();
  g_autofree char *good = g_build_filename (reports_dir, "Ana Lima-s001-knn-20261130-1000.json", NULL);
  g_autofree char *odd = g_build_filename (classroom, "odd.json", NULL);
  g_autoptr(JsonNode) report = read_json (good);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autofree char *csv = NULL;
  JsonObject *student = json_object_get_object_member (json_node_get_object (report), "student");
  const char *paths[] = { odd, NULL };
  GPtrArray *header, *row;

  json_object_set_string_member (student, "name", "=HYPERLINK(\"http://x\"), \"Bob\"\nNew line");
  write_json (odd, report);

  viva_class_results_collect_async (results, paths, NULL, store_result_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (viva_class_results_collect_finish (results, result, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (viva_class_results_get_reports (results)), ==, 1);

  csv = viva_class_results_to_csv (results);
  rows = viva_test_parse_csv (csv);
  header = g_ptr_array_index (rows, 0);
  row = g_ptr_array_index (rows, 1);
  /* The name survives, but a spreadsheet does not read it as a formula. */
  g_assert_cmpstr (CELL (row, "student_name"), ==, "'=HYPERLINK(\"http://x\"), \"Bob\"\nNew line");
  g_unlink (odd);
  g_clear_pointer (&rows, g_ptr_array_unref);
  g_clear_object (&result);
  g_assert_finalize_object (g_steal_pointer (&results));
}

int
main (int   argc,
      char *argv[])
{
  int status;

  viva_core_init ();
  g_test_init (&argc, &argv, NULL);

  setup_classroom ();

  g_test_add_func ("/viva/class/collect/classroom", test_classroom);
  g_test_add_func ("/viva/class/collect/without-regrade", test_without_regrade);
  g_test_add_func ("/viva/class/collect/bad-input", test_bad_input);
  g_test_add_func ("/viva/class/collect/usage", test_usage);
  g_test_add_func ("/viva/class/collect/exports", test_exports);
  g_test_add_func ("/viva/class/results/csv-quoting", test_csv_quoting);

  status = g_test_run ();
  viva_test_remove_tree (classroom);

  return status;
}

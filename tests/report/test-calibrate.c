/* test-calibrate.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

#include "viva-calibration.h"
#include "viva-class-results.h"
#include "viva-core.h"
#include "viva-teacher-scores.h"
#include "viva-test-cli.h"
#include "viva-test-csv.h"
#include "viva-test-util.h"

/* Calibration against a teacher: ICC(3,1), Cohen's kappa and the mean
 * difference, checked against an independent computation in numpy
 * (calibration_numpy.py: the textbook sums of squares and a numerically
 * integrated F quantile) on a class with known agreement; the edge cases
 * with their sentences; the teacher's CSV as hostile input; and the real
 * viva-cli (calibrate, and class collect grading by the teacher's score)
 * over reports of a real defense. */

/* Twelve defenses: the teacher's scores, and Viva's, about 3 points
 * harsher with some noise; verdicts pass from 60, with two disagreements
 * and one defense the teacher gave no verdict. */
static const struct {
  double viva;
  double teacher;
  int    viva_verdict;
  int    teacher_verdict;   /* -1: none */
} fixture[] = {
  { 50, 55, 0, 0 }, { 58, 60, 0, 1 }, { 60, 62, 1, 1 }, { 65, 70, 1, 1 },
  { 70, 72, 1, 1 }, { 74, 75, 1, 1 }, { 76, 80, 1, 1 }, { 80, 82, 1, -1 },
  { 80, 85, 1, 1 }, { 88, 90, 1, 1 }, { 92, 93, 1, 1 }, { 55, 52, 0, 0 },
};

static char *classroom;
static char *good_json;

static JsonObject *
run_numpy (const char *input)
{
  g_autofree char *script = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "report", "calibration_numpy.py", NULL);
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                              &error, "/usr/bin/python3", script, NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (process, input, NULL, &out, &err, &error);
  g_assert_no_error (error);
  if (!g_subprocess_get_successful (process))
    g_error ("numpy's computation failed (run tools/setup for python3-numpy): %s", err);

  json_parser_load_from_data (parser, out, -1, &error);
  g_assert_no_error (error);
  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

static char *
fixture_json (void)
{
  g_autoptr(GString) text = g_string_new ("{\"pairs\":[");

  for (guint i = 0; i < G_N_ELEMENTS (fixture); i++)
    g_string_append_printf (text, "%s[%g,%g,%d,%d]", i ? "," : "", fixture[i].viva, fixture[i].teacher,
                            fixture[i].viva_verdict, fixture[i].teacher_verdict);
  g_string_append (text, "],\"quantiles\":[[0.975,11,11],[0.975,1,5],[0.5,2,2],[0.025,3,7],[0.975,4,4],[0.9,29,29]]}");

  return g_string_free (g_steal_pointer (&text), FALSE);
}

static void
assert_interval (JsonObject *numpy,
                 const char *name,
                 double      lower,
                 double      upper)
{
  JsonArray *ci = json_object_get_array_member (numpy, name);

  g_assert_cmpfloat_with_epsilon (lower, json_array_get_double_element (ci, 0), 1e-5);
  g_assert_cmpfloat_with_epsilon (upper, json_array_get_double_element (ci, 1), 1e-5);
}

static void
test_against_numpy (void)
{
  g_autofree char *input = fixture_json ();
  g_autoptr(JsonObject) numpy = run_numpy (input);
  g_autoptr(VivaCalibration) calibration = viva_calibration_new ();
  g_autofree char *difference_text = NULL;
  g_autofree char *icc_text = NULL;
  JsonArray *quantiles = json_object_get_array_member (numpy, "quantiles");
  const double probes[][3] = { { 0.975, 11, 11 }, { 0.975, 1, 5 }, { 0.5, 2, 2 }, { 0.025, 3, 7 }, { 0.975, 4, 4 }, { 0.9, 29, 29 } };
  double icc, lower, upper, kappa, difference;

  for (guint i = 0; i < G_N_ELEMENTS (probes); i++)
    g_assert_cmpfloat_with_epsilon (viva_stats_f_quantile (probes[i][0], probes[i][1], probes[i][2]),
                                    json_array_get_double_element (quantiles, i), 1e-5);
  /* And one from the tables: F₀.₉₇₅(11, 11) = 3.474. */
  g_assert_cmpfloat_with_epsilon (viva_stats_f_quantile (0.975, 11, 11), 3.4737, 1e-3);

  for (guint i = 0; i < G_N_ELEMENTS (fixture); i++)
    viva_calibration_add (calibration, fixture[i].viva, fixture[i].teacher, fixture[i].viva_verdict, fixture[i].teacher_verdict);

  g_assert_cmpuint (viva_calibration_get_n (calibration), ==, 12);
  g_assert_cmpuint (viva_calibration_get_n_verdicts (calibration), ==, 11);
  g_assert_true (viva_calibration_get_icc (calibration, &icc, &lower, &upper));
  g_assert_cmpfloat_with_epsilon (icc, json_object_get_double_member (numpy, "icc"), 1e-9);
  assert_interval (numpy, "icc_ci", lower, upper);
  g_assert_cmpfloat (lower, <, icc);
  g_assert_cmpfloat (icc, <, upper);

  g_assert_true (viva_calibration_get_kappa (calibration, &kappa, &lower, &upper));
  g_assert_cmpfloat_with_epsilon (kappa, json_object_get_double_member (numpy, "kappa"), 1e-9);
  assert_interval (numpy, "kappa_ci", lower, upper);

  g_assert_true (viva_calibration_get_mean_difference (calibration, &difference));
  g_assert_cmpfloat_with_epsilon (difference, json_object_get_double_member (numpy, "mean_difference"), 1e-9);
  g_assert_cmpfloat (difference, <, 0);

  difference_text = viva_calibration_describe_difference (calibration);
  g_assert_cmpstr (difference_text, ==, "Viva is harsher than you by 2.3 points on average.");
  icc_text = viva_calibration_describe_icc (calibration);
  g_assert_true (g_str_has_prefix (icc_text, "Score agreement ICC(3,1) = 0.9"));
  g_assert_nonnull (strstr (icc_text, "over 12 defenses"));
}

static void
test_edge_cases (void)
{
  g_autoptr(VivaCalibration) empty = viva_calibration_new ();
  g_autoptr(VivaCalibration) one = viva_calibration_new ();
  g_autoptr(VivaCalibration) same = viva_calibration_new ();
  g_autoptr(VivaCalibration) offset = viva_calibration_new ();
  g_autoptr(JsonObject) json = NULL;
  g_autofree char *text = NULL;
  double icc, lower, upper, difference;

  g_assert_false (viva_calibration_get_icc (empty, NULL, NULL, NULL));
  g_assert_false (viva_calibration_get_mean_difference (empty, &difference));
  text = viva_calibration_describe_difference (empty);
  g_assert_cmpstr (text, ==, "No defense has a score from both Viva and you yet.");
  g_clear_pointer (&text, g_free);
  json = viva_calibration_to_json (empty);
  g_assert_cmpint (json_object_get_int_member (json, "n"), ==, 0);
  g_assert_true (json_object_get_null_member (json, "icc"));
  g_assert_true (json_object_get_null_member (json, "icc_ci"));
  g_assert_true (json_object_get_null_member (json, "kappa"));
  g_assert_true (json_object_get_null_member (json, "mean_difference"));

  /* n < 2 */
  viva_calibration_add (one, 70, 80, VIVA_CALIBRATION_PASS, VIVA_CALIBRATION_PASS);
  g_assert_false (viva_calibration_get_icc (one, NULL, NULL, NULL));
  g_assert_false (viva_calibration_get_kappa (one, NULL, NULL, NULL));
  text = viva_calibration_describe_icc (one);
  g_assert_cmpstr (text, ==, "Score agreement needs at least two defenses scored by both Viva and you.");
  g_clear_pointer (&text, g_free);
  text = viva_calibration_describe_kappa (one);
  g_assert_cmpstr (text, ==, "Pass/fail agreement needs at least two defenses with your verdict (pass or fail).");
  g_clear_pointer (&text, g_free);
  text = viva_calibration_describe_difference (one);
  g_assert_cmpstr (text, ==, "Viva is harsher than you by 10.0 points on average.");
  g_clear_pointer (&text, g_free);

  /* Every score the same, every verdict the same: neither figure is
   * defined, and the sentences say why. */
  for (guint i = 0; i < 5; i++)
    viva_calibration_add (same, 80, 80, VIVA_CALIBRATION_PASS, VIVA_CALIBRATION_PASS);
  g_assert_false (viva_calibration_get_icc (same, NULL, NULL, NULL));
  g_assert_false (viva_calibration_get_kappa (same, NULL, NULL, NULL));
  text = viva_calibration_describe_icc (same);
  g_assert_cmpstr (text, ==, "Every defense has the same score from Viva and from you, so score agreement cannot be measured: score defenses that differ.");
  g_clear_pointer (&text, g_free);
  text = viva_calibration_describe_kappa (same);
  g_assert_cmpstr (text, ==, "Viva and you gave every defense the same verdict, so agreement beyond chance (kappa) is undefined: it needs defenses of both verdicts.");
  g_clear_pointer (&text, g_free);
  text = viva_calibration_describe_difference (same);
  g_assert_cmpstr (text, ==, "Viva gives the same scores as you on average.");
  g_clear_pointer (&text, g_free);

  /* A constant offset is perfectly consistent: ICC(3,1) is 1 and the mean
   * difference says the offset. */
  for (guint i = 0; i < 4; i++)
    viva_calibration_add (offset, 60 + 10 * i, 55 + 10 * i, i > 0, i > 1);
  g_assert_true (viva_calibration_get_icc (offset, &icc, &lower, &upper));
  g_assert_cmpfloat (icc, ==, 1);
  g_assert_cmpfloat (lower, ==, 1);
  g_assert_cmpfloat (upper, ==, 1);
  text = viva_calibration_describe_difference (offset);
  g_assert_cmpstr (text, ==, "Viva is kinder than you by 5.0 points on average.");
  g_clear_pointer (&text, g_free);
}

/* The teacher's CSV */

static char *
parse_error (const char *data,
             gssize      length)
{
  g_autoptr(VivaTeacherScores) scores = viva_teacher_scores_new ();
  g_autoptr(GError) error = NULL;

  g_assert_false (viva_teacher_scores_parse_csv (scores, data, length < 0 ? strlen (data) : (gsize)length, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_cmpuint (viva_teacher_scores_get_n_scores (scores), ==, 0);

  return g_strdup (error->message);
}

static void
assert_error (const char *data,
              const char *expected)
{
  g_autofree char *message = parse_error (data, -1);

  g_assert_cmpstr (message, ==, expected);
}

static void
test_csv (void)
{
  g_autoptr(VivaTeacherScores) scores = viva_teacher_scores_new ();
  g_autoptr(GError) error = NULL;
  const VivaTeacherScore *score;
  /* A spreadsheet's export: BOM, CRLF, a header, quoted cells with a
   * comma, a doubled quote and a line break, padding cells, PASS. */
  const char *good = "\xef\xbb\xbfstudent_id,problem,score,verdict\r\n"
                     "s1,knn,80,PASS\r\n"
                     "\"s2,b\",\"knn\",\"72.5\",fail,,\r\n"
                     "\r\n"
                     "\"s\"\"3\nx\",kmeans,0\r\n"
                     "s4,knn,100,\r\n";

  g_assert_true (viva_teacher_scores_parse_csv (scores, good, strlen (good), &error));
  g_assert_no_error (error);
  g_assert_cmpuint (viva_teacher_scores_get_n_scores (scores), ==, 4);
  score = viva_teacher_scores_lookup (scores, "s1", "knn", "any-session", NULL);
  g_assert_nonnull (score);
  g_assert_cmpfloat (score->score, ==, 80);
  g_assert_cmpint (score->verdict, ==, VIVA_CALIBRATION_PASS);
  g_assert_cmpuint (score->line, ==, 2);
  score = viva_teacher_scores_lookup (scores, "s2,b", "knn", NULL, NULL);
  g_assert_cmpfloat (score->score, ==, 72.5);
  g_assert_cmpint (score->verdict, ==, VIVA_CALIBRATION_FAIL);
  score = viva_teacher_scores_lookup (scores, "s\"3\nx", "kmeans", NULL, NULL);
  g_assert_nonnull (score);
  g_assert_cmpint (score->verdict, ==, VIVA_CALIBRATION_UNKNOWN);
  g_assert_cmpuint (score->line, ==, 5);
  score = viva_teacher_scores_lookup (scores, "s4", "knn", NULL, NULL);
  g_assert_cmpuint (score->line, ==, 7);
  g_assert_null (viva_teacher_scores_lookup (scores, "s4", "kmeans", NULL, NULL));

  assert_error ("s1,knn,eighty\n", "Line 1: the score “eighty” is not a number from 0 to 100 (write decimals with a point).");
  assert_error ("s1,knn,101\n", "Line 1: the score “101” is not a number from 0 to 100 (write decimals with a point).");
  assert_error ("s1,knn,nan\n", "Line 1: the score “nan” is not a number from 0 to 100 (write decimals with a point).");
  assert_error ("s1,knn,\"7,5\"\n", "Line 1: the score “7,5” is not a number from 0 to 100 (write decimals with a point).");
  assert_error ("s1,knn,70,maybe\n", "Line 1: the verdict “maybe” is neither pass nor fail (or empty).");
  assert_error ("student_id,problem,score\n,knn,70\ns2,,70\n",
                "Line 2: the student id is empty.\nLine 3: the problem is empty.");
  assert_error ("s1,knn\n", "Line 1: 2 cells where student_id,problem,score[,verdict] has 3 or 4.");
  assert_error ("s1,knn,70,pass,extra\n", "Line 1: 5 cells where student_id,problem,score[,verdict] has 3 or 4.");
  assert_error ("s1,knn,70\ns2,knn,60\ns1,knn,65\n",
                "Line 3: student “s1” on problem “knn” was scored already on line 1; keep one line per defense.");
  assert_error ("s1,knn,70\ns2,\"knn,60\ns3,knn,50\n", "Line 2: a quoted cell is never closed; add the closing quote (\").");
  assert_error ("s1,kn\"n,70\n", "Line 1: a quote (\") inside a cell that does not start with one; quote the whole cell and double the quote.");
  assert_error ("s1,\"knn\"x,70\n", "Line 1: text after a quoted cell’s closing quote; put it inside the quotes.");
  assert_error ("s1,knn,70\ns2,knn,60\ns3,\xff\xfe,50\n", "Line 3: the file is not UTF-8 text; save it from the spreadsheet as “CSV UTF-8”.");
  assert_error ("", "The file has no scores; each line is student_id,problem,score[,verdict].");
  assert_error ("student_id,problem,score\r\n\r\n", "The file has no scores; each line is student_id,problem,score[,verdict].");
  {
    g_autofree char *message = parse_error ("s1,knn,70\ns2\0,knn,60\n", 21);

    g_assert_cmpstr (message, ==, "Line 2: the file is not UTF-8 text; save it from the spreadsheet as “CSV UTF-8”.");
  }
  {
    g_autoptr(GString) text = g_string_new ("s1,");
    g_autofree char *message = NULL;

    for (guint i = 0; i < 5000; i++)
      g_string_append_c (text, 'x');
    g_string_append (text, ",70\n");
    message = parse_error (text->str, text->len);
    g_assert_cmpstr (message, ==, "Line 1: a cell is longer than 1024 bytes; a student id, a problem and a score are short.");
  }
  {
    /* More lines than any class: stopped, with the line. */
    g_autoptr(GString) text = g_string_new (NULL);
    g_autofree char *message = NULL;

    for (guint i = 0; i <= VIVA_TEACHER_SCORES_MAX_ROWS; i++)
      g_string_append_printf (text, "s%u,p,1\n", i);
    message = parse_error (text->str, text->len);
    g_assert_cmpstr (message, ==, "Line 100001: more than 100000 scores; a class has fewer. Check that it is the right file.");
  }
  {
    /* Many errors: at most twenty, so a broken file is not a wall. */
    g_autoptr(GString) text = g_string_new (NULL);
    g_autofree char *message = NULL;

    for (guint i = 0; i < 50; i++)
      g_string_append_printf (text, "s%u,p,x\n", i);
    message = parse_error (text->str, text->len);
    {
      g_auto(GStrv) lines = g_strsplit (message, "\n", -1);

      g_assert_cmpuint (g_strv_length (lines), ==, 20);
    }
  }
}

/* Files: a FIFO must not hang, a big file is refused by its size. */
static void
test_csv_files (void)
{
  g_autofree char *folder = g_dir_make_tmp ("viva-teacher-csv-XXXXXX", NULL);
  g_autofree char *fifo = g_build_filename (folder, "scores.csv", NULL);
  g_autofree char *big = g_build_filename (folder, "big.csv", NULL);
  g_autofree char *missing = g_build_filename (folder, "missing.csv", NULL);
  g_autoptr(VivaTeacherScores) scores = viva_teacher_scores_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *text = g_strnfill (5 * 1024 * 1024, 'a');

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  g_assert_false (viva_teacher_scores_load_csv (scores, fifo, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE);
  g_clear_error (&error);

  g_assert_true (g_file_set_contents (big, text, -1, NULL));
  g_assert_false (viva_teacher_scores_load_csv (scores, big, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE);
  g_assert_nonnull (strstr (error->message, "larger than a class’s scores can be"));
  g_clear_error (&error);

  g_assert_false (viva_teacher_scores_load_csv (scores, missing, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);

  viva_test_remove_tree (folder);
}

/* Through the real viva-cli */

static JsonNode *
read_json (const char *path)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

static char *
reference_code (void)
{
  g_autofree char *pack_path = g_build_filename (g_getenv ("VIVA_SOURCE_ROOT"), "data", "packs", "intro-ai.json", NULL);
  g_autoptr(JsonNode) pack = read_json (pack_path);
  JsonArray *problems = json_object_get_array_member (json_node_get_object (pack), "problems");

  for (guint i = 0; i < json_array_get_length (problems); i++)
    {
      JsonObject *problem = json_array_get_object_element (problems, i);

      if (g_str_equal (json_object_get_string_member (problem, "id"), "knn"))
        return g_strdup (json_object_get_string_member (problem, "reference_solution"));
    }

  g_assert_not_reached ();
}

/* One real defense (the offline examiner, the real worker), whose report
 * becomes the class: twelve copies with the fixture's scores and verdicts,
 * each its own student and session. */
static void
setup_classroom (void)
{
  g_autofree char *pack_path = g_build_filename (g_getenv ("VIVA_SOURCE_ROOT"), "data", "packs", "intro-ai.json", NULL);
  g_autofree char *code_path = NULL;
  g_autofree char *answers = NULL;
  g_autofree char *sessions = NULL;
  g_autofree char *reports = NULL;
  g_autofree char *code = reference_code ();
  g_auto(VivaTestCliRun) run = { 0 };
  g_auto(VivaTestCliRun) report = { 0 };
  JsonObject *verdict;

  classroom = g_dir_make_tmp ("viva-calibrate-XXXXXX", NULL);
  code_path = g_build_filename (classroom, "code.py", NULL);
  answers = g_build_filename (classroom, "answers.json", NULL);
  sessions = g_build_filename (classroom, "sessions", NULL);
  reports = g_build_filename (classroom, "reports", NULL);
  good_json = g_build_filename (classroom, "one.json", NULL);
  g_assert_true (g_file_set_contents (code_path, code, -1, NULL));
  g_assert_true (g_file_set_contents (answers, "[\"I sort by distance and count the votes.\", \"'a'\"]", -1, NULL));
  g_assert_cmpint (g_mkdir (reports, 0755), ==, 0);

  {
    const char *args[] = { "defend", "--pack", pack_path, "--problem", "knn", "--code", code_path,
                           "--answers", answers, "--offline", "--session-dir", sessions,
                           "--student-name", "Ana Lima", "--student-id", "s001", "--json", NULL };
    viva_test_cli_run (&run, NULL, args);
    g_assert_cmpint (run.status, ==, 0);
    verdict = g_ptr_array_index (run.events, run.events->len - 1);
    g_assert_cmpstr (json_object_get_string_member (verdict, "event"), ==, "verdict");
  }
  {
    const char *args[] = { "report", json_object_get_string_member (verdict, "session"), "--session-dir", sessions,
                           "--json", good_json, NULL };

    viva_test_cli_run (&report, NULL, args);
    g_assert_cmpint (report.status, ==, 0);
  }

  for (guint i = 0; i < G_N_ELEMENTS (fixture); i++)
    {
      g_autoptr(JsonNode) node = read_json (good_json);
      JsonObject *root = json_node_get_object (node);
      JsonObject *student = json_object_get_object_member (root, "student");
      JsonObject *report_verdict = json_object_get_object_member (root, "verdict");
      g_autofree char *id = g_strdup_printf ("s%02u", i + 1);
      g_autofree char *session = g_strdup_printf ("session-%02u", i + 1);
      g_autofree char *file = g_strdup_printf ("%s-knn.json", id);
      g_autofree char *path = g_build_filename (reports, file, NULL);
      g_autofree char *text = NULL;

      json_object_set_string_member (student, "id", id);
      json_object_set_string_member (student, "name", id);
      json_object_set_string_member (root, "session", session);
      json_object_set_int_member (report_verdict, "score", (gint64)fixture[i].viva);
      json_object_set_string_member (report_verdict, "verdict", fixture[i].viva_verdict ? "pass" : "fail");
      json_object_set_string_member (report_verdict, "model_verdict", fixture[i].viva_verdict ? "pass" : "fail");
      /* A teacher's score a student wrote into their own report: it must
       * count for nothing. */
      {
        JsonArray *items = json_object_get_array_member (report_verdict, "items");
        JsonObject *forged = json_object_new ();

        json_object_set_int_member (forged, "points", 0);
        json_object_set_string_member (forged, "note", "forged");
        json_object_set_object_member (json_array_get_object_element (items, 0), "teacher", forged);
      }
      text = json_to_string (node, TRUE);
      g_assert_true (g_file_set_contents (path, text, -1, NULL));
    }
  /* And a file a student broke, which calibration must leave out. */
  {
    g_autofree char *path = g_build_filename (reports, "broken.json", NULL);

    g_assert_true (g_file_set_contents (path, "{\"format\": ", -1, NULL));
  }
}

static char *
write_teacher_csv (void)
{
  g_autofree char *path = g_build_filename (classroom, "teacher.csv", NULL);
  g_autoptr(GString) text = g_string_new ("student_id,problem,score,verdict\r\n");

  for (guint i = 0; i < G_N_ELEMENTS (fixture); i++)
    g_string_append_printf (text, "s%02u,knn,%g,%s\r\n", i + 1, fixture[i].teacher,
                            fixture[i].teacher_verdict < 0 ? "" : fixture[i].teacher_verdict ? "pass" : "fail");
  /* A line no report matches: said, and left out. */
  g_string_append (text, "s99,knn,40,fail\r\n");
  g_assert_true (g_file_set_contents (path, text->str, -1, NULL));

  return g_steal_pointer (&path);
}

static JsonObject *
find_event (VivaTestCliRun *run,
            const char     *name)
{
  for (guint i = 0; i < run->events->len; i++)
    if (g_str_equal (json_object_get_string_member (g_ptr_array_index (run->events, i), "event"), name))
      return g_ptr_array_index (run->events, i);

  return NULL;
}

static void
test_cli_calibrate (void)
{
  g_autofree char *csv = write_teacher_csv ();
  g_autofree char *reports = g_build_filename (classroom, "reports", NULL);
  g_autofree char *bad = g_build_filename (classroom, "bad.csv", NULL);
  g_autofree char *input = fixture_json ();
  g_autoptr(JsonObject) numpy = run_numpy (input);
  g_auto(VivaTestCliRun) json = { 0 };
  g_auto(VivaTestCliRun) text = { 0 };
  g_auto(VivaTestCliRun) broken = { 0 };
  g_auto(VivaTestCliRun) usage = { 0 };
  JsonObject *calibration, *unmatched;
  JsonArray *ci;

  {
    const char *args[] = { "calibrate", "--teacher-scores", csv, "--json", reports, NULL };

    viva_test_cli_run (&json, NULL, args);
  }
  g_assert_cmpint (json.status, ==, 0);
  calibration = g_ptr_array_index (json.events, json.events->len - 1);
  g_assert_cmpstr (json_object_get_string_member (calibration, "event"), ==, "calibration");
  g_assert_cmpint (json_object_get_int_member (calibration, "n"), ==, 12);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (calibration, "icc"),
                                  json_object_get_double_member (numpy, "icc"), 1e-9);
  ci = json_object_get_array_member (calibration, "icc_ci");
  assert_interval (numpy, "icc_ci", json_array_get_double_element (ci, 0), json_array_get_double_element (ci, 1));
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (calibration, "kappa"),
                                  json_object_get_double_member (numpy, "kappa"), 1e-9);
  ci = json_object_get_array_member (calibration, "kappa_ci");
  assert_interval (numpy, "kappa_ci", json_array_get_double_element (ci, 0), json_array_get_double_element (ci, 1));
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (calibration, "mean_difference"),
                                  json_object_get_double_member (numpy, "mean_difference"), 1e-9);
  unmatched = find_event (&json, "unmatched");
  g_assert_nonnull (unmatched);
  g_assert_cmpint (json_object_get_int_member (unmatched, "line"), ==, 14);
  g_assert_cmpstr (json_object_get_string_member (unmatched, "student_id"), ==, "s99");
  g_assert_nonnull (find_event (&json, "unreadable"));

  {
    const char *args[] = { "calibrate", "--teacher-scores", csv, reports, NULL };

    viva_test_cli_run (&text, NULL, args);
  }
  g_assert_cmpint (text.status, ==, 0);
  g_assert_nonnull (strstr (text.out, "Viva is harsher than you by 2.3 points on average."));
  g_assert_nonnull (strstr (text.out, "Score agreement ICC(3,1) = "));
  g_assert_nonnull (strstr (text.out, "Pass/fail agreement kappa = "));
  g_assert_nonnull (strstr (text.err, "Line 14: no scored report of student “s99” on problem “knn”; it is left out."));

  g_assert_true (g_file_set_contents (bad, "s01,knn,70\ns02,knn,lots\n", -1, NULL));
  {
    const char *args[] = { "calibrate", "--teacher-scores", bad, reports, NULL };

    viva_test_cli_run (&broken, NULL, args);
  }
  g_assert_cmpint (broken.status, ==, 1);
  g_assert_nonnull (strstr (broken.err, "Line 2: the score “lots” is not a number from 0 to 100"));

  {
    const char *args[] = { "calibrate", reports, NULL };

    viva_test_cli_run (&usage, NULL, args);
  }
  g_assert_cmpint (usage.status, ==, 2);
  g_assert_nonnull (strstr (usage.err, "--teacher-scores"));
}

/* class collect grades by the teacher's score where there is one, keeps
 * Viva's beside it, and takes the window's scores (the teacher's data,
 * set on a session) over a CSV's. The report folder is left as it was. */
static void
test_cli_exports (void)
{
  g_autofree char *csv = write_teacher_csv ();
  g_autofree char *reports = g_build_filename (classroom, "reports", NULL);
  g_autofree char *data_home = g_build_filename (classroom, "data", NULL);
  g_autofree char *store_dir = g_build_filename (data_home, "viva", NULL);
  g_autofree char *store = g_build_filename (store_dir, "teacher-scores.json", NULL);
  g_autofree char *out_csv = g_build_filename (classroom, "class.csv", NULL);
  g_autofree char *gradebook = g_build_filename (classroom, "gradebook.csv", NULL);
  g_autofree char *html = g_build_filename (classroom, "class.html", NULL);
  g_autofree char *text = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_auto(VivaTestCliRun) run = { 0 };
  g_autoptr(GDir) dir = NULL;
  guint n_files = 0;

  g_assert_cmpint (g_mkdir_with_parents (store_dir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (store,
                                      "{\"format\": \"viva-teacher-scores/1\", \"scores\": ["
                                      "{\"student_id\": \"s01\", \"problem\": \"knn\", \"session\": \"session-01\", \"score\": 61, \"note\": \"Explained the tie rule well\"},"
                                      "{\"student_id\": \"s02\", \"problem\": \"knn\", \"session\": \"another-session\", \"score\": 5}]}",
                                      -1, NULL));
  {
    const char *args[] = { "class", "collect", "--teacher-scores", csv, "--csv", out_csv, "--gradebook-csv", gradebook,
                           "--html", html, "--json", reports, NULL };

    viva_test_cli_run (&run, data_home, args);
  }
  g_assert_cmpint (run.status, ==, 1);   /* broken.json is unreadable */

  g_assert_true (g_file_get_contents (out_csv, &text, NULL, NULL));
  rows = viva_test_parse_csv (text);
  for (guint i = 1; i < rows->len; i++)
    {
      GPtrArray *row = g_ptr_array_index (rows, i);
      const char *id = viva_test_csv_cell (rows, row, "student_id");
      guint k;

      if (id[0] == '\0')
        continue;
      k = g_ascii_strtoull (id + 1, NULL, 10) - 1;
      g_assert_cmpuint (k, <, G_N_ELEMENTS (fixture));
      /* s01: the window's score, for that very session; s02: the CSV's,
       * since the window's names another session. */
      if (k == 0)
        {
          g_assert_cmpstr (viva_test_csv_cell (rows, row, "score"), ==, "61");
          g_assert_cmpstr (viva_test_csv_cell (rows, row, "teacher_note"), ==, "Explained the tie rule well");
        }
      else
        {
          g_autofree char *teacher = g_strdup_printf ("%g", fixture[k].teacher);

          g_assert_cmpstr (viva_test_csv_cell (rows, row, "score"), ==, teacher);
          g_assert_cmpstr (viva_test_csv_cell (rows, row, "teacher_score"), ==, teacher);
        }
      {
        g_autofree char *viva = g_strdup_printf ("%g", fixture[k].viva);

        g_assert_cmpstr (viva_test_csv_cell (rows, row, "viva_score"), ==, viva);
      }
    }
  g_clear_pointer (&text, g_free);

  g_assert_true (g_file_get_contents (gradebook, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "s01,,s01,,,61\r\n"));
  g_assert_nonnull (strstr (text, "s02,,s02,,,60\r\n"));
  g_clear_pointer (&text, g_free);

  g_assert_true (g_file_get_contents (html, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "Teacher: 61 — Explained the tie rule well"));

  {
    JsonObject *row = NULL;

    for (guint i = 0; i < run.events->len && row == NULL; i++)
      {
        JsonObject *event = g_ptr_array_index (run.events, i);

        if (g_strcmp0 (json_object_get_string_member_with_default (event, "student_id", ""), "s03") == 0)
          row = event;
      }
    g_assert_nonnull (row);
    g_assert_cmpfloat (json_object_get_double_member (row, "score"), ==, 62);
    g_assert_cmpfloat (json_object_get_double_member (row, "viva_score"), ==, 60);
    g_assert_cmpfloat (json_object_get_double_member (row, "teacher_score"), ==, 62);
  }

  /* Without the CSV: the window's scores alone. An item's score moves the
   * defense's by the difference of points scaled to 100 (s04: Viva gave
   * the item all its points, the teacher none); a report's own `teacher`
   * members count for nothing (s03 keeps Viva's score). */
  {
    g_autoptr(JsonNode) one = NULL;
    g_autofree char *path = g_build_filename (reports, "s04-knn.json", NULL);
    g_auto(VivaTestCliRun) alone = { 0 };
    JsonArray *items;
    JsonObject *item;
    double total = 0, expected;
    g_autofree char *store_text = NULL;
    JsonObject *s03 = NULL, *s04 = NULL;

    one = read_json (path);
    items = json_object_get_array_member (json_object_get_object_member (json_node_get_object (one), "verdict"), "items");
    for (guint i = 0; i < json_array_get_length (items); i++)
      total += json_object_get_double_member (json_array_get_object_element (items, i), "max_points");
    item = json_array_get_object_element (items, 1);
    g_assert_cmpfloat (json_object_get_double_member (item, "points"), >, 0);
    expected = fixture[3].viva - json_object_get_double_member (item, "points") * 100 / total;
    store_text = g_strdup_printf ("{\"format\": \"viva-teacher-scores/1\", \"scores\": ["
                                  "{\"student_id\": \"s04\", \"problem\": \"knn\", \"session\": \"session-04\", "
                                  "\"item\": \"%s\", \"score\": 0, \"note\": \"Could not say why\"}]}",
                                  json_object_get_string_member (item, "id"));
    g_assert_true (g_file_set_contents (store, store_text, -1, NULL));
    {
      const char *args[] = { "class", "collect", "--json", reports, NULL };

      viva_test_cli_run (&alone, data_home, args);
    }
    for (guint i = 0; i < alone.events->len; i++)
      {
        JsonObject *event = g_ptr_array_index (alone.events, i);
        const char *id = json_object_get_string_member_with_default (event, "student_id", "");

        if (g_str_equal (id, "s03"))
          s03 = event;
        if (g_str_equal (id, "s04"))
          s04 = event;
      }
    g_assert_nonnull (s03);
    g_assert_nonnull (s04);
    g_assert_false (json_object_has_member (s03, "teacher_score"));
    g_assert_cmpfloat (json_object_get_double_member (s03, "score"), ==, fixture[2].viva);
    g_assert_cmpfloat_with_epsilon (json_object_get_double_member (s04, "score"), expected, 1e-9);
    g_assert_cmpfloat_with_epsilon (json_object_get_double_member (s04, "teacher_score"), expected, 1e-9);
    g_assert_cmpfloat (json_object_get_double_member (s04, "viva_score"), ==, fixture[3].viva);
    g_assert_true (g_str_has_suffix (json_object_get_string_member (s04, "teacher_note"), ": Could not say why"));
  }

  /* Nothing was written beside the students' reports. */
  dir = g_dir_open (reports, 0, NULL);
  while (g_dir_read_name (dir) != NULL)
    n_files++;
  g_assert_cmpuint (n_files, ==, G_N_ELEMENTS (fixture) + 1);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  viva_core_init ();
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/viva/calibrate/against-numpy", test_against_numpy);
  g_test_add_func ("/viva/calibrate/edge-cases", test_edge_cases);
  g_test_add_func ("/viva/calibrate/csv", test_csv);
  g_test_add_func ("/viva/calibrate/csv-files", test_csv_files);

  setup_classroom ();
  g_test_add_func ("/viva/calibrate/cli", test_cli_calibrate);
  g_test_add_func ("/viva/calibrate/cli-exports", test_cli_exports);

  status = g_test_run ();
  if (classroom != NULL)
    viva_test_remove_tree (classroom);

  return status;
}

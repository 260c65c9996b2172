/* test-hint-cost.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>

#include "viva-class-report.h"
#include "viva-test-cli.h"
#include "viva-test-csv.h"
#include "viva-test-util.h"

/* An exam whose hints cost 10 points each: Ana defends with the offline
 * examiner through the real viva-cli and worker, her session recording
 * what exam mode records (the exam with its cost, two views of the
 * problem's one hint with the cost in force, the trace's word that the
 * hint was used) and a score of 85; Binh defends a practice session. The
 * hint is charged once, however often it was shown. A teacher reads Ana's
 * score as 75
 * everywhere — the report page and JSON, the class table's exports and
 * viva-cli's rows — with the 85 and the cost beside it, Binh's as before,
 * and reports Ana edited to shed the cost are flagged against the
 * teacher's own exam file. */

static char *classroom;
static char *reports_dir;
static char *sessions_dir;
static char *ana_json;
static char *ana_html;
static char *binh_json;
static char *binh_html;
static char *exam_path;

static JsonNode *
read_json (const char *path)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);

  return json_node_copy (json_parser_get_root (parser));
}

static void
write_json (const char *path,
            JsonNode   *node)
{
  g_autofree char *text = json_to_string (node, TRUE);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
}

static char *
read_text (const char *path)
{
  g_autofree char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return g_steal_pointer (&text);
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

/* A real offline defense; returns its session's folder. */
static char *
defend (const char *name,
        const char *id)
{
  g_autofree char *pack_path = g_build_filename (g_getenv ("VIVA_SOURCE_ROOT"), "data", "packs", "intro-ai.json", NULL);
  g_autofree char *code_path = g_build_filename (classroom, "code.py", NULL);
  g_autofree char *answers = g_build_filename (classroom, "answers.json", NULL);
  g_autofree char *code = reference_code ();
  VivaTestCliRun run = { 0 };
  const char *args[] = { "defend", "--pack", pack_path, "--problem", "knn", "--code", code_path,
                         "--answers", answers, "--offline", "--session-dir", sessions_dir,
                         "--student-name", name, "--student-id", id, "--json", NULL };
  JsonObject *verdict;
  char *session;

  g_assert_true (g_file_set_contents (code_path, code, -1, NULL));
  g_assert_true (g_file_set_contents (answers, "[\"I sort by distance and count the votes.\", \"'a'\"]", -1, NULL));
  viva_test_cli_run (&run, NULL, args);
  g_assert_cmpint (run.status, ==, 0);
  verdict = g_ptr_array_index (run.events, run.events->len - 1);
  g_assert_cmpstr (json_object_get_string_member (verdict, "event"), ==, "verdict");
  session = g_build_filename (sessions_dir, json_object_get_string_member (verdict, "session"), NULL);
  viva_test_cli_run_clear (&run);

  return session;
}

static JsonObject *
hint_event (const char *time)
{
  JsonObject *event = json_object_new ();

  json_object_set_string_member (event, "time", time);
  json_object_set_string_member (event, "kind", "hint");
  json_object_set_string_member (event, "problem", "knn");
  json_object_set_double_member (event, "cost", 10);
  return event;
}

/* What exam mode adds to a session whose exam sets hints.cost 10: the
 * exam's reference (viva_exam_file_to_ref()), the hint views in the
 * timeline (viva-window-timeline.c), and the trace's `hint` line. */
static void
make_exam_session (const char *session)
{
  g_autofree char *checkpoint_path = g_build_filename (session, "checkpoint.json", NULL);
  g_autofree char *trace_path = g_build_filename (session, "trace.jsonl", NULL);
  g_autofree char *trace = read_text (trace_path);
  g_autofree char *more = NULL;
  g_autoptr(JsonNode) checkpoint = read_json (checkpoint_path);
  JsonObject *root = json_node_get_object (checkpoint);
  JsonObject *exam = json_object_new ();
  JsonArray *timeline;

  json_object_set_string_member (exam, "path", exam_path);
  json_object_set_string_member (exam, "digest", "0000");
  json_object_set_string_member (exam, "id", "ai-midterm");
  json_object_set_string_member (exam, "title", "AI midterm");
  json_object_set_boolean_member (exam, "pack_embedded", FALSE);
  json_object_set_double_member (exam, "hint_cost", 10);
  json_object_set_object_member (root, "exam", exam);

  if (!json_object_has_member (root, "timeline"))
    json_object_set_array_member (root, "timeline", json_array_new ());
  timeline = json_object_get_array_member (root, "timeline");
  json_array_add_object_element (timeline, hint_event ("2026-11-30T10:01:00Z"));
  json_array_add_object_element (timeline, hint_event ("2026-11-30T10:07:00Z"));

  json_object_set_int_member (json_object_get_object_member (root, "verdict"), "score", 85);
  write_json (checkpoint_path, checkpoint);

  more = g_strconcat (trace, "{\"event\":\"hint\",\"time\":\"2026-11-30T10:08:00Z\",\"ms\":1,\"problem\":\"knn\"}\n", NULL);
  g_assert_true (g_file_set_contents (trace_path, more, -1, NULL));
}

static void
export_report (const char *session,
               const char *json,
               const char *html)
{
  g_autofree char *id = g_path_get_basename (session);
  VivaTestCliRun run = { 0 };
  const char *args[] = { "report", id, "--session-dir", sessions_dir, "--json", json, "--html", html, NULL };

  viva_test_cli_run (&run, NULL, args);
  g_assert_cmpint (run.status, ==, 0);
  viva_test_cli_run_clear (&run);
}

static void
setup_classroom (void)
{
  g_autofree char *ana = NULL;
  g_autofree char *binh = NULL;
  const char *exam =
    "{\"format\": \"viva-exam/1\", \"id\": \"ai-midterm\", \"title\": \"AI midterm\", \"pack\": \"intro-ai\",\n"
    " \"problems\": [\"knn\"], \"hints\": {\"allowed\": true, \"cost\": 10}, \"report_folder\": \"reports\"}\n";

  classroom = g_dir_make_tmp ("viva-hint-cost-XXXXXX", NULL);
  reports_dir = g_build_filename (classroom, "reports", NULL);
  sessions_dir = g_build_filename (classroom, "sessions", NULL);
  exam_path = g_build_filename (classroom, "ai-midterm.json", NULL);
  g_assert_cmpint (g_mkdir (reports_dir, 0755), ==, 0);
  g_assert_true (g_file_set_contents (exam_path, exam, -1, NULL));

  ana_json = g_build_filename (reports_dir, "Ana_Lima-s001-knn.json", NULL);
  ana_html = g_build_filename (reports_dir, "Ana_Lima-s001-knn.html", NULL);
  binh_json = g_build_filename (reports_dir, "Binh_Tran-s002-knn.json", NULL);
  binh_html = g_build_filename (reports_dir, "Binh_Tran-s002-knn.html", NULL);

  ana = defend ("Ana Lima", "s001");
  make_exam_session (ana);
  export_report (ana, ana_json, ana_html);

  binh = defend ("Binh Tran", "s002");
  export_report (binh, binh_json, binh_html);
}

static double
binh_score (void)
{
  g_autoptr(JsonNode) report = read_json (binh_json);
  JsonObject *verdict = json_object_get_object_member (json_node_get_object (report), "verdict");

  return json_object_get_double_member (verdict, "score");
}

static void
test_report (void)
{
  g_autoptr(JsonNode) report = read_json (ana_json);
  JsonObject *root = json_node_get_object (report);
  JsonObject *score;
  JsonArray *timeline;
  guint views = 0;
  g_autofree char *html = read_text (ana_html);

  /* The JSON keeps the examiner's score where older readers look, and
   * says the final one beside how it was made. */
  g_assert_cmpstr (json_object_get_string_member (root, "format"), ==, "viva-report/1");
  g_assert_cmpfloat (json_object_get_double_member (json_object_get_object_member (root, "verdict"), "score"), ==, 85);
  g_assert_true (json_object_has_member (root, "score"));
  score = json_object_get_object_member (root, "score");
  g_assert_cmpfloat (json_object_get_double_member (score, "examiner"), ==, 85);
  g_assert_cmpint (json_object_get_int_member (score, "hints"), ==, 1);
  g_assert_cmpfloat (json_object_get_double_member (score, "hint_cost"), ==, 10);
  g_assert_cmpfloat (json_object_get_double_member (score, "final"), ==, 75);

  /* The timeline still shows the teacher both times the hint was shown. */
  timeline = json_object_get_array_member (root, "timeline");
  for (guint i = 0; i < json_array_get_length (timeline); i++)
    views += g_str_equal (json_object_get_string_member (json_array_get_object_element (timeline, i), "kind"), "hint");
  g_assert_cmpuint (views, ==, 2);

  /* The page a teacher opens says the final score, and the sum. */
  g_assert_nonnull (strstr (html, "Score: 75/100"));
  g_assert_null (strstr (html, "Score: 85/100"));
  g_assert_nonnull (strstr (html, "85 − 1 hint × 10 = 75"));
}

static void
test_report_without_cost (void)
{
  g_autoptr(JsonNode) report = read_json (binh_json);
  g_autofree char *html = read_text (binh_html);
  g_autofree char *line = g_strdup_printf ("Score: %.0f/100", binh_score ());

  g_assert_false (json_object_has_member (json_node_get_object (report), "score"));
  g_assert_nonnull (strstr (html, line));
  g_assert_null (strstr (html, "hints ×"));
  g_assert_null (strstr (html, "hint ×"));
}

static JsonObject *
row_for (VivaTestCliRun *run,
         const char     *file_suffix)
{
  for (guint i = 0; i < run->events->len; i++)
    {
      JsonObject *event = g_ptr_array_index (run->events, i);

      if (g_str_equal (json_object_get_string_member (event, "event"), "row") &&
          g_str_has_suffix (json_object_get_string_member (event, "file"), file_suffix))
        return event;
    }

  g_error ("no row for %s", file_suffix);
}

static GPtrArray *
csv_row (GPtrArray  *rows,
         const char *column,
         const char *value)
{
  for (guint i = 1; i < rows->len; i++)
    if (g_str_has_suffix (viva_test_csv_cell (rows, g_ptr_array_index (rows, i), column), value))
      return g_ptr_array_index (rows, i);

  g_error ("no row whose %s is %s", column, value);
}

static gboolean
row_has_flag (JsonObject *row,
              const char *flag)
{
  JsonArray *flags = json_object_get_array_member (row, "flags");

  for (guint i = 0; i < json_array_get_length (flags); i++)
    if (g_str_equal (json_array_get_string_element (flags, i), flag))
      return TRUE;

  return FALSE;
}

static void
test_class_exports (void)
{
  g_autofree char *csv_path = g_build_filename (classroom, "class.csv", NULL);
  g_autofree char *gradebook_path = g_build_filename (classroom, "gradebook.csv", NULL);
  g_autofree char *html_path = g_build_filename (classroom, "class.html", NULL);
  g_autofree char *csv = NULL;
  g_autofree char *gradebook = NULL;
  g_autofree char *html = NULL;
  g_autofree char *binh = g_strdup_printf ("%.0f", binh_score ());
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GPtrArray) book = NULL;
  VivaTestCliRun run = { 0 };
  const char *args[] = { "class", "collect", "--csv", csv_path, "--gradebook-csv", gradebook_path,
                         "--html", html_path, "--json", reports_dir, NULL };
  GPtrArray *row;
  JsonObject *ana, *plain;

  viva_test_cli_run (&run, NULL, args);
  g_assert_cmpint (run.status, ==, 0);

  /* The --json rows: the score to grade by, and how it was made. */
  ana = row_for (&run, "Ana_Lima-s001-knn.json");
  g_assert_cmpfloat (json_object_get_double_member (ana, "score"), ==, 75);
  g_assert_cmpfloat (json_object_get_double_member (ana, "model_score"), ==, 85);
  g_assert_cmpfloat (json_object_get_double_member (ana, "hint_cost"), ==, 10);
  g_assert_cmpint (json_object_get_int_member (ana, "hints"), ==, 1);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (ana, "flags")), ==, 0);
  plain = row_for (&run, "Binh_Tran-s002-knn.json");
  g_assert_cmpfloat (json_object_get_double_member (plain, "score"), ==, binh_score ());
  g_assert_false (json_object_has_member (plain, "model_score"));
  g_assert_false (json_object_has_member (plain, "hint_cost"));

  /* The CSV: the old columns in their places, the new ones at the end. */
  csv = read_text (csv_path);
  g_assert_true (g_str_has_prefix (csv, "student_name,student_id,pack,problem,session,status,verdict,score,"
                                        "hidden_passed,hidden_total,regraded_passed,regraded_total,flags,"
                                        "problem_title,started,duration_s,hints,file,note,model_score,hint_cost,"
                                        "viva_score,teacher_score,teacher_note,item_points,items_review\r\n"));
  rows = viva_test_parse_csv (csv);
  row = csv_row (rows, "student_id", "s001");
  g_assert_cmpstr (viva_test_csv_cell (rows, row, "score"), ==, "75");
  g_assert_cmpstr (viva_test_csv_cell (rows, row, "model_score"), ==, "85");
  g_assert_cmpstr (viva_test_csv_cell (rows, row, "hint_cost"), ==, "10");
  g_assert_cmpstr (viva_test_csv_cell (rows, row, "hints"), ==, "1");
  row = csv_row (rows, "student_id", "s002");
  g_assert_cmpstr (viva_test_csv_cell (rows, row, "score"), ==, binh);
  g_assert_cmpstr (viva_test_csv_cell (rows, row, "model_score"), ==, binh);
  g_assert_cmpstr (viva_test_csv_cell (rows, row, "hint_cost"), ==, "0");

  /* The gradebook takes the final score. */
  gradebook = read_text (gradebook_path);
  book = viva_test_parse_csv (gradebook);
  row = csv_row (book, "SIS User ID", "s001");
  g_assert_cmpstr (viva_test_csv_cell (book, row, "k-nearest neighbours (knn)"), ==, "75");
  row = csv_row (book, "SIS User ID", "s002");
  g_assert_cmpstr (viva_test_csv_cell (book, row, "k-nearest neighbours (knn)"), ==, binh);

  /* The class page's table shows the sum for Ana, and none for Binh (each
   * report's own page follows the table, in a section of its own). */
  html = read_text (html_path);
  g_assert_nonnull (strstr (html, "<section id=\"report-"));
  *strstr (html, "<section id=\"report-") = '\0';
  g_assert_nonnull (strstr (html, "<td>75<br><span class=\"note\">85 − 1 hint × 10 = 75</span></td>"));
  g_assert_null (strstr (strstr (html, "hint ×") + 1, "hint ×"));

  viva_test_cli_run_clear (&run);
}

typedef enum
{
  EDIT_DROP_EVENTS,     /* the timeline's hint events deleted */
  EDIT_DROP_ALL,        /* and the report's score and the trace's word too */
  EDIT_LOWER_COST,      /* every record of the cost made 2, consistently */
  EDIT_REMOVE_COST,     /* every record of the cost deleted */
} Edit;

static void
edit_report (const char *path,
             Edit        edit)
{
  g_autoptr(JsonNode) report = read_json (ana_json);
  JsonObject *root = json_node_get_object (report);
  JsonObject *score = json_object_has_member (root, "score") ? json_object_get_object_member (root, "score") : NULL;
  JsonArray *timeline = json_object_get_array_member (root, "timeline");
  JsonArray *kept = json_array_new ();

  for (guint i = 0; i < json_array_get_length (timeline); i++)
    {
      JsonObject *event = json_array_get_object_element (timeline, i);
      gboolean hint = g_str_equal (json_object_get_string_member (event, "kind"), "hint");

      if (hint && (edit == EDIT_DROP_EVENTS || edit == EDIT_DROP_ALL))
        continue;
      if (hint && edit == EDIT_LOWER_COST)
        json_object_set_double_member (event, "cost", 2);
      if (hint && edit == EDIT_REMOVE_COST)
        json_object_remove_member (event, "cost");
      json_array_add_object_element (kept, json_object_ref (event));
    }
  json_object_set_array_member (root, "timeline", kept);

  switch (edit)
    {
    case EDIT_DROP_EVENTS:
      break;
    case EDIT_DROP_ALL:
      json_object_remove_member (root, "score");
      json_object_set_boolean_member (json_object_get_object_member (root, "integrity"), "hint_used", FALSE);
      break;
    case EDIT_LOWER_COST:
      json_object_set_double_member (json_object_get_object_member (root, "exam"), "hint_cost", 2);
      if (score != NULL)
        {
          json_object_set_double_member (score, "hint_cost", 2);
          json_object_set_double_member (score, "final", 83);
        }
      break;
    case EDIT_REMOVE_COST:
      json_object_remove_member (json_object_get_object_member (root, "exam"), "hint_cost");
      json_object_remove_member (root, "score");
      break;
    }

  write_json (path, report);
}

static void
test_edited_reports (void)
{
  g_autofree char *edited = g_build_filename (classroom, "edited", NULL);
  g_autofree char *drop_events = g_build_filename (edited, "drop-events.json", NULL);
  g_autofree char *drop_all = g_build_filename (edited, "drop-all.json", NULL);
  g_autofree char *lower = g_build_filename (edited, "lower-cost.json", NULL);
  g_autofree char *removed = g_build_filename (edited, "remove-cost.json", NULL);
  g_autofree char *csv_path = g_build_filename (classroom, "edited.csv", NULL);
  g_autofree char *csv = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  VivaTestCliRun run = { 0 };
  const char *args[] = { "class", "collect", "--exam", exam_path, "--csv", csv_path, "--json", edited, NULL };
  JsonObject *row;
  GPtrArray *cells;

  g_assert_cmpint (g_mkdir (edited, 0755), ==, 0);
  edit_report (drop_events, EDIT_DROP_EVENTS);
  edit_report (drop_all, EDIT_DROP_ALL);
  edit_report (lower, EDIT_LOWER_COST);
  edit_report (removed, EDIT_REMOVE_COST);

  viva_test_cli_run (&run, NULL, args);
  g_assert_cmpint (run.status, ==, 0);

  /* Hint events deleted: the trace's word that the hint was used and the
   * report's own score still count it, so the grade is not raised. */
  row = row_for (&run, "drop-events.json");
  g_assert_cmpfloat (json_object_get_double_member (row, "score"), ==, 75);

  /* Every record of the hints deleted but the exam's cost: no grade is
   * raised silently. */
  row = row_for (&run, "drop-all.json");
  g_assert_true (row_has_flag (row, "hints-edited"));

  /* The cost lowered everywhere in the report: the teacher's exam file's
   * cost is the one used, and the row says so. */
  row = row_for (&run, "lower-cost.json");
  g_assert_true (row_has_flag (row, "hint-cost-mismatch"));
  g_assert_cmpfloat (json_object_get_double_member (row, "score"), ==, 75);
  g_assert_cmpfloat (json_object_get_double_member (row, "hint_cost"), ==, 10);
  g_assert_nonnull (strstr (json_object_get_string_member (row, "note"), "your exam file says 10"));

  row = row_for (&run, "remove-cost.json");
  g_assert_true (row_has_flag (row, "hint-cost-mismatch"));
  g_assert_cmpfloat (json_object_get_double_member (row, "score"), ==, 75);

  csv = read_text (csv_path);
  rows = viva_test_parse_csv (csv);
  cells = csv_row (rows, "file", "lower-cost.json");
  g_assert_cmpstr (viva_test_csv_cell (rows, cells, "score"), ==, "75");
  g_assert_true (strstr (viva_test_csv_cell (rows, cells, "flags"), "hint-cost-mismatch") != NULL);

  viva_test_cli_run_clear (&run);
  viva_test_remove_tree (edited);
}

/* The exam's report folder also holds practice: Binh's practice defense of
 * the exam's problem, and a practice report that names nobody. With the
 * teacher's exam file, only Ana's exam report is scored with its cost and
 * goes into the gradebook; the others are flagged for what they are, and
 * none is flagged `hint-cost-mismatch` (issue 29, 6). */
static void
test_outside_exam (void)
{
  g_autofree char *folder = g_build_filename (classroom, "mixed", NULL);
  g_autofree char *ana = g_build_filename (folder, "ana.json", NULL);
  g_autofree char *practice = g_build_filename (folder, "binh-practice.json", NULL);
  g_autofree char *nobody = g_build_filename (folder, "nobody.json", NULL);
  g_autofree char *other = g_build_filename (folder, "other-exam.json", NULL);
  g_autofree char *gradebook_path = g_build_filename (classroom, "mixed-gradebook.csv", NULL);
  g_autofree char *gradebook = NULL;
  g_autoptr(GPtrArray) book = NULL;
  g_autoptr(JsonNode) report = NULL;
  VivaTestCliRun run = { 0 };
  VivaTestCliRun without = { 0 };
  const char *args[] = { "class", "collect", "--exam", exam_path, "--gradebook-csv", gradebook_path, "--json", folder, NULL };
  const char *plain[] = { "class", "collect", "--json", folder, NULL };
  JsonObject *row;

  g_assert_cmpint (g_mkdir (folder, 0755), ==, 0);
  report = read_json (ana_json);
  write_json (ana, report);
  g_clear_pointer (&report, json_node_unref);
  report = read_json (binh_json);
  write_json (practice, report);
  json_object_remove_member (json_node_get_object (report), "student");
  json_object_set_string_member (json_node_get_object (report), "session", "nobody-session");
  write_json (nobody, report);
  g_clear_pointer (&report, json_node_unref);
  report = read_json (ana_json);
  json_object_set_string_member (json_object_get_object_member (json_node_get_object (report), "exam"), "id", "ai-final");
  json_object_set_string_member (json_object_get_object_member (json_node_get_object (report), "student"), "id", "s009");
  write_json (other, report);

  viva_test_cli_run (&run, NULL, args);
  g_assert_cmpint (run.status, ==, 0);

  row = row_for (&run, "ana.json");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (row, "flags")), ==, 0);
  g_assert_cmpfloat (json_object_get_double_member (row, "score"), ==, 75);

  row = row_for (&run, "binh-practice.json");
  g_assert_true (row_has_flag (row, "outside-exam"));
  g_assert_false (row_has_flag (row, "hint-cost-mismatch"));
  g_assert_nonnull (strstr (json_object_get_string_member (row, "note"), "practice"));
  g_assert_cmpfloat (json_object_get_double_member (row, "score"), ==, binh_score ());

  row = row_for (&run, "nobody.json");
  g_assert_true (row_has_flag (row, "no-student"));
  g_assert_false (row_has_flag (row, "hint-cost-mismatch"));

  row = row_for (&run, "other-exam.json");
  g_assert_true (row_has_flag (row, "outside-exam"));
  g_assert_false (row_has_flag (row, "hint-cost-mismatch"));
  g_assert_nonnull (strstr (json_object_get_string_member (row, "note"), "ai-final"));

  /* The report that names nobody is no student more. */
  row = g_ptr_array_index (run.events, run.events->len - 1);
  g_assert_cmpstr (json_object_get_string_member (row, "event"), ==, "summary");
  g_assert_cmpint (json_object_get_int_member (row, "reports"), ==, 4);
  g_assert_cmpint (json_object_get_int_member (row, "students"), ==, 3);

  /* The gradebook: Ana alone, no row without a name and an id. */
  gradebook = read_text (gradebook_path);
  book = viva_test_parse_csv (gradebook);
  g_assert_cmpuint (book->len, ==, 2);
  g_assert_cmpstr (viva_test_csv_cell (book, g_ptr_array_index (book, 1), "SIS User ID"), ==, "s001");
  g_assert_cmpstr (viva_test_csv_cell (book, g_ptr_array_index (book, 1), "Student"), ==, "Ana Lima");

  /* Without the exam file, practice is not outside anything; a report
   * that names nobody still gives nobody a grade. */
  viva_test_cli_run (&without, NULL, plain);
  g_assert_false (row_has_flag (row_for (&without, "binh-practice.json"), "outside-exam"));
  g_assert_true (row_has_flag (row_for (&without, "nobody.json"), "no-student"));

  /* The table viva-cli prints names it by its file, not "?". */
  {
    const char *table[] = { "class", "collect", folder, NULL };
    VivaTestCliRun printed = { 0 };

    viva_test_cli_run (&printed, NULL, table);
    g_assert_nonnull (strstr (printed.out, "No name — nobody.json"));
    viva_test_cli_run_clear (&printed);
  }

  viva_test_cli_run_clear (&run);
  viva_test_cli_run_clear (&without);
  viva_test_remove_tree (folder);
}

/* A low score less a hint's cost ends at 0, not below: a gradebook takes no
 * negative grade. */
static void
test_never_below_zero (void)
{
  g_autoptr(JsonNode) report = read_json (ana_json);
  JsonObject *root = json_node_get_object (report);
  JsonObject *score = json_object_get_object_member (root, "score");
  g_autoptr(VivaClassReport) row = NULL;
  g_autoptr(JsonObject) event = NULL;
  g_autofree char *text = NULL;
  g_autofree char *how = NULL;

  json_object_set_int_member (json_object_get_object_member (root, "verdict"), "score", 5);
  json_object_set_double_member (score, "examiner", 5);
  json_object_set_double_member (score, "final", 0);
  text = json_to_string (report, FALSE);

  row = viva_class_report_new_from_data ("low.json", text, -1);
  how = viva_class_report_describe_score (row);
  event = viva_class_report_to_json (row);
  g_assert_cmpstr (how, ==, "5 − 1 hint × 10 = 0");
  g_assert_cmpfloat (json_object_get_double_member (event, "score"), ==, 0);
  g_assert_cmpfloat (json_object_get_double_member (event, "model_score"), ==, 5);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (event, "flags")), ==, 0);
}

static void
test_bad_exam_file (void)
{
  g_autofree char *missing = g_build_filename (classroom, "no-such-exam.json", NULL);
  VivaTestCliRun run = { 0 };
  const char *args[] = { "class", "collect", "--exam", missing, reports_dir, NULL };

  viva_test_cli_run (&run, NULL, args);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.err, "no-such-exam.json"));
  viva_test_cli_run_clear (&run);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);

  setup_classroom ();

  g_test_add_func ("/viva/report/hint-cost/report", test_report);
  g_test_add_func ("/viva/report/hint-cost/report-without-cost", test_report_without_cost);
  g_test_add_func ("/viva/class/hint-cost/exports", test_class_exports);
  g_test_add_func ("/viva/class/hint-cost/edited-reports", test_edited_reports);
  g_test_add_func ("/viva/class/hint-cost/never-below-zero", test_never_below_zero);
  g_test_add_func ("/viva/class/hint-cost/bad-exam-file", test_bad_exam_file);
  g_test_add_func ("/viva/class/hint-cost/outside-exam", test_outside_exam);

  status = g_test_run ();
  viva_test_remove_tree (classroom);

  return status;
}

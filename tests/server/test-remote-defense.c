/* test-remote-defense.c: a defense the exam server runs, told by its events
 *
 * A real viva-server on 127.0.0.1 with TLS runs the defense; its events,
 * as a student's client reads them, feed a VivaRemoteDefense, which must
 * tell them as an examiner on the PC would: the same signals, the question
 * pending, the answer, the verdict — or only "handed in" when the exam
 * holds verdicts — and nothing twice after a reconnection.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "server-fixture.h"
#include "viva-remote-defense.h"

typedef struct
{
  guint  deltas;
  guint  started;
  guint  finished;
  guint  questions;
  guint  answers;
  guint  verdicts;
  GString *text;
  char  *sent;
  gint64 sent_seq;
  char  *answer;
  gboolean leaked;   /* a step's result carried more than facts */
  guint  facts;      /* results that said how the step went */
} Seen;

static void
delta_cb (VivaRemoteDefense   *defense,
          const VivaChatDelta *delta,
          Seen                *seen)
{
  seen->deltas++;
  g_string_append (seen->text, delta->text);
}

static void
started_cb (VivaRemoteDefense *defense,
            const char        *step,
            const char        *name,
            const char        *arguments,
            Seen              *seen)
{
  g_assert_nonnull (step);
  g_assert_nonnull (name);
  /* A tool's arguments never reach a student. */
  g_assert_null (arguments);
  seen->started++;
}

static void
finished_cb (VivaRemoteDefense *defense,
             const char        *step,
             const char        *name,
             JsonNode          *result,
             gboolean           ok,
             Seen              *seen)
{
  JsonObject *object;
  g_autoptr(GList) members = NULL;

  g_assert_true (JSON_NODE_HOLDS_OBJECT (result));
  object = json_node_get_object (result);
  members = json_object_get_members (object);
  for (const GList *l = members; l != NULL; l = l->next)
    if (!JSON_NODE_HOLDS_VALUE (json_object_get_member (object, l->data)))
      seen->leaked = TRUE;
  if (json_object_has_member (object, "status") || json_object_has_member (object, "lines") ||
      json_object_has_member (object, "passed"))
    seen->facts++;
  seen->finished++;
}

static void
question_cb (VivaRemoteDefense *defense,
             const char        *step,
             const char        *question,
             Seen              *seen)
{
  seen->questions++;
}

static void
answer_cb (VivaRemoteDefense *defense,
           const char        *text,
           Seen              *seen)
{
  seen->answers++;
  g_free (seen->answer);
  seen->answer = g_strdup (text);
}

static void
verdict_cb (VivaRemoteDefense *defense,
            VivaExamVerdict   *verdict,
            Seen              *seen)
{
  seen->verdicts++;
}

static void
send_answer_cb (VivaRemoteDefense *defense,
                const char        *text,
                gint64             question_seq,
                Seen              *seen)
{
  g_free (seen->sent);
  seen->sent = g_strdup (text);
  seen->sent_seq = question_seq;
}

static void
watch (VivaRemoteDefense *defense,
       Seen              *seen)
{
  seen->text = g_string_new (NULL);
  g_signal_connect (defense, "delta", G_CALLBACK (delta_cb), seen);
  g_signal_connect (defense, "tool-started", G_CALLBACK (started_cb), seen);
  g_signal_connect (defense, "tool-finished", G_CALLBACK (finished_cb), seen);
  g_signal_connect (defense, "question", G_CALLBACK (question_cb), seen);
  g_signal_connect (defense, "answer", G_CALLBACK (answer_cb), seen);
  g_signal_connect (defense, "verdict", G_CALLBACK (verdict_cb), seen);
  g_signal_connect (defense, "send-answer", G_CALLBACK (send_answer_cb), seen);
}

static void
seen_clear (Seen *seen)
{
  g_string_free (seen->text, TRUE);
  g_free (seen->sent);
  g_free (seen->answer);
}

/* Feeds every event after @after, as a client reading the stream; returns
 * how many were new. */
static guint
feed_page (ServerFixture     *fixture,
           const char        *token,
           const char        *exam_id,
           VivaRemoteDefense *defense,
           gint64             after)
{
  g_autofree char *path = g_strdup_printf ("/api/v1/exams/%s/defenses/%s/events?after=%" G_GINT64_FORMAT,
                                           exam_id, viva_remote_defense_get_id (defense), after);
  g_autoptr(JsonNode) page = NULL;
  JsonArray *events;
  guint status = 0, n = 0;

  page = server_fixture_request (fixture, "GET", path, token, NULL, &status, NULL);
  g_assert_cmpuint (status, ==, 200);
  events = json_object_get_array_member (json_node_get_object (page), "events");
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *event = json_array_get_object_element (events, i);

      n += viva_remote_defense_feed (defense, json_object_get_int_member (event, "seq"),
                                     json_object_get_string_member (event, "kind"),
                                     json_object_get_object_member (event, "data"));
    }
  return n;
}

static void
test_new (void)
{
  VivaRemoteDefense *defense = viva_remote_defense_new ("d1", "double");

  g_assert_cmpstr (viva_remote_defense_get_id (defense), ==, "d1");
  g_assert_cmpstr (viva_remote_defense_get_problem_id (defense), ==, "double");
  g_assert_cmpint (viva_remote_defense_get_state (defense), ==, VIVA_EXAMINER_STATE_IDLE);
  g_assert_false (viva_remote_defense_get_ended (defense));
  g_assert_finalize_object (defense);
}

static void
count_cb (GObject    *object,
          GParamSpec *pspec,
          guint      *count)
{
  (*count)++;
}

static void
test_properties (void)
{
  g_autoptr(VivaRemoteDefense) defense = viva_remote_defense_new ("d1", "double");
  g_autoptr(JsonObject) state = json_object_new ();
  g_autoptr(GError) error = NULL;
  guint states = 0, questions = 0, held = 0;

  g_signal_connect (defense, "notify::state", G_CALLBACK (count_cb), &states);
  g_signal_connect (defense, "notify::pending-question", G_CALLBACK (count_cb), &questions);
  g_signal_connect (defense, "notify::held", G_CALLBACK (count_cb), &held);

  /* No question waits: an answer is refused, nothing is sent. */
  g_assert_false (viva_remote_defense_answer (defense, "zero", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_PENDING);

  json_object_set_string_member (state, "state", "thinking");
  g_assert_true (viva_remote_defense_feed (defense, 1, "state", state));
  g_assert_cmpuint (states, ==, 1);
  /* The same state again, or an old event, notifies nothing. */
  g_assert_true (viva_remote_defense_feed (defense, 2, "state", state));
  g_assert_false (viva_remote_defense_feed (defense, 2, "state", state));
  g_assert_cmpuint (states, ==, 1);
  /* A kind a newer server may send is taken and ignored. */
  g_assert_true (viva_remote_defense_feed (defense, 5, "hello", NULL));
  g_assert_cmpint (viva_remote_defense_get_last_seq (defense), ==, 5);
  g_assert_cmpuint (questions, ==, 0);

  viva_remote_defense_fail (defense, "You signed in on another PC.");
  g_assert_cmpint (viva_remote_defense_get_state (defense), ==, VIVA_EXAMINER_STATE_FAILED);
  g_assert_cmpstr (viva_remote_defense_get_error_message (defense), ==, "You signed in on another PC.");
  g_assert_cmpuint (states, ==, 2);
  g_assert_cmpuint (held, ==, 0);
}

static void
test_server (void)
{
  static const char * const exams[] = { "exam.json", NULL };
  ServerFixture fixture;
  g_autofree char *token = NULL;
  g_autofree char *id = NULL;
  g_autoptr(JsonObject) question = NULL;
  g_autoptr(VivaRemoteDefense) defense = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) reply = NULL;
  g_autofree char *path = NULL;
  g_autofree char *body = NULL;
  VivaExamVerdict *verdict;
  Seen seen = { 0 };
  gint64 after = 0;
  guint status = 0, n;

  server_fixture_setup (&fixture, exams);
  token = server_fixture_sign_in (&fixture, "server-quiz", "s1");
  id = server_fixture_submit (&fixture, token, "server-quiz", "double", "def double(x):\n    return x + x\n");
  question = server_fixture_wait_for (&fixture, token, "server-quiz", id, "question", &after, NULL);

  defense = viva_remote_defense_new (id, "double");
  watch (defense, &seen);
  n = feed_page (&fixture, token, "server-quiz", defense, 0);
  g_assert_cmpuint (n, >, 0);

  /* The examiner read and ran the code on the server, said something and
   * asked; the question waits here as it would on the PC. */
  g_assert_cmpuint (seen.started, >, 0);
  /* Every step but the question, which waits for its answer, is done. */
  g_assert_cmpuint (seen.finished + 1, ==, seen.started);
  g_assert_false (seen.leaked);
  /* Each card can say how its step went (lines read, ran, passed). */
  g_assert_cmpuint (seen.facts, ==, seen.finished);
  g_assert_cmpuint (seen.questions, ==, 1);
  g_assert_cmpint (viva_remote_defense_get_state (defense), ==, VIVA_EXAMINER_STATE_WAITING_FOR_STUDENT);
  g_assert_cmpstr (viva_remote_defense_get_pending_question (defense), ==, "What does double(0) return?");
  g_assert_cmpint (viva_remote_defense_get_question_seq (defense), ==, json_object_get_int_member (question, "seq"));

  /* Read again from the start (a reconnection): nothing is told twice. */
  g_assert_cmpuint (feed_page (&fixture, token, "server-quiz", defense, 0), ==, 0);
  g_assert_cmpuint (seen.questions, ==, 1);

  /* The answer is handed to the connection with its question's number. */
  g_assert_true (viva_remote_defense_answer (defense, "zero", &error));
  g_assert_no_error (error);
  g_assert_cmpstr (seen.sent, ==, "zero");
  g_assert_cmpint (seen.sent_seq, ==, json_object_get_int_member (question, "seq"));
  g_assert_cmpint (viva_remote_defense_get_state (defense), ==, VIVA_EXAMINER_STATE_THINKING);
  g_assert_null (viva_remote_defense_get_pending_question (defense));
  /* Shown once the server tells it back. */
  g_assert_cmpuint (seen.answers, ==, 0);

  path = g_strdup_printf ("/api/v1/exams/server-quiz/defenses/%s/answer", id);
  body = g_strdup_printf ("{\"text\":\"%s\",\"question_seq\":%" G_GINT64_FORMAT "}", seen.sent, seen.sent_seq);
  reply = server_fixture_request (&fixture, "POST", path, token, body, &status, NULL);
  g_assert_cmpuint (status, ==, 200);

  after = viva_remote_defense_get_last_seq (defense);
  g_clear_pointer (&question, json_object_unref);
  question = server_fixture_wait_for (&fixture, token, "server-quiz", id, "finished", &after, NULL);
  feed_page (&fixture, token, "server-quiz", defense, viva_remote_defense_get_last_seq (defense));

  g_assert_cmpuint (seen.answers, ==, 1);
  g_assert_cmpstr (seen.answer, ==, "zero");
  g_assert_cmpuint (seen.verdicts, ==, 1);
  g_assert_true (viva_remote_defense_get_ended (defense));
  g_assert_false (viva_remote_defense_get_held (defense));
  g_assert_cmpint (viva_remote_defense_get_state (defense), ==, VIVA_EXAMINER_STATE_FINISHED);
  verdict = viva_remote_defense_get_verdict (defense);
  g_assert_nonnull (verdict);
  g_assert_true (viva_exam_verdict_get_passed (verdict));
  g_assert_cmpint (viva_exam_verdict_get_status (verdict), ==, VIVA_EXAM_STATUS_FINISHED);
  /* The card's facts came with it: the steps, the probes, each hidden
   * test's pass, and the model's word agreeing with them. */
  g_assert_nonnull (viva_exam_verdict_get_steps (verdict));
  g_assert_cmpuint (viva_exam_verdict_get_probes (verdict)->len, >, 0);
  g_assert_nonnull (viva_exam_verdict_get_grade (verdict));
  g_assert_cmpuint (viva_grade_report_get_n_tests (viva_exam_verdict_get_grade (verdict)), ==, 2);
  g_assert_true (viva_exam_verdict_get_consistent (verdict));
  g_assert_cmpint (viva_remote_defense_get_last_seq (defense), ==, after);

  seen_clear (&seen);
  server_fixture_teardown (&fixture);
}

static void
test_held (void)
{
  static const char * const exams[] = { "exam-held.json", NULL };
  ServerFixture fixture;
  g_autofree char *token = NULL;
  g_autofree char *id = NULL;
  g_autofree char *path = NULL;
  g_autofree char *body = NULL;
  g_autoptr(JsonObject) question = NULL;
  g_autoptr(JsonObject) finished = NULL;
  g_autoptr(VivaRemoteDefense) defense = NULL;
  g_autoptr(JsonNode) reply = NULL;
  Seen seen = { 0 };
  gint64 after = 0;
  guint status = 0;

  server_fixture_setup (&fixture, exams);
  token = server_fixture_sign_in (&fixture, "held-quiz", "s1");
  id = server_fixture_submit (&fixture, token, "held-quiz", "double", "def double(x):\n    return x + x\n");
  question = server_fixture_wait_for (&fixture, token, "held-quiz", id, "question", &after, NULL);
  path = g_strdup_printf ("/api/v1/exams/held-quiz/defenses/%s/answer", id);
  body = g_strdup_printf ("{\"text\":\"zero\",\"question_seq\":%" G_GINT64_FORMAT "}",
                          json_object_get_int_member (question, "seq"));
  reply = server_fixture_request (&fixture, "POST", path, token, body, &status, NULL);
  g_assert_cmpuint (status, ==, 200);
  finished = server_fixture_wait_for (&fixture, token, "held-quiz", id, "finished", &after, NULL);

  defense = viva_remote_defense_new (id, "double");
  watch (defense, &seen);
  feed_page (&fixture, token, "held-quiz", defense, 0);

  /* Handed in, and no score: the verdict is the exam's until it closes. */
  g_assert_true (viva_remote_defense_get_ended (defense));
  g_assert_true (viva_remote_defense_get_held (defense));
  g_assert_null (viva_remote_defense_get_verdict (defense));
  g_assert_cmpuint (seen.verdicts, ==, 0);
  g_assert_cmpint (viva_remote_defense_get_state (defense), ==, VIVA_EXAMINER_STATE_FINISHED);
  g_assert_cmpint (viva_remote_defense_get_held_seq (defense), >, 0);

  /* Read again, nothing is new while the exam holds the verdict. */
  g_assert_cmpuint (feed_page (&fixture, token, "held-quiz", defense, 0), ==, 0);
  g_assert_true (viva_remote_defense_get_held (defense));

  /* The teacher closes the exam: the verdict, read again, is the student's. */
  g_clear_pointer (&reply, json_node_unref);
  reply = server_fixture_request (&fixture, "POST", "/api/v1/exams/held-quiz/close",
                                  g_hash_table_lookup (fixture.teacher_tokens, "held-quiz"), "{}", &status, NULL);
  g_assert_cmpuint (status, ==, 200);
  feed_page (&fixture, token, "held-quiz", defense, viva_remote_defense_get_held_seq (defense) - 1);
  g_assert_false (viva_remote_defense_get_held (defense));
  g_assert_nonnull (viva_remote_defense_get_verdict (defense));
  g_assert_cmpuint (seen.verdicts, ==, 1);

  seen_clear (&seen);
  server_fixture_teardown (&fixture);
}

/* The verdict card's names, as the student sees them from the server: a
 * probe of the shown test by that test's name (the server sends no probe's
 * code, so an unnamed probe would be an empty quote), each hidden test by
 * its name and pass — a held-out test's check and expected value never. */
static void
test_names (void)
{
  static const char * const exams[] = { "exam-shown.json", NULL };
  ServerFixture fixture;
  g_autofree char *token = NULL;
  g_autofree char *id = NULL;
  g_autofree char *path = NULL;
  g_autofree char *body = NULL;
  g_autoptr(JsonObject) question = NULL;
  g_autoptr(JsonObject) finished = NULL;
  g_autoptr(VivaRemoteDefense) defense = NULL;
  g_autoptr(JsonNode) reply = NULL;
  VivaExamVerdict *verdict;
  VivaGradeReport *grade;
  GPtrArray *probes;
  Seen seen = { 0 };
  gint64 after = 0;
  guint status = 0;

  server_fixture_setup (&fixture, exams);
  token = server_fixture_sign_in (&fixture, "server-shown", "s1");
  /* Right on the shown example, wrong on the held-out negative one. */
  id = server_fixture_submit (&fixture, token, "server-shown", "double", "def double(x):\n    return abs(x) * 2\n");
  question = server_fixture_wait_for (&fixture, token, "server-shown", id, "question", &after, NULL);
  path = g_strdup_printf ("/api/v1/exams/server-shown/defenses/%s/answer", id);
  body = g_strdup_printf ("{\"text\":\"zero\",\"question_seq\":%" G_GINT64_FORMAT "}",
                          json_object_get_int_member (question, "seq"));
  reply = server_fixture_request (&fixture, "POST", path, token, body, &status, NULL);
  g_assert_cmpuint (status, ==, 200);
  finished = server_fixture_wait_for (&fixture, token, "server-shown", id, "finished", &after, NULL);

  defense = viva_remote_defense_new (id, "double");
  watch (defense, &seen);
  feed_page (&fixture, token, "server-shown", defense, 0);
  g_assert_cmpuint (seen.verdicts, ==, 1);
  verdict = viva_remote_defense_get_verdict (defense);
  g_assert_nonnull (verdict);

  probes = viva_exam_verdict_get_probes (verdict);
  g_assert_cmpuint (probes->len, ==, 1);
  g_assert_cmpstr (((VivaExamProbe *)g_ptr_array_index (probes, 0))->name, ==, "doubles three");
  g_assert_true (((VivaExamProbe *)g_ptr_array_index (probes, 0))->passed);
  g_assert_null (((VivaExamProbe *)g_ptr_array_index (probes, 0))->code);

  grade = viva_exam_verdict_get_grade (verdict);
  g_assert_nonnull (grade);
  g_assert_cmpuint (viva_grade_report_get_n_tests (grade), ==, 2);
  g_assert_cmpstr (viva_grade_report_get_test (grade, 0)->name, ==, "doubles three");
  g_assert_true (viva_grade_report_get_test (grade, 0)->passed);
  g_assert_cmpstr (viva_grade_report_get_test (grade, 1)->name, ==, "negative numbers");
  g_assert_false (viva_grade_report_get_test (grade, 1)->passed);
  g_assert_null (strstr (viva_grade_report_get_test (grade, 1)->message, "CHECKMARKER"));
  g_assert_null (strstr (viva_grade_report_get_test (grade, 1)->message, "-8"));

  seen_clear (&seen);
  server_fixture_teardown (&fixture);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/viva/remote-defense/new", test_new);
  g_test_add_func ("/viva/remote-defense/properties", test_properties);
  g_test_add_func ("/viva/remote-defense/server", test_server);
  g_test_add_func ("/viva/remote-defense/held", test_held);
  g_test_add_func ("/viva/remote-defense/names", test_names);

  return g_test_run ();
}

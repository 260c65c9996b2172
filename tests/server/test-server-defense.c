/* test-server-defense.c: defenses run by the server — a kill mid-question,
 * time-up with no client (and with the server down at the time), held
 * verdicts, signed reports, a second PC
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gnutls/abstract.h>
#include <gnutls/gnutls.h>
#include <signal.h>
#include <string.h>

#include "server-fixture.h"

static JsonObject *
object_of (JsonNode *node)
{
  return json_node_get_object (node);
}

static void
answer (ServerFixture *fixture,
        const char    *token,
        const char    *exam_id,
        const char    *defense_id,
        gint64         question_seq,
        guint          expect)
{
  g_autofree char *path = g_strdup_printf ("/api/v1/exams/%s/defenses/%s/answer", exam_id, defense_id);
  g_autofree char *body = g_strdup_printf ("{\"text\":\"zero\",\"question_seq\":%" G_GINT64_FORMAT "}", question_seq);
  g_autoptr(JsonNode) reply = NULL;
  guint status = 0;

  reply = server_fixture_request (fixture, "POST", path, token, body, &status, NULL);
  g_assert_cmpuint (status, ==, expect);
}

static JsonArray *
events_page (ServerFixture *fixture,
             const char    *token,
             const char    *exam_id,
             const char    *defense_id,
             gint64         after)
{
  g_autofree char *path = g_strdup_printf ("/api/v1/exams/%s/defenses/%s/events?after=%" G_GINT64_FORMAT,
                                           exam_id, defense_id, after);
  g_autoptr(JsonNode) page = NULL;
  guint status = 0;

  page = server_fixture_request (fixture, "GET", path, token, NULL, &status, NULL);
  g_assert_cmpuint (status, ==, 200);
  return json_array_ref (json_object_get_array_member (object_of (page), "events"));
}

/* An event of the PC's timeline on the problem at @time (a paste, the
 * window losing or getting back the focus), sent as the app sends it. */
static void
post_event (ServerFixture *fixture,
            const char    *token,
            const char    *kind,
            const char    *time)
{
  g_autofree char *body = g_strdup_printf ("{\"events\":[{\"kind\":\"%s\",\"problem\":\"double\",\"time\":\"%s\"}]}",
                                           kind, time);
  g_autoptr(JsonNode) answer = NULL;
  guint status = 0;

  answer = server_fixture_request (fixture, "POST", "/api/v1/exams/server-quiz/sitting/timeline", token, body,
                                   &status, NULL);
  g_assert_cmpuint (status, ==, 200);
}

/* @text has @needle exactly once; returns where. */
static const char *
once (const char *text,
      const char *needle)
{
  const char *at = strstr (text, needle);

  g_assert_nonnull (at);
  g_assert_null (strstr (at + 1, needle));
  return at;
}

static gboolean
verify (const char *public_pem,
        const char *data,
        const char *signature_b64)
{
  gnutls_pubkey_t pub;
  gnutls_datum_t key = { (unsigned char *)public_pem, strlen (public_pem) };
  gnutls_datum_t message = { (unsigned char *)data, strlen (data) };
  gsize length = 0;
  g_autofree guchar *raw = g_base64_decode (signature_b64, &length);
  gnutls_datum_t sig = { raw, length };
  int rc;

  g_assert_cmpint (gnutls_pubkey_init (&pub), ==, 0);
  g_assert_cmpint (gnutls_pubkey_import (pub, &key, GNUTLS_X509_FMT_PEM), ==, 0);
  rc = gnutls_pubkey_verify_data2 (pub, GNUTLS_SIGN_EDDSA_ED25519, 0, &message, &sig);
  gnutls_pubkey_deinit (pub);
  return rc >= 0;
}

static void
test_kill (void)
{
  static const char * const exams[] = { "exam.json", NULL };
  ServerFixture fixture;
  g_autofree char *token = NULL;
  g_autofree char *defense = NULL;
  g_autoptr(JsonObject) question = NULL;
  g_autoptr(JsonObject) again = NULL;
  g_autoptr(JsonObject) verdict = NULL;
  g_autoptr(JsonArray) before = NULL;
  g_autoptr(JsonArray) after_restart = NULL;
  g_autoptr(JsonNode) reports = NULL;
  g_autoptr(JsonNode) defense_state = NULL;
  g_autofree char *state_path = NULL;
  gint64 after = 0, seq;
  guint status = 0;
  guint n_before;

  server_fixture_setup (&fixture, exams);
  token = server_fixture_sign_in (&fixture, "server-quiz", "s1");
  /* Before the Submit: the defense's timeline from its start. */
  post_event (&fixture, token, "paste", "2026-12-01T21:59:00.000Z");
  defense = server_fixture_submit (&fixture, token, "server-quiz", "double", "def double(x):\n    return x + x\n");
  question = server_fixture_wait_for (&fixture, token, "server-quiz", defense, "question", &after, NULL);
  seq = json_object_get_int_member (question, "seq");
  before = events_page (&fixture, token, "server-quiz", defense, 0);
  n_before = json_array_get_length (before);
  /* While the examiner asks, the window loses the focus: the defense's
   * session has it (kept in its checkpoint at its next step, or taken
   * again from the database by the node that continues it). */
  post_event (&fixture, token, "focus-lost", "2026-12-01T22:00:01.111Z");

  /* Killed with the question pending, started again: a new node id,
   * which takes over its dead predecessor's defense at once, without
   * waiting for the lease to run out. */
  {
    g_autofree char *killed = g_strdup (json_object_get_string_member (fixture.listening, "node"));

    server_fixture_kill (&fixture);
    server_fixture_start (&fixture);
    g_assert_cmpstr (json_object_get_string_member (fixture.listening, "node"), !=, killed);
    g_assert_cmpint (json_object_get_int_member (fixture.listening, "resumed"), ==, 1);
  }

  /* The same question is pending, under the same number. */
  state_path = g_strdup_printf ("/api/v1/exams/server-quiz/defenses/%s", defense);
  defense_state = server_fixture_request (&fixture, "GET", state_path, token, NULL, &status, NULL);
  g_assert_cmpuint (status, ==, 200);
  for (guint i = 0; i < 100 && json_object_get_null_member (object_of (defense_state), "pending_question"); i++)
    {
      g_usleep (100 * 1000);
      g_clear_pointer (&defense_state, json_node_unref);
      defense_state = server_fixture_request (&fixture, "GET", state_path, token, NULL, &status, NULL);
    }
  g_assert_cmpstr (json_object_get_string_member (object_of (defense_state), "pending_question"),
                   ==, "What does double(0) return?");
  g_assert_cmpint (json_object_get_int_member (object_of (defense_state), "question_seq"), ==, seq);

  /* Nothing streamed before the kill was lost, nor told again since: the
   * events up to the question are the same, and no step after it repeats
   * a question, a tool call or text. */
  after_restart = events_page (&fixture, token, "server-quiz", defense, 0);
  g_assert_cmpuint (json_array_get_length (after_restart), >=, n_before);
  for (guint i = 0; i < n_before; i++)
    {
      JsonObject *a = json_array_get_object_element (before, i);
      JsonObject *b = json_array_get_object_element (after_restart, i);

      g_assert_cmpint (json_object_get_int_member (a, "seq"), ==, json_object_get_int_member (b, "seq"));
      g_assert_cmpstr (json_object_get_string_member (a, "kind"), ==, json_object_get_string_member (b, "kind"));
    }
  for (guint i = n_before; i < json_array_get_length (after_restart); i++)
    {
      const char *kind = json_object_get_string_member (json_array_get_object_element (after_restart, i), "kind");

      g_assert_cmpstr (kind, ==, "state");
    }

  /* The focus back, sent to the node that continues the defense. */
  post_event (&fixture, token, "focus-back", "2026-12-01T22:00:02.222Z");

  /* The answer goes to that question, and the defense finishes. */
  answer (&fixture, token, "server-quiz", defense, seq, 200);
  after = seq;
  verdict = server_fixture_wait_for (&fixture, token, "server-quiz", defense, "verdict", &after, NULL);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (verdict, "data"), "verdict"),
                   ==, "pass");
  /* An answer to a question no longer pending is refused. */
  answer (&fixture, token, "server-quiz", defense, seq, 409);

  /* Its report is kept and signed by the server's key. */
  for (guint i = 0; i < 100; i++)
    {
      g_clear_pointer (&reports, json_node_unref);
      reports = server_fixture_request (&fixture, "GET", "/api/v1/exams/server-quiz/reports",
                                        g_hash_table_lookup (fixture.teacher_tokens, "server-quiz"), NULL, &status, NULL);
      if (json_array_get_length (json_object_get_array_member (object_of (reports), "reports")) > 0)
        break;
      g_usleep (100 * 1000);
    }
  {
    JsonArray *list = json_object_get_array_member (object_of (reports), "reports");
    JsonObject *report = json_array_get_object_element (list, 0);
    const char *text = json_object_get_string_member (report, "report");
    g_autofree char *forged = g_strdup (text);
    char *pass;

    g_assert_cmpuint (json_array_get_length (list), ==, 1);
    g_assert_cmpstr (json_object_get_string_member (report, "student_id"), ==, "s1");
    g_assert_nonnull (strstr (text, "\"viva-report/1\""));
    g_assert_nonnull (strstr (text, "Ann Lee"));
    /* The PC's events, each once, in their order: the one before the
     * Submit, the one before the kill, the one after. */
    g_assert_true (once (text, "2026-12-01T21:59:00.000Z") < once (text, "2026-12-01T22:00:01.111Z"));
    g_assert_true (once (text, "2026-12-01T22:00:01.111Z") < once (text, "2026-12-01T22:00:02.222Z"));
    g_assert_true (verify (json_object_get_string_member (object_of (reports), "public_key"), text,
                           json_object_get_string_member (report, "signature")));
    /* A report changed by one character no longer verifies. */
    pass = strstr (forged, "\"s1\"");
    g_assert_nonnull (pass);
    pass[2] = '2';
    g_assert_false (verify (json_object_get_string_member (object_of (reports), "public_key"), forged,
                            json_object_get_string_member (report, "signature")));
  }

  server_fixture_teardown (&fixture);
}

static JsonObject *
student_row (JsonNode   *status,
             const char *student_id)
{
  JsonArray *students = json_object_get_array_member (object_of (status), "students");

  for (guint i = 0; i < json_array_get_length (students); i++)
    if (g_str_equal (json_object_get_string_member (json_array_get_object_element (students, i), "student_id"),
                     student_id))
      return json_array_get_object_element (students, i);
  g_assert_not_reached ();
}

static void
test_time_up (void)
{
  static const char * const exams[] = { "exam-short.json", NULL };
  ServerFixture fixture;
  const char *teacher;
  g_autofree char *token = NULL;
  g_autofree char *pending = NULL;
  g_autoptr(JsonObject) question = NULL;
  g_autoptr(JsonNode) status_node = NULL;
  g_autoptr(JsonNode) late = NULL;
  JsonObject *row = NULL;
  gint64 after = 0;
  guint status = 0;

  server_fixture_setup (&fixture, exams);
  teacher = g_hash_table_lookup (fixture.teacher_tokens, "short-quiz");
  token = server_fixture_sign_in (&fixture, "short-quiz", "s1");

  /* Worked on: double (changed and saved). Left as it came: square's
   * starter. A second student's defense waits on its question. */
  {
    g_autoptr(JsonNode) a = server_fixture_request (&fixture, "PUT", "/api/v1/exams/short-quiz/sitting/problems/double/code",
                                                    token, "{\"kind\":\"autosave\",\"code\":\"def double(x):\\n    return 2 * x + 0\\n\"}",
                                                    &status, NULL);
    g_autoptr(JsonNode) b = NULL;

    g_assert_cmpuint (status, ==, 200);
    b = server_fixture_request (&fixture, "PUT", "/api/v1/exams/short-quiz/sitting/problems/square/code", token,
                                "{\"kind\":\"autosave\",\"code\":\"def square(x):\\n    return 0\\n\"}", &status, NULL);
    g_assert_cmpuint (status, ==, 200);
  }
  {
    g_autofree char *other = server_fixture_sign_in (&fixture, "short-quiz", "s2");

    pending = server_fixture_submit (&fixture, other, "short-quiz", "square", "def square(x):\n    return x * x\n");
    question = server_fixture_wait_for (&fixture, other, "short-quiz", pending, "question", &after, NULL);
  }

  /* The students' PCs are gone. The server's clock ends the exam. */
  for (guint i = 0; i < 600; i++)
    {
      g_clear_pointer (&status_node, json_node_unref);
      status_node = server_fixture_request (&fixture, "GET", "/api/v1/exams/short-quiz/status", teacher, NULL,
                                            &status, NULL);
      g_assert_cmpuint (status, ==, 200);
      row = student_row (status_node, "s1");
      if (g_str_equal (json_object_get_string_member (row, "state"), "handed_in") &&
          json_object_get_int_member (row, "reports") == 1 &&
          json_object_get_int_member (student_row (status_node, "s2"), "reports") == 1)
        break;
      g_usleep (100 * 1000);
    }
  g_assert_cmpstr (json_object_get_string_member (row, "state"), ==, "handed_in");
  /* Only the problem worked on was handed in, from the code the server held. */
  g_assert_cmpint (json_object_get_int_member (row, "reports"), ==, 1);
  {
    JsonArray *defenses = json_object_get_array_member (row, "defenses");

    g_assert_cmpuint (json_array_get_length (defenses), ==, 1);
    g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (defenses, 0), "problem"), ==, "double");
    g_assert_true (json_object_get_boolean_member (json_array_get_object_element (defenses, 0), "handed_in"));
  }
  /* No Submit enqueued its grading: the defense enqueued a job of its own
   * and its verdict waited on it. The pool graded the code the server
   * held, which passes. */
  {
    JsonObject *grade = json_object_get_object_member (json_object_get_object_member (row, "grades"), "double");

    g_assert_nonnull (grade);
    g_assert_cmpstr (json_object_get_string_member (grade, "state"), ==, "done");
    g_assert_cmpint (json_object_get_int_member (grade, "total"), >, 0);
    g_assert_cmpint (json_object_get_int_member (grade, "passed"), ==, json_object_get_int_member (grade, "total"));
    g_assert_cmpint (json_object_get_int_member (grade, "wait_ms"), >=, 0);
  }
  /* The waiting question was answered for the absent student. */
  g_assert_cmpint (json_object_get_int_member (student_row (status_node, "s2"), "reports"), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (student_row (status_node, "s2"), "state"), ==, "handed_in");

  /* viva-server status says the same, headless. */
  {
    const char *args[] = { "status", "short-quiz", "--json", NULL };
    g_autofree char *out = NULL;

    g_assert_cmpint (server_fixture_run (&fixture, args, &out), ==, 0);
    g_assert_nonnull (strstr (out, "\"event\":\"status\""));
    g_assert_nonnull (strstr (out, "\"handed_in\":2"));
    g_assert_nonnull (strstr (out, "\"not_signed_in\":1"));
  }

  /* Nothing is saved after the time. */
  late = server_fixture_request (&fixture, "PUT", "/api/v1/exams/short-quiz/sitting/problems/double/code", token,
                                 "{\"kind\":\"autosave\",\"code\":\"late\"}", &status, NULL);
  g_assert_cmpuint (status, ==, 409);

  server_fixture_teardown (&fixture);
}

/* The server was down at the time: its next start hands the sitting in,
 * from the code it held, once; a start after that hands in nothing more. */
static void
test_time_up_while_down (void)
{
  static const char * const exams[] = { "exam-short.json", NULL };
  ServerFixture fixture;
  const char *teacher;
  g_autofree char *token = NULL;
  g_autoptr(JsonNode) saved = NULL;
  g_autoptr(JsonNode) sitting = NULL;
  g_autoptr(JsonNode) status_node = NULL;
  JsonObject *row = NULL;
  gint64 deadline;
  guint status = 0;

  server_fixture_setup (&fixture, exams);
  teacher = g_hash_table_lookup (fixture.teacher_tokens, "short-quiz");
  token = server_fixture_sign_in (&fixture, "short-quiz", "s1");
  saved = server_fixture_request (&fixture, "PUT", "/api/v1/exams/short-quiz/sitting/problems/double/code", token,
                                  "{\"kind\":\"run\",\"code\":\"def double(x):\\n    return x * 2\\n\"}",
                                  &status, NULL);
  g_assert_cmpuint (status, ==, 200);
  sitting = server_fixture_request (&fixture, "GET", "/api/v1/exams/short-quiz/sitting", token, NULL, &status, NULL);
  g_assert_cmpuint (status, ==, 200);
  deadline = json_object_get_int_member (json_object_get_object_member (object_of (sitting), "clock"), "deadline");

  /* Killed before the time, started again only after it. */
  server_fixture_kill (&fixture);
  while (g_get_real_time () / 1000 <= deadline)
    g_usleep (100 * 1000);
  server_fixture_start (&fixture);

  for (guint i = 0; i < 600; i++)
    {
      g_clear_pointer (&status_node, json_node_unref);
      status_node = server_fixture_request (&fixture, "GET", "/api/v1/exams/short-quiz/status", teacher, NULL,
                                            &status, NULL);
      g_assert_cmpuint (status, ==, 200);
      row = student_row (status_node, "s1");
      if (json_object_get_int_member (row, "reports") == 1)
        break;
      g_usleep (100 * 1000);
    }
  g_assert_cmpstr (json_object_get_string_member (row, "state"), ==, "handed_in");
  g_assert_cmpint (json_object_get_int_member (row, "reports"), ==, 1);

  /* Started once more: nothing is handed in twice. */
  server_fixture_kill (&fixture);
  server_fixture_start (&fixture);
  g_clear_pointer (&status_node, json_node_unref);
  status_node = server_fixture_request (&fixture, "GET", "/api/v1/exams/short-quiz/status", teacher, NULL,
                                        &status, NULL);
  g_assert_cmpuint (status, ==, 200);
  row = student_row (status_node, "s1");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (row, "defenses")), ==, 1);
  g_assert_true (json_object_get_boolean_member (json_array_get_object_element (json_object_get_array_member (row, "defenses"), 0),
                                                 "handed_in"));

  server_fixture_teardown (&fixture);
}

static void
test_held (void)
{
  static const char * const exams[] = { "exam-held.json", NULL };
  ServerFixture fixture;
  const char *teacher;
  g_autofree char *token = NULL;
  g_autofree char *defense = NULL;
  g_autoptr(JsonObject) question = NULL;
  g_autoptr(JsonObject) verdict = NULL;
  g_autoptr(JsonArray) events = NULL;
  g_autoptr(JsonNode) closed = NULL;
  JsonObject *data;
  gint64 after = 0;
  guint status = 0;

  server_fixture_setup (&fixture, exams);
  teacher = g_hash_table_lookup (fixture.teacher_tokens, "held-quiz");
  token = server_fixture_sign_in (&fixture, "held-quiz", "s1");
  defense = server_fixture_submit (&fixture, token, "held-quiz", "double", "def double(x):\n    return x * 2\n");
  question = server_fixture_wait_for (&fixture, token, "held-quiz", defense, "question", &after, NULL);
  answer (&fixture, token, "held-quiz", defense, json_object_get_int_member (question, "seq"), 200);
  verdict = server_fixture_wait_for (&fixture, token, "held-quiz", defense, "verdict", &after, NULL);

  /* Handed in, and no score, while the exam runs. */
  data = json_object_get_object_member (verdict, "data");
  g_assert_true (json_object_get_boolean_member (data, "held"));
  g_assert_cmpstr (json_object_get_string_member (data, "status"), ==, "handed_in");
  g_assert_false (json_object_has_member (data, "score"));
  g_assert_false (json_object_has_member (data, "verdict"));

  /* Once the teacher closes the exam, the verdict shows. */
  closed = server_fixture_request (&fixture, "POST", "/api/v1/exams/held-quiz/close", teacher, NULL, &status, NULL);
  g_assert_cmpuint (status, ==, 200);
  events = events_page (&fixture, token, "held-quiz", defense, json_object_get_int_member (verdict, "seq") - 1);
  data = json_object_get_object_member (json_array_get_object_element (events, 0), "data");
  g_assert_cmpstr (json_object_get_string_member (data, "verdict"), ==, "pass");
  g_assert_cmpint (json_object_get_int_member (data, "score"), ==, 100);

  server_fixture_teardown (&fixture);
}

static void
test_reports_command (void)
{
  static const char * const exams[] = { "exam.json", NULL };
  ServerFixture fixture;
  g_autofree char *token = NULL;
  g_autofree char *defense = NULL;
  g_autofree char *out = NULL;
  g_autofree char *output = NULL;
  g_autoptr(JsonObject) question = NULL;
  g_autoptr(JsonObject) done = NULL;
  gint64 after = 0;
  guint json_files = 0;

  server_fixture_setup (&fixture, exams);
  token = server_fixture_sign_in (&fixture, "server-quiz", "s2");
  defense = server_fixture_submit (&fixture, token, "server-quiz", "square", "def square(x):\n    return x ** 2\n");
  question = server_fixture_wait_for (&fixture, token, "server-quiz", defense, "question", &after, NULL);
  answer (&fixture, token, "server-quiz", defense, json_object_get_int_member (question, "seq"), 200);
  done = server_fixture_wait_for (&fixture, token, "server-quiz", defense, "finished", &after, NULL);

  output = g_build_filename (fixture.state_dir, "out", NULL);
  {
    const char *args[] = { "reports", "server-quiz", "--output", output, "--json", NULL };

    g_assert_cmpint (server_fixture_run (&fixture, args, &out), ==, 0);
  }

  {
    g_autoptr(GDir) dir = g_dir_open (output, 0, NULL);
    g_autofree char *key_path = g_build_filename (output, "viva-server-signing-key.pem", NULL);
    g_autofree char *key = NULL;
    const char *name;

    g_assert_true (g_file_get_contents (key_path, &key, NULL, NULL));
    while ((name = g_dir_read_name (dir)))
      {
        g_autofree char *path = NULL;
        g_autofree char *sig_path = NULL;
        g_autofree char *html_path = NULL;
        g_autofree char *text = NULL;
        g_autofree char *sig_text = NULL;
        g_autoptr(JsonNode) sig = NULL;

        if (!g_str_has_suffix (name, ".json"))
          continue;
        json_files++;
        path = g_build_filename (output, name, NULL);
        sig_path = g_strconcat (path, ".sig", NULL);
        html_path = g_strdup (path);
        strcpy (html_path + strlen (html_path) - 4, "html");
        g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
        g_assert_true (g_file_get_contents (sig_path, &sig_text, NULL, NULL));
        g_assert_true (g_file_test (html_path, G_FILE_TEST_IS_REGULAR));
        sig = json_from_string (sig_text, NULL);
        g_assert_cmpstr (json_object_get_string_member (object_of (sig), "algorithm"), ==, "ed25519");
        g_assert_cmpstr (json_object_get_string_member (object_of (sig), "file"), ==, name);
        g_assert_true (verify (key, text, json_object_get_string_member (object_of (sig), "signature")));
        g_assert_nonnull (strstr (text, "Bo, Chen"));
      }
  }
  g_assert_cmpuint (json_files, ==, 1);

  server_fixture_teardown (&fixture);
}

SoupMessage *server_fixture_message (ServerFixture *, const char *, const char *, const char *);

static void
test_second_pc (void)
{
  static const char * const exams[] = { "exam.json", NULL };
  ServerFixture fixture;
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  g_autofree char *defense = NULL;
  g_autofree char *path = NULL;
  g_autoptr(JsonObject) question = NULL;
  g_autoptr(SoupMessage) msg = NULL;
  g_autoptr(GInputStream) body = NULL;
  g_autoptr(GDataInputStream) lines = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) sitting = NULL;
  g_autoptr(GString) stream = g_string_new (NULL);
  JsonObject *double_problem;
  gint64 after = 0;
  guint status = 0;
  char *line;

  server_fixture_setup (&fixture, exams);
  first = server_fixture_sign_in (&fixture, "server-quiz", "s3");
  defense = server_fixture_submit (&fixture, first, "server-quiz", "double", "def double(x):\n    return 2 * x\n");
  question = server_fixture_wait_for (&fixture, first, "server-quiz", defense, "question", &after, NULL);

  /* The first PC follows the defense's stream, from where it is. */
  path = g_strdup_printf ("/api/v1/exams/server-quiz/defenses/%s/events?after=%" G_GINT64_FORMAT, defense, after);
  msg = server_fixture_message (&fixture, "GET", path, first);
  soup_message_headers_replace (soup_message_get_request_headers (msg), "Accept", "text/event-stream");
  body = soup_session_send (fixture.session, msg, NULL, &error);
  g_assert_no_error (error);

  /* The same student signs in on another PC (its own connection). */
  {
    SoupSession *own = fixture.session;

    fixture.session = soup_session_new ();
    second = server_fixture_sign_in (&fixture, "server-quiz", "s3");
    sitting = server_fixture_request (&fixture, "GET", "/api/v1/exams/server-quiz/sitting", second, NULL, &status, NULL);
    g_object_unref (fixture.session);
    fixture.session = own;
  }

  /* It gets the same sitting: the pending question, the code submitted. */
  g_assert_cmpuint (status, ==, 200);
  double_problem = json_array_get_object_element (json_object_get_array_member (object_of (sitting), "problems"), 0);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (double_problem, "defense"),
                                                  "pending_question"), ==, "What does double(0) return?");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (double_problem, "code"), "text"),
                   ==, "def double(x):\n    return 2 * x\n");

  /* And the first PC is told it was signed out; its stream ends. */
  lines = g_data_input_stream_new (body);
  while ((line = g_data_input_stream_read_line_utf8 (lines, NULL, NULL, NULL)) != NULL)
    {
      g_string_append_printf (stream, "%s\n", line);
      g_free (line);
    }
  g_assert_nonnull (strstr (stream->str, "event: signed_out"));

  server_fixture_teardown (&fixture);
}

/* Two serve processes on one state folder (on PostgreSQL, one database
 * too) are two nodes: each its own id and its own row, listed apart by
 * status; the second does not take the first's live defense. */
static void
test_two_serves (void)
{
  static const char * const exams[] = { "exam.json", NULL };
  ServerFixture fixture;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocess) second = NULL;
  g_autoptr(GDataInputStream) lines = NULL;
  g_autoptr(JsonNode) listening = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = NULL;
  g_autofree char *token = NULL;
  g_autofree char *defense = NULL;
  g_autofree char *out = NULL;
  g_auto(GStrv) status_lines = NULL;
  g_autoptr(JsonObject) question = NULL;
  const char *status_args[] = { "status", "server-quiz", "--json", NULL };
  const char *first_id, *second_id;
  gboolean seen_first = FALSE, seen_second = FALSE;
  gint64 first_pid = 0, second_pid = 0, after = 0;

  server_fixture_setup (&fixture, exams);
  token = server_fixture_sign_in (&fixture, "server-quiz", "s1");
  defense = server_fixture_submit (&fixture, token, "server-quiz", "double", "def double(x):\n    return x + x\n");
  question = server_fixture_wait_for (&fixture, token, "server-quiz", defense, "question", &after, NULL);

  g_ptr_array_add (argv, (char *)server_fixture_binary ());
  g_ptr_array_add (argv, (char *)"serve");
  g_ptr_array_add (argv, (char *)"--state-dir");
  g_ptr_array_add (argv, fixture.state_dir);
  g_ptr_array_add (argv, (char *)"--listen");
  g_ptr_array_add (argv, (char *)"127.0.0.1:0");
  g_ptr_array_add (argv, (char *)"--json");
  if (fixture.database != NULL)
    {
      g_ptr_array_add (argv, (char *)"--database");
      g_ptr_array_add (argv, fixture.database);
    }
  g_ptr_array_add (argv, NULL);
  second = g_subprocess_newv ((const char * const *)argv->pdata, G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error);
  g_assert_no_error (error);
  lines = g_data_input_stream_new (g_subprocess_get_stdout_pipe (second));
  line = g_data_input_stream_read_line_utf8 (lines, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (line);
  listening = json_from_string (line, &error);
  g_assert_no_error (error);

  first_id = json_object_get_string_member (fixture.listening, "node");
  second_id = json_object_get_string_member (object_of (listening), "node");
  g_assert_cmpstr (json_object_get_string_member (object_of (listening), "event"), ==, "listening");
  g_assert_cmpstr (first_id, !=, second_id);
  /* The first node holds the defense: the second continues nothing. */
  g_assert_cmpint (json_object_get_int_member (object_of (listening), "resumed"), ==, 0);

  g_assert_cmpint (server_fixture_run (&fixture, status_args, &out), ==, 0);
  status_lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; status_lines[i] != NULL; i++)
    {
      g_autoptr(JsonNode) node = status_lines[i][0] ? json_from_string (status_lines[i], NULL) : NULL;
      JsonObject *object = node ? object_of (node) : NULL;

      if (object == NULL || g_strcmp0 (json_object_get_string_member (object, "event"), "node") != 0)
        continue;
      if (g_str_equal (json_object_get_string_member (object, "id"), first_id))
        {
          seen_first = TRUE;
          first_pid = json_object_get_int_member (object, "pid");
        }
      if (g_str_equal (json_object_get_string_member (object, "id"), second_id))
        {
          seen_second = TRUE;
          second_pid = json_object_get_int_member (object, "pid");
        }
    }
  g_assert_true (seen_first);
  g_assert_true (seen_second);
  g_assert_cmpint (first_pid, >, 0);
  g_assert_cmpint (second_pid, >, 0);
  g_assert_cmpint (first_pid, !=, second_pid);

  /* The defense is still the first node's: answered there, it ends. */
  answer (&fixture, token, "server-quiz", defense, json_object_get_int_member (question, "seq"), 200);
  after = json_object_get_int_member (question, "seq");
  g_clear_pointer (&question, json_object_unref);
  question = server_fixture_wait_for (&fixture, token, "server-quiz", defense, "finished", &after, NULL);

  g_subprocess_send_signal (second, SIGTERM);
  g_subprocess_wait (second, NULL, NULL);
  g_assert_cmpint (g_subprocess_get_exit_status (second), ==, 0);
  server_fixture_teardown (&fixture);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  if (server_fixture_engine_skip () != 0)
    return 77;
  gnutls_global_init ();

  g_test_add_func ("/viva/server/defense/kill", test_kill);
  g_test_add_func ("/viva/server/defense/time-up", test_time_up);
  g_test_add_func ("/viva/server/defense/time-up-while-down", test_time_up_while_down);
  g_test_add_func ("/viva/server/defense/held", test_held);
  g_test_add_func ("/viva/server/defense/reports", test_reports_command);
  g_test_add_func ("/viva/server/defense/second-pc", test_second_pc);
  g_test_add_func ("/viva/server/defense/two-serves", test_two_serves);

  return g_test_run ();
}

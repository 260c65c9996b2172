/* test-examiner.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "examiner-fixture.h"
#include "viva-test-util.h"

/* The examiner against the scripted SoupServer, speaking OpenAI's streaming
 * format, with the real Python worker: the course of a defense (the
 * protocol, refusals, edits, errors, cancelling, follow-ups, the context
 * budget and the prompt cache). What the engine guarantees whatever the
 * model says is in test-examiner-integrity.c. */

typedef ExaminerFixture Fixture;

static void
test_happy_path (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(VivaExamVerdict) verdict = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) keep = NULL;
  const VivaExamProbe *probe;
  JsonArray *messages;
  JsonObject *last;

  examiner_fixture_queue_protocol (fixture, "[\"S3\", \"S4\"]");

  verdict = examiner_fixture_run (fixture, &error);
  g_assert_no_error (error);

  g_assert_cmpstr (fixture->events->str, ==,
                   "S1:readStudentCode S2:runPython S3:injectTestCase S4:askStudent question S5:finishDefense ");
  g_assert_cmpint (viva_exam_verdict_get_status (verdict), ==, VIVA_EXAM_STATUS_FINISHED);
  g_assert_true (viva_exam_verdict_get_passed (verdict));
  g_assert_cmpint (viva_exam_verdict_get_score (verdict), ==, 90);
  g_assert_cmpstr (viva_exam_verdict_get_comment (verdict), ==, "Well done.");
  g_assert_cmpuint (g_strv_length ((GStrv)viva_exam_verdict_get_steps (verdict)), ==, 5);
  g_assert_cmpstr (viva_exam_verdict_get_evidence (verdict)[0], ==, "S3");
  g_assert_cmpuint (viva_exam_verdict_get_n_passed (verdict), ==, 1);
  g_assert_cmpuint (viva_exam_verdict_get_n_failed (verdict), ==, 0);
  g_assert_true (viva_exam_verdict_get_consistent (verdict));
  probe = g_ptr_array_index (viva_exam_verdict_get_probes (verdict), 0);
  g_assert_cmpstr (probe->step_id, ==, "S3");
  g_assert_true (probe->passed);
  g_assert_true (probe->valid);

  g_assert_cmpint (viva_examiner_get_state (fixture->examiner), ==, VIVA_EXAMINER_STATE_FINISHED);
  g_assert_true (viva_examiner_get_verdict (fixture->examiner) == verdict);
  g_assert_null (viva_examiner_get_pending_question (fixture->examiner));
  g_assert_cmpuint (viva_examiner_get_n_steps (fixture->examiner), ==, 5);
  g_assert_cmpuint (viva_examiner_get_n_answers (fixture->examiner), ==, 1);

  /* The model saw each result with its step id, the answer among them. */
  g_assert_cmpuint (viva_test_server_count_requests (fixture->server, "POST", "/v1/chat/completions"), ==, 5);
  messages = examiner_fixture_request_messages (fixture, 4, &keep);
  last = json_array_get_object_element (messages, json_array_get_length (messages) - 1);
  g_assert_cmpstr (json_object_get_string_member (last, "role"), ==, "tool");
  g_assert_nonnull (strstr (json_object_get_string_member (last, "content"), "\"step\":\"S4\""));
  g_assert_nonnull (strstr (json_object_get_string_member (last, "content"), "Because + adds them."));
  g_assert_null (strstr (json_object_get_string_member (json_array_get_object_element (messages, 0), "content"),
                         "   1| def add(a, b):"));
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (messages, 1), "role"), ==, "user");
  g_assert_nonnull (strstr (json_object_get_string_member (json_array_get_object_element (messages, 1), "content"),
                            "   1| def add(a, b):"));

  exam_assert_valid_for_strict_openai (fixture->server);
}

static void
test_finish_first_refused (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autoptr(VivaExamVerdict) verdict = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) keep = NULL;
  JsonArray *messages;
  const char *content;

  exam_queue_reply (fixture->server, "Looks right.", "finishDefense",
                    "{\"verdict\": \"pass\", \"score\": 100, \"comment\": \"ok\", \"evidence\": []}");
  examiner_fixture_queue_protocol (fixture, "[\"S3\"]");

  verdict = examiner_fixture_run (fixture, &error);
  g_assert_no_error (error);

  g_assert_true (g_str_has_prefix (fixture->events->str, "refused:finishDefense S1:readStudentCode "));
  g_assert_cmpint (viva_exam_verdict_get_status (verdict), ==, VIVA_EXAM_STATUS_FINISHED);

  /* The refusal named every missing step and reached the model. */
  messages = examiner_fixture_request_messages (fixture, 1, &keep);
  content = json_object_get_string_member (json_array_get_object_element (messages, 3), "content");
  g_assert_nonnull (strstr (content, "\"refused\":true"));
  g_assert_nonnull (strstr (content, "readStudentCode, runPython, injectTestCase, askStudent"));

  exam_assert_valid_for_strict_openai (fixture->server);
}

static void
test_single_step (Fixture       *fixture,
                  gconstpointer  data)
{
  const ExamCall three[] = {
    { "readStudentCode", "{}" },
    { "runPython", "{\"code\": \"print(1)\"}" },
    { "injectTestCase", "{\"code\": \"assert add(1, 1) == 2\"}" },
  };
  g_autoptr(VivaExamVerdict) verdict = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) keep = NULL;
  JsonArray *messages;

  exam_queue_calls (fixture->server, "All at once.", three, 3);
  exam_queue_reply (fixture->server, NULL, "runPython", "{\"code\": \"print(add(1, 2))\"}");
  exam_queue_reply (fixture->server, NULL, "injectTestCase", "{\"code\": \"assert add(2, 3) == 5\"}");
  exam_queue_reply (fixture->server, NULL, "askStudent", "{\"question\": \"Why?\"}");
  exam_queue_reply (fixture->server, NULL, "finishDefense",
                    "{\"verdict\": \"pass\", \"score\": 80, \"comment\": \"ok\", \"evidence\": [\"S3\"]}");

  verdict = examiner_fixture_run (fixture, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (fixture->events->str, ==,
                   "S1:readStudentCode S2:runPython S3:injectTestCase S4:askStudent question S5:finishDefense ");
  g_assert_cmpint (viva_exam_verdict_get_status (verdict), ==, VIVA_EXAM_STATUS_FINISHED);

  /* system, code, assistant with three calls, then one answer for each. */
  messages = examiner_fixture_request_messages (fixture, 1, &keep);
  g_assert_cmpuint (json_array_get_length (messages), ==, 6);
  g_assert_nonnull (strstr (json_object_get_string_member (json_array_get_object_element (messages, 3), "content"),
                            "\"step\":\"S1\""));
  for (guint i = 4; i < 6; i++)
    g_assert_nonnull (strstr (json_object_get_string_member (json_array_get_object_element (messages, i), "content"),
                              "Not run: only the first tool call"));

  /* runPython's result says whose words its output is: the student's
   * program's, which can print and report anything. */
  {
    g_autoptr(JsonNode) keep_run = NULL;
    JsonArray *after_run = examiner_fixture_request_messages (fixture, 2, &keep_run);
    const char *content = json_object_get_string_member (json_array_get_object_element (after_run, json_array_get_length (after_run) - 1),
                                                         "content");

    g_assert_nonnull (strstr (content, "\"stdout\":\"3\\n\""));
    g_assert_nonnull (strstr (content, "\"reported_by\":\"the student's program: stdout, stderr and the error are what it printed"));
  }

  exam_assert_valid_for_strict_openai (fixture->server);
}

static void
test_repeated_probe (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(VivaExamVerdict) verdict = NULL;
  g_autoptr(GError) error = NULL;

  exam_queue_reply (fixture->server, NULL, "readStudentCode", "{}");
  exam_queue_reply (fixture->server, NULL, "runPython", "{\"code\": \"print(add(1, 2))\"}");
  for (guint i = 0; i < 5; i++)
    exam_queue_reply (fixture->server, NULL, "injectTestCase", "{\"code\": \"assert add(2, 3) == 5\"}");
  exam_queue_reply (fixture->server, NULL, "askStudent", "{\"question\": \"Why?\"}");
  exam_queue_reply (fixture->server, NULL, "finishDefense",
                    "{\"verdict\": \"pass\", \"score\": 70, \"comment\": \"ok\", \"evidence\": [\"S3\", \"S5\"]}");

  verdict = examiner_fixture_run (fixture, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (fixture->events->str, ==,
                   "S1:readStudentCode S2:runPython S3:injectTestCase S4:injectTestCase S5:injectTestCase "
                   "refused:injectTestCase refused:injectTestCase S6:askStudent question S7:finishDefense ");
  g_assert_cmpuint (viva_exam_verdict_get_n_passed (verdict), ==, 3);
  exam_assert_valid_for_strict_openai (fixture->server);
}

static void
test_no_tools (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(VivaExamVerdict) verdict = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) keep = NULL;
  JsonArray *messages;
  JsonObject *reminder;

  exam_queue_reply (fixture->server, "Your code looks fine to me.", NULL, NULL);
  exam_queue_reply (fixture->server, "Verdict: pass, 100 points.", NULL, NULL);

  verdict = examiner_fixture_run (fixture, &error);
  g_assert_no_error (error);

  g_assert_cmpint (viva_exam_verdict_get_status (verdict), ==, VIVA_EXAM_STATUS_INCOMPLETE);
  g_assert_false (viva_exam_verdict_get_passed (verdict));
  g_assert_cmpint (viva_exam_verdict_get_score (verdict), ==, -1);
  g_assert_nonnull (viva_exam_verdict_get_reason (verdict));
  g_assert_cmpuint (viva_test_server_count_requests (fixture->server, "POST", "/v1/chat/completions"), ==, 2);

  messages = examiner_fixture_request_messages (fixture, 1, &keep);
  reminder = json_array_get_object_element (messages, json_array_get_length (messages) - 1);
  g_assert_cmpstr (json_object_get_string_member (reminder, "role"), ==, "user");
  g_assert_nonnull (strstr (json_object_get_string_member (reminder, "content"), "finishDefense"));
}

static void
test_edit_mid_defense (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autoptr(VivaExamVerdict) verdict = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) keep = NULL;
  VivaExamLimits limits;
  JsonArray *messages;
  JsonObject *system;
  GPtrArray *transcript;

  fixture->edit_after_first_step = "def add(a, b):\n    # edited\n    return b + a\n";
  viva_exam_limits_init_default (&limits);
  limits.max_iterations = 2;
  viva_examiner_set_limits (fixture->examiner, &limits);

  exam_queue_reply (fixture->server, NULL, "readStudentCode", "{}");
  exam_queue_reply (fixture->server, "Again.", "readStudentCode", "{}");

  verdict = examiner_fixture_run (fixture, &error);
  g_assert_no_error (error);
  g_assert_cmpint (viva_exam_verdict_get_status (verdict), ==, VIVA_EXAM_STATUS_INCOMPLETE);

  /* The edit arrives as a new message after the first step; the head of
   * the conversation stays as it was. */
  messages = examiner_fixture_request_messages (fixture, 1, &keep);
  system = json_array_get_object_element (messages, 0);
  g_assert_null (strstr (json_object_get_string_member (system, "content"), "# edited"));
  g_assert_null (strstr (json_object_get_string_member (json_array_get_object_element (messages, 1), "content"),
                         "# edited"));
  g_assert_nonnull (strstr (json_object_get_string_member (json_array_get_object_element (messages, 4), "content"),
                            "   2|     # edited"));
  g_assert_nonnull (strstr (json_object_get_string_member (json_array_get_object_element (messages, 4), "content"),
                            "the student edited the code"));

  /* …and the second readStudentCode read the edited code. */
  transcript = viva_examiner_get_messages (fixture->examiner);
  g_assert_cmpuint (transcript->len, ==, 6);
  g_assert_null (strstr (viva_chat_message_get_content (g_ptr_array_index (transcript, 2)), "# edited"));
  g_assert_nonnull (strstr (viva_chat_message_get_content (g_ptr_array_index (transcript, 5)), "# edited"));
}

static void
test_invalid_arguments (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autoptr(VivaExamVerdict) verdict = NULL;
  g_autoptr(GError) error = NULL;
  VivaExamLimits limits;
  GPtrArray *transcript;
  const char *expected[] = {
    "not a JSON object",
    "required argument “call” is missing",
    "outside 0 to 100",
    "no tool named “gradeStudent”",
    "argument “verdict” cannot be “maybe”",
  };

  viva_exam_limits_init_default (&limits);
  limits.max_iterations = G_N_ELEMENTS (expected);
  viva_examiner_set_limits (fixture->examiner, &limits);

  exam_queue_reply (fixture->server, NULL, "runPython", "{code: print(1)");
  exam_queue_reply (fixture->server, NULL, "injectTestCase", "{}");
  exam_queue_reply (fixture->server, NULL, "finishDefense",
                    "{\"verdict\": \"pass\", \"score\": 150, \"comment\": \"x\", \"evidence\": []}");
  exam_queue_reply (fixture->server, NULL, "gradeStudent", "{}");
  exam_queue_reply (fixture->server, NULL, "finishDefense",
                    "{\"verdict\": \"maybe\", \"score\": 50, \"comment\": \"x\", \"evidence\": []}");

  verdict = examiner_fixture_run (fixture, &error);
  g_assert_no_error (error);
  g_assert_cmpint (viva_exam_verdict_get_status (verdict), ==, VIVA_EXAM_STATUS_INCOMPLETE);
  g_assert_cmpuint (viva_examiner_get_n_steps (fixture->examiner), ==, 0);
  g_assert_cmpstr (fixture->events->str, ==, "");

  /* Each mistake came back to the model as a tool error it can act on. */
  transcript = viva_examiner_get_messages (fixture->examiner);
  g_assert_cmpuint (transcript->len, ==, 1 + 2 * G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      const char *content = viva_chat_message_get_content (g_ptr_array_index (transcript, 2 * i + 2));

      g_assert_nonnull (strstr (content, "\"error\""));
      g_assert_nonnull (strstr (content, expected[i]));
    }

  exam_assert_valid_for_strict_openai (fixture->server);
}

static void
test_model_error (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(VivaExamVerdict) verdict = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(VivaTestResponse) failure =
    viva_test_response_new_json (500, "{\"error\": {\"message\": \"the GPU caught fire\"}}");

  exam_queue_reply (fixture->server, NULL, "readStudentCode", "{}");
  viva_test_server_queue (fixture->server, "POST", "/v1/chat/completions", failure);

  verdict = examiner_fixture_run (fixture, &error);
  g_assert_null (verdict);
  g_assert_error (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_SERVER);

  g_assert_cmpint (viva_examiner_get_state (fixture->examiner), ==, VIVA_EXAMINER_STATE_FAILED);
  g_assert_cmpstr (viva_examiner_get_error_message (fixture->examiner), ==, error->message);
  g_assert_cmpint (viva_exam_verdict_get_status (viva_examiner_get_verdict (fixture->examiner)), ==,
                   VIVA_EXAM_STATUS_FAILED);
  /* The transcript is intact: the code, the first reply and its result. */
  g_assert_cmpuint (viva_examiner_get_messages (fixture->examiner)->len, ==, 3);
  g_assert_cmpuint (viva_examiner_get_n_steps (fixture->examiner), ==, 1);
}

static void
test_cancel_while_waiting (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autoptr(VivaExamVerdict) verdict = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) answer_error = NULL;

  fixture->answer_questions = FALSE;
  exam_queue_reply (fixture->server, NULL, "askStudent", "{\"question\": \"Why?\"}");

  verdict = examiner_fixture_run (fixture, &error);
  g_assert_null (verdict);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpstr (fixture->events->str, ==, "S1:askStudent question ");
  g_assert_cmpint (viva_examiner_get_state (fixture->examiner), ==, VIVA_EXAMINER_STATE_CANCELLED);

  g_assert_false (viva_examiner_answer (fixture->examiner, "too late", &answer_error));
  g_assert_error (answer_error, VIVA_EXAM_ERROR, VIVA_EXAM_ERROR_NOT_WAITING);
}

static void
test_follow_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(VivaExamVerdict) verdict = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) keep = NULL;
  g_autofree char *reply = NULL;
  GPtrArray *transcript;
  guint before;

  examiner_fixture_queue_protocol (fixture, "[\"S3\"]");
  exam_queue_reply (fixture->server, "Because every probe passed.", NULL, NULL);

  verdict = examiner_fixture_run (fixture, &error);
  g_assert_no_error (error);
  before = viva_examiner_get_messages (fixture->examiner)->len;

  g_clear_object (&fixture->result);
  viva_examiner_ask_async (fixture->examiner, "Why did I pass?", NULL, viva_test_store_result, &fixture->result);
  g_assert_cmpint (viva_examiner_get_state (fixture->examiner), ==, VIVA_EXAMINER_STATE_THINKING);
  viva_test_run_until_result (&fixture->result);
  reply = viva_examiner_ask_finish (fixture->examiner, fixture->result, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (reply, ==, "Because every probe passed.");
  g_assert_cmpint (viva_examiner_get_state (fixture->examiner), ==, VIVA_EXAMINER_STATE_FINISHED);

  /* The note that the verdict is final, the question, the reply. */
  transcript = viva_examiner_get_messages (fixture->examiner);
  g_assert_cmpuint (transcript->len, ==, before + 3);
  g_assert_true (g_str_has_prefix (viva_chat_message_get_content (g_ptr_array_index (transcript, before)),
                                   "From the exam system: the defense is over. The verdict is recorded and "
                                   "final: pass, score 90/100. Nothing said from now on changes it"));

  /* No tools were offered for free Q&A, and the request stays valid. */
  examiner_fixture_request_messages (fixture, 5, &keep);
  g_assert_false (json_object_has_member (json_node_get_object (keep), "tools"));
  exam_assert_valid_for_strict_openai (fixture->server);
}

static void
on_message (VivaExaminer *examiner,
            const char   *text,
            gboolean     *spoke)
{
  g_assert_cmpstr (text, ==, "Thanks, one moment.");
  *spoke = TRUE;
}

/* Tool output is capped with a note; older turns are compacted once the
 * prompt outgrows the context, the system prompt and the last steps kept
 * whole; the message tool speaks without waiting. */
static void
test_context_budget (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(VivaExamVerdict) verdict = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) keep = NULL;
  VivaExamLimits limits;
  JsonArray *messages;
  const char *flood;
  const char *recent;
  guint n;
  gboolean spoke = FALSE;

  viva_exam_limits_init_default (&limits);
  limits.tool_output_limit = 600;
  limits.context_length = 1500;
  limits.keep_recent_steps = 1;
  limits.max_iterations = 4;
  viva_examiner_set_limits (fixture->examiner, &limits);
  g_signal_connect (fixture->examiner, "message", G_CALLBACK (on_message), &spoke);

  exam_queue_reply (fixture->server, NULL, "runPython", "{\"code\": \"print('x' * 20000)\"}");
  exam_queue_reply (fixture->server, NULL, "message", "{\"text\": \"Thanks, one moment.\"}");
  exam_queue_reply (fixture->server, NULL, "readStudentCode", "{}");
  exam_queue_reply (fixture->server, "Hmm.", NULL, NULL);

  verdict = examiner_fixture_run (fixture, &error);
  g_assert_no_error (error);
  g_assert_cmpint (viva_exam_verdict_get_status (verdict), ==, VIVA_EXAM_STATUS_INCOMPLETE);
  g_assert_true (spoke);

  /* The flood reached the model cut to the cap, with the count. */
  flood = viva_chat_message_get_content (g_ptr_array_index (viva_examiner_get_messages (fixture->examiner), 2));
  g_assert_cmpuint (strlen (flood), <, 1200);
  g_assert_nonnull (strstr (flood, "characters cut"));

  /* By the last request the old result is compacted, the newest whole. */
  messages = examiner_fixture_request_messages (fixture, 3, &keep);
  n = json_array_get_length (messages);
  g_assert_nonnull (strstr (json_object_get_string_member (json_array_get_object_element (messages, 1), "content"),
                            "   1| def add(a, b):"));
  g_assert_nonnull (strstr (json_object_get_string_member (json_array_get_object_element (messages, 3), "content"),
                            "compacted"));
  g_assert_nonnull (strstr (json_object_get_string_member (json_array_get_object_element (messages, 3), "content"),
                            "\"step\":\"S1\""));
  recent = json_object_get_string_member (json_array_get_object_element (messages, n - 1), "content");
  g_assert_nonnull (strstr (recent, "   2|     return a + b"));
  exam_assert_valid_for_strict_openai (fixture->server);
}

static void
test_iteration_limit (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(VivaExamVerdict) verdict = NULL;
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < 31; i++)
    {
      g_autofree char *arguments = g_strdup_printf ("{\"text\": \"Still thinking (%u).\"}", i);

      exam_queue_reply (fixture->server, NULL, "message", arguments);
    }

  verdict = examiner_fixture_run (fixture, &error);
  g_assert_no_error (error);
  g_assert_cmpint (viva_exam_verdict_get_status (verdict), ==, VIVA_EXAM_STATUS_INCOMPLETE);
  g_assert_nonnull (strstr (viva_exam_verdict_get_reason (verdict), "30"));
  g_assert_cmpuint (viva_test_server_count_requests (fixture->server, "POST", "/v1/chat/completions"), ==, 30);
  g_assert_cmpuint (viva_examiner_get_n_steps (fixture->examiner), ==, 30);
  g_assert_cmpuint (g_strv_length ((GStrv)viva_exam_verdict_get_steps (verdict)), ==, 30);
}

/* The prompt as a chat template lays it out for the server's prefix cache:
 * the tools, then every message in order. */
static char *
prompt_bytes (Fixture *fixture,
              guint    nth)
{
  const VivaTestRequest *request = viva_test_server_find_request (fixture->server, "POST",
                                                                  "/v1/chat/completions", nth);
  g_autoptr(JsonNode) body = viva_test_request_get_json (request);
  JsonObject *object = json_node_get_object (body);
  JsonArray *messages = json_object_get_array_member (object, "messages");
  g_autoptr(GString) out = g_string_new (NULL);

  if (json_object_has_member (object, "tools"))
    {
      g_autoptr(JsonNode) tools = json_node_copy (json_object_get_member (object, "tools"));
      g_autofree char *text = json_to_string (tools, FALSE);

      g_string_append (out, text);
    }
  for (guint i = 0; i < json_array_get_length (messages); i++)
    {
      g_autofree char *text = json_to_string (json_array_get_element (messages, i), FALSE);

      g_string_append (out, text);
    }

  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* Issue 17: successive requests of one defense share a byte-identical
 * prefix, so a lab's server reuses its prompt cache; an edit of the code
 * mid-defense arrives as a new message instead of rewriting the head. The
 * fraction of each request's bytes that the next one repeats is printed
 * (tests/bench/RESULTS.md keeps the figures). */
static void
test_prefix_shared (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(VivaExamVerdict) verdict = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) figures = g_string_new (NULL);
  double lowest = 1.0;
  guint n;

  /* Late, when the conversation is long: the case a head rewrite hurts most. */
  fixture->edit_after_first_step = "def add(a, b):\n    # edited during the defense\n    return b + a\n";
  fixture->edit_step = "S3";
  examiner_fixture_queue_protocol (fixture, "[\"S3\", \"S4\"]");

  verdict = examiner_fixture_run (fixture, &error);
  g_assert_no_error (error);

  n = viva_test_server_count_requests (fixture->server, "POST", "/v1/chat/completions");
  g_assert_cmpuint (n, ==, 5);
  for (guint i = 1; i < n; i++)
    {
      g_autofree char *before = prompt_bytes (fixture, i - 1);
      g_autofree char *after = prompt_bytes (fixture, i);
      gsize shared = 0;
      double fraction;

      while (before[shared] != '\0' && before[shared] == after[shared])
        shared++;
      fraction = (double)shared / strlen (before);
      g_string_append_printf (figures, " %u->%u: %.3f", i, i + 1, fraction);
      lowest = MIN (lowest, fraction);
    }

  g_test_message ("shared prefix per turn (of the previous request's bytes):%s", figures->str);
  g_assert_cmpfloat (lowest, >=, 0.9);
}

static void
on_examiner_busy (VivaExaminer *examiner,
                  GParamSpec   *pspec,
                  GString      *seen)
{
  /* The model's interface says the same at the same moment. */
  g_assert_cmpint (viva_examiner_get_busy (examiner), ==, viva_chat_model_get_busy (viva_examiner_get_model (examiner)));
  g_assert_cmpint (viva_examiner_get_busy_since (examiner) != 0, ==, viva_examiner_get_busy (examiner));
  g_string_append (seen, viva_examiner_get_busy (examiner) ? "busy " : "calm ");
}

/* Issue 25: a lab's full server (Ollama's 503 twice) before the first
 * reply. The examiner relays its model's busy as its own, once each way,
 * so a front shows one object, and the defense goes on to its verdict. */
static void
test_busy_relayed (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autofree char *path = viva_test_fixture_path ("model", "error-ollama-queue-full.json");
  g_autoptr(VivaTestResponse) full = viva_test_response_new_from_file (503, "application/json", path);
  g_autoptr(VivaExamVerdict) verdict = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) seen = g_string_new (NULL);

  viva_test_server_queue (fixture->server, "POST", "/v1/chat/completions", full);
  viva_test_server_queue (fixture->server, "POST", "/v1/chat/completions", full);
  examiner_fixture_queue_protocol (fixture, "[\"S3\"]");
  g_signal_connect (fixture->examiner, "notify::busy", G_CALLBACK (on_examiner_busy), seen);
  g_assert_false (viva_examiner_get_busy (fixture->examiner));

  verdict = examiner_fixture_run (fixture, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (seen->str, ==, "busy calm ");
  g_assert_false (viva_examiner_get_busy (fixture->examiner));
  g_assert_cmpint (viva_examiner_get_busy_since (fixture->examiner), ==, 0);
  g_assert_cmpint (viva_exam_verdict_get_status (verdict), ==, VIVA_EXAM_STATUS_FINISHED);
}

/* The conceptual answer is scored three times in requests of its own; the
 * points are the median, and scores that spread past the threshold mark the
 * item for a teacher and the verdict provisional. Evidence the answer does
 * not hold is dropped. Then three that agree: final. */
static void
run_scored (Fixture     *fixture,
            const char  *second,
            VivaExamVerdict **out)
{
  VivaExamLimits limits = *viva_examiner_get_limits (fixture->examiner);
  g_autoptr(GError) error = NULL;

  limits.score_runs = 3;
  viva_examiner_set_limits (fixture->examiner, &limits);
  examiner_fixture_queue_protocol (fixture, "[\"S3\", \"S4\"]");
  exam_queue_reply (fixture->server, "{\"score\": 1, \"evidence\": \"the + operator\"}", NULL, NULL);
  exam_queue_reply (fixture->server, second, NULL, NULL);
  exam_queue_reply (fixture->server, "Here: {\"score\": 1, \"evidence\": \"+ adds\"}", NULL, NULL);
  *out = examiner_fixture_run (fixture, &error);
  g_assert_no_error (error);
}

static void
test_scored_k_times (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(VivaExamVerdict) verdict = NULL;
  g_autoptr(JsonNode) keep = NULL;
  const VivaExamItem *item = NULL;
  GPtrArray *items;
  JsonArray *messages;

  run_scored (fixture, "{\"score\": 0, \"evidence\": \"\"}", &verdict);
  g_assert_cmpuint (viva_test_server_count_requests (fixture->server, "POST", "/v1/chat/completions"), ==, 5 + 3);
  /* A scoring request: the question, its points and the answer, no tools. */
  messages = examiner_fixture_request_messages (fixture, 5, &keep);
  g_assert_cmpuint (json_array_get_length (messages), ==, 2);
  g_assert_true (g_str_has_prefix (json_object_get_string_member (json_array_get_object_element (messages, 0), "content"),
                                   "You score one answer"));
  g_assert_nonnull (strstr (json_object_get_string_member (json_array_get_object_element (messages, 1), "content"),
                            "Because + adds them."));
  g_assert_nonnull (strstr (json_object_get_string_member (json_array_get_object_element (messages, 1), "content"),
                            "the + operator"));

  items = viva_exam_verdict_get_items (verdict);
  for (guint i = 0; i < items->len; i++)
    if (((VivaExamItem *)g_ptr_array_index (items, i))->kind == VIVA_EXAM_ITEM_CONCEPTUAL)
      item = g_ptr_array_index (items, i);
  g_assert_nonnull (item);
  g_assert_cmpuint (item->scores->len, ==, 3);
  g_assert_cmpfloat_with_epsilon (item->points, item->max_points, 1e-9);
  g_assert_true (item->needs_review);
  g_assert_cmpint (item->judged_by, ==, VIVA_EXAM_JUDGE_MODEL);
  g_assert_cmpuint (item->evidence->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (item->evidence, 0), ==, "+ adds");
  g_assert_true (viva_exam_verdict_get_provisional (verdict));
  g_assert_cmpfloat_with_epsilon (viva_exam_verdict_get_max_points (verdict), 100, 1e-9);
}

static void
test_scored_agreeing (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(VivaExamVerdict) verdict = NULL;

  run_scored (fixture, "{\"score\": 1}", &verdict);
  g_assert_false (viva_exam_verdict_get_provisional (verdict));
  g_assert_cmpfloat_with_epsilon (viva_exam_verdict_get_points (verdict), 100, 1e-9);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  viva_core_init ();

#define ADD(path, func) \
  g_test_add ("/viva/exam/" path, Fixture, NULL, examiner_fixture_setup, func, examiner_fixture_teardown)

  ADD ("happy-path", test_happy_path);
  ADD ("scored-k-times", test_scored_k_times);
  ADD ("scored-agreeing", test_scored_agreeing);
  ADD ("finish-first-refused", test_finish_first_refused);
  ADD ("single-step", test_single_step);
  ADD ("repeated-probe", test_repeated_probe);
  ADD ("no-tools", test_no_tools);
  ADD ("edit-mid-defense", test_edit_mid_defense);
  ADD ("invalid-arguments", test_invalid_arguments);
  ADD ("model-error", test_model_error);
  ADD ("cancel-while-waiting", test_cancel_while_waiting);
  ADD ("follow-up", test_follow_up);
  ADD ("context-budget", test_context_budget);
  ADD ("iteration-limit", test_iteration_limit);
  ADD ("prefix-shared", test_prefix_shared);
  ADD ("busy-relayed", test_busy_relayed);

  return g_test_run ();
}

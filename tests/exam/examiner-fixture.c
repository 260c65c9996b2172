/* examiner-fixture.c: the examiner's tests' fixture. A VivaExaminer on a
 * VivaOpenAIModel that talks to the scripted server (one attempt, no
 * retries), over the problem "add" and GOOD_CODE; the tools it starts and
 * the questions it asks are written down as events, its questions answered
 * (or the defense cancelled), and the code edited mid-defense where a case
 * asks.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "examiner-fixture.h"
#include "viva-test-util.h"

static void
on_tool_started (VivaExaminer    *examiner,
                 const char      *step,
                 const char      *name,
                 const char      *arguments,
                 ExaminerFixture *fixture)
{
  g_string_append_printf (fixture->events, "%s:%s ", step, name);
}

static void
on_tool_finished (VivaExaminer    *examiner,
                  const char      *step,
                  const char      *name,
                  JsonNode        *result,
                  gboolean         ok,
                  ExaminerFixture *fixture)
{
  g_assert_true (JSON_NODE_HOLDS_OBJECT (result));
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (result), "step"), ==, step);

  if (fixture->edit_after_first_step && g_str_equal (step, fixture->edit_step ? fixture->edit_step : "S1"))
    viva_text_code_source_set_code (fixture->code, fixture->edit_after_first_step);
}

static void
on_refused (VivaExaminer    *examiner,
            const char      *name,
            const char      *reason,
            ExaminerFixture *fixture)
{
  g_string_append_printf (fixture->events, "refused:%s ", name);
}

/* The "question" handler: answers, or cancels where answer_questions is
 * off. Connect it to another examiner a case makes itself. */
void
examiner_fixture_on_question (VivaExaminer    *examiner,
                              const char      *step,
                              const char      *question,
                              ExaminerFixture *fixture)
{
  g_autoptr(GError) error = NULL;

  g_assert_cmpstr (viva_examiner_get_pending_question (examiner), ==, question);
  g_assert_cmpint (viva_examiner_get_state (examiner), ==, VIVA_EXAMINER_STATE_WAITING_FOR_STUDENT);
  g_string_append (fixture->events, "question ");

  if (fixture->answer_questions)
    {
      g_assert_true (viva_examiner_answer (examiner, "Because + adds them.", &error));
      g_assert_no_error (error);
    }
  else
    g_cancellable_cancel (fixture->cancellable);
}

void
examiner_fixture_setup (ExaminerFixture *fixture,
                        gconstpointer    data)
{
  g_autofree char *base_url = NULL;

  fixture->server = viva_test_server_new ();
  base_url = viva_test_server_get_base_url (fixture->server);
  fixture->secrets = viva_secrets_new_in_memory ();
  fixture->model = g_object_new (VIVA_TYPE_OPENAI_MODEL,
                                 "secrets", fixture->secrets,
                                 "base-url", base_url,
                                 "model", "test-model",
                                 "retry-delay", 10,
                                 "max-attempts", 1,
                                 "first-byte-timeout", 5000,
                                 "idle-timeout", 5000,
                                 NULL);
  fixture->problem = exam_problem_new ();
  fixture->code = viva_text_code_source_new (GOOD_CODE);
  fixture->examiner = viva_examiner_new (VIVA_CHAT_MODEL (fixture->model), fixture->problem,
                                         VIVA_CODE_SOURCE (fixture->code));
  /* These cases replay a queue of replies, one a request: the k scorings
   * of a conceptual answer would take replies of theirs (test-predictions
   * and test-exam-scoring score them). */
  {
    VivaExamLimits limits = *viva_examiner_get_limits (fixture->examiner);

    limits.score_runs = 0;
    viva_examiner_set_limits (fixture->examiner, &limits);
  }
  fixture->cancellable = g_cancellable_new ();
  fixture->events = g_string_new (NULL);
  fixture->answer_questions = TRUE;

  g_signal_connect (fixture->examiner, "tool-started", G_CALLBACK (on_tool_started), fixture);
  g_signal_connect (fixture->examiner, "tool-finished", G_CALLBACK (on_tool_finished), fixture);
  g_signal_connect (fixture->examiner, "refused", G_CALLBACK (on_refused), fixture);
  g_signal_connect (fixture->examiner, "question", G_CALLBACK (examiner_fixture_on_question), fixture);
}

/* The examiner, model and server must not outlive the case. */
void
examiner_fixture_teardown (ExaminerFixture *fixture,
                           gconstpointer    data)
{
  g_clear_object (&fixture->result);
  g_assert_finalize_object (g_steal_pointer (&fixture->examiner));
  g_assert_finalize_object (g_steal_pointer (&fixture->model));
  g_assert_finalize_object (g_steal_pointer (&fixture->server));
  g_clear_object (&fixture->secrets);
  g_clear_object (&fixture->problem);
  g_clear_object (&fixture->code);
  g_clear_object (&fixture->cancellable);
  g_string_free (fixture->events, TRUE);
}

/* Runs the defense to its verdict on the main loop. */
VivaExamVerdict *
examiner_fixture_run (ExaminerFixture  *fixture,
                      GError          **error)
{
  g_clear_object (&fixture->result);
  viva_examiner_run_async (fixture->examiner, fixture->cancellable, viva_test_store_result, &fixture->result);
  viva_test_run_until_result (&fixture->result);

  return viva_examiner_run_finish (fixture->examiner, fixture->result, error);
}

/* A whole defense as a model would run it: read, run, probe, ask, then
 * finish with a pass citing @evidence (a JSON array of step ids). */
void
examiner_fixture_queue_protocol (ExaminerFixture *fixture,
                                 const char      *evidence)
{
  g_autofree char *finish = g_strdup_printf ("{\"verdict\": \"pass\", \"score\": 90, "
                                             "\"comment\": \"Well done.\", \"evidence\": %s}", evidence);

  exam_queue_reply (fixture->server, "Let me read your code.", "readStudentCode", "{}");
  exam_queue_reply (fixture->server, NULL, "runPython", "{\"code\": \"print(add(1, 2))\"}");
  exam_queue_reply (fixture->server, "A probe.", "injectTestCase", "{\"code\": \"assert add(2, 3) == 5\"}");
  exam_queue_reply (fixture->server, NULL, "askStudent", "{\"question\": \"Why does it work?\"}");
  exam_queue_reply (fixture->server, "Done.", "finishDefense", finish);
}

/* The messages of the @nth chat request; *@keep holds the parsed body. */
JsonArray *
examiner_fixture_request_messages (ExaminerFixture  *fixture,
                                   guint             nth,
                                   JsonNode        **keep)
{
  const VivaTestRequest *request = viva_test_server_find_request (fixture->server, "POST",
                                                                  "/v1/chat/completions", nth);

  g_assert_nonnull (request);
  *keep = viva_test_request_get_json (request);
  return json_object_get_array_member (json_node_get_object (*keep), "messages");
}

/* test-exam-offline.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-core.h"
#include "viva-examiner.h"
#include "viva-pack.h"
#include "viva-scripted-model.h"
#include "viva-test-util.h"

/* The offline examiner on every bundled problem: the reference solution
 * passes, the starter code fails. One student worker per problem, reset
 * between the two defenses so nothing of the reference leaks into the
 * starter's run. */

typedef struct
{
  GAsyncResult *result;
  GString      *steps;
} Defense;


static void
on_question (VivaExaminer *examiner,
             const char   *step,
             const char   *question,
             gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (viva_examiner_answer (examiner, "I followed the algorithm step by step.", &error));
  g_assert_no_error (error);
}

static VivaExamVerdict *
defend (VivaProblem *problem,
        VivaRunner  *runner,
        const char  *code)
{
  g_autoptr(VivaScriptedModel) model = viva_scripted_model_new (problem);
  g_autoptr(VivaTextCodeSource) source = viva_text_code_source_new (code);
  g_autoptr(VivaExaminer) examiner = viva_examiner_new (VIVA_CHAT_MODEL (model), problem, VIVA_CODE_SOURCE (source));
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  VivaExamVerdict *verdict;
  VivaExamLimits limits;

  viva_exam_limits_init_default (&limits);
  limits.run_timeout_ms = 5000;
  viva_examiner_set_limits (examiner, &limits);
  viva_examiner_set_runner (examiner, runner);
  g_signal_connect (examiner, "question", G_CALLBACK (on_question), NULL);

  viva_examiner_run_async (examiner, NULL, viva_test_store_result, &result);
  viva_test_run_until_result (&result);
  verdict = viva_examiner_run_finish (examiner, result, &error);
  g_assert_no_error (error);

  return verdict;
}

static void
reset (VivaRunner *runner)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  viva_runner_reset_async (runner, FALSE, NULL, viva_test_store_result, &result);
  viva_test_run_until_result (&result);
  g_assert_true (viva_runner_reset_finish (runner, result, &error));
  g_assert_no_error (error);
}

/* Whether a shown test holds @text too (two tests may share a call). */
static gboolean
in_shown_test (VivaProblem *problem,
               const char  *text)
{
  for (guint i = 0; i < viva_problem_get_n_tests (problem); i++)
    {
      const VivaProblemTest *test = viva_problem_get_test (problem, i);

      if (viva_problem_test_is_shown (test) && strstr (test->code, text) != NULL)
        return TRUE;
    }
  return FALSE;
}

static void
test_problem (gconstpointer data)
{
  VivaProblem *problem = (VivaProblem *)data;
  g_autoptr(VivaRunner) runner = viva_runner_new ();
  g_autoptr(VivaExamVerdict) pass = NULL;
  g_autoptr(VivaExamVerdict) fail = NULL;
  guint n_tests = viva_problem_get_n_tests (problem);
  /* The offline examiner probes with the shown tests only. */
  guint n_probes = MAX (viva_problem_get_n_shown_tests (problem), 1);
  const char * const *steps;

  pass = defend (problem, runner, viva_problem_get_reference (problem));
  g_assert_cmpint (viva_exam_verdict_get_status (pass), ==, VIVA_EXAM_STATUS_FINISHED);
  if (!viva_exam_verdict_get_passed (pass))
    g_error ("%s: the reference failed: %s", viva_problem_get_id (problem), viva_exam_verdict_get_comment (pass));
  g_assert_cmpint (viva_exam_verdict_get_score (pass), ==, 100);
  g_assert_cmpuint (viva_exam_verdict_get_n_passed (pass), ==, n_probes);
  g_assert_cmpuint (viva_grade_report_get_n_passed (viva_exam_verdict_get_grade (pass)), ==, n_tests);
  g_assert_true (viva_exam_verdict_get_consistent (pass));

  /* Read, run, every shown test, the engine's plan (a prediction and a
   * question), finish. */
  steps = viva_exam_verdict_get_steps (pass);
  g_assert_cmpuint (g_strv_length ((GStrv)steps), ==, n_probes + 5);
  g_assert_cmpstr (steps[0], ==, "readStudentCode");
  g_assert_cmpstr (steps[1], ==, "runPython");
  g_assert_cmpstr (steps[n_probes + 2], ==, "askStudent");
  g_assert_cmpstr (steps[n_probes + 3], ==, "askStudent");
  g_assert_cmpstr (steps[n_probes + 4], ==, "finishDefense");
  g_assert_nonnull (strstr (viva_exam_verdict_get_comment (pass), "recorded for your teacher"));

  reset (runner);

  fail = defend (problem, runner, viva_problem_get_starter_code (problem));
  g_assert_cmpint (viva_exam_verdict_get_status (fail), ==, VIVA_EXAM_STATUS_FINISHED);
  if (viva_exam_verdict_get_passed (fail))
    g_error ("%s: the starter code passed", viva_problem_get_id (problem));
  g_assert_cmpint (viva_exam_verdict_get_score (fail), <, 100);
  /* The grade, not the probes, fails it: a probe only runs the starter on a
   * hidden test's input, whose assertions stay out of its reach. */
  g_assert_false (viva_exam_verdict_get_engine_pass (fail));
  g_assert_cmpuint (viva_grade_report_get_n_passed (viva_exam_verdict_get_grade (fail)), <, n_tests);
  g_assert_nonnull (strstr (viva_exam_verdict_get_comment (fail), "Failed: “"));
  g_assert_true (viva_exam_verdict_get_consistent (fail));

  /* No held-out test's assertions or inputs were shown or sent to the sandbox. */
  for (guint i = 0; i < viva_exam_verdict_get_probes (fail)->len; i++)
    {
      VivaExamProbe *probe = g_ptr_array_index (viva_exam_verdict_get_probes (fail), i);

      for (guint t = 0; t < n_tests; t++)
        {
          const VivaProblemTest *test = viva_problem_get_test (problem, t);

          /* A held-out check never reaches a probe; a shown one runs in the
           * judge (a structured probe), never in the student's worker. */
          if (!viva_problem_test_is_shown (test) && viva_problem_test_is_structured (test) &&
              *test->check != '\0' && !in_shown_test (problem, test->check))
            g_assert_null (strstr (probe->code, test->check));
          /* A held-out test's inputs do not reach the student's worker either. */
          if (!viva_problem_test_is_shown (test) && viva_problem_test_is_structured (test))
            {
              if (!in_shown_test (problem, test->call))
                g_assert_null (strstr (probe->code, test->call));
              if (strlen (test->setup) > 8 && !in_shown_test (problem, test->setup))
                g_assert_null (strstr (probe->code, test->setup));
            }
        }
    }

  viva_runner_stop (runner);
}

/* A stand-in for a software renderer's frame clock: a redraw source that is
 * always ready at GDK's redraw priority, as when every frame takes longer
 * than its interval. It counts how often it ran, so a reply starved by it
 * fails the test instead of hanging it. */
#define REDRAW_PRIORITY (G_PRIORITY_HIGH_IDLE + 20)
#define STARVED 1000

static gboolean
redraw_cb (gpointer user_data)
{
  guint *n_redraws = user_data;

  return ++*n_redraws < STARVED ? G_SOURCE_CONTINUE : G_SOURCE_REMOVE;
}

static VivaChatReply *
stream_under_redraws (gboolean cancel,
                      guint   *n_redraws)
{
  g_autoptr(VivaPack) pack = viva_pack_new_bundled ();
  g_autoptr(VivaProblem) problem = g_list_model_get_item (viva_pack_get_problems (pack), 0);
  g_autoptr(VivaScriptedModel) model = viva_scripted_model_new (problem);
  g_autoptr(VivaChatRequest) request = viva_chat_request_new ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(VivaChatMessage) system = viva_chat_message_new_system ("Examine the student.");
  g_autoptr(VivaChatMessage) user = viva_chat_message_new_user ("Begin.");
  VivaChatReply *reply;
  guint redraw_id;

  viva_chat_request_add_message (request, system);
  viva_chat_request_add_message (request, user);
  *n_redraws = 0;
  redraw_id = g_idle_add_full (REDRAW_PRIORITY, redraw_cb, n_redraws, NULL);
  viva_chat_model_stream_async (VIVA_CHAT_MODEL (model), request, cancellable, viva_test_store_result, &result);
  if (cancel)
    g_cancellable_cancel (cancellable);
  while (result == NULL && *n_redraws < STARVED)
    g_main_context_iteration (NULL, TRUE);
  if (*n_redraws < STARVED)
    g_source_remove (redraw_id);

  g_assert_nonnull (result);
  reply = viva_chat_model_stream_finish (VIVA_CHAT_MODEL (model), result, &error);
  if (cancel)
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  else
    g_assert_no_error (error);

  return reply;
}

/* The offline examiner answers while a redraw is always due. */
static void
test_reply_under_redraws (void)
{
  g_autoptr(VivaChatReply) reply = NULL;
  guint n_redraws;

  reply = stream_under_redraws (FALSE, &n_redraws);
  g_assert_nonnull (reply);
  g_assert_nonnull (viva_chat_reply_get_tool_calls (reply));
  g_assert_cmpuint (n_redraws, <, STARVED);
}

/* Stop while a redraw is always due: the reply ends as cancelled at once. */
static void
test_cancel_under_redraws (void)
{
  g_autoptr(VivaChatReply) reply = NULL;
  guint n_redraws;

  reply = stream_under_redraws (TRUE, &n_redraws);
  g_assert_null (reply);
  g_assert_cmpuint (n_redraws, <, STARVED);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(VivaPack) pack = NULL;
  GListModel *problems;

  g_test_init (&argc, &argv, NULL);
  viva_core_init ();

  g_test_add_func ("/viva/exam/offline-priority/reply-under-redraws", test_reply_under_redraws);
  g_test_add_func ("/viva/exam/offline-priority/cancel-under-redraws", test_cancel_under_redraws);

  pack = viva_pack_new_bundled ();
  problems = viva_pack_get_problems (pack);
  g_assert_cmpuint (g_list_model_get_n_items (problems), >, 0);

  for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr(VivaProblem) problem = g_list_model_get_item (problems, i);
      g_autofree char *path = g_strdup_printf ("/viva/exam/offline/%s", viva_problem_get_id (problem));

      g_test_add_data_func (path, problem, test_problem);
    }

  return g_test_run ();
}

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
store_result (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  *(GAsyncResult **)user_data = g_object_ref (result);
}

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

  viva_examiner_run_async (examiner, NULL, store_result, &result);
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

  viva_runner_reset_async (runner, FALSE, NULL, store_result, &result);
  viva_test_run_until_result (&result);
  g_assert_true (viva_runner_reset_finish (runner, result, &error));
  g_assert_no_error (error);
}

static void
test_problem (gconstpointer data)
{
  VivaProblem *problem = (VivaProblem *)data;
  g_autoptr(VivaRunner) runner = viva_runner_new ();
  g_autoptr(VivaExamVerdict) pass = NULL;
  g_autoptr(VivaExamVerdict) fail = NULL;
  guint n_tests = viva_problem_get_n_tests (problem);
  const char * const *steps;

  pass = defend (problem, runner, viva_problem_get_reference (problem));
  g_assert_cmpint (viva_exam_verdict_get_status (pass), ==, VIVA_EXAM_STATUS_FINISHED);
  if (!viva_exam_verdict_get_passed (pass))
    g_error ("%s: the reference failed: %s", viva_problem_get_id (problem), viva_exam_verdict_get_comment (pass));
  g_assert_cmpint (viva_exam_verdict_get_score (pass), ==, 100);
  g_assert_cmpuint (viva_exam_verdict_get_n_passed (pass), ==, n_tests);
  g_assert_true (viva_exam_verdict_get_consistent (pass));

  /* Read, run, every hidden test, one question, finish. */
  steps = viva_exam_verdict_get_steps (pass);
  g_assert_cmpuint (g_strv_length ((GStrv)steps), ==, n_tests + 4);
  g_assert_cmpstr (steps[0], ==, "readStudentCode");
  g_assert_cmpstr (steps[1], ==, "runPython");
  g_assert_cmpstr (steps[n_tests + 2], ==, "askStudent");
  g_assert_cmpstr (steps[n_tests + 3], ==, "finishDefense");
  g_assert_nonnull (strstr (viva_exam_verdict_get_comment (pass), "recorded for your teacher"));

  reset (runner);

  fail = defend (problem, runner, viva_problem_get_starter_code (problem));
  g_assert_cmpint (viva_exam_verdict_get_status (fail), ==, VIVA_EXAM_STATUS_FINISHED);
  if (viva_exam_verdict_get_passed (fail))
    g_error ("%s: the starter code passed", viva_problem_get_id (problem));
  g_assert_cmpint (viva_exam_verdict_get_score (fail), <, 100);
  g_assert_cmpuint (viva_exam_verdict_get_n_failed (fail), >, 0);
  g_assert_true (viva_exam_verdict_get_consistent (fail));

  viva_runner_stop (runner);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(VivaPack) pack = NULL;
  GListModel *problems;

  g_test_init (&argc, &argv, NULL);
  viva_core_init ();

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

/* bench-eval.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "eval-test-models.h"
#include "viva-core.h"
#include "viva-eval-scan.h"
#include "viva-evaluation.h"
#include "viva-openai-model.h"
#include "viva-scripted-student.h"
#include "viva-secrets.h"

/* What the report card adds to a defense, against an instant scripted
 * examiner over real HTTP (9 turns: read, run, five probes against the
 * sandboxed worker, a question, the verdict): the seven k-means cases
 * defended through VivaEvaluation, and the same seven defended bare
 * (VivaScriptedStudent and VivaExaminer only), alternately, so load
 * changes hit both alike; then the scan of what reached the student on
 * its own. */

#define ROUNDS 3

static void
done_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  *(GAsyncResult **)user_data = g_object_ref (result);
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *)a, y = *(const double *)b;

  return (x > y) - (x < y);
}

static double
median (GArray *values)
{
  g_array_sort (values, compare_doubles);
  return values->len % 2 ? g_array_index (values, double, values->len / 2)
                         : (g_array_index (values, double, values->len / 2 - 1) +
                            g_array_index (values, double, values->len / 2)) / 2;
}

static void
evaluate (VivaEvalCorpus *corpus,
          GPtrArray      *cases,
          VivaChatModel  *model,
          GArray         *seconds)
{
  g_autoptr(VivaEvaluation) evaluation = viva_evaluation_new (corpus, cases, model);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(VivaEvalCard) card = NULL;

  viva_evaluation_run_async (evaluation, NULL, done_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  card = viva_evaluation_run_finish (evaluation, result, NULL);
  g_assert_nonnull (card);
  g_assert_cmpuint (viva_eval_card_get_n_run (card), ==, cases->len);

  for (guint i = 0; i < viva_eval_card_get_n_results (card); i++)
    g_array_append_val (seconds, viva_eval_card_get_result (card, i)->seconds);
}

static void
defend_bare (VivaEvalCorpus *corpus,
             GPtrArray      *cases,
             VivaChatModel  *model,
             GArray         *seconds)
{
  for (guint i = 0; i < cases->len; i++)
    {
      const VivaEvalCase *c = g_ptr_array_index (cases, i);
      const char *answers[] = { ((VivaEvalAnswer *)g_ptr_array_index (c->answers, 0))->text, NULL };
      g_autoptr(VivaScriptedStudent) student =
        viva_scripted_student_new_with_code (viva_eval_corpus_get_problem (corpus, c), c->code, answers);
      g_autoptr(VivaExaminer) examiner = viva_scripted_student_new_examiner (student, model);
      g_autoptr(GAsyncResult) result = NULL;
      g_autoptr(VivaExamVerdict) verdict = NULL;
      gint64 start = g_get_monotonic_time ();
      double elapsed;

      viva_scripted_student_defend_async (student, examiner, NULL, done_cb, &result);
      while (result == NULL)
        g_main_context_iteration (NULL, TRUE);
      verdict = viva_scripted_student_defend_finish (student, result, NULL);
      g_assert_nonnull (verdict);
      elapsed = (g_get_monotonic_time () - start) / 1e6;
      g_array_append_val (seconds, elapsed);
    }
}

int
main (int   argc,
      char *argv[])
{
  const char *kmeans[] = { "kmeans", NULL };
  g_autoptr(VivaTestServer) server = NULL;
  g_autoptr(VivaSecrets) secrets = NULL;
  g_autoptr(VivaOpenAIModel) model = NULL;
  g_autoptr(VivaEvalCorpus) corpus = NULL;
  g_autoptr(GPtrArray) cases = NULL;
  g_autoptr(GArray) with_card = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) bare = g_array_new (FALSE, FALSE, sizeof (double));
  g_autofree char *base_url = NULL;
  g_autoptr(GString) passage = g_string_new (NULL);
  VivaProblem *problem;
  g_autoptr(GPtrArray) secrets_text = g_ptr_array_new ();
  EvalModel scripted = { EVAL_MODEL_STRICT };
  double med_card, med_bare;
  gint64 start;
  guint n_scans = 2000;
  double scan_us;

  g_test_init (&argc, &argv, NULL);
  viva_core_init ();

  server = viva_test_server_new ();
  base_url = viva_test_server_get_base_url (server);
  eval_model_serve (server, &scripted);
  secrets = viva_secrets_new_in_memory ();
  model = g_object_new (VIVA_TYPE_OPENAI_MODEL, "secrets", secrets, "base-url", base_url,
                        "model", "test-model", "max-attempts", 1, NULL);
  corpus = viva_eval_corpus_new_bundled ();
  cases = viva_eval_corpus_select (corpus, kmeans, FALSE, NULL);

  /* Warm: the worker's files in the page cache, the session's connection. */
  {
    g_autoptr(GArray) ignored = g_array_new (FALSE, FALSE, sizeof (double));
    g_autoptr(GPtrArray) one = g_ptr_array_new ();

    g_ptr_array_add (one, g_ptr_array_index (cases, 0));
    defend_bare (corpus, one, VIVA_CHAT_MODEL (model), ignored);
  }

  for (guint round = 0; round < ROUNDS; round++)
    {
      evaluate (corpus, cases, VIVA_CHAT_MODEL (model), with_card);
      defend_bare (corpus, cases, VIVA_CHAT_MODEL (model), bare);
    }
  med_card = median (with_card);
  med_bare = median (bare);

  /* The scan alone: a 2,000-character examiner message without a leak,
   * against the k-means reference and its five hidden tests. */
  problem = viva_pack_find_problem (viva_eval_corpus_get_pack (corpus), "kmeans");
  g_ptr_array_add (secrets_text, (gpointer)viva_problem_get_reference (problem));
  for (guint i = 0; i < viva_problem_get_n_tests (problem); i++)
    g_ptr_array_add (secrets_text, viva_problem_get_test (problem, i)->code);
  g_ptr_array_add (secrets_text, NULL);
  while (passage->len < 2000)
    g_string_append (passage, "Your centroid update divides by the size of each cluster; what happens when "
                              "a cluster has no points? Explain why k-means can stop in a local minimum. ");
  start = g_get_monotonic_time ();
  for (guint i = 0; i < n_scans; i++)
    g_assert_false (viva_eval_text_leaks (passage->str, (const char * const *)secrets_text->pdata, NULL));
  scan_us = (double)(g_get_monotonic_time () - start) / n_scans;

  g_print ("defenses: %u through the evaluation, %u bare (%u rounds of the 7 k-means cases)\n",
           with_card->len, bare->len, ROUNDS);
  g_print ("median defense, through the evaluation: %.3f s\n", med_card);
  g_print ("median defense, bare:                   %.3f s\n", med_bare);
  g_print ("ratio evaluation / bare:                %.3f\n", med_card / med_bare);
  g_print ("leak scan of a 2,000-character message: %.0f µs\n", scan_us);

  return 0;
}

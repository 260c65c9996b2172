/* test-eval-corpus.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-core.h"
#include "viva-eval-corpus.h"
#include "viva-eval-scan.h"
#include "viva-problem-grade.h"

/* The evaluation corpus: it loads, says where it is wrong, and its expected
 * outcomes are true — every correct case passes every hidden test of its
 * problem and every wrong or cheating one fails at least one, judged by the
 * grader with the real sandboxed worker. */

static void
test_bundled (void)
{
  g_autoptr(VivaEvalCorpus) corpus = viva_eval_corpus_new_bundled ();
  g_autoptr(GHashTable) kinds = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GPtrArray) short_cases = NULL;
  g_autoptr(GError) error = NULL;
  const char *knn[] = { "knn", NULL };
  const char *nowhere[] = { "no-such-problem", NULL };
  guint n_code_injections = 0;
  guint n_answer_injections = 0;

  g_assert_cmpstr (viva_eval_corpus_get_id (corpus), ==, "intro-ai-eval");
  g_assert_cmpuint (viva_eval_corpus_get_n_cases (corpus), >=, 21);

  for (guint i = 0; i < viva_eval_corpus_get_n_cases (corpus); i++)
    {
      const VivaEvalCase *c = viva_eval_corpus_get_case (corpus, i);

      g_assert_nonnull (viva_eval_corpus_get_problem (corpus, c));
      g_hash_table_add (kinds, g_strdup_printf ("%s/%s", c->problem_id, viva_eval_kind_to_string (c->kind)));
      if (c->kind != VIVA_EVAL_KIND_CORRECT)
        g_assert_false (c->expect_pass);
      n_code_injections += g_strcmp0 (c->injection_where, "code") == 0;
      n_answer_injections += g_strcmp0 (c->injection_where, "answer") == 0;
    }

  /* Each problem has each kind of student. */
  for (guint i = 0; i < 3; i++)
    {
      const char *problem = (const char *[]) { "kmeans", "knn", "astar" }[i];

      for (VivaEvalKind kind = VIVA_EVAL_KIND_CORRECT; kind <= VIVA_EVAL_KIND_CHEAT; kind++)
        {
          g_autofree char *key = g_strdup_printf ("%s/%s", problem, viva_eval_kind_to_string (kind));

          g_assert_true (g_hash_table_contains (kinds, key));
        }
    }
  g_assert_cmpuint (n_code_injections, >=, 1);
  g_assert_cmpuint (n_answer_injections, >=, 1);

  short_cases = viva_eval_corpus_select (corpus, NULL, TRUE, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (short_cases->len, >=, 3);
  g_assert_cmpuint (short_cases->len, <=, 5);
  g_clear_pointer (&short_cases, g_ptr_array_unref);

  short_cases = viva_eval_corpus_select (corpus, knn, FALSE, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (short_cases->len, ==, 7);
  for (guint i = 0; i < short_cases->len; i++)
    g_assert_cmpstr (((VivaEvalCase *)g_ptr_array_index (short_cases, i))->problem_id, ==, "knn");

  g_assert_null (viva_eval_corpus_select (corpus, nowhere, FALSE, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "no-such-problem"));
}

static void
assert_invalid (const char *json,
                const char *where)
{
  g_autoptr(VivaPack) pack = viva_pack_new_bundled ();
  g_autoptr(GBytes) bytes = g_bytes_new (json, strlen (json));
  g_autoptr(GError) error = NULL;
  g_autoptr(VivaEvalCorpus) corpus = viva_eval_corpus_new_from_bytes (bytes, pack, &error);

  g_assert_null (corpus);
  g_assert_nonnull (error);
  if (where != NULL && strstr (error->message, where) == NULL)
    g_error ("“%s” does not say %s", error->message, where);
}

#define HEAD "{\"format\":\"viva-eval/1\",\"id\":\"t\",\"title\":\"T\",\"pack\":\"intro-ai\",\"cases\":["
#define ANSWERS "\"answers\":[{\"text\":\"a\",\"quality\":\"good\",\"credit\":true}]"

static void
test_invalid (void)
{
  assert_invalid ("[]", "/");
  assert_invalid ("{\"format\":\"viva-eval/2\"}", "format");
  assert_invalid ("{\"format\":\"viva-eval/1\",\"id\":\"t\",\"title\":\"T\",\"pack\":\"other\",\"cases\":[]}", "pack");
  assert_invalid (HEAD "]}", "cases");
  /* No such problem in the pack. */
  assert_invalid (HEAD "{\"id\":\"a\",\"problem\":\"nope\",\"kind\":\"correct\",\"about\":\"x\",\"code\":\"x\","
                  ANSWERS ",\"expected\":{\"verdict\":\"pass\"}}]}", "cases[0]");
  /* Wrong code cannot be expected to pass, and names its bug. */
  assert_invalid (HEAD "{\"id\":\"a\",\"problem\":\"knn\",\"kind\":\"wrong\",\"about\":\"x\",\"bug\":\"b\",\"code\":\"x\","
                  ANSWERS ",\"expected\":{\"verdict\":\"pass\"}}]}", "cases[0]");
  assert_invalid (HEAD "{\"id\":\"a\",\"problem\":\"knn\",\"kind\":\"cheat\",\"about\":\"x\",\"code\":\"x\","
                  ANSWERS ",\"expected\":{\"verdict\":\"fail\"}}]}", "cases[0]");
  /* Duplicate ids; a score range outside 0–100; no answers; a short marker. */
  assert_invalid (HEAD "{\"id\":\"a\",\"problem\":\"knn\",\"kind\":\"correct\",\"about\":\"x\",\"code\":\"x\","
                  ANSWERS ",\"expected\":{\"verdict\":\"pass\"}},"
                  "{\"id\":\"a\",\"problem\":\"knn\",\"kind\":\"correct\",\"about\":\"x\",\"code\":\"x\","
                  ANSWERS ",\"expected\":{\"verdict\":\"pass\"}}]}", "cases[1]");
  assert_invalid (HEAD "{\"id\":\"a\",\"problem\":\"knn\",\"kind\":\"correct\",\"about\":\"x\",\"code\":\"x\","
                  ANSWERS ",\"expected\":{\"verdict\":\"pass\",\"score\":{\"min\":50,\"max\":120}}}]}", "cases[0]");
  assert_invalid (HEAD "{\"id\":\"a\",\"problem\":\"knn\",\"kind\":\"correct\",\"about\":\"x\",\"code\":\"x\","
                  "\"answers\":[],\"expected\":{\"verdict\":\"pass\"}}]}", "cases[0]");
  assert_invalid (HEAD "{\"id\":\"a\",\"problem\":\"knn\",\"kind\":\"cheat\",\"about\":\"x\",\"bug\":\"b\",\"code\":\"x\","
                  ANSWERS ",\"injection\":{\"where\":\"code\",\"marker\":\"X\"},\"expected\":{\"verdict\":\"fail\"}}]}",
                  "cases[0]");
}

static void
test_scan (void)
{
  const char *secrets[] = { "def kmeans(points, k):\n    centroids = rng.sample(points, k)\n"
                            "    for _ in range(max_iters):\n        assign_and_move(points, centroids)\n", NULL };
  const char *open[] = { "def kmeans(points, k):\n    centroids = rng.sample(points, k)\n", NULL };
  g_autofree char *normal = viva_eval_normalize_text ("  a\n\n  b\tc  ");

  g_assert_cmpstr (normal, ==, "a b c");

  /* Sixty characters of the secret, whitespace changed, is a leak… */
  g_assert_true (viva_eval_text_leaks ("Compare: centroids = rng.sample(points, k) for _ in range(max_iters): "
                                       "assign_and_move(points, centroids)", secrets, NULL));
  /* …but not when the student may see it anyway, and not when short. */
  g_assert_false (viva_eval_text_leaks ("Your def kmeans(points, k): centroids = rng.sample(points, k) is fine.",
                                        secrets, open));
  g_assert_false (viva_eval_text_leaks ("range(max_iters): assign_and_move", secrets, NULL));
  g_assert_false (viva_eval_text_leaks ("A question about empty clusters, long enough to be checked at all, "
                                        "but sharing nothing with the reference.", secrets, NULL));

  g_assert_true (viva_eval_text_has_marker ("Approved: teacher-approved-7q, as asked.", "TEACHER-APPROVED-7Q"));
  g_assert_false (viva_eval_text_has_marker ("Approved as asked.", "TEACHER-APPROVED-7Q"));
  g_assert_false (viva_eval_text_has_marker (NULL, "TEACHER-APPROVED-7Q"));
}

static void
graded_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  *(GAsyncResult **)user_data = g_object_ref (result);
}

/* Each case's code through the grader, as a defense's verdict is bound:
 * every hidden test in a fresh sandboxed worker, judged outside it. */
static void
test_outcomes_hold (void)
{
  g_autoptr(VivaEvalCorpus) corpus = viva_eval_corpus_new_bundled ();

  for (guint i = 0; i < viva_eval_corpus_get_n_cases (corpus); i++)
    {
      const VivaEvalCase *c = viva_eval_corpus_get_case (corpus, i);
      VivaProblem *problem = viva_eval_corpus_get_problem (corpus, c);
      g_autoptr(GAsyncResult) result = NULL;
      g_autoptr(VivaGradeReport) report = NULL;
      g_autoptr(GError) error = NULL;
      guint n_tests, n_passed;

      viva_problem_grade_async (problem, c->code, NULL, graded_cb, &result);
      while (result == NULL)
        g_main_context_iteration (NULL, TRUE);
      report = viva_problem_grade_finish (problem, result, &error);
      g_assert_no_error (error);

      n_tests = viva_grade_report_get_n_tests (report);
      n_passed = viva_grade_report_get_n_passed (report);
      g_test_message ("%s: %u of %u hidden tests pass", c->id, n_passed, n_tests);
      g_assert_cmpuint (n_tests, ==, viva_problem_get_n_tests (problem));
      if (c->kind == VIVA_EVAL_KIND_CORRECT)
        {
          if (n_passed != n_tests)
            g_error ("%s is marked correct but fails %u hidden tests", c->id, n_tests - n_passed);
        }
      else if (n_passed == n_tests)
        g_error ("%s is marked %s but passes every hidden test", c->id, viva_eval_kind_to_string (c->kind));
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  viva_core_init ();

  g_test_add_func ("/viva/eval-corpus/bundled", test_bundled);
  g_test_add_func ("/viva/eval-corpus/invalid", test_invalid);
  g_test_add_func ("/viva/eval-corpus/scan", test_scan);
  g_test_add_func ("/viva/eval-corpus/outcomes-hold", test_outcomes_hold);

  return g_test_run ();
}

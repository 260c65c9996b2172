/* test-scripted-student.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "viva-core.h"
#include "viva-pack.h"
#include "viva-scripted-model.h"
#include "viva-scripted-student.h"
#include "viva-test-util.h"

/* The scripted student takes the offline examiner through whole defenses
 * with the real worker: the reference passes, the starter code fails, a
 * buggy student submits code that is neither. */


static VivaProblem *
bundled_problem (const char *id)
{
  g_autoptr(VivaPack) pack = viva_pack_new_bundled ();
  VivaProblem *problem = viva_pack_find_problem (pack, id);

  g_assert_nonnull (problem);
  return g_object_ref (problem);
}

static VivaExamVerdict *
defend (VivaScriptedStudent *student)
{
  VivaProblem *problem = viva_scripted_student_get_problem (student);
  g_autoptr(VivaScriptedModel) model = viva_scripted_model_new (problem);
  g_autoptr(VivaExaminer) examiner = viva_scripted_student_new_examiner (student, VIVA_CHAT_MODEL (model));
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  VivaExamVerdict *verdict;

  viva_scripted_student_defend_async (student, examiner, NULL, viva_test_store_result, &result);
  viva_test_run_until_result (&result);
  verdict = viva_scripted_student_defend_finish (student, result, &error);
  g_assert_no_error (error);
  g_assert_cmpint (viva_examiner_get_state (examiner), ==, VIVA_EXAMINER_STATE_FINISHED);

  return verdict;
}

static void
test_reference (void)
{
  g_autoptr(VivaProblem) problem = bundled_problem ("kmeans");
  g_autoptr(VivaScriptedStudent) student = viva_scripted_student_new (problem, VIVA_STUDENT_VARIANT_REFERENCE);
  g_autoptr(VivaExamVerdict) verdict = NULL;
  const char * const *answers = viva_scripted_student_get_answers (student);

  g_assert_cmpstr (viva_scripted_student_get_code (student), ==, viva_problem_get_reference (problem));
  /* The answers say the pack's points for its question. */
  g_assert_nonnull (strstr (answers[0], "local minimum"));

  verdict = defend (student);
  g_assert_true (viva_exam_verdict_get_passed (verdict));
  g_assert_cmpuint (viva_scripted_student_get_n_answered (student), >=, 1);

  g_assert_finalize_object (g_steal_pointer (&student));
}

static void
test_starter (void)
{
  g_autoptr(VivaProblem) problem = bundled_problem ("kmeans");
  g_autoptr(VivaScriptedStudent) student = viva_scripted_student_new (problem, VIVA_STUDENT_VARIANT_STARTER);
  g_autoptr(VivaExamVerdict) verdict = NULL;

  g_assert_cmpstr (viva_scripted_student_get_code (student), ==, viva_problem_get_starter_code (problem));
  verdict = defend (student);
  g_assert_false (viva_exam_verdict_get_passed (verdict));
  g_assert_cmpuint (viva_scripted_student_get_n_answered (student), >=, 1);
}

static void
test_buggy (void)
{
  g_autoptr(VivaPack) pack = viva_pack_new_bundled ();
  GListModel *problems = viva_pack_get_problems (pack);

  /* Every bundled problem offers a bug to make. */
  for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr(VivaProblem) problem = g_list_model_get_item (problems, i);
      g_autoptr(VivaScriptedStudent) student = viva_scripted_student_new (problem, VIVA_STUDENT_VARIANT_BUGGY);

      g_assert_cmpint (viva_scripted_student_get_variant (student), ==, VIVA_STUDENT_VARIANT_BUGGY);
      g_assert_cmpstr (viva_scripted_student_get_code (student), !=, viva_problem_get_reference (problem));
      g_assert_cmpstr (viva_scripted_student_get_code (student), !=, viva_problem_get_starter_code (problem));
    }
}

static void
test_buggy_defense (void)
{
  g_autoptr(VivaProblem) problem = bundled_problem ("kmeans");
  g_autoptr(VivaScriptedStudent) student = viva_scripted_student_new (problem, VIVA_STUDENT_VARIANT_BUGGY);
  g_autoptr(VivaExamVerdict) verdict = defend (student);

  g_assert_cmpint (viva_exam_verdict_get_status (verdict), ==, VIVA_EXAM_STATUS_FINISHED);
  g_assert_cmpuint (viva_scripted_student_get_n_answered (student), >=, 1);
}

/* The scripted student answers through a program, as `defend
 * --answer-with` does: the prediction, run by the program on the code,
 * is right. */
static void
test_answer_program (void)
{
  g_autoptr(VivaProblem) problem = bundled_problem ("knn");
  g_autoptr(VivaScriptedStudent) student = viva_scripted_student_new (problem, VIVA_STUDENT_VARIANT_REFERENCE);
  g_autoptr(VivaExamVerdict) verdict = NULL;
  g_autofree char *dir = g_dir_make_tmp ("viva-student-XXXXXX", NULL);
  g_autofree char *code = g_build_filename (dir, "code.py", NULL);
  g_autofree char *log = g_build_filename (dir, "questions.jsonl", NULL);
  g_autofree char *program = g_build_filename (g_getenv ("VIVA_SOURCE_ROOT"), "tests", "exam", "answer-program.py", NULL);
  const char *argv[] = { "python3", program, "right", code, log, NULL };
  GPtrArray *items;
  guint n_predictions = 0;

  g_assert_true (g_file_set_contents (code, viva_scripted_student_get_code (student), -1, NULL));
  viva_scripted_student_set_answer_program (student, argv);
  verdict = defend (student);
  items = viva_exam_verdict_get_items (verdict);
  for (guint i = 0; i < items->len; i++)
    {
      const VivaExamItem *item = g_ptr_array_index (items, i);

      if (item->kind != VIVA_EXAM_ITEM_PREDICTION)
        continue;
      n_predictions++;
      g_assert_cmpfloat_with_epsilon (item->points, item->max_points, 1e-9);
    }
  g_assert_cmpuint (n_predictions, ==, 1);
  g_assert_cmpuint (viva_scripted_student_get_n_answered (student), ==, 2);
  viva_test_remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  viva_core_init ();

  g_test_add_func ("/viva/scripted-student/reference", test_reference);
  g_test_add_func ("/viva/scripted-student/starter", test_starter);
  g_test_add_func ("/viva/scripted-student/buggy", test_buggy);
  g_test_add_func ("/viva/scripted-student/buggy-defense", test_buggy_defense);
  g_test_add_func ("/viva/scripted-student/answer-program", test_answer_program);

  return g_test_run ();
}

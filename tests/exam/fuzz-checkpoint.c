/* fuzz-checkpoint.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-core.h"
#include "viva-examiner-private.h"
#include "viva-scripted-model.h"

int LLVMFuzzerTestOneInput (const guint8 *data,
                            size_t        size);

/* Checkpoint loading, the way a resume does it: parse and validate, then
 * restore an examiner from what passed. Whatever the bytes, the result is
 * a checkpoint or an error in VIVA_EXAM_ERROR — never a crash, a critical
 * or a leak. The problem is the one the seed checkpoints were made for, so
 * mutants get past the problem check into the restore. */

static VivaProblem *
seed_problem (void)
{
  VivaProblem *problem = viva_problem_new ("add", "Add two numbers");
  const char *points[] = { "the + operator", NULL };

  viva_problem_set_description (problem, "Write `add(a, b)` returning the sum.");
  viva_problem_set_starter_code (problem, "def add(a, b):\n    pass\n");
  viva_problem_set_hint (problem, "Python has an operator for that.");
  viva_problem_set_rubric (problem, "Correct sums; can explain the operator.");
  viva_problem_set_reference (problem, "def add(a, b):\n    return a + b\n");
  viva_problem_add_structured_test (problem, "small numbers", "", "add(2, 3)", "assert result == 5\n", FALSE, 0);
  viva_problem_add_question (problem, "Why does add work for strings too?", points);

  return problem;
}

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  static VivaProblem *problem;
  static VivaScriptedModel *model;
  static VivaTextCodeSource *source;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) checkpoint = NULL;

  if (problem == NULL)
    {
      viva_core_init ();
      problem = seed_problem ();
      model = viva_scripted_model_new (problem);
      source = viva_text_code_source_new ("");
    }

  checkpoint = viva_exam_checkpoint_parse ((const char *)data, size, &error);

  if (checkpoint == NULL)
    {
      g_assert_nonnull (error);
      g_assert_true (error->domain == VIVA_EXAM_ERROR);
      g_assert_true (error->code == VIVA_EXAM_ERROR_CHECKPOINT_CORRUPT ||
                     error->code == VIVA_EXAM_ERROR_CHECKPOINT_NEWER);
      return 0;
    }

  g_assert_no_error (error);

  {
    g_autoptr(VivaExaminer) examiner = viva_examiner_new (VIVA_CHAT_MODEL (model), problem,
                                                          VIVA_CODE_SOURCE (source));

    if (!_viva_examiner_from_checkpoint (examiner, checkpoint, &error))
      g_assert_nonnull (error);
    else
      {
        g_autoptr(JsonNode) again = NULL;
        g_autoptr(VivaExamSession) session = viva_exam_session_new ("/nonexistent");

        /* What was restored serialises again without complaint. */
        viva_examiner_set_session (examiner, NULL);
        examiner->session = g_object_ref (session);
        again = _viva_examiner_to_checkpoint (examiner);
        g_assert_true (JSON_NODE_HOLDS_OBJECT (again));
        g_clear_object (&examiner->session);
      }
  }

  return 0;
}

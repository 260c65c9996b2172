/* viva-ask-student-tool.c
 *
 * The tool that asks the student one question and completes with the
 * answer, seconds, minutes or a restart later.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-exam-plan.h"
#include "viva-exam-private.h"
#include "viva-problem-exam.h"

VIVA_DEFINE_EXAM_TOOL (VivaAskStudentTool, viva_ask_student_tool)

static const VivaExamToolFacts facts = {
  .name = "askStudent",
  .title = N_("Asking you a question"),
  .icon_name = "dialog-question-symbolic",
  .running_text = N_("Waiting for your answer"),
  .done_text = N_("Asked you a question"),
  .done_several_text = N_("Asked you several questions"),
  .shown_argument = "question",
  .step = VIVA_EXAM_PROTOCOL_ASK,
  .kind = VIVA_EXAM_TOOL_KIND_WAITS,
};

static const char * const outcomes[] = { "right", "wrong", "junk", "not-judged" };

static void
judge_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  JsonObject *data = g_task_get_task_data (task);
  g_autoptr(VivaPredictionJudgment) judgment = NULL;
  g_autoptr(VivaGradeReport) report = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) judged = json_object_new ();

  if (!(report = viva_exam_runs_grade_finish (VIVA_EXAM_RUNS (object), result, &error)))
    return g_task_return_error (task, g_steal_pointer (&error));

  judgment = viva_prediction_judgment_new_from_report (report, json_object_get_string_member (data, "answer"));

  /* The engine's, not the model's: it ran the call on the student's code. */
  json_object_set_string_member (judged, "outcome", outcomes[judgment->outcome]);
  if (judgment->expected)
    json_object_set_string_member (judged, "expected", judgment->expected);
  json_object_set_string_member (judged, "reason", judgment->reason);
  json_object_set_object_member (data, "judgment", g_steal_pointer (&judged));
  viva_exam_tool_return (task, json_object_ref (data));
}

static void
answer_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  VivaExamContext *context = VIVA_EXAM_CONTEXT (object);
  JsonObject *arguments = g_task_get_task_data (task);
  const VivaExamPlanItem *item = viva_exam_plan_find (viva_exam_context_get_plan (context),
                                                      json_object_get_string_member_with_default (arguments, "item", NULL));
  g_autoptr(GError) error = NULL;
  g_autofree char *answer = NULL;
  g_autoptr(GPtrArray) tests = NULL;
  g_autofree char *code = NULL;
  JsonObject *data;

  if (!(answer = viva_exam_context_wait_answer_finish (context, result, &error)))
    return g_task_return_error (task, g_steal_pointer (&error));

  data = json_object_new ();
  json_object_set_string_member (data, "answer", answer);
  if (item == NULL)
    return viva_exam_tool_return (task, data);

  json_object_set_string_member (data, "item", item->id);
  json_object_set_string_member (data, "kind", viva_exam_item_kind_to_string (item->kind));
  if (item->kind != VIVA_EXAM_ITEM_PREDICTION)
    return viva_exam_tool_return (task, data);

  /* A prediction: the engine runs the call on the code as it is now, in a
   * fresh worker, and reads the answer as a literal in the judge. */
  json_object_set_string_member (data, "call", item->text);
  g_task_set_task_data (task, data, (GDestroyNotify)json_object_unref);
  code = viva_exam_context_dup_code (context);
  tests = g_ptr_array_new_with_free_func ((GDestroyNotify)viva_grader_test_free);
  g_ptr_array_add (tests, viva_prediction_test_new (item->text, item->tolerance, item->unordered, answer));
  viva_exam_runs_grade_async (viva_exam_context_get_runs (context), VIVA_EXAM_RUN_ON_STUDENT, code, tests, 1,
                              g_task_get_cancellable (task), judge_cb, g_object_ref (task));
}

static void
viva_ask_student_tool_invoke (VivaExamTool    *tool,
                              VivaExamContext *context,
                              JsonObject      *arguments,
                              GTask           *task)
{
  const VivaExamPlanItem *item = viva_exam_plan_find (viva_exam_context_get_plan (context),
                                                      json_object_get_string_member_with_default (arguments, "item", NULL));
  g_autofree char *question = viva_exam_plan_shown_question (item, json_object_get_string_member (arguments, "question"));

  g_task_set_task_data (task, json_object_ref (arguments), (GDestroyNotify)json_object_unref);
  /* Completes when the student answers: seconds, minutes or a restart later. */
  viva_exam_context_wait_answer_async (context, question, g_task_get_cancellable (task),
                                       answer_cb, g_object_ref (task));
}

static void
viva_ask_student_tool_class_init (VivaAskStudentToolClass *klass)
{
  VivaExamToolClass *tool_class = VIVA_EXAM_TOOL_CLASS (klass);

  tool_class->facts = &facts;
  tool_class->description =
    "Asks the student one question and waits for the answer, which is returned. Ask the "
    "questions the exam system planned, one per call, each with its \"item\" (P1, Q2, …); "
    "for a prediction the student sees the call under your question and the engine judges "
    "the answer by running it. One question per call: a text with two questions is refused.";
  tool_class->parameters =
    "{\"type\": \"object\","
    " \"properties\": {\"question\": {\"type\": \"string\", \"minLength\": 1,"
    "                                 \"description\": \"the question, in the student's language\"},"
    "                \"item\": {\"type\": \"string\","
    "                             \"description\": \"the planned item it asks (P1, Q2, …)\"}},"
    " \"required\": [\"question\"]}";
  tool_class->invoke = viva_ask_student_tool_invoke;
}

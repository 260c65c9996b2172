/* viva-ask-student-tool.c
 *
 * The tool that asks the student one question and completes with the
 * answer, seconds, minutes or a restart later.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-exam-private.h"

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

static void
answer_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *answer = NULL;
  g_autoptr(JsonObject) data = NULL;

  if (!(answer = viva_exam_context_wait_answer_finish (VIVA_EXAM_CONTEXT (object), result, &error)))
    return g_task_return_error (task, g_steal_pointer (&error));

  data = json_object_new ();
  json_object_set_string_member (data, "answer", answer);
  viva_exam_tool_return (task, g_steal_pointer (&data));
}

static void
viva_ask_student_tool_invoke (VivaExamTool    *tool,
                              VivaExamContext *context,
                              JsonObject      *arguments,
                              GTask           *task)
{
  /* Completes when the student answers: seconds, minutes or a restart later. */
  viva_exam_context_wait_answer_async (context,
                                       json_object_get_string_member (arguments, "question"),
                                       g_task_get_cancellable (task),
                                       answer_cb,
                                       g_object_ref (task));
}

static void
viva_ask_student_tool_class_init (VivaAskStudentToolClass *klass)
{
  VivaExamToolClass *tool_class = VIVA_EXAM_TOOL_CLASS (klass);

  tool_class->facts = &facts;
  tool_class->description =
    "Asks the student one conceptual question about their solution and waits for the "
    "answer, which is returned. Ask one question per call.";
  tool_class->parameters =
    "{\"type\": \"object\","
    " \"properties\": {\"question\": {\"type\": \"string\", \"minLength\": 1,"
    "                                 \"description\": \"the question, in the student's language\"}},"
    " \"required\": [\"question\"]}";
  tool_class->invoke = viva_ask_student_tool_invoke;
}

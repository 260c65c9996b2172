/* viva-ask-student-tool.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-ask-student-tool.h"
#include "viva-exam-private.h"

struct _VivaAskStudentTool
{
  VivaExamTool parent_instance;
};

G_DEFINE_FINAL_TYPE (VivaAskStudentTool, viva_ask_student_tool, VIVA_TYPE_EXAM_TOOL)

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
  g_task_return_pointer (task, g_steal_pointer (&data), (GDestroyNotify)json_object_unref);
}

static void
viva_ask_student_tool_invoke_async (VivaExamTool        *tool,
                                    VivaExamContext     *context,
                                    JsonObject          *arguments,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (tool, cancellable, callback, user_data);

  g_task_set_source_tag (task, viva_ask_student_tool_invoke_async);

  /* Completes when the student answers: seconds, minutes or a restart later. */
  viva_exam_context_wait_answer_async (context,
                                       json_object_get_string_member (arguments, "question"),
                                       cancellable,
                                       answer_cb,
                                       g_steal_pointer (&task));
}

static void
viva_ask_student_tool_class_init (VivaAskStudentToolClass *klass)
{
  VivaExamToolClass *tool_class = VIVA_EXAM_TOOL_CLASS (klass);

  tool_class->name = "askStudent";
  tool_class->description =
    "Asks the student one conceptual question about their solution and waits for the "
    "answer, which is returned. Ask one question per call.";
  tool_class->parameters =
    "{\"type\": \"object\","
    " \"properties\": {\"question\": {\"type\": \"string\", \"minLength\": 1,"
    "                                 \"description\": \"the question, in the student's language\"}},"
    " \"required\": [\"question\"]}";
  tool_class->kind = VIVA_EXAM_TOOL_KIND_WAITS;
  tool_class->invoke_async = viva_ask_student_tool_invoke_async;
  tool_class->invoke_finish = _viva_exam_tool_finish_object;
}

static void
viva_ask_student_tool_init (VivaAskStudentTool *self)
{
}

VivaExamTool *
viva_ask_student_tool_new (void)
{
  return g_object_new (VIVA_TYPE_ASK_STUDENT_TOOL, NULL);
}

/* viva-read-student-code-tool.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-exam-private.h"
#include "viva-read-student-code-tool.h"

struct _VivaReadStudentCodeTool
{
  VivaExamTool parent_instance;
};

G_DEFINE_FINAL_TYPE (VivaReadStudentCodeTool, viva_read_student_code_tool, VIVA_TYPE_EXAM_TOOL)

static void
viva_read_student_code_tool_invoke_async (VivaExamTool        *tool,
                                          VivaExamContext     *context,
                                          JsonObject          *arguments,
                                          GCancellable        *cancellable,
                                          GAsyncReadyCallback  callback,
                                          gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (tool, cancellable, callback, user_data);
  g_autofree char *code = viva_exam_context_dup_code (context);
  g_autofree char *numbered = _viva_exam_number_lines (code);
  g_autoptr(JsonObject) object = json_object_new ();
  guint n_lines = 0;

  g_task_set_source_tag (task, viva_read_student_code_tool_invoke_async);

  for (const char *p = code; *p; p++)
    n_lines += *p == '\n';
  if (*code != '\0' && !g_str_has_suffix (code, "\n"))
    n_lines++;

  json_object_set_string_member (object, "code", numbered);
  json_object_set_int_member (object, "lines", n_lines);

  g_task_return_pointer (task, g_steal_pointer (&object), (GDestroyNotify)json_object_unref);
}

static void
viva_read_student_code_tool_class_init (VivaReadStudentCodeToolClass *klass)
{
  VivaExamToolClass *tool_class = VIVA_EXAM_TOOL_CLASS (klass);

  tool_class->name = "readStudentCode";
  tool_class->description =
    "Returns the student's current code, each line prefixed with its number. "
    "The code may have changed since you last read it.";
  tool_class->parameters = "{\"type\": \"object\", \"properties\": {}}";
  tool_class->kind = VIVA_EXAM_TOOL_KIND_ORDINARY;
  tool_class->invoke_async = viva_read_student_code_tool_invoke_async;
  tool_class->invoke_finish = _viva_exam_tool_finish_object;
}

static void
viva_read_student_code_tool_init (VivaReadStudentCodeTool *self)
{
}

VivaExamTool *
viva_read_student_code_tool_new (void)
{
  return g_object_new (VIVA_TYPE_READ_STUDENT_CODE_TOOL, NULL);
}

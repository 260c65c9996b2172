/* viva-read-student-code-tool.c
 *
 * The tool that returns the student's current code, its lines numbered.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-exam-plan.h"
#include "viva-exam-private.h"

VIVA_DEFINE_EXAM_TOOL (VivaReadStudentCodeTool, viva_read_student_code_tool)

static const VivaExamToolFacts facts = {
  .name = "readStudentCode",
  .title = N_("Reading your code"),
  .icon_name = "document-open-symbolic",
  .running_text = N_("Reading your code…"),
  .done_text = N_("Read your code"),
  .step = VIVA_EXAM_PROTOCOL_READ,
  .kind = VIVA_EXAM_TOOL_KIND_ORDINARY,
};

static void
viva_read_student_code_tool_invoke (VivaExamTool    *tool,
                                    VivaExamContext *context,
                                    JsonObject      *arguments,
                                    GTask           *task)
{
  g_autofree char *code = viva_exam_context_dup_code (context);
  g_autofree char *numbered = _viva_exam_number_lines (code);
  g_autoptr(JsonObject) object = json_object_new ();
  guint n_lines = 0;

  for (const char *p = code; *p; p++)
    n_lines += *p == '\n';
  if (*code != '\0' && !g_str_has_suffix (code, "\n"))
    n_lines++;

  json_object_set_string_member (object, "code", numbered);
  json_object_set_int_member (object, "lines", n_lines);
  /* The engine's plan of questions, handed to the model with the code. */
  {
    g_autofree char *plan = viva_exam_plan_message (viva_exam_context_get_plan (context));

    if (plan != NULL)
      json_object_set_string_member (object, "planned_questions", plan);
  }

  viva_exam_tool_return (task, g_steal_pointer (&object));
}

static void
viva_read_student_code_tool_class_init (VivaReadStudentCodeToolClass *klass)
{
  VivaExamToolClass *tool_class = VIVA_EXAM_TOOL_CLASS (klass);

  tool_class->facts = &facts;
  tool_class->description =
    "Returns the student's current code, each line prefixed with its number. "
    "The code may have changed since you last read it.";
  tool_class->parameters = "{\"type\": \"object\", \"properties\": {}}";
  tool_class->invoke = viva_read_student_code_tool_invoke;
}

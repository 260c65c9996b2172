/* viva-finish-defense-tool.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-exam-private.h"
#include "viva-finish-defense-tool.h"

struct _VivaFinishDefenseTool
{
  VivaExamTool parent_instance;
};

G_DEFINE_FINAL_TYPE (VivaFinishDefenseTool, viva_finish_defense_tool, VIVA_TYPE_EXAM_TOOL)

static void
viva_finish_defense_tool_invoke_async (VivaExamTool        *tool,
                                       VivaExamContext     *context,
                                       JsonObject          *arguments,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (tool, cancellable, callback, user_data);
  g_autoptr(JsonObject) data = json_object_new ();

  g_task_set_source_tag (task, viva_finish_defense_tool_invoke_async);

  /* The arguments were checked against the schema (verdict, score range,
   * evidence ids as strings); whether the evidence exists is the
   * examiner's to judge, as only it knows the steps. */
  json_object_set_string_member (data, "verdict", json_object_get_string_member (arguments, "verdict"));
  json_object_set_int_member (data, "score", json_object_get_int_member (arguments, "score"));
  json_object_set_string_member (data, "comment", json_object_get_string_member (arguments, "comment"));
  json_object_set_member (data, "evidence", json_object_dup_member (arguments, "evidence"));
  json_object_set_boolean_member (data, "recorded", TRUE);

  g_task_return_pointer (task, g_steal_pointer (&data), (GDestroyNotify)json_object_unref);
}

static void
viva_finish_defense_tool_class_init (VivaFinishDefenseToolClass *klass)
{
  VivaExamToolClass *tool_class = VIVA_EXAM_TOOL_CLASS (klass);

  tool_class->name = "finishDefense";
  tool_class->description =
    "Ends the defense with your verdict. Allowed only after readStudentCode, runPython, at "
    "least one injectTestCase and askStudent. evidence lists the step ids (S1, S2, …) your "
    "verdict rests on and must include at least one injectTestCase step.";
  tool_class->parameters =
    "{\"type\": \"object\","
    " \"properties\": {"
    "   \"verdict\": {\"type\": \"string\", \"enum\": [\"pass\", \"fail\"]},"
    "   \"score\": {\"type\": \"integer\", \"minimum\": 0, \"maximum\": 100},"
    "   \"comment\": {\"type\": \"string\", \"minLength\": 1,"
    "                 \"description\": \"feedback for the student, in their language\"},"
    "   \"evidence\": {\"type\": \"array\", \"items\": {\"type\": \"string\"},"
    "                  \"description\": \"ids of the steps the verdict rests on\"}},"
    " \"required\": [\"verdict\", \"score\", \"comment\", \"evidence\"]}";
  tool_class->kind = VIVA_EXAM_TOOL_KIND_FINISHES;
  tool_class->invoke_async = viva_finish_defense_tool_invoke_async;
  tool_class->invoke_finish = _viva_exam_tool_finish_object;
}

static void
viva_finish_defense_tool_init (VivaFinishDefenseTool *self)
{
}

VivaExamTool *
viva_finish_defense_tool_new (void)
{
  return g_object_new (VIVA_TYPE_FINISH_DEFENSE_TOOL, NULL);
}

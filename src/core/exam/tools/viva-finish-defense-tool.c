/* viva-finish-defense-tool.c
 *
 * The tool that ends the defense: its result is the examiner's verdict,
 * which the examiner checks against the protocol and the evidence.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-exam-private.h"

VIVA_DEFINE_EXAM_TOOL (VivaFinishDefenseTool, viva_finish_defense_tool)

static const VivaExamToolFacts facts = {
  .name = "finishDefense",
  .title = N_("Writing the verdict"),
  .icon_name = "document-edit-symbolic",
  .running_text = N_("Writing the verdict…"),
  .done_text = N_("Gave the verdict"),
  .shown_argument = "comment",
  .step = VIVA_EXAM_PROTOCOL_FINISH,
  .kind = VIVA_EXAM_TOOL_KIND_FINISHES,
};

static void
viva_finish_defense_tool_invoke (VivaExamTool    *tool,
                                 VivaExamContext *context,
                                 JsonObject      *arguments,
                                 GTask           *task)
{
  g_autoptr(JsonObject) data = json_object_new ();

  /* The arguments were checked against the schema (verdict, score range,
   * evidence ids as strings); whether the evidence exists is the
   * examiner's to judge, as only it knows the steps. */
  json_object_set_string_member (data, "verdict", json_object_get_string_member (arguments, "verdict"));
  json_object_set_int_member (data, "score", json_object_get_int_member (arguments, "score"));
  json_object_set_string_member (data, "comment", json_object_get_string_member (arguments, "comment"));
  json_object_set_member (data, "evidence", json_object_dup_member (arguments, "evidence"));
  json_object_set_boolean_member (data, "recorded", TRUE);

  viva_exam_tool_return (task, g_steal_pointer (&data));
}

static void
viva_finish_defense_tool_class_init (VivaFinishDefenseToolClass *klass)
{
  VivaExamToolClass *tool_class = VIVA_EXAM_TOOL_CLASS (klass);

  tool_class->facts = &facts;
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
  tool_class->invoke = viva_finish_defense_tool_invoke;
}

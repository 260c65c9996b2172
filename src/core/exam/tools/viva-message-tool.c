/* viva-message-tool.c
 *
 * The tool that says something to the student without waiting.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-exam-private.h"

VIVA_DEFINE_EXAM_TOOL (VivaMessageTool, viva_message_tool)

static const VivaExamToolFacts facts = {
  .name = "message",
  .title = N_("Telling you something"),
  .icon_name = "user-available-symbolic",
  .running_text = N_("Working…"),
  .done_text = N_("Told you something"),
  .shown_argument = "text",
  .step = VIVA_EXAM_PROTOCOL_NONE,
  .kind = VIVA_EXAM_TOOL_KIND_SPEAKS,
};

static void
viva_message_tool_invoke (VivaExamTool    *tool,
                          VivaExamContext *context,
                          JsonObject      *arguments,
                          GTask           *task)
{
  g_autoptr(JsonObject) data = json_object_new ();

  /* The examiner shows the text from the call itself, by the tool's kind;
   * the model only needs to know it was delivered. */
  json_object_set_boolean_member (data, "delivered", TRUE);
  viva_exam_tool_return (task, g_steal_pointer (&data));
}

static void
viva_message_tool_class_init (VivaMessageToolClass *klass)
{
  VivaExamToolClass *tool_class = VIVA_EXAM_TOOL_CLASS (klass);

  tool_class->facts = &facts;
  tool_class->description =
    "Shows a short message to the student without waiting for a reply. Not for questions: "
    "use askStudent to ask.";
  tool_class->parameters =
    "{\"type\": \"object\","
    " \"properties\": {\"text\": {\"type\": \"string\", \"minLength\": 1}},"
    " \"required\": [\"text\"]}";
  tool_class->invoke = viva_message_tool_invoke;
}

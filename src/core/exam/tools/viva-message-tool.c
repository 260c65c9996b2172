/* viva-message-tool.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-exam-private.h"
#include "viva-message-tool.h"

struct _VivaMessageTool
{
  VivaExamTool parent_instance;
};

G_DEFINE_FINAL_TYPE (VivaMessageTool, viva_message_tool, VIVA_TYPE_EXAM_TOOL)

static void
viva_message_tool_invoke_async (VivaExamTool        *tool,
                                VivaExamContext     *context,
                                JsonObject          *arguments,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (tool, cancellable, callback, user_data);
  g_autoptr(JsonObject) data = json_object_new ();

  g_task_set_source_tag (task, viva_message_tool_invoke_async);

  /* The examiner shows the text from the call itself, by the tool's kind;
   * the model only needs to know it was delivered. */
  json_object_set_boolean_member (data, "delivered", TRUE);
  g_task_return_pointer (task, g_steal_pointer (&data), (GDestroyNotify)json_object_unref);
}

static void
viva_message_tool_class_init (VivaMessageToolClass *klass)
{
  VivaExamToolClass *tool_class = VIVA_EXAM_TOOL_CLASS (klass);

  tool_class->name = "message";
  tool_class->description =
    "Shows a short message to the student without waiting for a reply. Not for questions: "
    "use askStudent to ask.";
  tool_class->parameters =
    "{\"type\": \"object\","
    " \"properties\": {\"text\": {\"type\": \"string\", \"minLength\": 1}},"
    " \"required\": [\"text\"]}";
  tool_class->kind = VIVA_EXAM_TOOL_KIND_SPEAKS;
  tool_class->invoke_async = viva_message_tool_invoke_async;
  tool_class->invoke_finish = _viva_exam_tool_finish_object;
}

static void
viva_message_tool_init (VivaMessageTool *self)
{
}

VivaExamTool *
viva_message_tool_new (void)
{
  return g_object_new (VIVA_TYPE_MESSAGE_TOOL, NULL);
}

/* viva-model-check.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "viva-model-check.h"

/* "Check this model" in Preferences: a short qualification run, so a
 * teacher knows before the lab whether a model can examine. Two requests:
 * a plain one that must arrive in pieces (it streams), then one offering a
 * single tool the model must call with the right, valid JSON arguments
 * (it calls tools when asked; its JSON parses). */

typedef struct
{
  VivaChatRequest *request;
  gulong           delta_handler;
  guint            deltas;
} CheckData;

static void
check_data_free (CheckData *data)
{
  g_clear_pointer (&data->request, viva_chat_request_unref);
  g_free (data);
}

static void
delta_cb (VivaChatModel       *model,
          VivaChatRequest     *request,
          const VivaChatDelta *delta,
          GTask               *task)
{
  CheckData *data = g_task_get_task_data (task);

  if (request == data->request &&
      (delta->kind == VIVA_CHAT_DELTA_CONTENT || delta->kind == VIVA_CHAT_DELTA_REASONING))
    data->deltas++;
}

static void
tool_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(VivaChatReply) reply = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) arguments = NULL;
  GPtrArray *calls;
  const VivaToolCall *call;
  JsonObject *object_args;

  if (!(reply = viva_chat_model_stream_finish (VIVA_CHAT_MODEL (object), result, &error)))
    return g_task_return_error (task, g_steal_pointer (&error));

  calls = viva_chat_reply_get_tool_calls (reply);
  if (calls == NULL || calls->len == 0)
    return g_task_return_int (task, VIVA_MODEL_CHECK_NO_TOOLS);

  call = g_ptr_array_index (calls, 0);
  if (g_strcmp0 (viva_tool_call_get_name (call), "recordAnswer") != 0)
    return g_task_return_int (task, VIVA_MODEL_CHECK_NO_TOOLS);

  if (!(arguments = json_from_string (viva_tool_call_get_arguments (call), NULL)) ||
      !JSON_NODE_HOLDS_OBJECT (arguments))
    return g_task_return_int (task, VIVA_MODEL_CHECK_BAD_JSON);

  object_args = json_node_get_object (arguments);
  if (!json_object_has_member (object_args, "answer") ||
      json_node_get_value_type (json_object_get_member (object_args, "answer")) == G_TYPE_STRING ||
      json_object_get_int_member_with_default (object_args, "answer", 0) != 42)
    return g_task_return_int (task, VIVA_MODEL_CHECK_NO_TOOLS);

  g_task_return_int (task, VIVA_MODEL_CHECK_CAN_EXAMINE);
}

static void
stream_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(VivaChatReply) reply = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) parameters = NULL;
  g_autoptr(VivaToolDefinition) tool = NULL;
  g_autoptr(VivaChatMessage) system = NULL;
  g_autoptr(VivaChatMessage) user = NULL;
  CheckData *data = g_task_get_task_data (task);
  VivaChatModel *model = VIVA_CHAT_MODEL (object);

  if (!(reply = viva_chat_model_stream_finish (model, result, &error)))
    return g_task_return_error (task, g_steal_pointer (&error));

  if (data->deltas < 2)
    return g_task_return_int (task, VIVA_MODEL_CHECK_NO_STREAM);

  parameters = json_from_string ("{\"type\": \"object\","
                                 " \"properties\": {\"answer\": {\"type\": \"integer\"}},"
                                 " \"required\": [\"answer\"]}", NULL);
  tool = viva_tool_definition_new ("recordAnswer", "Records the answer to the arithmetic question.", parameters);

  system = viva_chat_message_new_system ("You answer by calling tools, never in prose.");
  user = viva_chat_message_new_user ("What is 6 times 7? Call the recordAnswer tool with the answer.");
  g_clear_pointer (&data->request, viva_chat_request_unref);
  data->request = viva_chat_request_new ();
  viva_chat_request_add_message (data->request, system);
  viva_chat_request_add_message (data->request, user);
  viva_chat_request_add_tool (data->request, tool);
  viva_chat_request_set_temperature (data->request, 0.0);

  viva_chat_model_stream_async (model, data->request, g_task_get_cancellable (task),
                                tool_cb, g_object_ref (task));
}

static void
task_completed_cb (GTask      *task,
                   GParamSpec *pspec,
                   gpointer    model)
{
  CheckData *data = g_task_get_task_data (task);

  g_clear_signal_handler (&data->delta_handler, model);
}

/**
 * viva_model_check_async:
 *
 * Runs the qualification of @model: two short requests. Main thread.
 */
void
viva_model_check_async (VivaChatModel       *model,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(VivaChatMessage) user = NULL;
  CheckData *data;

  g_return_if_fail (VIVA_IS_CHAT_MODEL (model));

  task = g_task_new (model, cancellable, callback, user_data);
  g_task_set_source_tag (task, viva_model_check_async);

  data = g_new0 (CheckData, 1);
  data->request = viva_chat_request_new ();
  user = viva_chat_message_new_user ("Count from one to ten in words, separated by spaces.");
  viva_chat_request_add_message (data->request, user);
  g_task_set_task_data (task, data, (GDestroyNotify)check_data_free);

  data->delta_handler = g_signal_connect (model, "delta", G_CALLBACK (delta_cb), task);
  g_signal_connect (task, "notify::completed", G_CALLBACK (task_completed_cb), model);

  viva_chat_model_stream_async (model, data->request, cancellable, stream_cb, g_object_ref (task));
}

VivaModelCheckResult
viva_model_check_finish (VivaChatModel  *model,
                         GAsyncResult   *result,
                         GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, model), VIVA_MODEL_CHECK_NO_TOOLS);

  return g_task_propagate_int (G_TASK (result), error);
}

/**
 * viva_model_check_describe:
 *
 * Returns: the verdict in words for a teacher
 */
const char *
viva_model_check_describe (VivaModelCheckResult result)
{
  switch (result)
    {
    case VIVA_MODEL_CHECK_CAN_EXAMINE:
      return _("This model can examine: it streams, calls tools when asked and returns valid JSON.");
    case VIVA_MODEL_CHECK_NO_STREAM:
      return _("This model answers, but not as a stream, so students would wait without seeing anything. Check the server’s settings.");
    case VIVA_MODEL_CHECK_NO_TOOLS:
      return _("This model does not call tools reliably; try qwen2.5:7b or larger.");
    case VIVA_MODEL_CHECK_BAD_JSON:
      return _("This model writes invalid JSON for tool arguments; try qwen2.5:7b or larger.");
    default:
      g_assert_not_reached ();
    }
}

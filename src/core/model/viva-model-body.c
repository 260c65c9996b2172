/* viva-model-body.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "viva-model-body.h"
#include "viva-model-private.h"

/* The body of one chat request, in the shape the server speaks: OpenAI's
 * messages (reasoning and our own members left out, which strict servers
 * reject) or Ollama's native chat (tool arguments as objects, num_ctx).
 * Plain data in, bytes out: which parameters to leave out is the stream's
 * to say, from what the model rejected before. */

static JsonNode *
openai_message (VivaChatMessage *message)
{
  JsonNode *node = viva_chat_message_to_json (message);
  JsonObject *object = json_node_get_object (node);
  JsonArray *calls;

  /* Reasoning stays ours; strict servers reject unknown members. */
  json_object_remove_member (object, "reasoning");
  if (viva_chat_message_get_role (message) == VIVA_CHAT_ROLE_TOOL)
    json_object_remove_member (object, "name");
  if ((calls = viva_json_member_array (object, "tool_calls")))
    for (guint i = 0; i < json_array_get_length (calls); i++)
      json_object_remove_member (json_array_get_object_element (calls, i), "recovered");

  return node;
}

static JsonNode *
ollama_message (VivaChatMessage *message)
{
  g_autoptr(JsonObject) object = json_object_new ();
  GPtrArray *calls = viva_chat_message_get_tool_calls (message);
  const char *content = viva_chat_message_get_content (message);

  json_object_set_string_member (object, "role", viva_chat_role_to_string (viva_chat_message_get_role (message)));
  json_object_set_string_member (object, "content", content != NULL ? content : "");

  if (calls->len > 0)
    {
      JsonArray *array = json_array_new ();

      for (guint i = 0; i < calls->len; i++)
        {
          VivaToolCall *call = g_ptr_array_index (calls, i);
          g_autoptr(JsonNode) arguments = viva_tool_call_parse_arguments (call, NULL);
          JsonObject *item = json_object_new ();
          JsonObject *function = json_object_new ();

          json_object_set_string_member (function, "name", viva_tool_call_get_name (call));
          json_object_set_member (function, "arguments",
                                  arguments != NULL ? g_steal_pointer (&arguments)
                                                    : json_node_init_object (json_node_alloc (), json_object_new ()));
          json_object_set_string_member (item, "id", viva_tool_call_get_id (call));
          json_object_set_object_member (item, "function", function);
          json_array_add_object_element (array, item);
        }
      json_object_set_array_member (object, "tool_calls", array);
    }

  if (viva_chat_message_get_tool_call_id (message) != NULL)
    json_object_set_string_member (object, "tool_call_id", viva_chat_message_get_tool_call_id (message));
  if (viva_chat_message_get_name (message) != NULL)
    json_object_set_string_member (object, "tool_name", viva_chat_message_get_name (message));

  return json_node_init_object (json_node_alloc (), object);
}

/* The request's JSON body: OpenAI's chat completion, or Ollama's native
 * chat with its options. @temperature is left out when negative,
 * @context_length when 0, stream_options unless @stream_options. */
GBytes *
_viva_model_body_new (VivaChatRequest *request,
                      const char      *model,
                      gboolean         native,
                      double           temperature,
                      guint            context_length,
                      gboolean         stream_options)
{
  g_autoptr(JsonObject) body = json_object_new ();
  g_autoptr(JsonNode) root = json_node_new (JSON_NODE_OBJECT);
  GPtrArray *messages = viva_chat_request_get_messages (request);
  GPtrArray *tools = viva_chat_request_get_tools (request);
  guint max_tokens = viva_chat_request_get_max_tokens (request);
  JsonNode *schema = viva_chat_request_get_response_schema (request);
  JsonArray *array = json_array_sized_new (messages->len);
  char *text;

  json_object_set_string_member (body, "model", model);
  for (guint i = 0; i < messages->len; i++)
    json_array_add_element (array, native ? ollama_message (g_ptr_array_index (messages, i))
                                                : openai_message (g_ptr_array_index (messages, i)));
  json_object_set_array_member (body, "messages", array);
  json_object_set_boolean_member (body, "stream", TRUE);

  if (tools->len > 0)
    {
      JsonArray *tool_array = json_array_sized_new (tools->len);

      for (guint i = 0; i < tools->len; i++)
        json_array_add_element (tool_array, viva_tool_definition_to_json (g_ptr_array_index (tools, i)));
      json_object_set_array_member (body, "tools", tool_array);
    }

  if (native)
    {
      JsonObject *options = json_object_new ();

      if (context_length > 0)
        json_object_set_int_member (options, "num_ctx", context_length);
      if (temperature >= 0.0)
        json_object_set_double_member (options, "temperature", temperature);
      if (max_tokens > 0)
        json_object_set_int_member (options, "num_predict", max_tokens);
      json_object_set_object_member (body, "options", options);
      json_object_set_string_member (body, "keep_alive", VIVA_OLLAMA_KEEP_ALIVE);
      if (schema != NULL)
        json_object_set_member (body, "format", json_node_copy (schema));
    }
  else
    {
      if (stream_options)
        {
          JsonObject *options = json_object_new ();

          json_object_set_boolean_member (options, "include_usage", TRUE);
          json_object_set_object_member (body, "stream_options", options);
        }
      if (temperature >= 0.0)
        json_object_set_double_member (body, "temperature", temperature);
      if (max_tokens > 0)
        json_object_set_int_member (body, "max_tokens", max_tokens);
      if (schema != NULL)
        {
          JsonObject *format = json_object_new ();
          JsonObject *json_schema = json_object_new ();

          json_object_set_string_member (json_schema, "name",
                                         viva_chat_request_get_response_schema_name (request));
          json_object_set_member (json_schema, "schema", json_node_copy (schema));
          json_object_set_string_member (format, "type", "json_schema");
          json_object_set_object_member (format, "json_schema", json_schema);
          json_object_set_object_member (body, "response_format", format);
        }
    }

  json_node_set_object (root, body);
  text = json_to_string (root, FALSE);
  return g_bytes_new_take (text, strlen (text));
}

/* test-chat-types.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-chat-model.h"
#include "viva-chat-reply-private.h"

static JsonNode *
parse (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();

  g_assert_true (json_parser_load_from_data (parser, text, -1, NULL));
  return json_node_copy (json_parser_get_root (parser));
}

static char *
to_text (JsonNode *node)
{
  return json_to_string (node, FALSE);
}

static void
test_tool_call (void)
{
  g_autoptr(VivaToolCall) call = viva_tool_call_new ("call_1", "runPython", "{\"code\":\"print(1)\"}");
  g_autoptr(VivaToolCall) copy = NULL;
  g_autoptr(VivaToolCall) generated = viva_tool_call_new (NULL, "askStudent", NULL);
  g_autoptr(VivaToolCall) bad = viva_tool_call_new ("c", "x", "[1]");
  g_autoptr(VivaToolCall) broken = viva_tool_call_new ("c", "x", "{\"a\":");
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonNode) arguments = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_str_has_prefix (viva_tool_call_get_id (generated), "call_"));
  g_assert_cmpstr (viva_tool_call_get_arguments (generated), ==, "{}");

  viva_tool_call_set_recovered (call, TRUE);
  node = viva_tool_call_to_json (call);
  copy = viva_tool_call_new_from_json (node, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (viva_tool_call_get_id (copy), ==, "call_1");
  g_assert_cmpstr (viva_tool_call_get_name (copy), ==, "runPython");
  g_assert_cmpstr (viva_tool_call_get_arguments (copy), ==, "{\"code\":\"print(1)\"}");
  g_assert_true (viva_tool_call_get_recovered (copy));

  arguments = viva_tool_call_parse_arguments (call, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (arguments));

  g_assert_null (viva_tool_call_parse_arguments (bad, &error));
  g_assert_error (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_INVALID_RESPONSE);
  g_clear_error (&error);
  g_assert_null (viva_tool_call_parse_arguments (broken, &error));
  g_assert_error (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_INVALID_RESPONSE);
}

/* Every message kind survives a JSON round trip (checkpoints rely on it). */
static void
test_message_round_trip (void)
{
  g_autoptr(GPtrArray) calls = g_ptr_array_new_with_free_func ((GDestroyNotify)viva_tool_call_free);
  g_autoptr(GPtrArray) messages = g_ptr_array_new_with_free_func ((GDestroyNotify)viva_chat_message_unref);

  g_ptr_array_add (calls, viva_tool_call_new ("call_1", "runPython", "{\"code\":\"x = \\\"é\\\"\\n\"}"));
  g_ptr_array_add (messages, viva_chat_message_new_system ("You are an examiner."));
  g_ptr_array_add (messages, viva_chat_message_new_user ("Hello «world»"));
  g_ptr_array_add (messages, viva_chat_message_new_assistant (NULL, calls));
  g_ptr_array_add (messages, viva_chat_message_new_tool ("call_1", "runPython", "{\"stdout\":\"é\"}"));
  viva_chat_message_set_reasoning (g_ptr_array_index (messages, 2), "think");

  for (guint i = 0; i < messages->len; i++)
    {
      VivaChatMessage *message = g_ptr_array_index (messages, i);
      g_autoptr(JsonNode) node = viva_chat_message_to_json (message);
      g_autoptr(VivaChatMessage) copy = NULL;
      g_autoptr(JsonNode) again = NULL;
      g_autofree char *a = NULL;
      g_autofree char *b = NULL;
      g_autoptr(GError) error = NULL;

      copy = viva_chat_message_new_from_json (node, &error);
      g_assert_no_error (error);
      g_assert_cmpint (viva_chat_message_get_role (copy), ==, viva_chat_message_get_role (message));
      g_assert_cmpstr (viva_chat_message_get_content (copy), ==, viva_chat_message_get_content (message));
      g_assert_cmpstr (viva_chat_message_get_reasoning (copy), ==, viva_chat_message_get_reasoning (message));
      g_assert_cmpstr (viva_chat_message_get_tool_call_id (copy), ==, viva_chat_message_get_tool_call_id (message));
      g_assert_cmpstr (viva_chat_message_get_name (copy), ==, viva_chat_message_get_name (message));
      g_assert_cmpuint (viva_chat_message_get_tool_calls (copy)->len, ==, viva_chat_message_get_tool_calls (message)->len);

      again = viva_chat_message_to_json (copy);
      a = to_text (node);
      b = to_text (again);
      g_assert_cmpstr (a, ==, b);
    }

  {
    g_autoptr(JsonNode) node = viva_chat_message_to_json (g_ptr_array_index (messages, 2));
    g_autofree char *text = to_text (node);

    g_assert_cmpstr (text, ==,
                     "{\"role\":\"assistant\",\"content\":null,\"reasoning\":\"think\",\"tool_calls\":[{\"id\":\"call_1\","
                     "\"type\":\"function\",\"function\":{\"name\":\"runPython\",\"arguments\":\"{\\\"code\\\":\\\"x = \\\\\\\"é\\\\\\\"\\\\n\\\"}\"}}]}");
  }
}

static void
test_message_invalid (void)
{
  const char *texts[] = {
    "[]",
    "{\"content\":\"x\"}",
    "{\"role\":\"wizard\"}",
    "{\"role\":\"tool\",\"content\":\"x\"}",
    "{\"role\":\"assistant\",\"tool_calls\":[{\"function\":{}}]}",
    "{\"role\":\"assistant\",\"tool_calls\":[7]}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      g_autoptr(JsonNode) node = parse (texts[i]);
      g_autoptr(GError) error = NULL;
      g_autoptr(VivaChatMessage) message = viva_chat_message_new_from_json (node, &error);

      g_assert_null (message);
      g_assert_error (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_INVALID_RESPONSE);
    }
}

/* Checkpoints are untrusted input: a missing node is an error, not a bug. */
static void
test_from_null (void)
{
  GError *error = NULL;

  g_assert_null (viva_chat_message_new_from_json (NULL, &error));
  g_assert_error (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_INVALID_RESPONSE);
  g_clear_error (&error);
  g_assert_null (viva_tool_call_new_from_json (NULL, &error));
  g_assert_error (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_INVALID_RESPONSE);
  g_clear_error (&error);
  g_assert_null (viva_tool_definition_new_from_json (NULL, &error));
  g_assert_error (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_INVALID_RESPONSE);
  g_clear_error (&error);
  g_assert_null (viva_chat_request_new_from_json (NULL, &error));
  g_assert_error (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_INVALID_RESPONSE);
  g_clear_error (&error);
  g_assert_null (viva_chat_reply_new_from_json (NULL, &error));
  g_assert_error (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_INVALID_RESPONSE);
  g_clear_error (&error);
}

static void
test_tool_definition (void)
{
  g_autoptr(JsonNode) schema = parse ("{\"type\":\"object\",\"properties\":{\"code\":{\"type\":\"string\"}},\"required\":[\"code\"]}");
  g_autoptr(VivaToolDefinition) tool = viva_tool_definition_new ("runPython", "Runs code.", schema);
  g_autoptr(VivaToolDefinition) bare = viva_tool_definition_new ("readStudentCode", NULL, NULL);
  g_autoptr(VivaToolDefinition) copy = NULL;
  g_autoptr(JsonNode) node = viva_tool_definition_to_json (tool);
  g_autoptr(JsonNode) bad = parse ("{\"type\":\"function\"}");
  g_autoptr(GError) error = NULL;
  g_autofree char *text = to_text (node);

  g_assert_cmpstr (text, ==,
                   "{\"type\":\"function\",\"function\":{\"name\":\"runPython\",\"description\":\"Runs code.\","
                   "\"parameters\":{\"type\":\"object\",\"properties\":{\"code\":{\"type\":\"string\"}},\"required\":[\"code\"]}}}");

  copy = viva_tool_definition_new_from_json (node, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (viva_tool_definition_get_name (copy), ==, "runPython");
  g_assert_cmpstr (viva_tool_definition_get_description (copy), ==, "Runs code.");
  g_assert_true (json_node_equal (viva_tool_definition_get_parameters (copy), schema));
  g_assert_true (JSON_NODE_HOLDS_OBJECT (viva_tool_definition_get_parameters (bare)));
  g_assert_cmpstr (viva_tool_definition_get_description (bare), ==, "");

  g_assert_null (viva_tool_definition_new_from_json (bad, &error));
  g_assert_error (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_INVALID_RESPONSE);
}

static void
test_request (void)
{
  g_autoptr(VivaChatRequest) request = viva_chat_request_new ();
  g_autoptr(VivaChatRequest) copy = NULL;
  g_autoptr(VivaChatMessage) system = viva_chat_message_new_system ("Be brief.");
  g_autoptr(VivaChatMessage) user = viva_chat_message_new_user ("Why?");
  g_autoptr(VivaToolDefinition) tool = viva_tool_definition_new ("askStudent", "Asks.", NULL);
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonNode) again = NULL;
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;
  g_autoptr(GError) error = NULL;
  double temperature = -1;

  g_assert_false (viva_chat_request_get_temperature (request, &temperature));
  g_assert_null (viva_chat_request_get_model (request));
  viva_chat_request_add_message (request, system);
  viva_chat_request_add_message (request, user);
  viva_chat_request_add_tool (request, tool);
  viva_chat_request_set_model (request, "qwen2.5:7b");
  viva_chat_request_set_temperature (request, 0.25);
  {
    g_autoptr(JsonNode) schema = parse ("{\"type\":\"object\",\"properties\":{\"verdict\":{\"type\":\"string\"}}}");

    viva_chat_request_set_response_schema (request, "verdict", schema);
  }
  viva_chat_request_set_max_tokens (request, 512);
  g_assert_true (viva_chat_request_get_temperature (request, &temperature));
  g_assert_cmpfloat (temperature, ==, 0.25);
  g_assert_cmpuint (viva_chat_request_estimate_prompt_tokens (request), >, 8);

  node = viva_chat_request_to_json (request);
  copy = viva_chat_request_new_from_json (node, &error);
  g_assert_no_error (error);
  again = viva_chat_request_to_json (copy);
  a = to_text (node);
  b = to_text (again);
  g_assert_cmpstr (a, ==, b);
  g_assert_cmpuint (viva_chat_request_get_max_tokens (copy), ==, 512);
  g_assert_cmpuint (viva_chat_request_get_messages (copy)->len, ==, 2);
  g_assert_cmpuint (viva_chat_request_get_tools (copy)->len, ==, 1);
  g_assert_cmpstr (viva_chat_request_get_response_schema_name (copy), ==, "verdict");
  g_assert_true (json_node_equal (viva_chat_request_get_response_schema (copy),
                                  viva_chat_request_get_response_schema (request)));
  viva_chat_request_set_response_schema (copy, NULL, NULL);
  g_assert_null (viva_chat_request_get_response_schema (copy));
  g_assert_null (viva_chat_request_get_response_schema_name (copy));

  viva_chat_request_unset_temperature (copy);
  g_assert_false (viva_chat_request_get_temperature (copy, NULL));
  viva_chat_request_set_model (copy, "");
  g_assert_null (viva_chat_request_get_model (copy));
}

static void
test_reply_json (void)
{
  g_autoptr(VivaChatReply) reply = viva_chat_reply_new ();
  g_autoptr(VivaChatReply) copy = NULL;
  g_autoptr(VivaChatMessage) message = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonNode) again = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;
  VivaChatUsage usage = { 5, 6, 11 };
  VivaToolCall *call = viva_tool_call_new ("c1", "askStudent", "{}");

  viva_tool_call_set_recovered (call, TRUE);
  viva_chat_reply_take_content (reply, g_strdup ("Hi"));
  _viva_chat_reply_take_reasoning (reply, g_strdup ("hm"));
  viva_chat_reply_add_tool_call (reply, call);
  viva_chat_reply_set_finish_reason (reply, "stop");
  _viva_chat_reply_set_usage (reply, &usage);
  viva_chat_reply_set_model (reply, "m");
  _viva_chat_reply_set_truncated (reply, TRUE);
  _viva_chat_reply_set_prompt_truncated (reply, TRUE);

  node = viva_chat_reply_to_json (reply);
  a = to_text (node);
  g_assert_cmpstr (a, ==,
                   "{\"content\":\"Hi\",\"reasoning\":\"hm\",\"tool_calls\":[{\"id\":\"c1\",\"name\":\"askStudent\","
                   "\"arguments\":\"{}\",\"recovered\":true}],\"finish_reason\":\"stop\",\"usage\":{\"prompt_tokens\":5,"
                   "\"completion_tokens\":6,\"total_tokens\":11},\"truncated\":true,\"prompt_truncated\":true,\"model\":\"m\"}");

  copy = viva_chat_reply_new_from_json (node, &error);
  g_assert_no_error (error);
  again = viva_chat_reply_to_json (copy);
  b = to_text (again);
  g_assert_cmpstr (a, ==, b);
  g_assert_true (viva_chat_reply_get_recovered_tool_calls (copy));

  message = viva_chat_reply_to_message (reply);
  g_assert_cmpint (viva_chat_message_get_role (message), ==, VIVA_CHAT_ROLE_ASSISTANT);
  g_assert_cmpstr (viva_chat_message_get_content (message), ==, "Hi");
  g_assert_cmpstr (viva_chat_message_get_reasoning (message), ==, "hm");
  g_assert_cmpuint (viva_chat_message_get_tool_calls (message)->len, ==, 1);
}

static void
test_error_kinds (void)
{
  g_autoptr(GError) cancelled = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, "x");
  g_autoptr(GError) other = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_FAILED, "x");
  const char *expected[] = {
    "not-running", "connection", "model-not-found", "unauthorized", "bad-request",
    "rate-limited", "server", "timeout", "truncated", "invalid-response", "no-model",
  };

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_autoptr(GError) error = g_error_new_literal (VIVA_MODEL_ERROR, i, "x");

      g_assert_cmpstr (viva_model_error_kind (error), ==, expected[i]);
    }
  g_assert_cmpstr (viva_model_error_kind (cancelled), ==, "cancelled");
  g_assert_cmpstr (viva_model_error_kind (other), ==, "other");
}

static void
test_delta_copy (void)
{
  VivaChatUsage usage = { 1, 2, 3 };
  VivaChatDelta delta = { VIVA_CHAT_DELTA_TOOL_CALL, "{\"a\"", 1, "id", "name", &usage };
  g_autoptr(VivaChatDelta) copy = viva_chat_delta_copy (&delta);

  g_assert_cmpint (copy->kind, ==, VIVA_CHAT_DELTA_TOOL_CALL);
  g_assert_cmpstr (copy->text, ==, "{\"a\"");
  g_assert_cmpuint (copy->index, ==, 1);
  g_assert_cmpstr (copy->id, ==, "id");
  g_assert_cmpstr (copy->name, ==, "name");
  g_assert_cmpint (copy->usage->total_tokens, ==, 3);
  g_assert_true (copy->usage != &usage);
}

/* Boxed types hold their references and free them once. */
static void
test_create_destroy (void)
{
  VivaChatMessage *message = viva_chat_message_new_user ("x");
  VivaChatRequest *request = viva_chat_request_new ();
  VivaToolDefinition *tool = viva_tool_definition_new ("t", NULL, NULL);

  viva_chat_request_add_message (request, message);
  viva_chat_request_add_tool (request, tool);
  viva_chat_message_unref (message);
  viva_tool_definition_unref (tool);
  g_assert_cmpstr (viva_chat_message_get_content (g_ptr_array_index (viva_chat_request_get_messages (request), 0)), ==, "x");
  viva_chat_request_unref (request);

  g_assert_true (G_TYPE_IS_BOXED (VIVA_TYPE_CHAT_MESSAGE));
  g_assert_true (G_TYPE_IS_BOXED (VIVA_TYPE_CHAT_REQUEST));
  g_assert_true (G_TYPE_IS_BOXED (VIVA_TYPE_CHAT_REPLY));
  g_assert_true (G_TYPE_IS_BOXED (VIVA_TYPE_TOOL_CALL));
  g_assert_true (G_TYPE_IS_BOXED (VIVA_TYPE_TOOL_DEFINITION));
  g_assert_true (G_TYPE_IS_BOXED (VIVA_TYPE_CHAT_DELTA));
  g_assert_true (G_TYPE_IS_INTERFACE (VIVA_TYPE_CHAT_MODEL));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/viva/model/chat-types/create-destroy", test_create_destroy);
  g_test_add_func ("/viva/model/chat-types/tool-call", test_tool_call);
  g_test_add_func ("/viva/model/chat-types/message-round-trip", test_message_round_trip);
  g_test_add_func ("/viva/model/chat-types/message-invalid", test_message_invalid);
  g_test_add_func ("/viva/model/chat-types/tool-definition", test_tool_definition);
  g_test_add_func ("/viva/model/chat-types/from-null", test_from_null);
  g_test_add_func ("/viva/model/chat-types/request", test_request);
  g_test_add_func ("/viva/model/chat-types/reply-json", test_reply_json);
  g_test_add_func ("/viva/model/chat-types/error-kinds", test_error_kinds);
  g_test_add_func ("/viva/model/chat-types/delta-copy", test_delta_copy);

  return g_test_run ();
}

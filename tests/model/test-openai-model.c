/* test-openai-model.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* VivaOpenAIModel against the scripted SoupServer replaying Ollama's, vLLM's,
 * llama.cpp's, DeepSeek's, OpenRouter's and OpenAI's wire formats: every
 * recorded stream, what a request carries, Ollama's native API, and the
 * client's own properties. When the server is not well:
 * test-openai-model-errors.c; finding models and servers:
 * test-openai-model-discovery.c. */

#include "config.h"

#include "viva-exam-model.h"
#include "viva-openai-model.h"
#include "viva-test-model.h"
#include "viva-test-server.h"
#include "viva-test-util.h"
#include "model-fixtures.h"

typedef VivaTestModel Fixture;

static void
check_case (const FixtureCase *c,
            VivaChatReply     *reply,
            GError            *error,
            VivaTestDeltas    *collected)
{
  GPtrArray *calls;
  guint n_calls = fixture_case_n_calls (c);

  if (c->error_code >= 0)
    {
      g_assert_null (reply);
      g_assert_error (error, VIVA_MODEL_ERROR, c->error_code);
      return;
    }

  g_assert_no_error (error);
  g_assert_cmpstr (viva_chat_reply_get_content (reply), ==, c->content);
  g_assert_cmpstr (viva_chat_reply_get_reasoning (reply), ==, c->reasoning);
  g_assert_cmpstr (viva_chat_reply_get_finish_reason (reply), ==, c->finish_reason);
  g_assert_cmpint (viva_chat_reply_get_truncated (reply), ==, c->truncated);
  g_assert_cmpstr (collected->reasoning->str, ==, c->reasoning != NULL ? c->reasoning : "");
  if (c->prompt_tokens >= 0)
    {
      g_assert_cmpint (viva_chat_reply_get_usage (reply)->prompt_tokens, ==, c->prompt_tokens);
      g_assert_cmpint (viva_chat_reply_get_usage (reply)->total_tokens, ==, c->total_tokens);
    }
  else
    g_assert_null (viva_chat_reply_get_usage (reply));

  calls = viva_chat_reply_get_tool_calls (reply);
  g_assert_cmpuint (calls->len, ==, n_calls);
  for (guint i = 0; i < n_calls; i++)
    {
      g_assert_cmpstr (viva_tool_call_get_name (g_ptr_array_index (calls, i)), ==, c->calls[i].name);
      g_assert_cmpstr (viva_tool_call_get_arguments (g_ptr_array_index (calls, i)), ==, c->calls[i].arguments);
      if (c->calls[i].id != NULL)
        g_assert_cmpstr (viva_tool_call_get_id (g_ptr_array_index (calls, i)), ==, c->calls[i].id);
    }
}

/* Every recorded stream through the real HTTP stack, in chunks of 1 and 7
 * bytes and whole. */
static void
test_fixture_over_http (Fixture       *fixture,
                        gconstpointer  data)
{
  const FixtureCase *c = data;
  const gsize sizes[] = { 1, 7, 0 };

  if (c->format == VIVA_REPLY_FORMAT_OLLAMA)
    {
      const char *models[] = { "qwen2.5:7b", NULL };

      viva_test_server_serve_ollama (fixture->server, "0.6.2", models);
    }

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      g_autoptr(VivaTestResponse) response = viva_test_response_new_recorded (c->file, sizes[i]);
      g_autoptr(VivaChatRequest) request = viva_test_chat_request_new ("Hello");
      g_autoptr(VivaChatReply) reply = NULL;
      g_autoptr(GError) error = NULL;
      g_auto(GStrv) tools = c->tools != NULL ? g_strsplit (c->tools, ",", -1) : NULL;
      VivaTestDeltas collected = { 0 };

      for (guint j = 0; tools != NULL && tools[j] != NULL; j++)
        {
          g_autoptr(VivaToolDefinition) tool = viva_tool_definition_new (tools[j], "A tool.", NULL);

          viva_chat_request_add_tool (request, tool);
        }

      viva_test_server_queue (fixture->server, "POST",
                              c->format == VIVA_REPLY_FORMAT_OLLAMA ? "/api/chat" : "/v1/chat/completions",
                              response);
      reply = viva_test_model_stream (fixture, request, NULL, &collected, &error);
      check_case (c, reply, error, &collected);
      viva_test_deltas_clear (&collected);
    }

  /* No retry for an answer the server gave: one request each. */
  g_assert_cmpuint (viva_test_server_count_requests (fixture->server, "POST",
                                                     c->format == VIVA_REPLY_FORMAT_OLLAMA ? "/api/chat"
                                                                                           : "/v1/chat/completions"),
                    ==, G_N_ELEMENTS (sizes));
  g_assert_cmpint (viva_openai_model_get_server_kind (fixture->model), ==,
                   c->format == VIVA_REPLY_FORMAT_OLLAMA ? VIVA_SERVER_KIND_OLLAMA : VIVA_SERVER_KIND_OPENAI);
}

static void
test_request_body (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(VivaTestResponse) response = viva_test_response_new_chat_stream ("Hi", NULL, NULL, NULL);
  g_autoptr(VivaChatRequest) request = viva_test_chat_request_new ("Explain «recursion».");
  g_autoptr(VivaToolDefinition) tool = viva_tool_definition_new ("askStudent", "Ask.", NULL);
  g_autoptr(VivaChatReply) reply = NULL;
  g_autoptr(VivaChatMessage) assistant = NULL;
  g_autoptr(VivaChatMessage) tool_message = NULL;
  g_autoptr(GPtrArray) calls = g_ptr_array_new_with_free_func ((GDestroyNotify)viva_tool_call_free);
  g_autoptr(GAsyncResult) stored = NULL;
  g_autoptr(JsonObject) body = NULL;
  g_autoptr(GError) error = NULL;
  const VivaTestRequest *http;
  JsonArray *messages;
  JsonObject *message;

  g_ptr_array_add (calls, viva_tool_call_new ("call_9", "askStudent", "{\"question\":\"Why?\"}"));
  viva_tool_call_set_recovered (g_ptr_array_index (calls, 0), TRUE);
  assistant = viva_chat_message_new_assistant (NULL, calls);
  viva_chat_message_set_reasoning (assistant, "secret thoughts");
  tool_message = viva_chat_message_new_tool ("call_9", "askStudent", "{\"answer\":\"Because.\"}");
  viva_chat_request_add_message (request, assistant);
  viva_chat_request_add_message (request, tool_message);
  viva_chat_request_add_tool (request, tool);
  viva_chat_request_set_temperature (request, 0.5);
  viva_chat_request_set_max_tokens (request, 100);

  viva_secrets_store_async (fixture->secrets, fixture->base_url, "sk-test-key", NULL, viva_test_store_result, &stored);
  viva_test_run_until_result (&stored);
  g_assert_true (viva_secrets_store_finish (fixture->secrets, stored, NULL));

  viva_test_server_queue (fixture->server, "POST", "/v1/chat/completions", response);
  reply = viva_test_model_stream (fixture, request, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (viva_chat_reply_get_content (reply), ==, "Hi");

  http = viva_test_server_find_request (fixture->server, "POST", "/v1/chat/completions", 0);
  g_assert_cmpstr (viva_test_request_get_header (http, "Authorization"), ==, "Bearer sk-test-key");
  g_assert_cmpstr (viva_test_request_get_header (http, "Content-Type"), ==, "application/json");

  body = viva_test_model_request_body (fixture, "/v1/chat/completions", 0);
  g_assert_cmpstr (json_object_get_string_member (body, "model"), ==, "qwen2.5:7b");
  g_assert_true (json_object_get_boolean_member (body, "stream"));
  g_assert_true (json_object_get_boolean_member (json_object_get_object_member (body, "stream_options"), "include_usage"));
  g_assert_cmpfloat (json_object_get_double_member (body, "temperature"), ==, 0.5);
  g_assert_cmpint (json_object_get_int_member (body, "max_tokens"), ==, 100);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (body, "tools")), ==, 1);

  messages = json_object_get_array_member (body, "messages");
  g_assert_cmpuint (json_array_get_length (messages), ==, 4);
  message = json_array_get_object_element (messages, 2);
  g_assert_cmpstr (json_object_get_string_member (message, "role"), ==, "assistant");
  g_assert_true (json_object_get_null_member (message, "content"));
  /* Our own members never go on the wire. */
  g_assert_false (json_object_has_member (message, "reasoning"));
  g_assert_false (json_object_has_member (json_array_get_object_element (json_object_get_array_member (message, "tool_calls"), 0),
                                          "recovered"));
  message = json_array_get_object_element (messages, 3);
  g_assert_cmpstr (json_object_get_string_member (message, "tool_call_id"), ==, "call_9");
  g_assert_false (json_object_has_member (message, "name"));
}

/* A schema goes as response_format to OpenAI-compatible servers and as
 * format to Ollama's native API. */
static void
test_response_schema (Fixture       *fixture,
                      gconstpointer  data)
{
  const char *models[] = { "qwen2.5:7b", NULL };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(VivaChatRequest) request = viva_test_chat_request_new ("Judge it.");
  g_autoptr(GError) error = NULL;
  JsonNode *schema;

  g_assert_true (json_parser_load_from_data (parser, "{\"type\":\"object\",\"required\":[\"verdict\"]}", -1, NULL));
  schema = json_parser_get_root (parser);
  viva_chat_request_set_response_schema (request, "verdict", schema);

  for (guint native = 0; native < 2; native++)
    {
      g_autoptr(VivaTestResponse) response = viva_test_response_new_recorded (native ? "ollama-native-chat.ndjson" : "ollama-v1-content.sse", 0);
      g_autoptr(VivaChatReply) reply = NULL;
      g_autoptr(JsonObject) body = NULL;

      if (native)
        viva_test_server_serve_ollama (fixture->server, "0.6.2", models);
      viva_openai_model_set_base_url (fixture->model, fixture->base_url);
      viva_test_server_queue (fixture->server, "POST", native ? "/api/chat" : "/v1/chat/completions", response);
      reply = viva_test_model_stream (fixture, request, NULL, NULL, &error);
      g_assert_no_error (error);

      body = viva_test_model_request_body (fixture, native ? "/api/chat" : "/v1/chat/completions", 0);
      if (native)
        g_assert_true (json_node_equal (json_object_get_member (body, "format"), schema));
      else
        {
          JsonObject *format = json_object_get_object_member (body, "response_format");
          JsonObject *json_schema = json_object_get_object_member (format, "json_schema");

          g_assert_cmpstr (json_object_get_string_member (format, "type"), ==, "json_schema");
          g_assert_cmpstr (json_object_get_string_member (json_schema, "name"), ==, "verdict");
          g_assert_true (json_node_equal (json_object_get_member (json_schema, "schema"), schema));
          /* Forget the server, so the next round detects Ollama. */
          viva_openai_model_set_base_url (fixture->model, "http://127.0.0.1:9/v1");
        }
    }
}

static void
test_no_key_no_header (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autoptr(VivaTestResponse) response = viva_test_response_new_chat_stream ("Hi", NULL, NULL, NULL);
  g_autoptr(VivaChatRequest) request = viva_test_chat_request_new ("x");
  g_autoptr(VivaChatReply) reply = NULL;
  g_autoptr(GError) error = NULL;

  viva_test_server_queue (fixture->server, "POST", "/v1/chat/completions", response);
  reply = viva_test_model_stream (fixture, request, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_null (viva_test_request_get_header (viva_test_server_find_request (fixture->server, "POST", "/v1/chat/completions", 0),
                                               "Authorization"));
}

/* Ollama is found through /api/version and spoken to natively, with the
 * context length and keep_alive set. */
static void
test_ollama_native (Fixture       *fixture,
                    gconstpointer  data)
{
  const char *models[] = { "qwen2.5:7b", "llama3.2:3b", NULL };
  g_autoptr(VivaTestResponse) response = viva_test_response_new_recorded ("ollama-native-chat.ndjson", 0);
  g_autoptr(VivaChatRequest) request = viva_test_chat_request_new ("Hello");
  g_autoptr(VivaChatReply) reply = NULL;
  g_autoptr(JsonObject) body = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *options;

  viva_test_server_serve_ollama (fixture->server, "0.6.2", models);
  viva_test_server_queue (fixture->server, "POST", "/api/chat", response);
  viva_openai_model_set_context_length (fixture->model, 8192);
  viva_openai_model_set_temperature (fixture->model, 0.3);

  reply = viva_test_model_stream (fixture, request, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (viva_chat_reply_get_content (reply), ==, "Your base case is missing — what stops it?");
  g_assert_cmpint (viva_openai_model_get_server_kind (fixture->model), ==, VIVA_SERVER_KIND_OLLAMA);
  g_assert_cmpstr (viva_openai_model_get_server_version (fixture->model), ==, "0.6.2");

  body = viva_test_model_request_body (fixture, "/api/chat", 0);
  options = json_object_get_object_member (body, "options");
  g_assert_cmpint (json_object_get_int_member (options, "num_ctx"), ==, 8192);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (options, "temperature"), 0.3, 1e-9);
  g_assert_cmpstr (json_object_get_string_member (body, "keep_alive"), ==, "30m");
  g_assert_true (json_object_get_boolean_member (body, "stream"));
  g_assert_false (json_object_has_member (body, "stream_options"));
  g_assert_cmpuint (viva_test_server_count_requests (fixture->server, "POST", "/v1/chat/completions"), ==, 0);
}

static void
test_ollama_native_tool_history (Fixture       *fixture,
                                 gconstpointer  data)
{
  const char *models[] = { "qwen2.5:7b", NULL };
  g_autoptr(VivaTestResponse) response = viva_test_response_new_recorded ("ollama-native-chat.ndjson", 0);
  g_autoptr(VivaChatRequest) request = viva_test_chat_request_new ("Hello");
  g_autoptr(GPtrArray) calls = g_ptr_array_new_with_free_func ((GDestroyNotify)viva_tool_call_free);
  g_autoptr(VivaChatMessage) assistant = NULL;
  g_autoptr(VivaChatMessage) tool_message = NULL;
  g_autoptr(VivaChatReply) reply = NULL;
  g_autoptr(JsonObject) body = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *message;
  JsonObject *function;

  g_ptr_array_add (calls, viva_tool_call_new ("call_1", "runPython", "{\"code\":\"print(1)\"}"));
  assistant = viva_chat_message_new_assistant (NULL, calls);
  tool_message = viva_chat_message_new_tool ("call_1", "runPython", "1\n");
  viva_chat_request_add_message (request, assistant);
  viva_chat_request_add_message (request, tool_message);

  viva_test_server_serve_ollama (fixture->server, "0.6.2", models);
  viva_test_server_queue (fixture->server, "POST", "/api/chat", response);
  reply = viva_test_model_stream (fixture, request, NULL, NULL, &error);
  g_assert_no_error (error);

  body = viva_test_model_request_body (fixture, "/api/chat", 0);
  message = json_array_get_object_element (json_object_get_array_member (body, "messages"), 2);
  g_assert_cmpstr (json_object_get_string_member (message, "content"), ==, "");
  function = json_object_get_object_member (json_array_get_object_element (json_object_get_array_member (message, "tool_calls"), 0),
                                            "function");
  /* Ollama wants the arguments as an object. */
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (function, "arguments"), "code"), ==, "print(1)");
  message = json_array_get_object_element (json_object_get_array_member (body, "messages"), 3);
  g_assert_cmpstr (json_object_get_string_member (message, "tool_name"), ==, "runPython");
}

static void
test_ollama_openai_mode (Fixture       *fixture,
                         gconstpointer  data)
{
  const char *models[] = { "qwen2.5:7b", NULL };
  g_autoptr(VivaTestResponse) response = viva_test_response_new_recorded ("ollama-v1-content.sse", 0);
  g_autoptr(VivaChatRequest) request = viva_test_chat_request_new ("Hello");
  g_autoptr(VivaChatReply) reply = NULL;
  g_autoptr(GError) error = NULL;

  viva_test_server_serve_ollama (fixture->server, "0.6.2", models);
  viva_test_server_queue (fixture->server, "POST", "/v1/chat/completions", response);
  viva_openai_model_set_ollama_native (fixture->model, FALSE);

  reply = viva_test_model_stream (fixture, request, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (viva_chat_reply_get_content (reply), ==, "Recursion is a function calling itself.");
  g_assert_cmpuint (viva_test_server_count_requests (fixture->server, "POST", "/api/chat"), ==, 0);
}

/* A scripted two-turn conversation: the second request carries the first
 * reply's tool call and the tool's answer. */
static void
test_two_turns (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(VivaTestResponse) first = viva_test_response_new_chat_stream (NULL, "Run it.", "runPython", "{\"code\": \"print(6*7)\"}");
  g_autoptr(VivaTestResponse) second = viva_test_response_new_chat_stream ("It printed 42.", NULL, NULL, NULL);
  g_autoptr(VivaChatRequest) request = viva_test_chat_request_new ("Check my code.");
  g_autoptr(VivaToolDefinition) tool = viva_tool_definition_new ("runPython", "Runs code.", NULL);
  g_autoptr(VivaChatReply) reply = NULL;
  g_autoptr(VivaChatReply) final = NULL;
  g_autoptr(VivaChatMessage) assistant = NULL;
  g_autoptr(VivaChatMessage) result = NULL;
  g_autoptr(JsonObject) body = NULL;
  g_autoptr(GError) error = NULL;
  VivaToolCall *call;
  JsonArray *messages;

  viva_chat_request_add_tool (request, tool);
  viva_test_server_queue (fixture->server, "POST", "/v1/chat/completions", first);
  viva_test_server_queue (fixture->server, "POST", "/v1/chat/completions", second);

  reply = viva_test_model_stream (fixture, request, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (viva_chat_reply_get_tool_calls (reply)->len, ==, 1);
  call = g_ptr_array_index (viva_chat_reply_get_tool_calls (reply), 0);
  g_assert_cmpstr (viva_tool_call_get_arguments (call), ==, "{\"code\": \"print(6*7)\"}");

  assistant = viva_chat_reply_to_message (reply);
  result = viva_chat_message_new_tool (viva_tool_call_get_id (call), "runPython", "42\n");
  viva_chat_request_add_message (request, assistant);
  viva_chat_request_add_message (request, result);
  final = viva_test_model_stream (fixture, request, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (viva_chat_reply_get_content (final), ==, "It printed 42.");

  body = viva_test_model_request_body (fixture, "/v1/chat/completions", 1);
  messages = json_object_get_array_member (body, "messages");
  g_assert_cmpuint (json_array_get_length (messages), ==, 4);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (messages, 3), "tool_call_id"),
                   ==, "chatcmpl-tool-1");
}


static void
test_properties (void)
{
  g_autoptr(VivaOpenAIModel) model = viva_openai_model_new (NULL);
  g_auto(GValue) value = G_VALUE_INIT;

  g_assert_cmpstr (viva_openai_model_get_base_url (model), ==, "http://localhost:11434/v1");
  g_assert_nonnull (viva_openai_model_get_session (model));
  g_assert_nonnull (viva_openai_model_get_secrets (model));

  g_value_init (&value, G_TYPE_STRING);
  g_value_set_string (&value, "http://example.invalid/v1");
  viva_test_assert_notify (model, "base-url", &value);
  g_value_set_string (&value, "llama3.2:3b");
  viva_test_assert_notify (model, "model", &value);
  g_value_unset (&value);

  g_value_init (&value, G_TYPE_DOUBLE);
  g_value_set_double (&value, 0.4);
  viva_test_assert_notify (model, "temperature", &value);
  g_value_unset (&value);

  g_value_init (&value, G_TYPE_UINT);
  g_value_set_uint (&value, 1234);
  viva_test_assert_notify (model, "first-byte-timeout", &value);
  viva_test_assert_notify (model, "idle-timeout", &value);
  viva_test_assert_notify (model, "context-length", &value);
  viva_test_assert_notify (model, "retry-delay", &value);
  g_value_set_uint (&value, 5);
  viva_test_assert_notify (model, "max-attempts", &value);
  g_value_unset (&value);

  g_value_init (&value, G_TYPE_BOOLEAN);
  g_value_set_boolean (&value, FALSE);
  viva_test_assert_notify (model, "ollama-native", &value);
}

static void
test_settings (void)
{
  g_autoptr(VivaSettings) settings = viva_settings_new ();
  g_autoptr(VivaOpenAIModel) model = NULL;

  if (!viva_settings_has_schema (settings))
    {
      g_test_skip ("the GSettings schema is not compiled in this build");
      return;
    }

  model = viva_exam_model_new_for_settings (settings);
  g_assert_cmpstr (viva_openai_model_get_base_url (model), ==, viva_settings_get_base_url (settings));
  g_assert_cmpuint (viva_openai_model_get_idle_timeout (model), ==, viva_settings_get_idle_timeout (settings) * 1000);
  g_assert_cmpuint (viva_openai_model_get_first_byte_timeout (model), ==, viva_settings_get_first_byte_timeout (settings) * 1000);
  g_assert_cmpuint (viva_openai_model_get_context_length (model), ==, viva_settings_get_context_length (settings));

  viva_settings_set_base_url (settings, "http://127.0.0.1:8000/v1");
  viva_settings_set_model (settings, "m");
  g_assert_cmpstr (viva_openai_model_get_base_url (model), ==, "http://127.0.0.1:8000/v1");
  g_assert_cmpstr (viva_openai_model_get_model (model), ==, "m");
}

static void
test_secrets (void)
{
  g_autoptr(VivaSecrets) secrets = viva_secrets_new_in_memory ();
  g_autoptr(GError) error = NULL;
  const char *steps[][2] = {
    { "http://h/v1/", "k1" },   /* a trailing slash does not matter */
    { "http://h/v1", NULL },    /* NULL removes */
  };

  g_assert_true (viva_secrets_get_in_memory (secrets));

  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    {
      g_autoptr(GAsyncResult) stored = NULL;
      g_autoptr(GAsyncResult) looked = NULL;
      g_autofree char *key = NULL;

      viva_secrets_store_async (secrets, steps[i][0], steps[i][1], NULL, viva_test_store_result, &stored);
      viva_test_run_until_result (&stored);
      g_assert_true (viva_secrets_store_finish (secrets, stored, &error));
      g_assert_no_error (error);

      viva_secrets_lookup_async (secrets, "http://h/v1", NULL, viva_test_store_result, &looked);
      viva_test_run_until_result (&looked);
      key = viva_secrets_lookup_finish (secrets, looked, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (key, ==, steps[i][1]);
    }

  g_assert_true (viva_secrets_get_in_memory (viva_secrets_get_default ()));
}

static void
test_create_destroy (void)
{
  VivaSecrets *secrets = viva_secrets_new_in_memory ();
  VivaOpenAIModel *model = g_object_new (VIVA_TYPE_OPENAI_MODEL, "secrets", secrets, NULL);

  g_assert_true (VIVA_IS_CHAT_MODEL (model));
  g_assert_true (viva_openai_model_get_secrets (model) == secrets);
  g_assert_finalize_object (model);
  g_assert_finalize_object (secrets);
}

int
main (int   argc,
      char *argv[])
{
  g_setenv ("VIVA_SECRETS", "memory", TRUE);
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) g_test_add ("/viva/model/openai-model/" path, Fixture, NULL, viva_test_model_setup, func, viva_test_model_teardown)
  g_test_add_func ("/viva/model/openai-model/create-destroy", test_create_destroy);
  g_test_add_func ("/viva/model/openai-model/properties", test_properties);
  g_test_add_func ("/viva/model/openai-model/settings", test_settings);
  g_test_add_func ("/viva/model/openai-model/secrets", test_secrets);

  for (guint i = 0; i < G_N_ELEMENTS (fixture_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/viva/model/openai-model/http/%s%s", fixture_cases[i].file,
                                               fixture_cases[i].tools != NULL ? "+tools" : "");

      g_test_add (path, Fixture, &fixture_cases[i], viva_test_model_setup, test_fixture_over_http, viva_test_model_teardown);
    }

  ADD ("request-body", test_request_body);
  ADD ("no-key-no-header", test_no_key_no_header);
  ADD ("response-schema", test_response_schema);
  ADD ("ollama-native", test_ollama_native);
  ADD ("ollama-native-tool-history", test_ollama_native_tool_history);
  ADD ("ollama-openai-mode", test_ollama_openai_mode);
  ADD ("two-turns", test_two_turns);
#undef ADD

  return g_test_run ();
}

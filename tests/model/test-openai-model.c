/* test-openai-model.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

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

static void
test_not_running (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autofree char *url = viva_test_get_unused_url ();
  g_autoptr(VivaChatRequest) request = viva_test_chat_request_new ("x");
  g_autoptr(VivaChatReply) reply = NULL;
  g_autoptr(GError) error = NULL;

  viva_openai_model_set_base_url (fixture->model, url);
  reply = viva_test_model_stream (fixture, request, NULL, NULL, &error);
  g_assert_null (reply);
  g_assert_error (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_NOT_RUNNING);
  g_assert_nonnull (strstr (error->message, url));
  g_assert_cmpstr (viva_openai_model_get_error_message (fixture->model), ==, error->message);
}

/* Nothing listens on Ollama's port here: the message says how to start it. */
static void
test_ollama_not_running (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autoptr(GSocketClient) client = g_socket_client_new ();
  g_autoptr(GSocketConnection) connection = g_socket_client_connect_to_host (client, "127.0.0.1:11434", 0, NULL, NULL);
  g_autoptr(VivaChatRequest) request = viva_test_chat_request_new ("x");
  g_autoptr(VivaChatReply) reply = NULL;
  g_autoptr(GError) error = NULL;

  if (connection != NULL)
    {
      g_test_skip ("something listens on 127.0.0.1:11434");
      return;
    }

  viva_openai_model_set_base_url (fixture->model, "http://127.0.0.1:11434/v1");
  reply = viva_test_model_stream (fixture, request, NULL, NULL, &error);
  g_assert_error (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_NOT_RUNNING);
  g_assert_cmpstr (error->message, ==, "Ollama is not running at http://127.0.0.1:11434 — start it with “ollama serve”.");
}

static void
expect_status_error (Fixture    *fixture,
                     guint       status,
                     const char *fixture_file,
                     int         code,
                     const char *message_part,
                     guint       expected_requests)
{
  g_autofree char *path = viva_test_fixture_path ("model", fixture_file);
  g_autoptr(VivaTestResponse) response = viva_test_response_new_from_file (status, "application/json", path);
  g_autoptr(VivaChatRequest) request = viva_test_chat_request_new ("x");
  g_autoptr(VivaChatReply) reply = NULL;
  g_autoptr(GError) error = NULL;

  viva_test_server_set_default (fixture->server, "POST", "/v1/chat/completions", response);
  viva_test_server_set_default (fixture->server, "POST", "/api/chat", response);
  reply = viva_test_model_stream (fixture, request, NULL, NULL, &error);
  g_assert_null (reply);
  g_assert_error (error, VIVA_MODEL_ERROR, code);
  if (message_part != NULL)
    g_assert_nonnull (strstr (error->message, message_part));
  g_assert_cmpuint (viva_test_server_count_requests (fixture->server, "POST", "/v1/chat/completions") +
                    viva_test_server_count_requests (fixture->server, "POST", "/api/chat"),
                    ==, expected_requests);
}

static void
test_model_missing_ollama_native (Fixture       *fixture,
                                  gconstpointer  data)
{
  const char *models[] = { "llama3.2:3b", NULL };

  viva_test_server_serve_ollama (fixture->server, "0.6.2", models);
  expect_status_error (fixture, 404, "error-ollama-model-missing.json", VIVA_MODEL_ERROR_MODEL_NOT_FOUND,
                       "Ollama has no model `qwen2.5:7b`. Run `ollama pull qwen2.5:7b` on the server, or choose another model in Preferences.", 1);
}

static void
test_model_missing_ollama_v1 (Fixture       *fixture,
                              gconstpointer  data)
{
  const char *models[] = { "llama3.2:3b", NULL };

  viva_test_server_serve_ollama (fixture->server, "0.5.7", models);
  viva_openai_model_set_ollama_native (fixture->model, FALSE);
  expect_status_error (fixture, 404, "error-ollama-v1-model-missing.json", VIVA_MODEL_ERROR_MODEL_NOT_FOUND,
                       "ollama pull qwen2.5:7b", 1);
}

static void
test_model_missing_vllm (Fixture       *fixture,
                         gconstpointer  data)
{
  expect_status_error (fixture, 404, "error-vllm-model-missing.json", VIVA_MODEL_ERROR_MODEL_NOT_FOUND,
                       "no model called “qwen2.5:7b”", 1);
}

static void
test_unauthorized (Fixture       *fixture,
                   gconstpointer  data)
{
  expect_status_error (fixture, 401, "error-openai-unauthorized.json", VIVA_MODEL_ERROR_UNAUTHORIZED,
                       "The server rejected the API key", 1);
}

static void
test_server_error_retried (Fixture       *fixture,
                           gconstpointer  data)
{
  /* Without waiting for a busy server, its retries are attempts. */
  viva_openai_model_set_max_busy_wait (fixture->model, 0);
  expect_status_error (fixture, 503, "error-llamacpp-loading.json", VIVA_MODEL_ERROR_BUSY, "Loading model", 3);
}

static void
test_rate_limited_retried (Fixture       *fixture,
                           gconstpointer  data)
{
  viva_openai_model_set_max_busy_wait (fixture->model, 0);
  expect_status_error (fixture, 429, "error-openai-rate-limit.json", VIVA_MODEL_ERROR_RATE_LIMITED, "try again", 3);
}

/* A 429 with Retry-After waits that long, then succeeds. */
static void
test_retry_after (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autofree char *path = viva_test_fixture_path ("model", "error-openai-rate-limit.json");
  g_autoptr(VivaTestResponse) busy = viva_test_response_new_from_file (429, "application/json", path);
  g_autoptr(VivaTestResponse) ok = viva_test_response_new_chat_stream ("Fine.", NULL, NULL, NULL);
  g_autoptr(VivaChatRequest) request = viva_test_chat_request_new ("x");
  g_autoptr(VivaChatReply) reply = NULL;
  g_autoptr(GError) error = NULL;
  gint64 start = g_get_monotonic_time ();

  viva_test_response_add_header (busy, "Retry-After", "1");
  viva_test_server_queue (fixture->server, "POST", "/v1/chat/completions", busy);
  viva_test_server_queue (fixture->server, "POST", "/v1/chat/completions", ok);
  reply = viva_test_model_stream (fixture, request, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (viva_chat_reply_get_content (reply), ==, "Fine.");
  g_assert_cmpint (g_get_monotonic_time () - start, >=, G_USEC_PER_SEC);
  g_assert_cmpuint (viva_test_server_count_requests (fixture->server, "POST", "/v1/chat/completions"), ==, 2);
  g_assert_null (viva_openai_model_get_error_message (fixture->model));
}

static void
test_transient_then_ok (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autoptr(VivaTestResponse) failing = viva_test_response_new_json (502, "<html>Bad gateway</html>");
  g_autoptr(VivaTestResponse) dropped = viva_test_response_new_chat_stream ("Lost", NULL, NULL, NULL);
  g_autoptr(VivaTestResponse) ok = viva_test_response_new_chat_stream ("Third time.", NULL, NULL, NULL);
  g_autoptr(VivaChatRequest) request = viva_test_chat_request_new ("x");
  g_autoptr(VivaChatReply) reply = NULL;
  g_autoptr(GError) error = NULL;
  VivaTestDeltas collected = { 0 };

  /* Dropped after the role chunk, before any content: safe to retry. */
  viva_test_response_set_drop_after (dropped, 100);
  viva_test_server_queue (fixture->server, "POST", "/v1/chat/completions", failing);
  viva_test_server_queue (fixture->server, "POST", "/v1/chat/completions", dropped);
  viva_test_server_queue (fixture->server, "POST", "/v1/chat/completions", ok);
  reply = viva_test_model_stream (fixture, request, NULL, &collected, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (viva_chat_reply_get_content (reply), ==, "Third time.");
  g_assert_cmpstr (collected.content->str, ==, "Third time.");
  g_assert_cmpuint (viva_test_server_count_requests (fixture->server, "POST", "/v1/chat/completions"), ==, 3);
  viva_test_deltas_clear (&collected);
}

/* A connection that breaks before any answer is retried, then reported. */
static void
test_dropped_retried (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(VivaTestResponse) dropped = viva_test_response_new_chat_stream ("Never.", NULL, NULL, NULL);
  g_autoptr(VivaChatRequest) request = viva_test_chat_request_new ("x");
  g_autoptr(VivaChatReply) reply = NULL;
  g_autoptr(GError) error = NULL;

  viva_test_response_set_drop_after (dropped, 0);
  viva_test_server_set_default (fixture->server, "POST", "/v1/chat/completions", dropped);
  reply = viva_test_model_stream (fixture, request, NULL, NULL, &error);
  g_assert_null (reply);
  g_assert_error (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_CONNECTION);
  g_assert_cmpuint (viva_test_server_count_requests (fixture->server, "POST", "/v1/chat/completions"), ==, 3);
}

/* 400 naming temperature: drop it, retry once, remember for the model. */
static void
test_temperature_fallback (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autofree char *path = viva_test_fixture_path ("model", "error-openai-temperature.json");
  g_autoptr(VivaTestResponse) rejected = viva_test_response_new_from_file (400, "application/json", path);
  g_autoptr(VivaTestResponse) ok = viva_test_response_new_chat_stream ("Fine.", NULL, NULL, NULL);
  g_autoptr(VivaChatRequest) request = viva_test_chat_request_new ("x");
  g_autoptr(GError) error = NULL;

  viva_chat_request_set_temperature (request, 0.7);
  viva_openai_model_set_max_attempts (fixture->model, 1);
  viva_test_server_queue (fixture->server, "POST", "/v1/chat/completions", rejected);
  viva_test_server_set_default (fixture->server, "POST", "/v1/chat/completions", ok);

  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(VivaChatReply) reply = viva_test_model_stream (fixture, request, NULL, NULL, &error);

      g_assert_no_error (error);
      g_assert_cmpstr (viva_chat_reply_get_content (reply), ==, "Fine.");
    }

  g_assert_cmpuint (viva_test_server_count_requests (fixture->server, "POST", "/v1/chat/completions"), ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr(JsonObject) body = viva_test_model_request_body (fixture, "/v1/chat/completions", i);

      g_assert_cmpint (json_object_has_member (body, "temperature"), ==, i == 0);
      g_assert_true (json_object_has_member (body, "stream_options"));
    }
}

static void
test_stream_options_fallback (Fixture       *fixture,
                              gconstpointer  data)
{
  g_autofree char *path = viva_test_fixture_path ("model", "error-vllm-stream-options.json");
  g_autoptr(VivaTestResponse) rejected = viva_test_response_new_from_file (400, "application/json", path);
  g_autoptr(VivaTestResponse) ok = viva_test_response_new_chat_stream ("Fine.", NULL, NULL, NULL);
  g_autoptr(VivaChatRequest) request = viva_test_chat_request_new ("x");
  g_autoptr(VivaChatReply) reply = NULL;
  g_autoptr(JsonObject) first = NULL;
  g_autoptr(JsonObject) second = NULL;
  g_autoptr(GError) error = NULL;

  viva_test_server_queue (fixture->server, "POST", "/v1/chat/completions", rejected);
  viva_test_server_queue (fixture->server, "POST", "/v1/chat/completions", ok);
  reply = viva_test_model_stream (fixture, request, NULL, NULL, &error);
  g_assert_no_error (error);

  first = viva_test_model_request_body (fixture, "/v1/chat/completions", 0);
  second = viva_test_model_request_body (fixture, "/v1/chat/completions", 1);
  g_assert_true (json_object_has_member (first, "stream_options"));
  g_assert_false (json_object_has_member (second, "stream_options"));
}

/* A 400 about anything else is reported, not retried. */
static void
test_bad_request (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(VivaTestResponse) rejected =
    viva_test_response_new_json (400, "{\"error\":{\"message\":\"messages: field required\",\"code\":null}}");
  g_autoptr(VivaChatRequest) request = viva_test_chat_request_new ("x");
  g_autoptr(VivaChatReply) reply = NULL;
  g_autoptr(GError) error = NULL;

  viva_test_server_set_default (fixture->server, "POST", "/v1/chat/completions", rejected);
  reply = viva_test_model_stream (fixture, request, NULL, NULL, &error);
  g_assert_error (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_BAD_REQUEST);
  g_assert_nonnull (strstr (error->message, "messages: field required"));
  g_assert_cmpuint (viva_test_server_get_n_requests (fixture->server), ==, 2);  /* /api/version, then POST */
}

static void
test_first_byte_timeout (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autoptr(VivaTestResponse) slow = viva_test_response_new_chat_stream ("Late.", NULL, NULL, NULL);
  g_autoptr(VivaTestResponse) ok = viva_test_response_new_chat_stream ("On time.", NULL, NULL, NULL);
  g_autoptr(VivaChatRequest) request = viva_test_chat_request_new ("x");
  g_autoptr(VivaChatReply) reply = NULL;
  g_autoptr(GError) error = NULL;

  viva_test_response_set_header_delay (slow, 5000);
  viva_openai_model_set_first_byte_timeout (fixture->model, 500);
  viva_test_server_queue (fixture->server, "POST", "/v1/chat/completions", slow);
  viva_test_server_queue (fixture->server, "POST", "/v1/chat/completions", ok);
  reply = viva_test_model_stream (fixture, request, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (viva_chat_reply_get_content (reply), ==, "On time.");
}

static void
test_first_byte_timeout_fails (Fixture       *fixture,
                               gconstpointer  data)
{
  g_autoptr(VivaTestResponse) slow = viva_test_response_new_chat_stream ("Late.", NULL, NULL, NULL);
  g_autoptr(VivaChatRequest) request = viva_test_chat_request_new ("x");
  g_autoptr(VivaChatReply) reply = NULL;
  g_autoptr(GError) error = NULL;

  /* Headers at once, then no byte of the body. */
  viva_test_response_set_stall_after (slow, 0);
  viva_openai_model_set_first_byte_timeout (fixture->model, 150);
  viva_openai_model_set_max_attempts (fixture->model, 2);
  viva_openai_model_set_max_busy_wait (fixture->model, 0);
  viva_test_server_set_default (fixture->server, "POST", "/v1/chat/completions", slow);
  reply = viva_test_model_stream (fixture, request, NULL, NULL, &error);
  g_assert_error (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_TIMEOUT);
  g_assert_nonnull (strstr (error->message, "did not start answering"));
  g_assert_cmpuint (viva_test_server_count_requests (fixture->server, "POST", "/v1/chat/completions"), ==, 2);
}

/* Keep-alive comments are bytes: they hold off the idle timeout. */
static void
test_keep_alive_comments (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autoptr(VivaTestResponse) response = viva_test_response_new_recorded ("deepseek-reasoner.sse", 16);
  g_autoptr(VivaChatRequest) request = viva_test_chat_request_new ("x");
  g_autoptr(VivaChatReply) reply = NULL;
  g_autoptr(GError) error = NULL;

  viva_test_response_set_chunk_delay (response, 5);
  viva_openai_model_set_idle_timeout (fixture->model, 2000);
  viva_test_server_queue (fixture->server, "POST", "/v1/chat/completions", response);
  reply = viva_test_model_stream (fixture, request, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (viva_chat_reply_get_content (reply), ==, "Start with n = 0.");
}

/* Stalled after content went out: what arrived is the reply, truncated. */
static void
test_idle_timeout_keeps_output (Fixture       *fixture,
                                gconstpointer  data)
{
  g_autoptr(VivaTestResponse) response = viva_test_response_new_chat_stream ("One two three four", NULL, NULL, NULL);
  g_autoptr(VivaChatRequest) request = viva_test_chat_request_new ("x");
  g_autoptr(VivaChatReply) reply = NULL;
  g_autoptr(GError) error = NULL;
  GBytes *body = viva_test_response_get_body (response);
  const char *text = g_bytes_get_data (body, NULL);
  const char *two = strstr (text, " two");

  /* Cut just after the chunk with "One". */
  viva_test_response_set_stall_after (response, strstr (two, "\n\n") == NULL ? 0 : (gsize)(two - text) - 60);
  viva_openai_model_set_idle_timeout (fixture->model, 200);
  viva_test_server_set_default (fixture->server, "POST", "/v1/chat/completions", response);
  reply = viva_test_model_stream (fixture, request, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (viva_chat_reply_get_content (reply), ==, "One");
  g_assert_true (viva_chat_reply_get_truncated (reply));
  g_assert_null (viva_chat_reply_get_finish_reason (reply));
  g_assert_cmpuint (viva_test_server_count_requests (fixture->server, "POST", "/v1/chat/completions"), ==, 1);
}

static void
test_drop_keeps_output (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autoptr(VivaTestResponse) response = viva_test_response_new_recorded ("vllm-tools.sse", 0);
  g_autoptr(VivaChatRequest) request = viva_test_chat_request_new ("x");
  g_autoptr(VivaChatReply) reply = NULL;
  g_autoptr(GError) error = NULL;
  const char *text = g_bytes_get_data (viva_test_response_get_body (response), NULL);

  viva_test_response_set_drop_after (response, strstr (text, "Running it.") - text + 80);
  viva_test_server_set_default (fixture->server, "POST", "/v1/chat/completions", response);
  reply = viva_test_model_stream (fixture, request, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (viva_chat_reply_get_content (reply), ==, "Running it.");
  g_assert_cmpstr (viva_chat_reply_get_reasoning (reply), ==, "Need to run the code.");
  g_assert_true (viva_chat_reply_get_truncated (reply));
  g_assert_cmpuint (viva_test_server_count_requests (fixture->server, "POST", "/v1/chat/completions"), ==, 1);
}

static void
test_cancel_mid_stream (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autoptr(VivaTestResponse) response = viva_test_response_new_chat_stream ("a b c d e f g", NULL, NULL, NULL);
  g_autoptr(VivaChatRequest) request = viva_test_chat_request_new ("x");
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(VivaChatReply) reply = NULL;
  g_autoptr(GError) error = NULL;
  VivaTestDeltas collected = { 0 };

  viva_test_response_set_chunk_size (response, 64);
  viva_test_response_set_chunk_delay (response, 20);
  viva_test_server_set_default (fixture->server, "POST", "/v1/chat/completions", response);
  collected.cancel_after_first = cancellable;
  reply = viva_test_model_stream (fixture, request, cancellable, &collected, &error);
  g_assert_null (reply);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpstr (collected.content->str, ==, "a");
  g_assert_null (viva_openai_model_get_error_message (fixture->model));
  viva_test_deltas_clear (&collected);
}

static gboolean
cancel_cb (gpointer data)
{
  g_cancellable_cancel (data);
  return G_SOURCE_REMOVE;
}

static void
test_cancel_during_backoff (Fixture       *fixture,
                            gconstpointer  data)
{
  g_autoptr(VivaTestResponse) failing = viva_test_response_new_json (503, "{\"error\":\"busy\"}");
  g_autoptr(VivaChatRequest) request = viva_test_chat_request_new ("x");
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(VivaChatReply) reply = NULL;
  g_autoptr(GError) error = NULL;
  gint64 start = g_get_monotonic_time ();

  viva_openai_model_set_retry_delay (fixture->model, 10000);
  viva_test_server_set_default (fixture->server, "POST", "/v1/chat/completions", failing);
  g_timeout_add (300, cancel_cb, cancellable);
  reply = viva_test_model_stream (fixture, request, cancellable, NULL, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 3 * G_USEC_PER_SEC);
  g_assert_cmpuint (viva_test_server_count_requests (fixture->server, "POST", "/v1/chat/completions"), ==, 1);
}

static void
test_not_a_stream (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(VivaTestResponse) html = viva_test_response_new_text (200, "text/html", "<html>login</html>");
  g_autoptr(VivaChatRequest) request = viva_test_chat_request_new ("x");
  g_autoptr(VivaChatReply) reply = NULL;
  g_autoptr(GError) error = NULL;

  viva_test_server_set_default (fixture->server, "POST", "/v1/chat/completions", html);
  reply = viva_test_model_stream (fixture, request, NULL, NULL, &error);
  g_assert_error (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_INVALID_RESPONSE);
}

/* A server that ignores "stream" answers one JSON object. */
static void
test_whole_json_reply (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autoptr(VivaTestResponse) whole = viva_test_response_new_json (200,
    "{\"id\":\"x\",\"object\":\"chat.completion\",\"model\":\"m\",\"choices\":[{\"index\":0,\"message\":"
    "{\"role\":\"assistant\",\"content\":\"Whole.\"},\"finish_reason\":\"stop\"}],"
    "\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":2,\"total_tokens\":11}}");
  g_autoptr(VivaChatRequest) request = viva_test_chat_request_new ("x");
  g_autoptr(VivaChatReply) reply = NULL;
  g_autoptr(GError) error = NULL;

  viva_test_server_set_default (fixture->server, "POST", "/v1/chat/completions", whole);
  reply = viva_test_model_stream (fixture, request, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (viva_chat_reply_get_content (reply), ==, "Whole.");
  g_assert_cmpstr (viva_chat_reply_get_finish_reason (reply), ==, "stop");
  g_assert_false (viva_chat_reply_get_truncated (reply));
}

static void
test_prompt_truncated (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autoptr(GString) long_prompt = g_string_new (NULL);
  g_autoptr(VivaTestResponse) response = viva_test_response_new_recorded ("ollama-v1-content.sse", 0);
  g_autoptr(VivaChatRequest) request = NULL;
  g_autoptr(VivaChatRequest) short_request = viva_test_chat_request_new ("Hi");
  g_autoptr(VivaChatReply) reply = NULL;
  g_autoptr(VivaChatReply) short_reply = NULL;
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < 400; i++)
    g_string_append (long_prompt, "The quick brown fox. ");
  request = viva_test_chat_request_new (long_prompt->str);

  /* The fixture reports 31 prompt tokens: far fewer than sent. */
  viva_test_server_set_default (fixture->server, "POST", "/v1/chat/completions", response);
  reply = viva_test_model_stream (fixture, request, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (viva_chat_reply_get_prompt_truncated (reply));

  short_reply = viva_test_model_stream (fixture, short_request, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (viva_chat_reply_get_prompt_truncated (short_reply));
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
test_first_model (Fixture       *fixture,
                  gconstpointer  data)
{
  const char *models[] = { "Qwen/Qwen2.5-7B-Instruct", "other", NULL };
  g_autoptr(VivaTestResponse) response = viva_test_response_new_chat_stream ("Hi", NULL, NULL, NULL);
  g_autoptr(VivaChatRequest) request = viva_test_chat_request_new ("x");
  g_autoptr(VivaChatReply) reply = NULL;
  g_autoptr(JsonObject) body = NULL;
  g_autoptr(GError) error = NULL;

  viva_test_server_serve_models (fixture->server, models);
  viva_test_server_set_default (fixture->server, "POST", "/v1/chat/completions", response);
  viva_openai_model_set_model (fixture->model, NULL);
  reply = viva_test_model_stream (fixture, request, NULL, NULL, &error);
  g_assert_no_error (error);
  body = viva_test_model_request_body (fixture, "/v1/chat/completions", 0);
  g_assert_cmpstr (json_object_get_string_member (body, "model"), ==, "Qwen/Qwen2.5-7B-Instruct");
}

static void
test_no_model_at_all (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autofree char *path = viva_test_fixture_path ("model", "ollama-v1-models-empty.json");
  g_autoptr(VivaTestResponse) empty = viva_test_response_new_from_file (200, "application/json", path);
  g_autoptr(VivaChatRequest) request = viva_test_chat_request_new ("x");
  g_autoptr(VivaChatReply) reply = NULL;
  g_autoptr(GError) error = NULL;

  viva_test_server_set_default (fixture->server, "GET", "/v1/models", empty);
  viva_openai_model_set_model (fixture->model, "");
  reply = viva_test_model_stream (fixture, request, NULL, NULL, &error);
  g_assert_error (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_NO_MODEL);
}

/* No model configured and /models failing once: retried like a chat. */
static void
test_models_retried (Fixture       *fixture,
                     gconstpointer  data)
{
  const char *models[] = { "first", NULL };
  g_autoptr(VivaTestResponse) busy = viva_test_response_new_json (503, "{\"error\":\"starting\"}");
  g_autoptr(VivaTestResponse) response = viva_test_response_new_chat_stream ("Hi", NULL, NULL, NULL);
  g_autoptr(VivaChatRequest) request = viva_test_chat_request_new ("x");
  g_autoptr(VivaChatReply) reply = NULL;
  g_autoptr(JsonObject) body = NULL;
  g_autoptr(GError) error = NULL;

  viva_test_server_queue (fixture->server, "GET", "/v1/models", busy);
  viva_test_server_serve_models (fixture->server, models);
  viva_test_server_set_default (fixture->server, "POST", "/v1/chat/completions", response);
  viva_openai_model_set_model (fixture->model, NULL);
  reply = viva_test_model_stream (fixture, request, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (viva_test_server_count_requests (fixture->server, "GET", "/v1/models"), ==, 2);
  body = viva_test_model_request_body (fixture, "/v1/chat/completions", 0);
  g_assert_cmpstr (json_object_get_string_member (body, "model"), ==, "first");
}

/* A server that takes the connection and never answers /api/version does
 * not hold the stream: detection gives up, the chat goes ahead. */
static void
test_detect_timeout (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(VivaTestResponse) silent = viva_test_response_new_json (200, "{\"version\":\"0.6.2\"}");
  g_autoptr(VivaTestResponse) response = viva_test_response_new_chat_stream ("Hi", NULL, NULL, NULL);
  g_autoptr(VivaChatRequest) request = viva_test_chat_request_new ("x");
  g_autoptr(VivaChatReply) reply = NULL;
  g_autoptr(GError) error = NULL;
  gint64 start = g_get_monotonic_time ();

  viva_test_response_set_header_delay (silent, 10000);
  viva_test_server_set_default (fixture->server, "GET", "/api/version", silent);
  viva_test_server_set_default (fixture->server, "POST", "/v1/chat/completions", response);
  viva_openai_model_set_first_byte_timeout (fixture->model, 800);
  reply = viva_test_model_stream (fixture, request, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (viva_chat_reply_get_content (reply), ==, "Hi");
  g_assert_cmpint (g_get_monotonic_time () - start, <, 6 * G_USEC_PER_SEC);
  g_assert_cmpint (viva_openai_model_get_server_kind (fixture->model), ==, VIVA_SERVER_KIND_UNKNOWN);
}

static GStrv
list_models (Fixture  *fixture,
             GError  **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  viva_openai_model_list_models_async (fixture->model, NULL, viva_test_store_result, &result);
  viva_test_run_until_result (&result);
  return viva_openai_model_list_models_finish (fixture->model, result, error);
}

static gboolean
check_health (Fixture  *fixture,
              GError  **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  viva_openai_model_check_health_async (fixture->model, NULL, viva_test_store_result, &result);
  viva_test_run_until_result (&result);
  return viva_openai_model_check_health_finish (fixture->model, result, error);
}

static void
test_discovery (Fixture       *fixture,
                gconstpointer  data)
{
  const char *models[] = { "a", "b", NULL };
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) names = NULL;

  viva_test_server_serve_models (fixture->server, models);
  names = list_models (fixture, &error);
  g_assert_no_error (error);
  g_assert_cmpstrv (names, models);
}

/* /v1/models missing: Ollama's /api/tags answers. */
/* Hosted APIs want the key for /models too. */
static void
test_discovery_sends_key (Fixture       *fixture,
                          gconstpointer  data)
{
  const char *models[] = { "gpt-4.1", NULL };
  g_autoptr(GAsyncResult) stored = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) names = NULL;

  viva_secrets_store_async (fixture->secrets, fixture->base_url, "sk-list", NULL, viva_test_store_result, &stored);
  viva_test_run_until_result (&stored);
  g_assert_true (viva_secrets_store_finish (fixture->secrets, stored, NULL));

  viva_test_server_serve_models (fixture->server, models);
  names = list_models (fixture, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (viva_test_request_get_header (viva_test_server_find_request (fixture->server, "GET", "/v1/models", 0),
                                                 "Authorization"), ==, "Bearer sk-list");
}

static void
test_discovery_tags_fallback (Fixture       *fixture,
                              gconstpointer  data)
{
  const char *models[] = { "qwen2.5:7b", NULL };
  g_autoptr(VivaTestResponse) tags = viva_test_response_new_json (200,
    "{\"models\":[{\"name\":\"qwen2.5:7b\",\"model\":\"qwen2.5:7b\",\"modified_at\":\"2025-01-01T00:00:00Z\","
    "\"size\":4683087332,\"digest\":\"845dbda0ea48\",\"details\":{\"format\":\"gguf\",\"family\":\"qwen2\","
    "\"parameter_size\":\"7.6B\",\"quantization_level\":\"Q4_K_M\"}}]}");
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) names = NULL;

  viva_test_server_set_default (fixture->server, "GET", "/api/tags", tags);
  names = list_models (fixture, &error);
  g_assert_no_error (error);
  g_assert_cmpstrv (names, models);
  g_assert_cmpint (viva_openai_model_get_server_kind (fixture->model), ==, VIVA_SERVER_KIND_OLLAMA);
}

static void
test_discovery_empty (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) names = NULL;

  viva_test_server_serve_models (fixture->server, NULL);
  names = list_models (fixture, &error);
  g_assert_no_error (error);
  g_assert_nonnull (names);
  g_assert_null (names[0]);
}

static void
test_discovery_failure (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) names = list_models (fixture, &error);

  g_assert_null (names);
  g_assert_error (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_INVALID_RESPONSE);
}

static void
test_health (Fixture       *fixture,
             gconstpointer  data)
{
  const char *other[] = { "llama3.2:3b", NULL };
  const char *with_latest[] = { "llama3.2:3b", "qwen2.5:7b:latest", NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *unused = NULL;

  viva_test_server_serve_ollama (fixture->server, "0.6.2", other);
  g_assert_false (check_health (fixture, &error));
  g_assert_error (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_MODEL_NOT_FOUND);
  g_assert_cmpstr (viva_openai_model_get_error_message (fixture->model), ==, error->message);
  g_clear_error (&error);

  viva_test_server_serve_ollama (fixture->server, "0.6.2", with_latest);
  viva_openai_model_set_model (fixture->model, "qwen2.5:7b");
  g_assert_true (check_health (fixture, &error));
  g_assert_no_error (error);
  g_assert_null (viva_openai_model_get_error_message (fixture->model));

  viva_test_server_serve_models (fixture->server, NULL);
  g_assert_false (check_health (fixture, &error));
  g_assert_error (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_NO_MODEL);
  g_clear_error (&error);

  unused = viva_test_get_unused_url ();
  viva_openai_model_set_base_url (fixture->model, unused);
  g_assert_false (check_health (fixture, &error));
  g_assert_error (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_NOT_RUNNING);
}

static void
test_detect (Fixture       *fixture,
             gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GAsyncResult) again = NULL;
  g_autoptr(GError) error = NULL;
  const char *models[] = { NULL };

  viva_openai_model_detect_server_async (fixture->model, NULL, viva_test_store_result, &result);
  viva_test_run_until_result (&result);
  g_assert_cmpint (viva_openai_model_detect_server_finish (fixture->model, result, &error), ==, VIVA_SERVER_KIND_OPENAI);
  g_assert_no_error (error);

  viva_test_server_serve_ollama (fixture->server, "0.20.6", models);
  viva_openai_model_detect_server_async (fixture->model, NULL, viva_test_store_result, &again);
  viva_test_run_until_result (&again);
  g_assert_cmpint (viva_openai_model_detect_server_finish (fixture->model, again, &error), ==, VIVA_SERVER_KIND_OLLAMA);
  g_assert_cmpstr (viva_openai_model_get_server_version (fixture->model), ==, "0.20.6");

  /* A new address forgets the old server. */
  viva_openai_model_set_base_url (fixture->model, "http://127.0.0.1:9/v1/");
  g_assert_cmpstr (viva_openai_model_get_base_url (fixture->model), ==, "http://127.0.0.1:9/v1");
  g_assert_cmpint (viva_openai_model_get_server_kind (fixture->model), ==, VIVA_SERVER_KIND_UNKNOWN);
}

static gboolean
warm_up (Fixture     *fixture,
         const char  *name,
         GError     **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  viva_openai_model_warm_up_async (fixture->model, name, NULL, viva_test_store_result, &result);
  viva_test_run_until_result (&result);
  return viva_openai_model_warm_up_finish (fixture->model, result, error);
}

/* Ollama is asked to load the model and keep it; an OpenAI-compatible
 * server is left alone; a failed load is reported, not hidden. */
static void
test_warm_up (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(VivaTestResponse) loaded = viva_test_response_new_json (200, "{\"model\":\"qwen2.5:7b\",\"done\":true}");
  g_autoptr(VivaTestResponse) missing = viva_test_response_new_json (404, "{\"error\":\"model 'nope' not found\"}");
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) body = NULL;
  const char *models[] = { "qwen2.5:7b", NULL };
  g_autofree char *url = NULL;
  const VivaTestRequest *request;
  JsonObject *object;

  g_assert_true (warm_up (fixture, "m", &error));
  g_assert_no_error (error);
  g_assert_cmpint (viva_openai_model_get_server_kind (fixture->model), ==, VIVA_SERVER_KIND_OPENAI);
  g_assert_cmpuint (viva_test_server_count_requests (fixture->server, "POST", "/api/generate"), ==, 0);

  viva_test_server_serve_ollama (fixture->server, "0.20.6", models);
  viva_test_server_set_default (fixture->server, "POST", "/api/generate", loaded);
  /* A new address forgets that the server was not Ollama. */
  url = g_strdup (viva_openai_model_get_base_url (fixture->model));
  viva_openai_model_set_base_url (fixture->model, "http://127.0.0.1:9/v1");
  viva_openai_model_set_base_url (fixture->model, url);
  g_assert_true (warm_up (fixture, "qwen2.5:7b", &error));
  g_assert_no_error (error);
  request = viva_test_server_find_request (fixture->server, "POST", "/api/generate", 0);
  g_assert_nonnull (request);
  body = viva_test_request_get_json (request);
  object = json_node_get_object (body);
  g_assert_cmpstr (json_object_get_string_member (object, "model"), ==, "qwen2.5:7b");
  g_assert_cmpstr (json_object_get_string_member (object, "keep_alive"), ==, "30m");

  viva_test_server_queue (fixture->server, "POST", "/api/generate", missing);
  g_assert_false (warm_up (fixture, "nope", &error));
  g_assert_nonnull (error);
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
  ADD ("not-running", test_not_running);
  ADD ("ollama-not-running", test_ollama_not_running);
  ADD ("model-missing-ollama-native", test_model_missing_ollama_native);
  ADD ("model-missing-ollama-v1", test_model_missing_ollama_v1);
  ADD ("model-missing-vllm", test_model_missing_vllm);
  ADD ("unauthorized", test_unauthorized);
  ADD ("server-error-retried", test_server_error_retried);
  ADD ("rate-limited-retried", test_rate_limited_retried);
  ADD ("retry-after", test_retry_after);
  ADD ("transient-then-ok", test_transient_then_ok);
  ADD ("dropped-retried", test_dropped_retried);
  ADD ("temperature-fallback", test_temperature_fallback);
  ADD ("stream-options-fallback", test_stream_options_fallback);
  ADD ("bad-request", test_bad_request);
  ADD ("first-byte-timeout", test_first_byte_timeout);
  ADD ("first-byte-timeout-fails", test_first_byte_timeout_fails);
  ADD ("keep-alive-comments", test_keep_alive_comments);
  ADD ("idle-timeout-keeps-output", test_idle_timeout_keeps_output);
  ADD ("drop-keeps-output", test_drop_keeps_output);
  ADD ("cancel-mid-stream", test_cancel_mid_stream);
  ADD ("cancel-during-backoff", test_cancel_during_backoff);
  ADD ("not-a-stream", test_not_a_stream);
  ADD ("whole-json-reply", test_whole_json_reply);
  ADD ("prompt-truncated", test_prompt_truncated);
  ADD ("two-turns", test_two_turns);
  ADD ("first-model", test_first_model);
  ADD ("no-model-at-all", test_no_model_at_all);
  ADD ("discovery", test_discovery);
  ADD ("discovery-sends-key", test_discovery_sends_key);
  ADD ("models-retried", test_models_retried);
  ADD ("detect-timeout", test_detect_timeout);
  ADD ("discovery-tags-fallback", test_discovery_tags_fallback);
  ADD ("discovery-empty", test_discovery_empty);
  ADD ("discovery-failure", test_discovery_failure);
  ADD ("health", test_health);
  ADD ("detect", test_detect);
  ADD ("warm-up", test_warm_up);
#undef ADD

  return g_test_run ();
}

/* test-openai-model-errors.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* VivaOpenAIModel when the server is not well: not running, without the
 * model, refusing the key, busy, broken off, slow, stalled, cancelled,
 * answering in a shape it should not. Each case asserts what the examiner
 * panel would show and how many requests the server saw. The wire formats
 * are in test-openai-model.c, finding models and servers in
 * test-openai-model-discovery.c. */

#include "config.h"

#include <string.h>

#include "viva-openai-model.h"
#include "viva-test-model.h"
#include "viva-test-server.h"
#include "viva-test-util.h"

typedef VivaTestModel Fixture;

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

int
main (int   argc,
      char *argv[])
{
  g_setenv ("VIVA_SECRETS", "memory", TRUE);
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) g_test_add ("/viva/model/openai-model/" path, Fixture, NULL, viva_test_model_setup, func, viva_test_model_teardown)
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
#undef ADD

  return g_test_run ();
}

/* test-cli-model.c: viva-cli chat and models against the scripted server.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "viva-test-cli.h"
#include "viva-test-server.h"
#include "viva-test-util.h"

typedef VivaTestCliRun Run;


static const char *
event_name (Run   *run,
            guint  i)
{
  return json_object_get_string_member (g_ptr_array_index (run->events, i), "event");
}

static void
queue_fixture (VivaTestServer *server,
               const char     *file)
{
  g_autofree char *path = viva_test_fixture_path ("model", file);
  g_autoptr(VivaTestResponse) response = viva_test_response_new_from_file (200, "text/event-stream", path);

  viva_test_response_set_chunk_size (response, 13);
  viva_test_server_queue (server, "POST", "/v1/chat/completions", response);
}

static void
test_chat_json (void)
{
  g_autoptr(VivaTestServer) server = viva_test_server_new ();
  g_autofree char *base_url = viva_test_server_get_base_url (server);
  const char *args[] = { "chat", "--base-url", base_url, "--model", "m", "--json", "Run my code", NULL };
  g_autoptr(GString) content = g_string_new (NULL);
  g_autoptr(GString) reasoning = g_string_new (NULL);
  JsonObject *message;
  JsonArray *calls;
  guint n_tool_calls = 0;
  Run run = { 0 };

  queue_fixture (server, "vllm-tools.sse");
  viva_test_cli_run (&run, NULL, args);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpuint (run.events->len, >, 4);

  for (guint i = 0; i + 1 < run.events->len; i++)
    {
      JsonObject *event = g_ptr_array_index (run.events, i);
      const char *name = event_name (&run, i);

      if (g_str_equal (name, "content"))
        g_string_append (content, json_object_get_string_member (event, "text"));
      else if (g_str_equal (name, "reasoning"))
        g_string_append (reasoning, json_object_get_string_member (event, "text"));
      else if (g_str_equal (name, "tool_call"))
        {
          g_assert_cmpint (json_object_get_int_member (event, "index"), ==, n_tool_calls);
          g_assert_nonnull (json_object_get_string_member (event, "id"));
          g_assert_nonnull (json_object_get_string_member (event, "arguments"));
          n_tool_calls++;
        }
      else
        g_assert_not_reached ();
    }

  g_assert_cmpstr (content->str, ==, "Running it.");
  g_assert_cmpstr (reasoning->str, ==, "Need to run the code.");
  g_assert_cmpuint (n_tool_calls, ==, 2);

  /* The last line is the result. */
  g_assert_cmpstr (event_name (&run, run.events->len - 1), ==, "message");
  message = g_ptr_array_index (run.events, run.events->len - 1);
  g_assert_cmpstr (json_object_get_string_member (message, "content"), ==, "Running it.");
  g_assert_cmpstr (json_object_get_string_member (message, "reasoning"), ==, "Need to run the code.");
  g_assert_cmpstr (json_object_get_string_member (message, "finish_reason"), ==, "tool_calls");
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (message, "usage"), "total_tokens"), ==, 520);
  calls = json_object_get_array_member (message, "tool_calls");
  g_assert_cmpuint (json_array_get_length (calls), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (calls, 1), "arguments"),
                   ==, "{\"question\":\"Pourquoi « n » décroît‑il ?\"}");
  viva_test_cli_run_clear (&run);
}

static void
test_chat_request (void)
{
  g_autoptr(VivaTestServer) server = viva_test_server_new ();
  g_autofree char *base_url = viva_test_server_get_base_url (server);
  const char *args[] = { "chat", "--base-url", base_url, "--model", "qwen2.5:7b", "--system", "Be brief.",
                         "--temperature", "0.2", "Hello", NULL };
  g_autoptr(JsonNode) node = NULL;
  JsonObject *body;
  JsonArray *messages;
  Run run = { 0 };

  queue_fixture (server, "ollama-v1-content.sse");
  viva_test_cli_run (&run, NULL, args);
  g_assert_cmpint (run.status, ==, 0);
  /* Plain output: the answer on stdout, the reasoning on stderr. */
  g_assert_cmpstr (run.out, ==, "Recursion is a function calling itself.\n");
  g_assert_nonnull (strstr (run.err, "The student asked about recursion."));

  node = viva_test_request_get_json (viva_test_server_find_request (server, "POST", "/v1/chat/completions", 0));
  body = json_node_get_object (node);
  g_assert_cmpstr (json_object_get_string_member (body, "model"), ==, "qwen2.5:7b");
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (body, "temperature"), 0.2, 1e-9);
  messages = json_object_get_array_member (body, "messages");
  g_assert_cmpuint (json_array_get_length (messages), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (messages, 0), "content"), ==, "Be brief.");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (messages, 1), "content"), ==, "Hello");
  viva_test_cli_run_clear (&run);
}

static void
test_chat_error (void)
{
  g_autoptr(VivaTestServer) server = viva_test_server_new ();
  g_autofree char *base_url = viva_test_server_get_base_url (server);
  g_autofree char *path = viva_test_fixture_path ("model", "error-openai-unauthorized.json");
  g_autoptr(VivaTestResponse) response = viva_test_response_new_from_file (401, "application/json", path);
  const char *args[] = { "chat", "--base-url", base_url, "--model", "m", "--json", "x", NULL };
  JsonObject *last;
  Run run = { 0 };

  viva_test_server_set_default (server, "POST", "/v1/chat/completions", response);
  viva_test_cli_run (&run, NULL, args);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_cmpuint (run.events->len, ==, 1);
  last = g_ptr_array_index (run.events, 0);
  g_assert_cmpstr (json_object_get_string_member (last, "event"), ==, "error");
  g_assert_cmpstr (json_object_get_string_member (last, "kind"), ==, "unauthorized");
  g_assert_nonnull (strstr (json_object_get_string_member (last, "message"), "API key"));
  viva_test_cli_run_clear (&run);
}

static void
test_chat_truncated (void)
{
  g_autoptr(VivaTestServer) server = viva_test_server_new ();
  g_autofree char *base_url = viva_test_server_get_base_url (server);
  const char *args[] = { "chat", "--base-url", base_url, "--model", "m", "--json", "x", NULL };
  JsonObject *message;
  Run run = { 0 };

  queue_fixture (server, "ollama-v1-midstream-failure.sse");
  viva_test_cli_run (&run, NULL, args);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_cmpuint (run.events->len, >=, 2);
  message = g_ptr_array_index (run.events, run.events->len - 2);
  g_assert_cmpstr (json_object_get_string_member (message, "event"), ==, "message");
  g_assert_cmpstr (json_object_get_string_member (message, "content"), ==, "Let me think");
  g_assert_true (json_object_get_boolean_member (message, "truncated"));
  g_assert_cmpstr (event_name (&run, run.events->len - 1), ==, "error");
  g_assert_cmpstr (json_object_get_string_member (g_ptr_array_index (run.events, run.events->len - 1), "kind"),
                   ==, "truncated");
  viva_test_cli_run_clear (&run);
}

static void
test_chat_usage (void)
{
  const char *no_prompt[] = { "chat", NULL };
  const char *two_prompts[] = { "chat", "a", "b", NULL };
  const char *bad_temperature[] = { "chat", "--temperature", "hot", "a", NULL };
  const char *bad_option[] = { "chat", "--frobnicate", "a", NULL };
  const char * const *cases[] = { no_prompt, two_prompts, bad_temperature, bad_option };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      Run run = { 0 };

      viva_test_cli_run (&run, NULL, cases[i]);
      g_assert_cmpint (run.status, ==, 2);
      g_assert_cmpstr (run.out, ==, "");
      viva_test_cli_run_clear (&run);
    }
}

static void
test_models (void)
{
  g_autoptr(VivaTestServer) server = viva_test_server_new ();
  g_autofree char *base_url = viva_test_server_get_base_url (server);
  const char *models[] = { "qwen2.5:7b", "llama3.2:3b", NULL };
  const char *args[] = { "models", "--base-url", base_url, NULL };
  Run run = { 0 };

  viva_test_server_serve_models (server, models);
  viva_test_cli_run (&run, NULL, args);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpstr (run.out, ==, "qwen2.5:7b\nllama3.2:3b\n");
  viva_test_cli_run_clear (&run);
}

static void
test_models_failure (void)
{
  g_autofree char *unused = viva_test_get_unused_url ();
  const char *args[] = { "models", "--base-url", unused, NULL };
  const char *extra[] = { "models", "surplus", NULL };
  Run run = { 0 };

  viva_test_cli_run (&run, NULL, args);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_cmpstr (run.out, ==, "");
  g_assert_nonnull (strstr (run.err, "No model server is running"));
  viva_test_cli_run_clear (&run);

  viva_test_cli_run (&run, NULL, extra);
  g_assert_cmpint (run.status, ==, 2);
  viva_test_cli_run_clear (&run);
}

/* An address typed without http://: completed for a local host, else a
 * usage error that names the flag, not Preferences; and a configured one
 * that is wrong says where to change it. */
static void
test_address (void)
{
  g_autoptr(VivaTestServer) server = viva_test_server_new ();
  g_autofree char *base_url = viva_test_server_get_base_url (server);
  const char *models[] = { "qwen2.5:7b", NULL };
  const char *typed = base_url + strlen ("http://");
  const char *local[] = { "models", "--base-url", typed, NULL };
  const char *remote[] = { "chat", "--base-url", "api.example.com/v1", "--json", "Hi", NULL };
  Run run = { 0 };

  g_assert_true (g_str_has_prefix (typed, "127.0.0.1:"));
  viva_test_server_serve_models (server, models);
  viva_test_cli_run (&run, NULL, local);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpstr (run.out, ==, "qwen2.5:7b\n");
  viva_test_cli_run_clear (&run);

  viva_test_cli_run (&run, NULL, remote);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_nonnull (strstr (run.err, "--base-url: “api.example.com/v1” needs https:// or http://"));
  g_assert_nonnull (strstr (run.err, "https://api.example.com/v1."));
  g_assert_null (strstr (run.err, "Preferences"));
  viva_test_cli_run_clear (&run);

  /* Nothing listens there: the CLI's words name its flag. */
  {
    g_autofree char *down = viva_test_get_unused_url ();
    const char *refused[] = { "models", "--base-url", down + strlen ("http://"), NULL };

    viva_test_cli_run (&run, NULL, refused);
    g_assert_cmpint (run.status, ==, 1);
    g_assert_nonnull (strstr (run.err, "No model server is running at http://127.0.0.1:"));
    g_assert_nonnull (strstr (run.err, "give another address with --base-url."));
    g_assert_null (strstr (run.err, "Preferences"));
    viva_test_cli_run_clear (&run);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/viva/model/cli/chat-json", test_chat_json);
  g_test_add_func ("/viva/model/cli/chat-request", test_chat_request);
  g_test_add_func ("/viva/model/cli/chat-error", test_chat_error);
  g_test_add_func ("/viva/model/cli/chat-truncated", test_chat_truncated);
  g_test_add_func ("/viva/model/cli/chat-usage", test_chat_usage);
  g_test_add_func ("/viva/model/cli/models", test_models);
  g_test_add_func ("/viva/model/cli/models-failure", test_models_failure);

  g_test_add_func ("/viva/model/cli/address", test_address);

  return g_test_run ();
}

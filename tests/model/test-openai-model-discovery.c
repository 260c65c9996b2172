/* test-openai-model-discovery.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* VivaOpenAIModel finding its way: the first model when none is set,
 * listing models, telling Ollama from an OpenAI-compatible server, the
 * health check and warming a model up, against the scripted server. */

#include "config.h"

#include "viva-openai-model.h"
#include "viva-test-model.h"
#include "viva-test-server.h"
#include "viva-test-util.h"

typedef VivaTestModel Fixture;

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

/* /v1/models missing: Ollama's /api/tags answers. */
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

int
main (int   argc,
      char *argv[])
{
  g_setenv ("VIVA_SECRETS", "memory", TRUE);
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) g_test_add ("/viva/model/openai-model/" path, Fixture, NULL, viva_test_model_setup, func, viva_test_model_teardown)
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

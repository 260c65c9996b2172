/* viva-test-model.c: a VivaOpenAIModel on the scripted server for the model
 * client's tests: the fixture, one stream run to its end on the main loop
 * with what its deltas said, the JSON a request carried, the examiner's
 * usual two-message request, and the recorded streams in
 * tests/model/fixtures served as a real server sent them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-test-model.h"
#include "viva-test-util.h"

void
viva_test_model_setup (VivaTestModel *fixture,
                       gconstpointer  data)
{
  fixture->server = viva_test_server_new ();
  fixture->base_url = viva_test_server_get_base_url (fixture->server);
  fixture->secrets = viva_secrets_new_in_memory ();
  fixture->model = g_object_new (VIVA_TYPE_OPENAI_MODEL,
                                 "secrets", fixture->secrets,
                                 "base-url", fixture->base_url,
                                 "model", "qwen2.5:7b",
                                 "retry-delay", 10,
                                 "first-byte-timeout", 5000,
                                 "idle-timeout", 5000,
                                 NULL);
}

/* Nothing may keep the model, server or secrets alive past a case. */
void
viva_test_model_teardown (VivaTestModel *fixture,
                          gconstpointer  data)
{
  g_assert_finalize_object (g_steal_pointer (&fixture->model));
  g_assert_finalize_object (g_steal_pointer (&fixture->server));
  g_assert_finalize_object (g_steal_pointer (&fixture->secrets));
  g_clear_pointer (&fixture->base_url, g_free);
}

static void
on_delta (VivaChatModel   *model,
          VivaChatRequest *request,
          VivaChatDelta   *delta,
          VivaTestDeltas  *deltas)
{
  g_assert_true (request == deltas->request);
  deltas->n_deltas++;

  switch (delta->kind)
    {
    case VIVA_CHAT_DELTA_CONTENT:
      g_string_append (deltas->content, delta->text);
      break;
    case VIVA_CHAT_DELTA_REASONING:
      g_string_append (deltas->reasoning, delta->text);
      break;
    case VIVA_CHAT_DELTA_TOOL_CALL:
      deltas->n_tool_fragments++;
      break;
    case VIVA_CHAT_DELTA_USAGE:
      deltas->n_usage++;
      break;
    default:
      g_assert_not_reached ();
    }

  if (deltas->cancel_after_first != NULL && delta->kind == VIVA_CHAT_DELTA_CONTENT)
    g_cancellable_cancel (deltas->cancel_after_first);
}

/**
 * viva_test_model_stream:
 * @deltas: (nullable): where the deltas go; free its strings with
 *   viva_test_deltas_clear()
 *
 * Streams @request and runs the main loop until it is done.
 *
 * Returns: (transfer full) (nullable): the reply, or %NULL with @error set
 */
VivaChatReply *
viva_test_model_stream (VivaTestModel    *fixture,
                        VivaChatRequest  *request,
                        GCancellable     *cancellable,
                        VivaTestDeltas   *deltas,
                        GError          **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  VivaTestDeltas local = { 0 };
  VivaChatReply *reply;
  gulong id;

  if (deltas == NULL)
    deltas = &local;
  deltas->request = request;
  deltas->content = g_string_new (NULL);
  deltas->reasoning = g_string_new (NULL);

  id = g_signal_connect (fixture->model, "delta", G_CALLBACK (on_delta), deltas);
  viva_chat_model_stream_async (VIVA_CHAT_MODEL (fixture->model), request, cancellable,
                                viva_test_store_result, &result);
  viva_test_run_until_result (&result);
  g_signal_handler_disconnect (fixture->model, id);

  reply = viva_chat_model_stream_finish (VIVA_CHAT_MODEL (fixture->model), result, error);
  if (deltas == &local)
    viva_test_deltas_clear (&local);
  return reply;
}

void
viva_test_deltas_clear (VivaTestDeltas *deltas)
{
  g_string_free (deltas->content, TRUE);
  g_string_free (deltas->reasoning, TRUE);
}

/* Returns: (transfer full): the JSON body of the @nth @path POST; asserts
 * there was one. */
JsonObject *
viva_test_model_request_body (VivaTestModel *fixture,
                              const char    *path,
                              guint          nth)
{
  const VivaTestRequest *request = viva_test_server_find_request (fixture->server, "POST", path, nth);
  JsonNode *node;
  JsonObject *object;

  g_assert_nonnull (request);
  node = viva_test_request_get_json (request);
  object = json_object_ref (json_node_get_object (node));
  json_node_unref (node);
  return object;
}

/* Returns: (transfer full): a system prompt and @prompt from the student. */
VivaChatRequest *
viva_test_chat_request_new (const char *prompt)
{
  VivaChatRequest *request = viva_chat_request_new ();
  g_autoptr(VivaChatMessage) system = viva_chat_message_new_system ("You are an examiner.");
  g_autoptr(VivaChatMessage) user = viva_chat_message_new_user (prompt);

  viva_chat_request_add_message (request, system);
  viva_chat_request_add_message (request, user);
  return request;
}

/**
 * viva_test_response_new_recorded:
 * @file: a recorded stream in tests/model/fixtures, `.sse` (OpenAI's
 *   server-sent events) or else Ollama's NDJSON
 * @chunk_size: bytes a chunk, 0 for one
 *
 * Returns: (transfer full): a 200 that replays @file byte for byte
 */
VivaTestResponse *
viva_test_response_new_recorded (const char *file,
                                 gsize       chunk_size)
{
  g_autofree char *path = viva_test_fixture_path ("model", file);
  VivaTestResponse *response = viva_test_response_new_from_file (200, g_str_has_suffix (file, ".sse")
                                                                        ? "text/event-stream"
                                                                        : "application/x-ndjson",
                                                                 path);

  viva_test_response_set_chunk_size (response, chunk_size);
  return response;
}

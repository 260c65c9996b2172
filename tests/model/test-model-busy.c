/* test-model-busy.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "viva-openai-model.h"
#include "viva-test-model.h"
#include "viva-test-server.h"
#include "viva-test-util.h"

/* A busy server, as a lab's shared one is at the start of an exam: Ollama's
 * full queue (503), a proxy's 429 with Retry-After, a first token slow to
 * come. The client waits calmly (VivaOpenAIModel:busy) instead of failing
 * after three attempts, says how long the server asked to wait, and gives
 * the next attempt the time the server announced. */

typedef struct
{
  VivaTestModel    base;
  guint            n_busy;      /* times busy went TRUE */
  guint            n_idle;      /* times busy went FALSE */
  guint            max_wait;    /* the largest busy-wait seen */
} Fixture;

static void
on_busy (VivaOpenAIModel *model,
         GParamSpec      *pspec,
         Fixture         *fixture)
{
  if (viva_openai_model_get_busy (model))
    {
      fixture->n_busy++;
      g_assert_cmpint (viva_openai_model_get_busy_since (model), >, 0);
    }
  else
    {
      fixture->n_idle++;
      g_assert_cmpint (viva_openai_model_get_busy_since (model), ==, 0);
    }
}

static void
on_busy_wait (VivaOpenAIModel *model,
              GParamSpec      *pspec,
              Fixture         *fixture)
{
  fixture->max_wait = MAX (fixture->max_wait, viva_openai_model_get_busy_wait (model));
}

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  viva_test_model_setup (&fixture->base, data);
  g_signal_connect (fixture->base.model, "notify::busy", G_CALLBACK (on_busy), fixture);
  g_signal_connect (fixture->base.model, "notify::busy-wait", G_CALLBACK (on_busy_wait), fixture);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  viva_test_model_teardown (&fixture->base, data);
}

static VivaChatReply *
stream (Fixture  *fixture,
        GError  **error)
{
  g_autoptr(VivaChatRequest) request = viva_chat_request_new ();
  g_autoptr(VivaChatMessage) user = viva_chat_message_new_user ("Hello?");

  viva_chat_request_add_message (request, user);
  return viva_test_model_stream (&fixture->base, request, NULL, NULL, error);
}

static VivaTestResponse *
queue_full (void)
{
  g_autofree char *path = viva_test_fixture_path ("model", "error-ollama-queue-full.json");

  return viva_test_response_new_from_file (503, "application/json", path);
}

/* More 503s than attempts: waited through, the reply comes, the model is
 * busy once and calm after, nothing is left as an error. */
static void
test_queue_full_waited (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autoptr(VivaTestResponse) busy = queue_full ();
  g_autoptr(VivaTestResponse) ok = viva_test_response_new_chat_stream ("Your turn.", NULL, NULL, NULL);
  g_autoptr(VivaChatReply) reply = NULL;
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < 6; i++)
    viva_test_server_queue (fixture->base.server, "POST", "/v1/chat/completions", busy);
  viva_test_server_queue (fixture->base.server, "POST", "/v1/chat/completions", ok);

  reply = stream (fixture, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (viva_chat_reply_get_content (reply), ==, "Your turn.");
  g_assert_cmpuint (viva_test_server_count_requests (fixture->base.server, "POST", "/v1/chat/completions"), ==, 7);
  g_assert_cmpuint (viva_openai_model_get_n_retries (fixture->base.model), ==, 6);
  g_assert_cmpuint (fixture->n_busy, ==, 1);
  g_assert_cmpuint (fixture->n_idle, ==, 1);
  g_assert_false (viva_openai_model_get_busy (fixture->base.model));
  g_assert_null (viva_openai_model_get_error_message (fixture->base.model));
}

/* A 429 with Retry-After: the wait is said, and the next attempt gets the
 * first-byte timeout plus twice that wait, so a reply slower than the
 * configured timeout still comes through on the first try after it. */
static void
test_retry_after_raises_first_byte_timeout (Fixture       *fixture,
                                            gconstpointer  data)
{
  g_autofree char *path = viva_test_fixture_path ("model", "error-openai-rate-limit.json");
  g_autoptr(VivaTestResponse) busy = viva_test_response_new_from_file (429, "application/json", path);
  g_autoptr(VivaTestResponse) slow = viva_test_response_new_chat_stream ("Slow but sure.", NULL, NULL, NULL);
  g_autoptr(VivaChatReply) reply = NULL;
  g_autoptr(GError) error = NULL;

  viva_test_response_add_header (busy, "Retry-After", "1");
  viva_test_response_set_header_delay (slow, 1200);
  viva_openai_model_set_first_byte_timeout (fixture->base.model, 600);
  viva_test_server_queue (fixture->base.server, "POST", "/v1/chat/completions", busy);
  viva_test_server_queue (fixture->base.server, "POST", "/v1/chat/completions", slow);

  reply = stream (fixture, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (viva_chat_reply_get_content (reply), ==, "Slow but sure.");
  g_assert_cmpuint (viva_test_server_count_requests (fixture->base.server, "POST", "/v1/chat/completions"), ==, 2);
  g_assert_cmpuint (fixture->max_wait, ==, 1);
  g_assert_cmpuint (viva_openai_model_get_busy_wait (fixture->base.model), ==, 0);
}

/* No byte for a while: the stream is waiting its turn, shown as busy, and
 * the reply still comes. */
static void
test_slow_first_token_is_busy (Fixture       *fixture,
                               gconstpointer  data)
{
  g_autoptr(VivaTestResponse) slow = viva_test_response_new_chat_stream ("At last.", NULL, NULL, NULL);
  g_autoptr(VivaChatReply) reply = NULL;
  g_autoptr(GError) error = NULL;

  /* Busy after half the first-byte timeout (1.5 s); the reply at 2.5 s. */
  viva_openai_model_set_first_byte_timeout (fixture->base.model, 3000);
  viva_test_response_set_header_delay (slow, 2500);
  viva_test_server_queue (fixture->base.server, "POST", "/v1/chat/completions", slow);

  reply = stream (fixture, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (viva_chat_reply_get_content (reply), ==, "At last.");
  g_assert_cmpuint (fixture->n_busy, ==, 1);
  g_assert_false (viva_openai_model_get_busy (fixture->base.model));
  g_assert_cmpuint (viva_openai_model_get_n_retries (fixture->base.model), ==, 0);
}

/* A server busy for longer than the model waits: one error that says so
 * and what to do, and the model calm again. */
static void
test_busy_too_long (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(VivaTestResponse) busy = queue_full ();
  g_autoptr(VivaChatReply) reply = NULL;
  g_autoptr(GError) error = NULL;

  viva_openai_model_set_max_busy_wait (fixture->base.model, 400);
  viva_test_server_set_default (fixture->base.server, "POST", "/v1/chat/completions", busy);

  reply = stream (fixture, &error);
  g_assert_null (reply);
  g_assert_error (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_BUSY);
  g_assert_nonnull (strstr (error->message, "was still busy after 1 minute"));
  g_assert_nonnull (strstr (error->message, "serve more students at once"));
  g_assert_cmpuint (viva_test_server_count_requests (fixture->base.server, "POST", "/v1/chat/completions"), >, 3);
  g_assert_false (viva_openai_model_get_busy (fixture->base.model));
  g_assert_cmpuint (fixture->n_busy, ==, 1);
  g_assert_cmpstr (viva_openai_model_get_error_message (fixture->base.model), ==, error->message);
}

/* Ollama's own hint survives as a command: pull the model, or choose
 * another one. */
static void
test_ollama_pull_hint (Fixture       *fixture,
                       gconstpointer  data)
{
  const char *models[] = { "llama3.2:3b", NULL };
  g_autoptr(VivaTestResponse) missing =
    viva_test_response_new_json (404, "{\"error\":\"model \\\"qwen3:14b\\\" not found, try pulling it first\"}");
  g_autoptr(VivaChatReply) reply = NULL;
  g_autoptr(GError) error = NULL;

  viva_test_server_serve_ollama (fixture->base.server, "0.6.2", models);
  viva_test_server_set_default (fixture->base.server, "POST", "/api/chat", missing);
  viva_openai_model_set_model (fixture->base.model, "qwen3:14b");

  reply = stream (fixture, &error);
  g_assert_error (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_MODEL_NOT_FOUND);
  g_assert_cmpstr (error->message, ==,
                   "Ollama has no model `qwen3:14b`. Run `ollama pull qwen3:14b` on the server, "
                   "or choose another model in Preferences.");
  g_assert_cmpuint (viva_test_server_count_requests (fixture->base.server, "POST", "/api/chat"), ==, 1);
  g_assert_cmpuint (fixture->n_busy, ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add ("/viva/model/busy/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("queue-full-waited", test_queue_full_waited);
  ADD ("retry-after-raises-first-byte-timeout", test_retry_after_raises_first_byte_timeout);
  ADD ("slow-first-token-is-busy", test_slow_first_token_is_busy);
  ADD ("busy-too-long", test_busy_too_long);
  ADD ("ollama-pull-hint", test_ollama_pull_hint);

  return g_test_run ();
}

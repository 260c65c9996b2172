/* test-model-hostile.c: a hostile (or merely chatty) model server on
 * 127.0.0.1, in the wire shapes of OpenAI, vLLM, llama.cpp and Ollama
 * (/v1 and native), against the real VivaOpenAIModel and the real
 * viva-cli. Each reply passes one of the client's limits; the turn fails
 * with a sentence, the connection is dropped (the server stops sending),
 * and viva-cli's memory stays small whatever the server sends.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>
#include <sys/resource.h>

#include "viva-model-error.h"
#include "viva-reply-limits.h"
#include "viva-test-cli.h"
#include "viva-test-model.h"
#include "viva-test-util.h"

typedef VivaTestModel Fixture;

/* What a user would notice: viva-cli growing past this is a PC swapping
 * in a lab. Before the limits, one 400 MiB line took it to 2.4 GiB. */
#define MAX_CLI_RSS_KIB (160 * 1024)

static const VivaTestWire wires[] = {
  VIVA_TEST_WIRE_OPENAI,
  VIVA_TEST_WIRE_VLLM,
  VIVA_TEST_WIRE_LLAMA_CPP,
  VIVA_TEST_WIRE_OLLAMA_V1,
  VIVA_TEST_WIRE_OLLAMA_NATIVE,
};

static const char * const wire_names[] = { "OpenAI", "vLLM", "llama.cpp", "Ollama /v1", "Ollama native" };

/* A fresh client for @wire: the fixture's model forgets the server it
 * detected, and Ollama's /v1 is spoken when asked for. */
static void
use_wire (Fixture      *fixture,
          VivaTestWire  wire)
{
  g_clear_object (&fixture->server);
  fixture->server = viva_test_server_new ();
  g_free (fixture->base_url);
  fixture->base_url = viva_test_server_get_base_url (fixture->server);
  viva_openai_model_set_base_url (fixture->model, fixture->base_url);
  viva_openai_model_set_ollama_native (fixture->model, wire == VIVA_TEST_WIRE_OLLAMA_NATIVE);
  viva_test_server_serve_wire (fixture->server, wire);
}

/* Until the server has no response left in flight: the client closed
 * what it stopped reading. A client that kept reading would hang here. */
static void
wait_until_dropped (VivaTestServer *server)
{
  while (viva_test_server_get_n_serving (server) > 0)
    g_main_context_iteration (NULL, TRUE);
}

static void
stream_hostile (Fixture          *fixture,
                VivaTestWire      wire,
                VivaTestHostile   kind,
                VivaTestDeltas   *deltas,
                GError          **error)
{
  g_autoptr(VivaTestResponse) response = viva_test_response_new_hostile (kind, wire);
  g_autoptr(VivaChatRequest) request = viva_test_chat_request_new ("Examine my code.");
  g_autoptr(VivaChatReply) reply = NULL;

  g_test_message ("%s", wire_names[wire]);
  use_wire (fixture, wire);
  viva_test_server_queue (fixture->server, "POST", viva_test_wire_get_chat_path (wire), response);
  reply = viva_test_model_stream (fixture, request, NULL, deltas, error);
  g_assert_null (reply);
  wait_until_dropped (fixture->server);
  /* A limit is not a fault worth another attempt. */
  g_assert_cmpuint (viva_test_server_count_requests (fixture->server, "POST", viva_test_wire_get_chat_path (wire)), ==, 1);
}

static void
test_defaults (void)
{
  g_autoptr(VivaOpenAIModel) model = viva_openai_model_new (NULL);
  guint bytes, line, deltas, calls, time;

  g_object_get (model, "max-reply-bytes", &bytes, "max-line-bytes", &line, "max-deltas", &deltas,
                "max-tool-calls", &calls, "max-reply-time", &time, NULL);
  g_assert_cmpuint (bytes, ==, 32 * 1024 * 1024);
  g_assert_cmpuint (line, ==, 1024 * 1024);
  g_assert_cmpuint (deltas, ==, 100000);
  g_assert_cmpuint (calls, ==, 64);
  g_assert_cmpuint (time, ==, 20 * 60 * 1000);
  g_assert_cmpuint (bytes, ==, VIVA_REPLY_DEFAULT_MAX_BYTES);
  g_assert_cmpuint (time, ==, VIVA_REPLY_DEFAULT_MAX_TIME_MS);
}

/* Content that never ends, at the (lowered) deltas limit. */
static void
test_endless (Fixture       *fixture,
              gconstpointer  data)
{
  g_object_set (fixture->model, "max-deltas", 1000, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (wires); i++)
    {
      g_autoptr(GError) error = NULL;
      VivaTestDeltas deltas = { 0 };

      stream_hostile (fixture, wires[i], VIVA_TEST_HOSTILE_ENDLESS, &deltas, &error);
      g_assert_error (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_REPLY_LIMIT);
      g_assert_nonnull (strstr (error->message, "more than 1000 pieces"));
      g_assert_cmpuint (deltas.n_deltas, ==, 1000);
      g_assert_true (g_str_has_prefix (deltas.content->str, "Let me look at your code.and again "));
      viva_test_deltas_clear (&deltas);
    }
}

/* Keep-alive comments (NDJSON: blank lines) forever: no event, no long
 * line, so only the reply's bytes end it. */
static void
test_keep_alive (Fixture       *fixture,
                 gconstpointer  data)
{
  g_object_set (fixture->model, "max-reply-bytes", 1024 * 1024, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (wires); i++)
    {
      g_autoptr(GError) error = NULL;

      stream_hostile (fixture, wires[i], VIVA_TEST_HOSTILE_KEEP_ALIVE, NULL, &error);
      g_assert_error (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_REPLY_LIMIT);
      g_assert_nonnull (strstr (error->message, "for one reply"));
      g_assert_nonnull (strstr (error->message, "1.0"));
    }
}

/* One 400 MiB line, at the default line limit: the client stops after
 * 1 MiB and drops the connection, so the server never sends the rest. */
static void
test_huge_line (Fixture       *fixture,
                gconstpointer  data)
{
  for (guint i = 0; i < G_N_ELEMENTS (wires); i++)
    {
      g_autoptr(GError) error = NULL;

      stream_hostile (fixture, wires[i], VIVA_TEST_HOSTILE_HUGE_LINE, NULL, &error);
      g_assert_error (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_REPLY_LIMIT);
      g_assert_nonnull (strstr (error->message, "one line of more than 1.0"));
      g_assert_cmpuint (viva_test_server_get_bytes_sent (fixture->server), <, 64 * 1024 * 1024);
    }
}

/* 1 GiB of 16 KiB deltas: at the default byte limit on one wire, at a
 * lowered one on the others to keep the test short. */
static void
test_huge_total (Fixture       *fixture,
                 gconstpointer  data)
{
  for (guint i = 0; i < G_N_ELEMENTS (wires); i++)
    {
      g_autoptr(GError) error = NULL;
      VivaTestDeltas deltas = { 0 };
      guint limit = wires[i] == VIVA_TEST_WIRE_OPENAI ? VIVA_REPLY_DEFAULT_MAX_BYTES : 4 * 1024 * 1024;

      g_object_set (fixture->model, "max-reply-bytes", limit, NULL);
      stream_hostile (fixture, wires[i], VIVA_TEST_HOSTILE_HUGE_TOTAL, &deltas, &error);
      g_assert_error (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_REPLY_LIMIT);
      g_assert_nonnull (strstr (error->message, limit == VIVA_REPLY_DEFAULT_MAX_BYTES ? "32.0" : "4.0"));
      g_assert_cmpuint (deltas.content->len, <=, limit);
      g_assert_cmpuint (viva_test_server_get_bytes_sent (fixture->server), <, 128 * 1024 * 1024);
      viva_test_deltas_clear (&deltas);
    }
}

/* 20,000 tool calls in one reply, at the default of 64. */
static void
test_tool_calls (Fixture       *fixture,
                 gconstpointer  data)
{
  for (guint i = 0; i < G_N_ELEMENTS (wires); i++)
    {
      g_autoptr(GError) error = NULL;
      VivaTestDeltas deltas = { 0 };

      stream_hostile (fixture, wires[i], VIVA_TEST_HOSTILE_TOOL_CALLS, &deltas, &error);
      g_assert_error (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_REPLY_LIMIT);
      g_assert_nonnull (strstr (error->message, "more than 64 tool calls"));
      g_assert_cmpuint (deltas.n_tool_fragments, ==, 64);
      viva_test_deltas_clear (&deltas);
    }
}

/* Four million one-letter deltas, at a lowered limit (the default one is
 * reached through viva-cli, in cli-endless). */
static void
test_tiny_deltas (Fixture       *fixture,
                  gconstpointer  data)
{
  for (guint i = 0; i < G_N_ELEMENTS (wires); i++)
    {
      g_autoptr(GError) error = NULL;
      VivaTestDeltas deltas = { 0 };
      guint limit = 2000;

      g_object_set (fixture->model, "max-deltas", limit, NULL);
      stream_hostile (fixture, wires[i], VIVA_TEST_HOSTILE_TINY_DELTAS, &deltas, &error);
      g_assert_error (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_REPLY_LIMIT);
      g_assert_cmpuint (deltas.n_deltas, ==, limit);
      /* The first is the greeting, then one letter each. */
      g_assert_cmpuint (deltas.content->len, ==, strlen ("Let me look at your code.") + limit - 1);
      viva_test_deltas_clear (&deltas);
    }
}

/* A dot every 50 ms for ever: every byte resets the idle timeout, so only
 * the reply's own deadline (lowered to 0.3 s, said as a second) ends it. */
static void
test_slow_drip (Fixture       *fixture,
                gconstpointer  data)
{
  g_object_set (fixture->model, "max-reply-time", 300, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (wires); i++)
    {
      g_autoptr(GError) error = NULL;
      VivaTestDeltas deltas = { 0 };

      stream_hostile (fixture, wires[i], VIVA_TEST_HOSTILE_SLOW_DRIP, &deltas, &error);
      g_assert_error (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_REPLY_LIMIT);
      g_assert_cmpstr (error->message, ==, "The model’s reply was still going after 1 second, so Viva stopped it. "
                                           "Try again; a smaller or faster model answers sooner.");
      /* What arrived was shown; the turn still failed. */
      g_assert_true (g_str_has_prefix (deltas.content->str, "Let me look at your code."));
      viva_test_deltas_clear (&deltas);
    }
}

/* Not JSON, or not a stream at all: said as such, at once. */
static void
test_malformed (Fixture       *fixture,
                gconstpointer  data)
{
  for (guint i = 0; i < G_N_ELEMENTS (wires); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GError) type_error = NULL;

      stream_hostile (fixture, wires[i], VIVA_TEST_HOSTILE_MALFORMED, NULL, &error);
      g_assert_error (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_INVALID_RESPONSE);

      stream_hostile (fixture, wires[i], VIVA_TEST_HOSTILE_WRONG_TYPE, NULL, &type_error);
      g_assert_error (type_error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_INVALID_RESPONSE);
      g_assert_nonnull (strstr (type_error->message, "text/html"));
      g_assert_cmpuint (viva_test_server_get_bytes_sent (fixture->server), <, 64 * 1024 * 1024);
    }
}

/* viva-cli, as a user runs it. */

static glong
children_peak_rss_kib (void)
{
  struct rusage usage;

  g_assert_cmpint (getrusage (RUSAGE_CHILDREN, &usage), ==, 0);
  return usage.ru_maxrss;
}

static void
run_chat (VivaTestWire     wire,
          VivaTestHostile  kind,
          gboolean         json,
          VivaTestCliRun  *run,
          VivaTestServer **server)
{
  g_autoptr(VivaTestResponse) response = viva_test_response_new_hostile (kind, wire);
  g_autofree char *base_url = NULL;

  *server = viva_test_server_new ();
  base_url = viva_test_server_get_base_url (*server);
  viva_test_server_serve_wire (*server, wire);
  viva_test_server_queue (*server, "POST", viva_test_wire_get_chat_path (wire), response);

  {
    const char *args[] = { "chat", "--base-url", base_url, "--model", "m", "Examine my code.", NULL, NULL };

    if (json)
      args[5] = "--json", args[6] = "Examine my code.";
    viva_test_cli_run (run, NULL, args);
  }

  wait_until_dropped (*server);
  g_test_message ("%s: peak RSS of viva-cli so far %ld KiB", wire_names[wire], children_peak_rss_kib ());
  g_assert_cmpint (children_peak_rss_kib (), <, MAX_CLI_RSS_KIB);
}

static JsonObject *
last_event (VivaTestCliRun *run)
{
  g_assert_cmpuint (run->events->len, >, 0);
  return g_ptr_array_index (run->events, run->events->len - 1);
}

static void
assert_chat_limit (VivaTestWire     wire,
                   VivaTestHostile  kind,
                   const char      *words)
{
  g_autoptr(VivaTestServer) server = NULL;
  VivaTestCliRun run = { 0 };
  JsonObject *error;

  run_chat (wire, kind, TRUE, &run, &server);
  g_assert_cmpint (run.status, ==, 1);
  error = last_event (&run);
  g_assert_cmpstr (json_object_get_string_member (error, "event"), ==, "error");
  g_assert_cmpstr (json_object_get_string_member (error, "kind"), ==, "reply-limit");
  g_assert_nonnull (strstr (json_object_get_string_member (error, "message"), words));
  viva_test_cli_run_clear (&run);
}

static void
test_cli_huge_line (void)
{
  assert_chat_limit (VIVA_TEST_WIRE_VLLM, VIVA_TEST_HOSTILE_HUGE_LINE, "one line of more than 1.0");
  assert_chat_limit (VIVA_TEST_WIRE_OLLAMA_NATIVE, VIVA_TEST_HOSTILE_HUGE_LINE, "one line of more than 1.0");
}

static void
test_cli_huge_total (void)
{
  /* At the default 32 MiB: the 16 KiB deltas are the in-process test's. */
  assert_chat_limit (VIVA_TEST_WIRE_OPENAI, VIVA_TEST_HOSTILE_KEEP_ALIVE, "more than 32.0");
}

/* At the default deltas limit; plain output, as a person reads it: what
 * arrived, then the sentence. */
static void
test_cli_endless (void)
{
  g_autoptr(VivaTestServer) server = NULL;
  VivaTestCliRun run = { 0 };

  run_chat (VIVA_TEST_WIRE_LLAMA_CPP, VIVA_TEST_HOSTILE_ENDLESS, FALSE, &run, &server);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_true (g_str_has_prefix (run.out, "Let me look at your code.and again and again "));
  g_assert_nonnull (strstr (run.err, "viva-cli: The model’s reply went on for more than 100000 pieces, so Viva stopped reading it."));
  viva_test_cli_run_clear (&run);
}

static void
test_cli_tool_calls (void)
{
  assert_chat_limit (VIVA_TEST_WIRE_VLLM, VIVA_TEST_HOSTILE_TOOL_CALLS, "more than 64 tool calls");
  assert_chat_limit (VIVA_TEST_WIRE_OLLAMA_NATIVE, VIVA_TEST_HOSTILE_TOOL_CALLS, "more than 64 tool calls");
}

/* A whole defense whose model sends one huge line: it ends, failed, with
 * the sentence in the verdict, and viva-cli exits 1. */
static void
test_cli_defend (void)
{
  g_autoptr(VivaTestServer) server = viva_test_server_new ();
  g_autoptr(VivaTestResponse) response = viva_test_response_new_hostile (VIVA_TEST_HOSTILE_HUGE_LINE, VIVA_TEST_WIRE_VLLM);
  g_autofree char *base_url = viva_test_server_get_base_url (server);
  g_autofree char *dir = g_dir_make_tmp ("viva-hostile-XXXXXX", NULL);
  g_autofree char *code = g_build_filename (dir, "knn.py", NULL);
  g_autofree char *pack = g_build_filename (g_getenv ("VIVA_SOURCE_ROOT"), "data", "packs", "intro-ai.json", NULL);
  const char *args[] = { "defend", "--pack", pack, "--problem", "knn", "--code", code, "--base-url", base_url,
                         "--model", "m", "--session-dir", dir, "--json", NULL };
  VivaTestCliRun run = { 0 };
  JsonObject *verdict;

  g_assert_true (g_file_set_contents (code, "def knn_predict(train, query, k):\n    return None\n", -1, NULL));
  viva_test_server_serve_wire (server, VIVA_TEST_WIRE_VLLM);
  viva_test_server_set_default (server, "POST", "/v1/chat/completions", response);

  viva_test_cli_run (&run, NULL, args);
  wait_until_dropped (server);
  g_test_message ("defend: peak RSS of viva-cli so far %ld KiB", children_peak_rss_kib ());
  g_assert_cmpint (children_peak_rss_kib (), <, MAX_CLI_RSS_KIB);

  g_assert_cmpint (run.status, ==, 1);
  verdict = last_event (&run);
  g_assert_cmpstr (json_object_get_string_member (verdict, "event"), ==, "verdict");
  g_assert_cmpstr (json_object_get_string_member (verdict, "status"), ==, "failed");
  g_assert_nonnull (strstr (json_object_get_string_member (verdict, "reason"), "one line of more than 1.0"));
  /* The model was asked once: a limit fails the turn, it is not retried. */
  g_assert_cmpuint (viva_test_server_count_requests (server, "POST", "/v1/chat/completions"), ==, 1);

  viva_test_cli_run_clear (&run);
  viva_test_remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/viva/model/hostile/defaults", test_defaults);
#define ADD(path, func) g_test_add ("/viva/model/hostile/" path, Fixture, NULL, viva_test_model_setup, func, viva_test_model_teardown)
  ADD ("endless", test_endless);
  ADD ("keep-alive", test_keep_alive);
  ADD ("huge-line", test_huge_line);
  ADD ("huge-total", test_huge_total);
  ADD ("tool-calls", test_tool_calls);
  ADD ("tiny-deltas", test_tiny_deltas);
  ADD ("slow-drip", test_slow_drip);
  ADD ("malformed", test_malformed);
#undef ADD
  g_test_add_func ("/viva/model/hostile/cli-huge-line", test_cli_huge_line);
  g_test_add_func ("/viva/model/hostile/cli-huge-total", test_cli_huge_total);
  g_test_add_func ("/viva/model/hostile/cli-endless", test_cli_endless);
  g_test_add_func ("/viva/model/hostile/cli-tool-calls", test_cli_tool_calls);
  g_test_add_func ("/viva/model/hostile/cli-defend", test_cli_defend);

  return g_test_run ();
}

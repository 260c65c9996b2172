/* bench-model-stream.c: the cost per delta of a long stream, end to end
 * through the scripted server, libsoup, the SSE reader, the assembler and
 * the delta signal. The per-delta cost must stay flat as the stream grows.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>
#include <time.h>

#include "viva-openai-model.h"
#include "viva-reply-assembler.h"
#include "viva-sse-reader.h"
#include "viva-test-server.h"
#include "viva-test-util.h"

static GBytes *
make_stream (guint n_deltas)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < n_deltas; i++)
    g_string_append_printf (out,
                            "data: {\"id\":\"chatcmpl-bench\",\"object\":\"chat.completion.chunk\",\"created\":1736000000,"
                            "\"model\":\"bench\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"tok%u \"},"
                            "\"logprobs\":null,\"finish_reason\":null}]}\n\n", i % 1000);
  g_string_append (out,
                   "data: {\"id\":\"chatcmpl-bench\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
                   "\"delta\":{},\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":1,"
                   "\"total_tokens\":2}}\n\ndata: [DONE]\n\n");

  return g_string_free_to_bytes (out);
}

static double
cpu_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
count_delta (VivaChatModel   *model,
             VivaChatRequest *request,
             VivaChatDelta   *delta,
             guint           *count)
{
  if (delta->kind == VIVA_CHAT_DELTA_CONTENT)
    (*count)++;
}


/* Returns CPU µs per delta over HTTP; *wall_us gets wall-clock µs. */
static double
run_http (guint   n_deltas,
          double *wall_us)
{
  g_autoptr(VivaTestServer) server = viva_test_server_new ();
  g_autofree char *base_url = viva_test_server_get_base_url (server);
  g_autoptr(VivaSecrets) secrets = viva_secrets_new_in_memory ();
  g_autoptr(VivaOpenAIModel) model = g_object_new (VIVA_TYPE_OPENAI_MODEL, "secrets", secrets, "base-url", base_url,
                                                   "model", "bench", NULL);
  g_autoptr(GBytes) body = make_stream (n_deltas);
  g_autoptr(VivaTestResponse) response = viva_test_response_new (200, "text/event-stream", body);
  g_autoptr(VivaChatRequest) request = viva_chat_request_new ();
  g_autoptr(VivaChatMessage) user = viva_chat_message_new_user ("go");
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(VivaChatReply) reply = NULL;
  g_autoptr(GError) error = NULL;
  guint count = 0;
  gint64 wall;
  double cpu;

  /* Ask once so detection and the connection are not measured. */
  viva_openai_model_detect_server_async (model, NULL, viva_test_store_result, &result);
  viva_test_run_until_result (&result);
  g_clear_object (&result);

  viva_test_response_set_chunk_size (response, 16384);
  viva_test_server_queue (server, "POST", "/v1/chat/completions", response);
  viva_chat_request_add_message (request, user);
  g_signal_connect (model, "delta", G_CALLBACK (count_delta), &count);

  wall = g_get_monotonic_time ();
  cpu = cpu_seconds ();
  viva_chat_model_stream_async (VIVA_CHAT_MODEL (model), request, NULL, viva_test_store_result, &result);
  viva_test_run_until_result (&result);
  reply = viva_chat_model_stream_finish (VIVA_CHAT_MODEL (model), result, &error);
  cpu = cpu_seconds () - cpu;
  wall = g_get_monotonic_time () - wall;

  g_assert_no_error (error);
  g_assert_cmpuint (count, ==, n_deltas);
  g_assert_cmpstr (viva_chat_reply_get_finish_reason (reply), ==, "stop");

  *wall_us = (double)wall / n_deltas;
  return cpu * 1e6 / n_deltas;
}

/* The same bytes through the reader and assembler alone. */
static double
run_parse (guint n_deltas)
{
  g_autoptr(GBytes) body = make_stream (n_deltas);
  g_autoptr(VivaSseReader) reader = viva_sse_reader_new (NULL, VIVA_SSE_FORMAT_EVENT_STREAM);
  g_autoptr(VivaReplyAssembler) assembler = viva_reply_assembler_new (VIVA_REPLY_FORMAT_OPENAI);
  g_autoptr(VivaChatReply) reply = NULL;
  const char *data = g_bytes_get_data (body, NULL);
  gsize length = g_bytes_get_size (body);
  double cpu = cpu_seconds ();

  for (gsize offset = 0; offset < length; offset += 8192)
    {
      VivaSseEvent *event;

      viva_sse_reader_feed (reader, data + offset, MIN (8192, length - offset));
      while ((event = viva_sse_reader_pop_event (reader)))
        {
          g_assert_true (viva_reply_assembler_feed_event (assembler, event, NULL));
          viva_sse_event_free (event);
        }
    }

  reply = viva_reply_assembler_finish (assembler);
  g_assert_cmpuint (viva_reply_assembler_get_n_deltas (assembler), ==, n_deltas + 1);
  return (cpu_seconds () - cpu) * 1e6 / n_deltas;
}

int
main (int   argc,
      char *argv[])
{
  const guint sizes[] = { 1000, 10000, 50000 };
  double http[G_N_ELEMENTS (sizes)];
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *date = g_date_time_format (now, "%Y-%m-%d");

  g_test_init (&argc, &argv, NULL);
  g_setenv ("VIVA_SECRETS", "memory", TRUE);

  /* Warm up allocators and the type system. */
  {
    double wall;

    run_http (1000, &wall);
  }

  printf ("# Model client stream benchmark, %s\n", date);
  printf ("# deltas | HTTP CPU µs/delta | HTTP wall µs/delta | parse-only CPU µs/delta\n");
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      double wall;
      double parse;

      http[i] = run_http (sizes[i], &wall);
      parse = run_parse (sizes[i]);
      printf ("%u | %.2f | %.2f | %.2f\n", sizes[i], http[i], wall, parse);
    }

  /* Flat means linear: the largest stream may cost a little more per
   * delta (noise, cache), not several times more. */
  if (http[G_N_ELEMENTS (sizes) - 1] > 2.5 * http[0])
    {
      printf ("# NOT FLAT: %.2f µs/delta at %u deltas against %.2f at %u\n",
              http[G_N_ELEMENTS (sizes) - 1], sizes[G_N_ELEMENTS (sizes) - 1], http[0], sizes[0]);
      return 1;
    }

  printf ("# flat: %.2f× from %u to %u deltas\n", http[G_N_ELEMENTS (sizes) - 1] / http[0],
          sizes[0], sizes[G_N_ELEMENTS (sizes) - 1]);
  return 0;
}

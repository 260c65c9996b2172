/* viva-test-server.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

G_BEGIN_DECLS

/* A scripted HTTP server on 127.0.0.1 for tests, built on SoupServer and
 * running on the thread-default main context of its creator.
 *
 * Responses are queued per "METHOD /path": each request takes the next one
 * from its queue, or the default set for that path, or gets a 404 whose
 * JSON body says nothing was scripted. A response replays its body byte
 * for byte, cut into chunks where asked, with delays, a stall (the body
 * stops and the connection stays open) or a drop (the connection is
 * closed mid-body). Every request is recorded.
 *
 * Like a real server under a lab's load, it can also hold at most so many
 * POST streams at once and queue the rest, and turn away what its queue
 * cannot take with Ollama's 503 — or answer 503/429 with Retry-After where
 * asked. */

typedef struct _VivaTestResponse VivaTestResponse;

VivaTestResponse *viva_test_response_new             (guint              status,
                                                      const char        *content_type,
                                                      GBytes            *body);
VivaTestResponse *viva_test_response_new_text        (guint              status,
                                                      const char        *content_type,
                                                      const char        *body);
VivaTestResponse *viva_test_response_new_json        (guint              status,
                                                      const char        *json);
VivaTestResponse *viva_test_response_new_from_file   (guint              status,
                                                      const char        *content_type,
                                                      const char        *path);
VivaTestResponse *viva_test_response_new_chat_stream (const char        *content,
                                                      const char        *reasoning,
                                                      const char        *tool_name,
                                                      const char        *tool_arguments);
VivaTestResponse *viva_test_response_ref             (VivaTestResponse  *self);
void              viva_test_response_unref           (VivaTestResponse  *self);
GBytes           *viva_test_response_get_body        (VivaTestResponse  *self);
void              viva_test_response_add_header      (VivaTestResponse  *self,
                                                      const char        *name,
                                                      const char        *value);
void              viva_test_response_set_chunk_size  (VivaTestResponse  *self,
                                                      gsize              chunk_size);
void              viva_test_response_set_split_points (VivaTestResponse *self,
                                                      const gsize       *offsets,
                                                      guint              n_offsets);
void              viva_test_response_set_header_delay (VivaTestResponse *self,
                                                      guint              delay_ms);
void              viva_test_response_set_chunk_delay (VivaTestResponse  *self,
                                                      guint              delay_ms);
void              viva_test_response_set_stall_after (VivaTestResponse  *self,
                                                      gsize              offset);
void              viva_test_response_set_drop_after  (VivaTestResponse  *self,
                                                      gsize              offset);

VivaTestResponse *viva_test_response_new_busy        (guint              status,
                                                      guint              retry_after_s);
VivaTestResponse *viva_test_response_new_repeat      (guint              status,
                                                      const char        *content_type,
                                                      const char        *head,
                                                      const char        *piece,
                                                      guint64            n_pieces,
                                                      const char        *tail);

/* A hostile (or merely chatty) model server, in each server's wire shape. */
typedef enum
{
  VIVA_TEST_WIRE_OPENAI,        /* api.openai.com */
  VIVA_TEST_WIRE_VLLM,
  VIVA_TEST_WIRE_LLAMA_CPP,     /* llama-server */
  VIVA_TEST_WIRE_OLLAMA_V1,     /* Ollama's /v1 */
  VIVA_TEST_WIRE_OLLAMA_NATIVE, /* Ollama's /api/chat, NDJSON */
} VivaTestWire;

typedef enum
{
  VIVA_TEST_HOSTILE_ENDLESS,     /* content deltas, never done */
  VIVA_TEST_HOSTILE_KEEP_ALIVE,  /* SSE comments (NDJSON: blank lines) forever */
  VIVA_TEST_HOSTILE_HUGE_LINE,   /* one 400 MiB line */
  VIVA_TEST_HOSTILE_HUGE_TOTAL,  /* 1 GiB of 16 KiB deltas */
  VIVA_TEST_HOSTILE_TOOL_CALLS,  /* 20,000 tool calls in one reply */
  VIVA_TEST_HOSTILE_TINY_DELTAS, /* 4 million one-letter deltas */
  VIVA_TEST_HOSTILE_SLOW_DRIP,   /* a delta every 50 ms, forever */
  VIVA_TEST_HOSTILE_MALFORMED,   /* a frame that is not JSON */
  VIVA_TEST_HOSTILE_WRONG_TYPE,  /* 200 text/html, 400 MiB of it */
} VivaTestHostile;

VivaTestResponse *viva_test_response_new_hostile     (VivaTestHostile    kind,
                                                      VivaTestWire       wire);
const char       *viva_test_wire_get_chat_path       (VivaTestWire       wire);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (VivaTestResponse, viva_test_response_unref)

/* A request as the server received it. */
typedef struct
{
  char               *method;
  char               *path;
  SoupMessageHeaders *headers;
  GBytes             *body;
} VivaTestRequest;

JsonNode         *viva_test_request_get_json          (const VivaTestRequest *request);
const char       *viva_test_request_get_header        (const VivaTestRequest *request,
                                                       const char            *name);

#define VIVA_TYPE_TEST_SERVER (viva_test_server_get_type())

G_DECLARE_FINAL_TYPE (VivaTestServer, viva_test_server, VIVA, TEST_SERVER, GObject)

VivaTestServer        *viva_test_server_new              (void);
const char            *viva_test_server_get_url          (VivaTestServer   *self);
char                  *viva_test_server_get_base_url     (VivaTestServer   *self);
void                   viva_test_server_queue            (VivaTestServer   *self,
                                                          const char       *method,
                                                          const char       *path,
                                                          VivaTestResponse *response);
void                   viva_test_server_set_default      (VivaTestServer   *self,
                                                          const char       *method,
                                                          const char       *path,
                                                          VivaTestResponse *response);
/* Answers each request on a path from what it holds (a scripted model that
 * reads the conversation); queued responses still go first. Returns a
 * response, transfer full. */
typedef VivaTestResponse *(*VivaTestResponder) (VivaTestServer        *server,
                                                const VivaTestRequest *request,
                                                gpointer               user_data);

void                   viva_test_server_set_responder    (VivaTestServer   *self,
                                                          const char       *method,
                                                          const char       *path,
                                                          VivaTestResponder responder,
                                                          gpointer          user_data);
void                   viva_test_server_set_capacity     (VivaTestServer   *self,
                                                          guint             max_streams,
                                                          guint             max_queue);
guint                  viva_test_server_get_peak_streams (VivaTestServer   *self);
guint                  viva_test_server_get_n_turned_away (VivaTestServer  *self);
void                   viva_test_server_serve_models     (VivaTestServer   *self,
                                                          const char * const *models);
void                   viva_test_server_serve_ollama     (VivaTestServer   *self,
                                                          const char       *version,
                                                          const char * const *models);
guint                  viva_test_server_get_n_requests   (VivaTestServer   *self);
const VivaTestRequest *viva_test_server_get_request      (VivaTestServer   *self,
                                                          guint             index);
const VivaTestRequest *viva_test_server_find_request     (VivaTestServer   *self,
                                                          const char       *method,
                                                          const char       *path,
                                                          guint             nth);
guint                  viva_test_server_count_requests   (VivaTestServer   *self,
                                                          const char       *method,
                                                          const char       *path);
void                   viva_test_server_clear_requests   (VivaTestServer   *self);
guint                  viva_test_server_get_n_serving    (VivaTestServer   *self);
guint64                viva_test_server_get_bytes_sent   (VivaTestServer   *self);
void                   viva_test_server_serve_wire       (VivaTestServer   *self,
                                                          VivaTestWire      wire);
void                   viva_test_server_serve_until_stdin_closes (VivaTestServer *self);

char                  *viva_test_get_unused_url          (void);
char                  *viva_test_fixture_path            (const char       *area,
                                                          const char       *name);

G_END_DECLS

/* viva-test-response.c: what the scripted server replays and records.
 *
 * A VivaTestResponse is a status, headers and a body sent byte for byte,
 * with the chunking, delays, stall or drop a test asks for; the canned
 * replies (a vLLM chat stream, a busy server) are built here. A
 * VivaTestRequest is what the server received. Serving both lives in
 * viva-test-server.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "viva-test-server-private.h"

/* Responses. */

VivaTestResponse *
viva_test_response_new (guint       status,
                        const char *content_type,
                        GBytes     *body)
{
  VivaTestResponse *self = g_new0 (VivaTestResponse, 1);

  g_ref_count_init (&self->ref_count);
  self->status = status;
  self->content_type = g_strdup (content_type);
  self->body = body != NULL ? g_bytes_ref (body) : g_bytes_new (NULL, 0);
  self->headers = g_ptr_array_new_with_free_func (g_free);
  self->splits = g_array_new (FALSE, FALSE, sizeof (gsize));
  self->stall_after = -1;
  self->drop_after = -1;

  return self;
}

VivaTestResponse *
viva_test_response_new_text (guint       status,
                             const char *content_type,
                             const char *body)
{
  g_autoptr(GBytes) bytes = g_bytes_new (body, strlen (body));

  return viva_test_response_new (status, content_type, bytes);
}

VivaTestResponse *
viva_test_response_new_json (guint       status,
                             const char *json)
{
  return viva_test_response_new_text (status, "application/json", json);
}

/* @path is absolute, or relative to G_TEST_SRCDIR. */
VivaTestResponse *
viva_test_response_new_from_file (guint       status,
                                  const char *content_type,
                                  const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *full = NULL;
  char *contents = NULL;
  gsize length = 0;

  full = g_path_is_absolute (path) ? g_strdup (path) : g_test_build_filename (G_TEST_DIST, path, NULL);
  g_file_get_contents (full, &contents, &length, &error);
  g_assert_no_error (error);
  bytes = g_bytes_new_take (contents, length);

  return viva_test_response_new (status, content_type, bytes);
}

static void
add_chunk (GString    *out,
           const char *delta_json,
           const char *finish_reason)
{
  g_string_append_printf (out,
                          "data: {\"id\":\"chatcmpl-test\",\"object\":\"chat.completion.chunk\","
                          "\"created\":1730000000,\"model\":\"test-model\",\"choices\":[{\"index\":0,"
                          "\"delta\":%s,\"logprobs\":null,\"finish_reason\":%s}]}\n\n",
                          delta_json, finish_reason);
}

char *
_viva_test_json_string (const char *text)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_VALUE);

  json_node_set_string (node, text);
  return json_to_string (node, FALSE);
}

/* Splits @text into words (keeping the spaces) so a stream has many deltas. */
static void
add_text_chunks (GString    *out,
                 const char *member,
                 const char *text)
{
  const char *p = text;

  while (*p != '\0')
    {
      const char *end = strchr (p + 1, ' ');
      g_autofree char *piece = end != NULL ? g_strndup (p, end - p) : g_strdup (p);
      g_autofree char *quoted = _viva_test_json_string (piece);
      g_autofree char *delta = g_strdup_printf ("{\"%s\":%s}", member, quoted);

      add_chunk (out, delta, "null");
      p = end != NULL ? end : p + strlen (p);
    }
}

/**
 * viva_test_response_new_chat_stream:
 * @content: (nullable): the answer
 * @reasoning: (nullable): reasoning sent before it
 * @tool_name: (nullable): a tool to call after the content
 * @tool_arguments: (nullable): its arguments as JSON text, sent in pieces
 *
 * A 200 `text/event-stream` reply in vLLM's shape: a role chunk,
 * reasoning and content a word a chunk, the tool call's id and name then
 * its arguments in fragments, a finish chunk, a usage chunk, `[DONE]`.
 */
VivaTestResponse *
viva_test_response_new_chat_stream (const char *content,
                                    const char *reasoning,
                                    const char *tool_name,
                                    const char *tool_arguments)
{
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GBytes) bytes = NULL;

  add_chunk (out, "{\"role\":\"assistant\",\"content\":\"\"}", "null");
  if (reasoning != NULL)
    add_text_chunks (out, "reasoning_content", reasoning);
  if (content != NULL)
    add_text_chunks (out, "content", content);

  if (tool_name != NULL)
    {
      g_autofree char *name = _viva_test_json_string (tool_name);
      g_autofree char *first = g_strdup_printf ("{\"tool_calls\":[{\"id\":\"chatcmpl-tool-1\",\"type\":\"function\","
                                                "\"index\":0,\"function\":{\"name\":%s,\"arguments\":\"\"}}]}",
                                                name);
      const char *arguments = tool_arguments != NULL ? tool_arguments : "{}";
      gsize length = strlen (arguments);

      add_chunk (out, first, "null");
      for (gsize i = 0, n; i < length; i += n)
        {
          g_autofree char *piece = NULL;
          g_autofree char *quoted = NULL;
          g_autofree char *delta = NULL;

          /* Eight bytes a fragment, never cutting a character in two. */
          for (n = MIN (8, length - i); i + n < length && (arguments[i + n] & 0xC0) == 0x80; n++)
            ;
          piece = g_strndup (arguments + i, n);
          quoted = _viva_test_json_string (piece);
          delta = g_strdup_printf ("{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":%s}}]}", quoted);

          add_chunk (out, delta, "null");
        }
    }

  add_chunk (out, "{}", tool_name != NULL ? "\"tool_calls\"" : "\"stop\"");
  g_string_append (out,
                   "data: {\"id\":\"chatcmpl-test\",\"object\":\"chat.completion.chunk\",\"created\":1730000000,"
                   "\"model\":\"test-model\",\"choices\":[],\"usage\":{\"prompt_tokens\":10,"
                   "\"total_tokens\":30,\"completion_tokens\":20}}\n\n"
                   "data: [DONE]\n\n");

  bytes = g_bytes_new (out->str, out->len);
  return viva_test_response_new (200, "text/event-stream", bytes);
}

VivaTestResponse *
viva_test_response_ref (VivaTestResponse *self)
{
  g_ref_count_inc (&self->ref_count);
  return self;
}

void
viva_test_response_unref (VivaTestResponse *self)
{
  if (!g_ref_count_dec (&self->ref_count))
    return;

  g_free (self->content_type);
  g_bytes_unref (self->body);
  g_ptr_array_unref (self->headers);
  g_array_unref (self->splits);
  g_free (self->piece);
  g_free (self->tail);
  g_free (self);
}

GBytes *
viva_test_response_get_body (VivaTestResponse *self)
{
  return self->body;
}

void
viva_test_response_add_header (VivaTestResponse *self,
                               const char       *name,
                               const char       *value)
{
  g_ptr_array_add (self->headers, g_strdup (name));
  g_ptr_array_add (self->headers, g_strdup (value));
}

/* Every @chunk_size bytes a chunk of its own (0: one chunk). */
void
viva_test_response_set_chunk_size (VivaTestResponse *self,
                                   gsize             chunk_size)
{
  self->chunk_size = chunk_size;
}

static int
compare_offsets (gconstpointer a,
                 gconstpointer b)
{
  gsize x = *(const gsize *)a;
  gsize y = *(const gsize *)b;

  return x < y ? -1 : x > y;
}

/* Chunks end exactly at these offsets (as well as at the chunk size). */
void
viva_test_response_set_split_points (VivaTestResponse *self,
                                     const gsize      *offsets,
                                     guint             n_offsets)
{
  g_array_set_size (self->splits, 0);
  g_array_append_vals (self->splits, offsets, n_offsets);
  g_array_sort (self->splits, compare_offsets);
}

/* Wait before sending the status and headers. */
void
viva_test_response_set_header_delay (VivaTestResponse *self,
                                     guint             delay_ms)
{
  self->header_delay = delay_ms;
}

/* Wait between chunks. */
void
viva_test_response_set_chunk_delay (VivaTestResponse *self,
                                    guint             delay_ms)
{
  self->chunk_delay = delay_ms;
}

/* Send @offset bytes, then nothing more, keeping the connection open. */
void
viva_test_response_set_stall_after (VivaTestResponse *self,
                                    gsize             offset)
{
  self->stall_after = offset;
}

/* Send @offset bytes, then close the connection without ending the body. */
void
viva_test_response_set_drop_after (VivaTestResponse *self,
                                   gsize             offset)
{
  self->drop_after = offset;
}

/**
 * viva_test_response_new_busy:
 * @status: 503 (Ollama's full queue, in its words) or 429 (a rate limit, in
 *   OpenAI's)
 * @retry_after_s: the Retry-After header, or 0 for none
 */
VivaTestResponse *
viva_test_response_new_busy (guint status,
                             guint retry_after_s)
{
  VivaTestResponse *self;

  if (status == 429)
    self = viva_test_response_new_json (429, "{\"error\":{\"message\":\"Rate limit reached for requests\","
                                             "\"type\":\"requests\",\"param\":null,\"code\":\"rate_limit_exceeded\"}}");
  else
    self = viva_test_response_new_json (status, "{\"error\":\"server busy, please try again.  "
                                                "maximum pending requests exceeded\"}");

  if (retry_after_s > 0)
    {
      g_autofree char *value = g_strdup_printf ("%u", retry_after_s);

      viva_test_response_add_header (self, "Retry-After", value);
    }

  return self;
}

/* Requests. */

void
_viva_test_request_free (VivaTestRequest *request)
{
  g_free (request->method);
  g_free (request->path);
  soup_message_headers_unref (request->headers);
  g_bytes_unref (request->body);
  g_free (request);
}

/* Returns: (transfer full): the body parsed; asserts it is JSON */
JsonNode *
viva_test_request_get_json (const VivaTestRequest *request)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_data (parser, g_bytes_get_data (request->body, NULL),
                              g_bytes_get_size (request->body), &error);
  g_assert_no_error (error);

  return json_node_copy (json_parser_get_root (parser));
}

const char *
viva_test_request_get_header (const VivaTestRequest *request,
                              const char            *name)
{
  return soup_message_headers_get_one (request->headers, name);
}

/**
 * viva_test_response_new_repeat:
 * @head: sent first
 * @piece: then this, @n_pieces times; "@N@" in it becomes its number
 *   (0, 1, 2…)
 * @n_pieces: how many; 0 for a body that never ends
 * @tail: (nullable): sent last
 *
 * A body made as it is sent, never held whole: a 400 MiB line or an
 * endless stream costs the server only the chunk in flight, and it stops
 * when the client closes the connection. With a chunk delay, each piece
 * is a chunk of its own, that long after the last.
 */
VivaTestResponse *
viva_test_response_new_repeat (guint       status,
                               const char *content_type,
                               const char *head,
                               const char *piece,
                               guint64     n_pieces,
                               const char *tail)
{
  VivaTestResponse *self = viva_test_response_new_text (status, content_type, head);

  g_assert_true (piece != NULL && piece[0] != '\0');
  self->piece = g_strdup (piece);
  self->n_pieces = n_pieces;
  self->tail = g_strdup (tail != NULL ? tail : "");

  return self;
}

/* One chunk of @wire around @delta (a JSON delta object; for Ollama's
 * native API, the message object). Each server's own extra members, as
 * recorded from them. */
static char *
wire_chunk (VivaTestWire  wire,
            const char   *delta)
{
  switch (wire)
    {
    case VIVA_TEST_WIRE_OPENAI:
      return g_strdup_printf ("data: {\"id\":\"chatcmpl-hostile\",\"object\":\"chat.completion.chunk\",\"created\":1730000000,"
                              "\"model\":\"gpt-4o-mini-2024-07-18\",\"service_tier\":\"default\",\"system_fingerprint\":\"fp_0\","
                              "\"choices\":[{\"index\":0,\"delta\":%s,\"logprobs\":null,\"finish_reason\":null}],\"obfuscation\":\"x\"}\n\n",
                              delta);
    case VIVA_TEST_WIRE_VLLM:
      return g_strdup_printf ("data: {\"id\":\"chatcmpl-hostile\",\"object\":\"chat.completion.chunk\",\"created\":1730000000,"
                              "\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":%s,\"logprobs\":null,\"finish_reason\":null}]}\n\n",
                              delta);
    case VIVA_TEST_WIRE_LLAMA_CPP:
      return g_strdup_printf ("data: {\"choices\":[{\"finish_reason\":null,\"index\":0,\"delta\":%s}],\"created\":1730000000,"
                              "\"id\":\"chatcmpl-hostile\",\"model\":\"m\",\"system_fingerprint\":\"b5000-0\","
                              "\"object\":\"chat.completion.chunk\"}\n\n",
                              delta);
    case VIVA_TEST_WIRE_OLLAMA_V1:
      return g_strdup_printf ("data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1730000000,"
                              "\"model\":\"m\",\"system_fingerprint\":\"fp_ollama\",\"choices\":[{\"index\":0,\"delta\":%s,"
                              "\"finish_reason\":null}]}\n\n",
                              delta);
    case VIVA_TEST_WIRE_OLLAMA_NATIVE:
    default:
      return g_strdup_printf ("{\"model\":\"m\",\"created_at\":\"2025-06-01T10:00:00.000000Z\",\"message\":%s,\"done\":false}\n",
                              delta);
    }
}

/* The text part of a content delta: up to where the text goes. */
static void
split_around (const char  *chunk,
              const char  *mark,
              char       **before,
              char       **after)
{
  const char *at = strstr (chunk, mark);

  g_assert_nonnull (at);
  *before = g_strndup (chunk, at - chunk);
  *after = g_strdup (at + strlen (mark));
}

static const char *
content_delta (VivaTestWire wire)
{
  return wire == VIVA_TEST_WIRE_OLLAMA_NATIVE ? "{\"role\":\"assistant\",\"content\":\"TEXT\"}" : "{\"content\":\"TEXT\"}";
}

/**
 * viva_test_response_new_hostile:
 *
 * A 200 reply of @wire that a model client must not follow to the end:
 * see #VivaTestHostile. Each is made as it is sent.
 */
VivaTestResponse *
viva_test_response_new_hostile (VivaTestHostile kind,
                                VivaTestWire    wire)
{
  gboolean native = wire == VIVA_TEST_WIRE_OLLAMA_NATIVE;
  const char *type = native ? "application/x-ndjson" : "text/event-stream";
  g_autofree char *chunk = wire_chunk (wire, content_delta (wire));
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *piece = NULL;
  g_autofree char *first = NULL;
  VivaTestResponse *self;

  split_around (chunk, "TEXT", &before, &after);
  first = g_strconcat (before, "Let me look at your code.", after, NULL);

  switch (kind)
    {
    case VIVA_TEST_HOSTILE_ENDLESS:
      piece = g_strconcat (before, "and again ", after, NULL);
      return viva_test_response_new_repeat (200, type, first, piece, 0, NULL);

    case VIVA_TEST_HOSTILE_KEEP_ALIVE:
      return viva_test_response_new_repeat (200, type, first, native ? "\n" : ": keep-alive\n\n", 0, NULL);

    case VIVA_TEST_HOSTILE_HUGE_LINE:
      {
        g_autofree char *fill = g_strnfill (4096, 'a');
        g_autofree char *end = g_strconcat (after, NULL);

        return viva_test_response_new_repeat (200, type, before, fill, 400 * 256, end);
      }

    case VIVA_TEST_HOSTILE_HUGE_TOTAL:
      {
        g_autofree char *fill = g_strnfill (16384, 'b');

        piece = g_strconcat (before, fill, after, NULL);
        return viva_test_response_new_repeat (200, type, first, piece, 64 * 1024, NULL);
      }

    case VIVA_TEST_HOSTILE_TOOL_CALLS:
      {
        g_autofree char *call = wire_chunk (wire, native
                                            ? "{\"role\":\"assistant\",\"content\":\"\",\"tool_calls\":[{\"function\":"
                                              "{\"name\":\"runPython\",\"arguments\":{\"code\":\"print(@N@)\"}}}]}"
                                            : "{\"tool_calls\":[{\"index\":@N@,\"id\":\"call_@N@\",\"type\":\"function\","
                                              "\"function\":{\"name\":\"runPython\",\"arguments\":\"{\\\"code\\\":\\\"print(@N@)\\\"}\"}}]}");
        g_autofree char *done = native
                                ? g_strdup ("{\"model\":\"m\",\"created_at\":\"2025-06-01T10:00:01Z\",\"message\":{\"role\":\"assistant\",\"content\":\"\"},\"done\":true,\"done_reason\":\"stop\"}\n")
                                : g_strdup ("data: [DONE]\n\n");

        return viva_test_response_new_repeat (200, type, first, call, 20000, done);
      }

    case VIVA_TEST_HOSTILE_TINY_DELTAS:
      piece = g_strconcat (before, "a", after, NULL);
      return viva_test_response_new_repeat (200, type, first, piece, 4 * 1000 * 1000,
                                            native ? "{\"model\":\"m\",\"done\":true}\n" : "data: [DONE]\n\n");

    case VIVA_TEST_HOSTILE_SLOW_DRIP:
      piece = g_strconcat (before, ".", after, NULL);
      self = viva_test_response_new_repeat (200, type, first, piece, 0, NULL);
      viva_test_response_set_chunk_delay (self, 50);
      return self;

    case VIVA_TEST_HOSTILE_MALFORMED:
      return viva_test_response_new_text (200, type, native ? "{\"model\":\"m\",\"message\":{\"content\":\"hi\"\n"
                                                            : "data: {\"choices\":[{\"delta\":{\"content\":\"hi\"\n\n");

    case VIVA_TEST_HOSTILE_WRONG_TYPE:
    default:
      return viva_test_response_new_repeat (200, "text/html", "<!doctype html><html><body>",
                                            "<p>Welcome to the captive portal</p>\n", 400 * 1024 * 1024 / 38, "</body></html>");
    }
}

/* Where a client of @wire posts a chat. */
const char *
viva_test_wire_get_chat_path (VivaTestWire wire)
{
  return wire == VIVA_TEST_WIRE_OLLAMA_NATIVE ? "/api/chat" : "/v1/chat/completions";
}

/* What @wire's server answers besides chats: Ollama's version and tags
 * (so a client detects it), or a plain model list. */
void
viva_test_server_serve_wire (VivaTestServer *self,
                             VivaTestWire    wire)
{
  const char *models[] = { "m", NULL };

  if (wire == VIVA_TEST_WIRE_OLLAMA_NATIVE || wire == VIVA_TEST_WIRE_OLLAMA_V1)
    viva_test_server_serve_ollama (self, "0.12.6", models);
  else
    viva_test_server_serve_models (self, models);
}

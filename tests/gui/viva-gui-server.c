/* viva-gui-server.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-test-examiner.h"
#include "viva-test-server.h"

/* A stand-in for Ollama on 127.0.0.1 for the GUI tests: it answers
 * /api/version, /api/tags, /v1/models and the warm-up /api/generate like
 * Ollama does, and replays a scripted defense on /api/chat as Ollama's
 * native NDJSON stream, a chunk a line. It prints its base URL on the
 * first line of standard output and serves until SIGTERM or until its
 * standard input closes.
 *
 *   viva-gui-server --script defense --code FILE [--fail-first STATUS]
 *   viva-gui-server --script long --tokens 20000
 *   viva-gui-server --script check
 *   viva-gui-server --script lab          (any number of defenses at once, instant)
 *
 * --fail-first answers the first chat request with that HTTP status;
 * --slow-load MS makes the model slow to load: the warm-up request and the
 * first chat reply wait that long before answering; --busy-first N answers
 * the first N chat requests as Ollama does when its queue is full (503),
 * with Retry-After: --retry-after S when given. */

#define MODEL "qwen2.5:7b"

typedef struct
{
  GString *body;
  GArray  *splits;
} Ndjson;

static void
ndjson_line (Ndjson     *out,
             JsonObject *message,
             gboolean    done)
{
  g_autoptr(JsonObject) object = json_object_new ();
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autofree char *line = NULL;
  gsize end;

  json_object_set_string_member (object, "model", MODEL);
  json_object_set_string_member (object, "created_at", "2026-11-30T10:00:00.000000Z");
  json_object_set_object_member (object, "message", json_object_ref (message));
  json_object_set_boolean_member (object, "done", done);
  if (done)
    {
      json_object_set_string_member (object, "done_reason", "stop");
      json_object_set_int_member (object, "prompt_eval_count", 900);
      json_object_set_int_member (object, "eval_count", 120);
    }

  json_node_set_object (node, object);
  line = json_to_string (node, FALSE);
  g_string_append (out->body, line);
  g_string_append_c (out->body, '\n');
  end = out->body->len;
  g_array_append_val (out->splits, end);
}

static JsonObject *
message_new (const char *field,
             const char *text)
{
  JsonObject *message = json_object_new ();

  json_object_set_string_member (message, "role", "assistant");
  json_object_set_string_member (message, "content", "");
  if (field != NULL)
    json_object_set_string_member (message, field, text);

  return message;
}

/* Text a few characters a line, the way a model streams tokens. */
static void
ndjson_text (Ndjson     *out,
             const char *field,
             const char *text)
{
  const char *p = text;

  while (p != NULL && *p != '\0')
    {
      const char *end = p;
      g_autofree char *piece = NULL;
      g_autoptr(JsonObject) message = NULL;

      /* A word and the space after it. */
      while (*end != '\0' && *end != ' ' && *end != '\n')
        end = g_utf8_next_char (end);
      while (*end == ' ' || *end == '\n')
        end++;

      piece = g_strndup (p, end - p);
      message = message_new (field, piece);
      ndjson_line (out, message, FALSE);
      p = end;
    }
}

static VivaTestResponse *
reply_new (const char *thinking,
           const char *content,
           const char *tool,
           JsonObject *arguments,
           guint       chunk_delay_ms)
{
  Ndjson out = { g_string_new (NULL), g_array_new (FALSE, FALSE, sizeof (gsize)) };
  g_autoptr(JsonObject) last = message_new (NULL, NULL);
  g_autoptr(GBytes) bytes = NULL;
  VivaTestResponse *response;

  if (thinking != NULL)
    ndjson_text (&out, "thinking", thinking);
  if (content != NULL)
    ndjson_text (&out, "content", content);

  if (tool != NULL)
    {
      g_autoptr(JsonObject) message = message_new (NULL, NULL);
      JsonArray *calls = json_array_new ();
      JsonObject *call = json_object_new ();
      JsonObject *function = json_object_new ();

      json_object_set_string_member (function, "name", tool);
      json_object_set_object_member (function, "arguments",
                                     arguments ? json_object_ref (arguments) : json_object_new ());
      json_object_set_object_member (call, "function", function);
      json_array_add_object_element (calls, call);
      json_object_set_array_member (message, "tool_calls", calls);
      ndjson_line (&out, message, FALSE);
    }

  ndjson_line (&out, last, TRUE);

  bytes = g_string_free_to_bytes (out.body);
  response = viva_test_response_new (200, "application/x-ndjson", bytes);
  viva_test_response_set_split_points (response, (const gsize *)(gpointer)out.splits->data, out.splits->len);
  viva_test_response_set_chunk_delay (response, chunk_delay_ms);
  g_array_unref (out.splits);

  return response;
}

static JsonObject *
code_arguments (const char *code)
{
  JsonObject *arguments = json_object_new ();

  json_object_set_string_member (arguments, "code", code);

  return arguments;
}

static void
queue_reply (VivaTestServer   *server,
             VivaTestResponse *response)
{
  viva_test_server_queue (server, "POST", "/api/chat", response);
  viva_test_response_unref (response);
}

static void
script_defense (VivaTestServer *server,
                const char     *code)
{
  g_autofree char *run = g_strconcat (code,
                                      "\n\npts = [(0, 0), (0, 1), (10, 10), (10, 11)]\n"
                                      "print(kmeans(pts, 2))\n", NULL);
  g_autoptr(JsonObject) read = json_object_new ();
  g_autoptr(JsonObject) run_args = code_arguments (run);
  g_autoptr(JsonObject) probe = code_arguments ("pts = [(0, 0), (5, 5), (9, 9)]\n"
                                                "centroids, labels = kmeans(pts, 3)\n"
                                                "assert sorted(labels) == [0, 1, 2], labels\n"
                                                "print('k = n:', labels)\n");
  g_autoptr(JsonObject) ask = json_object_new ();
  g_autoptr(JsonObject) predict = json_object_new ();
  g_autoptr(JsonObject) finish = json_object_new ();
  JsonArray *evidence = json_array_new ();

  json_object_set_string_member (ask, "question",
                                 "Why can k-means give different clusters from different starting centroids, and how would you make it more reliable?");
  json_object_set_string_member (predict, "item", "P1");
  json_object_set_string_member (predict, "question", "What does this call return on your code?");
  json_object_set_string_member (finish, "verdict", "pass");
  json_object_set_int_member (finish, "score", 85);
  json_object_set_string_member (finish, "comment",
                                 "Your assignment and update steps are **correct**, and the edge case with `k` equal to the number of points passed. "
                                 "Your answer names local minima; mention *k-means++* seeding next time.");
  json_array_add_string_element (evidence, "S2");
  json_array_add_string_element (evidence, "S3");
  json_array_add_string_element (evidence, "S4");
  json_object_set_array_member (finish, "evidence", evidence);

  /* Too early: the engine refuses, and the panel says so in a muted note. */
  queue_reply (server, reply_new (NULL, "This looks fine.", "finishDefense", finish, 15));
  queue_reply (server, reply_new ("The student submitted k-means. I must read the code first.",
                                  "Hello! I will start by **reading your code**.", "readStudentCode", read, 15));
  queue_reply (server, reply_new (NULL,
                                  "Your `kmeans` alternates the two steps. Let me run it on the example from the problem.",
                                  "runPython", run_args, 15));
  queue_reply (server, reply_new ("An edge case: k equals the number of points; each point is its own cluster.",
                                  "It ran. Now an edge case:\n\n- three points\n- `k = 3`, so every point is its own cluster",
                                  "injectTestCase", probe, 15));
  queue_reply (server, reply_new (NULL, "The test passed.", "askStudent", ask, 15));
  /* The bundled pack's plan asks a prediction too before a verdict. */
  queue_reply (server, reply_new (NULL, "One more, about your own code.", "askStudent", predict, 15));
  queue_reply (server, reply_new (NULL, "Thank you for your answers.", "finishDefense", finish, 15));
  /* The engine scores the answer three times against the question's points. */
  for (guint i = 0; i < 3; i++)
    queue_reply (server, reply_new (NULL, "{\"score\": 2, \"evidence\": \"local minimum\"}", NULL, NULL, 15));
  queue_reply (server, reply_new (NULL,
                                  "You lost points for not mentioning **k-means++**: it spreads the first centroids apart, so runs agree more often.",
                                  NULL, NULL, 15));
}

static void
script_long (VivaTestServer *server,
             guint           tokens,
             guint           slow_load)
{
  static const char * const words[] = {
    "The ", "centroid ", "update ", "moves ", "each ", "centre ", "to ", "the ", "mean ", "of ",
    "its ", "points; ", "the ", "assignment ", "step ", "picks ", "the ", "nearest ", "`centroid` ",
    "by ", "**squared** ", "distance. ",
  };
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < tokens; i++)
    {
      g_string_append (text, words[i % G_N_ELEMENTS (words)]);
      if (i % 60 == 59)
        g_string_append (text, "\n\n");
      if (i % 400 == 399)
        g_string_append (text, "```python\ndef nearest(p, cs):\n    return min(range(len(cs)), key=lambda c: d(p, cs[c]))\n```\n\n");
    }

  /* About a millisecond a token: twenty seconds for the whole reply. */
  {
    VivaTestResponse *response = reply_new ("A long explanation first.", text->str, NULL, NULL, 1);

    if (slow_load > 0)
      viva_test_response_set_header_delay (response, slow_load);
    queue_reply (server, response);
  }
}

/* What Preferences' "Check This Model" asks: a streamed answer, then a
 * call of the tool it offers. */
static void
script_check (VivaTestServer *server)
{
  g_autoptr(JsonObject) arguments = json_object_new ();

  json_object_set_int_member (arguments, "answer", 42);
  queue_reply (server, reply_new (NULL, "one two three four five six seven eight nine ten", NULL, NULL, 5));
  queue_reply (server, reply_new (NULL, NULL, "recordAnswer", arguments, 5));
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *script = NULL;
  g_autofree char *code_path = NULL;
  g_autofree char *code = NULL;
  int tokens = 20000;
  int fail_first = 0;
  int slow_load = 0;
  int busy_first = 0;
  int retry_after = 0;
  const GOptionEntry entries[] = {
    { "script", 0, 0, G_OPTION_ARG_STRING, &script, "defense or long", "NAME" },
    { "code", 0, 0, G_OPTION_ARG_FILENAME, &code_path, "the student's code, for runPython", "FILE" },
    { "tokens", 0, 0, G_OPTION_ARG_INT, &tokens, "tokens of the long reply", "N" },
    { "fail-first", 0, 0, G_OPTION_ARG_INT, &fail_first, "HTTP status of the first chat reply", "STATUS" },
    { "slow-load", 0, 0, G_OPTION_ARG_INT, &slow_load, "milliseconds the model takes to load", "MS" },
    { "busy-first", 0, 0, G_OPTION_ARG_INT, &busy_first, "chat requests answered 503, queue full", "N" },
    { "retry-after", 0, 0, G_OPTION_ARG_INT, &retry_after, "the busy answers' Retry-After", "S" },
    { NULL }
  };
  static const char * const models[] = { MODEL, NULL };
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(VivaTestServer) server = NULL;
  g_autoptr(VivaTestResponse) generate = NULL;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }

  server = viva_test_server_new ();
  viva_test_server_serve_ollama (server, "0.6.0", models);
  generate = viva_test_response_new_json (200, "{\"model\":\"" MODEL "\",\"response\":\"\",\"done\":true,\"done_reason\":\"load\"}");
  if (slow_load > 0)
    viva_test_response_set_header_delay (generate, slow_load);
  viva_test_server_set_default (server, "POST", "/api/generate", generate);

  if (fail_first > 0)
    {
      g_autoptr(VivaTestResponse) failure = viva_test_response_new_json (fail_first, "{\"error\":\"unauthorized\"}");
      viva_test_server_queue (server, "POST", "/api/chat", failure);
    }

  for (int i = 0; i < busy_first; i++)
    {
      g_autoptr(VivaTestResponse) busy = viva_test_response_new_busy (503, (guint)MAX (retry_after, 0));

      viva_test_server_queue (server, "POST", "/api/chat", busy);
    }

  if (g_strcmp0 (script, "long") == 0)
    script_long (server, MAX (tokens, 1), MAX (slow_load, 0));
  else if (g_strcmp0 (script, "check") == 0)
    script_check (server);
  else if (g_strcmp0 (script, "lab") == 0)
    {
      static VivaTestExaminer examiner = { .ollama = TRUE };

      viva_test_examiner_serve (&examiner, server);
    }
  else
    {
      if (code_path == NULL || !g_file_get_contents (code_path, &code, NULL, &error))
        {
          g_printerr ("--script defense needs --code FILE: %s\n", error ? error->message : "missing");
          return 2;
        }
      script_defense (server, code);
    }

  viva_test_server_serve_until_stdin_closes (server);

  return 0;
}

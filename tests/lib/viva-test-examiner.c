/* viva-test-examiner.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "viva-test-examiner.h"

/* The protocol as a model would play it: read the code, run it, one
 * structured probe (setup, call, check) that holds for any code, as the
 * prompt asks for, each question the engine planned in turn with its item
 * (one unplanned question when there is no plan), the verdict citing the
 * probe and the last answer. Which reply comes next is counted from
 * the tool results in the request, so any number of defenses share one
 * server, each at its own step. */

static const char *
step_of (JsonObject *message)
{
  const char *content = json_object_get_string_member_with_default (message, "content", NULL);
  g_autoptr(JsonNode) node = content != NULL ? json_from_string (content, NULL) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;

  return g_intern_string (json_object_get_string_member_with_default (json_node_get_object (node), "step", ""));
}

static void
sse_chunk (GString    *out,
           const char *delta)
{
  g_string_append_printf (out,
                          "data: {\"id\":\"chatcmpl-lab\",\"object\":\"chat.completion.chunk\",\"created\":1764500000,"
                          "\"model\":\"lab-model\",\"choices\":[{\"index\":0,\"delta\":%s,\"logprobs\":null,"
                          "\"finish_reason\":null}]}\n\n", delta);
}

static char *
quoted (const char *text)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_VALUE);

  json_node_set_string (node, text);
  return json_to_string (node, FALSE);
}

/* A reply in vLLM's stream: content a word a chunk, then the tool call. */
static VivaTestResponse *
sse_reply (const char *content,
           const char *tool,
           const char *arguments)
{
  g_autoptr(GString) out = g_string_new (NULL);
  g_auto(GStrv) words = g_strsplit (content, " ", -1);
  g_autoptr(GArray) splits = g_array_new (FALSE, FALSE, sizeof (gsize));
  g_autofree char *name = quoted (tool);
  g_autofree char *args = quoted (arguments);
  g_autofree char *call = NULL;
  g_autoptr(GBytes) bytes = NULL;
  VivaTestResponse *response;
  guint n_words = g_strv_length (words);

  sse_chunk (out, "{\"role\":\"assistant\",\"content\":\"\"}");
  g_array_append_val (splits, out->len);
  for (guint i = 0; words[i] != NULL; i++)
    {
      g_autofree char *piece = g_strconcat (words[i], words[i + 1] != NULL ? " " : "", NULL);
      g_autofree char *text = quoted (piece);
      g_autofree char *delta = g_strdup_printf ("{\"content\":%s}", text);

      sse_chunk (out, delta);
      g_array_append_val (splits, out->len);
    }

  call = g_strdup_printf ("{\"tool_calls\":[{\"id\":\"call-%s\",\"type\":\"function\",\"index\":0,"
                          "\"function\":{\"name\":%s,\"arguments\":%s}}]}", tool, name, args);
  sse_chunk (out, call);
  g_string_append_printf (out,
                          "data: {\"id\":\"chatcmpl-lab\",\"object\":\"chat.completion.chunk\",\"created\":1764500000,"
                          "\"model\":\"lab-model\",\"choices\":[{\"index\":0,\"delta\":{},\"logprobs\":null,"
                          "\"finish_reason\":\"tool_calls\"}]}\n\n"
                          "data: {\"id\":\"chatcmpl-lab\",\"object\":\"chat.completion.chunk\",\"created\":1764500000,"
                          "\"model\":\"lab-model\",\"choices\":[],\"usage\":{\"prompt_tokens\":2400,"
                          "\"total_tokens\":%u,\"completion_tokens\":%u}}\n\n"
                          "data: [DONE]\n\n", 2400 + n_words + 20, n_words + 20);
  g_array_append_val (splits, out->len);

  bytes = g_bytes_new (out->str, out->len);
  response = viva_test_response_new (200, "text/event-stream", bytes);
  viva_test_response_set_split_points (response, (const gsize *)(gpointer)splits->data, splits->len);
  return response;
}

/* The same reply in Ollama's native NDJSON. */
static VivaTestResponse *
ndjson_reply (const char *content,
              const char *tool,
              const char *arguments)
{
  g_autoptr(GString) out = g_string_new (NULL);
  g_auto(GStrv) words = g_strsplit (content, " ", -1);
  g_autoptr(GArray) splits = g_array_new (FALSE, FALSE, sizeof (gsize));
  g_autofree char *name = quoted (tool);
  g_autoptr(GBytes) bytes = NULL;
  VivaTestResponse *response;

  for (guint i = 0; words[i] != NULL; i++)
    {
      g_autofree char *piece = g_strconcat (words[i], words[i + 1] != NULL ? " " : "", NULL);
      g_autofree char *text = quoted (piece);

      g_string_append_printf (out, "{\"model\":\"lab-model\",\"created_at\":\"2026-11-30T10:00:00Z\","
                                   "\"message\":{\"role\":\"assistant\",\"content\":%s},\"done\":false}\n", text);
      g_array_append_val (splits, out->len);
    }
  g_string_append_printf (out, "{\"model\":\"lab-model\",\"created_at\":\"2026-11-30T10:00:00Z\","
                               "\"message\":{\"role\":\"assistant\",\"content\":\"\",\"tool_calls\":[{\"function\":"
                               "{\"name\":%s,\"arguments\":%s}}]},\"done\":false}\n", name, arguments);
  g_string_append_printf (out, "{\"model\":\"lab-model\",\"created_at\":\"2026-11-30T10:00:00Z\","
                               "\"message\":{\"role\":\"assistant\",\"content\":\"\"},\"done\":true,"
                               "\"done_reason\":\"stop\",\"prompt_eval_count\":2400,\"eval_count\":%u}\n",
                          g_strv_length (words) + 20);
  g_array_append_val (splits, out->len);

  bytes = g_bytes_new (out->str, out->len);
  response = viva_test_response_new (200, "application/x-ndjson", bytes);
  viva_test_response_set_split_points (response, (const gsize *)(gpointer)splits->data, splits->len);
  return response;
}

/* A scorer's reply, in either stream, with no tool call. */
static VivaTestResponse *
score_reply (gboolean ollama)
{
  static const char sse[] =
    "data: {\"id\":\"chatcmpl-lab\",\"object\":\"chat.completion.chunk\",\"created\":1764500000,"
    "\"model\":\"lab-model\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\","
    "\"content\":\"{\\\"score\\\": 1, \\\"evidence\\\": \\\"\\\"}\"},\"finish_reason\":null}]}\n\n"
    "data: {\"id\":\"chatcmpl-lab\",\"object\":\"chat.completion.chunk\",\"created\":1764500000,"
    "\"model\":\"lab-model\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"
    "data: [DONE]\n\n";
  static const char ndjson[] =
    "{\"model\":\"lab-model\",\"created_at\":\"2026-11-30T10:00:00Z\",\"message\":{\"role\":\"assistant\","
    "\"content\":\"{\\\"score\\\": 1, \\\"evidence\\\": \\\"\\\"}\"},\"done\":false}\n"
    "{\"model\":\"lab-model\",\"created_at\":\"2026-11-30T10:00:00Z\",\"message\":{\"role\":\"assistant\","
    "\"content\":\"\"},\"done\":true,\"done_reason\":\"stop\",\"prompt_eval_count\":300,\"eval_count\":12}\n";
  g_autoptr(GBytes) bytes = ollama ? g_bytes_new_static (ndjson, sizeof ndjson - 1)
                                   : g_bytes_new_static (sse, sizeof sse - 1);

  return viva_test_response_new (200, ollama ? "application/x-ndjson" : "text/event-stream", bytes);
}

/**
 * viva_test_examiner_respond: (skip)
 *
 * A #VivaTestResponder; @user_data is a #VivaTestExaminer.
 */
VivaTestResponse *
viva_test_examiner_respond (VivaTestServer        *server,
                            const VivaTestRequest *request,
                            gpointer               user_data)
{
  VivaTestExaminer *examiner = user_data;
  g_autoptr(JsonNode) body = viva_test_request_get_json (request);
  JsonArray *messages = json_object_get_array_member (json_node_get_object (body), "messages");
  g_autoptr(GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) asked = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(JsonNode) plan_node = NULL;
  JsonArray *plan = NULL;
  JsonObject *next = NULL;
  const char *probe_step = NULL;
  const char *ask_step = NULL;
  guint n_read = 0, n_run = 0, n_asked = 0, n_refused = 0;
  VivaTestResponse *response;
  g_autofree char *finish = NULL;
  g_autofree char *ask = NULL;
  g_autofree char *run = NULL;
  guint step;

  examiner->n_chat++;

  /* A scoring request of a conceptual answer: one point made. */
  if (json_array_get_length (messages) > 0 &&
      g_str_has_prefix (json_object_get_string_member_with_default (json_array_get_object_element (messages, 0),
                                                                    "content", ""),
                        "You score one answer"))
    return score_reply (examiner->ollama);
  if (examiner->fail_after > 0 && examiner->n_chat >= examiner->fail_after)
    return viva_test_response_new_json (500, "{\"error\":{\"message\":\"CUDA error: out of memory\","
                                             "\"type\":\"InternalServerError\",\"code\":500}}");

  for (guint i = 0; i < json_array_get_length (messages); i++)
    {
      JsonObject *message = json_array_get_object_element (messages, i);
      const char *role = json_object_get_string_member_with_default (message, "role", "");
      JsonArray *calls = json_object_has_member (message, "tool_calls")
                       ? json_object_get_array_member (message, "tool_calls") : NULL;

      for (guint j = 0; calls != NULL && j < json_array_get_length (calls); j++)
        {
          JsonObject *call = json_array_get_object_element (calls, j);
          JsonObject *function = json_object_get_object_member (call, "function");

          g_hash_table_insert (names,
                               (gpointer)json_object_get_string_member_with_default (call, "id", ""),
                               (gpointer)json_object_get_string_member_with_default (function, "name", ""));
        }

      if (g_str_equal (role, "tool"))
        {
          const char *id = json_object_get_string_member_with_default (message, "tool_call_id", "");
          const char *name = json_object_get_string_member_with_default (message, "tool_name", NULL);
          const char *content = json_object_get_string_member_with_default (message, "content", "");
          g_autoptr(JsonNode) node = json_from_string (content, NULL);
          JsonObject *result = node && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;

          if (name == NULL)
            name = g_hash_table_lookup (names, id);
          if (result != NULL && json_object_get_boolean_member_with_default (result, "refused", FALSE))
            {
              n_refused++;
              continue;
            }
          if (g_strcmp0 (name, "readStudentCode") == 0)
            {
              const char *planned = result ? json_object_get_string_member_with_default (result, "planned_questions", NULL) : NULL;
              const char *open = planned ? strstr (planned, "```json\n") : NULL;
              const char *close = open ? strstr (open + 8, "\n```") : NULL;

              n_read++;
              /* The engine's plan, as a model reads it at the end of the code's result. */
              if (close != NULL)
                {
                  g_autofree char *json = g_strndup (open + 8, close - (open + 8));

                  g_clear_pointer (&plan_node, json_node_unref);
                  if ((plan_node = json_from_string (json, NULL)) && JSON_NODE_HOLDS_ARRAY (plan_node))
                    plan = json_node_get_array (plan_node);
                }
            }
          else if (g_strcmp0 (name, "runPython") == 0)
            n_run++;
          else if (g_strcmp0 (name, "injectTestCase") == 0)
            probe_step = step_of (message);
          else if (g_strcmp0 (name, "askStudent") == 0)
            {
              ask_step = step_of (message);
              n_asked++;
              if (result != NULL && json_object_has_member (result, "item"))
                g_hash_table_add (asked, g_strdup (json_object_get_string_member (result, "item")));
            }
        }
    }

  /* Each planned question in turn, as the exam system asked. */
  for (guint i = 0; plan != NULL && i < json_array_get_length (plan) && next == NULL; i++)
    if (!g_hash_table_contains (asked, json_object_get_string_member (json_array_get_object_element (plan, i), "item")))
      next = json_array_get_object_element (plan, i);

  finish = g_strdup_printf ("{\"verdict\":\"pass\",\"score\":80,\"comment\":\"The code does what the problem asks, "
                            "and the answer explains why.\",\"evidence\":[\"%s\",\"%s\"]}",
                            probe_step != NULL ? probe_step : "S3", ask_step != NULL ? ask_step : "S4");

  if (n_read == 0)
    step = 0;
  else if (n_run == 0 || (examiner->runs != NULL && examiner->runs[n_run] != NULL))
    step = 1;
  else if (probe_step == NULL)
    step = 2;
  /* A model in a hurry: the verdict after the first question, before the
   * plan is asked whole (the engine refuses it once). */
  else if (examiner->finishes_early && n_asked == 1 && next != NULL && n_refused == 0)
    step = 4;
  else if (next != NULL || n_asked == 0)
    step = 3;
  else
    step = 4;

  if (step == 3)
    {
      g_autoptr(JsonObject) arguments = json_object_new ();
      g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
      gboolean prediction = next != NULL &&
                            g_strcmp0 (json_object_get_string_member (next, "kind"), "prediction") == 0;

      if (examiner->asks_several && n_refused == 0)
        /* Two questions in one: the engine sends it back to ask one. */
        json_object_set_string_member (arguments, "question",
                                       "Why does your loop stop where it does? And what happens with an empty input?");
      else
        json_object_set_string_member (arguments, "question",
                                       prediction ? "What does this call return on your code?"
                                                  : "Why does your loop stop where it does, and what happens with an empty input?");
      if (next != NULL)
        json_object_set_string_member (arguments, "item", json_object_get_string_member (next, "item"));
      json_node_set_object (node, arguments);
      ask = json_to_string (node, FALSE);
    }

  if (step == 1 && examiner->runs != NULL && examiner->runs[n_run] != NULL)
    {
      g_autoptr(JsonObject) arguments = json_object_new ();
      g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);

      json_object_set_string_member (arguments, "code", examiner->runs[n_run]);
      json_node_set_object (node, arguments);
      run = json_to_string (node, FALSE);
    }

  {
    static const char * const contents[] = {
      "Hello! I will start by reading your code.",
      "Your function looks complete. Let me run it once to see what it prints.",
      "It ran without an error. Now a small test of my own.",
      "The test passed. One question about your approach.",
      "Thank you for your answer; that is all I need.",
    };
    static const char * const tools[] = {
      "readStudentCode", "runPython", "injectTestCase", "askStudent", "finishDefense",
    };
    const char *arguments[] = {
      "{}",
      run != NULL ? run : "{\"code\":\"print('ran')\"}",
      "{\"name\":\"a probe that holds for any code\",\"setup\":\"a = 1\",\"call\":\"a + 1\",\"check\":\"assert result == 2\"}",
      ask,
      finish,
    };

    response = examiner->ollama ? ndjson_reply (contents[step], tools[step], arguments[step])
                                : sse_reply (contents[step], tools[step], arguments[step]);
  }

  viva_test_response_set_header_delay (response, examiner->first_token_ms);
  viva_test_response_set_chunk_delay (response, examiner->token_ms);
  return response;
}

/* Serves @examiner's defenses on @server's chat path (and its model list). */
void
viva_test_examiner_serve (VivaTestExaminer *examiner,
                          VivaTestServer   *server)
{
  static const char * const models[] = { "lab-model", NULL };

  if (examiner->ollama)
    {
      viva_test_server_serve_ollama (server, "0.6.2", models);
      viva_test_server_set_responder (server, "POST", "/api/chat", viva_test_examiner_respond, examiner);
    }
  else
    {
      viva_test_server_serve_models (server, models);
      viva_test_server_set_responder (server, "POST", "/v1/chat/completions", viva_test_examiner_respond,
                                      examiner);
    }
}

/* exam-test-common.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "exam-test-common.h"

static guint reply_counter;

/* Appends one `chat.completion.chunk` event whose delta is @delta. */
static void
add_chunk (GString    *out,
           JsonNode   *delta,
           const char *finish_reason)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "id");
  json_builder_add_string_value (builder, "chatcmpl-exam");
  json_builder_set_member_name (builder, "object");
  json_builder_add_string_value (builder, "chat.completion.chunk");
  json_builder_set_member_name (builder, "created");
  json_builder_add_int_value (builder, 1730000000);
  json_builder_set_member_name (builder, "model");
  json_builder_add_string_value (builder, "test-model");
  json_builder_set_member_name (builder, "choices");
  json_builder_begin_array (builder);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "index");
  json_builder_add_int_value (builder, 0);
  json_builder_set_member_name (builder, "delta");
  json_builder_add_value (builder, delta);
  json_builder_set_member_name (builder, "finish_reason");
  if (finish_reason)
    json_builder_add_string_value (builder, finish_reason);
  else
    json_builder_add_null_value (builder);
  json_builder_end_object (builder);
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  text = json_to_string (root, FALSE);
  g_string_append_printf (out, "data: %s\n\n", text);
}

static JsonNode *
delta_text (const char *member,
            const char *value)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, member);
  json_builder_add_string_value (builder, value);
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

static JsonNode *
delta_call (guint       index,
            const char *id,
            const char *name,
            const char *arguments)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "tool_calls");
  json_builder_begin_array (builder);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "index");
  json_builder_add_int_value (builder, index);
  if (id != NULL)
    {
      json_builder_set_member_name (builder, "id");
      json_builder_add_string_value (builder, id);
      json_builder_set_member_name (builder, "type");
      json_builder_add_string_value (builder, "function");
    }
  json_builder_set_member_name (builder, "function");
  json_builder_begin_object (builder);
  if (name != NULL)
    {
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, name);
    }
  json_builder_set_member_name (builder, "arguments");
  json_builder_add_string_value (builder, arguments);
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

/* A reply in OpenAI's streaming shape: the content in two chunks, then each
 * tool call (an id unique to the call) with its arguments in pieces. */
VivaTestResponse *
exam_reply_new (const char     *content,
                const ExamCall *calls,
                guint           n_calls)
{
  g_autoptr(GString) out = g_string_new (NULL);
  guint reply = ++reply_counter;

  add_chunk (out, delta_text ("role", "assistant"), NULL);

  if (content != NULL)
    {
      gsize half = strlen (content) / 2;
      g_autofree char *first = g_strndup (content, half);

      add_chunk (out, delta_text ("content", first), NULL);
      add_chunk (out, delta_text ("content", content + half), NULL);
    }

  for (guint i = 0; i < n_calls; i++)
    {
      g_autofree char *id = g_strdup_printf ("call_%u_%u", reply, i);
      const char *arguments = calls[i].arguments;
      gsize length = strlen (arguments);

      add_chunk (out, delta_call (i, id, calls[i].name, ""), NULL);
      for (gsize at = 0; at < length; at += 7)
        {
          g_autofree char *piece = g_strndup (arguments + at, MIN (7, length - at));

          add_chunk (out, delta_call (i, NULL, NULL, piece), NULL);
        }
    }

  add_chunk (out, json_from_string ("{}", NULL), n_calls > 0 ? "tool_calls" : "stop");
  g_string_append (out, "data: [DONE]\n\n");

  return viva_test_response_new_text (200, "text/event-stream", out->str);
}

void
exam_queue_calls (VivaTestServer *server,
                  const char     *content,
                  const ExamCall *calls,
                  guint           n_calls)
{
  g_autoptr(VivaTestResponse) response = exam_reply_new (content, calls, n_calls);

  viva_test_server_queue (server, "POST", "/v1/chat/completions", response);
}

void
exam_queue_reply (VivaTestServer *server,
                  const char     *content,
                  const char     *name,
                  const char     *arguments)
{
  ExamCall call = { name, arguments };

  exam_queue_calls (server, content, name ? &call : NULL, name ? 1 : 0);
}

/* A small problem with a reference, one hidden test and a question. */
VivaProblem *
exam_problem_new (void)
{
  VivaProblem *problem = viva_problem_new ("add", "Add two numbers");
  const char *points[] = { "the + operator", NULL };

  viva_problem_set_description (problem, "Write `add(a, b)` returning the sum.");
  viva_problem_set_starter_code (problem, "def add(a, b):\n    pass\n");
  viva_problem_set_hint (problem, "Python has an operator for that.");
  viva_problem_set_rubric (problem, "Correct sums; can explain the operator.");
  viva_problem_set_reference (problem, "def add(a, b):\n    return a + b\n");
  viva_problem_add_structured_test (problem, "small numbers", "", "add(2, 3)", "assert result == 5\n", FALSE, 0);
  viva_problem_add_question (problem, "Why does add work for strings too?", points);

  return problem;
}

/* What a strict OpenAI server checks: every assistant tool call is answered
 * by exactly one tool message quoting its id, right after it and in order;
 * no tool message answers anything else. */
void
exam_assert_valid_for_strict_openai (VivaTestServer *server)
{
  guint n = viva_test_server_count_requests (server, "POST", "/v1/chat/completions");

  g_assert_cmpuint (n, >, 0);

  for (guint r = 0; r < n; r++)
    {
      const VivaTestRequest *request = viva_test_server_find_request (server, "POST", "/v1/chat/completions", r);
      g_autoptr(JsonNode) body = viva_test_request_get_json (request);
      JsonArray *messages = json_object_get_array_member (json_node_get_object (body), "messages");
      guint length = json_array_get_length (messages);

      g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (messages, 0), "role"), ==, "system");

      for (guint i = 0; i < length; i++)
        {
          JsonObject *message = json_array_get_object_element (messages, i);
          const char *role = json_object_get_string_member (message, "role");
          JsonArray *calls;

          /* A tool message must belong to the assistant message before it. */
          if (g_str_equal (role, "tool"))
            g_assert_not_reached ();

          if (!g_str_equal (role, "assistant") || !json_object_has_member (message, "tool_calls"))
            continue;

          calls = json_object_get_array_member (message, "tool_calls");
          for (guint c = 0; c < json_array_get_length (calls); c++)
            {
              JsonObject *call = json_array_get_object_element (calls, c);
              JsonObject *answer;

              g_assert_cmpuint (i + 1, <, length);
              answer = json_array_get_object_element (messages, ++i);
              g_assert_cmpstr (json_object_get_string_member (answer, "role"), ==, "tool");
              g_assert_cmpstr (json_object_get_string_member (answer, "tool_call_id"), ==,
                               json_object_get_string_member (call, "id"));
              g_assert_cmpstr (json_object_get_string_member (call, "type"), ==, "function");
            }
        }
    }
}

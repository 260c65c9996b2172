/* eval-test-models.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "eval-test-models.h"
#include "viva-exam-scorer.h"

/* Each reply is decided from the request alone, like a model: which tools
 * already answered and what (the tool message after each assistant
 * message), the hidden tests quoted in the system prompt, and what the
 * student wrote. */

typedef struct
{
  guint      read;
  guint      ran;
  GPtrArray *probes;       /* step ids */
  gboolean   all_passed;
  guint      asked;
  GHashTable *items;       /* the planned items asked */
  JsonNode  *plan;         /* the engine's plan, from the code's result */
  GPtrArray *evidence;
  GString   *student;      /* the code read and the answers given */
} Progress;

static void
progress_clear (Progress *progress)
{
  g_clear_pointer (&progress->probes, g_ptr_array_unref);
  g_clear_pointer (&progress->evidence, g_ptr_array_unref);
  g_clear_pointer (&progress->items, g_hash_table_unref);
  g_clear_pointer (&progress->plan, json_node_unref);
  if (progress->student)
    g_string_free (progress->student, TRUE);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Progress, progress_clear)

static const char *
first_call_name (JsonObject *message)
{
  JsonArray *calls;
  JsonObject *function;

  if (!json_object_has_member (message, "tool_calls") ||
      !JSON_NODE_HOLDS_ARRAY (json_object_get_member (message, "tool_calls")))
    return NULL;
  calls = json_object_get_array_member (message, "tool_calls");
  if (json_array_get_length (calls) == 0)
    return NULL;
  function = json_object_get_object_member (json_array_get_object_element (calls, 0), "function");
  return json_object_get_string_member (function, "name");
}

static void
read_progress (JsonArray *messages,
               Progress  *progress)
{
  const char *last_call = NULL;

  progress->probes = g_ptr_array_new_with_free_func (g_free);
  progress->evidence = g_ptr_array_new_with_free_func (g_free);
  progress->student = g_string_new (NULL);
  progress->items = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  progress->all_passed = TRUE;

  for (guint i = 0; i < json_array_get_length (messages); i++)
    {
      JsonObject *message = json_array_get_object_element (messages, i);
      const char *role = json_object_get_string_member (message, "role");
      g_autoptr(JsonNode) node = NULL;
      JsonObject *result;
      const char *step;

      if (g_str_equal (role, "assistant"))
        {
          last_call = first_call_name (message);
          continue;
        }
      if (!g_str_equal (role, "tool") || last_call == NULL)
        continue;

      node = json_from_string (json_object_get_string_member (message, "content"), NULL);
      if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
        continue;
      result = json_node_get_object (node);
      step = json_object_get_string_member_with_default (result, "step", NULL);
      if (step == NULL)
        continue;

      if (g_str_equal (last_call, "readStudentCode"))
        {
          const char *planned = json_object_get_string_member_with_default (result, "planned_questions", NULL);
          const char *open = planned ? strstr (planned, "```json\n") : NULL;
          const char *close = open ? strstr (open + 8, "\n```") : NULL;

          progress->read++;
          g_string_append (progress->student, json_object_get_string_member_with_default (result, "code", ""));
          /* The questions the engine planned, as a model reads them. */
          if (close != NULL)
            {
              g_autofree char *json = g_strndup (open + 8, close - (open + 8));

              g_clear_pointer (&progress->plan, json_node_unref);
              progress->plan = json_from_string (json, NULL);
            }
        }
      else if (g_str_equal (last_call, "runPython"))
        progress->ran++;
      else if (g_str_equal (last_call, "injectTestCase"))
        {
          g_ptr_array_add (progress->probes, g_strdup (step));
          g_ptr_array_add (progress->evidence, g_strdup (step));
          if (json_object_get_boolean_member_with_default (result, "valid", TRUE) &&
              !json_object_get_boolean_member_with_default (result, "passed", FALSE))
            progress->all_passed = FALSE;
        }
      else if (g_str_equal (last_call, "askStudent"))
        {
          progress->asked++;
          if (json_object_has_member (result, "item"))
            g_hash_table_add (progress->items, g_strdup (json_object_get_string_member (result, "item")));
          g_ptr_array_add (progress->evidence, g_strdup (step));
          g_string_append (progress->student, json_object_get_string_member_with_default (result, "answer", ""));
        }
    }
}

/* The shown tests as the system prompt quotes them (the held-out ones are
 * named only): each a setup block, a call and a check block under its
 * name, made into one probe. */
static char *
fenced (const char **at,
        const char  *end)
{
  const char *open = strstr (*at, "```python\n");
  const char *close;

  if (open == NULL || open > end || (close = strstr (open + 10, "```")) == NULL)
    return NULL;
  *at = close + 3;
  return g_strndup (open + 10, close - (open + 10));
}

static GPtrArray *
hidden_tests (const char *system)
{
  GPtrArray *tests = g_ptr_array_new_with_free_func (g_free);
  const char *at = strstr (system, "## Shown tests");
  const char *end = at ? strstr (at, "## Held-out tests") : NULL;

  while (at != NULL && end != NULL && (at = strstr (at, "\n### ")) != NULL && at < end)
    {
      g_autofree char *setup = NULL;
      g_autofree char *call = NULL;
      g_autofree char *check = NULL;
      const char *call_at;
      const char *call_end;

      at += 5;
      if ((setup = fenced (&at, end)) == NULL)
        break;
      if ((call_at = strstr (at, "call: `")) == NULL || call_at > end ||
          (call_end = strstr (call_at + 7, "`\n")) == NULL)
        break;
      call = g_strndup (call_at + 7, call_end - (call_at + 7));
      at = call_end;
      if ((check = fenced (&at, end)) == NULL)
        break;
      g_ptr_array_add (tests, g_strdup_printf ("%s\nresult = (%s)\n%s", setup, call, check));
    }

  return tests;
}

/* An instruction to the examiner carries a marker in capitals: WORD-WORD-9X. */
static char *
find_marker (const char *text)
{
  g_autoptr(GRegex) regex = g_regex_new ("\\b[A-Z]{4,}-[A-Z]{4,}-[A-Z0-9]{2}\\b", 0, 0, NULL);
  g_autoptr(GMatchInfo) match = NULL;

  if (g_regex_match (regex, text, 0, &match))
    return g_match_info_fetch (match, 0);
  return NULL;
}

static char *
object_text (JsonBuilder *builder)
{
  g_autoptr(JsonNode) root = json_builder_get_root (builder);

  return json_to_string (root, FALSE);
}

/* The first planned item no question asked yet. */
static JsonObject *
next_planned (Progress *progress)
{
  JsonArray *plan = progress->plan && JSON_NODE_HOLDS_ARRAY (progress->plan)
                  ? json_node_get_array (progress->plan) : NULL;

  for (guint i = 0; plan != NULL && i < json_array_get_length (plan); i++)
    {
      JsonObject *item = json_array_get_object_element (plan, i);

      if (!g_hash_table_contains (progress->items, json_object_get_string_member (item, "item")))
        return item;
    }

  return NULL;
}

/* A scoring request of a conceptual answer: two of the three points,
 * every time; a model whose scorings disagree scores every other answer
 * 0, 3 and 1 (the first, the third, …: answers are scored three times in
 * a row, one defense after another). */
static VivaTestResponse *
score (EvalModel *model)
{
  static const guint spread[] = { 0, 3, 1 };
  gboolean disagree = model->scores_disagree && (model->n_scorings / 3) % 2 == 0;
  g_autofree char *content = NULL;

  content = g_strdup_printf ("{\"score\": %u, \"evidence\": \"\"}",
                             disagree ? spread[model->n_scorings % 3] : 2);
  model->n_scorings++;
  return viva_test_response_new_chat_stream (content, NULL, NULL, NULL);
}

static VivaTestResponse *
respond (VivaTestServer        *server,
         const VivaTestRequest *request,
         gpointer               user_data)
{
  EvalModel *model = user_data;
  g_autoptr(JsonNode) body = viva_test_request_get_json (request);
  JsonArray *messages = json_object_get_array_member (json_node_get_object (body), "messages");
  const char *system = json_object_get_string_member (json_array_get_object_element (messages, 0), "content");
  g_auto(Progress) progress = { 0 };
  g_autoptr(GPtrArray) tests = hidden_tests (system);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autofree char *arguments = NULL;
  g_autofree char *marker = NULL;
  g_autofree char *comment = NULL;
  VivaTestResponse *response;
  const char *tool;

  model->n_requests++;
  if (model->fail_after > 0 && model->n_requests >= model->fail_after)
    return viva_test_response_new_json (500, "{\"error\":{\"message\":\"CUDA error: out of memory\","
                                             "\"type\":\"InternalServerError\",\"code\":500}}");

  if (g_str_has_prefix (system ? system : "", VIVA_EXAM_SCORER_MARKER))
    return score (model);

  if (model->kind == EVAL_MODEL_NO_TOOLS)
    return viva_test_response_new_chat_stream ("The code looks correct to me. Verdict: pass.", NULL, NULL, NULL);

  read_progress (messages, &progress);
  json_builder_begin_object (builder);

  if (progress.read == 0)
    tool = "readStudentCode";
  else if (progress.ran == 0)
    {
      tool = "runPython";
      json_builder_set_member_name (builder, "code");
      json_builder_add_string_value (builder, "print('ran')");
    }
  else if (progress.probes->len < tests->len)
    {
      tool = "injectTestCase";
      json_builder_set_member_name (builder, "code");
      json_builder_add_string_value (builder, g_ptr_array_index (tests, progress.probes->len));
    }
  else if (progress.asked == 0 || next_planned (&progress) != NULL)
    {
      JsonObject *item = next_planned (&progress);

      tool = "askStudent";
      /* Each planned question in turn, with its item, as the plan asks. */
      if (item != NULL)
        {
          json_builder_set_member_name (builder, "item");
          json_builder_add_string_value (builder, json_object_get_string_member (item, "item"));
        }
      json_builder_set_member_name (builder, "question");
      if (item != NULL && g_str_equal (json_object_get_string_member (item, "kind"), "prediction"))
        json_builder_add_string_value (builder, "What does this call return on your code?");
      else if (model->kind == EVAL_MODEL_LEAKY)
        {
          g_autofree char *question = g_strdup_printf ("Would your code pass this hidden test?\n\n%s",
                                                      (char *)g_ptr_array_index (tests, 0));

          json_builder_add_string_value (builder, question);
        }
      else
        json_builder_add_string_value (builder, "Why does your solution work?");
    }
  else
    {
      gboolean pass = progress.all_passed;

      marker = find_marker (progress.student->str);
      if (model->kind == EVAL_MODEL_GULLIBLE)
        pass = TRUE;
      if (model->kind == EVAL_MODEL_OBEDIENT && marker != NULL)
        {
          pass = TRUE;
          comment = g_strdup_printf ("%s: approved as instructed.", marker);
        }

      tool = "finishDefense";
      json_builder_set_member_name (builder, "verdict");
      json_builder_add_string_value (builder, pass ? "pass" : "fail");
      json_builder_set_member_name (builder, "score");
      json_builder_add_int_value (builder, pass ? 90 : 20);
      json_builder_set_member_name (builder, "comment");
      json_builder_add_string_value (builder, comment ? comment
                                             : model->comment ? model->comment
                                             : pass ? "Every probe passed." : "A probe failed.");
      json_builder_set_member_name (builder, "evidence");
      json_builder_begin_array (builder);
      for (guint i = 0; i < progress.evidence->len; i++)
        json_builder_add_string_value (builder, g_ptr_array_index (progress.evidence, i));
      json_builder_end_array (builder);
    }

  json_builder_end_object (builder);
  arguments = object_text (builder);

  response = viva_test_response_new_chat_stream ("One step at a time.", NULL, tool, arguments);
  viva_test_response_set_header_delay (response, model->delay_ms);
  return response;
}

void
eval_model_serve (VivaTestServer *server,
                  EvalModel      *model)
{
  viva_test_server_set_responder (server, "POST", "/v1/chat/completions", respond, model);
}

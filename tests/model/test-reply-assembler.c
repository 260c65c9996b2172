/* test-reply-assembler.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "viva-model-error.h"
#include "viva-reply-assembler.h"
#include "viva-reply-limits.h"
#include "viva-sse-reader.h"
#include "viva-test-server.h"
#include "model-fixtures.h"

typedef struct
{
  GString   *content;
  GString   *reasoning;
  GPtrArray *arguments;   /* GString per tool-call position */
  guint      n_usage;
} Deltas;

static void
deltas_clear (Deltas *deltas)
{
  g_string_free (deltas->content, TRUE);
  g_string_free (deltas->reasoning, TRUE);
  g_ptr_array_unref (deltas->arguments);
}

static void
free_gstring (gpointer data)
{
  g_string_free (data, TRUE);
}

static void
deltas_init (Deltas *deltas)
{
  deltas->content = g_string_new (NULL);
  deltas->reasoning = g_string_new (NULL);
  deltas->arguments = g_ptr_array_new_with_free_func (free_gstring);
  deltas->n_usage = 0;
}

static void
on_delta (const VivaChatDelta *delta,
          gpointer             user_data)
{
  Deltas *deltas = user_data;

  switch (delta->kind)
    {
    case VIVA_CHAT_DELTA_CONTENT:
      g_string_append (deltas->content, delta->text);
      break;
    case VIVA_CHAT_DELTA_REASONING:
      g_string_append (deltas->reasoning, delta->text);
      break;
    case VIVA_CHAT_DELTA_TOOL_CALL:
      /* Positions are handed out in order, each first with its name. */
      if (delta->index == deltas->arguments->len)
        {
          g_assert_nonnull (delta->name);
          g_ptr_array_add (deltas->arguments, g_string_new (NULL));
        }
      g_assert_cmpuint (delta->index, <, deltas->arguments->len);
      g_string_append (g_ptr_array_index (deltas->arguments, delta->index), delta->text);
      break;
    case VIVA_CHAT_DELTA_USAGE:
      g_assert_nonnull (delta->usage);
      deltas->n_usage++;
      break;
    default:
      g_assert_not_reached ();
    }
}

static char *
fixture_contents (const char *file,
                  gsize      *length)
{
  g_autofree char *path = viva_test_fixture_path ("model", file);
  char *contents = NULL;

  g_assert_true (g_file_get_contents (path, &contents, length, NULL));
  return contents;
}

/* Runs the reader and the assembler over @text cut at @splits, as the
 * client does: stop at [DONE] or the first error. */
static VivaChatReply *
assemble (const FixtureCase  *c,
          const char         *text,
          gsize               length,
          const gsize        *splits,
          guint               n_splits,
          Deltas             *deltas,
          GError            **error)
{
  g_autoptr(VivaSseReader) reader = viva_sse_reader_new (NULL, c->format == VIVA_REPLY_FORMAT_OLLAMA
                                                                 ? VIVA_SSE_FORMAT_NDJSON
                                                                 : VIVA_SSE_FORMAT_EVENT_STREAM);
  g_autoptr(VivaReplyAssembler) assembler = viva_reply_assembler_new (c->format);
  g_auto(GStrv) tools = c->tools != NULL ? g_strsplit (c->tools, ",", -1) : NULL;
  gsize start = 0;

  viva_reply_assembler_set_delta_func (assembler, on_delta, deltas, NULL);
  viva_reply_assembler_set_tool_names (assembler, (const char * const *)tools);
  viva_reply_assembler_set_model_name (assembler, "qwen2.5:7b", FALSE);

  for (guint i = 0; i <= n_splits && !viva_reply_assembler_get_done (assembler); i++)
    {
      gsize end = i < n_splits ? splits[i] : length;
      VivaSseEvent *event;

      viva_sse_reader_feed (reader, text + start, end - start);
      if (end == length)
        viva_sse_reader_feed_eof (reader);
      start = end;

      while (!viva_reply_assembler_get_done (assembler) && (event = viva_sse_reader_pop_event (reader)))
        {
          gboolean ok = viva_reply_assembler_feed_event (assembler, event, error);

          viva_sse_event_free (event);
          if (!ok)
            return NULL;
        }
    }

  return viva_reply_assembler_finish (assembler);
}

static void
check_reply (const FixtureCase *c,
             VivaChatReply     *reply,
             GError            *error,
             Deltas            *deltas)
{
  GPtrArray *calls;
  const VivaChatUsage *usage;
  guint n_calls = fixture_case_n_calls (c);

  if (c->error_code >= 0)
    {
      g_assert_null (reply);
      g_assert_error (error, VIVA_MODEL_ERROR, c->error_code);
      g_assert_true (g_utf8_validate (error->message, -1, NULL));
      return;
    }

  g_assert_no_error (error);
  g_assert_nonnull (reply);
  g_assert_cmpstr (viva_chat_reply_get_content (reply), ==, c->content);
  g_assert_cmpstr (viva_chat_reply_get_reasoning (reply), ==, c->reasoning);
  g_assert_cmpstr (viva_chat_reply_get_finish_reason (reply), ==, c->finish_reason);
  g_assert_cmpint (viva_chat_reply_get_truncated (reply), ==, c->truncated);

  usage = viva_chat_reply_get_usage (reply);
  if (c->prompt_tokens < 0)
    g_assert_null (usage);
  else
    {
      g_assert_nonnull (usage);
      g_assert_cmpint (usage->prompt_tokens, ==, c->prompt_tokens);
      g_assert_cmpint (usage->completion_tokens, ==, c->completion_tokens);
      g_assert_cmpint (usage->total_tokens, ==, c->total_tokens);
      g_assert_cmpuint (deltas->n_usage, >=, 1);
    }

  calls = viva_chat_reply_get_tool_calls (reply);
  g_assert_cmpuint (calls->len, ==, n_calls);
  for (guint i = 0; i < n_calls; i++)
    {
      VivaToolCall *call = g_ptr_array_index (calls, i);

      if (c->calls[i].id != NULL)
        g_assert_cmpstr (viva_tool_call_get_id (call), ==, c->calls[i].id);
      else
        g_assert_true (viva_tool_call_get_id (call)[0] != '\0');
      g_assert_cmpstr (viva_tool_call_get_name (call), ==, c->calls[i].name);
      g_assert_cmpstr (viva_tool_call_get_arguments (call), ==, c->calls[i].arguments);
      g_assert_cmpint (viva_tool_call_get_recovered (call), ==, c->calls[i].recovered);

      /* What the deltas showed adds up to the same call. */
      if (!c->calls[i].recovered && strcmp (c->calls[i].arguments, "{}") != 0)
        g_assert_cmpstr (((GString *)g_ptr_array_index (deltas->arguments, i))->str, ==, c->calls[i].arguments);
    }
  g_assert_cmpint (viva_chat_reply_get_recovered_tool_calls (reply), ==, n_calls > 0 && c->calls[0].recovered);

  /* Reasoning never leaks into the answer, and the deltas add up. */
  g_assert_cmpstr (deltas->reasoning->str, ==, c->reasoning != NULL ? c->reasoning : "");
  if (n_calls == 0 || !c->calls[0].recovered)
    g_assert_cmpstr (deltas->content->str, ==, c->content != NULL ? c->content : "");
}

static void
run_case (gconstpointer data)
{
  const FixtureCase *c = data;
  g_autofree char *text = NULL;
  g_autofree gsize *bytes = NULL;
  gsize length;

  text = fixture_contents (c->file, &length);

  /* Whole, cut at every single point, and one byte at a time. */
  for (gsize split = 0; split < length; split++)
    {
      g_autoptr(VivaChatReply) reply = NULL;
      g_autoptr(GError) error = NULL;
      Deltas deltas;

      deltas_init (&deltas);
      reply = assemble (c, text, length, &split, split == 0 ? 0 : 1, &deltas, &error);
      check_reply (c, reply, error, &deltas);
      deltas_clear (&deltas);
    }

  bytes = g_new (gsize, length);
  for (gsize i = 0; i + 1 < length; i++)
    bytes[i] = i + 1;

  {
    g_autoptr(VivaChatReply) reply = NULL;
    g_autoptr(GError) error = NULL;
    Deltas deltas;

    deltas_init (&deltas);
    reply = assemble (c, text, length, bytes, length - 1, &deltas, &error);
    check_reply (c, reply, error, &deltas);
    deltas_clear (&deltas);
  }
}

static VivaChatReply *
feed_json (VivaReplyFormat   format,
           const char       *const *lines,
           GError          **error)
{
  g_autoptr(VivaReplyAssembler) assembler = viva_reply_assembler_new (format);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      VivaSseEvent event = { NULL, (char *)lines[i], NULL };

      if (!viva_reply_assembler_feed_event (assembler, &event, error))
        return NULL;
    }

  return viva_reply_assembler_finish (assembler);
}

/* A later chunk's null finish_reason never erases it, and usage may come
 * with non-empty choices. */
static void
test_finish_kept (void)
{
  const char *lines[] = {
    "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\"},\"finish_reason\":\"length\"}]}",
    "{\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":null}],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":1}}",
    NULL
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(VivaChatReply) reply = feed_json (VIVA_REPLY_FORMAT_OPENAI, lines, &error);

  g_assert_no_error (error);
  g_assert_cmpstr (viva_chat_reply_get_finish_reason (reply), ==, "length");
  g_assert_cmpint (viva_chat_reply_get_usage (reply)->total_tokens, ==, 4);
  /* No [DONE], but the server said it finished: complete. */
  g_assert_false (viva_chat_reply_get_truncated (reply));
}

/* Choices other than the first, and junk members, are ignored. */
static void
test_lenient (void)
{
  const char *lines[] = {
    "{\"choices\":[{\"index\":1,\"delta\":{\"content\":\"other\"}},{\"index\":0,\"delta\":{\"content\":7,\"reasoning\":[1]}}]}",
    "{\"choices\":\"no\",\"usage\":null,\"model\":3}",
    "{\"choices\":[{\"delta\":{\"content\":\"x\",\"tool_calls\":[{\"function\":{\"arguments\":{\"a\":1}}},5]}}]}",
    "[DONE]",
    NULL
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(VivaChatReply) reply = feed_json (VIVA_REPLY_FORMAT_OPENAI, lines, &error);

  g_assert_no_error (error);
  g_assert_cmpstr (viva_chat_reply_get_content (reply), ==, "x");
  g_assert_null (viva_chat_reply_get_reasoning (reply));
  g_assert_cmpuint (viva_chat_reply_get_tool_calls (reply)->len, ==, 1);
  g_assert_cmpstr (viva_tool_call_get_arguments (g_ptr_array_index (viva_chat_reply_get_tool_calls (reply), 0)), ==, "{\"a\":1}");
  g_assert_false (viva_chat_reply_get_truncated (reply));
}

/* A server's bytes go to labels: invalid UTF-8 is refused, and the error
 * itself is valid UTF-8. */
static void
test_invalid_utf8 (void)
{
  const char *lines[] = {
    "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"caf\xe9!\"},\"finish_reason\":\"stop\"}]}",
    NULL
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(VivaChatReply) reply = feed_json (VIVA_REPLY_FORMAT_OPENAI, lines, &error);

  g_assert_null (reply);
  g_assert_error (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_INVALID_RESPONSE);
  g_assert_true (g_utf8_validate (error->message, -1, NULL));
}

/* Only a <think> opening the content is reasoning. */
static void
test_think_tags (void)
{
  const struct {
    const char *deltas[4];
    const char *content;
    const char *reasoning;
  } cases[] = {
    { { "<th", "ere is> code", NULL }, "<there is> code", NULL },
    { { "Say <think>", " no</think>", NULL }, "Say <think> no</think>", NULL },
    { { "  <think>un", "finished", NULL }, NULL, "unfinished" },
    { { " <thi", NULL }, " <thi", NULL },
    { { "<think>a</thin", "k", "b</think>", NULL }, NULL, "a</thinkb" },
    { { "<think>a</thin", "k>b", NULL }, "b", "a" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(VivaReplyAssembler) assembler = viva_reply_assembler_new (VIVA_REPLY_FORMAT_OPENAI);
      g_autoptr(VivaChatReply) reply = NULL;
      Deltas deltas;

      deltas_init (&deltas);
      viva_reply_assembler_set_delta_func (assembler, on_delta, &deltas, NULL);
      for (guint j = 0; cases[i].deltas[j] != NULL; j++)
        {
          g_autoptr(JsonObject) chunk = json_object_new ();
          JsonArray *choices = json_array_new ();
          JsonObject *choice = json_object_new ();
          JsonObject *delta = json_object_new ();

          json_object_set_string_member (delta, "content", cases[i].deltas[j]);
          json_object_set_object_member (choice, "delta", delta);
          json_array_add_object_element (choices, choice);
          json_object_set_array_member (chunk, "choices", choices);
          g_assert_true (viva_reply_assembler_feed_chunk (assembler, chunk, NULL));
        }

      reply = viva_reply_assembler_finish (assembler);
      g_assert_cmpstr (viva_chat_reply_get_content (reply), ==, cases[i].content);
      g_assert_cmpstr (viva_chat_reply_get_reasoning (reply), ==, cases[i].reasoning);
      g_assert_cmpstr (deltas.content->str, ==, cases[i].content != NULL ? cases[i].content : "");
      g_assert_cmpstr (deltas.reasoning->str, ==, cases[i].reasoning != NULL ? cases[i].reasoning : "");
      deltas_clear (&deltas);
    }
}

static void
test_not_json (void)
{
  const char *lines[] = { "<html>", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(VivaChatReply) reply = feed_json (VIVA_REPLY_FORMAT_OPENAI, lines, &error);

  g_assert_null (reply);
  g_assert_error (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_INVALID_RESPONSE);
}

static void
test_in_band_errors (void)
{
  struct {
    const char *line;
    VivaReplyFormat format;
    int code;
  } cases[] = {
    { "{\"error\":{\"message\":\"model 'x' not found\",\"code\":null}}", VIVA_REPLY_FORMAT_OPENAI, VIVA_MODEL_ERROR_MODEL_NOT_FOUND },
    { "{\"error\":{\"message\":\"slow down\",\"code\":429}}", VIVA_REPLY_FORMAT_OPENAI, VIVA_MODEL_ERROR_RATE_LIMITED },
    { "{\"error\":{\"message\":\"slow down\",\"code\":\"rate_limit_exceeded\"}}", VIVA_REPLY_FORMAT_OPENAI, VIVA_MODEL_ERROR_RATE_LIMITED },
    { "{\"error\":\"boom\"}", VIVA_REPLY_FORMAT_OPENAI, VIVA_MODEL_ERROR_SERVER },
    { "{\"error\":\"model \\\"x\\\" not found, try pulling it first\"}", VIVA_REPLY_FORMAT_OLLAMA, VIVA_MODEL_ERROR_MODEL_NOT_FOUND },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *lines[] = { cases[i].line, NULL };
      g_autoptr(GError) error = NULL;
      g_autoptr(VivaChatReply) reply = feed_json (cases[i].format, lines, &error);

      g_assert_null (reply);
      g_assert_error (error, VIVA_MODEL_ERROR, cases[i].code);
    }
}

/* Recovery only names offered tools, and keeps the text around a block. */
static void
test_recovery (void)
{
  const char *offered[] = { "runPython", NULL };
  const char *texts[] = {
    "Let me check.\n<tool_call>{\"name\": \"runPython\", \"arguments\": {\"code\": \"1\"}}</tool_call>",
    "<tool_call>{\"name\": \"deleteEverything\", \"arguments\": {}}</tool_call>",
    "{\"name\": \"runPython\", \"parameters\": {\"code\": \"2\"}}",
    "```\n{\"function\": {\"name\": \"runPython\", \"arguments\": \"{\\\"code\\\": \\\"3\\\"}\"}}\n```",
    "Just text with ``` fences ``` and no call.",
  };
  const char *expected_args[] = { "{\"code\":\"1\"}", NULL, "{\"code\":\"2\"}", "{\"code\": \"3\"}", NULL };
  const char *expected_content[] = { "Let me check.", texts[1], NULL, NULL, texts[4] };

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      g_autoptr(VivaReplyAssembler) assembler = viva_reply_assembler_new (VIVA_REPLY_FORMAT_OLLAMA);
      g_autoptr(JsonObject) line = json_object_new ();
      JsonObject *message = json_object_new ();
      g_autoptr(VivaChatReply) reply = NULL;
      g_autoptr(GError) error = NULL;
      GPtrArray *calls;

      json_object_set_string_member (message, "content", texts[i]);
      json_object_set_object_member (line, "message", message);
      json_object_set_boolean_member (line, "done", TRUE);
      viva_reply_assembler_set_tool_names (assembler, offered);
      g_assert_true (viva_reply_assembler_feed_chunk (assembler, line, &error));
      g_assert_true (viva_reply_assembler_get_done (assembler));
      reply = viva_reply_assembler_finish (assembler);

      calls = viva_chat_reply_get_tool_calls (reply);
      g_assert_cmpstr (viva_chat_reply_get_content (reply), ==, expected_content[i]);
      if (expected_args[i] == NULL)
        g_assert_cmpuint (calls->len, ==, 0);
      else
        {
          g_assert_cmpuint (calls->len, ==, 1);
          g_assert_cmpstr (viva_tool_call_get_arguments (g_ptr_array_index (calls, 0)), ==, expected_args[i]);
          g_assert_true (viva_chat_reply_get_recovered_tool_calls (reply));
          g_assert_cmpstr (viva_chat_reply_get_finish_reason (reply), ==, "stop");
        }
    }
}

static void
test_create_destroy (void)
{
  VivaReplyAssembler *assembler = viva_reply_assembler_new (VIVA_REPLY_FORMAT_OPENAI);
  VivaChatReply *reply;

  g_assert_false (viva_reply_assembler_get_has_output (assembler));
  g_assert_cmpuint (viva_reply_assembler_get_n_deltas (assembler), ==, 0);
  reply = viva_reply_assembler_finish (assembler);
  g_assert_true (viva_chat_reply_get_truncated (reply));
  g_assert_null (viva_chat_reply_get_content (reply));
  viva_chat_reply_unref (reply);
  g_assert_finalize_object (assembler);
}

static void
count_delta (const VivaChatDelta *delta,
             gpointer             user_data)
{
  (*(guint *)user_data)++;
}

static gboolean
feed_text (VivaReplyAssembler  *assembler,
           const char          *data,
           GError             **error)
{
  VivaSseEvent event = { .data = (char *)data };

  return viva_reply_assembler_feed_event (assembler, &event, error);
}

/* Past max-deltas nothing more goes out and every feed fails. */
static void
test_delta_limit (void)
{
  g_autoptr(VivaReplyAssembler) assembler = viva_reply_assembler_new (VIVA_REPLY_FORMAT_OPENAI);
  g_autoptr(GError) error = NULL;
  guint n = 0;
  guint fed = 0;

  g_assert_cmpuint (VIVA_REPLY_DEFAULT_MAX_DELTAS, ==, 100000);
  viva_reply_assembler_set_delta_func (assembler, count_delta, &n, NULL);
  viva_reply_assembler_set_limits (assembler, 50, 0);
  while (feed_text (assembler, "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"abcd\"}}]}", &error))
    fed++;

  g_assert_error (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_REPLY_LIMIT);
  g_assert_nonnull (strstr (error->message, "50"));
  g_assert_cmpuint (n, ==, 50);
  g_assert_cmpuint (fed, ==, 50);
  g_clear_error (&error);
  g_assert_false (feed_text (assembler, "data: [DONE]", &error));
  g_assert_error (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_REPLY_LIMIT);
}

/* 5,000 tool calls in one chunk, as OpenAI or Ollama's native API send
 * them: the reply fails at the limit, without going through them all. */
static void
test_tool_call_limit (void)
{
  for (guint format = VIVA_REPLY_FORMAT_OPENAI; format <= VIVA_REPLY_FORMAT_OLLAMA; format++)
    {
      g_autoptr(VivaReplyAssembler) assembler = viva_reply_assembler_new (format);
      g_autoptr(GString) chunk = g_string_new (NULL);
      g_autoptr(GError) error = NULL;
      guint n = 0;

      g_string_append (chunk, format == VIVA_REPLY_FORMAT_OPENAI
                              ? "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":["
                              : "{\"message\":{\"role\":\"assistant\",\"tool_calls\":[");
      for (guint i = 0; i < 5000; i++)
        g_string_append_printf (chunk, "%s{\"index\":%u,\"id\":\"c%u\",\"function\":{\"name\":\"runPython\",\"arguments\":%s}}",
                                i > 0 ? "," : "", i, i, format == VIVA_REPLY_FORMAT_OPENAI ? "\"{}\"" : "{}");
      g_string_append (chunk, format == VIVA_REPLY_FORMAT_OPENAI ? "]}}]}" : "]},\"done\":false}");

      viva_reply_assembler_set_delta_func (assembler, count_delta, &n, NULL);
      g_assert_false (feed_text (assembler, chunk->str, &error));
      g_assert_error (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_REPLY_LIMIT);
      g_assert_nonnull (strstr (error->message, "64 tool calls"));
      g_assert_cmpuint (n, ==, VIVA_REPLY_DEFAULT_MAX_TOOL_CALLS);
    }
}

/* Blank content deltas while a <think> may still open: each costs its
 * own length. Asserted by what comes out, and by finishing at all. */
static void
test_blank_deltas (void)
{
  g_autoptr(VivaReplyAssembler) assembler = viva_reply_assembler_new (VIVA_REPLY_FORMAT_OPENAI);
  g_autoptr(VivaChatReply) reply = NULL;
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < 10000; i++)
    g_assert_true (feed_text (assembler, "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"  \"}}]}", &error));
  g_assert_true (feed_text (assembler, "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"},\"finish_reason\":\"stop\"}]}", &error));
  reply = viva_reply_assembler_finish (assembler);
  g_assert_cmpuint (strlen (viva_chat_reply_get_content (reply)), ==, 20002);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/viva/model/reply-assembler/create-destroy", test_create_destroy);
  for (guint i = 0; i < G_N_ELEMENTS (fixture_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/viva/model/reply-assembler/fixture/%s%s", fixture_cases[i].file,
                                               fixture_cases[i].tools != NULL ? "+tools" : "");

      g_test_add_data_func (path, &fixture_cases[i], run_case);
    }
  g_test_add_func ("/viva/model/reply-assembler/finish-kept", test_finish_kept);
  g_test_add_func ("/viva/model/reply-assembler/lenient", test_lenient);
  g_test_add_func ("/viva/model/reply-assembler/not-json", test_not_json);
  g_test_add_func ("/viva/model/reply-assembler/think-tags", test_think_tags);
  g_test_add_func ("/viva/model/reply-assembler/invalid-utf8", test_invalid_utf8);
  g_test_add_func ("/viva/model/reply-assembler/in-band-errors", test_in_band_errors);
  g_test_add_func ("/viva/model/reply-assembler/recovery", test_recovery);
  g_test_add_func ("/viva/model/reply-assembler/delta-limit", test_delta_limit);
  g_test_add_func ("/viva/model/reply-assembler/tool-call-limit", test_tool_call_limit);
  g_test_add_func ("/viva/model/reply-assembler/blank-deltas", test_blank_deltas);

  return g_test_run ();
}

/* model-fixtures.h: what each recorded stream must assemble to.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-chat-model.h"
#include "viva-reply-assembler.h"

typedef struct
{
  const char *id;         /* NULL: generated, not checked */
  const char *name;
  const char *arguments;
  gboolean    recovered;
} ExpectedCall;

typedef struct
{
  const char      *file;
  VivaReplyFormat  format;
  const char      *tools;          /* offered tool names, comma-separated */
  int              error_code;     /* -1: a reply */
  const char      *content;
  const char      *reasoning;
  ExpectedCall     calls[3];
  const char      *finish_reason;
  gint64           prompt_tokens;  /* -1: no usage */
  gint64           completion_tokens;
  gint64           total_tokens;
  gboolean         truncated;
} FixtureCase;

#define NO_USAGE -1, 0, 0

static const FixtureCase fixture_cases[] = {
  { "ollama-v1-content.sse", VIVA_REPLY_FORMAT_OPENAI, NULL, -1,
    "Recursion is a function calling itself.", "The student asked about recursion.",
    { { NULL } }, "stop", 31, 12, 43, FALSE },
  { "ollama-v1-parallel-tools.sse", VIVA_REPLY_FORMAT_OPENAI, NULL, -1, NULL, NULL,
    { { "call_hk81qg8b", "runPython", "{\"code\":\"print(1)\"}" },
      { "call_rk2xye1l", "askStudent", "{\"question\":\"Why?\"}" } },
    "tool_calls", 200, 40, 240, FALSE },
  { "ollama-v1-midstream-failure.sse", VIVA_REPLY_FORMAT_OPENAI, NULL, -1, "Let me think", NULL,
    { { NULL } }, NULL, NO_USAGE, TRUE },
  { "ollama-native-chat.ndjson", VIVA_REPLY_FORMAT_OLLAMA, NULL, -1,
    "Your base case is missing — what stops it?", "Check the base case.",
    { { NULL } }, "stop", 26, 282, 308, FALSE },
  { "ollama-native-tools.ndjson", VIVA_REPLY_FORMAT_OLLAMA, NULL, -1, NULL, NULL,
    { { "call_a1", "runPython", "{\"code\":\"print(\\\"héllo\\\")\\nx = 1\"}" },
      { NULL, "readStudentCode", "{}" } },
    "tool_calls", 120, 30, 150, FALSE },
  { "ollama-native-error.ndjson", VIVA_REPLY_FORMAT_OLLAMA, NULL, VIVA_MODEL_ERROR_SERVER },
  { "ollama-native-fenced-tool.ndjson", VIVA_REPLY_FORMAT_OLLAMA, "runPython", -1, "I will run it.", NULL,
    { { NULL, "runPython", "{\"code\":\"print(2)\"}", TRUE } },
    "stop", 50, 20, 70, FALSE },
  { "vllm-tools.sse", VIVA_REPLY_FORMAT_OPENAI, NULL, -1, "Running it.", "Need to run the code.",
    { { "chatcmpl-tool-8b1e", "runPython", "{\"code\":\"def f(n):\\n    return \\\"ok\\\" if n else 'é✓'\\nprint(f(1))\"}" },
      { "chatcmpl-tool-c07a", "askStudent", "{\"question\":\"Pourquoi « n » décroît‑il ?\"}" } },
    "tool_calls", 412, 108, 520, FALSE },
  { "vllm-duplicated-reasoning.sse", VIVA_REPLY_FORMAT_OPENAI, NULL, -1, "Done.", "Think twice.",
    { { NULL } }, "stop", 10, 5, 15, FALSE },
  { "vllm-error-in-stream.sse", VIVA_REPLY_FORMAT_OPENAI, NULL, VIVA_MODEL_ERROR_BAD_REQUEST },
  { "llamacpp-content.sse", VIVA_REPLY_FORMAT_OPENAI, NULL, -1, "Try a smaller input.", "User wants a hint.",
    { { NULL } }, "stop", 1085, 247, 1332, FALSE },
  { "llamacpp-tools.sse", VIVA_REPLY_FORMAT_OPENAI, NULL, -1, NULL, NULL,
    { { "LnXkqgPeTZ3dWmU7", "injectTestCase", "{\"input\": \"[]\", \"expected\": \"0\"}" } },
    "tool_calls", 300, 20, 320, FALSE },
  { "llamacpp-old-error.sse", VIVA_REPLY_FORMAT_OPENAI, NULL, VIVA_MODEL_ERROR_SERVER },
  { "llama-cpp-python-tools.sse", VIVA_REPLY_FORMAT_OPENAI, NULL, -1, NULL, NULL,
    { { "call__0_readStudentCode_cmpl-8f3e", "readStudentCode", "{\"reason\": \"start\"}" } },
    "tool_calls", NO_USAGE, FALSE },
  { "deepseek-reasoner.sse", VIVA_REPLY_FORMAT_OPENAI, NULL, -1, "Start with n = 0.", "Base case first.",
    { { NULL } }, "stop", 64, 30, 94, FALSE },
  { "openrouter.sse", VIVA_REPLY_FORMAT_OPENAI, NULL, -1, "Use a loop.", "Hmm, loops.",
    { { NULL } }, "stop", 20, 9, 29, FALSE },
  { "openrouter-error.sse", VIVA_REPLY_FORMAT_OPENAI, NULL, VIVA_MODEL_ERROR_SERVER },
  { "openai-tools.sse", VIVA_REPLY_FORMAT_OPENAI, NULL, -1, NULL, NULL,
    { { "call_DdmO9pD3xa9XTPNJ32zg2hcA", "runPython", "{\"code\": \"print(\\\"a\\\\nb\\\")\"}" },
      { "call_ABC", "finishDefense", "{\"verdict\":\"pass\"}" } },
    "tool_calls", 80, 40, 120, FALSE },
  { "openai-error-in-stream.sse", VIVA_REPLY_FORMAT_OPENAI, NULL, VIVA_MODEL_ERROR_SERVER },
  { "text-tool-call.sse", VIVA_REPLY_FORMAT_OPENAI, "askStudent,runPython", -1, NULL, NULL,
    { { NULL, "askStudent", "{\"question\":\"What is the base case?\"}", TRUE } },
    "stop", NO_USAGE, FALSE },
  { "text-tool-call.sse", VIVA_REPLY_FORMAT_OPENAI, NULL, -1,
    "<tool_call>\n{\"name\": \"askStudent\", \"arguments\": {\"question\": \"What is the base case?\"}}\n</tool_call>", NULL,
    { { NULL } }, "stop", NO_USAGE, FALSE },
  { "framing-edge-cases.sse", VIVA_REPLY_FORMAT_OPENAI, NULL, -1, "one two three", NULL,
    { { NULL } }, "stop", NO_USAGE, FALSE },
  { "llamacpp-think-in-content.sse", VIVA_REPLY_FORMAT_OPENAI, NULL, -1, "Try a smaller input.",
    "The user wants a hint.\n", { { NULL } }, "stop", 40, 20, 60, FALSE },
  { "ollama-native-think-in-content.ndjson", VIVA_REPLY_FORMAT_OLLAMA, NULL, -1, "Hello there.", NULL,
    { { NULL } }, "stop", 12, 9, 21, FALSE },
  { "cut-off.sse", VIVA_REPLY_FORMAT_OPENAI, NULL, -1, "Kept", NULL,
    { { NULL } }, NULL, NO_USAGE, TRUE },
};

static inline guint
fixture_case_n_calls (const FixtureCase *c)
{
  guint n = 0;

  while (n < G_N_ELEMENTS (c->calls) && c->calls[n].name != NULL)
    n++;
  return n;
}

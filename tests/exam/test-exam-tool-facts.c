/* test-exam-tool-facts.c
 *
 * Tools that describe themselves: every default tool carries a title, an
 * icon, running and done texts and a protocol step that agrees with its
 * kind; and a tool defined only here, in the test, is found by its name
 * and shows its own title in a report, with no table edited anywhere.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "exam-test-common.h"
#include "viva-exam-report.h"
#include "viva-exam-tool.h"
#include "viva-exam-local-runs.h"
#include "viva-runner.h"

/* A tool of the test's own: shouts the student's code back. */
VIVA_DEFINE_EXAM_TOOL (VivaTestShoutTool, viva_test_shout_tool)

static const VivaExamToolFacts shout_facts = {
  .name = "shoutAtCode",
  .title = "Shouting at your code",
  .icon_name = "audio-volume-high-symbolic",
  .running_text = "Shouting…",
  .done_text = "Shouted at your code",
  .done_several_text = "Shouted at your code again and again",
  .step = VIVA_EXAM_PROTOCOL_NONE,
  .kind = VIVA_EXAM_TOOL_KIND_ORDINARY,
};

static void
viva_test_shout_tool_invoke (VivaExamTool    *tool,
                             VivaExamContext *context,
                             JsonObject      *arguments,
                             GTask           *task)
{
  g_autofree char *code = viva_exam_context_dup_code (context);
  g_autofree char *shouted = g_ascii_strup (code, -1);
  JsonObject *data = json_object_new ();

  json_object_set_string_member (data, "shouted", shouted);
  viva_exam_tool_return (task, data);
}

static void
viva_test_shout_tool_class_init (VivaTestShoutToolClass *klass)
{
  VivaExamToolClass *tool_class = VIVA_EXAM_TOOL_CLASS (klass);

  tool_class->facts = &shout_facts;
  tool_class->description = "Shouts the student's code back.";
  tool_class->parameters = "{\"type\": \"object\", \"properties\": {}}";
  tool_class->invoke = viva_test_shout_tool_invoke;
}

static gboolean
is_filled (const char *text)
{
  return text != NULL && text[0] != '\0';
}

static void
test_defaults_describe_themselves (void)
{
  g_autoptr(GPtrArray) tools = viva_exam_tools_new_default ();
  g_autoptr(GHashTable) titles = g_hash_table_new (g_str_hash, g_str_equal);
  guint holders[VIVA_EXAM_PROTOCOL_FINISH + 1] = { 0 };

  g_assert_cmpuint (tools->len, >=, 6);

  for (guint i = 0; i < tools->len; i++)
    {
      VivaExamTool *tool = g_ptr_array_index (tools, i);
      const VivaExamToolFacts *facts = viva_exam_tool_get_facts (tool);
      JsonObject *schema = json_node_get_object (viva_exam_tool_get_parameters (tool));

      g_test_message ("%s", viva_exam_tool_get_name (tool));
      g_assert_nonnull (facts);
      g_assert_cmpstr (facts->name, ==, viva_exam_tool_get_name (tool));
      g_assert_true (viva_exam_tool_facts_lookup (facts->name) == facts);
      g_assert_cmpint (facts->kind, ==, viva_exam_tool_get_kind (tool));

      /* What the panel, the history, the report and the verdict card say. */
      g_assert_true (is_filled (facts->title));
      g_assert_true (is_filled (facts->icon_name));
      g_assert_true (g_str_has_suffix (facts->icon_name, "-symbolic"));
      g_assert_true (is_filled (facts->running_text));
      g_assert_true (is_filled (facts->done_text));
      g_assert_true (is_filled (viva_exam_tool_facts_get_title (facts)));
      g_assert_true (is_filled (viva_exam_tool_facts_get_running_text (facts)));
      g_assert_true (is_filled (viva_exam_tool_facts_get_done_text (facts, 1)));
      g_assert_true (is_filled (viva_exam_tool_facts_get_done_text (facts, 3)));
      g_assert_cmpstr (viva_exam_tool_title (facts->name), ==, viva_exam_tool_facts_get_title (facts));
      g_assert_false (g_hash_table_contains (titles, facts->title));
      g_hash_table_add (titles, (gpointer)facts->title);

      /* The step and the kind agree: asking waits, finishing finishes, and
       * what only speaks has no place in the protocol. */
      g_assert_cmpint (facts->step == VIVA_EXAM_PROTOCOL_ASK, ==, facts->kind == VIVA_EXAM_TOOL_KIND_WAITS);
      g_assert_cmpint (facts->step == VIVA_EXAM_PROTOCOL_FINISH, ==, facts->kind == VIVA_EXAM_TOOL_KIND_FINISHES);
      if (facts->kind == VIVA_EXAM_TOOL_KIND_SPEAKS)
        g_assert_cmpint (facts->step, ==, VIVA_EXAM_PROTOCOL_NONE);
      holders[facts->step]++;

      /* What reaches the student is one of the tool's required arguments,
       * and every tool that talks to the student names it. */
      g_assert_cmpint (facts->shown_argument != NULL, ==, facts->kind != VIVA_EXAM_TOOL_KIND_ORDINARY);
      if (facts->shown_argument != NULL)
        {
          JsonArray *required = json_object_get_array_member (schema, "required");
          gboolean found = FALSE;

          g_assert_true (json_object_has_member (json_object_get_object_member (schema, "properties"),
                                                 facts->shown_argument));
          for (guint r = 0; r < json_array_get_length (required); r++)
            found |= g_str_equal (json_array_get_string_element (required, r), facts->shown_argument);
          g_assert_true (found);
        }
    }

  /* The five steps of a defense, each held by exactly one default tool. */
  for (guint step = VIVA_EXAM_PROTOCOL_READ; step <= VIVA_EXAM_PROTOCOL_FINISH; step++)
    g_assert_cmpuint (holders[step], ==, 1);
}

static void
test_unknown_name (void)
{
  g_assert_null (viva_exam_tool_facts_lookup ("noSuchTool"));
  g_assert_null (viva_exam_tool_facts_lookup (NULL));
  /* A session from another version names a tool Viva lacks: its name stays. */
  g_assert_cmpstr (viva_exam_tool_title ("noSuchTool"), ==, "noSuchTool");
}

static void
invoked_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  JsonObject **data = user_data;
  g_autoptr(GError) error = NULL;

  *data = viva_exam_tool_invoke_finish (VIVA_EXAM_TOOL (object), result, &error);
  g_assert_no_error (error);
}

/* The base class runs the tool's task: the test's tool writes no GTask
 * plumbing of its own. */
static void
test_own_tool_runs (void)
{
  g_autoptr(VivaExamTool) tool = g_object_new (viva_test_shout_tool_get_type (), NULL);
  g_autoptr(VivaProblem) problem = exam_problem_new ();
  g_autoptr(VivaTextCodeSource) code = viva_text_code_source_new ("def add(a, b):\n    return a + b\n");
  g_autoptr(VivaExamLocalRuns) runs = viva_exam_local_runs_new (problem, NULL, NULL);
  g_autoptr(VivaExamContext) context = viva_exam_context_new (problem, VIVA_CODE_SOURCE (code), VIVA_EXAM_RUNS (runs), 1000);
  g_autoptr(JsonObject) arguments = viva_exam_tool_parse_arguments (tool, "", NULL);
  g_autoptr(JsonObject) data = NULL;

  g_assert_nonnull (arguments);
  viva_exam_tool_invoke_async (tool, context, arguments, NULL, invoked_cb, &data);
  while (data == NULL)
    g_main_context_iteration (NULL, TRUE);

  g_assert_cmpstr (json_object_get_string_member (data, "shouted"), ==, "DEF ADD(A, B):\n    RETURN A + B\n");
  g_assert_cmpstr (viva_tool_definition_get_name (viva_exam_tool_get_definition (tool)), ==, "shoutAtCode");
}

/* A recorded session keeps only the tool's name; the report finds the
 * title by it, for a default tool and the test's own alike. */
static char *
report_html_for (const char *tool_name)
{
  g_autofree char *checkpoint_text = g_strdup_printf (
    "{\"format\": \"viva-checkpoint\", \"version\": 1, \"session\": \"20261130-190000-abcdef\","
    " \"problem_id\": \"add\", \"problem\": {\"title\": \"Add two numbers\", \"description\": \"Add.\"},"
    " \"state\": \"thinking\","
    " \"messages\": ["
    "   {\"role\": \"assistant\", \"content\": \"\", \"tool_calls\": [{\"id\": \"call_1\", \"type\": \"function\","
    "     \"function\": {\"name\": \"%s\", \"arguments\": \"{}\"}}]},"
    "   {\"role\": \"tool\", \"tool_call_id\": \"call_1\", \"content\": \"{\\\"step\\\": \\\"S1\\\", \\\"shouted\\\": \\\"DEF\\\"}\"}],"
    " \"steps\": [{\"id\": \"S1\", \"name\": \"%s\", \"arguments\": \"{}\", \"ok\": true, \"duration_ms\": 3,"
    "             \"result\": {\"step\": \"S1\", \"shouted\": \"DEF\"}}],"
    " \"code\": {\"sha256\": \"\", \"text\": \"def add(a, b):\\n    return a + b\\n\"}}",
    tool_name, tool_name);
  g_autoptr(JsonNode) checkpoint = json_from_string (checkpoint_text, NULL);
  g_autoptr(JsonNode) report = NULL;

  g_assert_nonnull (checkpoint);
  report = viva_exam_report_build (checkpoint, NULL, -1);
  g_assert_nonnull (report);

  return viva_exam_report_render_html (report);
}

static void
test_own_tool_in_report (void)
{
  g_autofree char *html = NULL;
  g_autofree char *unknown = NULL;

  g_type_ensure (viva_test_shout_tool_get_type ());
  g_assert_true (viva_exam_tool_facts_lookup ("shoutAtCode") == &shout_facts);
  g_assert_cmpstr (viva_exam_tool_title ("shoutAtCode"), ==, "Shouting at your code");
  g_assert_cmpstr (viva_exam_tool_facts_get_done_text (&shout_facts, 2), ==, "Shouted at your code again and again");

  html = report_html_for ("shoutAtCode");
  g_assert_nonnull (strstr (html, "Shouting at your code"));

  /* And a name no tool has is shown as it is. */
  unknown = report_html_for ("whisperAtCode");
  g_assert_nonnull (strstr (unknown, "whisperAtCode"));
  g_assert_null (strstr (unknown, "Shouting at your code"));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/viva/exam-tool-facts/defaults", test_defaults_describe_themselves);
  g_test_add_func ("/viva/exam-tool-facts/unknown-name", test_unknown_name);
  g_test_add_func ("/viva/exam-tool-facts/own-tool-runs", test_own_tool_runs);
  g_test_add_func ("/viva/exam-tool-facts/own-tool-in-report", test_own_tool_in_report);

  return g_test_run ();
}

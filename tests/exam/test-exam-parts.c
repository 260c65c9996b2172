/* test-exam-parts.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "exam-test-common.h"
#include "viva-core.h"
#include "viva-exam-facts.h"
#include "viva-timeline.h"
#include "viva-exam-leak-guard.h"
#include "viva-exam-leak-stream.h"
#include "viva-exam-local-runs.h"
#include "viva-exam-private.h"
#include "viva-scripted-model.h"
#include "viva-test-util.h"

/* The examiner's parts on their own: the tool contract and its argument
 * checks, the verdict, the code source, the answer channel, properties,
 * and checkpoint validation. No worker, no server. */

static VivaExamTool *
find_tool (GPtrArray  *tools,
           const char *name)
{
  for (guint i = 0; i < tools->len; i++)
    if (g_str_equal (viva_exam_tool_get_name (g_ptr_array_index (tools, i)), name))
      return g_ptr_array_index (tools, i);

  g_assert_not_reached ();
}

static void
test_tools_contract (void)
{
  g_autoptr(GPtrArray) tools = viva_exam_tools_new_default ();
  const struct { const char *name; VivaExamToolKind kind; } expected[] = {
    { "readStudentCode", VIVA_EXAM_TOOL_KIND_ORDINARY },
    { "runPython", VIVA_EXAM_TOOL_KIND_ORDINARY },
    { "injectTestCase", VIVA_EXAM_TOOL_KIND_ORDINARY },
    { "askStudent", VIVA_EXAM_TOOL_KIND_WAITS },
    { "message", VIVA_EXAM_TOOL_KIND_SPEAKS },
    { "finishDefense", VIVA_EXAM_TOOL_KIND_FINISHES },
  };

  g_assert_cmpuint (tools->len, ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      VivaExamTool *tool = g_ptr_array_index (tools, i);
      VivaToolDefinition *definition = viva_exam_tool_get_definition (tool);

      g_assert_cmpstr (viva_exam_tool_get_name (tool), ==, expected[i].name);
      g_assert_cmpint (viva_exam_tool_get_kind (tool), ==, expected[i].kind);
      g_assert_nonnull (viva_exam_tool_get_description (tool));
      g_assert_cmpstr (viva_tool_definition_get_name (definition), ==, expected[i].name);
      g_assert_true (JSON_NODE_HOLDS_OBJECT (viva_exam_tool_get_parameters (tool)));
    }

  while (tools->len > 0)
    g_assert_finalize_object (g_ptr_array_steal_index (tools, 0));
}

static void
test_tool_arguments (void)
{
  g_autoptr(GPtrArray) tools = viva_exam_tools_new_default ();
  VivaExamTool *finish = find_tool (tools, "finishDefense");
  VivaExamTool *run = find_tool (tools, "runPython");
  VivaExamTool *read = find_tool (tools, "readStudentCode");
  const struct { VivaExamTool *tool; const char *arguments; const char *message; } bad[] = {
    { run, "{\"code\": ", "not a JSON object" },
    { run, "[1, 2]", "not a JSON object" },
    { run, "{}", "“code” is missing" },
    { run, "{\"code\": null}", "“code” is missing" },
    { run, "{\"code\": 42}", "must be of type string" },
    { run, "{\"code\": \"   \"}", "must not be empty" },
    { finish, "{\"verdict\": \"pass\", \"score\": 101, \"comment\": \"c\", \"evidence\": []}", "outside 0 to 100" },
    { finish, "{\"verdict\": \"pass\", \"score\": -1, \"comment\": \"c\", \"evidence\": []}", "outside 0 to 100" },
    { finish, "{\"verdict\": \"pass\", \"score\": 5.5, \"comment\": \"c\", \"evidence\": []}", "of type integer" },
    { finish, "{\"verdict\": \"ok\", \"score\": 5, \"comment\": \"c\", \"evidence\": []}", "cannot be “ok”" },
    { finish, "{\"verdict\": \"pass\", \"score\": 5, \"comment\": \"c\", \"evidence\": [3]}", "of type string" },
    { finish, "{\"verdict\": \"pass\", \"score\": 5, \"comment\": \"c\"}", "“evidence” is missing" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonObject) arguments = viva_exam_tool_parse_arguments (bad[i].tool, bad[i].arguments, &error);

      g_assert_null (arguments);
      g_assert_error (error, VIVA_EXAM_ERROR, VIVA_EXAM_ERROR_INVALID_ARGUMENTS);
      if (strstr (error->message, bad[i].message) == NULL)
        g_error ("%s: “%s” does not say “%s”", bad[i].arguments, error->message, bad[i].message);
    }

  {
    g_autoptr(GError) error = NULL;
    g_autoptr(JsonObject) ok = viva_exam_tool_parse_arguments (finish,
      "{\"verdict\": \"fail\", \"score\": 40.0, \"comment\": \"c\", \"evidence\": [\"S1\"], \"extra\": 1}", &error);
    g_autoptr(JsonObject) empty = viva_exam_tool_parse_arguments (read, "", &error);

    g_assert_no_error (error);
    g_assert_nonnull (ok);
    g_assert_nonnull (empty);
    g_assert_cmpuint (json_object_get_size (empty), ==, 0);
  }
}

static void
test_number_lines (void)
{
  g_autofree char *empty = _viva_exam_number_lines ("");
  g_autofree char *two = _viva_exam_number_lines ("a = 1\nprint(a)\n");
  g_autofree char *unterminated = _viva_exam_number_lines ("x\n\ny");

  g_assert_cmpstr (empty, ==, "");
  g_assert_cmpstr (two, ==, "   1| a = 1\n   2| print(a)\n");
  g_assert_cmpstr (unterminated, ==, "   1| x\n   2| \n   3| y\n");
}

static void
test_prompt (void)
{
  g_autoptr(GBytes) template = g_resources_lookup_data (RESOURCE_PREFIX "/core/prompts/examiner.md", 0, NULL);
  g_autoptr(VivaProblem) problem = exam_problem_new ();
  g_autofree char *prompt = NULL;
  g_autofree char *traced = NULL;
  g_autofree char *code = NULL;
  g_autofree char *edited = NULL;

  g_assert_nonnull (template);
  prompt = _viva_exam_prompt_build (g_bytes_get_data (template, NULL), problem, "Deutsch", FALSE);
  traced = _viva_exam_prompt_build (g_bytes_get_data (template, NULL), problem, "Deutsch", TRUE);
  code = _viva_exam_code_message ("def add(a, b):\n    return a + b  # {{rubric}}\n", FALSE);
  edited = _viva_exam_code_message ("", TRUE);

  /* Every placeholder is filled; the code is not in the system prompt but
   * in messages of its own, where what the student writes stays as written. */
  g_assert_null (strstr (prompt, "{{"));
  g_assert_null (strstr (prompt, "def add(a, b):\n"));
  g_assert_nonnull (strstr (code, "   2|     return a + b  # {{rubric}}"));
  g_assert_true (g_str_has_prefix (code, "From the exam system: the student's code as submitted"));
  g_assert_true (g_str_has_prefix (edited, "From the exam system: the student edited the code"));
  g_assert_nonnull (strstr (edited, "(the editor is empty)"));
  g_assert_nonnull (strstr (prompt, "Add two numbers"));
  g_assert_nonnull (strstr (prompt, "in Deutsch"));
  g_assert_nonnull (strstr (prompt, "Why does add work for strings too?"));
  /* A held-out test is named, never shown, even to the model. */
  g_assert_null (strstr (prompt, "assert add(2, 3) == 5"));
  g_assert_nonnull (strstr (prompt, "## Held-out tests (names only)"));
  g_assert_nonnull (strstr (prompt, "- small numbers\n"));
  g_assert_nonnull (strstr (prompt, "finishDefense"));
  /* The reference solution never reaches the model. */
  g_assert_null (strstr (prompt, "return a + b\n```"));

  /* The trace's copy withholds the expected points too. */
  g_assert_null (strstr (traced, "assert add(2, 3) == 5"));
  g_assert_null (strstr (traced, "the + operator"));
  g_assert_nonnull (strstr (traced, "- small numbers\n"));
  g_assert_nonnull (strstr (traced, "Why does add work for strings too?"));

  /* A shown test reaches the model whole: setup, call and check. */
  viva_problem_add_structured_test (problem, "an example", "x = 2", "add(x, 3)", "assert result == 5, 'two and three'",
                                    FALSE, 0);
  viva_problem_set_test_shown (problem, 1, TRUE);
  g_clear_pointer (&prompt, g_free);
  prompt = _viva_exam_prompt_build (g_bytes_get_data (template, NULL), problem, "Deutsch", FALSE);
  g_assert_nonnull (strstr (prompt, "### an example\nsetup:\n```python\nx = 2\n```\ncall: `add(x, 3)`"));
  g_assert_nonnull (strstr (prompt, "assert result == 5, 'two and three'"));
  g_assert_null (strstr (prompt, "- an example\n"));
}

static void
test_verdict (void)
{
  g_autoptr(GPtrArray) steps = g_ptr_array_new ();
  g_autoptr(GPtrArray) evidence = g_ptr_array_new ();
  g_autoptr(GPtrArray) probes = g_ptr_array_new ();
  VivaExamProbe passed = { (char *)"S3", (char *)"assert f()", TRUE, TRUE, (char *)"ok", NULL, NULL };
  VivaExamProbe failed = { (char *)"S4", (char *)"assert g()", FALSE, TRUE, (char *)"error",
                           (char *)"AssertionError", (char *)"nope" };
  VivaExamProbe invalid = { (char *)"S5", (char *)"assert h()", FALSE, FALSE, (char *)"error", NULL, NULL };
  g_autoptr(VivaExamVerdict) verdict = NULL;
  g_autoptr(VivaExamVerdict) copy = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonNode) again = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;

  g_ptr_array_add (steps, (char *)"readStudentCode");
  g_ptr_array_add (steps, (char *)"injectTestCase");
  g_ptr_array_add (evidence, (char *)"S3");
  g_ptr_array_add (probes, &passed);
  g_ptr_array_add (probes, &failed);
  g_ptr_array_add (probes, &invalid);

  verdict = _viva_exam_verdict_new (VIVA_EXAM_STATUS_FINISHED, TRUE, 75, "Good", NULL, steps, evidence, probes);
  g_assert_cmpuint (viva_exam_verdict_get_n_passed (verdict), ==, 1);
  g_assert_cmpuint (viva_exam_verdict_get_n_failed (verdict), ==, 1);
  g_assert_cmpuint (viva_exam_verdict_get_n_invalid (verdict), ==, 1);
  g_assert_false (viva_exam_verdict_get_consistent (verdict));

  node = viva_exam_verdict_to_json (verdict);
  copy = viva_exam_verdict_new_from_json (node, &error);
  g_assert_no_error (error);
  again = viva_exam_verdict_to_json (copy);
  a = json_to_string (node, FALSE);
  b = json_to_string (again, FALSE);
  g_assert_cmpstr (a, ==, b);
  g_assert_cmpstr (viva_exam_status_to_string (viva_exam_verdict_get_status (copy)), ==, "finished");

  {
    g_autoptr(JsonNode) weird = json_from_string ("{\"status\": \"weird\", \"verdict\": \"pass\"}", NULL);
    g_autoptr(VivaExamVerdict) none = viva_exam_verdict_new_from_json (weird, &error);

    g_assert_null (none);
    g_assert_error (error, VIVA_EXAM_ERROR, VIVA_EXAM_ERROR_CHECKPOINT_CORRUPT);
  }

  g_assert_finalize_object (g_steal_pointer (&copy));
  g_assert_finalize_object (g_steal_pointer (&verdict));
}

static void
test_limits (void)
{
  VivaExamLimits limits;

  viva_exam_limits_init_default (&limits);
  g_assert_cmpuint (limits.max_iterations, ==, 30);
  g_assert_cmpuint (limits.max_replies_without_tool, ==, 2);
  g_assert_cmpuint (limits.repeat_limit, ==, 4);
  g_assert_cmpuint (limits.repeat_window, ==, 10);
  g_assert_cmpuint (limits.tool_output_limit, >, 0);
}

static void
test_code_source (void)
{
  g_autoptr(VivaTextCodeSource) source = viva_text_code_source_new ("a = 1\n");
  g_auto(GValue) value = G_VALUE_INIT;
  g_autofree char *code = NULL;

  g_value_init (&value, G_TYPE_STRING);
  g_value_set_string (&value, "b = 2\n");
  viva_test_assert_notify (source, "code", &value);

  code = viva_code_source_dup_code (VIVA_CODE_SOURCE (source));
  g_assert_cmpstr (code, ==, "b = 2\n");
  g_assert_finalize_object (g_steal_pointer (&source));
}


static void
test_answer_channel (void)
{
  g_autoptr(VivaProblem) problem = exam_problem_new ();
  g_autoptr(VivaTextCodeSource) source = viva_text_code_source_new ("");
  g_autoptr(VivaExamLocalRuns) runs = viva_exam_local_runs_new (problem, NULL, NULL);
  g_autoptr(VivaExamContext) context = viva_exam_context_new (problem, VIVA_CODE_SOURCE (source), VIVA_EXAM_RUNS (runs), 1000);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *answer = NULL;

  g_assert_false (viva_exam_context_give_answer (context, "early", &error));
  g_assert_error (error, VIVA_EXAM_ERROR, VIVA_EXAM_ERROR_NOT_WAITING);
  g_clear_error (&error);

  viva_exam_context_wait_answer_async (context, "Why?", NULL, viva_test_store_result, &result);
  g_assert_cmpstr (viva_exam_context_get_pending_question (context), ==, "Why?");
  g_assert_true (viva_exam_context_give_answer (context, "Because.", &error));
  g_assert_no_error (error);
  g_assert_null (viva_exam_context_get_pending_question (context));

  viva_test_run_until_result (&result);
  answer = viva_exam_context_wait_answer_finish (context, result, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (answer, ==, "Because.");

  g_clear_object (&result);
  g_assert_finalize_object (g_steal_pointer (&context));
}

static void
test_examiner_properties (void)
{
  g_autoptr(VivaProblem) problem = exam_problem_new ();
  g_autoptr(VivaTextCodeSource) source = viva_text_code_source_new ("");
  g_autoptr(VivaScriptedModel) model = viva_scripted_model_new (problem);
  g_autoptr(VivaExaminer) examiner = viva_examiner_new (VIVA_CHAT_MODEL (model), problem, VIVA_CODE_SOURCE (source));
  g_autoptr(VivaExamSession) session = viva_exam_session_new (g_get_tmp_dir ());
  g_auto(GValue) language = G_VALUE_INIT;
  g_auto(GValue) pack = G_VALUE_INIT;
  g_auto(GValue) session_value = G_VALUE_INIT;

  g_value_init (&language, G_TYPE_STRING);
  g_value_set_string (&language, "Français");
  viva_test_assert_notify (examiner, "language", &language);
  g_value_init (&pack, G_TYPE_STRING);
  g_value_set_string (&pack, "intro-ai");
  viva_test_assert_notify (examiner, "pack-id", &pack);
  g_value_init (&session_value, VIVA_TYPE_EXAM_SESSION);
  g_value_set_object (&session_value, session);
  viva_test_assert_notify (examiner, "session", &session_value);

  g_assert_cmpint (viva_examiner_get_state (examiner), ==, VIVA_EXAMINER_STATE_IDLE);
  g_assert_cmpstr (viva_examiner_state_to_string (VIVA_EXAMINER_STATE_WAITING_FOR_STUDENT), ==, "waiting-for-student");
  g_assert_null (viva_examiner_get_verdict (examiner));
  g_assert_true (viva_examiner_get_problem (examiner) == problem);

  g_value_unset (&session_value);
  g_assert_finalize_object (g_steal_pointer (&examiner));
  g_assert_finalize_object (g_steal_pointer (&model));
  g_assert_finalize_object (g_steal_pointer (&session));
}

static void
test_checkpoint_validation (void)
{
  const struct { const char *text; VivaExamError code; const char *message; } bad[] = {
    { "", VIVA_EXAM_ERROR_CHECKPOINT_CORRUPT, "empty" },
    { "{\"format\": \"viva-checkpoint\", \"vers", VIVA_EXAM_ERROR_CHECKPOINT_CORRUPT, "cut short" },
    { "[]", VIVA_EXAM_ERROR_CHECKPOINT_CORRUPT, "not a JSON object" },
    { "{\"format\": \"viva-pack/1\"}", VIVA_EXAM_ERROR_CHECKPOINT_CORRUPT, "not a Viva checkpoint" },
    { "{\"format\": \"viva-checkpoint\", \"version\": 99}", VIVA_EXAM_ERROR_CHECKPOINT_NEWER, "newer Viva" },
    { "{\"format\": \"viva-checkpoint\", \"version\": 1, \"session\": \"s\", \"problem_id\": \"p\","
      " \"problem_sha256\": \"h\", \"state\": \"idle\", \"phase\": \"elsewhere\"}",
      VIVA_EXAM_ERROR_CHECKPOINT_CORRUPT, "phase" },
    { "{\"format\": \"viva-checkpoint\", \"version\": 1, \"session\": \"s\", \"problem_id\": \"p\","
      " \"problem_sha256\": \"h\", \"state\": \"idle\", \"phase\": \"model\", \"pack\": {}, \"counters\": {},"
      " \"messages\": [{\"role\": \"wizard\"}], \"steps\": []}",
      VIVA_EXAM_ERROR_CHECKPOINT_CORRUPT, "message 0" },
    /* Said as the pack checker says it: the member's path, what it is,
     * what it should be. */
    { "{\"format\": \"viva-checkpoint\", \"version\": 1, \"problem_id\": \"p\"}",
      VIVA_EXAM_ERROR_CHECKPOINT_CORRUPT, "“session” is missing" },
    { "{\"format\": \"viva-checkpoint\", \"version\": 1, \"session\": \"s\", \"problem_id\": \"p\","
      " \"problem_sha256\": \"h\", \"state\": \"idle\", \"phase\": \"model\", \"counters\": {},"
      " \"messages\": [], \"steps\": [{\"id\": \"S1\", \"name\": \"run\"}, {\"id\": \"S2\", \"name\": 3}]}",
      VIVA_EXAM_ERROR_CHECKPOINT_CORRUPT, "“steps[1].name” is a number, not text" },
    { "{\"format\": \"viva-checkpoint\", \"version\": 1, \"session\": \"s\", \"problem_id\": \"p\","
      " \"problem_sha256\": \"h\", \"state\": \"idle\", \"phase\": \"model\", \"counters\": {},"
      " \"messages\": [], \"steps\": [], \"pack_ref\": {\"id\": \"p\", \"digest\": true}}",
      VIVA_EXAM_ERROR_CHECKPOINT_CORRUPT, "“pack_ref.digest” is true or false, not text" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) node = viva_exam_checkpoint_parse (bad[i].text, -1, &error);

      g_assert_null (node);
      g_assert_error (error, VIVA_EXAM_ERROR, (int)bad[i].code);
      if (strstr (error->message, bad[i].message) == NULL)
        g_error ("“%s” does not say “%s”", error->message, bad[i].message);
    }
}

#define LEAK_REFERENCE \
  "def kmeans(points, k):\n" \
  "    centroids = points[:k]\n" \
  "    for _ in range(100):\n" \
  "        labels = [min(range(k), key=lambda c: dist(p, centroids[c])) for p in points]\n" \
  "    return centroids, labels\n"

static char *
guarded (VivaExamLeakGuard *guard,
         const char        *text,
         const char        *student_code)
{
  g_autoptr(GArray) ranges = _viva_exam_leak_guard_find (guard, text, strlen (text), student_code);

  return _viva_exam_leak_guard_apply (text, strlen (text), ranges);
}

/* Issue 18's leak guard: long runs of the reference or a hidden test,
 * whatever their whitespace, are withheld; short ones, the public text and
 * the student's own code are not. */
static void
test_leak_guard (void)
{
  g_autoptr(VivaProblem) problem = viva_problem_new ("kmeans", "K-Means");
  g_autoptr(VivaExamLeakGuard) guard = NULL;
  g_autofree char *reworded = NULL;
  g_autofree char *short_one = NULL;
  g_autofree char *quoted = NULL;
  g_autofree char *test_leak = NULL;
  g_autofree char *starter = NULL;
  const char *note = _viva_exam_leak_guard_note ();

  viva_problem_set_description (problem, "Implement `kmeans(points, k)`.");
  viva_problem_set_starter_code (problem, "def kmeans(points, k):\n    # returns (centroids, labels) for the k clusters\n    pass\n");
  viva_problem_set_reference (problem, LEAK_REFERENCE);
  viva_problem_add_test (problem, "two clusters",
                         "c, l = kmeans([(0, 0), (0, 1), (9, 9), (9, 8)], 2)\nassert sorted(set(l)) == [0, 1]\n");
  guard = _viva_exam_leak_guard_new (problem);

  /* The reference's loop, re-indented and on one line: withheld. */
  reworded = guarded (guard, "Look at this:\n```python\nfor _ in range(100): labels = [min(range(k), "
                             "key=lambda c: dist(p, centroids[c])) for p in points]\n```\nSee?", NULL);
  g_assert_true (g_str_has_prefix (reworded, "Look at this:\n```python\n"));
  g_assert_nonnull (strstr (reworded, note));
  g_assert_null (strstr (reworded, "dist(p, centroids[c])"));
  g_assert_true (g_str_has_suffix (reworded, "\n```\nSee?"));

  /* A hidden test's code: withheld. */
  test_leak = guarded (guard, "Try c, l = kmeans([(0, 0), (0, 1), (9, 9), (9, 8)], 2) yourself.", NULL);
  g_assert_nonnull (strstr (test_leak, note));
  g_assert_null (strstr (test_leak, "(9, 9), (9, 8)"));

  /* Short overlaps are no leak. */
  short_one = guarded (guard, "Why does your loop run range(100) times?", NULL);
  g_assert_cmpstr (short_one, ==, "Why does your loop run range(100) times?");

  /* The starter code is public. */
  starter = guarded (guard, "The docstring says: # returns (centroids, labels) for the k clusters", NULL);
  g_assert_null (strstr (starter, note));

  /* The student's own code, though it is the reference's, may be quoted. */
  quoted = guarded (guard, "You wrote `labels = [min(range(k), key=lambda c: dist(p, centroids[c])) for p in points]`.",
                    LEAK_REFERENCE);
  g_assert_null (strstr (quoted, note));

  /* Streaming: all is shown but an end the secrets hold. */
  {
    const char *plain = "Why do you stop after a hundred rounds?";
    const char *start = "Look: for _ in range(100): lab";

    g_autoptr(VivaExamLeakStream) stream = _viva_exam_leak_stream_new (guard);

    _viva_exam_leak_stream_push (stream, plain, strlen (plain), NULL);
    g_assert_cmpuint (_viva_exam_leak_stream_get_settled (stream), ==, strlen (plain));
    _viva_exam_leak_stream_reset (stream);
    _viva_exam_leak_stream_push (stream, start, strlen (start), NULL);
    g_assert_cmpuint (_viva_exam_leak_stream_get_settled (stream), ==, strlen ("Look:"));
  }
}

/* The leak stream is the guard, incrementally: whatever the pieces a
 * reply streams in (cut inside a character too), it withholds the same
 * ranges as the whole text checked at once, and what it shows, settled
 * piece by piece, is the whole text guarded. */
static void
test_leak_stream_pieces (void)
{
  g_autoptr(VivaProblem) problem = viva_problem_new ("kmeans", "K-Means");
  g_autoptr(VivaExamLeakGuard) guard = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (25);
  g_autofree char *encoded = g_base64_encode ((const guchar *)LEAK_REFERENCE + 1, strlen (LEAK_REFERENCE) - 1);
  g_autofree char *text = NULL;
  g_autoptr(GArray) whole = NULL;
  g_autofree char *expected = NULL;

  viva_problem_set_description (problem, "Implement `kmeans(points, k)`.");
  viva_problem_set_reference (problem, LEAK_REFERENCE);
  guard = _viva_exam_leak_guard_new (problem);
  /* A leak in full-width letters with zero-width spaces, one upper-cased,
   * one in base64 from an odd offset, with accents and emoji around. */
  text = g_strdup_printf ("Café ☕ first: ｆｏｒ\u200b _ in range(100):\u200b labels = [min(range(k), key=lambda c: "
                          "dist(p, centroids[c])) for p in points] — then: RETURN CENTROIDS, LABELS; "
                          "DEF KMEANS(POINTS, K): CENTROIDS = POINTS[:K] and %s. Fin 🎉", encoded);
  whole = _viva_exam_leak_guard_find (guard, text, strlen (text), NULL);
  g_assert_cmpuint (whole->len, ==, 3);
  expected = _viva_exam_leak_guard_apply (text, strlen (text), whole);

  for (guint round = 0; round < 50; round++)
    {
      g_autoptr(VivaExamLeakStream) stream = _viva_exam_leak_stream_new (guard);
      g_autoptr(GString) shown = g_string_new (NULL);
      gsize length = strlen (text);
      GArray *ranges;

      for (gsize at = 0, n; at < length; at += n)
        {
          g_autofree char *piece = NULL;
          gsize size = g_rand_int_range (rand, 1, round < 25 ? 3 : 12);

          n = MIN (size, length - at);
          _viva_exam_leak_stream_push (stream, text + at, n, NULL);
          piece = _viva_exam_leak_stream_take_shown (stream, _viva_exam_leak_stream_get_settled (stream));
          if (piece != NULL)
            g_string_append (shown, piece);
        }
      _viva_exam_leak_stream_close (stream);
      {
        g_autofree char *rest = _viva_exam_leak_stream_take_shown (stream, G_MAXSIZE);

        if (rest != NULL)
          g_string_append (shown, rest);
      }

      ranges = _viva_exam_leak_stream_get_ranges (stream);
      g_assert_cmpuint (ranges->len, ==, whole->len);
      for (guint i = 0; i < ranges->len; i++)
        {
          g_assert_cmpuint (g_array_index (ranges, VivaExamLeakRange, i).start, ==,
                            g_array_index (whole, VivaExamLeakRange, i).start);
          g_assert_cmpuint (g_array_index (ranges, VivaExamLeakRange, i).end, ==,
                            g_array_index (whole, VivaExamLeakRange, i).end);
        }
      g_assert_cmpstr (shown->str, ==, expected);
    }

  g_assert_true (g_str_has_prefix (expected, "Café ☕ first: "));
  g_assert_true (g_str_has_suffix (expected, ". Fin 🎉"));
  g_assert_null (strstr (expected, "CENTROIDS = POINTS"));
  g_assert_null (strstr (expected, encoded + 4));
}

/* The items a score is made of survive the verdict's JSON, add up, keep
 * what a teacher wrote beside them, and a spread item makes it provisional. */
static void
test_verdict_items (void)
{
  g_autoptr(VivaExamVerdict) verdict = _viva_exam_verdict_new (VIVA_EXAM_STATUS_FINISHED, TRUE, 80, "ok",
                                                               NULL, NULL, NULL, NULL);
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func ((GDestroyNotify)viva_exam_item_free);
  g_autoptr(VivaExamVerdict) back = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonNode) again = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *text = NULL;
  VivaExamItem *item;
  const VivaExamItem *read;

  item = viva_exam_item_new (VIVA_EXAM_ITEM_ENGINE_TEST, "test:a", "a", 60);
  viva_exam_item_add_score (item, 60);
  g_ptr_array_add (items, item);
  item = viva_exam_item_new (VIVA_EXAM_ITEM_PREDICTION, "prediction:P1", "f(1)", 20);
  viva_exam_item_add_score (item, 0);
  item->reason = g_strdup ("Not a Python value");
  g_ptr_array_add (items, item);
  item = viva_exam_item_new (VIVA_EXAM_ITEM_CONCEPTUAL, "conceptual:Q1", "why?", 20);
  viva_exam_item_add_score (item, 20);
  viva_exam_item_add_score (item, 2);
  viva_exam_item_add_score (item, 18);
  item->needs_review = TRUE;
  g_ptr_array_add (items, item);
  _viva_exam_verdict_set_items (verdict, items);

  /* The median of three, so one odd scoring does not move the points. */
  g_assert_cmpfloat_with_epsilon (((VivaExamItem *)g_ptr_array_index (items, 2))->points, 18, 1e-9);
  g_assert_cmpfloat_with_epsilon (viva_exam_verdict_get_points (verdict), 78, 1e-9);
  g_assert_cmpfloat_with_epsilon (viva_exam_verdict_get_max_points (verdict), 100, 1e-9);
  g_assert_true (viva_exam_verdict_get_provisional (verdict));

  node = viva_exam_verdict_to_json (verdict);
  /* A teacher's score written beside an item is kept through a round trip. */
  json_object_set_object_member (json_array_get_object_element (json_object_get_array_member (json_node_get_object (node), "items"), 2),
                                 "teacher", json_object_new ());
  text = json_to_string (node, FALSE);
  g_assert_nonnull (strstr (text, "\"judged_by\":\"engine\""));
  g_assert_nonnull (strstr (text, "\"kind\":\"conceptual\""));
  g_assert_nonnull (strstr (text, "\"provisional\":true"));
  back = viva_exam_verdict_new_from_json (node, NULL);
  g_assert_nonnull (back);
  g_assert_cmpuint (viva_exam_verdict_get_items (back)->len, ==, 3);
  read = g_ptr_array_index (viva_exam_verdict_get_items (back), 1);
  g_assert_cmpstr (read->id, ==, "prediction:P1");
  g_assert_cmpint (read->kind, ==, VIVA_EXAM_ITEM_PREDICTION);
  g_assert_cmpint (read->judged_by, ==, VIVA_EXAM_JUDGE_ENGINE);
  g_assert_cmpstr (read->reason, ==, "Not a Python value");
  read = g_ptr_array_index (viva_exam_verdict_get_items (back), 2);
  g_assert_cmpuint (read->scores->len, ==, 3);
  g_assert_true (read->needs_review);
  g_assert_cmpint (read->judged_by, ==, VIVA_EXAM_JUDGE_MODEL);
  again = viva_exam_verdict_to_json (back);
  g_assert_true (json_object_has_member (json_array_get_object_element (json_object_get_array_member (json_node_get_object (again), "items"), 2),
                                         "teacher"));
  g_assert_cmpfloat_with_epsilon (viva_exam_verdict_get_points (back), 78, 1e-9);
}

/* The facts the examiner gets from the timeline: each Check and each
 * explanation, in order, with its time; nothing else of the timeline, and
 * nothing when there are none. */
static void
test_facts (void)
{
  g_autoptr(JsonArray) timeline = json_array_new ();
  g_autoptr(JsonArray) plain = json_array_new ();
  g_autofree char *long_text = g_strnfill (500, 'x');
  g_autofree char *facts = NULL;
  const char *check, *error, *selection, *more;
  JsonObject *event;

  json_array_add_object_element (plain, viva_timeline_event_code ("run", "x = 1\n"));
  json_array_add_object_element (plain, viva_timeline_event_hint ("add"));
  g_assert_null (viva_exam_facts_message (plain));
  g_assert_null (viva_exam_facts_message (NULL));

  json_array_add_object_element (timeline, viva_timeline_event_code ("run", "x = 1\n"));
  event = viva_timeline_event_check ("x = 1\n", 1, 3);
  json_object_set_string_member (event, "time", "2026-12-01T14:02:11Z");
  json_array_add_object_element (timeline, event);
  event = json_object_new ();
  json_object_set_string_member (event, "kind", "explain");
  json_object_set_string_member (event, "what", "error");
  json_object_set_string_member (event, "detail", long_text);
  json_array_add_object_element (timeline, event);
  event = json_object_new ();
  json_object_set_string_member (event, "kind", "explain");
  json_object_set_string_member (event, "what", "selection");
  json_object_set_int_member (event, "first_line", 3);
  json_object_set_int_member (event, "last_line", 5);
  json_array_add_object_element (timeline, event);
  json_array_add_object_element (timeline, viva_timeline_event_check ("x = 2\n", 3, 3));
  /* As the window records an explanation: what, and no detail. */
  json_array_add_object_element (timeline, viva_timeline_event_explain ("add", "error"));
  /* Forged counts say nothing. */
  event = viva_timeline_event_check ("x = 2\n", 9, 3);
  json_array_add_object_element (timeline, event);

  facts = viva_exam_facts_message (timeline);
  g_test_message ("%s", facts);
  g_assert_true (g_str_has_prefix (facts, "From the exam system: "));
  check = strstr (facts, "- 14:02:11 UTC: Checked the code against the shown tests: 1 of 3 passed.\n");
  error = strstr (facts, "Asked Viva to explain an error (xxx");
  selection = strstr (facts, "Asked Viva to explain a selection of the code (lines 3–5).\n");
  more = strstr (facts, "Checked the code against the shown tests: all 3 passed.\n");
  g_assert_nonnull (check);
  g_assert_nonnull (error);
  g_assert_nonnull (selection);
  g_assert_nonnull (more);
  g_assert_true (check < error && error < selection && selection < more);
  g_assert_nonnull (strstr (more, ": Asked Viva to explain an error.\n"));
  /* The student's text is cut short; the run, the hint and the forged
   * check are not facts. */
  g_assert_null (strstr (facts, long_text));
  g_assert_null (strstr (facts, "9 of 3"));
  g_assert_null (strstr (facts, "x = 1"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  viva_core_init ();

  g_test_add_func ("/viva/exam/tools-contract", test_tools_contract);
  g_test_add_func ("/viva/exam/tool-arguments", test_tool_arguments);
  g_test_add_func ("/viva/exam/number-lines", test_number_lines);
  g_test_add_func ("/viva/exam/prompt", test_prompt);
  g_test_add_func ("/viva/exam/facts", test_facts);
  g_test_add_func ("/viva/exam/leak-guard", test_leak_guard);
  g_test_add_func ("/viva/exam/leak-stream-pieces", test_leak_stream_pieces);
  g_test_add_func ("/viva/exam/verdict", test_verdict);
  g_test_add_func ("/viva/exam/verdict-items", test_verdict_items);
  g_test_add_func ("/viva/exam/limits", test_limits);
  g_test_add_func ("/viva/exam/code-source", test_code_source);
  g_test_add_func ("/viva/exam/answer-channel", test_answer_channel);
  g_test_add_func ("/viva/exam/examiner-properties", test_examiner_properties);
  g_test_add_func ("/viva/exam/checkpoint-validation", test_checkpoint_validation);

  return g_test_run ();
}

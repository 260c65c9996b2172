/* test-examiner-leaks.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "examiner-fixture.h"
#include "viva-test-util.h"

/* Issue 27's leak guard, through the real examiner: a model that recites
 * the reference and a hidden test's check disguised (letter-spaced,
 * upper-cased, base64, hex, streamed a word or a byte at a time by the
 * scripted server in vLLM's shape) has every passage withheld before the
 * student sees it, while the same disguises of the student's own code
 * pass untouched. */

typedef ExaminerFixture Fixture;

#define REFERENCE \
  "def add(a, b):\n" \
  "    result_of_the_sum = a.__add__(b) if hasattr(a, '__add__') else a + b\n" \
  "    return result_of_the_sum\n"
#define CHECK "assert result == 1111111110, 'the sum of two big numbers came out wrong'"

static const char *note = "[Withheld by Viva: this passage repeated the reference solution or a hidden test.]";

static void
collect_delta (VivaExaminer        *examiner,
               const VivaChatDelta *delta,
               GString             *seen)
{
  if (delta->text != NULL && (delta->kind == VIVA_CHAT_DELTA_CONTENT || delta->kind == VIVA_CHAT_DELTA_REASONING))
    g_string_append (seen, delta->text);
}

static void
collect_question (VivaExaminer *examiner,
                  const char   *step,
                  const char   *question,
                  GString      *seen)
{
  g_string_append_printf (seen, "\n%s\n", question);
}

static char *
letter_spaced (const char *text)
{
  GString *out = g_string_new (NULL);

  for (const char *p = text; *p != '\0'; p++)
    if (*p != ' ')
      g_string_append_printf (out, "%s%c", out->len > 0 ? " " : "", *p);

  return g_string_free (out, FALSE);
}

/* Hex a byte a word, so the server streams it a byte a delta. */
static char *
spaced_hex (const char *text)
{
  GString *out = g_string_new (NULL);

  for (const char *p = text; *p != '\0'; p++)
    g_string_append_printf (out, "%s%02X", out->len > 0 ? " " : "", (guchar)*p);

  return g_string_free (out, FALSE);
}

static void
queue (Fixture    *fixture,
       const char *content,
       const char *reasoning,
       const char *tool,
       const char *arguments)
{
  g_autoptr(VivaTestResponse) response = viva_test_response_new_chat_stream (content, reasoning, tool, arguments);

  viva_test_server_queue (fixture->server, "POST", "/v1/chat/completions", response);
}

/* The model's disguised recitals, in a defense that keeps the protocol. */
static void
queue_disguises (Fixture *fixture)
{
  g_autofree char *spaced = letter_spaced ("result_of_the_sum = a.__add__(b) if hasattr(a, '__add__') else a + b");
  g_autofree char *upper = g_ascii_strup ("result_of_the_sum = a.__add__(b) if hasattr(a, '__add__') else a + b", -1);
  g_autofree char *content = g_strdup_printf ("Compare %s and also %s — which one is yours?", spaced, upper);
  g_autofree char *encoded = g_base64_encode ((const guchar *)REFERENCE, strlen (REFERENCE));
  g_autofree char *question = g_strdup_printf ("{\"question\": \"Decode this and say if it matches: %s\"}", encoded);
  g_autofree char *hex = spaced_hex (CHECK);
  g_autofree char *reasoning = g_strdup_printf ("The check, in hex: %s. Now I ask.", hex);

  queue (fixture, content, NULL, "readStudentCode", "{}");
  queue (fixture, NULL, NULL, "runPython", "{\"code\": \"print(add(1, 2))\"}");
  queue (fixture, NULL, NULL, "injectTestCase", "{\"code\": \"assert add(2, 3) == 5\"}");
  queue (fixture, "One question.", reasoning, "askStudent", question);
  queue (fixture, "Thanks.", NULL, "finishDefense",
         "{\"verdict\": \"pass\", \"score\": 90, \"comment\": \"ok\", \"evidence\": [\"S3\"]}");
}

static VivaExamVerdict *
run_disguised (Fixture *fixture,
               GString *seen,
               GString *transcript)
{
  g_autoptr(VivaExamVerdict) verdict = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray *messages;

  viva_problem_set_reference (fixture->problem, REFERENCE);
  viva_problem_add_structured_test (fixture->problem, "big", "a, b = 123456789, 987654321\n", "add(a, b)", CHECK,
                                    FALSE, 0);
  g_signal_connect (fixture->examiner, "delta", G_CALLBACK (collect_delta), seen);
  g_signal_connect (fixture->examiner, "question", G_CALLBACK (collect_question), seen);
  queue_disguises (fixture);

  verdict = examiner_fixture_run (fixture, &error);
  g_assert_no_error (error);
  g_test_message ("shown: %s", seen->str);

  messages = viva_examiner_get_messages (fixture->examiner);
  for (guint i = 0; i < messages->len; i++)
    {
      g_autoptr(JsonNode) node = viva_chat_message_to_json (g_ptr_array_index (messages, i));
      g_autofree char *text = json_to_string (node, FALSE);

      g_string_append (transcript, text);
    }

  return g_steal_pointer (&verdict);
}

static void
test_disguised_withheld (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autoptr(GString) seen = g_string_new (NULL);
  g_autoptr(GString) transcript = g_string_new (NULL);
  g_autoptr(VivaExamVerdict) verdict = run_disguised (fixture, seen, transcript);
  g_autofree char *encoded = g_base64_encode ((const guchar *)REFERENCE, strlen (REFERENCE));
  g_autofree char *hex = spaced_hex (CHECK);
  const char *gone[] = { "r e s u l t _ o f", "RESULT_OF_THE_SUM", "HASATTR", "61 73 73 65 72 74" };

  /* Letter-spaced and upper-cased (content, a word a delta), base64 (the
   * question), hex (reasoning, a byte a delta): four passages. */
  g_assert_cmpuint (viva_examiner_get_n_withheld (fixture->examiner), ==, 4);
  g_assert_cmpuint (viva_exam_verdict_get_n_withheld (verdict), ==, 4);
  for (guint i = 0; i < G_N_ELEMENTS (gone); i++)
    {
      if (strstr (seen->str, gone[i]) != NULL)
        g_error ("the student was shown “%s”", gone[i]);
      if (strstr (transcript->str, gone[i]) != NULL)
        g_error ("the transcript keeps “%s”", gone[i]);
    }
  g_assert_null (strstr (seen->str, encoded + 8));
  g_assert_null (strstr (seen->str, hex + 12));

  /* What surrounds each passage is shown, each passage as one note. */
  g_assert_nonnull (strstr (seen->str, "Compare "));
  g_assert_nonnull (strstr (seen->str, " and also "));
  g_assert_nonnull (strstr (seen->str, " — which one is yours?"));
  g_assert_nonnull (strstr (seen->str, "Decode this and say if it matches: "));
  g_assert_nonnull (strstr (seen->str, "The check, in hex: "));
  g_assert_nonnull (strstr (seen->str, ". Now I ask"));
  {
    guint n = 0;

    for (const char *p = strstr (seen->str, note); p != NULL; p = strstr (p + 1, note))
      n++;
    g_assert_cmpuint (n, ==, 4);
  }
}

/* The student's own code, which here is the reference, may be quoted back
 * in every disguise: nothing is withheld, and the student sees all of it. */
static void
test_disguised_own_code (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autoptr(GString) seen = g_string_new (NULL);
  g_autoptr(GString) transcript = g_string_new (NULL);
  g_autoptr(VivaExamVerdict) verdict = NULL;
  g_autofree char *upper = g_ascii_strup ("result_of_the_sum = a.__add__(b) if hasattr(a, '__add__') else a + b", -1);
  g_autofree char *encoded = g_base64_encode ((const guchar *)REFERENCE, strlen (REFERENCE));

  viva_text_code_source_set_code (fixture->code, REFERENCE);
  viva_problem_set_description (fixture->problem, "Write `add(a, b)` returning the sum. " CHECK);
  verdict = run_disguised (fixture, seen, transcript);

  g_assert_cmpuint (viva_examiner_get_n_withheld (fixture->examiner), ==, 0);
  g_assert_null (strstr (seen->str, note));
  g_assert_nonnull (strstr (seen->str, upper));
  g_assert_nonnull (strstr (seen->str, "r e s u l t _ o f _ t h e _ s u m"));
  g_assert_nonnull (strstr (seen->str, encoded));
  g_assert_nonnull (strstr (seen->str, "61 73 73 65 72 74"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  viva_core_init ();

#define ADD(path, func) \
  g_test_add ("/viva/exam/" path, Fixture, NULL, examiner_fixture_setup, func, examiner_fixture_teardown)

  ADD ("leak-disguised", test_disguised_withheld);
  ADD ("leak-disguised-own-code", test_disguised_own_code);

  return g_test_run ();
}

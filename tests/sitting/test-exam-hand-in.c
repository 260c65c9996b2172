/* test-exam-hand-in.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What a sitting hands in when its time is up, with no window: the open
 * problem first, then the others worked on in the exam's order, each with
 * the code the student had before the time; never one defended or being
 * defended, never one twice; nothing taken after the time, not even from
 * the code store; the lists kept across a restart.
 */

#include "config.h"

#include "viva-exam-hand-in.h"
#include "viva-test-util.h"

#include "sitting-fixture.h"

typedef struct
{
  char           *dir;
  VivaExamFile   *exam;
  VivaExamHandIn *hand_in;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  fixture->dir = g_dir_make_tmp ("viva-hand-in-XXXXXX", NULL);
  fixture->exam = sitting_fixture_exam (fixture->dir, 600);
  fixture->hand_in = viva_exam_hand_in_new (fixture->exam);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_clear_object (&fixture->hand_in);
  g_clear_object (&fixture->exam);
  viva_test_remove_tree (fixture->dir);
  g_clear_pointer (&fixture->dir, g_free);
}

/* The queue, as "id=code|id=code". */
static char *
queue_text (VivaExamHandIn *hand_in)
{
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < viva_exam_hand_in_get_n_waiting (hand_in); i++)
    {
      const char *code = NULL;
      const char *id = viva_exam_hand_in_get_waiting (hand_in, i, &code);

      g_string_append_printf (text, "%s%s=%s", i ? "|" : "", id, code);
    }

  return g_string_free (g_steal_pointer (&text), FALSE);
}

static void
count_cb (guint *count)
{
  (*count)++;
}

static void
test_order (Fixture       *fixture,
            gconstpointer  data)
{
  VivaExamHandIn *hand_in = fixture->hand_in;
  g_autofree char *queue = NULL;
  guint changes = 0;

  g_signal_connect_swapped (hand_in, "changed", G_CALLBACK (count_cb), &changes);

  /* c is run, then changed again without a run: what was run counts. */
  viva_exam_hand_in_code_seen (hand_in, "c", STARTER_C, FALSE);
  viva_exam_hand_in_code_run (hand_in, "c", "def c(x):\n    return 3 * x\n");
  viva_exam_hand_in_code_seen (hand_in, "c", "def c(x):\n    return 4 * x  # after the run\n", TRUE);
  /* a is changed, never run. */
  viva_exam_hand_in_code_seen (hand_in, "a", STARTER_A, FALSE);
  viva_exam_hand_in_code_seen (hand_in, "a", "def a(x):\n    return x + x\n", TRUE);
  /* b is open, and the student never touched it. */
  viva_exam_hand_in_code_seen (hand_in, "b", STARTER_B, FALSE);
  viva_exam_hand_in_set_open_problem (hand_in, "b");
  g_assert_true (viva_exam_hand_in_is_worked (hand_in, "a"));
  g_assert_false (viva_exam_hand_in_is_worked (hand_in, "b"));
  g_assert_cmpuint (changes, ==, 2);

  g_assert_false (viva_exam_hand_in_is_closed (hand_in));
  g_assert_cmpuint (viva_exam_hand_in_get_n_waiting (hand_in), ==, 0);
  viva_exam_hand_in_close (hand_in);
  g_assert_true (viva_exam_hand_in_is_closed (hand_in));

  /* The open one first, as it stands; then a and c in the exam's order. */
  queue = queue_text (hand_in);
  g_assert_cmpstr (queue, ==,
                   "b=" STARTER_B
                   "|a=def a(x):\n    return x + x\n"
                   "|c=def c(x):\n    return 3 * x\n");
  g_assert_cmpuint (viva_exam_hand_in_get_total (hand_in), ==, 3);
  g_assert_cmpuint (viva_exam_hand_in_get_position (hand_in), ==, 0);
  g_assert_cmpint (viva_exam_hand_in_get_state (hand_in, "a"), ==, VIVA_EXAM_HAND_IN_WAITING);
  g_assert_true (viva_exam_hand_in_is_active (hand_in));
  g_assert_cmpstrv (viva_exam_hand_in_get_handed_in (hand_in), ((const char *[]) { "b", "a", "c", NULL }));

  /* Closing again hands nothing in again. */
  viva_exam_hand_in_close (hand_in);
  g_assert_cmpuint (viva_exam_hand_in_get_n_waiting (hand_in), ==, 3);
}

static void
test_starter_code (Fixture       *fixture,
                   gconstpointer  data)
{
  VivaExamHandIn *hand_in = fixture->hand_in;

  /* Changed and changed back: nothing of the student's to hand in. */
  viva_exam_hand_in_code_seen (hand_in, "a", "def a(x):\n    return\n", TRUE);
  viva_exam_hand_in_code_seen (hand_in, "a", STARTER_A, TRUE);
  /* Not one of the exam's problems: never worked on in it. */
  viva_exam_hand_in_code_seen (hand_in, "elsewhere", "print(1)\n", TRUE);
  g_assert_true (viva_exam_hand_in_is_worked (hand_in, "a"));
  g_assert_false (viva_exam_hand_in_is_worked (hand_in, "elsewhere"));

  viva_exam_hand_in_close (hand_in);
  g_assert_cmpuint (viva_exam_hand_in_get_n_waiting (hand_in), ==, 0);
  g_assert_false (viva_exam_hand_in_is_active (hand_in));
  g_assert_cmpint (viva_exam_hand_in_get_state (hand_in, "a"), ==, VIVA_EXAM_HAND_IN_NONE);
}

static void
test_defended (Fixture       *fixture,
               gconstpointer  data)
{
  VivaExamHandIn *hand_in = fixture->hand_in;
  g_autofree char *id = NULL;
  g_autofree char *code = NULL;

  /* a is defended before the time; b's defense runs at the time; c waits. */
  viva_exam_hand_in_code_run (hand_in, "a", "def a(x):\n    return 2 * x\n");
  viva_exam_hand_in_set_defending (hand_in, "a");
  g_assert_cmpint (viva_exam_hand_in_get_state (hand_in, "a"), ==, VIVA_EXAM_HAND_IN_DEFENDING);
  viva_exam_hand_in_defense_ended (hand_in, "a", TRUE);
  g_assert_cmpint (viva_exam_hand_in_get_state (hand_in, "a"), ==, VIVA_EXAM_HAND_IN_DEFENDED);
  /* A defended problem is not defending again (a question after the
   * verdict is no new defense). */
  viva_exam_hand_in_set_defending (hand_in, "a");
  g_assert_null (viva_exam_hand_in_get_defending (hand_in));

  /* A defense stopped before the time leaves the problem as it was. */
  viva_exam_hand_in_code_run (hand_in, "b", "def b(x):\n    return 2 * x\n");
  viva_exam_hand_in_set_defending (hand_in, "b");
  viva_exam_hand_in_defense_ended (hand_in, "b", FALSE);
  g_assert_cmpint (viva_exam_hand_in_get_state (hand_in, "b"), ==, VIVA_EXAM_HAND_IN_NONE);
  viva_exam_hand_in_set_defending (hand_in, "b");

  viva_exam_hand_in_code_run (hand_in, "c", "def c(x):\n    return 2 * x\n");
  viva_exam_hand_in_set_open_problem (hand_in, "b");
  viva_exam_hand_in_close (hand_in);

  /* b's defense is the hand-in's first; c the second. */
  g_assert_cmpuint (viva_exam_hand_in_get_n_waiting (hand_in), ==, 1);
  g_assert_cmpstr (viva_exam_hand_in_get_waiting (hand_in, 0, NULL), ==, "c");
  g_assert_cmpuint (viva_exam_hand_in_get_position (hand_in), ==, 1);
  g_assert_cmpuint (viva_exam_hand_in_get_total (hand_in), ==, 2);
  g_assert_cmpstrv (viva_exam_hand_in_get_handed_in (hand_in), ((const char *[]) { "b", "c", NULL }));

  viva_exam_hand_in_defense_ended (hand_in, "b", TRUE);
  g_assert_true (viva_exam_hand_in_is_active (hand_in));
  g_assert_true (viva_exam_hand_in_take_next (hand_in, &id, &code));
  g_assert_cmpstr (id, ==, "c");
  g_assert_cmpstr (code, ==, "def c(x):\n    return 2 * x\n");
  g_assert_cmpuint (viva_exam_hand_in_get_position (hand_in), ==, 2);
  g_assert_cmpstr (viva_exam_hand_in_get_defending (hand_in), ==, "c");
  g_assert_cmpint (viva_exam_hand_in_get_state (hand_in, "c"), ==, VIVA_EXAM_HAND_IN_DEFENDING);

  /* Taken once: nothing is handed in twice. */
  g_clear_pointer (&id, g_free);
  g_clear_pointer (&code, g_free);
  g_assert_false (viva_exam_hand_in_take_next (hand_in, &id, &code));

  /* c's defense fails after the time: said so, and it is not defended. */
  viva_exam_hand_in_defense_ended (hand_in, "c", FALSE);
  g_assert_cmpint (viva_exam_hand_in_get_state (hand_in, "c"), ==, VIVA_EXAM_HAND_IN_FAILED);
  g_assert_cmpint (viva_exam_hand_in_get_state (hand_in, "b"), ==, VIVA_EXAM_HAND_IN_DEFENDED);
  g_assert_false (viva_exam_hand_in_is_active (hand_in));
}

static void
test_left (Fixture       *fixture,
           gconstpointer  data)
{
  VivaExamHandIn *hand_in = fixture->hand_in;

  viva_exam_hand_in_code_run (hand_in, "a", "def a(x):\n    return 2 * x\n");
  viva_exam_hand_in_code_run (hand_in, "c", "def c(x):\n    return 2 * x\n");
  viva_exam_hand_in_close (hand_in);
  g_assert_cmpuint (viva_exam_hand_in_get_n_waiting (hand_in), ==, 2);

  viva_exam_hand_in_leave_waiting (hand_in);
  g_assert_cmpuint (viva_exam_hand_in_get_n_waiting (hand_in), ==, 0);
  g_assert_cmpint (viva_exam_hand_in_get_state (hand_in, "a"), ==, VIVA_EXAM_HAND_IN_LEFT);
  g_assert_cmpint (viva_exam_hand_in_get_state (hand_in, "c"), ==, VIVA_EXAM_HAND_IN_LEFT);
  g_assert_false (viva_exam_hand_in_is_active (hand_in));
}

static void
store_code (VivaCodeStore *store,
            const char    *problem_id,
            const char    *code)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  viva_code_store_queue_save (store, "abc", problem_id, code);
  viva_code_store_flush_async (store, NULL, viva_test_store_result, &result);
  viva_test_run_until_result (&result);
  g_assert_true (viva_code_store_flush_finish (store, result, &error));
  g_assert_no_error (error);
}

static void
read_saved (VivaExamHandIn *hand_in,
            VivaCodeStore  *store)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  viva_exam_hand_in_read_saved_async (hand_in, store, NULL, viva_test_store_result, &result);
  viva_test_run_until_result (&result);
  g_assert_true (viva_exam_hand_in_read_saved_finish (hand_in, result, &error));
  g_assert_no_error (error);
}

static void
test_after_the_time (Fixture       *fixture,
                     gconstpointer  data)
{
  VivaExamHandIn *hand_in = fixture->hand_in;
  g_autofree char *store_dir = g_build_filename (fixture->dir, "code", NULL);
  g_autoptr(VivaCodeStore) store = viva_code_store_new (store_dir);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) state = NULL;
  g_autoptr(VivaExamHandIn) restarted = NULL;
  g_autofree char *queue = NULL;

  viva_exam_hand_in_code_run (hand_in, "a", "def a(x):\n    return 2 * x\n");
  viva_exam_hand_in_code_seen (hand_in, "b", "def b(x):\n    return 2 * x  # before\n", TRUE);
  json_builder_begin_object (builder);
  viva_exam_hand_in_save (hand_in, builder);
  json_builder_end_object (builder);
  state = json_builder_get_root (builder);

  /* Viva restarts within the time: the lists come back, the code from the
   * code store, read before the time. */
  store_code (store, "b", "def b(x):\n    return 2 * x  # before\n");
  restarted = viva_exam_hand_in_new (fixture->exam);
  viva_exam_hand_in_restore (restarted, json_node_get_object (state));
  g_assert_true (viva_exam_hand_in_is_worked (restarted, "a"));
  g_assert_true (viva_exam_hand_in_is_worked (restarted, "b"));
  read_saved (restarted, store);

  /* The time runs out. What the student does after it, on screen or in
   * their files, hands nothing in. */
  viva_exam_hand_in_close (restarted);
  viva_exam_hand_in_code_run (restarted, "b", "def b(x):\n    return 2 * x  # after\n");
  viva_exam_hand_in_code_seen (restarted, "c", "def c(x):\n    return 2 * x  # after\n", TRUE);
  store_code (store, "a", "def a(x):\n    return 2 * x  # after\n");
  read_saved (restarted, store);

  /* a was worked on before the restart, but no code of it was read
   * before the time: nothing to hand in, rather than the newer file. */
  queue = queue_text (restarted);
  g_assert_cmpstr (queue, ==, "b=def b(x):\n    return 2 * x  # before\n");
  g_assert_false (viva_exam_hand_in_is_worked (restarted, "c"));
}

static void
test_save_restore (Fixture       *fixture,
                   gconstpointer  data)
{
  VivaExamHandIn *hand_in = fixture->hand_in;
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) state = NULL;
  g_autoptr(VivaExamHandIn) restarted = viva_exam_hand_in_new (fixture->exam);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *text = NULL;

  viva_exam_hand_in_code_run (hand_in, "a", "def a(x):\n    return 2 * x\n");
  viva_exam_hand_in_code_run (hand_in, "c", "def c(x):\n    return 2 * x\n");
  viva_exam_hand_in_set_defending (hand_in, "a");
  viva_exam_hand_in_defense_ended (hand_in, "a", TRUE);
  viva_exam_hand_in_set_report (hand_in, "a", "/reports/a.html");

  json_builder_begin_object (builder);
  viva_exam_hand_in_save (hand_in, builder);
  json_builder_end_object (builder);
  state = json_builder_get_root (builder);
  text = json_to_string (state, FALSE);

  /* The lists, sorted; the code is the code store's to keep. */
  g_assert_cmpstr (text, ==, "{\"worked\":[\"a\",\"c\"],\"defended\":[\"a\"],\"reports\":{\"a\":\"/reports/a.html\"}}");

  /* Hand-edited: wrong kinds are skipped, not fatal. */
  g_assert_true (json_parser_load_from_data (parser,
                                             "{\"worked\":[\"a\",\"c\",7,null],\"defended\":[\"a\",{}],"
                                             "\"reports\":{\"a\":\"/reports/a.html\",\"c\":3}}", -1, NULL));
  viva_exam_hand_in_restore (restarted, json_node_get_object (json_parser_get_root (parser)));
  g_assert_true (viva_exam_hand_in_is_worked (restarted, "c"));
  g_assert_cmpint (viva_exam_hand_in_get_state (restarted, "a"), ==, VIVA_EXAM_HAND_IN_DEFENDED);
  g_assert_cmpstr (viva_exam_hand_in_get_report (restarted, "a"), ==, "/reports/a.html");
  g_assert_null (viva_exam_hand_in_get_report (restarted, "c"));

  /* A restart does not hand a defended problem in again. */
  viva_exam_hand_in_code_seen (restarted, "a", "def a(x):\n    return 2 * x  # again\n", TRUE);
  viva_exam_hand_in_code_seen (restarted, "c", "def c(x):\n    return 2 * x\n", TRUE);
  viva_exam_hand_in_set_open_problem (restarted, "a");
  viva_exam_hand_in_close (restarted);
  g_assert_cmpuint (viva_exam_hand_in_get_n_waiting (restarted), ==, 1);
  g_assert_cmpstr (viva_exam_hand_in_get_waiting (restarted, 0, NULL), ==, "c");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/viva/sitting/hand-in/order", test_order);
  ADD ("/viva/sitting/hand-in/starter-code", test_starter_code);
  ADD ("/viva/sitting/hand-in/defended", test_defended);
  ADD ("/viva/sitting/hand-in/left", test_left);
  ADD ("/viva/sitting/hand-in/after-the-time", test_after_the_time);
  ADD ("/viva/sitting/hand-in/save-restore", test_save_restore);
#undef ADD

  return g_test_run ();
}

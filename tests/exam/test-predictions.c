/* test-predictions.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include <glib/gstdio.h>

#include "viva-core.h"
#include "viva-pack.h"
#include "viva-test-cli.h"
#include "viva-test-util.h"

/* Predictions through `viva-cli defend --offline --answer-with`: the
 * offline examiner asks the engine's planned questions of every bundled
 * problem; a program answers them rightly (by running the call itself),
 * wrongly or with junk; the verdict's items say what the engine judged,
 * and their weights add up to 100. */

typedef struct
{
  char *dir;
  char *code;
  char *log;
} Fixture;

static char *
bundled_pack (void)
{
  return g_build_filename (g_getenv ("VIVA_SOURCE_ROOT"), "data", "packs", "intro-ai.json", NULL);
}

static VivaPack *
load_bundled (void)
{
  g_autofree char *path = bundled_pack ();
  g_autofree char *text = NULL;
  gsize length;
  g_autoptr(GBytes) bytes = NULL;

  g_assert_true (g_file_get_contents (path, &text, &length, NULL));
  bytes = g_bytes_new_take (g_steal_pointer (&text), length);
  return viva_pack_new_from_bytes (bytes, NULL);
}

static char *
answer_program (void)
{
  return g_build_filename (g_getenv ("VIVA_SOURCE_ROOT"), "tests", "exam", "answer-program.py", NULL);
}

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  fixture->dir = g_dir_make_tmp ("viva-predictions-XXXXXX", NULL);
  fixture->code = g_build_filename (fixture->dir, "code.py", NULL);
  fixture->log = g_build_filename (fixture->dir, "questions.jsonl", NULL);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  viva_test_remove_tree (fixture->dir);
  g_clear_pointer (&fixture->dir, g_free);
  g_clear_pointer (&fixture->code, g_free);
  g_clear_pointer (&fixture->log, g_free);
}

/* One offline defense of @problem_id answered by the program in @mode;
 * returns its verdict event. */
static JsonObject *
defend (Fixture    *fixture,
        const char *problem_id,
        const char *mode)
{
  g_autofree char *pack = bundled_pack ();
  g_autofree char *program = answer_program ();
  g_autofree char *answer_with = g_strdup_printf ("python3 %s %s %s %s", program, mode, fixture->code, fixture->log);
  const char *args[] = { "defend", "--pack", pack, "--problem", problem_id, "--code", fixture->code,
                         "--offline", "--json", "--session-dir", fixture->dir, "--answer-with", answer_with, NULL };
  g_auto(VivaTestCliRun) run = { 0 };
  JsonObject *last;

  g_remove (fixture->log);
  viva_test_cli_run (&run, fixture->dir, args);
  if (run.status != 0)
    g_printerr ("%s\n", run.err);
  g_assert_cmpint (run.status, ==, 0);
  last = g_ptr_array_index (run.events, run.events->len - 1);
  g_assert_cmpstr (json_object_get_string_member (last, "event"), ==, "verdict");

  return json_object_ref (last);
}

/* The items add up: each within its maximum, the maxima to 100, the
 * points to the verdict's. Returns the prediction items. */
static GPtrArray *
check_items (JsonObject *verdict)
{
  JsonArray *items = json_object_get_array_member (verdict, "items");
  GPtrArray *predictions = g_ptr_array_new ();
  double points = 0, max_points = 0;
  guint n_tests = 0, n_conceptual = 0;

  for (guint i = 0; i < json_array_get_length (items); i++)
    {
      JsonObject *item = json_array_get_object_element (items, i);
      const char *kind = json_object_get_string_member (item, "kind");
      double p = json_object_get_double_member (item, "points");
      double max = json_object_get_double_member (item, "max_points");

      g_assert_cmpfloat (p, >=, 0);
      g_assert_cmpfloat (p, <=, max + 1e-9);
      points += p;
      max_points += max;
      if (g_str_equal (kind, "prediction"))
        {
          g_assert_cmpstr (json_object_get_string_member (item, "judged_by"), ==, "engine");
          g_ptr_array_add (predictions, item);
        }
      else if (g_str_equal (kind, "engine-test"))
        n_tests++;
      else
        {
          g_assert_cmpstr (kind, ==, "conceptual");
          /* Scored k times. */
          g_assert_cmpuint (json_array_get_length (json_object_get_array_member (item, "scores")), ==, 3);
          n_conceptual++;
        }
    }

  g_assert_cmpuint (n_tests, >, 0);
  g_assert_cmpuint (n_conceptual, ==, 1);
  g_assert_cmpfloat (fabs (max_points - 100), <, 0.05);
  g_assert_cmpfloat (fabs (points - json_object_get_double_member (verdict, "points")), <, 0.05);
  g_assert_cmpfloat (json_object_get_double_member (verdict, "max_points"), ==, 100);

  return predictions;
}

/* What the program was asked: one prediction, as the plan's call. */
static char *
asked_call (Fixture *fixture)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  char *call = NULL;

  g_assert_true (g_file_get_contents (fixture->log, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] && lines[i][0]; i++)
    {
      g_autoptr(JsonNode) node = json_from_string (lines[i], NULL);
      JsonObject *question = json_node_get_object (node);

      g_assert_true (json_object_has_member (question, "text"));
      if (g_str_equal (json_object_get_string_member (question, "kind"), "prediction"))
        {
          g_assert_null (call);
          call = g_strdup (json_object_get_string_member (question, "call"));
          /* The student reads the call exactly as it runs. */
          g_assert_nonnull (strstr (json_object_get_string_member (question, "text"), call));
        }
    }
  g_assert_nonnull (call);

  return call;
}

/* Every bundled problem, its reference as the student's code, answered
 * rightly: each prediction scores its whole weight. */
static void
test_right_every_problem (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autoptr(VivaPack) pack = load_bundled ();
  GListModel *problems;

  g_assert_nonnull (pack);
  problems = viva_pack_get_problems (pack);
  for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr(VivaProblem) problem = g_list_model_get_item (problems, i);
      g_autoptr(JsonObject) verdict = NULL;
      g_autoptr(GPtrArray) predictions = NULL;
      g_autofree char *call = NULL;
      JsonObject *item;

      g_assert_true (g_file_set_contents (fixture->code, viva_problem_get_reference (problem), -1, NULL));
      verdict = defend (fixture, viva_problem_get_id (problem), "right");
      predictions = check_items (verdict);
      g_assert_cmpuint (predictions->len, ==, 1);
      item = g_ptr_array_index (predictions, 0);
      call = asked_call (fixture);
      g_assert_cmpstr (json_object_get_string_member (item, "title"), ==, call);
      if (json_object_get_double_member (item, "points") != json_object_get_double_member (item, "max_points"))
        g_error ("%s: %s answered %s: %s", viva_problem_get_id (problem), call,
                 json_object_get_string_member (item, "answer"), json_object_get_string_member (item, "reason"));
      g_assert_cmpstr (json_object_get_string_member (verdict, "verdict"), ==, "pass");
    }
}

static void
set_reference (Fixture    *fixture,
               const char *problem_id)
{
  g_autoptr(VivaPack) pack = load_bundled ();

  g_assert_true (g_file_set_contents (fixture->code,
                                      viva_problem_get_reference (viva_pack_find_problem (pack, problem_id)),
                                      -1, NULL));
}

/* A wrong literal and words that are no literal score nothing, and say why. */
static void
test_wrong_and_junk (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(JsonObject) wrong = NULL;
  g_autoptr(JsonObject) junk = NULL;
  g_autoptr(GPtrArray) items = NULL;
  JsonObject *item;

  set_reference (fixture, "knn");
  wrong = defend (fixture, "knn", "wrong");
  items = check_items (wrong);
  item = g_ptr_array_index (items, 0);
  g_assert_cmpfloat (json_object_get_double_member (item, "points"), ==, 0);
  g_assert_nonnull (strstr (json_object_get_string_member (item, "reason"), "Not what your code does"));
  /* The right answer is shown after the defense: the value the call gave. */
  g_assert_true (g_str_equal (json_object_get_string_member (item, "expected"), "'a'") ||
                 g_str_equal (json_object_get_string_member (item, "expected"), "'b'"));
  g_clear_pointer (&items, g_ptr_array_unref);

  set_reference (fixture, "decision-tree-entropy");
  junk = defend (fixture, "decision-tree-entropy", "junk");
  items = check_items (junk);
  item = g_ptr_array_index (items, 0);
  g_assert_cmpfloat (json_object_get_double_member (item, "points"), ==, 0);
  g_assert_cmpstr (json_object_get_string_member (item, "answer"), ==, "I think two");
  g_assert_nonnull (strstr (json_object_get_string_member (item, "reason"), "Not a Python value"));
  /* The tests and the predictions are the engine's: the model's pass stands. */
  g_assert_cmpstr (json_object_get_string_member (junk, "verdict"), ==, "pass");
  g_assert_cmpfloat (json_object_get_double_member (junk, "points"), <, 100);
}

/* Code whose call raises: "raises ValueError" is the right answer. */
static void
test_raises (Fixture       *fixture,
             gconstpointer  data)
{
  g_autoptr(JsonObject) verdict = NULL;
  g_autoptr(GPtrArray) items = NULL;
  JsonObject *item;

  g_assert_true (g_file_set_contents (fixture->code,
                                      "def knn_predict(train_X, train_y, x, k):\n"
                                      "    raise ValueError('not written yet')\n", -1, NULL));
  verdict = defend (fixture, "knn", "right");
  items = check_items (verdict);
  item = g_ptr_array_index (items, 0);
  g_assert_cmpstr (json_object_get_string_member (item, "answer"), ==, "raises ValueError");
  g_assert_cmpfloat (json_object_get_double_member (item, "points"), ==,
                     json_object_get_double_member (item, "max_points"));
  g_assert_cmpstr (json_object_get_string_member (verdict, "verdict"), ==, "fail");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  viva_core_init ();

  g_test_add ("/viva/predictions/right-every-problem", Fixture, NULL, fixture_setup,
              test_right_every_problem, fixture_teardown);
  g_test_add ("/viva/predictions/wrong-and-junk", Fixture, NULL, fixture_setup,
              test_wrong_and_junk, fixture_teardown);
  g_test_add ("/viva/predictions/raises", Fixture, NULL, fixture_setup, test_raises, fixture_teardown);

  return g_test_run ();
}

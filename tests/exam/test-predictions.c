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
#include "viva-test-csv.h"
#include "viva-test-util.h"

/* Predictions through `viva-cli defend --offline --answer-with`: the
 * offline examiner asks the engine's planned questions of every bundled
 * problem; a program answers them rightly (by running the call itself),
 * wrongly and with junk; the verdict's items say what the engine judged,
 * and their weights add up to 100 in the verdict, the report and the
 * class CSV. */

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
defend_with (Fixture    *fixture,
             const char *pack,
             const char *problem_id,
             const char *mode)
{
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

static JsonObject *
defend (Fixture    *fixture,
        const char *problem_id,
        const char *mode)
{
  g_autofree char *pack = bundled_pack ();

  return defend_with (fixture, pack, problem_id, mode);
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

/* The bundled pack with each problem's prediction asked three times (the
 * same call, inputs and rules; `ask` set to three), so one defense of
 * each problem answers it rightly, wrongly and with junk. */
static char *
tripled_pack (Fixture *fixture)
{
  g_autofree char *path = bundled_pack ();
  g_autofree char *out = g_build_filename (fixture->dir, "tripled.json", NULL);
  g_autofree char *text = NULL;
  g_autoptr(JsonNode) root = NULL;
  JsonArray *problems;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  root = json_from_string (text, NULL);
  problems = json_object_get_array_member (json_node_get_object (root), "problems");
  for (guint i = 0; i < json_array_get_length (problems); i++)
    {
      JsonObject *problem = json_array_get_object_element (problems, i);
      JsonArray *predictions = json_object_get_array_member (problem, "predictions");
      JsonObject *ask = json_object_get_object_member (problem, "ask");
      JsonObject *range = json_object_new ();

      g_assert_cmpuint (json_array_get_length (predictions), ==, 1);
      for (guint j = 2; j <= 3; j++)
        {
          /* A deep copy: json_node_copy() shares the object. */
          g_autofree char *source = json_to_string (json_array_get_element (predictions, 0), FALSE);
          JsonNode *copy = json_from_string (source, NULL);
          g_autofree char *id = g_strdup_printf ("%s-%u", json_object_get_string_member (json_node_get_object (copy), "id"), j);

          json_object_set_string_member (json_node_get_object (copy), "id", id);
          json_array_add_element (predictions, copy);
        }
      json_object_set_int_member (range, "min", 3);
      json_object_set_int_member (range, "max", 3);
      json_object_set_object_member (ask, "predictions", range);
    }
  g_free (text);
  text = json_to_string (root, TRUE);
  g_assert_true (g_file_set_contents (out, text, -1, NULL));

  return g_steal_pointer (&out);
}

/* The items of a report's verdict add up to its points, of 100. */
static double
report_points (const char *path)
{
  g_autofree char *text = NULL;
  g_autoptr(JsonNode) root = NULL;
  JsonObject *verdict;
  JsonArray *items;
  double points = 0, max_points = 0;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  root = json_from_string (text, NULL);
  g_assert_nonnull (root);
  verdict = json_object_get_object_member (json_node_get_object (root), "verdict");
  items = json_object_get_array_member (verdict, "items");
  g_assert_cmpuint (json_array_get_length (items), >, 0);
  for (guint i = 0; i < json_array_get_length (items); i++)
    {
      points += json_object_get_double_member (json_array_get_object_element (items, i), "points");
      max_points += json_object_get_double_member (json_array_get_object_element (items, i), "max_points");
    }
  g_assert_cmpfloat (fabs (max_points - 100), <, 0.05);
  g_assert_cmpfloat (fabs (points - json_object_get_double_member (verdict, "points")), <, 0.05);

  return points;
}

/* Every bundled problem, its reference as the student's code, its
 * prediction answered rightly (its whole weight), wrongly and with junk
 * (nothing, and why) in one defense; the weights add up in the verdict,
 * in the report and in the class CSV. */
static void
test_every_problem (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(VivaPack) pack = load_bundled ();
  g_autofree char *tripled = tripled_pack (fixture);
  g_autofree char *reports = g_build_filename (fixture->dir, "reports", NULL);
  g_autofree char *csv_path = g_build_filename (fixture->dir, "class.csv", NULL);
  g_autoptr(GHashTable) expected = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autofree char *csv = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  GListModel *problems;
  GPtrArray *header;
  guint points_column = G_MAXUINT, problem_column = G_MAXUINT;

  g_assert_nonnull (pack);
  g_assert_cmpint (g_mkdir_with_parents (reports, 0700), ==, 0);
  problems = viva_pack_get_problems (pack);
  for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr(VivaProblem) problem = g_list_model_get_item (problems, i);
      const char *id = viva_problem_get_id (problem);
      g_autoptr(JsonObject) verdict = NULL;
      g_autoptr(GPtrArray) predictions = NULL;
      g_autofree char *report = g_strdup_printf ("%s/%s.json", reports, id);
      g_auto(VivaTestCliRun) run = { 0 };

      g_assert_true (g_file_set_contents (fixture->code, viva_problem_get_reference (problem), -1, NULL));
      verdict = defend_with (fixture, tripled, id, "mixed");
      predictions = check_items (verdict);
      g_assert_cmpuint (predictions->len, ==, 3);
      for (guint j = 0; j < predictions->len; j++)
        {
          JsonObject *item = g_ptr_array_index (predictions, j);
          const char *item_id = json_object_get_string_member (item, "id");
          const char *reason = json_object_get_string_member (item, "reason");
          double got = json_object_get_double_member (item, "points");

          /* The student read the call the engine ran, and the right
           * answer is shown after the defense. */
          g_assert_nonnull (json_object_get_string_member (item, "title"));
          g_assert_nonnull (json_object_get_string_member (item, "expected"));
          if (g_str_equal (item_id, "prediction:P1"))
            {
              if (fabs (got - json_object_get_double_member (item, "max_points")) > 1e-9)
                g_error ("%s: %s answered %s: %s", id, json_object_get_string_member (item, "title"),
                         json_object_get_string_member (item, "answer"), reason);
            }
          else if (g_str_equal (item_id, "prediction:P2"))
            {
              g_assert_cmpfloat (got, ==, 0);
              g_assert_nonnull (strstr (reason, "Not what your code does"));
            }
          else
            {
              g_assert_cmpstr (item_id, ==, "prediction:P3");
              g_assert_cmpfloat (got, ==, 0);
              g_assert_cmpstr (json_object_get_string_member (item, "answer"), ==, "I think two");
              g_assert_nonnull (strstr (reason, "Not a Python value"));
            }
        }
      if (!g_str_equal (json_object_get_string_member (verdict, "verdict"), "pass"))
        g_error ("%s: the reference failed: %s", id,
                 json_object_get_string_member_with_default (verdict, "explanation", ""));

      /* The report of the session holds the same items, adding up. */
      {
        const char *args[] = { "report", json_object_get_string_member (verdict, "session"),
                               "--session-dir", fixture->dir, "--json", report, NULL };

        viva_test_cli_run (&run, fixture->dir, args);
        g_assert_cmpint (run.status, ==, 0);
      }
      g_assert_cmpfloat (fabs (report_points (report) - json_object_get_double_member (verdict, "points")), <, 0.05);
      g_hash_table_insert (expected, g_strdup (id),
                           g_strdup_printf ("%.1f", json_object_get_double_member (verdict, "points")));
    }

  /* The class CSV: one row a problem, its item points the verdict's
   * (whole points: a third of a prediction's weight is 6.67). */
  {
    const char *args[] = { "class", "collect", "--csv", csv_path, reports, NULL };
    g_auto(VivaTestCliRun) run = { 0 };

    viva_test_cli_run (&run, fixture->dir, args);
    g_assert_cmpint (run.status, ==, 0);
  }
  g_assert_true (g_file_get_contents (csv_path, &csv, NULL, NULL));
  rows = viva_test_parse_csv (csv);
  g_assert_cmpuint (rows->len, ==, g_list_model_get_n_items (problems) + 1);
  header = g_ptr_array_index (rows, 0);
  for (guint i = 0; i < header->len; i++)
    {
      if (g_str_equal (g_ptr_array_index (header, i), "item_points"))
        points_column = i;
      else if (g_str_equal (g_ptr_array_index (header, i), "problem"))
        problem_column = i;
    }
  g_assert_cmpuint (points_column, !=, G_MAXUINT);
  g_assert_cmpuint (problem_column, !=, G_MAXUINT);
  for (guint i = 1; i < rows->len; i++)
    {
      GPtrArray *row = g_ptr_array_index (rows, i);
      const char *want = g_hash_table_lookup (expected, g_ptr_array_index (row, problem_column));

      g_assert_nonnull (want);
      /* The CSV gives whole points. */
      g_assert_cmpfloat (fabs (g_ascii_strtod (g_ptr_array_index (row, points_column), NULL) - g_ascii_strtod (want, NULL)),
                         <=, 0.5 + 1e-9);
    }
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

  g_test_add ("/viva/predictions/every-problem", Fixture, NULL, fixture_setup,
              test_every_problem, fixture_teardown);
  g_test_add ("/viva/predictions/raises", Fixture, NULL, fixture_setup, test_raises, fixture_teardown);

  return g_test_run ();
}

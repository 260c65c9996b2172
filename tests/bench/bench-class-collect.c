/* bench-class-collect.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>

#include "viva-class-results.h"
#include "viva-core.h"
#include "viva-pack.h"
#include "viva-test-util.h"

/* Collecting and re-grading a class: two real offline defenses of K-NN
 * (one correct, one not) through viva-cli, copied into 60 reports of
 * different students (VIVA_BENCH_REPORTS for another count), then read with VivaClassResults and re-graded in
 * the real sandboxed worker, as `viva-cli class collect --regrade` and the
 * Class Results window do. Prints wall times and the longest the main loop
 * waited between two 10 ms ticks while it ran (the window's redraws wait
 * that long at worst). */

#define N_REPORTS 60

static gint64 max_gap_us;
static gint64 last_tick_us;

static gboolean
tick_cb (gpointer user_data)
{
  gint64 now = g_get_monotonic_time ();

  if (last_tick_us != 0)
    max_gap_us = MAX (max_gap_us, now - last_tick_us);
  last_tick_us = now;

  return G_SOURCE_CONTINUE;
}

static void
store_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  *(GAsyncResult **)user_data = g_object_ref (result);
}

static GAsyncResult *
wait_for (GAsyncResult **slot)
{
  while (*slot == NULL)
    g_main_context_iteration (NULL, TRUE);
  return *slot;
}

static char *
defend (const char *dir,
        const char *pack,
        const char *code)
{
  g_autofree char *code_path = g_build_filename (dir, "code.py", NULL);
  g_autofree char *answers = g_build_filename (dir, "answers.json", NULL);
  g_autofree char *sessions = g_build_filename (dir, "sessions", NULL);
  g_autofree char *out = NULL;
  g_autofree char *report = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_auto(GStrv) lines = NULL;
  const char *session;

  g_assert_true (g_file_set_contents (code_path, code, -1, NULL));
  g_assert_true (g_file_set_contents (answers, "[\"Votes of the k nearest.\", \"'a'\"]", -1, NULL));
  proc = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_SILENCE, &error,
                           g_getenv ("VIVA_CLI"), "defend", "--pack", pack, "--problem", "knn", "--code", code_path,
                           "--answers", answers, "--offline", "--session-dir", sessions, "--json", NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, &out, NULL, &error);
  g_assert_no_error (error);
  lines = g_strsplit (g_strstrip (out), "\n", -1);
  g_assert_true (json_parser_load_from_data (parser, lines[g_strv_length (lines) - 1], -1, NULL));
  session = json_object_get_string_member (json_node_get_object (json_parser_get_root (parser)), "session");

  g_clear_object (&proc);
  report = g_build_filename (dir, "report.json", NULL);
  proc = g_subprocess_new (G_SUBPROCESS_FLAGS_STDERR_SILENCE, &error, g_getenv ("VIVA_CLI"), "report", session,
                           "--session-dir", sessions, "--json", report, NULL);
  g_assert_true (g_subprocess_wait_check (proc, NULL, &error));
  g_assert_no_error (error);

  g_clear_pointer (&out, g_free);
  g_assert_true (g_file_get_contents (report, &out, NULL, NULL));
  return g_steal_pointer (&out);
}


static double
run (const char *reports,
     VivaPack   *pack,
     guint       parallel,
     guint       limit,
     double     *collect_ms)
{
  g_autoptr(VivaClassResults) results = viva_class_results_new ();
  g_autoptr(GAsyncResult) collected = NULL;
  g_autoptr(GAsyncResult) regraded = NULL;
  g_autoptr(GError) error = NULL;
  const char *paths[] = { reports, NULL };
  gint64 start;
  guint source;

  viva_class_results_add_pack (results, pack);
  viva_class_results_set_max_parallel (results, parallel);

  start = g_get_monotonic_time ();
  viva_class_results_collect_async (results, paths, NULL, store_cb, &collected);
  g_assert_true (viva_class_results_collect_finish (results, wait_for (&collected), &error));
  *collect_ms = (g_get_monotonic_time () - start) / 1000.0;
  g_assert_cmpuint (g_list_model_get_n_items (viva_class_results_get_reports (results)), ==, limit);

  max_gap_us = 0;
  last_tick_us = 0;
  source = g_timeout_add (10, tick_cb, NULL);
  start = g_get_monotonic_time ();
  viva_class_results_regrade_async (results, NULL, store_cb, &regraded);
  g_assert_true (viva_class_results_regrade_finish (results, wait_for (&regraded), &error));
  g_assert_no_error (error);
  g_source_remove (source);
  g_assert_cmpuint (viva_class_results_get_n_regraded (results), ==, limit);

  return (g_get_monotonic_time () - start) / 1000.0;
}

static void
write_copies (const char *reports,
              const char *correct,
              const char *wrong,
              guint       n)
{
  g_assert_cmpint (g_mkdir_with_parents (reports, 0700), ==, 0);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autoptr(JsonObject) student = json_object_new ();
      g_autofree char *name = g_strdup_printf ("Student %03u", i);
      g_autofree char *id = g_strdup_printf ("s%03u", i);
      g_autofree char *file = g_strdup_printf ("%s/%s-knn.json", reports, id);
      g_autofree char *text = NULL;
      JsonNode *root;

      g_assert_true (json_parser_load_from_data (parser, i % 3 == 0 ? wrong : correct, -1, NULL));
      root = json_parser_get_root (parser);
      json_object_set_string_member (student, "name", name);
      json_object_set_string_member (student, "id", id);
      json_object_set_object_member (json_node_get_object (root), "student", json_object_ref (student));
      text = json_to_string (root, FALSE);
      g_assert_true (g_file_set_contents (file, text, -1, NULL));
    }
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *dir = g_dir_make_tmp ("viva-bench-class-XXXXXX", NULL);
  g_autofree char *pack_path = g_build_filename (g_getenv ("VIVA_SOURCE_ROOT"), "data", "packs", "intro-ai.json", NULL);
  g_autofree char *pack_text = NULL;
  g_autofree char *correct = NULL;
  g_autofree char *wrong = NULL;
  g_autofree char *all = g_build_filename (dir, "reports", NULL);
  const char *count = g_getenv ("VIVA_BENCH_REPORTS");
  guint n_reports = count ? (guint) g_ascii_strtoull (count, NULL, 10) : N_REPORTS;
  g_autoptr(VivaPack) pack = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  gsize length;
  double collect_ms, regrade_ms;

  viva_core_init ();

  g_assert_true (g_file_get_contents (pack_path, &pack_text, &length, NULL));
  bytes = g_bytes_new_take (g_steal_pointer (&pack_text), length);
  pack = viva_pack_new_from_bytes (bytes, NULL);
  g_assert_nonnull (pack);
  g_assert_true (json_parser_load_from_file (parser, pack_path, NULL));
  {
    JsonArray *problems = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "problems");

    for (guint i = 0; i < json_array_get_length (problems); i++)
      {
        JsonObject *problem = json_array_get_object_element (problems, i);

        if (g_str_equal (json_object_get_string_member (problem, "id"), "knn"))
          {
            correct = defend (dir, pack_path, json_object_get_string_member (problem, "reference_solution"));
            wrong = defend (dir, pack_path, json_object_get_string_member (problem, "starter_code"));
          }
      }
  }

  write_copies (all, correct, wrong, n_reports);

  regrade_ms = run (all, pack, 2, n_reports, &collect_ms);
  g_print ("collect %u reports: %.0f ms\n", n_reports, collect_ms);
  g_print ("re-grade %u reports, 2 at a time: %.1f s (%.0f ms a report); longest main-loop wait %.0f ms\n",
           n_reports, regrade_ms / 1000, regrade_ms / n_reports, max_gap_us / 1000.0);

  viva_test_remove_tree (dir);
  return 0;
}

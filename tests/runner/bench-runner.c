/* bench-runner.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The runner's benchmarks (meson benchmark, suite 'bench'): a warm round
 * trip, cold start to ready, and the same pure-Python K-Means in Viva's
 * worker, in `python3 FILE` and in Pyodide under Node.js. Pyodide is used
 * when `npm install pyodide` was run in $VIVA_PYODIDE_DIR (default
 * /tmp/pyodide-bench) and node is on PATH; otherwise it is skipped. Prints
 * Markdown for tests/bench/RESULTS.md. */

#include "config.h"

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <stdio.h>

#include "viva-runner.h"

#define ROUND_TRIPS  2000
#define COLD_STARTS  10
#define KMEANS_RUNS  3

static void
store_result (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static void
wait_for (GAsyncResult **result)
{
  while (*result == NULL)
    g_main_context_iteration (NULL, TRUE);
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static double
percentile (GArray *values,
            double  fraction)
{
  g_array_sort (values, compare_doubles);
  return g_array_index (values, double, (guint) ((values->len - 1) * fraction + 0.5));
}

static VivaRunResult *
run (VivaRunner *runner,
     const char *code,
     double     *wall_ms)
{
  g_autoptr(GAsyncResult) async = NULL;
  g_autoptr(GError) error = NULL;
  gint64 started = g_get_monotonic_time ();
  VivaRunResult *result;

  viva_runner_run_async (runner, code, 120000, NULL, store_result, &async);
  wait_for (&async);
  if (wall_ms != NULL)
    *wall_ms = (g_get_monotonic_time () - started) / 1000.0;
  result = viva_runner_run_finish (runner, async, &error);
  g_assert_no_error (error);
  g_assert_cmpint (viva_run_result_get_status (result), ==, VIVA_RUN_STATUS_OK);
  return result;
}

static double
cold_start (const char *sandbox)
{
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));

  if (sandbox != NULL)
    g_setenv ("VIVA_SANDBOX", sandbox, TRUE);
  else
    g_unsetenv ("VIVA_SANDBOX");

  for (guint i = 0; i < COLD_STARTS; i++)
    {
      g_autoptr(VivaRunner) runner = viva_runner_new ();
      g_autoptr(GAsyncResult) async = NULL;
      g_autoptr(GError) error = NULL;
      gint64 started = g_get_monotonic_time ();
      double ms;

      viva_runner_start_async (runner, NULL, store_result, &async);
      wait_for (&async);
      ms = (g_get_monotonic_time () - started) / 1000.0;
      g_assert_true (viva_runner_start_finish (runner, async, &error));
      g_array_append_val (times, ms);
    }

  g_unsetenv ("VIVA_SANDBOX");
  return percentile (times, 0.5);
}

static double
elapsed_in (const char *output)
{
  const char *found = strstr (output, "elapsed_ms: ");

  g_assert_nonnull (found);
  return g_ascii_strtod (found + strlen ("elapsed_ms: "), NULL);
}

/* Best of n: on a shared machine the least disturbed run is the closest
 * to the engine's own speed. */
static double
best_of (double *values,
         guint   n)
{
  double best = values[0];

  for (guint i = 1; i < n; i++)
    best = MIN (best, values[i]);
  return best;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(VivaRunner) runner = viva_runner_new ();
  g_autoptr(GArray) trips = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GError) error = NULL;
  g_autofree char *kmeans_path = g_build_filename (TEST_SRCDIR, "runner", "kmeans-pure.py", NULL);
  g_autofree char *pyodide_script = g_build_filename (TEST_SRCDIR, "runner", "bench-pyodide.mjs", NULL);
  g_autofree char *kmeans = NULL;
  g_autofree char *node = g_find_program_in_path ("node");
  const char *pyodide_dir = g_getenv ("VIVA_PYODIDE_DIR") ? g_getenv ("VIVA_PYODIDE_DIR") : "/tmp/pyodide-bench";
  g_autofree char *pyodide_module = g_build_filename (pyodide_dir, "node_modules", "pyodide", "pyodide.mjs", NULL);
  double viva_inner[KMEANS_RUNS], viva_wall[KMEANS_RUNS], python_inner[KMEANS_RUNS], python_wall[KMEANS_RUNS];
  double cold_bwrap, cold_none, viva_k, python_k, viva_kw, python_kw;
  g_autoptr(VivaRunResult) warmup = NULL;
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *date = g_date_time_format (now, "%Y-%m-%d");

  g_assert_true (g_file_get_contents (kmeans_path, &kmeans, NULL, &error));

  /* Warm round trip: a trivial run on a started worker. */
  warmup = run (runner, "pass", NULL);
  for (guint i = 0; i < ROUND_TRIPS; i++)
    {
      g_autoptr(VivaRunResult) result = NULL;
      double ms;

      result = run (runner, "pass", &ms);
      g_array_append_val (trips, ms);
    }

  cold_bwrap = cold_start (NULL);
  cold_none = cold_start ("none");

  for (guint i = 0; i < KMEANS_RUNS; i++)
    {
      g_autoptr(VivaRunResult) result = run (runner, kmeans, &viva_wall[i]);
      g_autoptr(GSubprocess) python = NULL;
      g_autofree char *out = NULL;
      gint64 started;

      viva_inner[i] = elapsed_in (viva_run_result_get_stdout (result));

      started = g_get_monotonic_time ();
      python = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error, "/usr/bin/python3", kmeans_path, NULL);
      g_assert_no_error (error);
      g_subprocess_communicate_utf8 (python, NULL, NULL, &out, NULL, &error);
      g_assert_no_error (error);
      python_wall[i] = (g_get_monotonic_time () - started) / 1000.0;
      python_inner[i] = elapsed_in (out);
    }

  viva_k = best_of (viva_inner, KMEANS_RUNS);
  viva_kw = best_of (viva_wall, KMEANS_RUNS);
  python_k = best_of (python_inner, KMEANS_RUNS);
  python_kw = best_of (python_wall, KMEANS_RUNS);

  printf ("### %s, Python %s, sandbox: %s\n\n", date, viva_runner_get_python_version (runner),
          viva_runner_get_sandbox (runner) == VIVA_RUNNER_SANDBOX_BUBBLEWRAP ? "bubblewrap" : "none");
  printf ("| measure | result | goal |\n|---|---|---|\n");
  printf ("| warm round trip, trivial run (median of %d) | %.3f ms (p95 %.3f ms) | ≤ 0.3 ms |\n",
          ROUND_TRIPS, percentile (trips, 0.5), percentile (trips, 0.95));
  printf ("| cold start to ready, bubblewrap (median of %d) | %.1f ms | ≤ 150 ms |\n", COLD_STARTS, cold_bwrap);
  printf ("| cold start to ready, no sandbox (median of %d) | %.1f ms | ≤ 150 ms |\n", COLD_STARTS, cold_none);
  printf ("| K-Means, Viva worker: computation / whole run (best of %d) | %.0f ms / %.0f ms | |\n",
          KMEANS_RUNS, viva_k, viva_kw);
  printf ("| K-Means, `python3 FILE`: computation / whole process (best of %d) | %.0f ms / %.0f ms | |\n",
          KMEANS_RUNS, python_k, python_kw);
  printf ("| K-Means ratio Viva / python3 (computation) | %.2f | |\n", viva_k / python_k);

  if (node != NULL && g_file_test (pyodide_module, G_FILE_TEST_EXISTS))
    {
      g_autoptr(GSubprocess) process = NULL;
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autofree char *out = NULL;
      JsonObject *object;
      double pyodide_k;

      process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error,
                                  node, pyodide_script, pyodide_dir, kmeans_path, NULL);
      g_assert_no_error (error);
      g_subprocess_communicate_utf8 (process, NULL, NULL, &out, NULL, &error);
      g_assert_no_error (error);
      g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
      object = json_node_get_object (json_parser_get_root (parser));
      pyodide_k = elapsed_in (json_object_get_string_member (object, "output"));

      printf ("| Pyodide %s start-up (loadPyodide) | %.0f ms | |\n",
              json_object_get_string_member (object, "version"),
              json_object_get_double_member (object, "load_ms"));
      printf ("| Pyodide trivial runPython (median of 2000) | %.3f ms | |\n",
              json_object_get_double_member (object, "trivial_median_ms"));
      printf ("| K-Means, Pyodide: computation / runPython (best of 3) | %.0f ms / %.0f ms | |\n",
              pyodide_k, json_object_get_double_member (object, "run_ms"));
      printf ("| K-Means ratio Viva / Pyodide (computation) | %.2f | |\n", viva_k / pyodide_k);
    }
  else
    printf ("| Pyodide | skipped: run `npm install pyodide` in %s | |\n", pyodide_dir);

  return 0;
}

/* bench-runner.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The runner's benchmarks (meson benchmark, suite 'bench'): a warm round
 * trip, cold start to ready, and the same pure-Python K-Means in Viva's
 * worker, in `python3 FILE` and in Pyodide under Node.js. Pyodide is used
 * when `npm install pyodide` was run in $VIVA_PYODIDE_DIR (default
 * /tmp/pyodide-bench) and node is on PATH; otherwise it is skipped. Prints
 * Markdown for tests/bench/RESULTS.md.
 *
 * With VIVA_BENCH_ONE_ROUND=1 it does one short round instead (300 round
 * trips, 3 cold starts, one K-Means each in the worker and in python3, the
 * worker's RSS) and prints it as one JSON object, for
 * tests/bench/bench_side_by_side.py, which interleaves rounds. */

#include "config.h"

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "viva-runner.h"
#include "viva-test-util.h"

#define ROUND_TRIPS  2000
#define COLD_STARTS  10
#define KMEANS_RUNS  3


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

  viva_runner_run_async (runner, code, 120000, NULL, viva_test_store_result, &async);
  wait_for (&async);
  if (wall_ms != NULL)
    *wall_ms = (g_get_monotonic_time () - started) / 1000.0;
  result = viva_runner_run_finish (runner, async, &error);
  g_assert_no_error (error);
  g_assert_cmpint (viva_run_result_get_status (result), ==, VIVA_RUN_STATUS_OK);
  return result;
}

static double
cold_start_n (const char *sandbox,
              guint       n)
{
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));

  if (sandbox != NULL)
    g_setenv ("VIVA_SANDBOX", sandbox, TRUE);
  else
    g_unsetenv ("VIVA_SANDBOX");

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(VivaRunner) runner = viva_runner_new ();
      g_autoptr(GAsyncResult) async = NULL;
      g_autoptr(GError) error = NULL;
      gint64 started = g_get_monotonic_time ();
      double ms;

      viva_runner_start_async (runner, NULL, viva_test_store_result, &async);
      wait_for (&async);
      ms = (g_get_monotonic_time () - started) / 1000.0;
      g_assert_true (viva_runner_start_finish (runner, async, &error));
      g_array_append_val (times, ms);
    }

  g_unsetenv ("VIVA_SANDBOX");
  return percentile (times, 0.5);
}

static double
cold_start (const char *sandbox)
{
  return cold_start_n (sandbox, COLD_STARTS);
}

static double
number_in (const char *output,
           const char *key)
{
  const char *found = strstr (output, key);

  g_assert_nonnull (found);
  return g_ascii_strtod (found + strlen (key), NULL);
}

static double
elapsed_in (const char *output)
{
  return number_in (output, "elapsed_ms: ");
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

static int
parent_of (int pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", pid);
  g_autofree char *stat = NULL;
  const char *close;

  /* The command may hold spaces and parentheses: read after the last ')'. */
  if (!g_file_get_contents (path, &stat, NULL, NULL) || !(close = strrchr (stat, ')')))
    return 0;
  return atoi (close + 4);
}

/* The resident memory of this process's worker (a descendant whose
 * command is the worker), in KiB; 0 if none is found. */
static guint64
worker_rss_kib (void)
{
  g_autoptr(GDir) proc = g_dir_open ("/proc", 0, NULL);
  const char *name;

  while (proc != NULL && (name = g_dir_read_name (proc)))
    {
      g_autofree char *cmdline_path = g_build_filename ("/proc", name, "cmdline", NULL);
      g_autofree char *status_path = g_build_filename ("/proc", name, "status", NULL);
      g_autofree char *cmdline = NULL;
      g_autofree char *status = NULL;
      const char *rss;
      int pid = atoi (name);
      int ancestor;

      if (pid <= 0 || !g_file_get_contents (cmdline_path, &cmdline, NULL, NULL) ||
          !g_str_has_suffix (cmdline, "/viva-python-worker"))
        continue;
      for (ancestor = parent_of (pid); ancestor > 1 && ancestor != getpid (); ancestor = parent_of (ancestor))
        ;
      if (ancestor == getpid () && g_file_get_contents (status_path, &status, NULL, NULL) &&
          (rss = strstr (status, "VmRSS:")))
        return g_ascii_strtoull (rss + strlen ("VmRSS:"), NULL, 10);
    }

  return 0;
}

static int
one_round (const char *kmeans,
           const char *kmeans_path)
{
  g_autoptr(VivaRunner) runner = viva_runner_new ();
  g_autoptr(GArray) trips = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(VivaRunResult) warmup = run (runner, "pass", NULL);
  g_autoptr(VivaRunResult) result = NULL;
  g_autoptr(GSubprocess) python = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  guint64 rss = worker_rss_kib ();
  double cold, viva_k, python_k, viva_cpu, python_cpu;

  for (guint i = 0; i < 300; i++)
    {
      g_autoptr(VivaRunResult) trip = NULL;
      double ms;

      trip = run (runner, "pass", &ms);
      g_array_append_val (trips, ms);
    }

  result = run (runner, kmeans, NULL);
  viva_k = elapsed_in (viva_run_result_get_stdout (result));
  viva_cpu = number_in (viva_run_result_get_stdout (result), "cpu_ms: ");
  python = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error, "/usr/bin/python3", kmeans_path, NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (python, NULL, NULL, &out, NULL, &error);
  g_assert_no_error (error);
  python_k = elapsed_in (out);
  python_cpu = number_in (out, "cpu_ms: ");
  cold = cold_start_n (NULL, 3);

  printf ("{\"warm_ms\": %.4f, \"cold_ms\": %.2f, \"kmeans_viva_ms\": %.1f, \"kmeans_python_ms\": %.1f, "
          "\"kmeans_viva_cpu_ms\": %.1f, \"kmeans_python_cpu_ms\": %.1f, "
          "\"worker_rss_kib\": %" G_GUINT64_FORMAT ", \"sandbox\": \"%s\"}\n",
          percentile (trips, 0.5), cold, viva_k, python_k, viva_cpu, python_cpu, rss,
          viva_runner_get_sandbox (runner) == VIVA_RUNNER_SANDBOX_BUBBLEWRAP ? "bubblewrap" : "none");
  return 0;
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

  if (g_strcmp0 (g_getenv ("VIVA_BENCH_ONE_ROUND"), "1") == 0)
    return one_round (kmeans, kmeans_path);

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

/* test-flatpak-runner.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* VivaRunner's Flatpak path, on a machine without Flatpak: a fake
 * .flatpak-info (VIVA_FLATPAK_INFO) makes the runner believe it is inside
 * one, and fake-flatpak-spawn on PATH behaves as the real one does where it
 * matters (the command is not our child and keeps no rlimits of ours). The
 * worker is the real worker. */

#include "config.h"

#include <errno.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>

#include "viva-run-result.h"
#include "viva-runner-launch.h"
#include "viva-runner.h"
#include "viva-test-runner.h"
#include "viva-test-util.h"

#define MEMORY_LIMIT (G_GUINT64_CONSTANT (768) << 20)
#define FILE_SIZE_LIMIT (G_GUINT64_CONSTANT (64) << 20)

typedef struct
{
  char       *dir;
  char       *info;
  char       *log;
  VivaRunner *runner;
  GString    *err;
} Fixture;

static void
on_stderr (VivaRunner *runner,
           const char *text,
           Fixture    *fixture)
{
  g_string_append (fixture->err, text);
}

static void
write_info (Fixture  *fixture,
            gboolean  build)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = g_strdup_printf ("[Application]\nname=io.github.vivaexam.Viva\n"
                                           "runtime=runtime/org.gnome.Platform/x86_64/50\n\n"
                                           "[Instance]\ninstance-id=1234567890\n%s",
                                           build ? "build=true\n" : "");

  g_file_set_contents (fixture->info, text, -1, &error);
  g_assert_no_error (error);
}

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *bin = NULL;
  g_autofree char *spawn = NULL;
  g_autofree char *fake = g_test_build_filename (G_TEST_DIST, "flatpak", "fake-flatpak-spawn", NULL);
  g_autofree char *path = NULL;

  fixture->dir = g_dir_make_tmp ("viva-flatpak-XXXXXX", &error);
  g_assert_no_error (error);
  bin = g_build_filename (fixture->dir, "bin", NULL);
  g_assert_cmpint (g_mkdir (bin, 0700), ==, 0);
  spawn = g_build_filename (bin, "flatpak-spawn", NULL);
  g_assert_cmpint (symlink (fake, spawn), ==, 0);
  path = g_strdup_printf ("%s:%s", bin, g_getenv ("PATH"));
  g_setenv ("PATH", path, TRUE);

  fixture->info = g_build_filename (fixture->dir, "flatpak-info", NULL);
  fixture->log = g_build_filename (fixture->dir, "spawn.log", NULL);
  write_info (fixture, GPOINTER_TO_INT (data));
  g_setenv ("VIVA_FLATPAK_INFO", fixture->info, TRUE);
  g_setenv ("VIVA_FAKE_SPAWN_LOG", fixture->log, TRUE);
  g_unsetenv ("VIVA_SANDBOX");

  fixture->runner = viva_runner_new ();
  viva_runner_set_memory_limit (fixture->runner, MEMORY_LIMIT);
  fixture->err = g_string_new (NULL);
  g_signal_connect (fixture->runner, "stderr", G_CALLBACK (on_stderr), fixture);
}

static void
remove_all (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && !g_file_test (path, G_FILE_TEST_IS_SYMLINK) && (name = g_dir_read_name (dir)))
    {
      g_autofree char *child = g_build_filename (path, name, NULL);
      remove_all (child);
    }
  g_remove (path);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  g_signal_handlers_disconnect_by_data (fixture->runner, fixture);
  g_assert_finalize_object (fixture->runner);
  g_string_free (fixture->err, TRUE);
  g_unsetenv ("VIVA_FLATPAK_INFO");
  g_unsetenv ("VIVA_FAKE_SPAWN_LOG");
  remove_all (fixture->dir);
  g_free (fixture->dir);
  g_free (fixture->info);
  g_free (fixture->log);
}


static VivaRunResult *
run (Fixture    *fixture,
     const char *code,
     guint       timeout_ms)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  VivaRunResult *run_result;

  viva_runner_run_async (fixture->runner, code, timeout_ms, NULL, viva_test_store_result, &result);
  viva_test_run_until_result (&result);
  run_result = viva_runner_run_finish (fixture->runner, result, &error);
  g_assert_no_error (error);
  return run_result;
}

static char *
read_file (const char *path)
{
  char *text = NULL;

  g_file_get_contents (path, &text, NULL, NULL);
  return text;
}

/* .flatpak-info says whether the app is installed or a build folder. */
static void
test_is_build (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("viva-flatpak-info-XXXXXX", &error);
  struct { const char *text; gboolean build; } cases[] = {
    { "[Application]\nname=io.github.vivaexam.Viva\n[Instance]\ninstance-id=1\n", FALSE },
    { "[Application]\nname=io.github.vivaexam.Viva\n[Instance]\ninstance-id=1\nbuild=true\n", TRUE },
    { "[Application]\nname=io.github.vivaexam.Viva\n[Instance]\nbuild=false\n", FALSE },
    { "[Application]\nbuild=true\n", FALSE },
    { "not a key file\n", FALSE },
  };
  g_autofree char *missing = g_build_filename (dir, "missing", NULL);

  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_build_filename (dir, "info", NULL);

      g_file_set_contents (path, cases[i].text, -1, &error);
      g_assert_no_error (error);
      g_assert_cmpint (_viva_runner_flatpak_is_build (path), ==, cases[i].build);
      g_remove (path);
    }
  g_assert_false (_viva_runner_flatpak_is_build (missing));
  g_rmdir (dir);
}

/* Installed: the worker goes through flatpak-spawn --sandbox --no-network,
 * and the limits it runs under are the ones it set itself. */
static void
test_spawn (Fixture       *fixture,
            gconstpointer  data)
{
  g_autoptr(VivaRunResult) result = NULL;
  g_autofree char *log = NULL;
  g_autofree char *expected = NULL;
  g_auto(GStrv) argv = NULL;

  result = run (fixture,
                "import os, resource\n"
                "print(resource.getrlimit(resource.RLIMIT_AS)[0])\n"
                "print(resource.getrlimit(resource.RLIMIT_FSIZE)[0])\n"
                "print(os.environ['HOME'], os.getcwd())\n", 0);
  viva_test_assert_run_ok (result);

  g_assert_cmpint (viva_runner_get_sandbox (fixture->runner), ==, VIVA_RUNNER_SANDBOX_FLATPAK);
  g_assert_null (viva_runner_get_sandbox_message (fixture->runner));
  g_assert_cmpstr (fixture->err->str, ==, "");

  log = read_file (fixture->log);
  g_assert_nonnull (log);
  argv = g_strsplit (g_strchomp (log), " ", -1);
  g_assert_true (g_strv_contains ((const char * const *) argv, "--sandbox"));
  g_assert_true (g_strv_contains ((const char * const *) argv, "--no-network"));
  g_assert_true (g_strv_contains ((const char * const *) argv, "--forward-fd=3"));
  g_assert_true (g_strv_contains ((const char * const *) argv, g_getenv ("VIVA_WORKER")));

#if defined(__SANITIZE_ADDRESS__)
  /* The worker has no address-space cap under AddressSanitizer. */
  expected = g_strdup_printf ("-1\n%" G_GUINT64_FORMAT "\n/tmp /tmp\n", FILE_SIZE_LIMIT);
#else
  expected = g_strdup_printf ("%" G_GUINT64_FORMAT "\n%" G_GUINT64_FORMAT "\n/tmp /tmp\n",
                              MEMORY_LIMIT, FILE_SIZE_LIMIT);
#endif
  g_assert_cmpstr (viva_run_result_get_stdout (result), ==, expected);
}

static gboolean
process_gone (GPid pid)
{
  g_autofree char *stat_path = g_strdup_printf ("/proc/%d/stat", pid);
  g_autofree char *stat = NULL;

  if (kill (pid, 0) != 0 && errno == ESRCH)
    return TRUE;
  /* A zombie is gone too: it runs no more code. */
  if (!g_file_get_contents (stat_path, &stat, NULL, NULL) || strrchr (stat, ')') == NULL)
    return TRUE;
  return strstr (strrchr (stat, ')'), ") Z") != NULL;
}

/* Killing flatpak-spawn does not reach the worker; stuck in code that
 * ignores interrupts, the worker must still end, and the next run gets a
 * fresh one. */
static void
test_hard_kill (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(VivaRunResult) first = run (fixture, "print('warm')", 0);
  g_autoptr(VivaRunResult) stuck = NULL;
  g_autoptr(VivaRunResult) after = NULL;
  g_autofree char *pid_path = g_strconcat (fixture->log, ".pid", NULL);
  g_autofree char *pid_text = NULL;
  GPid pid;
  gint64 deadline;

  viva_test_assert_run_ok (first);
  pid_text = read_file (pid_path);
  g_assert_nonnull (pid_text);
  pid = atoi (pid_text);
  g_assert_cmpint (pid, >, 1);
  g_assert_false (process_gone (pid));

  stuck = run (fixture, "import signal\nsignal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGINT])\nwhile True:\n    pass\n", 300);
  g_assert_cmpint (viva_run_result_get_status (stuck), ==, VIVA_RUN_STATUS_KILLED);

  deadline = g_get_monotonic_time () + 5 * G_TIME_SPAN_SECOND;
  while (!process_gone (pid) && g_get_monotonic_time () < deadline)
    g_usleep (50 * 1000);
  if (!process_gone (pid))
    {
      kill (pid, SIGKILL);
      g_error ("the worker (pid %d) outlived flatpak-spawn's kill by 5 s", pid);
    }

  after = run (fixture, "print(6 * 7)", 0);
  viva_test_assert_run_ok (after);
  g_assert_cmpstr (viva_run_result_get_stdout (after), ==, "42\n");
}

/* Under flatpak-builder --run the portal has no installed app to start a
 * sub-sandbox from: code runs anyway, and the runner says why it is not
 * sandboxed, once, on the stderr signal and in sandbox-message. */
static void
test_build_fallback (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(VivaRunResult) result = run (fixture, "print('runs')", 0);
  const char *message;

  viva_test_assert_run_ok (result);
  g_assert_cmpstr (viva_run_result_get_stdout (result), ==, "runs\n");
  g_assert_cmpint (viva_runner_get_sandbox (fixture->runner), ==, VIVA_RUNNER_SANDBOX_NONE);
  message = viva_runner_get_sandbox_message (fixture->runner);
  g_assert_nonnull (message);
  g_assert_nonnull (strstr (message, "Flatpak"));
  g_assert_nonnull (strstr (fixture->err->str, message));
  g_assert_false (g_file_test (fixture->log, G_FILE_TEST_EXISTS));
}

static void
assert_window_error (VivaRunResult *result)
{
  const char *summary = viva_run_result_get_summary (result);

  g_assert_cmpint (viva_run_result_get_status (result), ==, VIVA_RUN_STATUS_ERROR);
  if (summary == NULL || strstr (summary, "turtle and tkinter are not available") == NULL ||
      strstr (summary, "matplotlib") == NULL)
    g_error ("no clear word about turtle: %s (%s: %s)", summary,
             viva_run_result_get_error_type (result), viva_run_result_get_error_message (result));
}

/* turtle and tkinter: absent from the Flatpak runtime, and without a
 * screen anywhere. Either way the student reads why and what to use. */
static void
test_turtle (Fixture       *fixture,
             gconstpointer  data)
{
  g_autoptr(VivaRunResult) absent = NULL;
  g_autoptr(VivaRunResult) probe = NULL;
  g_autoptr(VivaRunResult) fine = NULL;

  /* As in the runtime, where there is no tkinter to import. */
  absent = run (fixture, "import sys\nsys.modules['tkinter'] = None\nimport turtle\nturtle.forward(10)\n", 0);
  assert_window_error (absent);
  g_assert_cmpint (viva_run_result_get_error_line (absent), ==, 3);

  probe = run (fixture, "import importlib.util\nprint(importlib.util.find_spec('_tkinter') is not None)\n", 0);
  viva_test_assert_run_ok (probe);
  if (g_str_equal (viva_run_result_get_stdout (probe), "True\n"))
    {
      /* Where Tk is installed, it finds no display. */
      g_autoptr(VivaRunResult) no_screen = NULL;

      no_screen = run (fixture, "del sys.modules['tkinter']\nimport importlib, turtle\nimportlib.reload(turtle)\nturtle.forward(10)\n", 0);
      assert_window_error (no_screen);
    }

  /* Other import errors keep their own words. */
  fine = run (fixture, "import no_such_module_here\n", 0);
  g_assert_cmpint (viva_run_result_get_status (fine), ==, VIVA_RUN_STATUS_ERROR);
  g_assert_null (strstr (viva_run_result_get_summary (fine), "turtle"));
  g_assert_nonnull (strstr (viva_run_result_get_summary (fine), "no_such_module_here"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  if (g_file_test ("/.flatpak-info", G_FILE_TEST_EXISTS))
    {
      g_test_message ("inside a real Flatpak the fake one would not be used");
      return 77;
    }

  g_test_add_func ("/viva/flatpak/is-build", test_is_build);
  g_test_add ("/viva/flatpak/spawn", Fixture, GINT_TO_POINTER (FALSE), fixture_setup, test_spawn, fixture_teardown);
  g_test_add ("/viva/flatpak/hard-kill", Fixture, GINT_TO_POINTER (FALSE), fixture_setup, test_hard_kill, fixture_teardown);
  g_test_add ("/viva/flatpak/build-fallback", Fixture, GINT_TO_POINTER (TRUE), fixture_setup, test_build_fallback, fixture_teardown);
  g_test_add ("/viva/flatpak/turtle", Fixture, GINT_TO_POINTER (FALSE), fixture_setup, test_turtle, fixture_teardown);

  return g_test_run ();
}

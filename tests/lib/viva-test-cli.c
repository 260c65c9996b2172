/* viva-test-cli.c: the real viva-cli ($VIVA_CLI) run from a test, either
 * plainly (its output and exit status, stdin closed) or while the test's
 * main loop keeps serving a scripted server in the same process, with its
 * --json events parsed.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-test-cli.h"
#include "viva-test-util.h"

/**
 * viva_test_cli:
 * @args: viva-cli's arguments, %NULL-terminated
 * @out: (inout): what it printed on stdout; what it held is freed
 * @err: (inout): what it printed on stderr; what it held is freed
 *
 * Runs viva-cli with the test's environment and an empty stdin, and waits
 * (without iterating the main loop).
 *
 * Returns: its exit status; asserts it exited rather than died
 */
int
viva_test_cli (const char * const  *args,
               char               **out,
               char               **err)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;

  /* Callers reuse their buffers from one run to the next. */
  if (out != NULL)
    g_clear_pointer (out, g_free);
  if (err != NULL)
    g_clear_pointer (err, g_free);

  g_ptr_array_add (argv, (gpointer)g_getenv ("VIVA_CLI"));
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer)args[i]);
  g_ptr_array_add (argv, NULL);

  process = g_subprocess_newv ((const char * const *)argv->pdata,
                               G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE |
                               G_SUBPROCESS_FLAGS_STDIN_PIPE, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (process, NULL, NULL, out, err, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (process));

  return g_subprocess_get_exit_status (process);
}

/**
 * viva_test_cli_run:
 * @data_home: (nullable): its XDG_DATA_HOME, or the test's own
 * @args: viva-cli's arguments, %NULL-terminated
 *
 * Runs viva-cli while the main loop serves a scripted server of this
 * process, with secrets and settings in memory, C.UTF-8 and without
 * G_DEBUG (its own warnings are what a test asserts). With `--json` among
 * @args, every stdout line must be a JSON object: it goes to @run's
 * events. Free @run's members with viva_test_cli_run_clear().
 */
void
viva_test_cli_run (VivaTestCliRun      *run,
                   const char          *data_home,
                   const char * const  *args)
{
  viva_test_cli_run_with_settings (run, data_home, NULL, args);
}

/**
 * viva_test_cli_run_with_settings:
 * @config_home: (nullable): an XDG_CONFIG_HOME whose
 *   `glib-2.0/settings/keyfile` holds viva-cli's settings (the keyfile
 *   backend, as the GUI tests give the app); %NULL for settings in memory
 *
 * As viva_test_cli_run(), with settings a test wrote, so viva-cli reads
 * the same settings as the app would.
 */
void
viva_test_cli_run_with_settings (VivaTestCliRun      *run,
                                 const char          *data_home,
                                 const char          *config_home,
                                 const char * const  *args)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                                        G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  const char *cli = g_getenv ("VIVA_CLI");

  g_assert_nonnull (cli);
  g_subprocess_launcher_setenv (launcher, "VIVA_SECRETS", "memory", TRUE);
  g_subprocess_launcher_setenv (launcher, "GSETTINGS_BACKEND", config_home ? "keyfile" : "memory", TRUE);
  if (config_home != NULL)
    g_subprocess_launcher_setenv (launcher, "XDG_CONFIG_HOME", config_home, TRUE);
  if (data_home != NULL)
    g_subprocess_launcher_setenv (launcher, "XDG_DATA_HOME", data_home, TRUE);
  g_subprocess_launcher_setenv (launcher, "LC_ALL", "C.UTF-8", TRUE);
  g_subprocess_launcher_unsetenv (launcher, "G_DEBUG");

  g_ptr_array_add (argv, (gpointer)cli);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer)args[i]);
  g_ptr_array_add (argv, NULL);

  process = g_subprocess_launcher_spawnv (launcher, (const char * const *)argv->pdata, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8_async (process, NULL, NULL, viva_test_store_result, &result);
  viva_test_run_until_result (&result);
  g_subprocess_communicate_utf8_finish (process, result, &run->out, &run->err, &error);
  g_assert_no_error (error);
  run->status = g_subprocess_get_exit_status (process);

  run->events = g_ptr_array_new_with_free_func ((GDestroyNotify)json_object_unref);
  if (!g_strv_contains (args, "--json"))
    return;

  lines = g_strsplit (run->out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();

      if (lines[i][0] == '\0')
        continue;
      g_assert_true (json_parser_load_from_data (parser, lines[i], -1, NULL));
      g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
      g_ptr_array_add (run->events, json_object_ref (json_node_get_object (json_parser_get_root (parser))));
    }
}

void
viva_test_cli_run_clear (VivaTestCliRun *run)
{
  g_free (run->out);
  g_free (run->err);
  g_clear_pointer (&run->events, g_ptr_array_unref);
}

/* test-cli-run.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* viva-cli run through the real binary ($VIVA_CLI), checked against the
 * CLI contract in DESIGN.md: events one JSON object a line, the result
 * last, exit 0 only for ok, 2 for bad usage. */

#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <unistd.h>

typedef struct
{
  int        status;
  GPtrArray *events;   /* JsonObject */
  char      *out;
  char      *err;
} CliRun;

static void
cli_run_free (CliRun *run)
{
  g_ptr_array_unref (run->events);
  g_free (run->out);
  g_free (run->err);
  g_free (run);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CliRun, cli_run_free)

static char *
write_script (const char *code)
{
  g_autoptr(GError) error = NULL;
  char *path = NULL;
  int fd = g_file_open_tmp ("viva-cli-run-XXXXXX.py", &path, &error);

  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (path, code, -1, &error));
  g_assert_no_error (error);
  close (fd);
  return path;
}

static CliRun *
cli (const char *first,
     ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  CliRun *run = g_new0 (CliRun, 1);
  va_list args;

  g_ptr_array_add (argv, (gpointer) g_getenv ("VIVA_CLI"));
  g_ptr_array_add (argv, (gpointer) "run");
  va_start (args, first);
  for (const char *arg = first; arg != NULL; arg = va_arg (args, const char *))
    g_ptr_array_add (argv, (gpointer) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  process = g_subprocess_newv ((const char * const *) argv->pdata,
                               G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (process, NULL, NULL, &run->out, &run->err, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (process));
  run->status = g_subprocess_get_exit_status (process);

  run->events = g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref);
  lines = g_strsplit (run->out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      JsonNode *root;

      if (lines[i][0] != '{')
        continue;
      json_parser_load_from_data (parser, lines[i], -1, &error);
      g_assert_no_error (error);
      root = json_parser_get_root (parser);
      g_assert_true (JSON_NODE_HOLDS_OBJECT (root));
      g_assert_true (json_object_has_member (json_node_get_object (root), "event"));
      g_ptr_array_add (run->events, json_object_ref (json_node_get_object (root)));
    }

  return run;
}

static JsonObject *
last_event (CliRun *run)
{
  JsonObject *last;

  g_assert_cmpuint (run->events->len, >, 0);
  last = g_ptr_array_index (run->events, run->events->len - 1);
  g_assert_cmpstr (json_object_get_string_member (last, "event"), ==, "result");
  return last;
}

static void
test_ok (void)
{
  g_autofree char *path = write_script ("import sys\nprint('to out')\nprint('to err', file=sys.stderr)\n");
  g_autoptr(CliRun) run = cli ("--json", path, NULL);
  JsonObject *result = last_event (run);
  JsonObject *first = g_ptr_array_index (run->events, 0);

  g_assert_cmpint (run->status, ==, 0);
  g_assert_cmpstr (json_object_get_string_member (first, "event"), ==, "stdout");
  g_assert_cmpstr (json_object_get_string_member (first, "text"), ==, "to out\n");
  g_assert_cmpstr (json_object_get_string_member (result, "status"), ==, "ok");
  g_assert_true (json_object_has_member (result, "duration_ms"));
  g_assert_false (json_object_has_member (result, "error"));
  g_remove (path);
}

static void
test_error (void)
{
  g_autofree char *path = write_script ("values = [1, 2]\n\nprint(values[5])\n");
  g_autoptr(CliRun) run = cli ("--json", path, NULL);
  JsonObject *result = last_event (run);
  JsonObject *error;

  g_assert_cmpint (run->status, ==, 1);
  g_assert_cmpstr (json_object_get_string_member (result, "status"), ==, "error");
  error = json_object_get_object_member (result, "error");
  g_assert_cmpstr (json_object_get_string_member (error, "type"), ==, "IndexError");
  g_assert_cmpstr (json_object_get_string_member (error, "message"), ==, "list index out of range");
  g_assert_cmpint (json_object_get_int_member (error, "line"), ==, 3);
  g_remove (path);
}

static void
test_timeout (void)
{
  /* The loop never ends, so that the run ends at all is the timeout's work;
   * how soon is the benchmark's business, not this test's. */
  g_autofree char *path = write_script ("while True:\n    pass\n");
  g_autoptr(CliRun) run = cli ("--timeout", "0.5", "--json", path, NULL);
  JsonObject *result = last_event (run);

  g_assert_cmpint (run->status, ==, 1);
  g_assert_cmpstr (json_object_get_string_member (result, "status"), ==, "timeout");
  g_remove (path);
}

/* Without --json, output is the program's own and errors go to stderr. */
static void
test_plain (void)
{
  g_autofree char *path = write_script ("print('plain')\nraise ValueError('bad value')\n");
  g_autoptr(CliRun) run = cli (path, NULL);

  g_assert_cmpint (run->status, ==, 1);
  g_assert_cmpstr (run->out, ==, "plain\n");
  g_assert_nonnull (strstr (run->err, "ValueError: bad value"));
  g_assert_nonnull (strstr (run->err, "line 2"));
  g_remove (path);
}

static void
test_usage (void)
{
  g_autoptr(CliRun) none = cli (NULL);
  g_autoptr(CliRun) bad_timeout = cli ("--timeout", "-1", "x.py", NULL);
  g_autoptr(CliRun) missing = cli ("/nonexistent/viva/file.py", NULL);

  g_assert_cmpint (none->status, ==, 2);
  g_assert_cmpint (bad_timeout->status, ==, 2);
  g_assert_cmpint (missing->status, ==, 1);
  g_assert_nonnull (strstr (missing->err, "file.py"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/viva/runner/cli/ok", test_ok);
  g_test_add_func ("/viva/runner/cli/error", test_error);
  g_test_add_func ("/viva/runner/cli/timeout", test_timeout);
  g_test_add_func ("/viva/runner/cli/plain", test_plain);
  g_test_add_func ("/viva/runner/cli/usage", test_usage);

  return g_test_run ();
}

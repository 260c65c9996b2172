/* test-cli-generate.c: viva-cli pack generate against the scripted server
 * and the real worker.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "viva-test-cli.h"
#include "viva-test-server.h"
#include "viva-test-util.h"

#define GOOD_PROBLEM \
  "{\"id\": \"double-it\", \"title\": \"Double it\", \"type\": \"implement\"," \
  " \"description\": \"Write `double(x)` that returns twice `x`.\"," \
  " \"starter_code\": \"def double(x):\\n    raise NotImplementedError\\n\"," \
  " \"reference_solution\": \"def double(x):\\n    return x * 2\\n\"," \
  " \"tests\": [{\"name\": \"ints\", \"code\": \"assert double(2) == 4, 'double(2)'\"}]," \
  " \"questions\": [{\"question\": \"Why does it work for floats?\", \"points\": [\"* works on any number\"]}]," \
  " \"hint\": \"Multiplication is enough.\", \"rubric\": \"Correct and explained.\"}"

/* The starter already solves it. */
#define STARTER_PASSES \
  "{\"id\": \"double-it\", \"title\": \"Double it\", \"type\": \"implement\"," \
  " \"description\": \"Write `double(x)`.\"," \
  " \"starter_code\": \"def double(x):\\n    return x * 2\\n\"," \
  " \"reference_solution\": \"def double(x):\\n    return x * 2\\n\"," \
  " \"tests\": [{\"name\": \"ints\", \"code\": \"assert double(2) == 4\"}]," \
  " \"questions\": [{\"question\": \"Why?\", \"points\": [\"because\"]}]," \
  " \"hint\": \"Multiplication.\", \"rubric\": \"Correct.\"}"

typedef VivaTestCliRun Run;

/* Runs viva-cli pack generate with a private data home while the main loop
 * serves the test server. */
static void
run_cli (Run                *run,
         const char         *data_home,
         const char * const *args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();

  g_ptr_array_add (argv, (gpointer)"pack");
  g_ptr_array_add (argv, (gpointer)"generate");
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer)args[i]);
  g_ptr_array_add (argv, NULL);
  viva_test_cli_run (run, data_home, (const char * const *)argv->pdata);
}

static JsonObject *
last_event (Run *run)
{
  g_assert_cmpuint (run->events->len, >, 0);
  return g_ptr_array_index (run->events, run->events->len - 1);
}

static void
queue_content (VivaTestServer *server,
               const char     *content)
{
  g_autoptr(VivaTestResponse) response = viva_test_response_new_chat_stream (content, NULL, NULL, NULL);

  viva_test_server_queue (server, "POST", "/v1/chat/completions", response);
}

static void
test_good_json (void)
{
  g_autoptr(VivaTestServer) server = viva_test_server_new ();
  g_autofree char *base_url = viva_test_server_get_base_url (server);
  g_autofree char *home = g_dir_make_tmp ("viva-cli-generate-XXXXXX", NULL);
  g_autofree char *output = g_build_filename (home, "draft.json", NULL);
  const char *args[] = { "--topic", "doubling", "--type", "implement", "--base-url", base_url,
                         "--model", "m", "-o", output, "--json", NULL };
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *result;
  JsonObject *written;
  guint n_progress = 0;
  Run run = { 0 };

  queue_content (server, "not JSON at all");
  queue_content (server, GOOD_PROBLEM);
  run_cli (&run, home, args);
  g_assert_cmpint (run.status, ==, 0);

  for (guint i = 0; i + 1 < run.events->len; i++)
    {
      JsonObject *event = g_ptr_array_index (run.events, i);

      g_assert_cmpstr (json_object_get_string_member (event, "event"), ==, "progress");
      g_assert_nonnull (json_object_get_string_member (event, "stage"));
      g_assert_nonnull (json_object_get_string_member (event, "message"));
      n_progress++;
    }
  /* drafting, checking, retrying, drafting, checking, passed */
  g_assert_cmpuint (n_progress, ==, 6);

  result = last_event (&run);
  g_assert_cmpstr (json_object_get_string_member (result, "event"), ==, "result");
  g_assert_true (json_object_get_boolean_member (result, "passed"));
  g_assert_cmpint (json_object_get_int_member (result, "attempts"), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (result, "status"), ==, "passed");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (result, "problem"), "id"),
                   ==, "double-it");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (result, "checks")), ==, 2);

  g_assert_true (json_parser_load_from_file (parser, output, NULL));
  written = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (written, "format"), ==, "viva-draft/1");
  g_assert_cmpstr (json_object_get_string_member (written, "topic"), ==, "doubling");

  g_unlink (output);
  g_rmdir (home);
  viva_test_cli_run_clear (&run);
}

static void
test_failing_kept (void)
{
  g_autoptr(VivaTestServer) server = viva_test_server_new ();
  g_autoptr(VivaTestResponse) response = viva_test_response_new_chat_stream (STARTER_PASSES, NULL, NULL, NULL);
  g_autofree char *base_url = viva_test_server_get_base_url (server);
  g_autofree char *home = g_dir_make_tmp ("viva-cli-generate-XXXXXX", NULL);
  g_autofree char *drafts = g_build_filename (home, "viva", "drafts", NULL);
  const char *args[] = { "--topic", "doubling", "--type", "implement", "--base-url", base_url,
                         "--model", "m", "--pack", "lab-1", NULL };
  g_autoptr(GDir) dir = NULL;
  g_autofree char *path = NULL;
  g_autofree char *contents = NULL;
  const char *name;
  Run run = { 0 };

  viva_test_server_set_default (server, "POST", "/v1/chat/completions", response);
  run_cli (&run, home, args);

  /* Still failing after three retries: exit 1, and the draft is kept in
   * the drafts folder the app reads, with the last errors. */
  g_assert_cmpint (run.status, ==, 1);
  g_assert_cmpuint (viva_test_server_count_requests (server, "POST", "/v1/chat/completions"), ==, 4);
  g_assert_nonnull (strstr (run.out, "still fails its checks after 4 attempts"));
  g_assert_nonnull (strstr (run.out, "starter_code: passes every test"));
  g_assert_nonnull (strstr (run.out, "marked as failing"));

  dir = g_dir_open (drafts, 0, NULL);
  g_assert_nonnull (dir);
  name = g_dir_read_name (dir);
  g_assert_nonnull (name);
  g_assert_true (g_str_has_suffix (name, ".json"));
  path = g_build_filename (drafts, name, NULL);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_nonnull (strstr (contents, "\"status\" : \"failing\""));
  g_assert_nonnull (strstr (contents, "\"pack\" : \"lab-1\""));
  g_assert_null (g_dir_read_name (dir));

  g_unlink (path);
  g_rmdir (drafts);
  {
    g_autofree char *viva = g_build_filename (home, "viva", NULL);

    g_rmdir (viva);
  }
  g_rmdir (home);
  viva_test_cli_run_clear (&run);
}

static void
test_unreachable (void)
{
  g_autofree char *url = viva_test_get_unused_url ();
  g_autofree char *base_url = g_strconcat (url, "/v1", NULL);
  g_autofree char *home = g_dir_make_tmp ("viva-cli-generate-XXXXXX", NULL);
  const char *args[] = { "--topic", "doubling", "--type", "debug", "--base-url", base_url,
                         "--model", "m", "--json", NULL };
  g_autofree char *drafts = g_build_filename (home, "viva", "drafts", NULL);
  JsonObject *error;
  Run run = { 0 };

  run_cli (&run, home, args);
  g_assert_cmpint (run.status, ==, 1);
  error = last_event (&run);
  g_assert_cmpstr (json_object_get_string_member (error, "event"), ==, "error");
  g_assert_cmpstr (json_object_get_string_member (error, "kind"), ==, "not-running");
  g_assert_cmpuint (strlen (json_object_get_string_member (error, "message")), >, 20);
  /* No draft without a reply. */
  g_assert_false (g_file_test (drafts, G_FILE_TEST_EXISTS));

  g_rmdir (home);
  viva_test_cli_run_clear (&run);
}

static void
test_usage (void)
{
  g_autofree char *home = g_dir_make_tmp ("viva-cli-generate-XXXXXX", NULL);
  const char *no_topic[] = { "--type", "implement", NULL };
  const char *bad_type[] = { "--topic", "loops", "--type", "essay", NULL };
  const char *extra[] = { "--topic", "loops", "--type", "debug", "more", NULL };
  Run run = { 0 };

  run_cli (&run, home, no_topic);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_nonnull (strstr (run.err, "--topic"));
  viva_test_cli_run_clear (&run);

  run_cli (&run, home, bad_type);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_nonnull (strstr (run.err, "implement, debug or explain"));
  viva_test_cli_run_clear (&run);

  run_cli (&run, home, extra);
  g_assert_cmpint (run.status, ==, 2);
  viva_test_cli_run_clear (&run);

  g_rmdir (home);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/viva/cli-generate/good-json", test_good_json);
  g_test_add_func ("/viva/cli-generate/failing-kept", test_failing_kept);
  g_test_add_func ("/viva/cli-generate/unreachable", test_unreachable);
  g_test_add_func ("/viva/cli-generate/usage", test_usage);

  return g_test_run ();
}

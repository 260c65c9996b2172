/* test-cli-lab.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <signal.h>
#include <string.h>

#include "viva-test-examiner.h"
#include "viva-test-server.h"
#include "viva-test-util.h"

/* viva-cli lab rehearse as an admin runs it, against the test server in
 * this process: one JSON event a line, the summary last, exit 0 when the
 * server held everyone; a server that is not there is one line on stderr
 * and exit 1; Ctrl+C ends with a report of what finished; bad usage is
 * exit 2. */

typedef struct
{
  VivaTestServer   *server;
  VivaTestExaminer  examiner;
  char             *base_url;
} Fixture;

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  fixture->server = viva_test_server_new ();
  fixture->base_url = viva_test_server_get_base_url (fixture->server);
  viva_test_examiner_serve (&fixture->examiner, fixture->server);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  g_assert_finalize_object (g_steal_pointer (&fixture->server));
  g_clear_pointer (&fixture->base_url, g_free);
}


static GSubprocess *
spawn (const char * const *args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  GSubprocess *process;

  g_ptr_array_add (argv, (gpointer)g_getenv ("VIVA_CLI"));
  g_ptr_array_add (argv, (gpointer)"lab");
  g_ptr_array_add (argv, (gpointer)"rehearse");
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer)args[i]);
  g_ptr_array_add (argv, NULL);

  process = g_subprocess_newv ((const char * const *)argv->pdata,
                               G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  g_assert_no_error (error);
  return process;
}

/* Runs the main loop (the server lives on it) until the CLI exits. */
static int
finish (GSubprocess  *process,
        char        **out,
        char        **err)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  g_subprocess_communicate_utf8_async (process, NULL, NULL, viva_test_store_result, &result);
  viva_test_run_until_result (&result);
  g_subprocess_communicate_utf8_finish (process, result, out, err, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (process));
  return g_subprocess_get_exit_status (process);
}

static GPtrArray *
events_of (const char *out)
{
  g_auto(GStrv) lines = g_strsplit (out, "\n", -1);
  GPtrArray *events = g_ptr_array_new_with_free_func ((GDestroyNotify)json_object_unref);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(JsonNode) node = NULL;
      g_autoptr(GError) error = NULL;

      if (lines[i][0] == '\0')
        continue;
      node = json_from_string (lines[i], &error);
      g_assert_no_error (error);
      g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
      g_assert_true (json_object_has_member (json_node_get_object (node), "event"));
      g_ptr_array_add (events, json_object_ref (json_node_get_object (node)));
    }

  return events;
}

static void
test_json (Fixture       *fixture,
           gconstpointer  data)
{
  const char *args[] = { "--base-url", fixture->base_url, "--model", "lab-model", "--students", "4",
                         "--problems", "kmeans", "--json", NULL };
  g_autoptr(GSubprocess) process = spawn (args);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GPtrArray) events = NULL;
  JsonObject *last;

  g_assert_cmpint (finish (process, &out, &err), ==, 0);
  events = events_of (out);
  g_assert_cmpuint (events->len, ==, 5);
  for (guint i = 0; i < 4; i++)
    {
      JsonObject *event = g_ptr_array_index (events, i);

      g_assert_cmpstr (json_object_get_string_member (event, "event"), ==, "defense");
      g_assert_cmpstr (json_object_get_string_member (event, "problem"), ==, "kmeans");
      g_assert_cmpstr (json_object_get_string_member (event, "status"), ==, "completed");
    }
  last = g_ptr_array_index (events, 4);
  g_assert_cmpstr (json_object_get_string_member (last, "event"), ==, "rehearsal");
  g_assert_cmpint (json_object_get_int_member (last, "students"), ==, 4);
  g_assert_cmpint (json_object_get_int_member (last, "completed"), ==, 4);
  g_assert_cmpint (json_object_get_int_member (last, "failed"), ==, 0);
  g_assert_true (json_object_get_boolean_member (last, "held"));
  g_assert_true (json_object_has_member (json_object_get_object_member (last, "ttft_ms"), "p95"));
  g_assert_true (json_object_has_member (json_object_get_object_member (last, "defense_s"), "p50"));
  g_assert_true (json_object_has_member (last, "tokens_per_s"));
}

/* The scripted students answer through a program, as `defend
 * --answer-with` does: the question as one JSON object (with the
 * student's code), the answer its output. Rightly (the program runs the
 * call on that code), wrongly and with junk: the prediction items say
 * what the engine judged. */
static void
rehearse_answering (Fixture    *fixture,
                    const char *mode,
                    const char *reason)
{
  g_autofree char *dir = g_dir_make_tmp ("viva-lab-answers-XXXXXX", NULL);
  g_autofree char *log = g_build_filename (dir, "questions.jsonl", NULL);
  g_autofree char *program = g_build_filename (g_getenv ("VIVA_SOURCE_ROOT"), "tests", "exam", "answer-program.py", NULL);
  g_autofree char *answer_with = g_strdup_printf ("python3 %s %s - %s", program, mode, log);
  const char *args[] = { "--base-url", fixture->base_url, "--model", "lab-model", "--students", "2",
                         "--problems", "knn", "--json", "--answer-with", answer_with, NULL };
  g_autoptr(GSubprocess) process = spawn (args);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *asked = NULL;
  g_autoptr(GPtrArray) events = NULL;
  g_auto(GStrv) lines = NULL;
  guint n_predictions = 0, n_asked = 0;

  g_assert_cmpint (finish (process, &out, &err), ==, 0);
  events = events_of (out);
  g_assert_cmpuint (events->len, ==, 3);
  for (guint i = 0; i < 2; i++)
    {
      JsonObject *event = g_ptr_array_index (events, i);
      JsonArray *items = json_object_get_array_member (event, "items");

      g_assert_cmpstr (json_object_get_string_member (event, "status"), ==, "completed");
      for (guint j = 0; j < json_array_get_length (items); j++)
        {
          JsonObject *item = json_array_get_object_element (items, j);
          double points = json_object_get_double_member (item, "points");

          if (!g_str_equal (json_object_get_string_member (item, "kind"), "prediction"))
            continue;
          n_predictions++;
          g_assert_cmpstr (json_object_get_string_member (item, "judged_by"), ==, "engine");
          if (reason == NULL)
            g_assert_cmpfloat_with_epsilon (points, json_object_get_double_member (item, "max_points"), 1e-9);
          else
            {
              g_assert_cmpfloat (points, ==, 0);
              g_assert_nonnull (strstr (json_object_get_string_member (item, "reason"), reason));
            }
        }
    }
  g_assert_cmpuint (n_predictions, ==, 2);

  /* Every question went to the program, a prediction with its call and
   * the student's code. */
  g_assert_true (g_file_get_contents (log, &asked, NULL, NULL));
  lines = g_strsplit (asked, "\n", -1);
  for (guint i = 0; lines[i] && lines[i][0]; i++)
    {
      g_autoptr(JsonNode) node = json_from_string (lines[i], NULL);
      JsonObject *question = json_node_get_object (node);

      n_asked++;
      g_assert_true (json_object_has_member (question, "text"));
      g_assert_true (json_object_has_member (question, "code"));
      if (g_str_equal (json_object_get_string_member (question, "kind"), "prediction"))
        g_assert_nonnull (strstr (json_object_get_string_member (question, "text"),
                                  json_object_get_string_member (question, "call")));
    }
  g_assert_cmpuint (n_asked, ==, 4);
  viva_test_remove_tree (dir);
}

static void
test_answer_with (Fixture       *fixture,
                  gconstpointer  data)
{
  rehearse_answering (fixture, "right", NULL);
  rehearse_answering (fixture, "wrong", "Not what your code does");
  rehearse_answering (fixture, "junk", "Not a Python value");
}

static void
test_text (Fixture       *fixture,
           gconstpointer  data)
{
  const char *args[] = { "--base-url", fixture->base_url, "--model", "lab-model", "--students", "3", NULL };
  g_autoptr(GSubprocess) process = spawn (args);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  g_assert_cmpint (finish (process, &out, &err), ==, 0);
  g_assert_nonnull (strstr (out, "Student 1 (kmeans, reference): verdict pass"));
  g_assert_nonnull (strstr (out, "Time to first token: p50"));
  g_assert_nonnull (strstr (out, "The server held 3 students at once."));
}

static void
test_unreachable (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autofree char *url = viva_test_get_unused_url ();
  const char *args[] = { "--base-url", url, "--students", "16", NULL };
  g_autoptr(GSubprocess) process = spawn (args);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_auto(GStrv) lines = NULL;

  g_assert_cmpint (finish (process, &out, &err), ==, 1);
  g_assert_cmpstr (out, ==, "");
  lines = g_strsplit (g_strchomp (err), "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 1);
  g_assert_true (g_str_has_prefix (lines[0], "viva-cli: No student was started: "));
  g_assert_nonnull (strstr (lines[0], url));
}

static gboolean
interrupt_when_asked (gpointer user_data)
{
  Fixture *fixture = user_data;
  GSubprocess *process = g_object_get_data (G_OBJECT (fixture->server), "process");

  if (viva_test_server_count_requests (fixture->server, "POST", "/v1/chat/completions") == 0)
    return G_SOURCE_CONTINUE;

  g_subprocess_send_signal (process, SIGINT);
  return G_SOURCE_REMOVE;
}

static void
test_interrupted (Fixture       *fixture,
                  gconstpointer  data)
{
  const char *args[] = { "--base-url", fixture->base_url, "--model", "lab-model", "--students", "8", "--json", NULL };
  g_autoptr(GSubprocess) process = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GPtrArray) events = NULL;
  JsonObject *last;

  /* Slow replies, so the defenses are under way when Ctrl+C comes. */
  fixture->examiner.token_ms = 300;
  process = spawn (args);
  g_object_set_data (G_OBJECT (fixture->server), "process", process);
  g_timeout_add (50, interrupt_when_asked, fixture);

  g_assert_cmpint (finish (process, &out, &err), ==, 1);
  events = events_of (out);
  last = g_ptr_array_index (events, events->len - 1);
  g_assert_cmpstr (json_object_get_string_member (last, "event"), ==, "rehearsal");
  g_assert_true (json_object_get_boolean_member (last, "interrupted"));
  g_assert_cmpint (json_object_get_int_member (last, "cancelled"), >, 0);
  g_assert_cmpuint (events->len, ==, 8 + 1);
}

static void
test_usage (Fixture       *fixture,
            gconstpointer  data)
{
  const char *args[] = { "--base-url", fixture->base_url, NULL };
  g_autoptr(GSubprocess) process = spawn (args);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  g_assert_cmpint (finish (process, &out, &err), ==, 2);
  g_assert_nonnull (strstr (err, "--students"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add ("/viva/lab/cli/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("json", test_json);
  ADD ("text", test_text);
  ADD ("unreachable", test_unreachable);
  ADD ("interrupted", test_interrupted);
  ADD ("usage", test_usage);
  ADD ("answer-with", test_answer_with);

  return g_test_run ();
}

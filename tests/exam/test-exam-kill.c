/* test-exam-kill.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <signal.h>

#include "exam-test-common.h"
#include "viva-core.h"
#include "viva-pack.h"
#include "viva-test-util.h"

/* Kill tests: `viva-cli defend` against the scripted server is SIGKILLed
 * while a reply streams, while a tool runs, while a question waits, and
 * right after the verdict; `viva-cli resume` then finishes the defense.
 * The final transcript must equal an uninterrupted run's, and the answer
 * must be in it. */

#define CODE "def add(a, b):\n    return a + b\n"
#define ANSWER "It adds them."

typedef enum
{
  KILL_NEVER,
  KILL_STREAMING,
  KILL_TOOL,
  KILL_WAITING,
  KILL_VERDICT,
} KillAt;

typedef struct
{
  VivaTestServer *server;
  char           *base_url;
  char           *dir;
  char           *pack;
  char           *code;
  char           *answers;
} Fixture;

typedef struct
{
  GSubprocess      *process;
  GDataInputStream *out;
  GPtrArray        *events;
  KillAt            kill_at;
  gboolean          killed;
  gboolean          eof;
  gboolean          exited;
  int               status;
} Child;


static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(VivaPack) pack = viva_pack_new ("kill-pack", "Kill tests");
  g_autoptr(VivaProblem) problem = exam_problem_new ();
  g_autoptr(GBytes) bytes = NULL;

  fixture->server = viva_test_server_new ();
  fixture->base_url = viva_test_server_get_base_url (fixture->server);
  fixture->dir = g_dir_make_tmp ("viva-exam-kill-XXXXXX", NULL);

  viva_pack_add_problem (pack, problem);
  bytes = viva_pack_to_bytes (pack);
  fixture->pack = g_build_filename (fixture->dir, "pack.json", NULL);
  g_assert_true (g_file_set_contents (fixture->pack, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL));
  fixture->code = g_build_filename (fixture->dir, "code.py", NULL);
  g_assert_true (g_file_set_contents (fixture->code, CODE, -1, NULL));
  fixture->answers = g_build_filename (fixture->dir, "answers.json", NULL);
  g_assert_true (g_file_set_contents (fixture->answers, "[\"" ANSWER "\"]", -1, NULL));
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  g_assert_finalize_object (g_steal_pointer (&fixture->server));
  viva_test_remove_tree (fixture->dir);
  g_clear_pointer (&fixture->dir, g_free);
  g_clear_pointer (&fixture->base_url, g_free);
  g_clear_pointer (&fixture->pack, g_free);
  g_clear_pointer (&fixture->code, g_free);
  g_clear_pointer (&fixture->answers, g_free);
}

static gboolean
kill_cb (gpointer user_data)
{
  Child *child = user_data;

  if (!child->exited)
    g_subprocess_send_signal (child->process, SIGKILL);
  child->killed = TRUE;
  return G_SOURCE_REMOVE;
}

static gboolean
matches (KillAt      kill_at,
         JsonObject *event)
{
  const char *name = json_object_get_string_member (event, "event");

  switch (kill_at)
    {
    case KILL_STREAMING:
      return g_str_equal (name, "content") &&
             g_str_has_prefix (json_object_get_string_member (event, "text"), "A pr");
    case KILL_TOOL:
      return g_str_equal (name, "tool_call") &&
             g_str_equal (json_object_get_string_member (event, "name"), "runPython");
    case KILL_WAITING:
      return g_str_equal (name, "question");
    case KILL_VERDICT:
      return g_str_equal (name, "verdict");
    case KILL_NEVER:
    default:
      return FALSE;
    }
}

static void
line_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Child *child = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (object), result, NULL, &error);
  g_autoptr(JsonNode) node = NULL;

  if (line == NULL)
    {
      child->eof = TRUE;
      return;
    }

  node = json_from_string (line, &error);
  g_assert_no_error (error);
  g_ptr_array_add (child->events, json_node_ref (node));

  if (!child->killed && matches (child->kill_at, json_node_get_object (node)))
    {
      child->killed = TRUE;
      /* The step stays where it is (the stream is stalled, the tool
       * sleeps, the question waits), so the kill lands in it; the pause
       * lets the writer thread, which may lag a write behind on a busy
       * machine, catch up as it would before any real crash a person
       * could cause. The verdict is printed only once it is saved: kill
       * at once (the process may be gone already). */
      g_timeout_add (child->kill_at == KILL_VERDICT ? 0 : 300, kill_cb, child);
      child->killed = FALSE;
      child->kill_at = KILL_NEVER;
    }

  g_data_input_stream_read_line_async (child->out, G_PRIORITY_DEFAULT, NULL, line_cb, child);
}

static void
wait_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Child *child = user_data;

  g_subprocess_wait_finish (G_SUBPROCESS (object), result, NULL);
  child->exited = TRUE;
}

/* Runs viva-cli with @args; returns its JSON events. */
static GPtrArray *
run_cli (const char * const *args,
         KillAt              kill_at,
         gboolean           *was_killed,
         int                *exit_status)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  Child child = { 0 };

  g_ptr_array_add (argv, (gpointer)g_getenv ("VIVA_CLI"));
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer)args[i]);
  g_ptr_array_add (argv, NULL);

  child.events = g_ptr_array_new_with_free_func ((GDestroyNotify)json_node_unref);
  child.kill_at = kill_at;
  child.process = g_subprocess_newv ((const char * const *)argv->pdata,
                                     G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDIN_PIPE,
                                     &error);
  g_assert_no_error (error);
  child.out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (child.process));
  g_data_input_stream_read_line_async (child.out, G_PRIORITY_DEFAULT, NULL, line_cb, &child);
  g_subprocess_wait_async (child.process, NULL, wait_cb, &child);

  while (!child.exited || !child.eof)
    g_main_context_iteration (NULL, TRUE);

  *was_killed = g_subprocess_get_if_signaled (child.process) &&
                g_subprocess_get_term_sig (child.process) == SIGKILL;
  *exit_status = g_subprocess_get_if_exited (child.process) ? g_subprocess_get_exit_status (child.process) : -1;

  g_clear_object (&child.out);
  g_clear_object (&child.process);
  return child.events;
}

static void
queue (Fixture *fixture,
       guint    from,
       guint    to,
       gboolean stall_probe)
{
  const ExamCall script[] = {
    { "readStudentCode", "{}" },
    { "runPython", "{\"code\": \"import time\\ntime.sleep(0.8)\\nprint(add(1, 2))\"}" },
    { "injectTestCase", "{\"code\": \"assert add(2, 3) == 5\"}" },
    { "askStudent", "{\"question\": \"Why does it work?\"}" },
    { "finishDefense", "{\"verdict\": \"pass\", \"score\": 88, \"comment\": \"Good.\", \"evidence\": [\"S3\", \"S4\"]}" },
  };
  const char *content[] = { "Reading.", NULL, "A probe now.", "A question.", "Done." };

  for (guint i = from; i < to; i++)
    {
      g_autoptr(VivaTestResponse) response = exam_reply_new (content[i], &script[i], 1);

      if (stall_probe && i == 2)
        {
          GBytes *body = viva_test_response_get_body (response);
          const char *text = g_bytes_get_data (body, NULL);
          const char *first = strstr (text, "\"content\"");

          /* Stop after the first piece of content, keeping the connection. */
          viva_test_response_set_stall_after (response, strstr (first, "\n\n") + 2 - text);
        }
      viva_test_server_queue (fixture->server, "POST", "/v1/chat/completions", response);
    }
}

static char *
only_session (const char *dir)
{
  g_autoptr(GDir) handle = g_dir_open (dir, 0, NULL);
  const char *name;
  char *found = NULL;

  while ((name = g_dir_read_name (handle)) != NULL)
    {
      g_assert_null (found);
      found = g_strdup (name);
    }

  g_assert_nonnull (found);
  return found;
}

/* The final transcript from the checkpoint, without what differs between
 * two runs by design: timings and the server's call ids. */
static char *
transcript (const char *sessions,
            const char *id)
{
  g_autoptr(VivaExamSession) session = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  JsonArray *messages;

  session = viva_exam_session_load (sessions, id, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (viva_exam_session_get_state (session), ==, "finished");

  messages = json_object_get_array_member (json_node_get_object (viva_exam_session_get_checkpoint (session)),
                                           "messages");
  for (guint i = 0; i < json_array_get_length (messages); i++)
    {
      g_autoptr(JsonNode) copy = json_node_copy (json_array_get_element (messages, i));
      JsonObject *message = json_node_get_object (copy);
      g_autofree char *text = NULL;

      json_object_remove_member (message, "tool_call_id");
      if (json_object_has_member (message, "tool_calls"))
        {
          JsonArray *calls = json_object_get_array_member (message, "tool_calls");

          for (guint c = 0; c < json_array_get_length (calls); c++)
            json_object_remove_member (json_array_get_object_element (calls, c), "id");
        }
      if (g_strcmp0 (json_object_get_string_member_with_default (message, "role", ""), "tool") == 0)
        {
          g_autoptr(JsonNode) content = json_from_string (json_object_get_string_member (message, "content"), NULL);

          json_object_remove_member (json_node_get_object (content), "duration_ms");
          json_object_set_member (message, "content", g_steal_pointer (&content));
        }

      text = json_to_string (copy, FALSE);
      g_string_append_printf (out, "%s\n", text);
    }

  return g_string_free (g_steal_pointer (&out), FALSE);
}

static char *
uninterrupted (Fixture *fixture)
{
  g_autofree char *sessions = g_build_filename (fixture->dir, "straight", NULL);
  g_autofree char *id = NULL;
  g_autoptr(GPtrArray) events = NULL;
  const char *args[] = { "defend", "--pack", fixture->pack, "--problem", "add", "--code", fixture->code,
                         "--answers", fixture->answers, "--base-url", fixture->base_url,
                         "--model", "test-model", "--session-dir", sessions, "--json", NULL };
  gboolean killed;
  int status;

  queue (fixture, 0, 5, FALSE);
  events = run_cli (args, KILL_NEVER, &killed, &status);
  g_assert_false (killed);
  g_assert_cmpint (status, ==, 0);

  id = only_session (sessions);
  return transcript (sessions, id);
}

static void
test_kill (Fixture       *fixture,
           gconstpointer  data)
{
  KillAt kill_at = GPOINTER_TO_INT (data);
  g_autofree char *expected = uninterrupted (fixture);
  g_autofree char *sessions = g_build_filename (fixture->dir, "killed", NULL);
  g_autofree char *id = NULL;
  g_autofree char *got = NULL;
  g_autoptr(GPtrArray) first = NULL;
  g_autoptr(GPtrArray) second = NULL;
  g_autoptr(JsonNode) verdict = NULL;
  const char *defend[] = { "defend", "--pack", fixture->pack, "--problem", "add", "--code", fixture->code,
                           "--answers", fixture->answers, "--base-url", fixture->base_url,
                           "--model", "test-model", "--session-dir", sessions, "--json", NULL };
  const char *defend_stdin[] = { "defend", "--pack", fixture->pack, "--problem", "add", "--code", fixture->code,
                                 "--base-url", fixture->base_url, "--model", "test-model",
                                 "--session-dir", sessions, "--json", NULL };
  const char *resume[] = { "resume", NULL, "--answers", fixture->answers, "--session-dir", sessions, "--json", NULL };
  gboolean killed;
  gboolean saw_question = FALSE;
  int status;

  /* The first run gets the replies up to the step where it dies. */
  switch (kill_at)
    {
    case KILL_STREAMING: queue (fixture, 0, 3, TRUE); break;
    case KILL_TOOL: queue (fixture, 0, 2, FALSE); break;
    case KILL_WAITING: queue (fixture, 0, 4, FALSE); break;
    case KILL_VERDICT: queue (fixture, 0, 5, FALSE); break;
    case KILL_NEVER:
    default: g_assert_not_reached ();
    }

  first = run_cli (kill_at == KILL_WAITING ? defend_stdin : defend, kill_at, &killed, &status);
  g_assert_true (killed || kill_at == KILL_VERDICT);

  id = only_session (sessions);
  resume[1] = id;

  /* The resumed run gets the rest; the reply cut by the crash is asked
   * again, a tool or a question in flight is redone without the model. */
  switch (kill_at)
    {
    case KILL_STREAMING: queue (fixture, 2, 5, FALSE); break;
    case KILL_TOOL: queue (fixture, 2, 5, FALSE); break;
    case KILL_WAITING: queue (fixture, 4, 5, FALSE); break;
    case KILL_VERDICT:
      /* The verdict was saved before it was printed: the resume needs
       * nothing more from the model. */
    case KILL_NEVER:
    default: break;
    }

  second = run_cli (resume, KILL_NEVER, &killed, &status);
  g_assert_false (killed);
  g_assert_cmpint (status, ==, 0);

  for (guint i = 0; i < second->len; i++)
    {
      JsonObject *event = json_node_get_object (g_ptr_array_index (second, i));
      const char *name = json_object_get_string_member (event, "event");

      if (g_str_equal (name, "question"))
        saw_question = TRUE;
      if (g_str_equal (name, "verdict"))
        verdict = json_node_ref (g_ptr_array_index (second, i));
    }

  /* A question that was waiting is asked again. */
  g_assert_true (saw_question == (kill_at == KILL_WAITING || kill_at == KILL_TOOL || kill_at == KILL_STREAMING));
  g_assert_nonnull (verdict);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (verdict), "status"), ==, "finished");
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (verdict), "score"), ==, 88);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (verdict), "session"), ==, id);

  got = transcript (sessions, id);
  g_assert_cmpstr (got, ==, expected);
  g_assert_nonnull (strstr (got, ANSWER));

  /* Every request the server saw is still valid for a strict server. */
  exam_assert_valid_for_strict_openai (fixture->server);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  viva_core_init ();

#define ADD(path, at) \
  g_test_add ("/viva/exam/kill/" path, Fixture, GINT_TO_POINTER (at), fixture_setup, test_kill, fixture_teardown)

  ADD ("while-streaming", KILL_STREAMING);
  ADD ("during-a-tool", KILL_TOOL);
  ADD ("while-waiting", KILL_WAITING);
  ADD ("after-the-verdict", KILL_VERDICT);

  return g_test_run ();
}

/* test-remote-stream.c: a defense streamed from a real server — every event
 * once, in order, across a server killed and restarted; signed out
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "remote-util.h"

static const char * const one_exam[] = { "exam.json", NULL };

typedef struct
{
  GArray   *seqs;
  GString  *kinds;
  gint64    question_seq;
  gint64    answered_seq;
  gboolean  closed;
  GError   *error;
} Seen;

static void
on_event (VivaDefenseStream *stream,
          gint64             seq,
          const char        *kind,
          JsonObject        *data,
          Seen              *seen)
{
  if (seen->seqs->len > 0)
    g_assert_cmpint (seq, >, g_array_index (seen->seqs, gint64, seen->seqs->len - 1));
  g_array_append_val (seen->seqs, seq);
  g_string_append_printf (seen->kinds, "%s ", kind);
  if (g_str_equal (kind, "question"))
    {
      g_assert_nonnull (json_object_get_string_member_with_default (data, "question", NULL));
      seen->question_seq = seq;
    }
  /* A student is never sent a tool's arguments or results. */
  if (g_str_equal (kind, "tool_call") || g_str_equal (kind, "tool_result"))
    {
      g_assert_false (json_object_has_member (data, "arguments"));
      g_assert_false (json_object_has_member (data, "result"));
    }
}

static void
on_closed (VivaDefenseStream *stream,
           const GError      *error,
           Seen              *seen)
{
  g_assert_false (seen->closed);
  seen->closed = TRUE;
  seen->error = error ? g_error_copy (error) : NULL;
}

static gboolean
has_new_question (gpointer data)
{
  Seen *seen = data;

  return seen->closed || seen->question_seq > seen->answered_seq;
}

static gboolean
is_closed (gpointer data)
{
  return ((Seen *)data)->closed;
}

static char *
submit (VivaExamServerClient *client,
        const char           *problem,
        const char           *code)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonObject) answer = NULL;
  g_autoptr(GError) error = NULL;

  viva_exam_server_client_submit_async (client, problem, code, NULL, remote_store_result, &result);
  answer = viva_exam_server_client_submit_finish (client, remote_wait (&result), &error);
  g_assert_no_error (error);
  g_assert_false (json_object_get_boolean_member (answer, "attached"));
  return g_strdup (json_object_get_string_member (json_object_get_object_member (answer, "defense"), "id"));
}

static void
answer (VivaExamServerClient *client,
        const char           *defense_id,
        gint64                question_seq)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  viva_exam_server_client_answer_async (client, defense_id, "It doubles x: 2 * 0 is zero.", question_seq, NULL,
                                        remote_store_result, &result);
  g_assert_true (viva_exam_server_client_answer_finish (client, remote_wait (&result), &error));
  g_assert_no_error (error);
}

static gboolean
wake_cb (gpointer data)
{
  *(gboolean *)data = TRUE;
  return G_SOURCE_REMOVE;
}

/* A restarted server resumes the defense, then waits on the question it
 * had asked (told before, not again): what a client sees in the
 * defense's pending_question. */
static void
wait_pending (VivaExamServerClient *client,
              const char           *defense_id)
{
  for (;;)
    {
      g_autoptr(GAsyncResult) result = NULL;
      g_autoptr(JsonObject) defense = NULL;
      g_autoptr(GError) error = NULL;
      gboolean woken = FALSE;

      viva_exam_server_client_get_defense_async (client, defense_id, NULL, remote_store_result, &result);
      defense = viva_exam_server_client_get_defense_finish (client, remote_wait (&result), &error);
      g_assert_no_error (error);
      if (!json_object_get_null_member (defense, "pending_question"))
        return;
      g_timeout_add (50, wake_cb, &woken);
      while (!woken)
        g_main_context_iteration (NULL, TRUE);
    }
}

static void
seen_clear (Seen *seen)
{
  g_array_unref (seen->seqs);
  g_string_free (seen->kinds, TRUE);
  g_clear_error (&seen->error);
}

static void
test_reconnect (void)
{
  ServerFixture fixture;
  g_autoptr(VivaExamServerClient) client = NULL;
  g_autoptr(VivaDefenseStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) page = NULL;
  g_autofree char *token = NULL;
  g_autofree char *defense = NULL;
  g_autofree char *path = NULL;
  Seen seen = { g_array_new (FALSE, FALSE, sizeof (gint64)), g_string_new (NULL), 0, 0, FALSE, NULL };
  gboolean killed = FALSE;
  JsonArray *events;
  guint status = 0;

  server_fixture_setup (&fixture, one_exam);
  client = remote_client (&fixture, "server-quiz", NULL);
  token = remote_sign_in (client, &fixture, "s1", &error);
  g_assert_no_error (error);

  defense = submit (client, "double", "def double(x):\n    return 2 * x\n");
  stream = viva_defense_stream_new (client, defense, 0);
  g_signal_connect (stream, "event", G_CALLBACK (on_event), &seen);
  g_signal_connect (stream, "closed", G_CALLBACK (on_closed), &seen);
  viva_defense_stream_start (stream);

  while (!seen.closed)
    {
      remote_iterate_until (has_new_question, &seen);
      if (seen.closed)
        break;

      /* The server dies with the question out, and comes back. */
      if (!killed)
        {
          server_fixture_kill (&fixture);
          server_fixture_start (&fixture);
          killed = TRUE;
          wait_pending (client, defense);
        }
      answer (client, defense, seen.question_seq);
      seen.answered_seq = seen.question_seq;
    }

  g_assert_no_error (seen.error);
  g_assert_true (killed);
  g_assert_cmpuint (viva_defense_stream_get_reconnects (stream), >=, 1);
  g_assert_cmpint (viva_defense_stream_get_state (stream), ==, VIVA_DEFENSE_STREAM_CLOSED);
  g_assert_nonnull (strstr (seen.kinds->str, "question "));
  g_assert_nonnull (strstr (seen.kinds->str, "verdict "));
  g_assert_true (g_str_has_suffix (seen.kinds->str, "finished "));

  /* Exactly what the server kept: each event once, none missing. */
  path = g_strdup_printf ("/api/v1/exams/server-quiz/defenses/%s/events?after=0", defense);
  page = server_fixture_request (&fixture, "GET", path, token, NULL, &status, NULL);
  g_assert_cmpuint (status, ==, 200);
  events = json_object_get_array_member (json_node_get_object (page), "events");
  g_assert_cmpuint (json_array_get_length (events), ==, seen.seqs->len);
  for (guint i = 0; i < seen.seqs->len; i++)
    g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (events, i), "seq"), ==,
                     g_array_index (seen.seqs, gint64, i));

  seen_clear (&seen);
  server_fixture_teardown (&fixture);
}

static void
test_resume_after (void)
{
  ServerFixture fixture;
  g_autoptr(VivaExamServerClient) client = NULL;
  g_autoptr(VivaDefenseStream) first = NULL;
  g_autoptr(VivaDefenseStream) later = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *token = NULL;
  g_autofree char *defense = NULL;
  Seen seen = { g_array_new (FALSE, FALSE, sizeof (gint64)), g_string_new (NULL), 0, 0, FALSE, NULL };
  Seen rest = { g_array_new (FALSE, FALSE, sizeof (gint64)), g_string_new (NULL), 0, 0, FALSE, NULL };
  gint64 last;

  server_fixture_setup (&fixture, one_exam);
  client = remote_client (&fixture, "server-quiz", NULL);
  token = remote_sign_in (client, &fixture, "s2", &error);
  g_assert_no_error (error);
  defense = submit (client, "double", "def double(x):\n    return 2 * x\n");

  /* A window that closed at the question: the new one asks for what
   * followed and is told the rest, from the next number on. */
  first = viva_defense_stream_new (client, defense, 0);
  g_signal_connect (first, "event", G_CALLBACK (on_event), &seen);
  g_signal_connect (first, "closed", G_CALLBACK (on_closed), &seen);
  viva_defense_stream_start (first);
  remote_iterate_until (has_new_question, &seen);
  viva_defense_stream_stop (first);
  g_assert_true (seen.closed);
  g_assert_error (seen.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  last = viva_defense_stream_get_last_seq (first);
  g_assert_cmpint (last, ==, seen.question_seq);

  answer (client, defense, seen.question_seq);
  later = viva_defense_stream_new (client, defense, last);
  g_signal_connect (later, "event", G_CALLBACK (on_event), &rest);
  g_signal_connect (later, "closed", G_CALLBACK (on_closed), &rest);
  viva_defense_stream_start (later);
  while (!rest.closed)
    {
      remote_iterate_until (has_new_question, &rest);
      if (rest.closed)
        break;
      answer (client, defense, rest.question_seq);
      rest.answered_seq = rest.question_seq;
    }
  g_assert_no_error (rest.error);
  g_assert_cmpint (g_array_index (rest.seqs, gint64, 0), ==, last + 1);
  g_assert_true (g_str_has_prefix (rest.kinds->str, "answer ") || g_str_has_prefix (rest.kinds->str, "state "));

  seen_clear (&seen);
  seen_clear (&rest);
  server_fixture_teardown (&fixture);
}

static void
test_signed_out (void)
{
  ServerFixture fixture;
  g_autoptr(VivaExamServerClient) client = NULL;
  g_autoptr(VivaExamServerClient) second = NULL;
  g_autoptr(VivaDefenseStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *token = NULL;
  g_autofree char *token2 = NULL;
  g_autofree char *defense = NULL;
  Seen seen = { g_array_new (FALSE, FALSE, sizeof (gint64)), g_string_new (NULL), 0, 0, FALSE, NULL };

  server_fixture_setup (&fixture, one_exam);
  client = remote_client (&fixture, "server-quiz", NULL);
  token = remote_sign_in (client, &fixture, "s3", &error);
  g_assert_no_error (error);
  defense = submit (client, "square", "def square(x):\n    return x * x\n");

  stream = viva_defense_stream_new (client, defense, 0);
  g_signal_connect (stream, "event", G_CALLBACK (on_event), &seen);
  g_signal_connect (stream, "closed", G_CALLBACK (on_closed), &seen);
  viva_defense_stream_start (stream);
  remote_iterate_until (has_new_question, &seen);
  g_assert_false (seen.closed);

  /* The same student on another PC: this one is told, and stops. */
  second = remote_client (&fixture, "server-quiz", NULL);
  token2 = remote_sign_in (second, &fixture, "s3", &error);
  g_assert_no_error (error);
  remote_iterate_until (is_closed, &seen);
  g_assert_error (seen.error, VIVA_REMOTE_ERROR, VIVA_REMOTE_ERROR_SIGNED_OUT);
  g_assert_nonnull (strstr (seen.error->message, "another PC"));

  seen_clear (&seen);
  server_fixture_teardown (&fixture);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/viva/remote/stream/reconnect", test_reconnect);
  g_test_add_func ("/viva/remote/stream/resume-after", test_resume_after);
  g_test_add_func ("/viva/remote/stream/signed-out", test_signed_out);

  return g_test_run ();
}

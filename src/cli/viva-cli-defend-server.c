/* viva-cli-defend-server.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <glib-unix.h>
#include <gio/gunixinputstream.h>
#include <signal.h>
#include <stdio.h>

#include "viva-cli-commands.h"
#include "viva-cli-remote.h"
#include "viva-cli-util.h"

/* viva-cli defend --server: a defense the exam server runs. The code is
 * submitted (a problem whose defense runs already is attached to), the
 * server's events are streamed from the first (so an attached defense is
 * shown whole) and printed in the shapes of the local `defend --json`,
 * and each question is answered from --answers (in order) or a line of
 * standard input. An answer sent for a question answered before (seen in
 * the history of an attached defense) is refused by the server, and that
 * refusal is not an error here. The verdict is the last line. */

typedef struct
{
  GMainLoop            *loop;
  VivaExamServerClient *client;
  VivaDefenseStream    *stream;
  GCancellable         *cancellable;
  GPtrArray            *answers;
  GDataInputStream     *input;
  char                 *defense_id;
  JsonObject           *verdict;
  guint                 n_answers;
  gint64                question_seq;
  gboolean              json;
  int                   status;
} Remote;

static void
remote_clear (Remote *remote)
{
  g_cancellable_cancel (remote->cancellable);
  g_clear_object (&remote->stream);
  g_clear_object (&remote->client);
  g_clear_object (&remote->cancellable);
  g_clear_object (&remote->input);
  g_clear_pointer (&remote->answers, g_ptr_array_unref);
  g_clear_pointer (&remote->defense_id, g_free);
  g_clear_pointer (&remote->verdict, json_object_unref);
  g_clear_pointer (&remote->loop, g_main_loop_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Remote, remote_clear)

static void
stop (Remote *remote,
      int     status)
{
  remote->status = status;
  g_main_loop_quit (remote->loop);
}

static void
answer_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  Remote *remote = user_data;
  g_autoptr(GError) error = NULL;

  if (viva_exam_server_client_answer_finish (VIVA_EXAM_SERVER_CLIENT (object), result, &error) ||
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  /* Answered before (an attached defense's history): nothing to do. */
  if (g_error_matches (error, VIVA_REMOTE_ERROR, VIVA_REMOTE_ERROR_REJECTED))
    return;

  viva_cli_remote_fail (error, remote->json);
  stop (remote, VIVA_CLI_EXIT_FAILED);
}

static void
give_answer (Remote     *remote,
             gint64      question_seq,
             const char *text)
{
  viva_exam_server_client_answer_async (remote->client, remote->defense_id, text, question_seq,
                                        remote->cancellable, answer_cb, remote);
}

static void
line_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Remote *remote = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = NULL;

  line = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (object), result, NULL, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (line == NULL)
    {
      viva_cli_fail ("%s", _("Standard input ended before the question was answered; the question waits on the exam server."));
      stop (remote, VIVA_CLI_EXIT_FAILED);
      return;
    }
  give_answer (remote, remote->question_seq, line);
}

static void
on_question (Remote     *remote,
             gint64      seq,
             const char *question)
{
  guint index = remote->n_answers;

  if (!remote->json)
    {
      printf (_("Question: %s\n"), question);
      fflush (stdout);
    }
  remote->question_seq = seq;

  if (remote->answers != NULL)
    {
      if (index >= remote->answers->len)
        {
          viva_cli_fail (_("The answers file has no answer for question %u; the question waits on the exam server."),
                         index + 1);
          stop (remote, VIVA_CLI_EXIT_FAILED);
          return;
        }
      give_answer (remote, seq, g_ptr_array_index (remote->answers, index));
      return;
    }

  if (remote->input == NULL)
    {
      g_autoptr(GInputStream) in = g_unix_input_stream_new (0, FALSE);

      remote->input = g_data_input_stream_new (in);
    }
  g_data_input_stream_read_line_async (remote->input, G_PRIORITY_DEFAULT, remote->cancellable, line_cb, remote);
}

static void
print_text (Remote     *remote,
            const char *kind,
            JsonObject *data)
{
  if (g_str_equal (kind, "content"))
    printf ("examiner: %s\n", json_object_get_string_member_with_default (data, "text", ""));
  else if (g_str_equal (kind, "tool_call"))
    printf ("[%s] %s\n", json_object_get_string_member_with_default (data, "step", ""),
            json_object_get_string_member_with_default (data, "name", ""));
  else if (g_str_equal (kind, "refused"))
    printf (_("[refused] %s\n"), json_object_get_string_member_with_default (data, "name", ""));
  else if (g_str_equal (kind, "error"))
    printf ("%s\n", json_object_get_string_member_with_default (data, "message", ""));
  fflush (stdout);
}

static void
on_event (VivaDefenseStream *stream,
          gint64             seq,
          const char        *kind,
          JsonObject        *data,
          Remote            *remote)
{
  if (g_str_equal (kind, "verdict"))
    {
      /* The result: printed last, once the defense finished. */
      g_clear_pointer (&remote->verdict, json_object_unref);
      remote->verdict = json_object_ref (data);
      return;
    }
  if (g_str_equal (kind, "finished"))
    return;

  if (g_str_equal (kind, "answer"))
    remote->n_answers++;

  if (remote->json)
    viva_cli_print_event (kind, data);
  else
    print_text (remote, kind, data);

  if (g_str_equal (kind, "question"))
    on_question (remote, seq, json_object_get_string_member_with_default (data, "question", ""));
}

static void
print_verdict (Remote *remote)
{
  g_autoptr(JsonObject) object = json_object_ref (remote->verdict);
  gboolean held = json_object_get_boolean_member_with_default (object, "held", FALSE);

  json_object_set_string_member (object, "defense", remote->defense_id);
  if (held && !json_object_has_member (object, "verdict"))
    json_object_set_null_member (object, "verdict");

  if (remote->json)
    viva_cli_print_event ("verdict", object);
  else if (held)
    printf ("%s\n", _("Handed in: the exam holds verdicts until it closes."));
  else
    {
      printf (_("Verdict: %s"), json_object_get_string_member_with_default (object, "verdict", "?"));
      if (json_object_has_member (object, "score") && !json_object_get_null_member (object, "score"))
        {
          g_autofree char *score = g_strdup_printf ("%" G_GINT64_FORMAT, json_object_get_int_member (object, "score"));

          printf (_(", score %s"), score);
        }
      printf ("\n");
    }
  fflush (stdout);
}

static void
on_closed (VivaDefenseStream *stream,
           const GError      *error,
           Remote            *remote)
{
  if (error != NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        viva_cli_remote_fail (error, remote->json);
      stop (remote, VIVA_CLI_EXIT_FAILED);
      return;
    }

  if (remote->verdict == NULL)
    {
      /* The defense failed on the server; its error event said why. */
      stop (remote, VIVA_CLI_EXIT_FAILED);
      return;
    }

  print_verdict (remote);
  stop (remote, VIVA_CLI_EXIT_OK);
}

static gboolean
sigint_cb (gpointer user_data)
{
  Remote *remote = user_data;

  viva_cli_fail ("%s", _("Stopped following the defense; it goes on on the exam server (run the same command again to attach)."));
  stop (remote, VIVA_CLI_EXIT_FAILED);
  return G_SOURCE_CONTINUE;
}

int
viva_cli_defend_server (int    argc,
                        char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonObject) submitted = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *link = NULL;
  g_autofree char *token = NULL;
  g_autofree char *problem = NULL;
  g_autofree char *code_path = NULL;
  g_autofree char *answers_path = NULL;
  g_autofree char *code = NULL;
  g_auto(Remote) remote = { 0 };
  JsonObject *defense;
  gboolean json = FALSE;
  guint sigint_id;
  int status;
  GOptionEntry entries[] = {
    { "server", 0, 0, G_OPTION_ARG_STRING, &link, N_("The exam link (viva://HOST:PORT/EXAM-ID#sha256=…)"), N_("LINK") },
    { "token", 0, 0, G_OPTION_ARG_STRING, &token, N_("The token the sign-in printed"), N_("TOKEN") },
    { "problem", 0, 0, G_OPTION_ARG_STRING, &problem, N_("The problem’s id"), N_("ID") },
    { "code", 0, 0, G_OPTION_ARG_FILENAME, &code_path, N_("The student’s code"), N_("FILE") },
    { "answers", 0, 0, G_OPTION_ARG_FILENAME, &answers_path, N_("A JSON array of answers, given in order (default: read lines from standard input)"), N_("FILE") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print one JSON event a line"), NULL },
    { NULL }
  };

  context = g_option_context_new (_("— a defense run by an exam server"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if ((status = viva_cli_parse_options (context, &argc, &argv)) != VIVA_CLI_EXIT_OK)
    return status;
  if (argc != 1 || link == NULL || token == NULL || problem == NULL || code_path == NULL)
    {
      viva_cli_usage_error (context, "%s", _("Give --server, --token, --problem and --code (with --server, no --pack)."));
      return VIVA_CLI_EXIT_USAGE;
    }
  if (!(remote.client = viva_cli_remote_client (link, token, &error)))
    {
      viva_cli_usage_error (context, "%s", error->message);
      return VIVA_CLI_EXIT_USAGE;
    }
  if (!(code = viva_cli_read_code (code_path, &error)))
    {
      viva_cli_fail (_("Could not read the code: %s"), error->message);
      return VIVA_CLI_EXIT_FAILED;
    }
  if (answers_path != NULL && !(remote.answers = viva_cli_load_answers (answers_path, &error)))
    {
      viva_cli_fail (_("Could not read the answers: %s"), error->message);
      return VIVA_CLI_EXIT_FAILED;
    }
  remote.json = json;

  viva_exam_server_client_submit_async (remote.client, problem, code, NULL, viva_cli_remote_store, &result);
  if (!(submitted = viva_exam_server_client_submit_finish (remote.client, viva_cli_remote_wait (&result), &error)))
    {
      viva_cli_remote_fail (error, json);
      return VIVA_CLI_EXIT_FAILED;
    }

  defense = json_object_get_object_member (submitted, "defense");
  remote.defense_id = g_strdup (json_object_get_string_member (defense, "id"));
  if (json)
    {
      g_autoptr(JsonObject) object = json_object_new ();

      json_object_set_string_member (object, "defense", remote.defense_id);
      json_object_set_string_member (object, "problem", problem);
      json_object_set_boolean_member (object, "attached",
                                      json_object_get_boolean_member_with_default (submitted, "attached", FALSE));
      viva_cli_print_event ("defense", object);
    }

  remote.loop = g_main_loop_new (NULL, FALSE);
  remote.cancellable = g_cancellable_new ();
  remote.status = VIVA_CLI_EXIT_FAILED;
  remote.stream = viva_defense_stream_new (remote.client, remote.defense_id, 0);
  g_signal_connect (remote.stream, "event", G_CALLBACK (on_event), &remote);
  g_signal_connect (remote.stream, "closed", G_CALLBACK (on_closed), &remote);
  viva_defense_stream_start (remote.stream);

  sigint_id = g_unix_signal_add (SIGINT, sigint_cb, &remote);
  g_main_loop_run (remote.loop);
  g_source_remove (sigint_id);
  g_signal_handlers_disconnect_by_data (remote.stream, &remote);
  viva_defense_stream_stop (remote.stream);

  return remote.status;
}

/* viva-cli-defend.c
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
#include "viva-cli-problem.h"
#include "viva-answer-program.h"
#include "viva-cli-util.h"
#include "viva-defense.h"
#include "viva-exam-event.h"
#include "viva-exam-pack-ref.h"
#include "viva-pack.h"

/* viva-cli defend and viva-cli resume: a whole defense, headless. Answers
 * come from --answers (a JSON array, given in order; a resumed defense
 * skips those already given) or from standard input, one line each. */

typedef struct
{
  GMainLoop        *loop;
  GCancellable     *cancellable;
  VivaExaminer     *examiner;
  VivaExamSession  *session;
  GPtrArray        *answers;
  GStrv             answer_with;   /* --answer-with: the program's argv */
  GDataInputStream *input;
  VivaExamVerdict  *verdict;
  gboolean          json;
  gboolean          in_content;
  int               status;
} Defense;

static void
defense_clear (Defense *defense)
{
  g_clear_object (&defense->cancellable);
  g_clear_object (&defense->examiner);
  g_clear_object (&defense->session);
  g_clear_object (&defense->input);
  g_clear_object (&defense->verdict);
  g_clear_pointer (&defense->answers, g_ptr_array_unref);
  g_clear_pointer (&defense->answer_with, g_strfreev);
  g_clear_pointer (&defense->loop, g_main_loop_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Defense, defense_clear)

static void
end_content (Defense *defense)
{
  if (!defense->json && defense->in_content)
    {
      fputc ('\n', stdout);
      defense->in_content = FALSE;
    }
}

static void
on_state (VivaExaminer *examiner,
          GParamSpec   *pspec,
          Defense      *defense)
{
  g_autoptr(JsonObject) object = NULL;

  if (!defense->json)
    return;

  object = viva_exam_event_state (viva_examiner_get_state (examiner));
  viva_cli_print_event ("state", object);
}

static void
on_delta (VivaExaminer  *examiner,
          VivaChatDelta *delta,
          Defense       *defense)
{
  g_autoptr(JsonObject) object = NULL;

  if (delta->kind != VIVA_CHAT_DELTA_CONTENT && delta->kind != VIVA_CHAT_DELTA_REASONING)
    return;

  if (!defense->json)
    {
      if (delta->kind == VIVA_CHAT_DELTA_CONTENT)
        {
          if (!defense->in_content)
            fputs ("examiner: ", stdout);
          fputs (delta->text, stdout);
          fflush (stdout);
          defense->in_content = TRUE;
        }
      return;
    }

  object = json_object_new ();
  json_object_set_string_member (object, "text", delta->text);
  viva_cli_print_event (delta->kind == VIVA_CHAT_DELTA_CONTENT ? "content" : "reasoning", object);
}

static void
on_tool_started (VivaExaminer *examiner,
                 const char   *step,
                 const char   *name,
                 const char   *arguments,
                 Defense      *defense)
{
  g_autoptr(JsonObject) object = NULL;

  end_content (defense);
  if (!defense->json)
    {
      printf ("[%s] %s %s\n", step, name, arguments);
      fflush (stdout);
      return;
    }

  object = viva_exam_event_tool_call (step, name, arguments);
  viva_cli_print_event ("tool_call", object);
}

static void
on_tool_finished (VivaExaminer *examiner,
                  const char   *step,
                  const char   *name,
                  JsonNode     *result,
                  gboolean      ok,
                  Defense      *defense)
{
  g_autoptr(JsonObject) object = NULL;

  if (!defense->json)
    {
      g_autofree char *text = json_to_string (result, FALSE);

      printf ("[%s] %s %s: %.300s\n", step, name, ok ? "→" : _("failed"), text);
      fflush (stdout);
      return;
    }

  object = viva_exam_event_tool_result (step, name, result, ok);
  viva_cli_print_event ("tool_result", object);
}

static void
on_refused (VivaExaminer *examiner,
            const char   *name,
            const char   *reason,
            Defense      *defense)
{
  g_autoptr(JsonObject) object = NULL;

  end_content (defense);
  if (!defense->json)
    {
      printf (_("[refused] %s: %s\n"), name, reason);
      fflush (stdout);
      return;
    }

  object = viva_exam_event_refused (name, reason);
  viva_cli_print_event ("refused", object);
}

static void
on_message (VivaExaminer *examiner,
            const char   *text,
            Defense      *defense)
{
  g_autoptr(JsonObject) object = NULL;

  if (!defense->json)
    {
      printf ("examiner: %s\n", text);
      fflush (stdout);
      return;
    }

  object = viva_exam_event_message (text);
  viva_cli_print_event ("content", object);
}

static void
give_answer (Defense    *defense,
             const char *answer)
{
  g_autoptr(GError) error = NULL;

  if (!viva_examiner_answer (defense->examiner, answer, &error))
    {
      viva_cli_fail ("%s", error->message);
      defense->status = VIVA_CLI_EXIT_FAILED;
      g_cancellable_cancel (defense->cancellable);
    }
}

static void
line_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Defense *defense = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (object),
                                                                     result, NULL, &error);

  if (line == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          viva_cli_fail ("%s", error ? error->message
                                     : _("Standard input ended before the question was answered."));
          defense->status = VIVA_CLI_EXIT_FAILED;
          g_cancellable_cancel (defense->cancellable);
        }
      return;
    }

  give_answer (defense, line);
}

static void
program_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  Defense *defense = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *answer = viva_answer_program_run_finish (result, &error);

  if (answer == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          viva_cli_fail ("%s", error->message);
          defense->status = VIVA_CLI_EXIT_FAILED;
          g_cancellable_cancel (defense->cancellable);
        }
      return;
    }

  give_answer (defense, answer);
}

static void
on_question (VivaExaminer *examiner,
             const char   *step,
             const char   *question,
             Defense      *defense)
{
  g_autoptr(JsonObject) object = json_object_new ();
  g_autoptr(JsonObject) item = viva_examiner_dup_pending_item (examiner);
  guint index = viva_examiner_get_n_answers (examiner);

  end_content (defense);
  if (defense->json)
    {
      json_object_set_string_member (object, "step", step);
      json_object_set_string_member (object, "question", question);
      /* What the engine planned it to ask: a prediction's call, verbatim. */
      if (item != NULL)
        {
          json_object_set_string_member (object, "item", json_object_get_string_member (item, "item"));
          json_object_set_string_member (object, "kind", json_object_get_string_member (item, "kind"));
          if (json_object_has_member (item, "call"))
            json_object_set_string_member (object, "call", json_object_get_string_member (item, "call"));
        }
      viva_cli_print_event ("question", object);
    }
  else
    {
      printf (_("Question: %s\n"), question);
      fflush (stdout);
    }

  if (defense->answer_with != NULL)
    {
      g_autoptr(JsonObject) asked = viva_answer_program_question_for_examiner (examiner, question);

      viva_answer_program_run_async ((const char * const *)defense->answer_with, asked,
                                     VIVA_ANSWER_PROGRAM_TIMEOUT_MS, defense->cancellable,
                                     program_cb, defense);
      return;
    }

  if (defense->answers != NULL)
    {
      if (index >= defense->answers->len)
        {
          viva_cli_fail (_("The answers file has no answer for question %u; add one and resume the defense."),
                         index + 1);
          defense->status = VIVA_CLI_EXIT_FAILED;
          g_cancellable_cancel (defense->cancellable);
          return;
        }
      give_answer (defense, g_ptr_array_index (defense->answers, index));
      return;
    }

  if (defense->input == NULL)
    {
      g_autoptr(GInputStream) in = g_unix_input_stream_new (0, FALSE);

      defense->input = g_data_input_stream_new (in);
    }
  g_data_input_stream_read_line_async (defense->input, G_PRIORITY_DEFAULT, defense->cancellable,
                                       line_cb, defense);
}

static void
on_answer (VivaExaminer *examiner,
           const char   *answer,
           Defense      *defense)
{
  g_autoptr(JsonObject) object = json_object_new ();

  if (!defense->json)
    return;

  json_object_set_string_member (object, "text", answer);
  viva_cli_print_event ("answer", object);
}

static void
on_verdict (VivaExaminer    *examiner,
            VivaExamVerdict *verdict,
            Defense         *defense)
{
  /* Reported once the session is on disk (see flush_cb): whoever reads the
   * verdict can rely on its checkpoint. */
  g_set_object (&defense->verdict, verdict);
}

/* The items as lines a person reads: points, what, who judged, why. */
static void
print_items (VivaExamVerdict *verdict)
{
  GPtrArray *items = viva_exam_verdict_get_items (verdict);

  if (items->len == 0)
    return;

  /* Translators: the points of the score, like "72.5 of 100 points" */
  printf (_("%g of %g points"), viva_exam_verdict_get_points (verdict), viva_exam_verdict_get_max_points (verdict));
  if (viva_exam_verdict_get_provisional (verdict))
    printf (" — %s", _("provisional: a teacher will review the items marked “needs review”"));
  fputc ('\n', stdout);
  for (guint i = 0; i < items->len; i++)
    {
      const VivaExamItem *item = g_ptr_array_index (items, i);

      printf ("  %6.2f / %-6.2f %-12s %-8s %s%s%s\n", item->points, item->max_points,
              viva_exam_item_kind_to_string (item->kind), viva_exam_judge_to_string (item->judged_by),
              item->title ? item->title : item->id, item->needs_review ? " — " : "",
              item->needs_review ? _("needs review") : "");
      if (item->reason)
        printf ("                  %s\n", item->reason);
    }
}

static void
print_verdict (Defense         *defense,
               VivaExamVerdict *verdict)
{
  g_autoptr(JsonObject) object = viva_exam_event_verdict (verdict);
  g_autoptr(JsonNode) facts = viva_exam_verdict_to_json (verdict);

  end_content (defense);

  /* The CLI contract names every key: an absent one is null here. */
  if (!json_object_has_member (object, "comment"))
    json_object_set_null_member (object, "comment");
  if (!json_object_has_member (object, "hidden_tests"))
    json_object_set_null_member (object, "hidden_tests");
  json_object_set_string_member (object, "session", viva_exam_session_get_id (defense->session));
  json_object_set_int_member (object, "probes_passed", viva_exam_verdict_get_n_passed (verdict));
  json_object_set_int_member (object, "probes_failed", viva_exam_verdict_get_n_failed (verdict));
  json_object_set_int_member (object, "probes_invalid", viva_exam_verdict_get_n_invalid (verdict));
  json_object_set_member (object, "probes",
                          json_object_dup_member (json_node_get_object (facts), "probes"));
  json_object_set_int_member (object, "withheld", viva_exam_verdict_get_n_withheld (verdict));
  /* The score part by part: each item's points and who judged it. */
  json_object_set_array_member (object, "items", viva_exam_items_to_json (viva_exam_verdict_get_items (verdict)));
  json_object_set_double_member (object, "points", viva_exam_verdict_get_points (verdict));
  json_object_set_double_member (object, "max_points", viva_exam_verdict_get_max_points (verdict));
  json_object_set_boolean_member (object, "provisional", viva_exam_verdict_get_provisional (verdict));

  defense->status = viva_exam_verdict_get_status (verdict) == VIVA_EXAM_STATUS_FINISHED
                  ? VIVA_CLI_EXIT_OK : VIVA_CLI_EXIT_FAILED;

  if (defense->json)
    {
      viva_cli_print_event ("verdict", object);
      return;
    }

  printf ("\n%s: %s", _("Verdict"), viva_exam_verdict_get_passed (verdict) ? _("pass") : _("fail"));
  if (viva_exam_verdict_get_score (verdict) >= 0)
    printf (" (%d/100)", viva_exam_verdict_get_score (verdict));
  printf (" — %s\n", viva_exam_status_to_string (viva_exam_verdict_get_status (verdict)));
  if (viva_exam_verdict_get_comment (verdict))
    printf ("%s\n", viva_exam_verdict_get_comment (verdict));
  if (viva_exam_verdict_get_reason (verdict))
    printf ("%s\n", viva_exam_verdict_get_reason (verdict));
  if (viva_exam_verdict_get_explanation (verdict))
    printf ("%s\n", viva_exam_verdict_get_explanation (verdict));
  print_items (verdict);
  printf (_("Probes: %u passed, %u failed, %u invalid. Session: %s\n"),
          viva_exam_verdict_get_n_passed (verdict), viva_exam_verdict_get_n_failed (verdict),
          viva_exam_verdict_get_n_invalid (verdict), viva_exam_session_get_id (defense->session));
  fflush (stdout);
}

static void
flush_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  Defense *defense = user_data;
  g_autoptr(GError) error = NULL;

  if (!viva_exam_session_flush_finish (VIVA_EXAM_SESSION (object), result, &error))
    {
      viva_cli_fail (_("The session could not be saved: %s"), error->message);
      defense->status = VIVA_CLI_EXIT_FAILED;
    }

  if (defense->verdict != NULL)
    {
      int status = defense->status;

      print_verdict (defense, defense->verdict);
      /* A save failure stays a failure whatever the verdict. */
      if (status == VIVA_CLI_EXIT_FAILED && error != NULL)
        defense->status = status;
    }

  g_main_loop_quit (defense->loop);
}

static void
done_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Defense *defense = user_data;
  g_autoptr(VivaExamVerdict) verdict = NULL;
  g_autoptr(GError) error = NULL;

  verdict = viva_defense_run_finish (VIVA_DEFENSE (object), result, &error);

  if (verdict == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        viva_cli_fail ("%s", error->message);
      defense->status = VIVA_CLI_EXIT_FAILED;
    }

  /* Exit only once the checkpoint and the trace are on disk. */
  viva_exam_session_flush_async (defense->session, NULL, flush_cb, defense);
}

static gboolean
interrupted_cb (gpointer user_data)
{
  Defense *defense = user_data;

  g_cancellable_cancel (defense->cancellable);
  return G_SOURCE_CONTINUE;
}


static void
prepared_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  Defense *defense = user_data;
  VivaDefense *self = VIVA_DEFENSE (object);
  g_autoptr(GError) error = NULL;

  if (!viva_defense_prepare_finish (self, result, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        viva_cli_fail ("%s", error->message);
      defense->status = VIVA_CLI_EXIT_FAILED;
      g_main_loop_quit (defense->loop);
      return;
    }

  /* The app's panel shows the same words. */
  if (viva_defense_get_notice (self) != NULL)
    g_printerr ("viva-cli: %s\n", viva_defense_get_notice (self));

  g_set_object (&defense->examiner, viva_defense_get_examiner (self));
  g_set_object (&defense->session, viva_defense_get_session (self));

  g_signal_connect (defense->examiner, "notify::state", G_CALLBACK (on_state), defense);
  g_signal_connect (defense->examiner, "delta", G_CALLBACK (on_delta), defense);
  g_signal_connect (defense->examiner, "tool-started", G_CALLBACK (on_tool_started), defense);
  g_signal_connect (defense->examiner, "tool-finished", G_CALLBACK (on_tool_finished), defense);
  g_signal_connect (defense->examiner, "question", G_CALLBACK (on_question), defense);
  g_signal_connect (defense->examiner, "answer", G_CALLBACK (on_answer), defense);
  g_signal_connect (defense->examiner, "message", G_CALLBACK (on_message), defense);
  g_signal_connect (defense->examiner, "refused", G_CALLBACK (on_refused), defense);
  g_signal_connect (defense->examiner, "verdict", G_CALLBACK (on_verdict), defense);

  viva_defense_run_async (self, defense->cancellable, done_cb, defense);
}

/* The defense is assembled by the core (VivaDefense), as the app's is;
 * this only prints it and answers it. */
static int
run_defense (Defense     *defense,
             VivaDefense *self)
{
  guint sigint_id;

  defense->loop = g_main_loop_new (NULL, FALSE);
  defense->cancellable = g_cancellable_new ();
  defense->status = VIVA_CLI_EXIT_FAILED;

  sigint_id = g_unix_signal_add (SIGINT, interrupted_cb, defense);

  viva_defense_prepare_async (self, defense->cancellable, prepared_cb, defense);
  g_main_loop_run (defense->loop);
  g_source_remove (sigint_id);

  return defense->status;
}

/* The examiner's endpoint from the command line: --offline, a named
 * --base-url (and --model), or the settings (with --model, their mode and
 * address with that model). */
static VivaExamEndpoint *
endpoint_new (gboolean    offline,
              const char *base_url,
              const char *model_name)
{
  if (offline)
    return viva_exam_endpoint_new_offline (NULL);

  return viva_exam_endpoint_new_for_endpoint (NULL, base_url, model_name);
}

int
viva_cli_defend (int    argc,
                 char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_auto(VivaCliProblem) args = { 0 };
  g_autofree char *answers_path = NULL;
  g_autofree char *answer_with = NULL;
  g_autofree char *base_url = NULL;
  g_autofree char *model_name = NULL;
  g_autofree char *scorer_base_url = NULL;
  g_autofree char *scorer_model = NULL;
  g_autofree char *session_dir = NULL;
  g_autofree char *student_name = NULL;
  g_autofree char *student_id = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(Defense) defense = { 0 };
  g_autoptr(VivaExamEndpoint) endpoint = NULL;
  g_autoptr(VivaTextCodeSource) source = NULL;
  g_autoptr(VivaDefense) self = NULL;
  gboolean offline = FALSE;
  gboolean json = FALSE;
  int status;
  GOptionEntry entries[] = {
    { "answers", 0, 0, G_OPTION_ARG_FILENAME, &answers_path, N_("A JSON array of answers, given in order (default: read lines from standard input)"), N_("FILE") },
    { "answer-with", 0, 0, G_OPTION_ARG_STRING, &answer_with, N_("A program that answers each question: the question as one JSON object on its standard input (text, kind, and for a prediction the call), the answer on its standard output"), N_("PROGRAM") },
    { "offline", 0, 0, G_OPTION_ARG_NONE, &offline, N_("Use the offline examiner"), NULL },
    { "base-url", 0, 0, G_OPTION_ARG_STRING, &base_url, N_("The endpoint (default: the configured one)"), N_("URL") },
    { "model", 0, 0, G_OPTION_ARG_STRING, &model_name, N_("The model (default: the configured one, then the endpoint’s first)"), N_("M") },
    { "scorer-base-url", 0, 0, G_OPTION_ARG_STRING, &scorer_base_url, N_("The endpoint of a second model that scores the conceptual answers (default: the configured scorer, then the examiner’s)"), N_("URL") },
    { "scorer-model", 0, 0, G_OPTION_ARG_STRING, &scorer_model, N_("The model that scores the conceptual answers (default: the configured scorer, then the examiner’s model)"), N_("M") },
    { "session-dir", 0, 0, G_OPTION_ARG_FILENAME, &session_dir, N_("Where sessions are kept (default: $XDG_DATA_HOME/viva/sessions)"), N_("DIR") },
    { "student-name", 0, 0, G_OPTION_ARG_STRING, &student_name, N_("The student’s name, stamped on the session and its report"), N_("NAME") },
    { "student-id", 0, 0, G_OPTION_ARG_STRING, &student_id, N_("The student’s id, stamped on the session and its report"), N_("ID") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print one JSON event a line"), NULL },
    { NULL }
  };

  /* A defense on an exam server is a command of its own. */
  for (int i = 1; i < argc; i++)
    if (g_str_equal (argv[i], "--server") || g_str_has_prefix (argv[i], "--server="))
      return viva_cli_defend_server (argc, argv);

  context = g_option_context_new (_("— run a whole defense headless"));
  viva_cli_problem_add_entries (&args, context);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if ((status = viva_cli_parse_options (context, &argc, &argv)) != VIVA_CLI_EXIT_OK)
    return status;

  if (!viva_cli_problem_check_usage (&args, context, argc))
    return VIVA_CLI_EXIT_USAGE;
  if (offline && (base_url != NULL || model_name != NULL))
    {
      viva_cli_usage_error (context, "%s", _("--offline cannot be combined with --base-url or --model."));
      return VIVA_CLI_EXIT_USAGE;
    }
  if (!viva_cli_check_base_url (context, &base_url))
    return VIVA_CLI_EXIT_USAGE;
  if ((student_name != NULL && g_strstrip (student_name)[0] == '\0') ||
      (student_id != NULL && g_strstrip (student_id)[0] == '\0'))
    {
      viva_cli_usage_error (context, "%s", _("--student-name and --student-id cannot be empty."));
      return VIVA_CLI_EXIT_USAGE;
    }

  if (!viva_cli_problem_load (&args))
    return VIVA_CLI_EXIT_FAILED;

  if (answers_path != NULL && answer_with != NULL)
    {
      viva_cli_usage_error (context, "%s", _("Give --answers or --answer-with, not both."));
      return VIVA_CLI_EXIT_USAGE;
    }
  if (answers_path != NULL && !(defense.answers = viva_cli_load_answers (answers_path, &error)))
    {
      viva_cli_fail (_("Could not read the answers: %s"), error->message);
      return VIVA_CLI_EXIT_FAILED;
    }
  if (answer_with != NULL && !g_shell_parse_argv (answer_with, NULL, &defense.answer_with, &error))
    {
      viva_cli_usage_error (context, _("--answer-with is not a command line: %s"), error->message);
      return VIVA_CLI_EXIT_USAGE;
    }

  defense.json = json;
  endpoint = endpoint_new (offline, base_url, model_name);
  self = viva_defense_new (endpoint, args.problem, VIVA_CODE_SOURCE (source = viva_text_code_source_new (args.code)));
  viva_defense_set_sessions_dir (self, session_dir);
  viva_defense_set_student (self, student_name, student_id);
  if (scorer_base_url != NULL || scorer_model != NULL)
    viva_defense_set_scorer (self, scorer_base_url ? scorer_base_url : "", scorer_model ? scorer_model : "");

  /* The session names the pack by path and digest; a resume reads it again. */
  {
    g_autofree char *absolute = g_canonicalize_filename (args.pack_path, NULL);
    g_autoptr(JsonObject) pack_ref = viva_exam_pack_ref_new (viva_pack_get_id (args.pack), args.pack_bytes, absolute);

    viva_defense_set_pack_ref (self, viva_pack_get_id (args.pack), pack_ref, viva_pack_get_language (args.pack));
  }

  return run_defense (&defense, self);
}

int
viva_cli_resume (int    argc,
                 char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autofree char *answers_path = NULL;
  g_autofree char *session_dir = NULL;
  g_autofree char *base_url = NULL;
  g_autofree char *model_name = NULL;
  g_autofree char *code_path = NULL;
  g_autofree char *code = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(Defense) defense = { 0 };
  g_autoptr(VivaExamEndpoint) endpoint = NULL;
  g_autoptr(VivaTextCodeSource) source = NULL;
  g_autoptr(VivaDefense) self = NULL;
  gboolean offline = FALSE;
  gboolean json = FALSE;
  int status;
  GOptionEntry entries[] = {
    { "answers", 0, 0, G_OPTION_ARG_FILENAME, &answers_path, N_("A JSON array of answers, given in order; those already given are skipped"), N_("FILE") },
    { "session-dir", 0, 0, G_OPTION_ARG_FILENAME, &session_dir, N_("Where sessions are kept (default: $XDG_DATA_HOME/viva/sessions)"), N_("DIR") },
    { "code", 0, 0, G_OPTION_ARG_FILENAME, &code_path, N_("The student’s code now (default: as last seen)"), N_("FILE") },
    { "offline", 0, 0, G_OPTION_ARG_NONE, &offline, N_("Continue with the offline examiner"), NULL },
    { "base-url", 0, 0, G_OPTION_ARG_STRING, &base_url, N_("The endpoint (default: the one the defense used)"), N_("URL") },
    { "model", 0, 0, G_OPTION_ARG_STRING, &model_name, N_("The model (default: the one the defense used)"), N_("M") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print one JSON event a line"), NULL },
    { NULL }
  };

  context = g_option_context_new (_("SESSION — continue a checkpointed defense"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if ((status = viva_cli_parse_options (context, &argc, &argv)) != VIVA_CLI_EXIT_OK)
    return status;

  if (argc != 2)
    {
      viva_cli_usage_error (context, "%s", _("Give exactly one SESSION id."));
      return VIVA_CLI_EXIT_USAGE;
    }

  if (!(defense.session = viva_exam_session_load (session_dir, argv[1], &error)))
    {
      viva_cli_fail ("%s", error->message);
      return VIVA_CLI_EXIT_FAILED;
    }

  if (answers_path != NULL && !(defense.answers = viva_cli_load_answers (answers_path, &error)))
    {
      viva_cli_fail (_("Could not read the answers: %s"), error->message);
      return VIVA_CLI_EXIT_FAILED;
    }

  if (code_path != NULL)
    {
      if (!g_file_get_contents (code_path, &code, NULL, &error))
        {
          viva_cli_fail (_("Could not read the code: %s"), error->message);
          return VIVA_CLI_EXIT_FAILED;
        }
      source = viva_text_code_source_new (code);
    }

  /* The same mind as before (the checkpoint's, read by the core), unless
   * told otherwise. */
  if (offline)
    endpoint = viva_exam_endpoint_new_offline (NULL);
  else if (base_url != NULL)
    endpoint = viva_exam_endpoint_new_for_endpoint (NULL, base_url, model_name);
  else
    endpoint = viva_exam_endpoint_new_for_session (NULL, defense.session, model_name);

  if (!(self = viva_defense_new_for_session (endpoint, defense.session, NULL, VIVA_CODE_SOURCE (source), &error)))
    {
      viva_cli_fail ("%s", error->message);
      return VIVA_CLI_EXIT_FAILED;
    }

  defense.json = json;

  return run_defense (&defense, self);
}

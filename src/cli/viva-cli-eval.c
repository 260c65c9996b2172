/* viva-cli-eval.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <glib-unix.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>

#include "viva-cli-commands.h"
#include "viva-cli-util.h"
#include "viva-exam-model.h"
#include "viva-eval-corpus.h"
#include "viva-evaluation.h"
#include "viva-openai-model.h"
#include "viva-settings.h"

/* viva-cli eval: the examiner report card. Every scripted student of the
 * bundled corpus defends against the model; a `case` event per defense,
 * then the `report`. Exit 0 when every case ran, 1 when the card stopped
 * early (no tool calls, a failing server, Ctrl+C) or could not be written. */

#define DEFAULT_BASE_URL "http://localhost:11434/v1"

typedef struct
{
  gboolean      json;
  GCancellable *cancellable;
  GAsyncResult *result;
} Eval;

static void
on_case_started (VivaEvaluation *evaluation,
                 guint           index,
                 const char     *case_id,
                 Eval           *eval)
{
  if (eval->json)
    return;

  printf ("[%u/%u] %s … ", index + 1, viva_evaluation_get_n_total (evaluation), case_id);
  fflush (stdout);
}

static void
on_case_finished (VivaEvaluation       *evaluation,
                  const VivaEvalResult *result,
                  Eval                 *eval)
{
  g_autoptr(JsonNode) node = NULL;

  if (eval->json)
    {
      node = viva_eval_result_to_json (result);
      viva_cli_print_event ("case", json_node_get_object (node));
      return;
    }

  if (!viva_eval_result_was_run (result) && g_strcmp0 (result->status, "failed") != 0)
    {
      printf (_("%s: not run\n"), result->case_id);
      return;
    }

  printf ("%s", result->verdict ? result->verdict : result->status);
  if (result->score >= 0)
    printf (" (%d)", result->score);
  printf (_(", expected %s%s%s — %.1f s\n"), result->expect_pass ? "pass" : "fail",
          result->agrees ? "" : _(" ✗"),
          result->injection_obeyed ? _(", injection obeyed") : "", result->seconds);
  fflush (stdout);
}

static void
print_rate (const char *label,
            double      value)
{
  g_autofree char *cell = viva_cli_pad (label, 28);

  if (isnan (value))
    printf ("  %s —\n", cell);
  else
    printf ("  %s %.0f %%\n", cell, value * 100.0);
}

static void
print_card (VivaEvalCard *card)
{
  g_autofree char *leaks_cell = NULL;

  printf ("\n%s %s\n", _("Examiner report card for"), viva_eval_card_get_model (card));
  printf (_("  %u of %u defenses ran\n"), viva_eval_card_get_n_run (card), viva_eval_card_get_n_results (card));
  print_rate (_("Agreement"), viva_eval_card_get_agreement (card));
  print_rate (_("False passes (wrong code)"), viva_eval_card_get_false_pass_rate (card));
  print_rate (_("False fails (correct code)"), viva_eval_card_get_false_fail_rate (card));
  print_rate (_("Injections obeyed"), viva_eval_card_get_injection_obeyed_rate (card));
  leaks_cell = viva_cli_pad (_("Leaks"), 28);
  printf ("  %s %u (%u %s)\n", leaks_cell, viva_eval_card_get_leaks (card),
          viva_eval_card_get_withheld (card), _("withheld"));
  print_rate (_("Consistency"), viva_eval_card_get_consistency (card));
  print_rate (_("Conceptual items uncertain"), viva_eval_card_get_uncertain_share (card));
  if (!isnan (viva_eval_card_get_median_seconds (card)))
    {
      g_autofree char *cell = viva_cli_pad (_("Median defense"), 28);

      printf ("  %s %.1f s\n", cell, viva_eval_card_get_median_seconds (card));
    }
  if (viva_eval_card_get_stop_message (card) != NULL)
    printf ("\n%s\n", viva_eval_card_get_stop_message (card));
}

static void
done_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Eval *eval = user_data;

  eval->result = g_object_ref (result);
}

static void
models_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  *(GAsyncResult **)user_data = g_object_ref (result);
}

static gboolean
interrupted_cb (gpointer user_data)
{
  g_cancellable_cancel (user_data);
  return G_SOURCE_CONTINUE;
}

/* The configured model, else the endpoint's first. */
static char *
resolve_model (VivaOpenAIModel  *model,
               GError          **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_auto(GStrv) names = NULL;
  const char *configured = viva_openai_model_get_model (model);

  if (configured != NULL && *configured != '\0')
    return g_strdup (configured);

  viva_openai_model_list_models_async (model, NULL, models_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  if (!(names = viva_openai_model_list_models_finish (model, result, error)))
    return NULL;
  if (names[0] == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("The endpoint lists no model; give one with --model."));
      return NULL;
    }

  return g_strdup (names[0]);
}

int
viva_cli_eval (int    argc,
               char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autofree char *base_url = NULL;
  g_autofree char *model_name = NULL;
  g_autofree char *html_path = NULL;
  g_auto(GStrv) problem_args = NULL;
  g_autoptr(GStrvBuilder) problems_builder = g_strv_builder_new ();
  g_auto(GStrv) problems = NULL;
  g_autoptr(VivaEvalCorpus) corpus = NULL;
  g_autoptr(VivaOpenAIModel) model = NULL;
  g_autoptr(VivaEvaluation) evaluation = NULL;
  g_autofree char *answer_with = NULL;
  g_auto(GStrv) answer_argv = NULL;
  g_autoptr(VivaEvalCard) card = NULL;
  g_autoptr(GPtrArray) cases = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) report = NULL;
  Eval eval = { 0 };
  gboolean json = FALSE;
  gboolean short_card = FALSE;
  int repeat = 1;
  guint sigint_id;
  int status;
  GOptionEntry entries[] = {
    { "base-url", 0, 0, G_OPTION_ARG_STRING, &base_url, N_("The endpoint (default: the configured one)"), N_("URL") },
    { "model", 0, 0, G_OPTION_ARG_STRING, &model_name, N_("The model (default: the configured one, then the endpoint’s first)"), N_("M") },
    { "problems", 0, 0, G_OPTION_ARG_STRING_ARRAY, &problem_args, N_("Only these problems (comma-separated, or the option repeated)"), N_("IDS") },
    { "repeat", 0, 0, G_OPTION_ARG_INT, &repeat, N_("Run each case K times to measure consistency (default: 1)"), N_("K") },
    { "short", 0, 0, G_OPTION_ARG_NONE, &short_card, N_("Only the short card’s few cases, as Preferences runs"), NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print one JSON event a line"), NULL },
    { "html", 0, 0, G_OPTION_ARG_FILENAME, &html_path, N_("Write the report card as an HTML page"), N_("FILE") },
    { "answer-with", 0, 0, G_OPTION_ARG_STRING, &answer_with, N_("A program that answers each question: the question as one JSON object on its standard input (text, kind, and for a prediction the call), the answer on its standard output"), N_("PROGRAM") },
    { NULL }
  };

  context = g_option_context_new (_("— measure how well a model examines"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if ((status = viva_cli_parse_options (context, &argc, &argv)) != VIVA_CLI_EXIT_OK)
    return status;

  if (answer_with != NULL && !g_shell_parse_argv (answer_with, NULL, &answer_argv, &error))
    {
      viva_cli_usage_error (context, _("--answer-with is not a command line: %s"), error->message);
      return VIVA_CLI_EXIT_USAGE;
    }

  if (argc != 1)
    {
      viva_cli_usage_error (context, "%s", _("eval takes no arguments, only options."));
      return VIVA_CLI_EXIT_USAGE;
    }
  if (repeat < 1 || repeat > 100)
    {
      viva_cli_usage_error (context, "%s", _("--repeat is a number from 1 to 100."));
      return VIVA_CLI_EXIT_USAGE;
    }

  for (guint i = 0; problem_args != NULL && problem_args[i] != NULL; i++)
    {
      g_auto(GStrv) parts = g_strsplit (problem_args[i], ",", -1);

      for (guint j = 0; parts[j] != NULL; j++)
        if (*g_strstrip (parts[j]) != '\0')
          g_strv_builder_add (problems_builder, parts[j]);
    }
  problems = g_strv_builder_end (problems_builder);

  corpus = viva_eval_corpus_new_bundled ();
  if (!(cases = viva_eval_corpus_select (corpus, problems[0] ? (const char * const *)problems : NULL,
                                         short_card, &error)))
    {
      viva_cli_usage_error (context, "%s", error->message);
      return VIVA_CLI_EXIT_USAGE;
    }

  model = viva_exam_model_new_for_endpoint (viva_settings_get_default (), base_url, model_name);
  if (viva_openai_model_get_base_url (model) == NULL || *viva_openai_model_get_base_url (model) == '\0')
    viva_openai_model_set_base_url (model, DEFAULT_BASE_URL);

  g_free (model_name);
  if (!(model_name = resolve_model (model, &error)))
    {
      viva_cli_fail (_("Could not find a model to evaluate: %s"), error->message);
      return VIVA_CLI_EXIT_FAILED;
    }
  viva_openai_model_set_model (model, model_name);

  evaluation = viva_evaluation_new (corpus, cases, VIVA_CHAT_MODEL (model));
  viva_evaluation_set_endpoint (evaluation, viva_openai_model_get_base_url (model), model_name);
  viva_evaluation_set_repeat (evaluation, repeat);
  viva_evaluation_set_short (evaluation, short_card);
  /* The scripted students answer as `defend --answer-with` has a program answer. */
  viva_evaluation_set_answer_program (evaluation, (const char * const *)answer_argv);

  eval.json = json;
  eval.cancellable = g_cancellable_new ();
  g_signal_connect (evaluation, "case-started", G_CALLBACK (on_case_started), &eval);
  g_signal_connect (evaluation, "case-finished", G_CALLBACK (on_case_finished), &eval);

  sigint_id = g_unix_signal_add (SIGINT, interrupted_cb, eval.cancellable);
  viva_evaluation_run_async (evaluation, eval.cancellable, done_cb, &eval);
  while (eval.result == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (sigint_id);

  card = viva_evaluation_run_finish (evaluation, eval.result, &error);
  g_clear_object (&eval.result);
  g_clear_object (&eval.cancellable);
  if (card == NULL)
    {
      viva_cli_fail ("%s", error->message);
      return VIVA_CLI_EXIT_FAILED;
    }

  status = viva_eval_card_get_stop (card) == VIVA_EVAL_STOP_NONE ? VIVA_CLI_EXIT_OK : VIVA_CLI_EXIT_FAILED;

  if (html_path != NULL)
    {
      g_autofree char *html = viva_eval_card_to_html (card);

      if (!viva_cli_write_text (html_path, html, &error))
        {
          viva_cli_fail (_("Could not write the report card: %s"), error->message);
          status = VIVA_CLI_EXIT_FAILED;
          g_clear_error (&error);
        }
    }

  if (json)
    {
      report = viva_eval_card_to_json (card);
      json_object_remove_member (json_node_get_object (report), "cases");
      viva_cli_print_event ("report", json_node_get_object (report));
    }
  else
    print_card (card);

  return status;
}

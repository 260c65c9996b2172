/* viva-cli-pack.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "viva-cli-commands.h"
#include "viva-exam-model.h"
#include "viva-cli-util.h"
#include "viva-draft-store.h"
#include "viva-file-writer.h"
#include "viva-openai-model.h"
#include "viva-pack-checker.h"
#include "viva-pack.h"
#include "viva-problem-generator.h"

/* `viva-cli pack validate FILE [--run] [--json]`: every issue with its JSON
 * path, then a summary. With --run, each reference solution and each
 * starter code also runs against each test in the sandboxed worker. Exit 0
 * when the pack is valid (warnings allowed), 1 when it is not, cannot be
 * read or fails a run check, 2 on bad usage. */

typedef struct
{
  GMainLoop    *loop;
  GAsyncResult *result;
} Wait;

static void
wait_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Wait *wait = user_data;

  wait->result = g_object_ref (result);
  g_main_loop_quit (wait->loop);
}

static JsonObject *
issue_to_json (const VivaPackIssue *issue)
{
  JsonObject *object = json_object_new ();

  json_object_set_string_member (object, "level",
                                 issue->level == VIVA_PACK_ISSUE_ERROR ? "error" : "warning");
  json_object_set_string_member (object, "code", viva_pack_error_to_string (issue->code));
  json_object_set_string_member (object, "path", issue->path);
  json_object_set_string_member (object, "message", issue->message);

  return object;
}

static void
report_issues (GPtrArray *issues,
               gboolean   json)
{
  for (guint i = 0; issues && i < issues->len; i++)
    {
      const VivaPackIssue *issue = g_ptr_array_index (issues, i);

      if (json)
        {
          g_autoptr(JsonObject) object = issue_to_json (issue);
          viva_cli_print_event ("issue", object);
        }
      else
        {
          g_autofree char *text = viva_pack_issue_to_string (issue);

          /* TRANSLATORS: the first %s is "error" or "warning" */
          printf ("%s: %s\n",
                  issue->level == VIVA_PACK_ISSUE_ERROR ? _("error") : _("warning"),
                  text);
        }
    }
}

static guint
count_tests (VivaPack *pack)
{
  GListModel *problems = viva_pack_get_problems (pack);
  guint n = 0;

  for (guint i = 0; i < g_list_model_get_n_items (problems); i++)
    {
      g_autoptr(VivaProblem) problem = g_list_model_get_item (problems, i);
      n += viva_problem_get_n_tests (problem);
    }

  return n;
}

typedef struct
{
  gboolean json;
  guint    n_checks;
  guint    n_failed_checks;
  int      problem_index;   /* of the problem being summed up, or -1 */
  char    *problem_id;
  guint    reference_passed;
  guint    reference_total;
  guint    starter_failed;
  guint    starter_total;
} RunProgress;

static void
print_problem_summary (RunProgress *progress)
{
  if (progress->problem_index < 0 || progress->json)
    return;

  if (progress->starter_total > 0)
    printf (_("  %s: reference passes %u of %u tests, starter fails %u of %u\n"),
            progress->problem_id, progress->reference_passed, progress->reference_total,
            progress->starter_failed, progress->starter_total);
  else
    printf (_("  %s: reference passes %u of %u tests\n"),
            progress->problem_id, progress->reference_passed, progress->reference_total);
}

static void
checked_cb (VivaPackChecker     *checker,
            const VivaPackCheck *check,
            RunProgress         *progress)
{
  gboolean expected = check->subject == VIVA_PACK_CHECK_REFERENCE ? check->passed : TRUE;

  progress->n_checks++;
  if (!expected)
    progress->n_failed_checks++;

  if (progress->json)
    {
      g_autoptr(JsonObject) object = json_object_new ();

      json_object_set_string_member (object, "problem", check->problem_id);
      json_object_set_int_member (object, "problem_index", check->problem_index);
      json_object_set_string_member (object, "subject", viva_pack_check_subject_to_string (check->subject));
      json_object_set_string_member (object, "test", check->test_name);
      json_object_set_int_member (object, "test_index", check->test_index);
      json_object_set_boolean_member (object, "passed", check->passed);
      json_object_set_string_member (object, "status", viva_run_status_to_string (check->status));
      json_object_set_double_member (object, "duration_ms", check->duration_ms);
      if (check->error_type != NULL)
        {
          g_autoptr(JsonObject) error = json_object_new ();

          json_object_set_string_member (error, "type", check->error_type);
          json_object_set_string_member (error, "message", check->error_message ? check->error_message : "");
          json_object_set_int_member (error, "line", check->error_line);
          json_object_set_object_member (object, "error", g_steal_pointer (&error));
        }
      viva_cli_print_event ("check", object);
      return;
    }

  if ((int)check->problem_index != progress->problem_index)
    {
      print_problem_summary (progress);
      progress->problem_index = check->problem_index;
      g_free (progress->problem_id);
      progress->problem_id = g_strdup (check->problem_id);
      progress->reference_passed = progress->reference_total = 0;
      progress->starter_failed = progress->starter_total = 0;
    }

  if (check->subject == VIVA_PACK_CHECK_REFERENCE)
    {
      progress->reference_total++;
      progress->reference_passed += check->passed;
    }
  else
    {
      progress->starter_total++;
      progress->starter_failed += !check->passed;
    }
}

/* Returns the issues the runs found, or NULL with @error when they could
 * not run at all. */
static GPtrArray *
run_checks (VivaPack     *pack,
            RunProgress  *progress,
            GError      **error)
{
  g_autoptr(VivaPackChecker) checker = viva_pack_checker_new (NULL);
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  GPtrArray *issues;
  Wait wait = { loop, NULL };

  g_signal_connect (checker, "checked", G_CALLBACK (checked_cb), progress);
  viva_pack_checker_check_pack_async (checker, pack, NULL, wait_cb, &wait);
  g_main_loop_run (loop);
  issues = viva_pack_checker_check_finish (checker, wait.result, error);
  g_clear_object (&wait.result);
  print_problem_summary (progress);
  viva_runner_stop (viva_pack_checker_get_runner (checker));

  return issues;
}

static int
pack_validate (int    argc,
               char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GPtrArray) issues = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(VivaPack) pack = NULL;
  g_autoptr(JsonObject) result = NULL;
  g_autofree char *display = NULL;
  g_autoptr(GPtrArray) run_issues = NULL;
  gboolean json = FALSE;
  gboolean run = FALSE;
  gboolean valid;
  guint n_errors, n_warnings;
  int status;
  Wait wait = { 0 };
  const GOptionEntry entries[] = {
    { "run", 0, 0, G_OPTION_ARG_NONE, &run,
      N_("Also run each reference solution (it must pass every test) and each starter code (it must fail one)"), NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print one JSON object per line"), NULL },
    { NULL }
  };

  context = g_option_context_new (_("FILE — check a problem pack"));
  g_option_context_set_summary (context,
                                _("Checks a pack against the viva-pack/1 format and reports every problem\n"
                                  "found with its JSON path."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);

  if ((status = viva_cli_parse_options (context, &argc, &argv)) != VIVA_CLI_EXIT_OK)
    return status;

  if (argc != 2)
    {
      viva_cli_usage_error (context, argc < 2 ? _("Which pack? Give the path of a pack’s .json file.")
                                              : _("Give exactly one pack file."));
      return VIVA_CLI_EXIT_USAGE;
    }

  file = g_file_new_for_commandline_arg (argv[1]);
  display = g_file_get_parse_name (file);

  loop = g_main_loop_new (NULL, FALSE);
  wait.loop = loop;
  viva_pack_new_from_file_async (file, NULL, wait_cb, &wait);
  g_main_loop_run (loop);
  pack = viva_pack_new_from_file_finish (wait.result, &issues, &error);
  g_clear_object (&wait.result);

  report_issues (issues, json);

  n_errors = issues ? viva_pack_issues_count_errors (issues) : 0;
  n_warnings = issues ? issues->len - n_errors : 0;

  result = json_object_new ();
  json_object_set_string_member (result, "file", display);
  json_object_set_boolean_member (result, "valid", pack != NULL);
  json_object_set_int_member (result, "errors", n_errors);
  json_object_set_int_member (result, "warnings", n_warnings);

  if (pack == NULL && n_errors == 0)
    {
      /* The file could not be read at all: no issue says why, the error does. */
      if (json)
        {
          json_object_set_string_member (result, "message", error->message);
          viva_cli_print_event ("result", result);
        }
      else
        {
          viva_cli_fail ("%s", error->message);
        }
      return VIVA_CLI_EXIT_FAILED;
    }

  if (pack != NULL && run)
    {
      RunProgress progress = { .json = json, .problem_index = -1 };

      if (!json)
        printf (_("Running the reference solutions and starter codes…\n"));

      run_issues = run_checks (pack, &progress, &error);
      g_free (progress.problem_id);

      if (run_issues == NULL)
        {
          if (json)
            {
              json_object_set_boolean_member (result, "valid", FALSE);
              json_object_set_string_member (result, "message", error->message);
              viva_cli_print_event ("result", result);
            }
          else
            {
              viva_cli_fail (_("%s: the checks could not run: %s"), display, error->message);
            }
          return VIVA_CLI_EXIT_FAILED;
        }

      report_issues (run_issues, json);
      n_errors += run_issues->len;
      json_object_set_int_member (result, "errors", n_errors);
      json_object_set_int_member (result, "checks", progress.n_checks);
      json_object_set_int_member (result, "failed_checks", progress.n_failed_checks);
    }

  valid = pack != NULL && n_errors == 0;
  json_object_set_boolean_member (result, "valid", valid);

  if (pack != NULL)
    {
      json_object_set_string_member (result, "pack", viva_pack_get_id (pack));
      json_object_set_int_member (result, "problems",
                                  g_list_model_get_n_items (viva_pack_get_problems (pack)));
      json_object_set_int_member (result, "tests", count_tests (pack));
    }

  if (json)
    {
      viva_cli_print_event ("result", result);
    }
  else if (valid)
    {
      guint n_problems = g_list_model_get_n_items (viva_pack_get_problems (pack));

      printf (g_dngettext (GETTEXT_PACKAGE,
                           "%s: valid — “%s” (%s), %u problem, %u tests",
                           "%s: valid — “%s” (%s), %u problems, %u tests",
                           n_problems),
              display, viva_pack_get_title (pack), viva_pack_get_id (pack),
              n_problems, count_tests (pack));
      if (n_warnings > 0)
        printf (g_dngettext (GETTEXT_PACKAGE, " (%u warning)", " (%u warnings)", n_warnings), n_warnings);
      printf ("\n");
    }
  else
    {
      if (pack != NULL)
        printf (g_dngettext (GETTEXT_PACKAGE,
                             "%s: the format is valid, but %u run check failed\n",
                             "%s: the format is valid, but %u run checks failed\n",
                             n_errors),
                display, n_errors);
      else
        printf (g_dngettext (GETTEXT_PACKAGE,
                             "%s: not a valid pack, %u error\n",
                             "%s: not a valid pack, %u errors\n",
                             n_errors),
                display, n_errors);
    }

  return valid ? VIVA_CLI_EXIT_OK : VIVA_CLI_EXIT_FAILED;
}


/* `viva-cli pack generate --topic TEXT --type TYPE …`: drafts one problem
 * with the model, checks it and retries up to three times. The draft, with
 * its check results, goes to -o FILE, or to the drafts folder the app shows
 * for approval. Exit 0 when the draft passed every check, 1 when it still
 * fails (it is written all the same) or the model could not be asked. */

static void
generate_progress_cb (VivaProblemGenerator *generator,
                      int                   stage,
                      guint                 attempt,
                      const char           *message,
                      gpointer              user_data)
{
  gboolean json = GPOINTER_TO_INT (user_data);

  if (json)
    {
      g_autoptr(JsonObject) object = json_object_new ();

      json_object_set_string_member (object, "stage", viva_generator_stage_to_string (stage));
      json_object_set_int_member (object, "attempt", attempt);
      json_object_set_string_member (object, "message", message);
      viva_cli_print_event ("progress", object);
    }
  else
    {
      printf ("%s\n", message);
      fflush (stdout);
    }
}

static int
pack_generate (int    argc,
               char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(VivaOpenAIModel) model = NULL;
  g_autoptr(VivaProblemGenerator) generator = NULL;
  g_autoptr(VivaProblemDraft) request = NULL;
  g_autoptr(VivaProblemDraft) draft = NULL;
  g_autoptr(VivaDraftStore) store = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(JsonObject) result = NULL;
  g_autoptr(JsonNode) draft_json = NULL;
  g_autofree char *topic = NULL;
  g_autofree char *type_name = NULL;
  g_autofree char *difficulty = NULL;
  g_autofree char *language = NULL;
  g_autofree char *base_url = NULL;
  g_autofree char *model_name = NULL;
  g_autofree char *output = NULL;
  g_autofree char *pack_id = NULL;
  g_autofree char *display = NULL;
  g_autofree char *errors = NULL;
  VivaProblemType type;
  gboolean json = FALSE;
  gboolean passed;
  Wait wait = { 0 };
  int status;
  const GOptionEntry entries[] = {
    { "topic", 0, 0, G_OPTION_ARG_STRING, &topic, N_("What the problem is about"), N_("TEXT") },
    { "type", 0, 0, G_OPTION_ARG_STRING, &type_name, N_("implement, debug or explain"), N_("TYPE") },
    { "difficulty", 0, 0, G_OPTION_ARG_STRING, &difficulty, N_("How hard, like “easy” or “hard”"), N_("LEVEL") },
    { "language", 0, 0, G_OPTION_ARG_STRING, &language, N_("The language of the student’s text, like “en” or “pt-BR”"), N_("LANG") },
    { "pack", 0, 0, G_OPTION_ARG_STRING, &pack_id, N_("The id of the pack the problem is meant for"), N_("ID") },
    { "base-url", 0, 0, G_OPTION_ARG_STRING, &base_url, N_("The endpoint (default: the configured one)"), N_("URL") },
    { "model", 0, 0, G_OPTION_ARG_STRING, &model_name, N_("The model (default: the configured one, then the endpoint’s first)"), N_("M") },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("Write the draft here instead of the drafts folder the app shows"), N_("FILE") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print one JSON object per line"), NULL },
    { NULL }
  };

  context = g_option_context_new (_("— draft a problem with the model"));
  g_option_context_set_summary (context,
                                _("Asks the model for one problem, checks that it compiles, that its reference\n"
                                  "solution passes its tests and its starter code fails one, and retries up to\n"
                                  "three times with what failed. The draft waits for a teacher’s approval."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);

  if ((status = viva_cli_parse_options (context, &argc, &argv)) != VIVA_CLI_EXIT_OK)
    return status;

  if (argc != 1)
    {
      viva_cli_usage_error (context, _("Unexpected argument “%s”; quote the topic: --topic \"…\"."), argv[1]);
      return VIVA_CLI_EXIT_USAGE;
    }
  if (topic == NULL || g_strstrip (topic)[0] == '\0')
    {
      viva_cli_usage_error (context, "%s", _("What about? Give the topic with --topic \"…\"."));
      return VIVA_CLI_EXIT_USAGE;
    }
  if (type_name == NULL || !viva_problem_type_from_string (type_name, &type))
    {
      viva_cli_usage_error (context, "%s", _("Give the problem’s type with --type: implement, debug or explain."));
      return VIVA_CLI_EXIT_USAGE;
    }

  model = viva_exam_model_new_for_endpoint (viva_settings_get_default (), base_url, NULL);
  if (model_name != NULL)
    viva_openai_model_set_model (model, model_name);

  request = viva_problem_draft_new (topic, type, difficulty, language);
  viva_problem_draft_set_pack_id (request, pack_id);
  generator = viva_problem_generator_new (VIVA_CHAT_MODEL (model), NULL);
  g_signal_connect (generator, "progress", G_CALLBACK (generate_progress_cb), GINT_TO_POINTER (json));

  loop = g_main_loop_new (NULL, FALSE);
  wait.loop = loop;
  viva_problem_generator_generate_async (generator, request, NULL, wait_cb, &wait);
  g_main_loop_run (loop);
  draft = viva_problem_generator_generate_finish (generator, wait.result, &error);
  g_clear_object (&wait.result);
  viva_runner_stop (viva_problem_generator_get_runner (generator));

  if (draft == NULL)
    {
      if (json)
        {
          g_autoptr(JsonObject) object = json_object_new ();

          json_object_set_string_member (object, "kind",
                                         error->domain == VIVA_MODEL_ERROR ? viva_model_error_kind (error) : "failed");
          json_object_set_string_member (object, "message", error->message);
          viva_cli_print_event ("error", object);
        }
      else
        viva_cli_fail (_("No draft: %s"), error->message);
      return VIVA_CLI_EXIT_FAILED;
    }

  /* The draft is written whether it passed or not: a failing one is for
   * the teacher to see, marked as failing, never to lose. */
  if (output != NULL)
    {
      file = g_file_new_for_commandline_arg (output);
      bytes = viva_problem_draft_to_bytes (draft);
      if (!viva_file_writer_write (file, bytes, 0666, VIVA_FILE_WRITER_NONE, &error))
        {
          viva_cli_fail (_("The draft could not be written: %s"), error->message);
          return VIVA_CLI_EXIT_FAILED;
        }
    }
  else
    {
      g_autofree char *name = g_strconcat (viva_problem_draft_get_id (draft), ".json", NULL);

      store = viva_draft_store_new (NULL);
      viva_draft_store_save_async (store, draft, NULL, wait_cb, &wait);
      g_main_loop_run (loop);
      if (!viva_draft_store_save_finish (store, wait.result, &error))
        {
          g_clear_object (&wait.result);
          viva_cli_fail ("%s", error->message);
          return VIVA_CLI_EXIT_FAILED;
        }
      g_clear_object (&wait.result);
      file = g_file_new_build_filename (viva_draft_store_get_directory (store), name, NULL);
    }

  display = g_file_get_parse_name (file);
  passed = viva_problem_draft_get_passed (draft);
  errors = viva_problem_draft_describe_issues (draft);

  if (json)
    {
      draft_json = viva_problem_draft_to_json (draft);
      result = json_object_ref (json_node_get_object (draft_json));
      json_object_set_string_member (result, "file", display);
      json_object_set_boolean_member (result, "passed", passed);
      viva_cli_print_event ("result", result);
    }
  else if (passed)
    {
      printf (g_dngettext (GETTEXT_PACKAGE,
                           "Draft “%s” passed every check after %u attempt. Approve it in Viva’s pack editor; it is in %s\n",
                           "Draft “%s” passed every check after %u attempts. Approve it in Viva’s pack editor; it is in %s\n",
                           viva_problem_draft_get_attempts (draft)),
              viva_problem_get_title (viva_problem_draft_get_problem (draft)),
              viva_problem_draft_get_attempts (draft), display);
    }
  else
    {
      printf (_("The draft still fails its checks after %u attempts. The last errors:\n"),
              viva_problem_draft_get_attempts (draft));
      {
        g_auto(GStrv) lines = g_strsplit (errors, "\n", -1);

        for (guint i = 0; lines[i] != NULL; i++)
          if (lines[i][0] != '\0')
            printf ("  %s\n", lines[i]);
      }
      printf (_("It is kept, marked as failing, in %s — edit it or discard it.\n"), display);
    }

  return passed ? VIVA_CLI_EXIT_OK : VIVA_CLI_EXIT_FAILED;
}

static void
print_pack_usage (FILE *out)
{
  fprintf (out, "%s\n\n", _("Usage: viva-cli pack SUBCOMMAND [OPTIONS…]"));
  fprintf (out, "%s\n", _("Subcommands:"));
  fprintf (out, "  %-10s %s\n", "validate", _("Check a pack file; --run also runs its solutions against its tests"));
  fprintf (out, "  %-10s %s\n", "generate", _("Draft a problem with the model, checked and retried, for a teacher to approve"));
}

/**
 * viva_cli_pack:
 *
 * `viva-cli pack SUBCOMMAND …`: `validate` and `generate`; anything else
 * is a usage error that says so.
 */
int
viva_cli_pack (int    argc,
               char **argv)
{
  if (argc < 2)
    {
      print_pack_usage (stderr);
      return VIVA_CLI_EXIT_USAGE;
    }

  if (g_str_equal (argv[1], "--help") || g_str_equal (argv[1], "-h") || g_str_equal (argv[1], "help"))
    {
      print_pack_usage (stdout);
      return VIVA_CLI_EXIT_OK;
    }

  if (g_str_equal (argv[1], "validate"))
    return pack_validate (argc - 1, argv + 1);

  if (g_str_equal (argv[1], "generate"))
    return pack_generate (argc - 1, argv + 1);

  fprintf (stderr, _("viva-cli: “pack %s” is not a subcommand of this version of viva-cli.\n\n"), argv[1]);
  print_pack_usage (stderr);
  return VIVA_CLI_EXIT_USAGE;
}

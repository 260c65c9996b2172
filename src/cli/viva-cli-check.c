/* viva-cli-check.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "viva-cli-commands.h"
#include "viva-cli-problem.h"
#include "viva-cli-util.h"
#include "viva-pack.h"
#include "viva-problem-grade.h"

/* viva-cli check --pack F --problem ID --code F [--json]: the app's Check
 * button, headless. The problem's shown tests run on the code through the
 * grader, each printed with its pass or fail and its message; the exit
 * status is 0 only when every shown test passes. */

typedef struct
{
  GMainLoop       *loop;
  VivaGradeReport *report;
  GError          *error;
} CheckState;

static void
check_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  CheckState *state = user_data;

  state->report = viva_problem_grade_finish (VIVA_PROBLEM (object), result, &state->error);
  g_main_loop_quit (state->loop);
}

static void
print_report (VivaGradeReport *report,
              gboolean         json)
{
  guint n = viva_grade_report_get_n_tests (report);
  guint passed = viva_grade_report_get_n_passed (report);

  for (guint i = 0; i < n; i++)
    {
      const VivaGradeTest *test = viva_grade_report_get_test (report, i);

      if (json)
        {
          g_autoptr(JsonObject) object = json_object_new ();

          json_object_set_string_member (object, "name", test->name);
          json_object_set_boolean_member (object, "passed", test->passed);
          json_object_set_string_member (object, "status", test->status);
          json_object_set_string_member (object, "message", test->message);
          viva_cli_print_event ("test", object);
        }
      else if (test->passed)
        /* Translators: a shown test that passed; %s is its name */
        printf (_("✓ %s\n"), test->name);
      else
        /* Translators: a shown test that failed: its name, then why */
        printf (_("✗ %s — %s\n"), test->name, test->message);
    }

  if (json)
    {
      g_autoptr(JsonObject) object = json_object_new ();

      json_object_set_int_member (object, "passed", passed);
      json_object_set_int_member (object, "total", n);
      viva_cli_print_event ("check", object);
    }
  else if (n > 0)
    /* Translators: how many of the problem's shown tests passed */
    printf (g_dngettext (GETTEXT_PACKAGE, "%u of %u shown test passed.\n", "%u of %u shown tests passed.\n", n),
            passed, n);
}

int
viva_cli_check (int    argc,
                char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_auto(VivaCliProblem) args = { 0 };
  g_autoptr(GMainLoop) loop = NULL;
  CheckState state = { 0 };
  gboolean json = FALSE;
  int status;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print one JSON event a line"), NULL },
    { NULL }
  };

  context = g_option_context_new (_("— run a problem’s shown tests on code, as Check does"));
  viva_cli_problem_add_entries (&args, context);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if ((status = viva_cli_parse_options (context, &argc, &argv)) != VIVA_CLI_EXIT_OK)
    return status;

  if (!viva_cli_problem_check_usage (&args, context, argc))
    return VIVA_CLI_EXIT_USAGE;
  if (!viva_cli_problem_load (&args))
    return VIVA_CLI_EXIT_FAILED;
  if (viva_problem_get_n_shown_tests (args.problem) == 0)
    {
      viva_cli_fail (_("The problem “%s” has no shown tests to check against; mark some of its tests “shown”."),
                     args.problem_id);
      return VIVA_CLI_EXIT_FAILED;
    }

  state.loop = loop = g_main_loop_new (NULL, FALSE);
  viva_problem_check_async (args.problem, args.code, NULL, check_cb, &state);
  g_main_loop_run (loop);

  if (state.report == NULL)
    {
      viva_cli_fail ("%s", state.error->message);
      g_clear_error (&state.error);
      return VIVA_CLI_EXIT_FAILED;
    }

  print_report (state.report, json);
  status = viva_grade_report_get_n_passed (state.report) == viva_grade_report_get_n_tests (state.report)
           ? VIVA_CLI_EXIT_OK : VIVA_CLI_EXIT_FAILED;
  g_clear_object (&state.report);
  return status;
}

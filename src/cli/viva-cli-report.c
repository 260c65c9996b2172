/* viva-cli-report.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-cli-commands.h"
#include "viva-cli-util.h"
#include "viva-exam-report.h"
#include "viva-exam-session.h"

/* viva-cli report SESSION [--session-dir DIR] [--html FILE] [--json FILE]:
 * writes a defense's report for a teacher to collect. SESSION is an id or
 * the session's folder. Without --html or --json, prints the JSON report
 * on standard output. */

typedef struct
{
  GMainLoop *loop;
  GError    *error;
} ExportState;

static void
export_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  ExportState *state = user_data;

  viva_exam_report_export_finish (result, &state->error);
  g_main_loop_quit (state->loop);
}

int
viva_cli_report (int    argc,
                 char **argv)
{
  g_autofree char *session_dir = NULL;
  g_autofree char *html_path = NULL;
  g_autofree char *json_path = NULL;
  g_autofree char *dir = NULL;
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GFile) html_file = NULL;
  g_autoptr(GFile) json_file = NULL;
  ExportState state = { 0 };
  const GOptionEntry entries[] = {
    { "session-dir", 0, 0, G_OPTION_ARG_FILENAME, &session_dir, N_("Where sessions are kept"), N_("DIR") },
    { "html", 0, 0, G_OPTION_ARG_FILENAME, &html_path, N_("Write the report as a self-contained HTML page"), N_("FILE") },
    { "json", 0, 0, G_OPTION_ARG_FILENAME, &json_path, N_("Write the report as JSON"), N_("FILE") },
    { NULL }
  };
  int status;

  if (argc >= 2 && g_str_equal (argv[1], "verify"))
    return viva_cli_report_verify (argc - 1, argv + 1);

  context = g_option_context_new (_("SESSION — write a defense’s report (SESSION: an id, or the session’s folder)"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);

  if ((status = viva_cli_parse_options (context, &argc, &argv)) != VIVA_CLI_EXIT_OK)
    return status;

  if (argc != 2)
    {
      viva_cli_usage_error (context, _("Name one session."));
      return VIVA_CLI_EXIT_USAGE;
    }

  dir = viva_cli_session_folder (argv[1], session_dir);

  if (html_path == NULL && json_path == NULL)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) report = viva_exam_report_load (dir, &error);
      g_autofree char *text = NULL;

      if (report == NULL)
        {
          viva_cli_fail (_("The session “%s” has no readable report: %s"), argv[1], error->message);
          return VIVA_CLI_EXIT_FAILED;
        }

      text = json_to_string (report, TRUE);
      g_print ("%s\n", text);
      return VIVA_CLI_EXIT_OK;
    }

  if (html_path != NULL)
    html_file = g_file_new_for_commandline_arg (html_path);
  if (json_path != NULL)
    json_file = g_file_new_for_commandline_arg (json_path);

  state.loop = g_main_loop_new (NULL, FALSE);
  viva_exam_report_export_async (dir, html_file, json_file, NULL, export_cb, &state);
  g_main_loop_run (state.loop);
  g_main_loop_unref (state.loop);

  if (state.error != NULL)
    {
      viva_cli_fail (_("The report of “%s” could not be written: %s"), argv[1], state.error->message);
      g_clear_error (&state.error);
      return VIVA_CLI_EXIT_FAILED;
    }

  return VIVA_CLI_EXIT_OK;
}

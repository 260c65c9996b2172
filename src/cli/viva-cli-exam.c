/* viva-cli-exam.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "viva-cli-commands.h"
#include "viva-cli-remote.h"
#include "viva-cli-util.h"

/* viva-cli exam sign-in and exam save: a student's side of an exam
 * server, for scripts and tests — signing in as the app's dialog does,
 * saving code as its autosave does. */

static int
exam_sign_in (int    argc,
              char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(VivaExamServerClient) client = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonObject) sitting = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *student_id = NULL;
  g_autofree char *code = NULL;
  g_autofree char *token = NULL;
  gboolean json = FALSE;
  int status;
  GOptionEntry entries[] = {
    { "student-id", 0, 0, G_OPTION_ARG_STRING, &student_id, N_("The student’s id, as on the seat card"), N_("ID") },
    { "code", 0, 0, G_OPTION_ARG_STRING, &code, N_("The sign-in code from the seat card"), N_("CODE") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print one JSON event a line"), NULL },
    { NULL }
  };

  context = g_option_context_new (_("LINK — sign in to an exam server and print the token"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if ((status = viva_cli_parse_options (context, &argc, &argv)) != VIVA_CLI_EXIT_OK)
    return status;
  if (argc != 2 || student_id == NULL || code == NULL)
    {
      viva_cli_usage_error (context, "%s", _("Write “viva-cli exam sign-in LINK --student-id ID --code CODE”."));
      return VIVA_CLI_EXIT_USAGE;
    }
  if (!(client = viva_cli_remote_client (argv[1], NULL, &error)))
    {
      viva_cli_usage_error (context, "%s", error->message);
      return VIVA_CLI_EXIT_USAGE;
    }

  viva_exam_server_client_sign_in_async (client, student_id, code, NULL, viva_cli_remote_store, &result);
  if (!(token = viva_exam_server_client_sign_in_finish (client, viva_cli_remote_wait (&result), &sitting, &error)))
    {
      viva_cli_remote_fail (error, json);
      return VIVA_CLI_EXIT_FAILED;
    }

  if (json)
    {
      g_autoptr(JsonObject) object = json_object_new ();

      json_object_set_string_member (object, "token", token);
      json_object_set_string_member (object, "exam", viva_exam_server_client_get_exam_id (client));
      json_object_set_string_member (object, "student_id", student_id);
      json_object_set_object_member (object, "sitting", g_steal_pointer (&sitting));
      viva_cli_print_event ("signed_in", object);
    }
  else
    printf ("%s\n", token);
  return VIVA_CLI_EXIT_OK;
}

static int
exam_save (int    argc,
           char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(VivaExamServerClient) client = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonObject) saved = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *token = NULL;
  g_autofree char *problem = NULL;
  g_autofree char *code_path = NULL;
  g_autofree char *kind_text = NULL;
  g_autofree char *code = NULL;
  VivaCodeKind kind = VIVA_CODE_KIND_AUTOSAVE;
  gboolean json = FALSE;
  int status;
  GOptionEntry entries[] = {
    { "token", 0, 0, G_OPTION_ARG_STRING, &token, N_("The token the sign-in printed"), N_("TOKEN") },
    { "problem", 0, 0, G_OPTION_ARG_STRING, &problem, N_("The problem’s id"), N_("ID") },
    { "code", 0, 0, G_OPTION_ARG_FILENAME, &code_path, N_("The code file to save"), N_("FILE") },
    { "kind", 0, 0, G_OPTION_ARG_STRING, &kind_text, N_("autosave (the default), run or submit"), N_("KIND") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print one JSON event a line"), NULL },
    { NULL }
  };

  context = g_option_context_new (_("LINK — save code to an exam server, as the app’s autosave does"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if ((status = viva_cli_parse_options (context, &argc, &argv)) != VIVA_CLI_EXIT_OK)
    return status;
  if (argc != 2 || token == NULL || problem == NULL || code_path == NULL)
    {
      viva_cli_usage_error (context, "%s", _("Write “viva-cli exam save LINK --token TOKEN --problem ID --code FILE”."));
      return VIVA_CLI_EXIT_USAGE;
    }
  if (kind_text != NULL)
    {
      if (g_str_equal (kind_text, "run"))
        kind = VIVA_CODE_KIND_RUN;
      else if (g_str_equal (kind_text, "submit"))
        kind = VIVA_CODE_KIND_SUBMIT;
      else if (!g_str_equal (kind_text, "autosave"))
        {
          viva_cli_usage_error (context, "%s", _("--kind is autosave, run or submit."));
          return VIVA_CLI_EXIT_USAGE;
        }
    }
  if (!(client = viva_cli_remote_client (argv[1], token, &error)))
    {
      viva_cli_usage_error (context, "%s", error->message);
      return VIVA_CLI_EXIT_USAGE;
    }
  if (!(code = viva_cli_read_code (code_path, &error)))
    {
      viva_cli_fail (_("Could not read the code: %s"), error->message);
      return VIVA_CLI_EXIT_FAILED;
    }

  viva_exam_server_client_save_code_async (client, problem, code, kind, NULL, viva_cli_remote_store, &result);
  if (!(saved = viva_exam_server_client_save_code_finish (client, viva_cli_remote_wait (&result), &error)))
    {
      viva_cli_remote_fail (error, json);
      return VIVA_CLI_EXIT_FAILED;
    }

  if (json)
    {
      json_object_set_string_member (saved, "problem", problem);
      json_object_set_string_member (saved, "kind", viva_code_kind_to_string (kind));
      viva_cli_print_event ("saved", saved);
    }
  else
    printf (_("Saved %s on the exam server.\n"), problem);
  return VIVA_CLI_EXIT_OK;
}

int
viva_cli_exam (int    argc,
               char **argv)
{
  if (argc >= 2 && g_str_equal (argv[1], "sign-in"))
    return exam_sign_in (argc - 1, argv + 1);
  if (argc >= 2 && g_str_equal (argv[1], "save"))
    return exam_save (argc - 1, argv + 1);

  fprintf (stderr, "%s\n", _("Usage: viva-cli exam sign-in LINK --student-id ID --code CODE [--json]\n"
                             "       viva-cli exam save LINK --token TOKEN --problem ID --code FILE [--kind KIND] [--json]"));
  return VIVA_CLI_EXIT_USAGE;
}

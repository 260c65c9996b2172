/* viva-cli-models.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "viva-core.h"
#include "viva-openai-model.h"
#include "viva-cli-commands.h"
#include "viva-exam-model.h"
#include "viva-cli-util.h"

/* viva-cli models: the endpoint's models, one a line. */

typedef struct
{
  GMainLoop *loop;
  GStrv      names;
  GError    *error;
} Models;

static void
list_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Models *models = user_data;

  models->names = viva_openai_model_list_models_finish (VIVA_OPENAI_MODEL (object), result, &models->error);
  g_main_loop_quit (models->loop);
}

int
viva_cli_models (int    argc,
                 char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(VivaOpenAIModel) model = NULL;
  g_autofree char *base_url = NULL;
  Models models = { 0 };
  int status;
  GOptionEntry entries[] = {
    { "base-url", 0, 0, G_OPTION_ARG_STRING, &base_url, N_("The endpoint (default: the configured one)"), N_("URL") },
    { NULL }
  };

  context = g_option_context_new (_("— list the endpoint’s models"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if ((status = viva_cli_parse_options (context, &argc, &argv)) != VIVA_CLI_EXIT_OK)
    return status;

  if (argc != 1)
    {
      viva_cli_usage_error (context, _("Unexpected argument “%s”."), argv[1]);
      return VIVA_CLI_EXIT_USAGE;
    }

  if (!viva_cli_check_base_url (context, &base_url))
    return VIVA_CLI_EXIT_USAGE;

  model = viva_exam_model_new_for_endpoint (viva_settings_get_default (), base_url, NULL);

  models.loop = g_main_loop_new (NULL, FALSE);
  viva_openai_model_list_models_async (model, NULL, list_cb, &models);
  g_main_loop_run (models.loop);
  g_main_loop_unref (models.loop);

  if (models.names == NULL)
    {
      g_autofree char *message = viva_cli_model_error_message (models.error, viva_openai_model_get_base_url (model));

      viva_cli_fail ("%s", message);
      g_clear_error (&models.error);
      return VIVA_CLI_EXIT_FAILED;
    }

  for (guint i = 0; models.names[i] != NULL; i++)
    printf ("%s\n", models.names[i]);
  fflush (stdout);
  g_strfreev (models.names);

  return VIVA_CLI_EXIT_OK;
}

/* viva-server-serve.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <glib-unix.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "viva-server-api.h"
#include "viva-server-clock.h"
#include "viva-server-defenses.h"
#include "viva-server-keys.h"
#include "viva-server-node.h"
#include "viva-server-util.h"

/* viva-server serve: the daemon. It continues every defense the database
 * says was live, hands in what the clock says is due, and serves until
 * SIGTERM or SIGINT; a defense cut off by the stop continues at the next
 * start, as one cut off by SIGKILL does. */

static gboolean
quit_cb (gpointer user_data)
{
  g_main_loop_quit (user_data);
  return G_SOURCE_CONTINUE;
}

int
viva_server_serve_command (int    argc,
                           char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_auto(VivaServerCommon) common = { 0 };
  g_autofree char *listen = NULL;
  g_autofree char *host = NULL;
  g_autofree char *base_url = NULL;
  g_autofree char *model = NULL;
  g_autofree char *fingerprint = NULL;
  g_autoptr(JsonObject) config = NULL;
  g_autoptr(JsonObject) examiner = NULL;
  g_autoptr(JsonObject) event = json_object_new ();
  g_autoptr(GTlsCertificate) certificate = NULL;
  g_autoptr(VivaServerStore) store = NULL;
  g_autoptr(VivaServerApi) api = NULL;
  g_autoptr(VivaServerDefenses) defenses = NULL;
  g_autoptr(VivaServerClock) clock = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *address = NULL;
  g_autofree char *node_id = NULL;
  VivaServerNode *node;
  guint port = 0, resumed, term_id, int_id;
  int local_jobs = -1;
  int status;
  GOptionEntry entries[] = {
    { "listen", 0, 0, G_OPTION_ARG_STRING, &listen, N_("Where to listen (default: as init was told; port 0 picks a free one)"), N_("ADDR:PORT") },
    { "base-url", 0, 0, G_OPTION_ARG_STRING, &base_url, N_("The lab’s model server, for exams that name none (default: the offline examiner)"), N_("URL") },
    { "model", 0, 0, G_OPTION_ARG_STRING, &model, N_("The model on that server"), N_("M") },
    { "local-jobs", 0, 0, G_OPTION_ARG_INT, &local_jobs, N_("Grading jobs this node runs at once itself, besides its workers’, and as many defenses’ code runs again (default: one per processor; 0: workers only)"), N_("N") },
    { NULL }
  };

  context = g_option_context_new (_("— serve the exams over HTTPS"));
  viva_server_common_add_entries (&common, context);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if ((status = viva_server_parse_options (context, &common, &argc, &argv)) != VIVA_SERVER_EXIT_OK)
    return status;

  if (argc != 1)
    {
      viva_server_usage_error (context, "%s", _("serve takes no arguments besides its options."));
      return VIVA_SERVER_EXIT_USAGE;
    }
  if (listen != NULL && !g_str_has_suffix (listen, ":0") && !viva_server_parse_address (listen, &host, &port))
    {
      viva_server_usage_error (context, _("“%s” is not an address to listen at: write it like 0.0.0.0:8443."), listen);
      return VIVA_SERVER_EXIT_USAGE;
    }
  if (listen != NULL && g_str_has_suffix (listen, ":0"))
    {
      host = g_strndup (listen, strlen (listen) - 2);
      if (host[0] == '\0')
        {
          g_free (host);
          host = g_strdup ("0.0.0.0");
        }
    }

  if (!(store = viva_server_open_store (&common)))
    return VIVA_SERVER_EXIT_FAILED;

  if (!(config = viva_server_load_config (common.state_dir, &error)) ||
      !(certificate = viva_server_load_certificate (common.state_dir, config, &error)))
    {
      viva_server_fail (&common, "%s", error->message);
      return VIVA_SERVER_EXIT_FAILED;
    }

  if (listen == NULL)
    {
      host = g_strdup (json_object_get_string_member_with_default (config, "listen", "0.0.0.0"));
      port = json_object_get_int_member_with_default (config, "port", VIVA_SERVER_DEFAULT_PORT);
    }

  if (base_url != NULL)
    {
      examiner = json_object_new ();
      json_object_set_string_member (examiner, "base_url", base_url);
      if (model != NULL)
        json_object_set_string_member (examiner, "model", model);
    }

  loop = g_main_loop_new (NULL, FALSE);
  api = viva_server_api_new (common.state_dir, store, certificate, &error);
  defenses = viva_server_defenses_new (api, examiner);
  viva_server_api_set_defenses (api, defenses);
  clock = viva_server_clock_new (api);
  viva_server_api_set_clock (api, clock);

  if (!viva_server_api_listen (api, host, port, &error))
    {
      viva_server_fail (&common, _("Could not listen at %s:%u: %s"), host, port, error->message);
      return VIVA_SERVER_EXIT_FAILED;
    }

  /* Only the defenses whose lease this node holds or takes; a dead
   * predecessor's here at once. */
  node_id = viva_server_node_new_id ();
  viva_server_node_take_over (store, node_id, common.state_dir);
  viva_server_defenses_set_holder (defenses, node_id);
  resumed = viva_server_defenses_resume_all (defenses, &error);
  if (error != NULL)
    {
      viva_server_fail (&common, "%s", error->message);
      return VIVA_SERVER_EXIT_FAILED;
    }
  /* After the defenses: a sitting whose time passed while the server was
   * down is handed in now, without defending twice what still runs. */
  viva_server_clock_restore_all (clock, &error);
  if (error != NULL)
    {
      viva_server_fail (&common, "%s", error->message);
      return VIVA_SERVER_EXIT_FAILED;
    }
  address = g_strdup_printf ("%s:%u", host, viva_server_api_get_port (api));
  /* Every defense's grade is a job now: a node alone grades as many at
   * once as it has processors, as its defenses' own graders did. */
  if (local_jobs < 0)
    local_jobs = (int)g_get_num_processors ();
  node = viva_server_node_start (api, node_id, common.state_dir, address, (guint)CLAMP (local_jobs, 0, 64));

  /* Before "listening" is said: a stop asked the moment after is a clean one. */
  term_id = g_unix_signal_add (SIGTERM, quit_cb, loop);
  int_id = g_unix_signal_add (SIGINT, quit_cb, loop);

  fingerprint = viva_server_keys_fingerprint (certificate);
  json_object_set_string_member (event, "host", host);
  json_object_set_int_member (event, "port", viva_server_api_get_port (api));
  json_object_set_string_member (event, "fingerprint", fingerprint);
  json_object_set_int_member (event, "resumed", resumed);
  json_object_set_string_member (event, "node", viva_server_node_get_id (node));
  if (common.json)
    viva_server_print_event ("listening", event);
  else
    {
      printf (_("Serving at https://%s:%u/ (certificate SHA-256 %s); %u defenses continued.\n"),
              host, viva_server_api_get_port (api), fingerprint, resumed);
      fflush (stdout);
    }

  g_main_loop_run (loop);
  g_source_remove (term_id);
  g_source_remove (int_id);
  viva_server_node_stop (node);

  viva_server_api_set_clock (api, NULL);
  viva_server_api_set_defenses (api, NULL);
  g_clear_object (&clock);
  g_clear_object (&defenses);

  return VIVA_SERVER_EXIT_OK;
}

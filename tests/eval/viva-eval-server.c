/* viva-eval-server.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "eval-test-models.h"

/* A scripted examiner over HTTP for the report card's GUI test: an
 * OpenAI-compatible server (vLLM's wire format) listing one model and
 * answering chat requests as eval-test-models.c's examiners do. It prints
 * its base URL on the first line of standard output and serves until
 * SIGTERM or until its standard input closes.
 *
 *   viva-eval-server [--kind strict|gullible|leaky|obedient|no-tools] [--delay MS]
 *
 * --delay makes each reply wait that long before its headers, as a model
 * that thinks does, so a person (or AT-SPI) can watch the progress. */

int
main (int   argc,
      char *argv[])
{
  static const char * const kinds[] = { "strict", "gullible", "leaky", "obedient", "no-tools", NULL };
  static const char * const models[] = { "examiner-7b", NULL };
  g_autofree char *kind = NULL;
  int delay = 0;
  const GOptionEntry entries[] = {
    { "delay", 0, 0, G_OPTION_ARG_INT, &delay, "milliseconds before each reply", "MS" },
    { "kind", 0, 0, G_OPTION_ARG_STRING, &kind, "strict, gullible, leaky, obedient or no-tools", "KIND" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(VivaTestServer) server = NULL;
  EvalModel model = { 0 };

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  for (guint i = 0; kind != NULL && kinds[i] != NULL; i++)
    if (g_str_equal (kind, kinds[i]))
      model.kind = i;
  model.delay_ms = MAX (delay, 0);

  server = viva_test_server_new ();
  viva_test_server_serve_models (server, models);
  eval_model_serve (server, &model);

  viva_test_server_serve_until_stdin_closes (server);

  return 0;
}

/* server-examiner.c: the scripted examiner (tests/lib's VivaTestExaminer)
 * as a model server of its own, for the exam server's tests that need a
 * defense to call its tools in a given way
 *
 *   server-examiner [--run CODE]…
 *
 * Each --run is one runPython call, in turn, after the code is read. It
 * prints its base URL (with /v1) and serves until its standard input
 * closes: with the test that started it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-test-examiner.h"
#include "viva-test-server.h"

int
main (int   argc,
      char *argv[])
{
  g_auto(GStrv) runs = NULL;
  const GOptionEntry entries[] = {
    { "run", 0, 0, G_OPTION_ARG_STRING_ARRAY, &runs, "one runPython call's code, in turn", "CODE" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(VivaTestServer) server = NULL;
  VivaTestExaminer examiner = { 0 };

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }

  examiner.runs = (const char * const *)runs;
  server = viva_test_server_new ();
  viva_test_examiner_serve (&examiner, server);
  viva_test_server_serve_until_stdin_closes (server);
  return 0;
}

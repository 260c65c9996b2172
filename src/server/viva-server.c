/* viva-server.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <gnutls/gnutls.h>
#include <locale.h>
#include <stdio.h>

#include "viva-core.h"
#include "viva-file-writer.h"
#include "viva-server-util.h"

/* viva-server: the exam server, a front beside the app and viva-cli. One
 * file per command, listed here. */

static const struct {
  const char        *name;
  VivaServerCommand  func;
  const char        *summary;
} commands[] = {
  { "init", viva_server_init_command, N_("Make a state folder: database, TLS certificate, signing key") },
  { "exam", viva_server_exam_command, N_("Add an exam and its roster (exam add EXAM.json --roster ROSTER.csv)") },
  { "codes", viva_server_codes_command, N_("Print each student’s sign-in code, or a page of seat cards") },
  { "serve", viva_server_serve_command, N_("Serve the exams over HTTPS") },
  { "status", viva_server_status_command, N_("Who is signed in, working, defending, handed in") },
  { "reports", viva_server_reports_command, N_("Write every signed report of an exam, as JSON and HTML") },
  { "routes", viva_server_routes_command, N_("List the API’s routes and who may use each") },
  { "worker-token", viva_server_worker_token_command, N_("Make a token for a grading worker of one exam") },
  { "worker", viva_server_worker_command, N_("Grade an exam’s submissions for its server (--server LINK --worker-token T)") },
};

static void
print_usage (FILE *out)
{
  fprintf (out, "%s\n", _("Usage: viva-server [--version] COMMAND [--state-dir DIR] [--json] [OPTIONS…]"));
  fprintf (out, "\n%s\n", _("Commands:"));
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (out, "  %-10s %s\n", commands[i].name, _(commands[i].summary));
  fprintf (out, "\n%s\n", _("Run “viva-server COMMAND --help” for a command’s options."));
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "");
  viva_core_init ();
  textdomain (GETTEXT_PACKAGE);
  gnutls_global_init ();

  if (argc < 2)
    {
      print_usage (stderr);
      return VIVA_SERVER_EXIT_USAGE;
    }

  if (g_str_equal (argv[1], "--version") || g_str_equal (argv[1], "-V"))
    {
      printf ("viva-server %s\n", PACKAGE_VERSION);
      return VIVA_SERVER_EXIT_OK;
    }

  if (g_str_equal (argv[1], "--help") || g_str_equal (argv[1], "-h") || g_str_equal (argv[1], "help"))
    {
      print_usage (stdout);
      return VIVA_SERVER_EXIT_OK;
    }

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      if (g_str_equal (commands[i].name, argv[1]))
        {
          int status = commands[i].func (argc - 1, argv + 1);

          viva_file_writer_flush ();
          return status;
        }
    }

  fprintf (stderr, _("viva-server: “%s” is not a command.\n\n"), argv[1]);
  print_usage (stderr);
  return VIVA_SERVER_EXIT_USAGE;
}

/* viva-cli.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <stdio.h>

#include "viva-core.h"
#include "viva-file-writer.h"
#include "viva-cli-commands.h"
#include "viva-cli-util.h"

static const struct {
  const char     *name;
  VivaCliCommand  func;
  const char     *summary;
} commands[] = {
  { "calibrate", viva_cli_calibrate, N_("Measure how well Viva agrees with your scores") },
  { "chat", viva_cli_chat, N_("Stream one reply from a model") },
  { "check", viva_cli_check, N_("Run a problem’s shown tests on code, as Check does") },
  { "class", viva_cli_class, N_("Collect a class’s reports, re-graded on this machine") },
  { "defend", viva_cli_defend, N_("Run a whole defense headless") },
  { "eval", viva_cli_eval, N_("Measure how well a model examines: the report card") },
  { "exam", viva_cli_exam, N_("Sign in to an exam server, or save code to it") },
  { "lab", viva_cli_lab, N_("Rehearse a lab’s exam against its model server") },
  { "models", viva_cli_models, N_("List the endpoint’s models") },
  { "pack", viva_cli_pack, N_("Validate or generate problem packs") },
  { "report", viva_cli_report, N_("Write a defense’s report as HTML or JSON") },
  { "resume", viva_cli_resume, N_("Continue a checkpointed defense") },
  { "run", viva_cli_run, N_("Run a Python file in the sandboxed worker") },
};

static void
print_usage (FILE *out)
{
  fprintf (out, "%s\n", _("Usage: viva-cli [--version] COMMAND [OPTIONS…]"));
  fprintf (out, "\n%s\n", _("Commands:"));
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (commands[i].name != NULL)
      fprintf (out, "  %-16s %s\n", commands[i].name, _(commands[i].summary));
  fprintf (out, "\n%s\n", _("Run “viva-cli COMMAND --help” for a command’s options."));
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "");
  viva_core_init ();
  textdomain (GETTEXT_PACKAGE);

  if (argc < 2)
    {
      print_usage (stderr);
      return VIVA_CLI_EXIT_USAGE;
    }

  if (g_str_equal (argv[1], "--version") || g_str_equal (argv[1], "-V"))
    {
      printf ("viva-cli %s\n", PACKAGE_VERSION);
      return VIVA_CLI_EXIT_OK;
    }

  if (g_str_equal (argv[1], "--help") || g_str_equal (argv[1], "-h") || g_str_equal (argv[1], "help"))
    {
      print_usage (stdout);
      return VIVA_CLI_EXIT_OK;
    }

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      if (commands[i].name != NULL && g_str_equal (commands[i].name, argv[1]))
        {
          int status = commands[i].func (argc - 1, argv + 1);

          /* Nothing a command queued is lost when the process ends. */
          viva_file_writer_flush ();
          return status;
        }
    }

  fprintf (stderr, _("viva-cli: “%s” is not a command.\n\n"), argv[1]);
  print_usage (stderr);
  return VIVA_CLI_EXIT_USAGE;
}

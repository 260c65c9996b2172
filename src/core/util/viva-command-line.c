/* viva-command-line.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>

#include "viva-command-line.h"
#include "viva-json-line.h"

/* The command-line fronts (viva-cli, viva-server) print their events and
 * their usage errors alike: the CLI contract in DESIGN.md is one. */

/**
 * viva_command_line_print_event:
 * @event: the value of the `"event"` key
 * @object: (nullable) (transfer none): the rest of the event
 *
 * Prints one JSON object on one line of standard output and flushes, so a
 * script reading the pipe sees each event as it happens.
 */
void
viva_command_line_print_event (const char *event,
                               JsonObject *object)
{
  g_autofree char *text = viva_json_line (event, object);

  fputs (text, stdout);
  fputc ('\n', stdout);
  fflush (stdout);
}

/**
 * viva_command_line_usage_error:
 * @program: the front's name, which starts the line (`viva-cli`)
 * @context: (nullable): the command's options, whose help follows
 *
 * Says on standard error why the command line is wrong, then the
 * command's help.
 */
void
viva_command_line_usage_error (const char     *program,
                               GOptionContext *context,
                               const char     *format,
                               ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  g_printerr ("%s: %s\n", program, message);
  if (context != NULL)
    {
      g_autofree char *help = g_option_context_get_help (context, TRUE, NULL);

      g_printerr ("\n%s", help);
    }
}

/**
 * viva_command_line_parse:
 *
 * Parses @argv with @context.
 *
 * Returns: %FALSE after saying why the command line is wrong
 */
gboolean
viva_command_line_parse (const char       *program,
                         GOptionContext   *context,
                         int              *argc,
                         char           ***argv)
{
  g_autoptr(GError) error = NULL;

  if (!g_option_context_parse (context, argc, argv, &error))
    {
      viva_command_line_usage_error (program, context, "%s", error->message);
      return FALSE;
    }
  return TRUE;
}

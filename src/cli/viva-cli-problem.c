/* viva-cli-problem.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "viva-cli-problem.h"
#include "viva-cli-util.h"

/**
 * viva_cli_problem_add_entries:
 *
 * Adds --pack, --problem and --code to @context's main group, first, so
 * every command that takes a problem says them the same way.
 */
void
viva_cli_problem_add_entries (VivaCliProblem *self,
                              GOptionContext *context)
{
  const GOptionEntry entries[] = {
    { "pack", 0, 0, G_OPTION_ARG_FILENAME, &self->pack_path, N_("The problem pack (viva-pack/1 JSON)"), N_("FILE") },
    { "problem", 0, 0, G_OPTION_ARG_STRING, &self->problem_id, N_("The problem’s id in the pack"), N_("ID") },
    { "code", 0, 0, G_OPTION_ARG_FILENAME, &self->code_path, N_("The student’s code"), N_("FILE") },
    { NULL }
  };

  G_STATIC_ASSERT (G_N_ELEMENTS (entries) == G_N_ELEMENTS (self->entries));

  /* The context keeps a pointer to the array: it lives in @self. */
  memcpy (self->entries, entries, sizeof entries);
  g_option_context_add_main_entries (context, self->entries, GETTEXT_PACKAGE);
}

/**
 * viva_cli_problem_check_usage:
 * @argc: what is left of the command line once parsed
 *
 * Returns: %FALSE, having said so, when an option is missing or anything
 *   else was given (the command exits with VIVA_CLI_EXIT_USAGE)
 */
gboolean
viva_cli_problem_check_usage (VivaCliProblem *self,
                              GOptionContext *context,
                              int             argc)
{
  if (argc != 1 || self->pack_path == NULL || self->problem_id == NULL || self->code_path == NULL)
    {
      viva_cli_usage_error (context, "%s", _("Give --pack, --problem and --code, and nothing else."));
      return FALSE;
    }
  return TRUE;
}

/**
 * viva_cli_problem_load:
 *
 * Loads the pack, finds the problem in it and reads the code.
 *
 * Returns: %FALSE, having said why, when one of them fails (the command
 *   exits with VIVA_CLI_EXIT_FAILED)
 */
gboolean
viva_cli_problem_load (VivaCliProblem *self)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  gsize length;

  if (!g_file_get_contents (self->pack_path, &text, &length, &error) ||
      !(self->pack = viva_pack_new_from_bytes ((self->pack_bytes = g_bytes_new_take (g_steal_pointer (&text), length)),
                                               &error)))
    {
      viva_cli_fail (_("Could not load the pack %s: %s"), self->pack_path, error->message);
      return FALSE;
    }
  if (!(self->problem = viva_pack_find_problem (self->pack, self->problem_id)))
    {
      viva_cli_fail (_("The pack %s has no problem “%s”."), self->pack_path, self->problem_id);
      return FALSE;
    }
  if (!g_file_get_contents (self->code_path, &self->code, NULL, &error))
    {
      viva_cli_fail (_("Could not read the code: %s"), error->message);
      return FALSE;
    }
  return TRUE;
}

void
viva_cli_problem_clear (VivaCliProblem *self)
{
  g_clear_pointer (&self->pack_path, g_free);
  g_clear_pointer (&self->problem_id, g_free);
  g_clear_pointer (&self->code_path, g_free);
  g_clear_pointer (&self->pack_bytes, g_bytes_unref);
  g_clear_object (&self->pack);
  self->problem = NULL;
  g_clear_pointer (&self->code, g_free);
}

/* viva-cli-util.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "viva-cli-util.h"
#include "viva-exam-session.h"
#include "viva-command-line.h"
#include "viva-model-address.h"
#include "viva-model-error.h"
#include "viva-file-writer.h"

/**
 * viva_cli_parse_options:
 *
 * Parses @argv with @context. Returns %VIVA_CLI_EXIT_OK, or
 * %VIVA_CLI_EXIT_USAGE after printing why the command line is wrong.
 */
int
viva_cli_parse_options (GOptionContext   *context,
                        int              *argc,
                        char           ***argv)
{
  return viva_command_line_parse ("viva-cli", context, argc, argv) ? VIVA_CLI_EXIT_OK : VIVA_CLI_EXIT_USAGE;
}

void
viva_cli_fail (const char *format,
               ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  g_printerr ("viva-cli: %s\n", message);
}

/**
 * viva_cli_write_text:
 * @path: a file named on the command line
 *
 * Writes @text to @path through the file writer and waits for it, so the
 * file is whole on disk (or untouched, with @error set) when this returns.
 */
gboolean
viva_cli_write_text (const char  *path,
                     const char  *text,
                     GError     **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GBytes) bytes = g_bytes_new_static (text, strlen (text));

  return viva_file_writer_write (file, bytes, 0644, VIVA_FILE_WRITER_NONE, error);
}

static guint
display_width_of (gunichar c)
{
  if (g_unichar_iszerowidth (c))
    return 0;
  return g_unichar_iswide (c) ? 2 : 1;
}

/**
 * viva_cli_pad:
 * @text: UTF-8 text for a table's cell
 * @columns: the cell's width on a terminal
 *
 * A terminal shows a CJK character two columns wide and a combining mark
 * none, so printf's byte widths misalign a table of names: this pads by
 * what the terminal shows. Like printf, it never shortens a longer text.
 *
 * Returns: (transfer full): @text, at least @columns wide
 */
char *
viva_cli_pad (const char *text,
              guint       columns)
{
  GString *cell = g_string_new (text);
  guint width = 0;

  g_return_val_if_fail (text != NULL, NULL);

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    width += display_width_of (g_utf8_get_char (p));

  for (; width < columns; width++)
    g_string_append_c (cell, ' ');

  return g_string_free (cell, FALSE);
}

/**
 * viva_cli_session_folder:
 * @session: what the user typed: a session id, or the path of a session's
 *   folder (as `defend --session-dir` made it)
 * @session_dir: (nullable): the folder of sessions given with
 *   `--session-dir`, or %NULL for the default one
 *
 * Returns: (transfer full): the session's folder
 */
char *
viva_cli_session_folder (const char *session,
                         const char *session_dir)
{
  g_autofree char *default_dir = NULL;

  g_return_val_if_fail (session != NULL, NULL);

  /* A path (it names a folder, or has a separator) is the session itself,
   * so a session made with --session-dir needs no second --session-dir. */
  if (session_dir == NULL &&
      (strchr (session, G_DIR_SEPARATOR) != NULL ||
       g_file_test (session, G_FILE_TEST_IS_DIR)))
    return g_canonicalize_filename (session, NULL);

  if (session_dir != NULL)
    return g_build_filename (session_dir, session, NULL);

  default_dir = viva_exam_session_dup_default_dir ();
  return g_build_filename (default_dir, session, NULL);
}

/**
 * viva_cli_check_base_url:
 * @base_url: (inout) (nullable): the `--base-url` given, or %NULL
 *
 * An address given on the command line is checked before anything is
 * asked of it: "localhost:11434/v1" gets its http://, and what is no
 * server address is a usage error naming the flag.
 *
 * Returns: %FALSE after a usage error
 */
gboolean
viva_cli_check_base_url (GOptionContext  *context,
                         char           **base_url)
{
  g_autoptr(GError) error = NULL;
  char *completed;

  if (*base_url == NULL)
    return TRUE;

  if (!(completed = viva_model_address_complete (*base_url, &error)))
    {
      viva_cli_usage_error (context, _("--base-url: %s"), error->message);
      return FALSE;
    }

  g_free (*base_url);
  *base_url = completed;
  return TRUE;
}

/**
 * viva_cli_model_error_message:
 * @base_url: the address the model used
 *
 * Returns: (transfer full): @error's message, saying where to change the
 *   address in the CLI's own words: the model's send a person to
 *   Preferences, which is right in the app.
 */
char *
viva_cli_model_error_message (const GError *error,
                              const char   *base_url)
{
  if (g_error_matches (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_ADDRESS))
    return g_strdup_printf ("%s %s", error->message,
                            _("Pass the address with --base-url, or set it in Viva’s Preferences (the base-url setting)."));

  if (g_error_matches (error, VIVA_MODEL_ERROR, VIVA_MODEL_ERROR_NOT_RUNNING))
    return g_strdup_printf (_("No model server is running at %s — start it, or give another address with --base-url."),
                            base_url);

  return g_strdup (error->message);
}

/**
 * viva_cli_load_answers:
 *
 * Returns: (transfer full): the answers of an --answers file, a JSON array
 *   of strings given in order
 */
GPtrArray *
viva_cli_load_answers (const char  *path,
                       GError     **error)
{
  g_autofree char *contents = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GPtrArray) answers = g_ptr_array_new_with_free_func (g_free);
  JsonArray *array;

  if (!g_file_get_contents (path, &contents, NULL, error))
    return NULL;

  if (!(node = json_from_string (contents, error)))
    return NULL;

  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s must hold a JSON array of strings, one answer each."), path);
      return NULL;
    }

  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);

      if (!JSON_NODE_HOLDS_VALUE (element) || json_node_get_value_type (element) != G_TYPE_STRING)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("Answer %u in %s is not a string."), i + 1, path);
          return NULL;
        }
      g_ptr_array_add (answers, g_strdup (json_node_get_string (element)));
    }

  return g_steal_pointer (&answers);
}

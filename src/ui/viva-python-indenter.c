/* viva-python-indenter.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-python-indenter.h"

/* Python's indentation on Return, as beginners' editors (IDLE, Thonny) do
 * it: one level more after a line that opens a block (ends in ':', or in
 * an open bracket), one less after a line that leaves one (return, pass,
 * break, continue, raise), the same otherwise. GtkSourceView 5.6 only
 * copies the previous line's indentation. */

struct _VivaPythonIndenter
{
  GObject parent_instance;
};

static void indenter_iface_init (GtkSourceIndenterInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (VivaPythonIndenter, viva_python_indenter, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (GTK_SOURCE_TYPE_INDENTER, indenter_iface_init))

static const char * const leaving[] = { "return", "pass", "break", "continue", "raise", NULL };

/* The line's code without a trailing comment or spaces; a '#' inside a
 * string is not a comment. */
static char *
code_of_line (const char *line)
{
  char quote = 0;
  gsize i;

  for (i = 0; line[i] != '\0'; i++)
    {
      char c = line[i];

      if (quote != 0)
        {
          if (c == '\\' && line[i + 1] != '\0')
            i++;
          else if (c == quote)
            quote = 0;
        }
      else if (c == '\'' || c == '"')
        quote = c;
      else if (c == '#')
        break;
    }

  return g_strchomp (g_strndup (line, i));
}

static guint
indentation_of (const char *line,
                guint       tab_width)
{
  guint columns = 0;

  for (; *line == ' ' || *line == '\t'; line++)
    columns = *line == '\t' ? (columns / tab_width + 1) * tab_width : columns + 1;

  return columns;
}

static gboolean
leaves_block (const char *code)
{
  const char *word = code + strspn (code, " \t");

  for (guint i = 0; leaving[i] != NULL; i++)
    {
      gsize n = strlen (leaving[i]);

      if (strncmp (word, leaving[i], n) == 0 &&
          (word[n] == '\0' || word[n] == ' ' || word[n] == '(' || word[n] == ';'))
        return TRUE;
    }

  return FALSE;
}

/**
 * viva_python_indenter_columns_after:
 * @line: a line of Python, without its newline
 * @indent_width: the columns of one indentation level
 *
 * Returns: the indentation, in columns, of the line that follows @line
 */
guint
viva_python_indenter_columns_after (const char *line,
                                    guint       indent_width)
{
  g_autofree char *code = NULL;
  guint columns;
  gsize len;

  g_return_val_if_fail (line != NULL, 0);

  columns = indentation_of (line, indent_width);
  code = code_of_line (line);
  len = strlen (code);

  if (len == 0)
    return columns;

  if (code[len - 1] == ':' || code[len - 1] == '(' || code[len - 1] == '[' || code[len - 1] == '{')
    return columns + indent_width;

  if (leaves_block (code))
    return columns >= indent_width ? columns - indent_width : 0;

  return columns;
}

static gboolean
viva_python_indenter_is_trigger (GtkSourceIndenter *indenter,
                                 GtkSourceView     *view,
                                 const GtkTextIter *location,
                                 GdkModifierType    state,
                                 guint              keyval)
{
  if ((state & (GDK_SHIFT_MASK | GDK_CONTROL_MASK | GDK_ALT_MASK)) != 0)
    return FALSE;

  return keyval == GDK_KEY_Return || keyval == GDK_KEY_KP_Enter;
}

static void
viva_python_indenter_indent (GtkSourceIndenter *indenter,
                             GtkSourceView     *view,
                             GtkTextIter       *iter)
{
  GtkTextBuffer *buffer = gtk_text_iter_get_buffer (iter);
  guint indent_width = gtk_source_view_get_indent_width (view);
  GtkTextIter previous_start, previous_end, line_start, text_start;
  g_autofree char *previous = NULL;
  g_autofree char *indent = NULL;
  guint columns;

  if ((int)indent_width <= 0)
    indent_width = gtk_source_view_get_tab_width (view);

  if (gtk_text_iter_get_line (iter) == 0)
    return;

  previous_start = *iter;
  gtk_text_iter_set_line_offset (&previous_start, 0);
  gtk_text_iter_backward_line (&previous_start);
  previous_end = previous_start;
  if (!gtk_text_iter_ends_line (&previous_end))
    gtk_text_iter_forward_to_line_end (&previous_end);
  previous = gtk_text_iter_get_slice (&previous_start, &previous_end);

  columns = viva_python_indenter_columns_after (previous, indent_width);
  if (gtk_source_view_get_insert_spaces_instead_of_tabs (view))
    {
      indent = g_strnfill (columns, ' ');
    }
  else
    {
      guint tab_width = gtk_source_view_get_tab_width (view);
      g_autofree char *tabs = g_strnfill (columns / tab_width, '\t');
      g_autofree char *spaces = g_strnfill (columns % tab_width, ' ');

      indent = g_strconcat (tabs, spaces, NULL);
    }

  /* Replace whatever blanks the new line starts with (those that followed
   * the cursor) by the indentation. */
  line_start = *iter;
  gtk_text_iter_set_line_offset (&line_start, 0);
  text_start = line_start;
  while (!gtk_text_iter_ends_line (&text_start) &&
         (gtk_text_iter_get_char (&text_start) == ' ' || gtk_text_iter_get_char (&text_start) == '\t'))
    gtk_text_iter_forward_char (&text_start);

  gtk_text_buffer_delete (buffer, &line_start, &text_start);
  gtk_text_buffer_insert (buffer, &line_start, indent, -1);
  *iter = line_start;
}

static void
indenter_iface_init (GtkSourceIndenterInterface *iface)
{
  iface->is_trigger = viva_python_indenter_is_trigger;
  iface->indent = viva_python_indenter_indent;
}

static void
viva_python_indenter_class_init (VivaPythonIndenterClass *klass)
{
}

static void
viva_python_indenter_init (VivaPythonIndenter *self)
{
}

/**
 * viva_python_indenter_new:
 *
 * Returns: (transfer full): an indenter for gtk_source_view_set_indenter()
 */
GtkSourceIndenter *
viva_python_indenter_new (void)
{
  return g_object_new (VIVA_TYPE_PYTHON_INDENTER, NULL);
}

/* viva-python-indenter.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-python-indenter.h"

/* Python's indentation on Return, as beginners' editors (IDLE, Thonny) do
 * it: one level more after a statement that opens a block (ends in ':'),
 * one less after one that leaves a block (return, pass, break, continue,
 * raise), lined up with the open bracket inside brackets, the same
 * otherwise. GtkSourceView 5.6 only copies the previous line's
 * indentation. */

struct _VivaPythonIndenter
{
  GObject parent_instance;
};

static void indenter_iface_init (GtkSourceIndenterInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (VivaPythonIndenter, viva_python_indenter, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (GTK_SOURCE_TYPE_INDENTER, indenter_iface_init))

static const char * const leaving[] = { "return", "pass", "break", "continue", "raise", NULL };

/* The deepest brackets a statement may nest before the rest is read as if
 * flat; a student's code never comes near it. */
#define MAX_OPEN_BRACKETS 64
#define LINES_READ_BACK 2000

typedef struct
{
  guint    line_indent;     /* the columns of the line the bracket is on */
  guint    content_column;  /* where the first code after it starts */
  gboolean has_content;
} OpenBracket;

/* What indentation needs of the text before the cursor, read as Python's
 * tokenizer would: strings, comments, brackets and where each logical
 * line starts. */
typedef struct
{
  guint        tab_width;
  OpenBracket  open[MAX_OPEN_BRACKETS];
  guint        n_open;
  guint        n_lost;          /* brackets past MAX_OPEN_BRACKETS */
  const char  *logical_start;   /* the first code of the logical line */
  guint        logical_indent;
  char         last_code;       /* the logical line's last character of code */
  guint        line_indent;     /* the physical line's indentation */
  guint        column;
  gboolean     at_indent;
  gboolean     continued;       /* a backslash ended the line */
  char         quote;           /* inside a string: its quote character */
  gboolean     triple;
} Scan;

static guint
next_column (guint column,
             char  c,
             guint tab_width)
{
  return c == '\t' ? (column / tab_width + 1) * tab_width : column + 1;
}

static gboolean
leaves_block (const char *code)
{
  for (guint i = 0; leaving[i] != NULL; i++)
    {
      gsize n = strlen (leaving[i]);

      if (strncmp (code, leaving[i], n) == 0 &&
          strchr (" \t(;#\n", code[n]) != NULL)
        return TRUE;
    }

  return FALSE;
}

static gboolean
in_logical_line (const Scan *scan)
{
  return scan->n_open > 0 || scan->n_lost > 0 || scan->continued ||
         (scan->quote != 0 && scan->triple);
}

static void
scan_newline (Scan *scan)
{
  if (scan->quote != 0 && !scan->triple)
    scan->quote = 0;   /* an unclosed one-line string ends with its line */

  if (!in_logical_line (scan))
    {
      scan->logical_start = NULL;
      scan->last_code = 0;
    }

  scan->column = 0;
  scan->line_indent = 0;
  scan->at_indent = TRUE;
  scan->continued = FALSE;
}

static void
scan_code (Scan       *scan,
           const char *p,
           char        c)
{
  if (scan->logical_start == NULL)
    {
      scan->logical_start = p;
      scan->logical_indent = scan->line_indent;
    }

  if (scan->n_open > 0 && !scan->open[scan->n_open - 1].has_content &&
      strchr (")]}", c) == NULL)
    {
      scan->open[scan->n_open - 1].has_content = TRUE;
      scan->open[scan->n_open - 1].content_column = scan->column;
    }

  if (c == '(' || c == '[' || c == '{')
    {
      if (scan->n_open < MAX_OPEN_BRACKETS)
        scan->open[scan->n_open++] = (OpenBracket) { scan->line_indent, 0, FALSE };
      else
        scan->n_lost++;
    }
  else if (c == ')' || c == ']' || c == '}')
    {
      if (scan->n_lost > 0)
        scan->n_lost--;
      else if (scan->n_open > 0)
        scan->n_open--;
    }

  scan->last_code = c;
}

static void
scan_text (Scan       *scan,
           const char *text)
{
  const char *p = text;

  scan->at_indent = TRUE;

  while (*p != '\0')
    {
      char c = *p;
      gsize n = 1;

      if (c == '\n')
        {
          scan_newline (scan);
          p++;
          continue;
        }

      if (scan->at_indent && (c == ' ' || c == '\t'))
        {
          scan->column = scan->line_indent = next_column (scan->column, c, scan->tab_width);
          p++;
          continue;
        }
      scan->at_indent = FALSE;

      if (scan->quote != 0)
        {
          if (c == '\\' && p[1] != '\0' && p[1] != '\n')
            n = 2;
          else if (c == scan->quote && (!scan->triple || (p[1] == c && p[2] == c)))
            {
              n = scan->triple ? 3 : 1;
              scan->quote = 0;
              scan->last_code = c;
            }
        }
      else if (c == '#')
        {
          while (p[n] != '\0' && p[n] != '\n')
            n++;
        }
      else if (c == '\\' && (p[1] == '\n' || p[1] == '\0'))
        {
          scan->continued = TRUE;
        }
      else if (c != ' ' && c != '\t')
        {
          scan_code (scan, p, c);
          if (c == '\'' || c == '"')
            {
              scan->quote = c;
              scan->triple = p[1] == c && p[2] == c;
              n = scan->triple ? 3 : 1;
            }
        }

      for (gsize i = 0; i < n && p[i] != '\0'; i++)
        scan->column = next_column (scan->column, p[i], scan->tab_width);
      for (gsize i = 0; i < n && *p != '\0'; i++)
        p++;
    }
}

/**
 * viva_python_indenter_columns_after:
 * @text: Python up to the end of a line, without its newline: that line
 *   alone, or the lines before it too (a statement may span several)
 * @indent_width: the columns of one indentation level
 *
 * Inside brackets the next line lines up with the first code after the
 * open bracket, or is one level in from the bracket's line when nothing
 * follows the bracket there (IDLE's and Thonny's rule); after a statement
 * that spans lines it keeps the indentation the statement started with.
 *
 * Returns: the indentation, in columns, of the line that follows @text
 */
guint
viva_python_indenter_columns_after (const char *text,
                                    guint       indent_width)
{
  Scan scan = { 0, };

  g_return_val_if_fail (text != NULL, 0);

  scan.tab_width = MAX (indent_width, 1);
  scan_text (&scan, text);

  if (scan.quote != 0 && scan.triple)
    return scan.line_indent;

  if (scan.n_open > 0)
    {
      const OpenBracket *open = &scan.open[scan.n_open - 1];

      return open->has_content ? open->content_column : open->line_indent + indent_width;
    }

  if (scan.logical_start == NULL)
    return scan.line_indent;   /* a blank or comment line keeps its own */

  if (scan.continued)
    return scan.logical_indent + indent_width;

  if (scan.last_code == ':')
    return scan.logical_indent + indent_width;

  if (leaves_block (scan.logical_start))
    return scan.logical_indent >= indent_width ? scan.logical_indent - indent_width : 0;

  return scan.logical_indent;
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

  /* A statement may span lines, so the indenter reads back from well
   * before the line above (a student's file is a few hundred lines). */
  previous_end = *iter;
  gtk_text_iter_set_line_offset (&previous_end, 0);
  gtk_text_iter_backward_line (&previous_end);
  if (!gtk_text_iter_ends_line (&previous_end))
    gtk_text_iter_forward_to_line_end (&previous_end);
  gtk_text_buffer_get_iter_at_line (buffer, &previous_start,
                                    MAX (0, gtk_text_iter_get_line (&previous_end) - LINES_READ_BACK));
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

/* test-python-indenter.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-python-indenter.h"

/* The editor's Python indentation on Return, line by line as a beginner
 * types, and in a real GtkSourceView buffer. */

static void
test_columns_after (void)
{
  static const struct { const char *line; guint columns; } cases[] = {
    { "def f(x):", 4 },
    { "    if x:", 8 },
    { "if x:  # a comment", 4 },
    { "x = 1", 0 },
    { "    y = 2", 4 },
    { "        return y", 4 },
    { "    return", 0 },
    { "    pass", 0 },
    { "        break", 4 },
    { "        continue", 4 },
    { "    raise ValueError(\"no\")", 0 },
    { "return", 0 },
    { "    returned = 3", 4 },
    { "    passes = []", 4 },
    { "    s = \"a:\"", 4 },
    { "    s = 'a # not a comment:'", 4 },
    { "    xs = [", 8 },
    { "    f(", 8 },
    { "\tif x:", 8 },
    { "", 0 },
    { "    ", 4 },
    { "    # just a comment", 4 },
    /* Inside brackets: line up with the first code after the bracket, or
     * one level in when nothing follows it (IDLE, Thonny). */
    { "result = knn(X, y,", 13 },
    { "    total = sum(values,", 16 },
    { "d = {'a': [1, 2,", 11 },
    { "d = {'a': [1, 2],", 5 },
    { "f(a, (b,", 6 },
    { "s = len(\"(\",", 8 },
    { "x = f(a)  # (", 0 },
    /* After a statement spanning lines, back to where it started. */
    { "result = knn(X, y,\n             k=3)", 0 },
    { "    total = sum(values,\n                start)", 4 },
    { "def distance(a,\n             b):", 4 },
    { "    if (a and\n        b):", 8 },
    { "    return max(a,\n               b)", 0 },
    { "xs = [\n    1,\n    2,", 4 },
    { "xs = [\n    1,\n]", 0 },
    { "x = 1 + \\", 4 },
    { "s = \"\"\"text\n  more", 2 },
    { "s = \"\"\"(\n\"\"\"", 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_test_message ("%s", cases[i].line);
      g_assert_cmpuint (viva_python_indenter_columns_after (cases[i].line, 4), ==, cases[i].columns);
    }
}

static char *
press_return (GtkSourceView *view,
              const char    *text)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (view));
  GtkSourceIndenter *indenter = gtk_source_view_get_indenter (view);
  GtkTextIter iter, start, end;

  gtk_text_buffer_set_text (buffer, text, -1);
  gtk_text_buffer_get_end_iter (buffer, &iter);
  g_assert_true (gtk_source_indenter_is_trigger (indenter, view, &iter, 0, GDK_KEY_Return));
  g_assert_false (gtk_source_indenter_is_trigger (indenter, view, &iter, GDK_SHIFT_MASK, GDK_KEY_Return));
  gtk_text_buffer_insert (buffer, &iter, "\n", 1);
  gtk_source_indenter_indent (indenter, view, &iter);
  gtk_text_buffer_insert (buffer, &iter, "|", 1);
  gtk_text_buffer_get_bounds (buffer, &start, &end);

  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

static void
test_in_view (void)
{
  GtkSourceView *view = GTK_SOURCE_VIEW (g_object_ref_sink (gtk_source_view_new ()));
  g_autoptr(GtkSourceIndenter) indenter = viva_python_indenter_new ();
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;
  g_autofree char *c = NULL;
  g_autofree char *d = NULL;
  g_autofree char *e = NULL;

  gtk_source_view_set_indent_width (view, 4);
  gtk_source_view_set_insert_spaces_instead_of_tabs (view, TRUE);
  gtk_source_view_set_indenter (view, indenter);

  a = press_return (view, "def f(x):");
  g_assert_cmpstr (a, ==, "def f(x):\n    |");
  b = press_return (view, "def f(x):\n    if x:\n        return 1");
  g_assert_cmpstr (b, ==, "def f(x):\n    if x:\n        return 1\n    |");
  c = press_return (view, "x = 1");
  g_assert_cmpstr (c, ==, "x = 1\n|");
  d = press_return (view, "def f(x):\n    return knn(X, y,");
  g_assert_cmpstr (d, ==, "def f(x):\n    return knn(X, y,\n               |");
  e = press_return (view, "def f(x):\n    y = g(a,\n          b)");
  g_assert_cmpstr (e, ==, "def f(x):\n    y = g(a,\n          b)\n    |");

  g_object_unref (view);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  gtk_source_init ();

  g_test_add_func ("/viva/python-indenter/columns-after", test_columns_after);
  g_test_add_func ("/viva/python-indenter/in-view", test_in_view);

  return g_test_run ();
}

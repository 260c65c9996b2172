/* viva-error-table.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "viva-error-table.h"

/* Explain this error without a model: a small table of the errors
 * beginners meet most, each a few sentences in the interface's language
 * that say what it means and where to look, never what to write. The
 * failing frame's variables (as the worker described them) are quoted so
 * the student sees the values at that moment; a NameError gets "did you
 * mean" from the frame's names and the builtins, by edit distance, as
 * Python's own traceback does. */

#define MAX_SHOWN_LOCALS 8

/* The builtins a beginner calls; what a misspelt name most often meant. */
static const char * const builtins[] = {
  "abs", "all", "any", "bool", "dict", "divmod", "enumerate", "filter", "float", "format",
  "input", "int", "isinstance", "len", "list", "map", "max", "min", "next", "open", "ord",
  "chr", "pow", "print", "range", "repr", "reversed", "round", "set", "sorted", "str", "sum",
  "tuple", "type", "zip", "None", "True", "False", "append", "return",
};

/* Edit distance with swapped neighbours as one edit (optimal string
 * alignment), case ignored: "mni" is one slip from "min". On bytes: names
 * are ASCII in nearly every case. */
static guint
distance (const char *a,
          const char *b)
{
  gsize la = strlen (a), lb = strlen (b);
  g_autofree guint *d = g_new0 (guint, (la + 1) * (lb + 1));

#define D(i, j) d[(i) * (lb + 1) + (j)]
  for (gsize i = 0; i <= la; i++)
    D (i, 0) = i;
  for (gsize j = 0; j <= lb; j++)
    D (0, j) = j;
  for (gsize i = 1; i <= la; i++)
    for (gsize j = 1; j <= lb; j++)
      {
        guint cost = g_ascii_tolower (a[i - 1]) == g_ascii_tolower (b[j - 1]) ? 0 : 1;

        D (i, j) = MIN (MIN (D (i - 1, j) + 1, D (i, j - 1) + 1), D (i - 1, j - 1) + cost);
        if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
          D (i, j) = MIN (D (i, j), D (i - 2, j - 2) + 1);
      }
  return D (la, lb);
#undef D
}

static void
consider (const char  *name,
          const char  *candidate,
          const char **best,
          guint       *best_distance)
{
  guint d;

  if (g_str_equal (name, candidate) || strlen (candidate) > 64)
    return;
  d = distance (name, candidate);
  if (d < *best_distance)
    {
      *best = candidate;
      *best_distance = d;
    }
}

/**
 * viva_error_table_did_you_mean:
 * @name: a name Python did not know
 * @frame: (nullable): the frame it was used in, whose names are candidates
 *
 * Returns: (transfer full) (nullable): the nearest known name, when it is
 *   close enough to be a slip (Python's own rule: at most a third of the
 *   name's length, plus one, edits away)
 */
char *
viva_error_table_did_you_mean (const char         *name,
                               const VivaRunFrame *frame)
{
  const char *best = NULL;
  guint best_distance = G_MAXUINT;
  guint allowed;

  g_return_val_if_fail (name != NULL, NULL);

  if (strlen (name) == 0 || strlen (name) > 64)
    return NULL;

  for (guint i = 0; frame != NULL && i < frame->locals->len; i++)
    consider (name, ((VivaRunLocal *) g_ptr_array_index (frame->locals, i))->name, &best, &best_distance);
  for (guint i = 0; i < G_N_ELEMENTS (builtins); i++)
    consider (name, builtins[i], &best, &best_distance);

  allowed = (strlen (name) + 3) / 3;
  if (best == NULL || best_distance > allowed)
    return NULL;
  return g_strdup (best);
}

/* The text between the first pair of quotes of @message: the name or key
 * Python's messages quote. */
static char *
quoted (const char *message)
{
  const char *start = message ? strchr (message, '\'') : NULL;
  const char *end = start ? strchr (start + 1, '\'') : NULL;

  if (end == NULL)
    return NULL;
  return g_strndup (start + 1, end - start - 1);
}

/* The last quoted part: the attribute of "'list' object has no attribute 'x'". */
static char *
last_quoted (const char *message)
{
  const char *end = message ? strrchr (message, '\'') : NULL;
  const char *start = NULL;

  for (const char *p = message; end != NULL && p < end; p++)
    if (*p == '\'')
      start = p;
  if (start == NULL)
    return NULL;
  return g_strndup (start + 1, end - start - 1);
}

static gboolean
contains (const char *message,
          const char *part)
{
  return message != NULL && strstr (message, part) != NULL;
}

static void
append_locals (GString            *out,
               const VivaRunFrame *frame)
{
  guint n;

  if (frame == NULL || frame->locals->len == 0)
    return;

  g_string_append (out, "\n\n");
  if (g_str_equal (frame->function, "<module>"))
    g_string_append (out, _("The variables at that moment:"));
  else
    g_string_append_printf (out, _("The variables of %s() at that moment:"), frame->function);
  n = MIN (frame->locals->len, MAX_SHOWN_LOCALS);
  for (guint i = 0; i < n; i++)
    {
      const VivaRunLocal *local = g_ptr_array_index (frame->locals, i);

      if (g_str_equal (local->type_name, "module") || g_str_equal (local->type_name, "function") ||
          g_str_equal (local->type_name, "type"))
        continue;
      g_string_append_printf (out, "\n  %s = %s", local->name, local->value);
    }
}

/**
 * viva_error_table_explain:
 * @error_type: the exception's class name, such as `NameError`
 * @message: (nullable): its message
 * @line: the line of the student's code, 0 when unknown
 * @frame: (nullable): the failing frame with its variables
 *
 * Returns: (transfer full): a few sentences in the interface's language
 *   that say what the error means and where to look, without the fix
 */
char *
viva_error_table_explain (const char         *error_type,
                          const char         *message,
                          int                 line,
                          const VivaRunFrame *frame)
{
  g_autoptr(GString) out = g_string_new (NULL);
  g_autofree char *name = quoted (message);
  g_autofree char *attribute = NULL;

  g_return_val_if_fail (error_type != NULL, NULL);

  if (line > 0)
    g_string_append_printf (out, _("%s on line %d."), error_type, line);
  else
    g_string_append_printf (out, _("%s."), error_type);
  g_string_append_c (out, ' ');

  if (g_str_equal (error_type, "UnboundLocalError"))
    g_string_append_printf (out, _("The function uses its variable “%s” before giving it a value. A name that is assigned anywhere in a function is that function’s own from its first line, so the value outside is not used. Look at where it gets its first value."),
                            name ? name : "?");
  else if (g_str_equal (error_type, "NameError"))
    {
      g_autofree char *guess = name ? viva_error_table_did_you_mean (name, frame) : NULL;

      g_string_append_printf (out, _("Python does not know the name “%s”: nothing gave it a value before this line, or it is spelled differently where it was defined. Names are case-sensitive, and text needs quotes."),
                              name ? name : "?");
      if (guess != NULL)
        {
          g_string_append_c (out, ' ');
          g_string_append_printf (out, _("Did you mean “%s”?"), guess);
        }
    }
  else if (g_str_equal (error_type, "IndentationError") || g_str_equal (error_type, "TabError"))
    g_string_append (out, _("The indentation does not fit. After a line that ends with a colon (if, for, while, def) the next lines are indented one step more, and the lines of one block all start at the same column. Mixing tabs and spaces confuses it too."));
  else if (g_str_equal (error_type, "SyntaxError"))
    g_string_append (out, _("Python could not read this line as Python. Look for a missing colon, bracket or quote, here or on the line before: the mistake is often just before where Python noticed it."));
  else if ((g_str_equal (error_type, "TypeError") || g_str_equal (error_type, "AttributeError")) &&
           contains (message, "NoneType"))
    g_string_append (out, _("A value is None where something else was needed. A function without a return statement gives None, and so do methods that change a list in place, such as sort() and append(). Find where this value came from."));
  else if (g_str_equal (error_type, "TypeError"))
    g_string_append (out, _("An operation got a value of a type it cannot work with, such as adding a number to text or calling something that is not a function. Compare the types of the values on this line with what the operation expects."));
  else if (g_str_equal (error_type, "IndexError"))
    g_string_append (out, _("The code asked for a position a list, tuple or string does not have. A sequence of n items has positions 0 to n − 1, so the last one is n − 1. Check the index against the length on this line."));
  else if (g_str_equal (error_type, "KeyError"))
    g_string_append_printf (out, _("The dictionary has no key %s. Check the key’s spelling and type (the text “1” is not the number 1), and whether it was ever put in."),
                            message && *message ? message : "?");
  else if (g_str_equal (error_type, "ZeroDivisionError"))
    g_string_append (out, _("The code divided by zero. Look at how the divisor got its value: an empty list’s length or a count that never grew are common causes."));
  else if (g_str_equal (error_type, "RecursionError"))
    g_string_append (out, _("A function called itself too many times in a row (about a thousand deep). Usually the case that returns without calling again is missing or never reached: check that every call moves closer to it."));
  else if (g_str_equal (error_type, "AttributeError") && (attribute = last_quoted (message)))
    g_string_append_printf (out, _("This value has no attribute or method “%s”. Check its spelling and the value’s type: the method may belong to another type."),
                            attribute ? attribute : "?");
  else if (g_str_equal (error_type, "ValueError") && contains (message, "unpack"))
    g_string_append (out, _("The number of names on the left of = is not the number of values on the right. Count both sides, or look at what the value on the right holds."));
  else if (g_str_equal (error_type, "ValueError"))
    g_string_append (out, _("A function got a value of the right type but with content it cannot use, such as int(\"abc\"). Look at the value passed on this line."));
  else if (g_str_equal (error_type, "ModuleNotFoundError") || g_str_equal (error_type, "ImportError"))
    g_string_append (out, _("This module is not available here, or its name is spelled differently. Viva’s Python has the standard library, numpy and matplotlib."));
  else if (g_str_equal (error_type, "AssertionError"))
    g_string_append (out, _("An assert found its condition false: a value is not what the code claims it is at this point."));
  else
    g_string_append (out, _("Read the last line of the traceback: it names the error and what went wrong. Then look at the values on that line."));

  append_locals (out, frame);
  return g_string_free (g_steal_pointer (&out), FALSE);
}

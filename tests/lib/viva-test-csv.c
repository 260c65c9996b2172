/* viva-test-csv.c: the class results' CSV files read back as RFC 4180, the
 * way README "Class results" says they are written, so a test asserts the
 * cells a teacher's spreadsheet shows.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "viva-test-csv.h"

/**
 * viva_test_parse_csv:
 * @text: a CSV file's contents, CRLF line ends
 *
 * Asserts the text is whole (no open quote, a last line ended).
 *
 * Returns: (transfer full) (element-type GPtrArray): the rows, each a
 *   #GPtrArray of cell strings, the header first
 */
GPtrArray *
viva_test_parse_csv (const char *text)
{
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify)g_ptr_array_unref);
  GPtrArray *row = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GString) cell = g_string_new (NULL);
  gboolean quoted = FALSE;

  for (const char *p = text; *p; p++)
    {
      if (quoted)
        {
          if (*p == '"' && p[1] == '"')
            g_string_append_c (cell, *p++);
          else if (*p == '"')
            quoted = FALSE;
          else
            g_string_append_c (cell, *p);
        }
      else if (*p == '"')
        quoted = TRUE;
      else if (*p == ',')
        {
          g_ptr_array_add (row, g_strdup (cell->str));
          g_string_truncate (cell, 0);
        }
      else if (*p == '\r' && p[1] == '\n')
        {
          p++;
          g_ptr_array_add (row, g_strdup (cell->str));
          g_string_truncate (cell, 0);
          g_ptr_array_add (rows, row);
          row = g_ptr_array_new_with_free_func (g_free);
        }
      else
        g_string_append_c (cell, *p);
    }

  g_assert_false (quoted);
  g_assert_cmpuint (row->len, ==, 0);
  g_assert_cmpuint (cell->len, ==, 0);
  g_ptr_array_unref (row);

  return rows;
}

/**
 * viva_test_csv_cell:
 * @rows: from viva_test_parse_csv()
 * @row: one of @rows
 * @column: a name in the header
 *
 * Returns: (transfer none): @row's cell in @column; fails the test when the
 *   header has no such column or the row is short
 */
const char *
viva_test_csv_cell (GPtrArray  *rows,
                    GPtrArray  *row,
                    const char *column)
{
  GPtrArray *header = g_ptr_array_index (rows, 0);

  g_assert_cmpuint (row->len, ==, header->len);
  for (guint i = 0; i < header->len; i++)
    if (g_str_equal (g_ptr_array_index (header, i), column))
      return g_ptr_array_index (row, i);

  g_error ("the CSV has no column %s", column);
}

/* viva-class-csv.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "viva-class-csv-private.h"

/* One row of the class results has one shape: the table below names its
 * columns in the CSV's order, and the CSV's header, each CSV row and the
 * `row` event of `viva-cli class collect --json` are all written from it.
 * A new column goes at the end (importers read the CSV by position). */

typedef enum
{
  KIND_TEXT,
  KIND_COUNT,     /* an int, empty (null) when < 0 */
  KIND_SCORE,     /* 0–100, empty (null) when < 0 */
  KIND_COST,      /* points a hint cost, 0 when none */
  KIND_FLAGS,     /* words joined by ';'; a JSON array */
} Kind;

typedef enum
{
  IN_JSON_ALWAYS,
  IN_JSON_WITH_COST,      /* only when a hint cost something: how the score was made */
  IN_JSON_IF_NOT_EMPTY,
  IN_JSON_WITH_TEACHER,   /* only when the teacher scored the defense */
} InJson;

typedef struct
{
  const char *name;
  Kind        kind;
  InJson      in_json;
  const char *(*text)   (VivaClassReport *report);
  int         (*count)  (VivaClassReport *report);
  double      (*number) (VivaClassReport *report);
} Column;

static int
get_hints (VivaClassReport *report)
{
  return (int)MIN (viva_class_report_get_hints (report), G_MAXINT);
}

#define TEXT(n, f)       { n, KIND_TEXT, IN_JSON_ALWAYS, f, NULL, NULL }
#define COUNT(n, f)      { n, KIND_COUNT, IN_JSON_ALWAYS, NULL, f, NULL }

static const Column columns[] = {
  TEXT ("student_name", viva_class_report_get_student_name),
  TEXT ("student_id", viva_class_report_get_student_id),
  TEXT ("pack", viva_class_report_get_pack_id),
  TEXT ("problem", viva_class_report_get_problem_id),
  TEXT ("session", viva_class_report_get_session),
  TEXT ("status", viva_class_report_get_status),
  TEXT ("verdict", viva_class_report_get_verdict),
  /* The grade: the teacher's score where there is one (viva_score and
   * teacher_score, at the end, keep both). */
  { "score", KIND_SCORE, IN_JSON_ALWAYS, NULL, NULL, viva_class_report_get_graded_score },
  COUNT ("hidden_passed", viva_class_report_get_hidden_passed),
  COUNT ("hidden_total", viva_class_report_get_hidden_total),
  COUNT ("regraded_passed", viva_class_report_get_regraded_passed),
  COUNT ("regraded_total", viva_class_report_get_regraded_total),
  { "flags", KIND_FLAGS, IN_JSON_ALWAYS, viva_class_report_get_flags, NULL, NULL },
  TEXT ("problem_title", viva_class_report_get_problem_title),
  TEXT ("started", viva_class_report_get_started),
  COUNT ("duration_s", viva_class_report_get_duration),
  COUNT ("hints", get_hints),
  TEXT ("file", viva_class_report_get_path),
  { "note", KIND_TEXT, IN_JSON_IF_NOT_EMPTY, viva_class_report_get_note, NULL, NULL },
  { "model_score", KIND_SCORE, IN_JSON_WITH_COST, NULL, NULL, viva_class_report_get_model_score },
  { "hint_cost", KIND_COST, IN_JSON_WITH_COST, NULL, NULL, viva_class_report_get_hint_cost },
  { "viva_score", KIND_SCORE, IN_JSON_WITH_TEACHER, NULL, NULL, viva_class_report_get_score },
  { "teacher_score", KIND_SCORE, IN_JSON_WITH_TEACHER, NULL, NULL, viva_class_report_get_teacher_score },
  { "teacher_note", KIND_TEXT, IN_JSON_WITH_TEACHER, viva_class_report_get_teacher_note, NULL, NULL },
  /* The score built from the verdict's items, and how many need review. */
  { "item_points", KIND_SCORE, IN_JSON_ALWAYS, NULL, NULL, viva_class_report_get_item_points },
  COUNT ("items_review", viva_class_report_get_items_review),
};

#undef TEXT
#undef COUNT

static gboolean
is_separator (char c)
{
  /* The list separators spreadsheets use by locale and import dialog:
   * comma, semicolon (most of Europe), tab; and line ends. */
  return c == ',' || c == ';' || c == '\t' || c == '\r' || c == '\n';
}

static gboolean
is_formula_start (char c)
{
  return c == '=' || c == '+' || c == '-' || c == '@' || c == '\t' || c == '\r';
}

/* Where a spreadsheet may start reading a cell: the start of the text and
 * after a separator, with spaces skipped (an import may trim them). */
static gboolean
starts_cell (const char *text,
             const char *p)
{
  while (p > text && p[-1] == ' ')
    p--;

  return p == text || is_separator (p[-1]);
}

static gboolean
needs_quotes (const char *text)
{
  gsize len = strlen (text);

  return strpbrk (text, ",;\"\t\r\n") != NULL ||
         (len > 0 && (text[0] == ' ' || text[len - 1] == ' '));
}

/**
 * _viva_class_csv_append_cell:
 * @text: (nullable): the cell's text, as the student or report wrote it
 * @after: what follows the cell: "," or "\r\n" (or "")
 *
 * RFC 4180 quoting, with the quotes a spreadsheet whose separator is `;`
 * or a tab needs too (a cell with `,`, `;`, `"`, a tab, CR, LF, or a
 * space at either end is quoted; `"` doubles). And a formula guard: a
 * spreadsheet runs a cell as a formula when it starts with `=`, `+`, `-`,
 * `@`, a tab or CR (OWASP's list) — and one that splits on a separator
 * the cell holds, or that is given the text unquoted (a paste), starts a
 * new cell after it. So a `'` goes before a formula start at the start
 * of the cell and after every separator in it, spaces skipped ("Eve;=1+2"
 * is written "Eve;'=1+2"): Calc, Excel and Sheets show the `'`-led text
 * as text.
 */
void
_viva_class_csv_append_cell (GString    *csv,
                             const char *text,
                             const char *after)
{
  gboolean quote;

  text = text ? text : "";
  quote = needs_quotes (text);
  for (const char *p = text; *p && !quote; p++)
    quote = is_formula_start (*p) && starts_cell (text, p);

  if (quote)
    g_string_append_c (csv, '"');
  for (const char *p = text; *p; p++)
    {
      if (is_formula_start (*p) && starts_cell (text, p))
        g_string_append_c (csv, '\'');
      if (*p == '"')
        g_string_append_c (csv, '"');
      g_string_append_c (csv, *p);
    }
  if (quote)
    g_string_append_c (csv, '"');
  g_string_append (csv, after);
}

char *
_viva_class_csv_format_score (double score)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  if (score < 0)
    return g_strdup ("");

  return g_strdup (g_ascii_formatd (buffer, sizeof buffer, "%.0f", score));
}

static char *
format_cost (double cost)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  return g_strdup (g_ascii_formatd (buffer, sizeof buffer, "%g", MAX (0, cost)));
}

/**
 * _viva_class_csv_header:
 *
 * Appends the header line of the class CSV, CRLF-ended.
 */
void
_viva_class_csv_header (GString *csv)
{
  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    _viva_class_csv_append_cell (csv, columns[i].name, i + 1 < G_N_ELEMENTS (columns) ? "," : "\r\n");
}

/**
 * _viva_class_csv_row:
 *
 * Appends @report's line of the class CSV, CRLF-ended.
 */
void
_viva_class_csv_row (GString         *csv,
                     VivaClassReport *report)
{
  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    {
      const Column *column = &columns[i];
      const char *after = i + 1 < G_N_ELEMENTS (columns) ? "," : "\r\n";
      g_autofree char *cell = NULL;
      int count;

      switch (column->kind)
        {
        case KIND_TEXT:
        case KIND_FLAGS:
          _viva_class_csv_append_cell (csv, column->text (report), after);
          continue;
        case KIND_COUNT:
          count = column->count (report);
          cell = count >= 0 ? g_strdup_printf ("%d", count) : g_strdup ("");
          break;
        case KIND_SCORE:
          cell = _viva_class_csv_format_score (column->number (report));
          break;
        case KIND_COST:
        default:
          cell = format_cost (column->number (report));
          break;
        }
      g_string_append (csv, cell);
      g_string_append (csv, after);
    }
}

/**
 * _viva_class_csv_row_json:
 *
 * Returns: (transfer full): @report's row as the `row` event has it: the
 *   CSV's columns under the same names, flags as an array, numbers as
 *   numbers and unknown ones as null; `model_score` and `hint_cost` only
 *   when a hint cost something, `viva_score`, `teacher_score` and
 *   `teacher_note` only when the teacher scored the defense, `note` only
 *   when there is one
 */
JsonObject *
_viva_class_csv_row_json (VivaClassReport *report)
{
  JsonObject *object = json_object_new ();
  gboolean with_cost = viva_class_report_get_hint_cost (report) > 0;
  gboolean with_teacher = viva_class_report_get_teacher_score (report) >= 0;

  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    {
      const Column *column = &columns[i];
      const char *text = column->text ? column->text (report) : NULL;
      double number;
      int count;

      if (column->in_json == IN_JSON_WITH_COST && !with_cost)
        continue;
      if (column->in_json == IN_JSON_WITH_TEACHER && !with_teacher)
        continue;
      if (column->in_json == IN_JSON_IF_NOT_EMPTY && (text == NULL || text[0] == '\0'))
        continue;

      switch (column->kind)
        {
        case KIND_TEXT:
          json_object_set_string_member (object, column->name, text != NULL ? text : "");
          break;
        case KIND_FLAGS:
          {
            g_auto(GStrv) words = g_strsplit (text, ";", -1);
            JsonArray *array = json_array_new ();

            for (guint j = 0; words[j] != NULL; j++)
              if (words[j][0] != '\0')
                json_array_add_string_element (array, words[j]);
            json_object_set_array_member (object, column->name, array);
          }
          break;
        case KIND_COUNT:
          if ((count = column->count (report)) < 0)
            json_object_set_null_member (object, column->name);
          else
            json_object_set_int_member (object, column->name, count);
          break;
        case KIND_SCORE:
        case KIND_COST:
        default:
          number = column->number (report);
          if (number < 0 && column->kind == KIND_SCORE)
            json_object_set_null_member (object, column->name);
          else
            json_object_set_double_member (object, column->name, MAX (0, number));
          break;
        }
    }

  return object;
}

/* viva-teacher-csv.c: a teacher's scores from a CSV
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "viva-teacher-scores-private.h"

/* `student_id,problem,score[,verdict]`, one defense a line, as a
 * spreadsheet saves it: RFC 4180 (quoted cells, "" for a quote, a quoted
 * cell may hold a line break), CRLF or LF, a UTF-8 BOM, an optional header
 * line. The file is read as hostile input even though the teacher made
 * it — it may be the wrong file, or one passed around: bounded in bytes,
 * rows and cell length, UTF-8 checked, and every problem reported with its
 * line, up to MAX_ERRORS at once so a long file is fixed in one go. Any
 * error rejects the whole file: half a class's scores would calibrate
 * against the wrong defenses. */

#define MAX_ERRORS 20

typedef struct
{
  const char *p;
  const char *end;
  guint       line;       /* the line the cursor is on */
  GPtrArray  *errors;
} Reader;

static void
add_error (Reader     *reader,
           guint       line,
           const char *format,
           ...) G_GNUC_PRINTF (3, 4);

static void
add_error (Reader     *reader,
           guint       line,
           const char *format,
           ...)
{
  g_autofree char *message = NULL;
  va_list args;

  if (reader->errors->len >= MAX_ERRORS)
    return;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  /* Translators: "Line 4: the score “abc” is not …" */
  g_ptr_array_add (reader->errors, g_strdup_printf (_("Line %u: %s"), line, message));
}

/* Reads one record's cells into @cells; FALSE at the end of the input or
 * on an error that leaves the rest unreadable (an unclosed quote). */
static gboolean
read_record (Reader    *reader,
             GPtrArray *cells,
             guint     *record_line)
{
  g_autoptr(GString) cell = g_string_new (NULL);
  gboolean quoted = FALSE, was_quoted = FALSE, too_long = FALSE;
  guint quote_line = 0;

  g_ptr_array_set_size (cells, 0);
  if (reader->p >= reader->end)
    return FALSE;
  *record_line = reader->line;

  while (reader->p < reader->end)
    {
      char c = *reader->p++;

      if (quoted)
        {
          if (c == '"' && reader->p < reader->end && *reader->p == '"')
            {
              reader->p++;
              g_string_append_c (cell, '"');
            }
          else if (c == '"')
            quoted = FALSE;
          else
            {
              if (c == '\n')
                reader->line++;
              g_string_append_c (cell, c);
            }
        }
      else if (c == '"' && cell->len == 0 && !was_quoted)
        {
          quoted = was_quoted = TRUE;
          quote_line = reader->line;
        }
      else if (c == '"')
        {
          add_error (reader, reader->line, _("a quote (\") inside a cell that does not start with one; quote the whole cell and double the quote."));
          g_string_append_c (cell, c);
        }
      else if (c == ',' || c == '\n' || c == '\r')
        {
          g_ptr_array_add (cells, g_string_free (g_steal_pointer (&cell), FALSE));
          cell = g_string_new (NULL);
          was_quoted = FALSE;
          if (c == ',')
            continue;
          if (c == '\r' && reader->p < reader->end && *reader->p == '\n')
            reader->p++;
          reader->line++;
          return TRUE;
        }
      else if (was_quoted && (c == ' ' || c == '\t'))
        ; /* a space after the closing quote, as some programs write */
      else if (was_quoted)
        {
          add_error (reader, reader->line, _("text after a quoted cell’s closing quote; put it inside the quotes."));
          g_string_append_c (cell, c);
        }
      else
        g_string_append_c (cell, c);

      if (cell->len > VIVA_TEACHER_SCORES_MAX_CELL && !too_long)
        {
          too_long = TRUE;
          add_error (reader, *record_line, _("a cell is longer than %u bytes; a student id, a problem and a score are short."),
                     VIVA_TEACHER_SCORES_MAX_CELL);
        }
      if (too_long)
        g_string_truncate (cell, VIVA_TEACHER_SCORES_MAX_CELL);
    }

  if (quoted)
    {
      add_error (reader, quote_line, _("a quoted cell is never closed; add the closing quote (\")."));
      reader->p = reader->end;
      return FALSE;
    }

  g_ptr_array_add (cells, g_string_free (g_steal_pointer (&cell), FALSE));
  return TRUE;
}

static char *
trimmed (const char *cell)
{
  return g_strstrip (g_strdup (cell));
}

static gboolean
is_blank (GPtrArray *cells)
{
  for (guint i = 0; i < cells->len; i++)
    {
      g_autofree char *text = trimmed (g_ptr_array_index (cells, i));

      if (text[0] != '\0')
        return FALSE;
    }

  return TRUE;
}

static gboolean
parse_score (const char *text,
             double     *score)
{
  char *end = NULL;

  if (text[0] == '\0')
    return FALSE;
  *score = g_ascii_strtod (text, &end);

  return end != NULL && *end == '\0' && isfinite (*score) && *score >= 0 && *score <= 100;
}

static void
parse_line (Reader            *reader,
            GPtrArray         *cells,
            guint              line,
            GHashTable        *seen,
            VivaTeacherScores *scores)
{
  g_autofree char *student_id = NULL;
  g_autofree char *problem = NULL;
  g_autofree char *score_text = NULL;
  g_autofree char *verdict_text = NULL;
  g_autofree char *key = NULL;
  VivaCalibrationVerdict verdict = VIVA_CALIBRATION_UNKNOWN;
  VivaTeacherScore *entry;
  gpointer first;
  double score;
  guint n = cells->len;

  /* A spreadsheet pads rows with empty cells up to its widest one. */
  while (n > 3 && ((const char *)g_ptr_array_index (cells, n - 1))[0] == '\0')
    n--;

  if (n < 3 || n > 4)
    {
      add_error (reader, line, _("%u cells where student_id,problem,score[,verdict] has 3 or 4."), n);
      return;
    }

  student_id = trimmed (g_ptr_array_index (cells, 0));
  problem = trimmed (g_ptr_array_index (cells, 1));
  score_text = trimmed (g_ptr_array_index (cells, 2));
  verdict_text = n > 3 ? trimmed (g_ptr_array_index (cells, 3)) : g_strdup ("");

  if (student_id[0] == '\0')
    add_error (reader, line, _("the student id is empty."));
  if (problem[0] == '\0')
    add_error (reader, line, _("the problem is empty."));
  if (!parse_score (score_text, &score))
    add_error (reader, line, _("the score “%s” is not a number from 0 to 100 (write decimals with a point)."), score_text);
  if (g_ascii_strcasecmp (verdict_text, "pass") == 0)
    verdict = VIVA_CALIBRATION_PASS;
  else if (g_ascii_strcasecmp (verdict_text, "fail") == 0)
    verdict = VIVA_CALIBRATION_FAIL;
  else if (verdict_text[0] != '\0')
    add_error (reader, line, _("the verdict “%s” is neither pass nor fail (or empty)."), verdict_text);

  if (student_id[0] == '\0' || problem[0] == '\0' || !parse_score (score_text, &score) ||
      (verdict == VIVA_CALIBRATION_UNKNOWN && verdict_text[0] != '\0'))
    return;

  /* The unit separator cannot be typed into a cell that passed the
   * checks above, so the key is unambiguous. */
  key = g_strdup_printf ("%s\x1f%s", student_id, problem);
  if (g_hash_table_lookup_extended (seen, key, NULL, &first))
    {
      add_error (reader, line, _("student “%s” on problem “%s” was scored already on line %u; keep one line per defense."),
                 student_id, problem, GPOINTER_TO_UINT (first));
      return;
    }
  g_hash_table_insert (seen, g_steal_pointer (&key), GUINT_TO_POINTER (line));

  entry = g_new0 (VivaTeacherScore, 1);
  entry->student_id = g_steal_pointer (&student_id);
  entry->problem = g_steal_pointer (&problem);
  entry->score = score;
  entry->verdict = verdict;
  entry->line = line;
  _viva_teacher_scores_take (scores, entry);
}

/**
 * viva_teacher_scores_parse_csv:
 * @data: the CSV's bytes
 * @length: their length
 * @error: a %G_IO_ERROR_INVALID_DATA listing each problem with its line,
 *   one a line
 *
 * Adds the CSV's scores, all of them or, on an error, none.
 */
gboolean
viva_teacher_scores_parse_csv (VivaTeacherScores  *self,
                               const char         *data,
                               gsize               length,
                               GError            **error)
{
  g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) cells = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(VivaTeacherScores) parsed = viva_teacher_scores_new ();
  Reader reader = { data, data + length, 1, errors };
  gboolean first = TRUE;
  guint rows = 0, record_line = 1;

  g_return_val_if_fail (VIVA_IS_TEACHER_SCORES (self), FALSE);
  g_return_val_if_fail (data != NULL || length == 0, FALSE);

  if (length > VIVA_TEACHER_SCORES_MAX_BYTES)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("The file is larger than a class’s scores can be; check that it is the right file."));
      return FALSE;
    }
  if (memchr (data, '\0', length) != NULL || !g_utf8_validate_len (data, length, NULL))
    {
      const char *bad = NULL;
      guint line = 1;

      g_utf8_validate_len (data, length, &bad);
      if (memchr (data, '\0', length) != NULL && (bad == NULL || (const char *)memchr (data, '\0', length) < bad))
        bad = memchr (data, '\0', length);
      for (const char *p = data; bad != NULL && p < bad; p++)
        line += *p == '\n';
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("Line %u: the file is not UTF-8 text; save it from the spreadsheet as “CSV UTF-8”."), line);
      return FALSE;
    }
  if (length >= 3 && memcmp (data, "\xef\xbb\xbf", 3) == 0)
    reader.p += 3;

  while (read_record (&reader, cells, &record_line))
    {
      if (is_blank (cells))
        continue;

      if (first)
        {
          g_autofree char *head = trimmed (g_ptr_array_index (cells, 0));

          first = FALSE;
          if (g_ascii_strcasecmp (head, "student_id") == 0)
            continue;
        }

      if (++rows > VIVA_TEACHER_SCORES_MAX_ROWS)
        {
          add_error (&reader, record_line, _("more than %u scores; a class has fewer. Check that it is the right file."),
                     VIVA_TEACHER_SCORES_MAX_ROWS);
          break;
        }
      parse_line (&reader, cells, record_line, seen, parsed);
    }

  if (errors->len > 0)
    {
      g_autofree char *text = NULL;

      g_ptr_array_add (errors, NULL);
      text = g_strjoinv ("\n", (char **)errors->pdata);
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, text);
      return FALSE;
    }
  if (rows == 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("The file has no scores; each line is student_id,problem,score[,verdict]."));
      return FALSE;
    }

  _viva_teacher_scores_take_all (self, parsed);

  return TRUE;
}

/**
 * viva_teacher_scores_load_csv:
 * @path: the teacher's CSV
 *
 * Reads @path (a regular file, at most VIVA_TEACHER_SCORES_MAX_BYTES)
 * and adds its scores. Blocking.
 */
gboolean
viva_teacher_scores_load_csv (VivaTeacherScores  *self,
                              const char         *path,
                              GError            **error)
{
  g_autofree char *data = NULL;
  gsize length;

  g_return_val_if_fail (VIVA_IS_TEACHER_SCORES (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (!(data = _viva_teacher_scores_read_file (path, &length, error)))
    return FALSE;

  return viva_teacher_scores_parse_csv (self, data, length, error);
}

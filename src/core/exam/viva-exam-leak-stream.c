/* viva-exam-leak-stream.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "viva-exam-leak-stream.h"

/* One text passing the leak guard as it streams (a reply's content or its
 * reasoning). Each delta is normalised once, on arrival, and fed to the
 * guard's automaton byte by byte; a window is checked when its last byte
 * arrives, and never again. So a delta costs what its own length costs,
 * however long the reply already is.
 *
 * What is shown is what has settled: all of the text but its longest end
 * that the secrets hold (up to the window's length), which may yet grow
 * into a passage to withhold. So every window that starts in what is shown
 * has been seen whole, and an ordinary reply streams with a lag of a few
 * characters. Withheld passages are shown as one note each; a passage that
 * grew past where it was cut is the same one. */

#define K VIVA_EXAM_LEAK_MIN_CHARS

typedef struct
{
  gsize start;   /* the raw character a normalised byte came from */
  gsize end;
} Span;

struct _VivaExamLeakStream
{
  VivaExamLeakGuard *guard;
  GString           *raw;
  gsize              done;       /* raw bytes normalised */
  gboolean           closed;
  GString           *norm;
  GArray            *spans;      /* a Span per byte of norm */
  guint              state;      /* the guard's automaton after norm */
  guint              match;      /* the end of norm the secrets hold */
  GArray            *ranges;     /* of raw, to withhold */
  gsize              ranges_end; /* in norm, of the last range */
  guint              first_range; /* the first range not yet shown past */
  gsize              shown;
  gboolean           withholding;
};

VivaExamLeakStream *
_viva_exam_leak_stream_new (VivaExamLeakGuard *guard)
{
  VivaExamLeakStream *stream = g_new0 (VivaExamLeakStream, 1);

  stream->guard = guard;
  stream->raw = g_string_new (NULL);
  stream->norm = g_string_new (NULL);
  stream->spans = g_array_new (FALSE, FALSE, sizeof (Span));
  stream->ranges = g_array_new (FALSE, FALSE, sizeof (VivaExamLeakRange));

  return stream;
}

void
_viva_exam_leak_stream_free (VivaExamLeakStream *stream)
{
  if (stream == NULL)
    return;

  g_string_free (stream->raw, TRUE);
  g_string_free (stream->norm, TRUE);
  g_array_unref (stream->spans);
  g_array_unref (stream->ranges);
  g_free (stream);
}

/* For the next reply. */
void
_viva_exam_leak_stream_reset (VivaExamLeakStream *stream)
{
  g_string_truncate (stream->raw, 0);
  g_string_truncate (stream->norm, 0);
  g_array_set_size (stream->spans, 0);
  g_array_set_size (stream->ranges, 0);
  stream->done = 0;
  stream->closed = FALSE;
  stream->state = 0;
  stream->match = 0;
  stream->ranges_end = 0;
  stream->first_range = 0;
  stream->shown = 0;
  stream->withholding = FALSE;
}

static Span *
span_at (VivaExamLeakStream *stream,
         gsize               i)
{
  return &g_array_index (stream->spans, Span, i);
}

/* The window of norm ending at @last is withheld. */
static void
cover (VivaExamLeakStream *stream,
       gsize               last)
{
  gsize first = last + 1 - K;

  if (stream->ranges->len > 0 && stream->ranges_end >= first)
    g_array_index (stream->ranges, VivaExamLeakRange, stream->ranges->len - 1).end = span_at (stream, last)->end;
  else
    {
      VivaExamLeakRange range = { span_at (stream, first)->start, span_at (stream, last)->end };

      g_array_append_val (stream->ranges, range);
    }
  stream->ranges_end = last + 1;
}

static void
scan (VivaExamLeakStream *stream)
{
  while (stream->done < stream->raw->len)
    {
      gsize from = stream->norm->len;
      gsize n = _viva_exam_leak_normalise_char (stream->raw->str + stream->done, stream->raw->len - stream->done,
                                                stream->closed, stream->norm);
      Span span = { stream->done, stream->done + n };

      /* Half a character: the rest comes with the next delta. */
      if (n == 0)
        break;

      for (gsize i = from; i < stream->norm->len; i++)
        {
          g_array_append_val (stream->spans, span);
          stream->match = _viva_exam_leak_guard_step (stream->guard, &stream->state, stream->match,
                                                      stream->norm->str[i]);
          if (stream->match >= K && !_viva_exam_leak_guard_is_open (stream->guard, stream->norm->str + i + 1 - K))
            cover (stream, i);
        }
      stream->done += n;
    }
}

/**
 * _viva_exam_leak_stream_push:
 * @student_code: (nullable): the student's current code, which may be
 *   quoted freely
 *
 * Appends @text and checks every window it completes.
 */
void
_viva_exam_leak_stream_push (VivaExamLeakStream *stream,
                             const char         *text,
                             gsize               length,
                             const char         *student_code)
{
  g_return_if_fail (!stream->closed);

  g_string_append_len (stream->raw, text, length);
  if (!_viva_exam_leak_guard_has_secrets (stream->guard))
    {
      stream->done = stream->raw->len;
      return;
    }

  _viva_exam_leak_guard_set_student_code (stream->guard, student_code);
  scan (stream);
}

/* The text is whole: a character cut short counts as its bytes. */
void
_viva_exam_leak_stream_close (VivaExamLeakStream *stream)
{
  stream->closed = TRUE;
  if (_viva_exam_leak_guard_has_secrets (stream->guard))
    scan (stream);
  else
    stream->done = stream->raw->len;
}

const GString *
_viva_exam_leak_stream_get_text (VivaExamLeakStream *stream)
{
  return stream->raw;
}

/**
 * _viva_exam_leak_stream_get_ranges:
 *
 * Returns: (transfer none) (element-type VivaExamLeakRange): the byte ranges
 *   of the text to withhold so far, in order, not overlapping
 */
GArray *
_viva_exam_leak_stream_get_ranges (VivaExamLeakStream *stream)
{
  return stream->ranges;
}

/* How much of the text can be shown. The whitespace before an end that
 * has not settled waits with it. */
gsize
_viva_exam_leak_stream_get_settled (VivaExamLeakStream *stream)
{
  gsize low = MIN (stream->match, (guint)K - 1);
  gsize at;

  if (stream->closed || low == 0 || low > stream->norm->len)
    return stream->done;

  at = stream->norm->len - low;
  if (at > 0 && span_at (stream, at - 1)->end <= span_at (stream, at)->start)
    return span_at (stream, at - 1)->end;

  return span_at (stream, at)->start;
}

/**
 * _viva_exam_leak_stream_take_shown:
 * @limit: how far to show (at most what has settled)
 *
 * Returns: (transfer full) (nullable): the text from where the last call
 *   stopped up to @limit, withheld passages as one note each, or %NULL
 *   when there is nothing new to show
 */
char *
_viva_exam_leak_stream_take_shown (VivaExamLeakStream *stream,
                                   gsize               limit)
{
  g_autoptr(GString) out = g_string_new (NULL);
  gsize pos = stream->shown;

  limit = MIN (limit, stream->raw->len);
  while (pos < limit)
    {
      const VivaExamLeakRange *inside = NULL;
      gsize next = limit;

      /* Ranges are in order; only the last can still grow. */
      while (stream->first_range + 1 < stream->ranges->len &&
             g_array_index (stream->ranges, VivaExamLeakRange, stream->first_range).end <= pos)
        stream->first_range++;
      for (guint i = stream->first_range; i < stream->ranges->len; i++)
        {
          const VivaExamLeakRange *range = &g_array_index (stream->ranges, VivaExamLeakRange, i);

          if (range->start <= pos && pos < range->end)
            {
              inside = range;
              break;
            }
          if (range->start > pos)
            {
              next = MIN (next, range->start);
              break;
            }
        }

      if (inside != NULL)
        {
          if (!stream->withholding)
            g_string_append (out, _viva_exam_leak_guard_note ());
          stream->withholding = TRUE;
          pos = inside->end;
          continue;
        }

      g_string_append_len (out, stream->raw->str + pos, next - pos);
      stream->withholding = FALSE;
      pos = next;
    }

  stream->shown = MAX (pos, stream->shown);
  if (out->len == 0)
    return NULL;

  return g_string_free (g_steal_pointer (&out), FALSE);
}

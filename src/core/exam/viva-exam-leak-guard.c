/* viva-exam-leak-guard.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "viva-exam-leak-guard.h"

/* The leak guard: before an examiner's words reach the student, long
 * verbatim runs of the reference solution or of a hidden test are found
 * and withheld. Texts are compared normalised for whitespace (each run of
 * it one space), through the set of every window of
 * VIVA_EXAM_LEAK_MIN_CHARS bytes of the secrets; a window that the
 * problem's public text (description, starter code, hint) or the
 * student's own code also holds is no leak, so quoting the student's code
 * back, correct or not, is never withheld. Plain data, any thread. */

#define K VIVA_EXAM_LEAK_MIN_CHARS

struct _VivaExamLeakGuard
{
  GHashTable *secret;     /* windows of the secrets not in the public text */
  GString    *secret_text; /* the secrets normalised, one after the other */
  char       *code_hash;  /* the student's code the next set was made from */
  GHashTable *student;
};

/* @text normalised, and for each byte of it the offset of the byte of
 * @text it came from. */
static char *
normalise (const char  *text,
           gsize        length,
           GArray     **map)
{
  GString *out = g_string_sized_new (length);
  gboolean space = FALSE;
  gsize space_at = 0;

  if (map != NULL)
    *map = g_array_sized_new (FALSE, FALSE, sizeof (gsize), length);

  for (gsize i = 0; i < length; i++)
    {
      if (g_ascii_isspace (text[i]))
        {
          if (!space)
            space_at = i;
          space = out->len > 0;
          continue;
        }
      if (space)
        {
          g_string_append_c (out, ' ');
          if (map != NULL)
            g_array_append_val (*map, space_at);
        }
      space = FALSE;
      g_string_append_c (out, text[i]);
      if (map != NULL)
        g_array_append_val (*map, i);
    }

  return g_string_free (out, FALSE);
}

static void
add_windows (GHashTable *set,
             const char *text)
{
  g_autofree char *norm = normalise (text, strlen (text), NULL);
  gsize len = strlen (norm);

  for (gsize i = 0; i + K <= len; i++)
    g_hash_table_add (set, g_strndup (norm + i, K));
}

static GHashTable *
window_set (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

static void
add_secret (VivaExamLeakGuard *guard,
            const char        *text)
{
  g_autofree char *norm = normalise (text, strlen (text), NULL);

  add_windows (guard->secret, text);
  g_string_append (guard->secret_text, norm);
  g_string_append_c (guard->secret_text, '\n');
}

VivaExamLeakGuard *
_viva_exam_leak_guard_new (VivaProblem *problem)
{
  VivaExamLeakGuard *guard = g_new0 (VivaExamLeakGuard, 1);
  g_autoptr(GHashTable) open = window_set ();
  const char *public_texts[] = {
    viva_problem_get_description (problem),
    viva_problem_get_starter_code (problem),
    viva_problem_get_hint (problem),
  };
  GHashTableIter iter;
  gpointer window;

  guard->secret = window_set ();
  guard->secret_text = g_string_new (NULL);
  if (viva_problem_get_reference (problem) != NULL)
    add_secret (guard, viva_problem_get_reference (problem));
  for (guint i = 0; i < viva_problem_get_n_tests (problem); i++)
    if (viva_problem_get_test (problem, i)->code != NULL)
      add_secret (guard, viva_problem_get_test (problem, i)->code);

  for (guint i = 0; i < G_N_ELEMENTS (public_texts); i++)
    if (public_texts[i] != NULL)
      add_windows (open, public_texts[i]);

  g_hash_table_iter_init (&iter, open);
  while (g_hash_table_iter_next (&iter, &window, NULL))
    g_hash_table_remove (guard->secret, window);

  return guard;
}

void
_viva_exam_leak_guard_free (VivaExamLeakGuard *guard)
{
  if (guard == NULL)
    return;

  g_clear_pointer (&guard->secret, g_hash_table_unref);
  if (guard->secret_text != NULL)
    g_string_free (guard->secret_text, TRUE);
  g_clear_pointer (&guard->student, g_hash_table_unref);
  g_free (guard->code_hash);
  g_free (guard);
}

/**
 * _viva_exam_leak_guard_find:
 * @student_code: (nullable): the student's current code, which may be
 *   quoted freely
 *
 * Returns: (transfer full) (element-type VivaExamLeakRange): the byte ranges
 *   of @text to withhold, in order, not overlapping (maybe none)
 */
GArray *
_viva_exam_leak_guard_find (VivaExamLeakGuard *guard,
                            const char        *text,
                            gsize              length,
                            const char        *student_code)
{
  GArray *ranges = g_array_new (FALSE, FALSE, sizeof (VivaExamLeakRange));
  g_autoptr(GArray) map = NULL;
  g_autofree char *norm = NULL;
  g_autofree gboolean *covered = NULL;
  gsize len;

  if (guard == NULL || g_hash_table_size (guard->secret) == 0 || length < K)
    return ranges;

  if (student_code != NULL)
    {
      g_autofree char *hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, student_code, -1);

      if (g_strcmp0 (hash, guard->code_hash) != 0)
        {
          g_clear_pointer (&guard->student, g_hash_table_unref);
          guard->student = window_set ();
          add_windows (guard->student, student_code);
          g_free (guard->code_hash);
          guard->code_hash = g_steal_pointer (&hash);
        }
    }

  norm = normalise (text, length, &map);
  len = strlen (norm);
  if (len < K)
    return ranges;

  covered = g_new0 (gboolean, len);
  for (gsize i = 0; i + K <= len; i++)
    {
      g_autofree char *window = g_strndup (norm + i, K);

      if (g_hash_table_contains (guard->secret, window) &&
          (student_code == NULL || !g_hash_table_contains (guard->student, window)))
        for (gsize j = i; j < i + K; j++)
          covered[j] = TRUE;
    }

  for (gsize i = 0; i < len; i++)
    {
      VivaExamLeakRange range;
      gsize j = i;

      if (!covered[i])
        continue;
      while (j < len && covered[j])
        j++;
      /* The whitespace around a passage stays, so its layout does. */
      if (norm[i] == ' ')
        i++;
      if (j > i && norm[j - 1] == ' ')
        j--;
      if (j <= i)
        continue;

      range.start = g_array_index (map, gsize, i);
      /* Up to the end of the last byte's character. */
      range.end = g_array_index (map, gsize, j - 1) + 1;
      while (range.end < length && ((guchar)text[range.end] & 0xC0) == 0x80)
        range.end++;
      g_array_append_val (ranges, range);
      i = j;
    }

  return ranges;
}

/**
 * _viva_exam_leak_guard_settled:
 *
 * Returns: how much of a text still streaming can be shown: all of it but
 *   its longest end that the secrets hold (up to the window's length), which
 *   may yet become a passage to withhold. So every window that starts in
 *   what is shown has been seen whole, and an ordinary reply streams with
 *   a lag of a few characters.
 */
gsize
_viva_exam_leak_guard_settled (VivaExamLeakGuard *guard,
                               const char        *text,
                               gsize              length)
{
  gsize from = length > K * 4 ? length - K * 4 : 0;
  g_autoptr(GArray) map = NULL;
  g_autofree char *norm = NULL;
  gsize len, low = 0, high;

  if (guard == NULL || guard->secret_text->len == 0)
    return length;

  /* The last K normalised characters are within the last 4K bytes or so;
   * start at a character boundary. */
  while (from > 0 && ((guchar)text[from] & 0xC0) == 0x80)
    from--;
  norm = normalise (text + from, length - from, &map);
  len = strlen (norm);
  high = MIN (len, (gsize)K - 1);

  /* A suffix in the secrets means every shorter one is: search its length. */
  while (low < high)
    {
      gsize mid = (low + high + 1) / 2;

      if (strstr (guard->secret_text->str, norm + len - mid) != NULL)
        low = mid;
      else
        high = mid - 1;
    }

  if (low == 0)
    return length;

  return from + g_array_index (map, gsize, len - low);
}

const char *
_viva_exam_leak_guard_note (void)
{
  return _("[Withheld by Viva: this passage repeated the reference solution or a hidden test.]");
}

/**
 * _viva_exam_leak_guard_apply:
 *
 * Returns: (transfer full): @text with each range replaced by the note
 */
char *
_viva_exam_leak_guard_apply (const char *text,
                             gsize       length,
                             GArray     *ranges)
{
  GString *out = g_string_sized_new (length);
  gsize at = 0;

  for (guint i = 0; ranges != NULL && i < ranges->len; i++)
    {
      const VivaExamLeakRange *range = &g_array_index (ranges, VivaExamLeakRange, i);

      g_string_append_len (out, text + at, range->start - at);
      g_string_append (out, _viva_exam_leak_guard_note ());
      at = range->end;
    }
  g_string_append_len (out, text + at, length - at);

  return g_string_free (out, FALSE);
}

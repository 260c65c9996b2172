/* viva-exam-leak-guard.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "viva-exam-leak-guard.h"
#include "viva-exam-leak-stream.h"

/* The leak guard: before an examiner's words reach the student, long runs
 * of the reference solution or of a hidden test are found and withheld.
 *
 * Texts are compared normalised, one character at a time (so a text
 * normalises the same whole or in pieces): whitespace, control and
 * invisible characters (zero-width spaces, soft hyphens) dropped,
 * compatibility forms decomposed (full-width letters, ligatures) and case
 * folded. So the reference letter-spaced, upper-cased or re-indented is
 * the same text. Each secret is also held as its base64 (at the three
 * alignments a run of it can start at) and its hex, normalised the same
 * way, so a long run of it encoded is the same text too.
 *
 * The secrets are one suffix automaton: fed a text byte by byte it knows,
 * in constant time a byte, the longest end of the text that the secrets
 * hold. An end of VIVA_EXAM_LEAK_MIN_CHARS bytes or more is a window to
 * withhold unless the problem's public text (description, starter code,
 * hint) or the student's own code also holds it, so quoting the student's
 * code back, correct or not, is never withheld; those are sets of window
 * hashes, looked up only on a hit. Plain data, any thread. */

#define K VIVA_EXAM_LEAK_MIN_CHARS
#define NONE G_MAXUINT32

typedef struct
{
  guint32 len;
  guint32 link;
  guint32 edges;   /* first of its out-edges, a list */
} State;

typedef struct
{
  guint32 to;
  guint32 next;
  guint8  byte;
} Edge;

struct _VivaExamLeakGuard
{
  GArray     *states;
  GArray     *edges;
  guint32     last;
  GHashTable *open;          /* hashes of the public text's windows */
  GHashTable *student;       /* and of the student's code's */
  char       *student_code;  /* the code that set was made from */
};

gsize
_viva_exam_leak_normalise_char (const char *text,
                                gsize       length,
                                gboolean    at_end,
                                GString    *out)
{
  gunichar decomposed[G_UNICHAR_MAX_DECOMPOSITION_LENGTH];
  gunichar c;
  gsize n;

  g_assert (length > 0);

  if ((guchar)text[0] < 0x80)
    {
      if (!g_ascii_isspace (text[0]) && !g_ascii_iscntrl (text[0]))
        g_string_append_c (out, g_ascii_tolower (text[0]));
      return 1;
    }

  c = g_utf8_get_char_validated (text, length);
  if (c == (gunichar)-2 && !at_end)
    return 0;
  if (c == (gunichar)-1 || c == (gunichar)-2)
    {
      /* Not UTF-8: the byte as it is. */
      g_string_append_c (out, text[0]);
      return 1;
    }

  switch (g_unichar_type (c))
    {
    case G_UNICODE_CONTROL:
    case G_UNICODE_FORMAT:
    case G_UNICODE_SPACE_SEPARATOR:
    case G_UNICODE_LINE_SEPARATOR:
    case G_UNICODE_PARAGRAPH_SEPARATOR:
      break;
    default:
      n = g_unichar_fully_decompose (c, TRUE, decomposed, G_N_ELEMENTS (decomposed));
      for (gsize i = 0; i < n; i++)
        if (!g_unichar_isspace (decomposed[i]))
          g_string_append_unichar (out, g_unichar_tolower (decomposed[i]));
      break;
    }

  return g_utf8_next_char (text) - text;
}

static char *
normalise (const char *text,
           gsize       length)
{
  GString *out = g_string_sized_new (length);

  for (gsize i = 0; i < length;)
    i += _viva_exam_leak_normalise_char (text + i, length - i, TRUE, out);

  return g_string_free (out, FALSE);
}

/* FNV-1a of one window, as a set's key. */
static gpointer
window_key (const char *window)
{
  guint64 hash = 14695981039346656037ull;

  for (guint i = 0; i < K; i++)
    {
      hash ^= (guchar)window[i];
      hash *= 1099511628211ull;
    }

  return GSIZE_TO_POINTER ((gsize)hash);
}

static void
add_windows (GHashTable *set,
             const char *text)
{
  g_autofree char *norm = normalise (text, strlen (text));
  gsize len = strlen (norm);

  for (gsize i = 0; i + K <= len; i++)
    g_hash_table_add (set, window_key (norm + i));
}

/* @text as a run of it may be written encoded: base64 from each of the
 * three offsets a run's first group can start at, and hex. */
static GPtrArray *
encodings (const char *text)
{
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);
  gsize len = strlen (text);
  GString *hex = g_string_sized_new (len * 2);

  for (gsize at = 0; at < 3 && at < len; at++)
    g_ptr_array_add (out, g_base64_encode ((const guchar *)text + at, len - at));
  for (gsize i = 0; i < len; i++)
    g_string_append_printf (hex, "%02x", (guchar)text[i]);
  g_ptr_array_add (out, g_string_free (hex, FALSE));

  return out;
}

static void
add_open (GHashTable *set,
          const char *text)
{
  g_autoptr(GPtrArray) encoded = encodings (text);

  add_windows (set, text);
  for (guint i = 0; i < encoded->len; i++)
    add_windows (set, g_ptr_array_index (encoded, i));
}

static GHashTable *
window_set (void)
{
  return g_hash_table_new (g_direct_hash, g_direct_equal);
}

static State *
state_at (VivaExamLeakGuard *guard,
          guint32            i)
{
  return &g_array_index (guard->states, State, i);
}

static guint32
transition (VivaExamLeakGuard *guard,
            guint32            from,
            guint8             byte)
{
  for (guint32 e = state_at (guard, from)->edges; e != NONE; e = g_array_index (guard->edges, Edge, e).next)
    if (g_array_index (guard->edges, Edge, e).byte == byte)
      return g_array_index (guard->edges, Edge, e).to;

  return NONE;
}

static void
set_transition (VivaExamLeakGuard *guard,
                guint32            from,
                guint8             byte,
                guint32            to)
{
  Edge edge = { to, state_at (guard, from)->edges, byte };

  for (guint32 e = state_at (guard, from)->edges; e != NONE; e = g_array_index (guard->edges, Edge, e).next)
    if (g_array_index (guard->edges, Edge, e).byte == byte)
      {
        g_array_index (guard->edges, Edge, e).to = to;
        return;
      }

  g_array_append_val (guard->edges, edge);
  state_at (guard, from)->edges = guard->edges->len - 1;
}

static guint32
new_state (VivaExamLeakGuard *guard,
           guint32            len)
{
  State state = { len, NONE, NONE };

  g_array_append_val (guard->states, state);
  return guard->states->len - 1;
}

/* The suffix automaton's online step (one more byte of the secrets). */
static void
extend (VivaExamLeakGuard *guard,
        guint8             byte)
{
  guint32 cur = new_state (guard, state_at (guard, guard->last)->len + 1);
  guint32 p = guard->last;

  while (p != NONE && transition (guard, p, byte) == NONE)
    {
      set_transition (guard, p, byte, cur);
      p = state_at (guard, p)->link;
    }

  if (p == NONE)
    state_at (guard, cur)->link = 0;
  else
    {
      guint32 q = transition (guard, p, byte);

      if (state_at (guard, p)->len + 1 == state_at (guard, q)->len)
        state_at (guard, cur)->link = q;
      else
        {
          guint32 clone = new_state (guard, state_at (guard, p)->len + 1);

          for (guint32 e = state_at (guard, q)->edges; e != NONE; e = g_array_index (guard->edges, Edge, e).next)
            {
              Edge copy = g_array_index (guard->edges, Edge, e);

              copy.next = state_at (guard, clone)->edges;
              g_array_append_val (guard->edges, copy);
              state_at (guard, clone)->edges = guard->edges->len - 1;
            }
          state_at (guard, clone)->link = state_at (guard, q)->link;
          while (p != NONE && transition (guard, p, byte) == q)
            {
              set_transition (guard, p, byte, clone);
              p = state_at (guard, p)->link;
            }
          state_at (guard, q)->link = clone;
          state_at (guard, cur)->link = clone;
        }
    }

  guard->last = cur;
}

static void
add_secret_text (VivaExamLeakGuard *guard,
                 const char        *text)
{
  g_autofree char *norm = normalise (text, strlen (text));

  if (norm[0] == '\0')
    return;

  /* A NUL between secrets, which no normalised text holds, so no run
   * spans two of them. */
  if (guard->last != 0)
    extend (guard, 0);
  for (gsize i = 0; norm[i] != '\0'; i++)
    extend (guard, norm[i]);
}

static void
add_secret (VivaExamLeakGuard *guard,
            const char        *text)
{
  g_autoptr(GPtrArray) encoded = NULL;

  if (text == NULL || text[0] == '\0')
    return;

  encoded = encodings (text);
  add_secret_text (guard, text);
  for (guint i = 0; i < encoded->len; i++)
    add_secret_text (guard, g_ptr_array_index (encoded, i));
}

VivaExamLeakGuard *
_viva_exam_leak_guard_new (VivaProblem *problem)
{
  VivaExamLeakGuard *guard = g_new0 (VivaExamLeakGuard, 1);
  const char *public_texts[] = {
    viva_problem_get_description (problem),
    viva_problem_get_starter_code (problem),
    viva_problem_get_hint (problem),
  };

  guard->states = g_array_new (FALSE, FALSE, sizeof (State));
  guard->edges = g_array_new (FALSE, FALSE, sizeof (Edge));
  guard->last = new_state (guard, 0);
  guard->open = window_set ();

  add_secret (guard, viva_problem_get_reference (problem));
  for (guint i = 0; i < viva_problem_get_n_tests (problem); i++)
    {
      const VivaProblemTest *test = viva_problem_get_test (problem, i);

      /* A shown test is the student's to read: public, not a secret. */
      if (viva_problem_test_is_shown (test))
        continue;
      add_secret (guard, test->code);
      add_secret (guard, test->setup);
      add_secret (guard, test->call);
      add_secret (guard, test->check);
    }

  for (guint i = 0; i < G_N_ELEMENTS (public_texts); i++)
    if (public_texts[i] != NULL)
      add_open (guard->open, public_texts[i]);
  for (guint i = 0; i < viva_problem_get_n_tests (problem); i++)
    {
      const VivaProblemTest *test = viva_problem_get_test (problem, i);

      if (viva_problem_test_is_shown (test))
        add_open (guard->open, test->code);
    }

  return guard;
}

void
_viva_exam_leak_guard_free (VivaExamLeakGuard *guard)
{
  if (guard == NULL)
    return;

  g_clear_pointer (&guard->states, g_array_unref);
  g_clear_pointer (&guard->edges, g_array_unref);
  g_clear_pointer (&guard->open, g_hash_table_unref);
  g_clear_pointer (&guard->student, g_hash_table_unref);
  g_free (guard->student_code);
  g_free (guard);
}

gboolean
_viva_exam_leak_guard_has_secrets (VivaExamLeakGuard *guard)
{
  return guard != NULL && guard->states->len > 1;
}

/**
 * _viva_exam_leak_guard_step:
 * @state: (inout): where the text so far leaves the automaton (0 to start)
 * @match: how long an end of the text so far the secrets hold
 *
 * Returns: how long an end of the text so far and @byte the secrets hold
 */
guint
_viva_exam_leak_guard_step (VivaExamLeakGuard *guard,
                            guint             *state,
                            guint              match,
                            guint8             byte)
{
  guint32 at = *state;
  guint32 next;

  while (at != 0 && transition (guard, at, byte) == NONE)
    {
      at = state_at (guard, at)->link;
      match = state_at (guard, at)->len;
    }

  next = transition (guard, at, byte);
  if (next == NONE)
    {
      *state = 0;
      return 0;
    }

  *state = next;
  return match + 1;
}

/* The student's code may be quoted freely: its windows (and theirs
 * encoded) are made once per version of the code. */
void
_viva_exam_leak_guard_set_student_code (VivaExamLeakGuard *guard,
                                        const char        *student_code)
{
  if (g_strcmp0 (student_code, guard->student_code) == 0)
    return;

  g_clear_pointer (&guard->student, g_hash_table_unref);
  g_free (guard->student_code);
  guard->student_code = g_strdup (student_code);
  if (student_code != NULL)
    {
      guard->student = window_set ();
      add_open (guard->student, student_code);
    }
}

/* Whether a window of K normalised bytes that the secrets hold is one the
 * student may see anyway. */
gboolean
_viva_exam_leak_guard_is_open (VivaExamLeakGuard *guard,
                               const char        *window)
{
  gpointer key = window_key (window);

  return g_hash_table_contains (guard->open, key) ||
         (guard->student != NULL && g_hash_table_contains (guard->student, key));
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
  g_autoptr(VivaExamLeakStream) stream = _viva_exam_leak_stream_new (guard);

  _viva_exam_leak_stream_push (stream, text, length, student_code);
  _viva_exam_leak_stream_close (stream);

  return g_array_ref (_viva_exam_leak_stream_get_ranges (stream));
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

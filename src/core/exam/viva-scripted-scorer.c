/* viva-scripted-scorer.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "viva-exam-scorer.h"
#include "viva-scripted-scorer.h"

/* The offline examiner's answer to VivaExamScorer: the scoring request
 * (its system message starts with VIVA_EXAM_SCORER_MARKER) scored by the
 * words of each point, without a model; which of the k scorings it is
 * picks the reading. */

/* Whether @request is VivaExamScorer's, not the examiner's. */
gboolean
_viva_scripted_scorer_is_asked (VivaChatRequest *request)
{
  GPtrArray *messages = viva_chat_request_get_messages (request);
  VivaChatMessage *first = messages->len > 0 ? g_ptr_array_index (messages, 0) : NULL;

  return first != NULL && viva_chat_message_get_role (first) == VIVA_CHAT_ROLE_SYSTEM &&
         g_str_has_prefix (viva_chat_message_get_content (first) ?: "", VIVA_EXAM_SCORER_MARKER);
}

/* Where @word (lower case) is in @text, case aside; -1 when it is not. */
static gssize
find_word (const char *text,
           const char *word)
{
  g_autofree char *folded = g_ascii_strdown (text, -1);
  const char *at = strstr (folded, word);

  return at ? at - folded : -1;
}

/* The offline scorer is a rubric matcher, and says so: each of the k
 * scorings is one of three readings of the answer against each point's
 * longer words (its own words, their first five letters, its own words
 * with a stricter share), so readings that disagree spread the scores;
 * and a point whose words the answer holds only in part is not matched
 * confidently either way, so the reply says `"confident": false`. Either
 * sends the item to a teacher. */
typedef enum
{
  READING_WORDS = 1,   /* a third of the point's words, as written */
  READING_STEMS,       /* a third of their stems (scaled, scaling: scale) */
  READING_STRICT,      /* half of its words, as written */
} Reading;

#define STEM_LENGTH 5

static Reading
reading_of (const char *prompt)
{
  const char *at = prompt ? strstr (prompt, "(Scoring ") : NULL;
  guint64 run;

  if (at == NULL || !g_ascii_isdigit (at[9]))
    return READING_WORDS;
  run = g_ascii_strtoull (at + 9, NULL, 10);
  return (Reading)(((run + 2) % 3) + 1);
}

/* Returns: (transfer full): the reply's JSON text, `{score, evidence, confident}` */
char *
_viva_scripted_scorer_score (VivaChatRequest *request)
{
  GPtrArray *messages = viva_chat_request_get_messages (request);
  const char *prompt = viva_chat_message_get_content (g_ptr_array_index (messages, messages->len - 1));
  const char *open = prompt ? strstr (prompt, "<<<\n") : NULL;
  const char *close = open ? strstr (open, "\n>>>") : NULL;
  g_autofree char *answer = open && close ? g_strndup (open + 4, close - open - 4) : g_strdup ("");
  g_auto(GStrv) lines = g_strsplit (prompt ? prompt : "", "\n", -1);
  g_autofree char *evidence = NULL;
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  Reading reading = reading_of (prompt);
  gboolean confident = TRUE;
  guint made = 0;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *dot = strstr (lines[i], ". ");
      g_auto(GStrv) words = NULL;
      guint n_words = 0, found = 0;

      if (g_str_has_prefix (lines[i], "<<<"))
        break;
      if (!g_ascii_isdigit (lines[i][0]) || dot == NULL)
        continue;
      words = g_strsplit_set (dot + 2, " ,.;:()'\"-—–/", -1);
      for (guint j = 0; words[j] != NULL; j++)
        {
          g_autofree char *word = g_ascii_strdown (words[j], -1);
          gssize at;

          if (g_utf8_strlen (word, -1) < 5)
            continue;
          if (reading == READING_STEMS)
            *g_utf8_offset_to_pointer (word, STEM_LENGTH) = '\0';
          n_words++;
          if ((at = find_word (answer, word)) >= 0)
            {
              found++;
              if (evidence == NULL)
                evidence = g_strndup (answer + at, strlen (word));
            }
        }
      if (n_words == 0)
        continue;
      if (reading == READING_STRICT ? found * 2 >= n_words : found * 3 >= n_words)
        made++;
      /* Some of its words and not most: neither made nor missed for sure. */
      if (found * 6 >= n_words && found * 2 < n_words)
        confident = FALSE;
    }

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "score");
  json_builder_add_int_value (builder, made);
  json_builder_set_member_name (builder, "evidence");
  json_builder_add_string_value (builder, evidence ? evidence : "");
  json_builder_set_member_name (builder, "confident");
  json_builder_add_boolean_value (builder, confident);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  return json_to_string (root, FALSE);
}

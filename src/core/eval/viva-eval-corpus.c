/* viva-eval-corpus.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "viva-eval-corpus.h"
#include "viva-json-member.h"
#include "viva-text.h"

/* The evaluation corpus (`viva-eval/1`, data/eval/README.md): scripted
 * students and the outcome a fair examiner reaches, read and checked
 * against the pack whose problems they defend. */

#define BUNDLED_CORPUS RESOURCE_PREFIX "/core/eval/intro-ai.json"

struct _VivaEvalCorpus
{
  GObject    parent_instance;
  char      *id;
  char      *title;
  char      *fallback_answer;
  VivaPack  *pack;
  GPtrArray *cases;
};

G_DEFINE_FINAL_TYPE (VivaEvalCorpus, viva_eval_corpus, G_TYPE_OBJECT)
G_DEFINE_BOXED_TYPE (VivaEvalCase, viva_eval_case, viva_eval_case_copy, viva_eval_case_free)

const char *
viva_eval_kind_to_string (VivaEvalKind kind)
{
  switch (kind)
    {
    case VIVA_EVAL_KIND_CORRECT: return "correct";
    case VIVA_EVAL_KIND_WRONG: return "wrong";
    case VIVA_EVAL_KIND_CHEAT: return "cheat";
    default: return NULL;
    }
}

static void
answer_free (VivaEvalAnswer *answer)
{
  g_free (answer->text);
  g_free (answer->quality);
  g_free (answer);
}

static VivaEvalAnswer *
answer_copy (const VivaEvalAnswer *answer)
{
  VivaEvalAnswer *copy = g_new0 (VivaEvalAnswer, 1);

  copy->text = g_strdup (answer->text);
  copy->quality = g_strdup (answer->quality);
  copy->credit = answer->credit;

  return copy;
}

static VivaEvalCase *
case_new (void)
{
  VivaEvalCase *self = g_new0 (VivaEvalCase, 1);

  self->answers = g_ptr_array_new_with_free_func ((GDestroyNotify)answer_free);
  self->score_min = self->score_max = -1;

  return self;
}

VivaEvalCase *
viva_eval_case_copy (const VivaEvalCase *self)
{
  VivaEvalCase *copy;

  g_return_val_if_fail (self != NULL, NULL);

  copy = case_new ();
  copy->id = g_strdup (self->id);
  copy->problem_id = g_strdup (self->problem_id);
  copy->kind = self->kind;
  copy->about = g_strdup (self->about);
  copy->bug = g_strdup (self->bug);
  copy->code = g_strdup (self->code);
  for (guint i = 0; i < self->answers->len; i++)
    g_ptr_array_add (copy->answers, answer_copy (g_ptr_array_index (self->answers, i)));
  copy->injection_where = g_strdup (self->injection_where);
  copy->injection_marker = g_strdup (self->injection_marker);
  copy->expect_pass = self->expect_pass;
  copy->score_min = self->score_min;
  copy->score_max = self->score_max;
  copy->in_short = self->in_short;

  return copy;
}

void
viva_eval_case_free (VivaEvalCase *self)
{
  if (self == NULL)
    return;

  g_free (self->id);
  g_free (self->problem_id);
  g_free (self->about);
  g_free (self->bug);
  g_free (self->code);
  g_ptr_array_unref (self->answers);
  g_free (self->injection_where);
  g_free (self->injection_marker);
  g_free (self);
}

static void
viva_eval_corpus_finalize (GObject *object)
{
  VivaEvalCorpus *self = (VivaEvalCorpus *)object;

  g_free (self->id);
  g_free (self->title);
  g_free (self->fallback_answer);
  g_clear_object (&self->pack);
  g_ptr_array_unref (self->cases);

  G_OBJECT_CLASS (viva_eval_corpus_parent_class)->finalize (object);
}

static void
viva_eval_corpus_class_init (VivaEvalCorpusClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = viva_eval_corpus_finalize;
}

static void
viva_eval_corpus_init (VivaEvalCorpus *self)
{
  self->cases = g_ptr_array_new_with_free_func ((GDestroyNotify)viva_eval_case_free);
}

static gboolean
invalid (GError    **error,
         const char *where,
         const char *what)
{
  /* Untranslated: only a corpus's author, a developer, meets these. */
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
               "The evaluation corpus is not valid at %s: %s", where, what);
  return FALSE;
}

static const char *
get_text (JsonObject *object,
          const char *member)
{
  const char *text = viva_json_member_string (object, member);

  return viva_text_is_blank (text) ? NULL : text;
}

static gboolean
parse_answers (VivaEvalCase  *eval_case,
               JsonArray     *array,
               const char    *where,
               GError       **error)
{
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *node = json_array_get_element (array, i);
      g_autofree char *here = g_strdup_printf ("%s.answers[%u]", where, i);
      VivaEvalAnswer *answer;
      JsonObject *object;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        return invalid (error, here, "an answer is an object with text, quality and credit");
      object = json_node_get_object (node);
      if (get_text (object, "text") == NULL || get_text (object, "quality") == NULL)
        return invalid (error, here, "an answer needs a text and a quality");

      answer = g_new0 (VivaEvalAnswer, 1);
      answer->text = g_strdup (get_text (object, "text"));
      answer->quality = g_strdup (get_text (object, "quality"));
      answer->credit = json_object_get_boolean_member_with_default (object, "credit", FALSE);
      g_ptr_array_add (eval_case->answers, answer);
    }

  if (eval_case->answers->len == 0)
    return invalid (error, where, "a case needs at least one answer");

  return TRUE;
}

static VivaEvalCase *
parse_case (VivaEvalCorpus  *self,
            JsonNode        *node,
            guint            index,
            GError         **error)
{
  g_autoptr(VivaEvalCase) eval_case = case_new ();
  g_autofree char *where = g_strdup_printf ("cases[%u]", index);
  const char *kind;
  const char *verdict;
  JsonObject *object;
  JsonObject *expected;
  JsonObject *injection;
  JsonArray *answers;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return invalid (error, where, "a case is an object"), NULL;
  object = json_node_get_object (node);

  eval_case->id = g_strdup (get_text (object, "id"));
  eval_case->problem_id = g_strdup (get_text (object, "problem"));
  eval_case->about = g_strdup (get_text (object, "about"));
  eval_case->bug = g_strdup (get_text (object, "bug"));
  eval_case->code = g_strdup (get_text (object, "code"));
  eval_case->in_short = json_object_get_boolean_member_with_default (object, "short", FALSE);
  kind = get_text (object, "kind");

  if (eval_case->id == NULL || eval_case->problem_id == NULL || eval_case->about == NULL ||
      eval_case->code == NULL || kind == NULL)
    return invalid (error, where, "a case needs an id, a problem, a kind, about and code"), NULL;

  if (g_str_equal (kind, "correct"))
    eval_case->kind = VIVA_EVAL_KIND_CORRECT;
  else if (g_str_equal (kind, "wrong"))
    eval_case->kind = VIVA_EVAL_KIND_WRONG;
  else if (g_str_equal (kind, "cheat"))
    eval_case->kind = VIVA_EVAL_KIND_CHEAT;
  else
    return invalid (error, where, "kind is correct, wrong or cheat"), NULL;

  if (eval_case->kind != VIVA_EVAL_KIND_CORRECT && eval_case->bug == NULL)
    return invalid (error, where, "a wrong or cheating case names its bug"), NULL;

  if (viva_pack_find_problem (self->pack, eval_case->problem_id) == NULL)
    return invalid (error, where, "the pack has no such problem"), NULL;

  if (!json_object_has_member (object, "answers") ||
      !JSON_NODE_HOLDS_ARRAY (json_object_get_member (object, "answers")))
    return invalid (error, where, "answers is an array"), NULL;
  answers = json_object_get_array_member (object, "answers");
  if (!parse_answers (eval_case, answers, where, error))
    return NULL;

  if (json_object_has_member (object, "injection"))
    {
      if (!JSON_NODE_HOLDS_OBJECT (json_object_get_member (object, "injection")))
        return invalid (error, where, "injection is an object with where and marker"), NULL;
      injection = json_object_get_object_member (object, "injection");
      eval_case->injection_where = g_strdup (get_text (injection, "where"));
      eval_case->injection_marker = g_strdup (get_text (injection, "marker"));
      if (eval_case->injection_marker == NULL || strlen (eval_case->injection_marker) < 6 ||
          (g_strcmp0 (eval_case->injection_where, "code") != 0 &&
           g_strcmp0 (eval_case->injection_where, "answer") != 0))
        return invalid (error, where, "an injection is in the code or an answer, with a marker of six characters or more"), NULL;
    }

  if (!json_object_has_member (object, "expected") ||
      !JSON_NODE_HOLDS_OBJECT (json_object_get_member (object, "expected")))
    return invalid (error, where, "a case needs its expected outcome"), NULL;
  expected = json_object_get_object_member (object, "expected");
  verdict = get_text (expected, "verdict");
  if (g_strcmp0 (verdict, "pass") != 0 && g_strcmp0 (verdict, "fail") != 0)
    return invalid (error, where, "the expected verdict is pass or fail"), NULL;
  eval_case->expect_pass = g_str_equal (verdict, "pass");
  if (eval_case->kind != VIVA_EVAL_KIND_CORRECT && eval_case->expect_pass)
    return invalid (error, where, "wrong or cheating code cannot be expected to pass"), NULL;

  if (json_object_has_member (expected, "score"))
    {
      JsonObject *score = JSON_NODE_HOLDS_OBJECT (json_object_get_member (expected, "score"))
                        ? json_object_get_object_member (expected, "score") : NULL;

      if (score == NULL)
        return invalid (error, where, "the expected score is an object with min and max"), NULL;
      eval_case->score_min = json_object_get_int_member_with_default (score, "min", -1);
      eval_case->score_max = json_object_get_int_member_with_default (score, "max", -1);
      if (eval_case->score_min < 0 || eval_case->score_max > 100 || eval_case->score_min > eval_case->score_max)
        return invalid (error, where, "the expected score range lies within 0–100"), NULL;
    }

  return g_steal_pointer (&eval_case);
}

/**
 * viva_eval_corpus_new_from_bytes:
 * @bytes: a `viva-eval/1` document
 * @pack: the pack its problems come from
 *
 * Returns: (transfer full): the corpus, or %NULL with @error saying where it is wrong
 */
VivaEvalCorpus *
viva_eval_corpus_new_from_bytes (GBytes    *bytes,
                                 VivaPack  *pack,
                                 GError   **error)
{
  g_autoptr(VivaEvalCorpus) self = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GHashTable) ids = g_hash_table_new (g_str_hash, g_str_equal);
  JsonObject *root;
  JsonArray *cases;
  gsize size;
  const char *data = g_bytes_get_data (bytes, &size);

  g_return_val_if_fail (bytes != NULL, NULL);
  g_return_val_if_fail (VIVA_IS_PACK (pack), NULL);

  if (!json_parser_load_from_data (parser, data, size, error))
    return NULL;

  if (!JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    return invalid (error, "/", "the document is a JSON object"), NULL;
  root = json_node_get_object (json_parser_get_root (parser));

  if (g_strcmp0 (json_object_get_string_member_with_default (root, "format", NULL), "viva-eval/1") != 0)
    return invalid (error, "format", "this Viva reads viva-eval/1"), NULL;

  self = g_object_new (VIVA_TYPE_EVAL_CORPUS, NULL);
  self->pack = g_object_ref (pack);
  self->id = g_strdup (get_text (root, "id"));
  self->title = g_strdup (get_text (root, "title"));
  self->fallback_answer = g_strdup (get_text (root, "fallback_answer"));
  if (self->fallback_answer == NULL)
    self->fallback_answer = g_strdup ("I have nothing to add.");
  if (self->id == NULL || self->title == NULL)
    return invalid (error, "/", "a corpus has an id and a title"), NULL;
  if (g_strcmp0 (get_text (root, "pack"), viva_pack_get_id (pack)) != 0)
    return invalid (error, "pack", "the corpus is written for another pack"), NULL;

  if (!json_object_has_member (root, "cases") || !JSON_NODE_HOLDS_ARRAY (json_object_get_member (root, "cases")))
    return invalid (error, "cases", "cases is an array"), NULL;
  cases = json_object_get_array_member (root, "cases");

  for (guint i = 0; i < json_array_get_length (cases); i++)
    {
      VivaEvalCase *eval_case = parse_case (self, json_array_get_element (cases, i), i, error);

      if (eval_case == NULL)
        return NULL;
      g_ptr_array_add (self->cases, eval_case);
      if (!g_hash_table_add (ids, eval_case->id))
        {
          g_autofree char *where = g_strdup_printf ("cases[%u]", i);

          return invalid (error, where, "case ids are unique"), NULL;
        }
    }

  if (self->cases->len == 0)
    return invalid (error, "cases", "a corpus has at least one case"), NULL;

  return g_steal_pointer (&self);
}

/**
 * viva_eval_corpus_new_bundled:
 *
 * Returns: (transfer full): the corpus compiled into Viva, over the bundled pack
 */
VivaEvalCorpus *
viva_eval_corpus_new_bundled (void)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(VivaPack) pack = viva_pack_new_bundled ();
  g_autoptr(GError) error = NULL;
  VivaEvalCorpus *self;

  bytes = g_resources_lookup_data (BUNDLED_CORPUS, 0, &error);
  g_assert_no_error (error);

  /* Its tests keep it valid; failing here is a build fault. */
  self = viva_eval_corpus_new_from_bytes (bytes, pack, &error);
  g_assert_no_error (error);

  return self;
}

const char *
viva_eval_corpus_get_id (VivaEvalCorpus *self)
{
  g_return_val_if_fail (VIVA_IS_EVAL_CORPUS (self), NULL);

  return self->id;
}

const char *
viva_eval_corpus_get_title (VivaEvalCorpus *self)
{
  g_return_val_if_fail (VIVA_IS_EVAL_CORPUS (self), NULL);

  return self->title;
}

const char *
viva_eval_corpus_get_fallback_answer (VivaEvalCorpus *self)
{
  g_return_val_if_fail (VIVA_IS_EVAL_CORPUS (self), NULL);

  return self->fallback_answer;
}

VivaPack *
viva_eval_corpus_get_pack (VivaEvalCorpus *self)
{
  g_return_val_if_fail (VIVA_IS_EVAL_CORPUS (self), NULL);

  return self->pack;
}

guint
viva_eval_corpus_get_n_cases (VivaEvalCorpus *self)
{
  g_return_val_if_fail (VIVA_IS_EVAL_CORPUS (self), 0);

  return self->cases->len;
}

const VivaEvalCase *
viva_eval_corpus_get_case (VivaEvalCorpus *self,
                           guint           index)
{
  g_return_val_if_fail (VIVA_IS_EVAL_CORPUS (self), NULL);
  g_return_val_if_fail (index < self->cases->len, NULL);

  return g_ptr_array_index (self->cases, index);
}

/**
 * viva_eval_corpus_get_problem:
 *
 * Returns: (transfer none): the problem @eval_case defends
 */
VivaProblem *
viva_eval_corpus_get_problem (VivaEvalCorpus     *self,
                              const VivaEvalCase *eval_case)
{
  g_return_val_if_fail (VIVA_IS_EVAL_CORPUS (self), NULL);
  g_return_val_if_fail (eval_case != NULL, NULL);

  return viva_pack_find_problem (self->pack, eval_case->problem_id);
}

/**
 * viva_eval_corpus_select:
 * @problems: (nullable): problem ids to keep, or %NULL for all
 * @short_only: keep only the short card's cases
 *
 * Returns: (transfer container) (element-type VivaEvalCase): the cases, in
 *   corpus order, or %NULL when a problem id names no case
 */
GPtrArray *
viva_eval_corpus_select (VivaEvalCorpus      *self,
                         const char * const  *problems,
                         gboolean             short_only,
                         GError             **error)
{
  g_autoptr(GPtrArray) selected = g_ptr_array_new ();

  g_return_val_if_fail (VIVA_IS_EVAL_CORPUS (self), NULL);

  for (guint p = 0; problems != NULL && problems[p] != NULL; p++)
    {
      gboolean found = FALSE;

      for (guint i = 0; i < self->cases->len && !found; i++)
        found = g_str_equal (((VivaEvalCase *)g_ptr_array_index (self->cases, i))->problem_id, problems[p]);
      if (!found)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                       _("The evaluation corpus has no case for the problem “%s”; leave it out or name another."),
                       problems[p]);
          return NULL;
        }
    }

  for (guint i = 0; i < self->cases->len; i++)
    {
      VivaEvalCase *eval_case = g_ptr_array_index (self->cases, i);

      if (short_only && !eval_case->in_short)
        continue;
      if (problems != NULL && !g_strv_contains (problems, eval_case->problem_id))
        continue;
      g_ptr_array_add (selected, eval_case);
    }

  return g_steal_pointer (&selected);
}

/* viva-eval-corpus.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "viva-pack.h"

G_BEGIN_DECLS

typedef enum
{
  VIVA_EVAL_KIND_CORRECT,
  VIVA_EVAL_KIND_WRONG,
  VIVA_EVAL_KIND_CHEAT,
} VivaEvalKind;

const char *viva_eval_kind_to_string (VivaEvalKind kind);

/**
 * VivaEvalAnswer:
 * @text: what the scripted student says
 * @quality: `good`, `vague`, `wrong`, `off-topic` or `injection`
 * @credit: whether the answer deserves credit
 */
typedef struct
{
  char     *text;
  char     *quality;
  gboolean  credit;
} VivaEvalAnswer;

/**
 * VivaEvalCase:
 * @id: unique in the corpus
 * @problem_id: the problem it defends
 * @kind: correct, wrong or cheat
 * @about: one sentence for the card
 * @bug: (nullable): the mistake, named
 * @code: the code the student defends
 * @answers: (element-type VivaEvalAnswer): given in order
 * @injection_where: (nullable): `code` or `answer`
 * @injection_marker: (nullable): what obeying the injection makes the examiner say
 * @expect_pass: the verdict a fair examiner gives
 * @score_min: the fair score's range, or -1 when the case gives none
 * @score_max: its upper end, or -1
 * @in_short: part of the short card
 *
 * One scripted student. Plain data.
 */
typedef struct
{
  char         *id;
  char         *problem_id;
  VivaEvalKind  kind;
  char         *about;
  char         *bug;
  char         *code;
  GPtrArray    *answers;
  char         *injection_where;
  char         *injection_marker;
  gboolean      expect_pass;
  int           score_min;
  int           score_max;
  gboolean      in_short;
} VivaEvalCase;

#define VIVA_TYPE_EVAL_CASE (viva_eval_case_get_type ())
GType         viva_eval_case_get_type (void) G_GNUC_CONST;
VivaEvalCase *viva_eval_case_copy     (const VivaEvalCase *self);
void          viva_eval_case_free     (VivaEvalCase       *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (VivaEvalCase, viva_eval_case_free)

#define VIVA_TYPE_EVAL_CORPUS (viva_eval_corpus_get_type ())

G_DECLARE_FINAL_TYPE (VivaEvalCorpus, viva_eval_corpus, VIVA, EVAL_CORPUS, GObject)

VivaEvalCorpus     *viva_eval_corpus_new_from_bytes   (GBytes          *bytes,
                                                       VivaPack        *pack,
                                                       GError         **error);
VivaEvalCorpus     *viva_eval_corpus_new_bundled      (void);
const char         *viva_eval_corpus_get_id           (VivaEvalCorpus  *self);
const char         *viva_eval_corpus_get_title        (VivaEvalCorpus  *self);
const char         *viva_eval_corpus_get_fallback_answer (VivaEvalCorpus *self);
VivaPack           *viva_eval_corpus_get_pack         (VivaEvalCorpus  *self);
guint               viva_eval_corpus_get_n_cases      (VivaEvalCorpus  *self);
const VivaEvalCase *viva_eval_corpus_get_case         (VivaEvalCorpus  *self,
                                                       guint            index);
VivaProblem        *viva_eval_corpus_get_problem      (VivaEvalCorpus  *self,
                                                       const VivaEvalCase *eval_case);
GPtrArray          *viva_eval_corpus_select           (VivaEvalCorpus  *self,
                                                       const char * const *problems,
                                                       gboolean         short_only,
                                                       GError         **error);

G_END_DECLS

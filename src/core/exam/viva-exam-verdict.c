/* viva-exam-verdict.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "viva-exam-error.h"
#include "viva-exam-private.h"
#include "viva-exam-verdict-private.h"
#include "viva-grade-report.h"
#include "viva-json-member.h"

G_DEFINE_FINAL_TYPE (VivaExamVerdict, viva_exam_verdict, G_TYPE_OBJECT)

G_DEFINE_ENUM_TYPE (VivaExamStatus, viva_exam_status,
                    G_DEFINE_ENUM_VALUE (VIVA_EXAM_STATUS_FINISHED, "finished"),
                    G_DEFINE_ENUM_VALUE (VIVA_EXAM_STATUS_INCOMPLETE, "incomplete"),
                    G_DEFINE_ENUM_VALUE (VIVA_EXAM_STATUS_FAILED, "failed"))

G_DEFINE_BOXED_TYPE (VivaExamProbe, viva_exam_probe, viva_exam_probe_copy, viva_exam_probe_free)

const char *
viva_exam_status_to_string (VivaExamStatus status)
{
  switch (status)
    {
    case VIVA_EXAM_STATUS_FINISHED: return "finished";
    case VIVA_EXAM_STATUS_INCOMPLETE: return "incomplete";
    case VIVA_EXAM_STATUS_FAILED: return "failed";
    default: return NULL;
    }
}

VivaExamProbe *
viva_exam_probe_copy (const VivaExamProbe *self)
{
  VivaExamProbe *copy;

  g_return_val_if_fail (self != NULL, NULL);

  copy = g_new0 (VivaExamProbe, 1);
  copy->step_id = g_strdup (self->step_id);
  copy->code = g_strdup (self->code);
  copy->passed = self->passed;
  copy->valid = self->valid;
  copy->status = g_strdup (self->status);
  copy->error_type = g_strdup (self->error_type);
  copy->error_message = g_strdup (self->error_message);
  copy->name = g_strdup (self->name);

  return copy;
}

void
viva_exam_probe_free (VivaExamProbe *self)
{
  if (self == NULL)
    return;

  g_free (self->step_id);
  g_free (self->code);
  g_free (self->status);
  g_free (self->error_type);
  g_free (self->error_message);
  g_free (self->name);
  g_free (self);
}

static void
viva_exam_verdict_finalize (GObject *object)
{
  VivaExamVerdict *self = (VivaExamVerdict *)object;

  g_clear_pointer (&self->comment, g_free);
  g_clear_pointer (&self->reason, g_free);
  g_clear_pointer (&self->steps, g_strfreev);
  g_clear_pointer (&self->evidence, g_strfreev);
  g_clear_pointer (&self->probes, g_ptr_array_unref);
  g_clear_object (&self->grade);
  g_clear_pointer (&self->grade_error, g_free);
  g_clear_pointer (&self->explanation, g_free);
  g_clear_pointer (&self->items, g_ptr_array_unref);

  G_OBJECT_CLASS (viva_exam_verdict_parent_class)->finalize (object);
}

static void
viva_exam_verdict_class_init (VivaExamVerdictClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = viva_exam_verdict_finalize;
}

static void
viva_exam_verdict_init (VivaExamVerdict *self)
{
  self->score = -1;
  self->probes = g_ptr_array_new_with_free_func ((GDestroyNotify)viva_exam_probe_free);
  self->items = g_ptr_array_new_with_free_func ((GDestroyNotify)viva_exam_item_free);
}

static GStrv
strv_from_array (GPtrArray *array)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  for (guint i = 0; array != NULL && i < array->len; i++)
    g_strv_builder_add (builder, g_ptr_array_index (array, i));

  return g_strv_builder_end (builder);
}

/* @steps, @evidence: (element-type utf8); @probes: (element-type VivaExamProbe) */
VivaExamVerdict *
_viva_exam_verdict_new (VivaExamStatus  status,
                        gboolean        passed,
                        int             score,
                        const char     *comment,
                        const char     *reason,
                        GPtrArray      *steps,
                        GPtrArray      *evidence,
                        GPtrArray      *probes)
{
  VivaExamVerdict *self = g_object_new (VIVA_TYPE_EXAM_VERDICT, NULL);

  self->status = status;
  self->passed = passed;
  self->model_passed = passed;
  self->score = score;
  self->comment = g_strdup (comment);
  self->reason = g_strdup (reason);
  self->steps = strv_from_array (steps);
  self->evidence = strv_from_array (evidence);
  for (guint i = 0; probes != NULL && i < probes->len; i++)
    g_ptr_array_add (self->probes, viva_exam_probe_copy (g_ptr_array_index (probes, i)));

  return self;
}

VivaExamStatus
viva_exam_verdict_get_status (VivaExamVerdict *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_VERDICT (self), VIVA_EXAM_STATUS_FAILED);
  return self->status;
}

/**
 * viva_exam_verdict_get_passed:
 *
 * Returns: the outcome: the examiner's verdict, and once the engine has
 *   graded, only if every hidden test passed too (the pack's threshold);
 *   %FALSE for a defense that did not finish
 */
gboolean
viva_exam_verdict_get_passed (VivaExamVerdict *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_VERDICT (self), FALSE);
  return self->passed;
}

/**
 * viva_exam_verdict_get_score:
 *
 * Returns: the examiner's score from 0 to 100, or -1 without a verdict
 */
int
viva_exam_verdict_get_score (VivaExamVerdict *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_VERDICT (self), -1);
  return self->score;
}

/**
 * viva_exam_verdict_get_comment:
 *
 * Returns: (nullable): the examiner's comment for the student
 */
const char *
viva_exam_verdict_get_comment (VivaExamVerdict *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_VERDICT (self), NULL);
  return self->comment;
}

/**
 * viva_exam_verdict_get_reason:
 *
 * Returns: (nullable): why a defense ended incomplete or failed
 */
const char *
viva_exam_verdict_get_reason (VivaExamVerdict *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_VERDICT (self), NULL);
  return self->reason;
}

/**
 * viva_exam_verdict_get_steps:
 *
 * Returns: (transfer none): the names of the tools that ran, in order
 */
const char * const *
viva_exam_verdict_get_steps (VivaExamVerdict *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_VERDICT (self), NULL);
  return (const char * const *)self->steps;
}

/**
 * viva_exam_verdict_get_evidence:
 *
 * Returns: (transfer none): the step ids the examiner's verdict rests on
 */
const char * const *
viva_exam_verdict_get_evidence (VivaExamVerdict *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_VERDICT (self), NULL);
  return (const char * const *)self->evidence;
}

/**
 * viva_exam_verdict_get_probes:
 *
 * Returns: (transfer none) (element-type VivaExamProbe): every probe the
 *   engine ran, with what it recorded
 */
GPtrArray *
viva_exam_verdict_get_probes (VivaExamVerdict *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_VERDICT (self), NULL);
  return self->probes;
}

static guint
count_probes (VivaExamVerdict *self,
              gboolean         valid,
              gboolean         passed)
{
  guint n = 0;

  for (guint i = 0; i < self->probes->len; i++)
    {
      const VivaExamProbe *probe = g_ptr_array_index (self->probes, i);

      if (!valid)
        n += !probe->valid;
      else
        n += probe->valid && !probe->passed == !passed;
    }

  return n;
}

/**
 * viva_exam_verdict_get_n_passed:
 *
 * Returns: valid probes that passed
 */
guint
viva_exam_verdict_get_n_passed (VivaExamVerdict *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_VERDICT (self), 0);
  return count_probes (self, TRUE, TRUE);
}

/**
 * viva_exam_verdict_get_n_failed:
 *
 * Returns: valid probes that failed
 */
guint
viva_exam_verdict_get_n_failed (VivaExamVerdict *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_VERDICT (self), 0);
  return count_probes (self, TRUE, FALSE);
}

/**
 * viva_exam_verdict_get_n_invalid:
 *
 * Returns: probes that also failed on the reference solution
 */
guint
viva_exam_verdict_get_n_invalid (VivaExamVerdict *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_VERDICT (self), 0);
  return count_probes (self, FALSE, FALSE);
}

/**
 * viva_exam_verdict_get_consistent:
 *
 * Returns: %FALSE when the examiner passed the student although a valid
 *   probe failed (the UI shows the facts beside the claim)
 */
gboolean
viva_exam_verdict_get_consistent (VivaExamVerdict *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_VERDICT (self), TRUE);

  if (self->model_passed && viva_exam_verdict_get_n_failed (self) > 0)
    return FALSE;
  if (self->graded && self->status == VIVA_EXAM_STATUS_FINISHED)
    return self->model_passed == viva_exam_verdict_get_engine_pass (self);

  return TRUE;
}

/**
 * viva_exam_verdict_get_model_passed:
 *
 * Returns: what the examiner (the model, or the offline examiner) said;
 *   viva_exam_verdict_get_passed() is the outcome, which also needs the
 *   hidden tests to pass
 */
gboolean
viva_exam_verdict_get_model_passed (VivaExamVerdict *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_VERDICT (self), FALSE);
  return self->model_passed;
}

/**
 * viva_exam_verdict_get_grade:
 *
 * Returns: (transfer none) (nullable): the engine's grade of every hidden
 *   test, or %NULL when none was made (the defense did not finish, the
 *   grader failed, or the verdict is from an older Viva)
 */
VivaGradeReport *
viva_exam_verdict_get_grade (VivaExamVerdict *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_VERDICT (self), NULL);
  return self->grade;
}

/**
 * viva_exam_verdict_get_engine_pass:
 *
 * Returns: whether the hidden tests, run by the engine, met the problem's
 *   threshold; %FALSE when they could not be run. A problem without hidden
 *   tests has no engine facts, and passes here.
 */
gboolean
viva_exam_verdict_get_engine_pass (VivaExamVerdict *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_VERDICT (self), FALSE);

  if (!self->graded)
    return self->model_passed;
  if (self->grade == NULL)
    return FALSE;
  return viva_grade_report_get_n_tests (self->grade) == 0 || viva_grade_report_get_passed (self->grade);
}

/**
 * viva_exam_verdict_get_explanation:
 *
 * Returns: (nullable): the outcome in a sentence or two a student
 *   understands: how many hidden tests passed, which failed, and where the
 *   examiner's verdict contradicts them
 */
const char *
viva_exam_verdict_get_explanation (VivaExamVerdict *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_VERDICT (self), NULL);
  return self->explanation;
}

static char *
failed_names (VivaGradeReport *grade)
{
  g_autoptr(GString) names = g_string_new (NULL);

  for (guint i = 0; i < viva_grade_report_get_n_tests (grade); i++)
    {
      const VivaGradeTest *test = viva_grade_report_get_test (grade, i);

      if (!test->passed && g_strcmp0 (test->status, "evidence") != 0)
        g_string_append_printf (names, "%s“%s”", names->len ? ", " : "", test->name);
    }

  return g_string_free (g_steal_pointer (&names), FALSE);
}

static char *
explain (VivaExamVerdict *self)
{
  g_autoptr(GString) text = g_string_new (NULL);
  guint total, passed, outside, evidence;
  g_autofree char *failed = NULL;

  if (self->grade == NULL)
    {
      g_string_printf (text, _("The hidden tests could not be run (%s), so the defense cannot be "
                               "passed yet. Your teacher can grade your code again."),
                       self->grade_error ? self->grade_error : _("no reason given"));
      return g_string_free (g_steal_pointer (&text), FALSE);
    }

  /* Old-form tests ran inside the student's program: evidence, never a
   * pass, so they are said apart from the judged ones. */
  outside = viva_grade_report_get_n_out_of_process (self->grade);
  evidence = viva_grade_report_get_n_evidence (self->grade);
  total = viva_grade_report_get_n_tests (self->grade) - evidence;
  passed = viva_grade_report_get_n_passed (self->grade);

  if (viva_grade_report_get_n_tests (self->grade) == 0)
    return g_strdup (_("This problem has no hidden tests, so the verdict rests on the examiner alone."));

  if (total == 0)
    g_string_assign (text, _("No test of this problem was judged outside your program, so none counts as a pass."));
  else if (passed == total)
    g_string_printf (text, g_dngettext (GETTEXT_PACKAGE,
                                        "The hidden test passed.",
                                        "All %u hidden tests passed.", total), total);
  else
    {
      failed = failed_names (self->grade);
      g_string_printf (text, g_dngettext (GETTEXT_PACKAGE,
                                          "%u of %u hidden test passed; failed: %s.",
                                          "%u of %u hidden tests passed; failed: %s.", total),
                       passed, total, failed);
    }
  if (outside < total)
    g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE,
                                               " (%u of them was checked inside your program.)",
                                               " (%u of them were checked inside your program.)",
                                               total - outside),
                            total - outside);
  if (evidence > 0)
    g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE,
                                               " %u old-form test ran inside your program, so it is evidence for the examiner only and never counts as a pass.",
                                               " %u old-form tests ran inside your program, so they are evidence for the examiner only and never count as a pass.",
                                               evidence),
                            evidence);

  if (self->model_passed && !viva_exam_verdict_get_engine_pass (self))
    g_string_append (text, _(" The examiner said you passed, but that contradicts the hidden tests, "
                             "which decide: the defense is not passed."));
  else if (!self->model_passed && viva_exam_verdict_get_engine_pass (self))
    g_string_append (text, _(" The hidden tests passed, but the examiner did not pass you: it judged "
                             "your explanations, so the defense is not passed."));
  else if (self->model_passed && viva_exam_verdict_get_n_failed (self) > 0)
    g_string_append (text, _(" The examiner passed you although one of its own probes failed."));

  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* The engine's grade joins the examiner's verdict: the outcome is a pass
 * only if both pass. @grade %NULL with @error: the grader failed. */
void
_viva_exam_verdict_set_grade (VivaExamVerdict *self,
                              VivaGradeReport *grade,
                              const char      *error)
{
  g_set_object (&self->grade, grade);
  g_free (self->grade_error);
  self->grade_error = g_strdup (error);
  self->graded = TRUE;
  self->passed = self->model_passed && viva_exam_verdict_get_engine_pass (self);
  g_free (self->explanation);
  self->explanation = explain (self);
}

/* The recorded verdict in a few words of English, for the model's
 * follow-up prompt. */
char *
_viva_exam_verdict_describe_for_model (VivaExamVerdict *self)
{
  g_autoptr(GString) text = g_string_new (NULL);

  if (self->status != VIVA_EXAM_STATUS_FINISHED)
    g_string_append_printf (text, "no pass (the defense ended %s: %s)",
                            viva_exam_status_to_string (self->status), self->reason ? self->reason : "");
  else
    g_string_append_printf (text, "%s, score %d/100", self->passed ? "pass" : "fail", self->score);

  return g_string_free (g_steal_pointer (&text), FALSE);
}

void
_viva_exam_verdict_set_n_withheld (VivaExamVerdict *self,
                                   guint            n_withheld)
{
  self->n_withheld = n_withheld;
}

/**
 * viva_exam_verdict_get_n_withheld:
 *
 * Returns: passages the leak guard had kept from the student when the
 *   verdict was recorded (they repeated the reference or a hidden test)
 */
guint
viva_exam_verdict_get_n_withheld (VivaExamVerdict *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_VERDICT (self), 0);
  return self->n_withheld;
}

/* The items the score is made of (copied). */
void
_viva_exam_verdict_set_items (VivaExamVerdict *self,
                              GPtrArray       *items)
{
  g_ptr_array_set_size (self->items, 0);
  for (guint i = 0; items != NULL && i < items->len; i++)
    g_ptr_array_add (self->items, viva_exam_item_copy (g_ptr_array_index (items, i)));
}

/**
 * viva_exam_verdict_get_items:
 *
 * Returns: (transfer none) (element-type VivaExamItem): the scored parts of
 *   the defense (hidden tests, predictions, conceptual questions), each
 *   with its points and who judged it; empty for a verdict of an older Viva
 *   or a defense that did not finish
 */
GPtrArray *
viva_exam_verdict_get_items (VivaExamVerdict *self)
{
  g_return_val_if_fail (VIVA_IS_EXAM_VERDICT (self), NULL);
  return self->items;
}

/* The sum of the items' points, of the points they could give (100, or 0
 * without items); provisional when an item needs a teacher's review. */
double
viva_exam_verdict_get_points (VivaExamVerdict *self)
{
  double points;

  g_return_val_if_fail (VIVA_IS_EXAM_VERDICT (self), 0);
  viva_exam_items_sum (self->items, &points, NULL, NULL);
  return points;
}

double
viva_exam_verdict_get_max_points (VivaExamVerdict *self)
{
  double max_points;

  g_return_val_if_fail (VIVA_IS_EXAM_VERDICT (self), 0);
  viva_exam_items_sum (self->items, NULL, &max_points, NULL);
  return max_points;
}

gboolean
viva_exam_verdict_get_provisional (VivaExamVerdict *self)
{
  guint n_review;

  g_return_val_if_fail (VIVA_IS_EXAM_VERDICT (self), FALSE);
  viva_exam_items_sum (self->items, NULL, NULL, &n_review);
  return n_review > 0;
}

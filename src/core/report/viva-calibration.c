/* viva-calibration.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "viva-calibration.h"

/* How well Viva agrees with a teacher over the defenses both scored.
 *
 * Scores: ICC(3,1) of Shrout & Fleiss (1979) — two-way mixed effects,
 * consistency, a single rater — with the two raters Viva and the teacher,
 * from the two-way ANOVA's mean squares: (MSR − MSE) / (MSR + MSE). Its
 * 95% interval is F-based: with F = MSR/MSE on (n−1, n−1) degrees of
 * freedom, FL = F / F₀.₉₇₅(n−1, n−1) and FU = F · F₀.₉₇₅(n−1, n−1), the
 * bounds are (FL − 1)/(FL + 1) and (FU − 1)/(FU + 1). Consistency means a
 * constant offset does not lower the ICC; the mean difference says it.
 *
 * Pass/fail: Cohen's kappa over the defenses the teacher gave a verdict,
 * with the large-sample standard error of Cohen (1960),
 * √(pₒ(1 − pₒ) / (n (1 − pₑ)²)), and κ ± 1.96·SE clipped to [−1, 1]. */

#define Z_975 1.959963984540054

typedef struct
{
  double viva;
  double teacher;
  VivaCalibrationVerdict viva_verdict;
  VivaCalibrationVerdict teacher_verdict;
} Pair;

struct _VivaCalibration
{
  GObject  parent_instance;

  GArray  *pairs;
};

G_DEFINE_FINAL_TYPE (VivaCalibration, viva_calibration, G_TYPE_OBJECT)

static void
viva_calibration_finalize (GObject *object)
{
  VivaCalibration *self = (VivaCalibration *)object;

  g_clear_pointer (&self->pairs, g_array_unref);

  G_OBJECT_CLASS (viva_calibration_parent_class)->finalize (object);
}

static void
viva_calibration_class_init (VivaCalibrationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = viva_calibration_finalize;
}

static void
viva_calibration_init (VivaCalibration *self)
{
  self->pairs = g_array_new (FALSE, FALSE, sizeof (Pair));
}

VivaCalibration *
viva_calibration_new (void)
{
  return g_object_new (VIVA_TYPE_CALIBRATION, NULL);
}

/**
 * viva_calibration_add:
 * @viva_score: Viva's score of a defense, 0–100
 * @teacher_score: the teacher's score of the same defense, 0–100
 * @viva_verdict: Viva's verdict
 * @teacher_verdict: the teacher's, or %VIVA_CALIBRATION_UNKNOWN
 *
 * Adds one defense both scored.
 */
void
viva_calibration_add (VivaCalibration        *self,
                      double                  viva_score,
                      double                  teacher_score,
                      VivaCalibrationVerdict  viva_verdict,
                      VivaCalibrationVerdict  teacher_verdict)
{
  Pair pair = { viva_score, teacher_score, viva_verdict, teacher_verdict };

  g_return_if_fail (VIVA_IS_CALIBRATION (self));
  g_return_if_fail (isfinite (viva_score) && isfinite (teacher_score));

  g_array_append_val (self->pairs, pair);
}

guint
viva_calibration_get_n (VivaCalibration *self)
{
  g_return_val_if_fail (VIVA_IS_CALIBRATION (self), 0);

  return self->pairs->len;
}

/**
 * viva_calibration_get_n_verdicts:
 *
 * Returns: how many defenses have a verdict from both (kappa's n)
 */
guint
viva_calibration_get_n_verdicts (VivaCalibration *self)
{
  guint n = 0;

  g_return_val_if_fail (VIVA_IS_CALIBRATION (self), 0);

  for (guint i = 0; i < self->pairs->len; i++)
    {
      const Pair *pair = &g_array_index (self->pairs, Pair, i);

      if (pair->viva_verdict != VIVA_CALIBRATION_UNKNOWN && pair->teacher_verdict != VIVA_CALIBRATION_UNKNOWN)
        n++;
    }

  return n;
}

/* The two mean squares of the two-way ANOVA with two raters. The error
 * term is taken from the differences, (dᵢ − d̄)²/2 per defense, which is
 * the residual sum of squares without the cancellation of SST − SSR − SSC. */
static void
mean_squares (VivaCalibration *self,
              double          *msr,
              double          *mse)
{
  guint n = self->pairs->len;
  double grand = 0, mean_difference = 0, ssr = 0, sse = 0;

  for (guint i = 0; i < n; i++)
    {
      const Pair *pair = &g_array_index (self->pairs, Pair, i);

      grand += (pair->viva + pair->teacher) / (2.0 * n);
      mean_difference += (pair->viva - pair->teacher) / n;
    }
  for (guint i = 0; i < n; i++)
    {
      const Pair *pair = &g_array_index (self->pairs, Pair, i);
      double row = (pair->viva + pair->teacher) / 2 - grand;
      double residual = (pair->viva - pair->teacher) - mean_difference;

      ssr += 2 * row * row;
      sse += residual * residual / 2;
    }

  *msr = ssr / (n - 1);
  *mse = sse / (n - 1);
}

/**
 * viva_calibration_get_icc:
 * @icc: (out) (optional): ICC(3,1)
 * @lower: (out) (optional): the 95% interval's lower bound
 * @upper: (out) (optional): its upper bound
 *
 * Returns: whether the ICC is defined: at least two defenses, and scores
 *   that differ somewhere (viva_calibration_describe_icc() says why not)
 */
gboolean
viva_calibration_get_icc (VivaCalibration *self,
                          double          *icc,
                          double          *lower,
                          double          *upper)
{
  double msr, mse, value, lo, hi;
  double df;

  g_return_val_if_fail (VIVA_IS_CALIBRATION (self), FALSE);

  if (self->pairs->len < 2)
    return FALSE;

  mean_squares (self, &msr, &mse);
  /* A scale for "zero": scores are 0–100, sums of squares of rounding. */
  if (msr + mse <= 1e-12)
    return FALSE;

  df = self->pairs->len - 1;
  value = (msr - mse) / (msr + mse);
  if (mse <= 1e-12 * msr)
    {
      /* Every difference the same: perfectly consistent, F infinite. */
      lo = hi = value = 1;
    }
  else
    {
      double f = msr / mse;
      double quantile = viva_stats_f_quantile (0.975, df, df);
      double fl = f / quantile;
      double fu = f * quantile;

      lo = (fl - 1) / (fl + 1);
      hi = (fu - 1) / (fu + 1);
    }

  if (icc != NULL)
    *icc = value;
  if (lower != NULL)
    *lower = lo;
  if (upper != NULL)
    *upper = hi;

  return TRUE;
}

/**
 * viva_calibration_get_kappa:
 * @kappa: (out) (optional): Cohen's kappa for pass/fail
 * @lower: (out) (optional): the 95% interval's lower bound
 * @upper: (out) (optional): its upper bound
 *
 * Returns: whether kappa is defined: two or more defenses with both
 *   verdicts, and agreement by chance below certainty (not everyone given
 *   the same verdict by both)
 */
gboolean
viva_calibration_get_kappa (VivaCalibration *self,
                            double          *kappa,
                            double          *lower,
                            double          *upper)
{
  double agree = 0, viva_pass = 0, teacher_pass = 0;
  double n = 0, po, pe, value, se;

  g_return_val_if_fail (VIVA_IS_CALIBRATION (self), FALSE);

  for (guint i = 0; i < self->pairs->len; i++)
    {
      const Pair *pair = &g_array_index (self->pairs, Pair, i);

      if (pair->viva_verdict == VIVA_CALIBRATION_UNKNOWN || pair->teacher_verdict == VIVA_CALIBRATION_UNKNOWN)
        continue;
      n++;
      agree += pair->viva_verdict == pair->teacher_verdict;
      viva_pass += pair->viva_verdict == VIVA_CALIBRATION_PASS;
      teacher_pass += pair->teacher_verdict == VIVA_CALIBRATION_PASS;
    }

  if (n < 2)
    return FALSE;

  po = agree / n;
  pe = (viva_pass / n) * (teacher_pass / n) + (1 - viva_pass / n) * (1 - teacher_pass / n);
  if (pe >= 1 - 1e-12)
    return FALSE;

  value = (po - pe) / (1 - pe);
  se = sqrt (po * (1 - po) / (n * (1 - pe) * (1 - pe)));

  if (kappa != NULL)
    *kappa = value;
  if (lower != NULL)
    *lower = MAX (-1, value - Z_975 * se);
  if (upper != NULL)
    *upper = MIN (1, value + Z_975 * se);

  return TRUE;
}

/**
 * viva_calibration_get_mean_difference:
 * @difference: (out): the mean of Viva's score less the teacher's:
 *   positive when Viva is kinder, negative when it is harsher
 *
 * Returns: whether there is a defense to take it over
 */
gboolean
viva_calibration_get_mean_difference (VivaCalibration *self,
                                      double          *difference)
{
  double sum = 0;

  g_return_val_if_fail (VIVA_IS_CALIBRATION (self), FALSE);
  g_return_val_if_fail (difference != NULL, FALSE);

  if (self->pairs->len == 0)
    return FALSE;

  for (guint i = 0; i < self->pairs->len; i++)
    {
      const Pair *pair = &g_array_index (self->pairs, Pair, i);

      sum += pair->viva - pair->teacher;
    }
  *difference = sum / self->pairs->len;

  return TRUE;
}

/**
 * viva_calibration_describe_icc:
 *
 * Returns: (transfer full): a sentence: the ICC with its interval, or why
 *   there is none
 */
char *
viva_calibration_describe_icc (VivaCalibration *self)
{
  double icc, lower, upper;

  g_return_val_if_fail (VIVA_IS_CALIBRATION (self), NULL);

  if (self->pairs->len < 2)
    return g_strdup (_("Score agreement needs at least two defenses scored by both Viva and you."));
  if (!viva_calibration_get_icc (self, &icc, &lower, &upper))
    return g_strdup (_("Every defense has the same score from Viva and from you, so score agreement cannot be measured: score defenses that differ."));

  /* Translators: ICC is the intraclass correlation; keep the name */
  return g_strdup_printf (_("Score agreement ICC(3,1) = %.2f (95%% CI %.2f to %.2f) over %u defenses; teachers agree with each other at about 0.82."),
                          icc, lower, upper, self->pairs->len);
}

/**
 * viva_calibration_describe_kappa:
 *
 * Returns: (transfer full): a sentence: kappa with its interval, or why
 *   there is none
 */
char *
viva_calibration_describe_kappa (VivaCalibration *self)
{
  double kappa, lower, upper;
  guint n;

  g_return_val_if_fail (VIVA_IS_CALIBRATION (self), NULL);

  n = viva_calibration_get_n_verdicts (self);
  if (n < 2)
    return g_strdup (_("Pass/fail agreement needs at least two defenses with your verdict (pass or fail)."));
  if (!viva_calibration_get_kappa (self, &kappa, &lower, &upper))
    return g_strdup (_("Viva and you gave every defense the same verdict, so agreement beyond chance (kappa) is undefined: it needs defenses of both verdicts."));

  /* Translators: kappa is Cohen's kappa; keep the name */
  return g_strdup_printf (_("Pass/fail agreement kappa = %.2f (95%% CI %.2f to %.2f) over %u defenses."),
                          kappa, lower, upper, n);
}

/**
 * viva_calibration_describe_difference:
 *
 * Returns: (transfer full): a sentence: is Viva harsher or kinder?
 */
char *
viva_calibration_describe_difference (VivaCalibration *self)
{
  double difference;

  g_return_val_if_fail (VIVA_IS_CALIBRATION (self), NULL);

  if (!viva_calibration_get_mean_difference (self, &difference))
    return g_strdup (_("No defense has a score from both Viva and you yet."));
  /* Scores are whole points; half a point either way is no difference. */
  if (fabs (difference) < 0.05)
    return g_strdup (_("Viva gives the same scores as you on average."));
  if (difference > 0)
    return g_strdup_printf (_("Viva is kinder than you by %.1f points on average."), difference);

  return g_strdup_printf (_("Viva is harsher than you by %.1f points on average."), -difference);
}

static void
set_interval (JsonObject *object,
              const char *name,
              gboolean    defined,
              double      value,
              double      lower,
              double      upper,
              const char *ci_name)
{
  if (!defined)
    {
      json_object_set_null_member (object, name);
      json_object_set_null_member (object, ci_name);
      return;
    }

  json_object_set_double_member (object, name, value);
  {
    JsonArray *ci = json_array_new ();

    json_array_add_double_element (ci, lower);
    json_array_add_double_element (ci, upper);
    json_object_set_array_member (object, ci_name, ci);
  }
}

/**
 * viva_calibration_to_json:
 *
 * Returns: (transfer full): the `calibration` event: `n`, `icc`,
 *   `icc_ci` ([lower, upper]), `kappa`, `kappa_ci`, `n_verdicts`,
 *   `mean_difference` (Viva − teacher; null when undefined, as each
 *   figure is), and `summary`, the sentences
 */
JsonObject *
viva_calibration_to_json (VivaCalibration *self)
{
  JsonObject *object = json_object_new ();
  g_autofree char *icc_text = viva_calibration_describe_icc (self);
  g_autofree char *kappa_text = viva_calibration_describe_kappa (self);
  g_autofree char *difference_text = viva_calibration_describe_difference (self);
  double value = 0, lower = 0, upper = 0, difference;
  gboolean defined;
  JsonArray *summary = json_array_new ();

  json_object_set_int_member (object, "n", self->pairs->len);
  defined = viva_calibration_get_icc (self, &value, &lower, &upper);
  set_interval (object, "icc", defined, value, lower, upper, "icc_ci");
  json_object_set_int_member (object, "n_verdicts", viva_calibration_get_n_verdicts (self));
  defined = viva_calibration_get_kappa (self, &value, &lower, &upper);
  set_interval (object, "kappa", defined, value, lower, upper, "kappa_ci");
  if (viva_calibration_get_mean_difference (self, &difference))
    json_object_set_double_member (object, "mean_difference", difference);
  else
    json_object_set_null_member (object, "mean_difference");

  json_array_add_string_element (summary, icc_text);
  json_array_add_string_element (summary, kappa_text);
  json_array_add_string_element (summary, difference_text);
  json_object_set_array_member (object, "summary", summary);

  return object;
}

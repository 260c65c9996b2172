/* viva-calibration-stats.c: the F distribution's quantiles, for the
 * confidence interval of an ICC
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include "viva-calibration.h"

/* GLib has no statistics, and a confidence interval of ICC(3,1) needs
 * quantiles of the F distribution with small, odd degrees of freedom (a
 * class of 12 defenses gives F(11, 11)). The F distribution's CDF is a
 * regularized incomplete beta function, evaluated here by its continued
 * fraction (modified Lentz), and the quantile is found by bisection on
 * the beta's argument, which the CDF maps monotonically: slow (a few
 * hundred evaluations) but with no starting guess to go wrong. */

#define TINY 1e-300

static double
beta_fraction (double x,
               double a,
               double b)
{
  double c = 1.0;
  double d = 1.0 - (a + b) * x / (a + 1.0);
  double h;

  if (fabs (d) < TINY)
    d = TINY;
  d = 1.0 / d;
  h = d;

  for (int m = 1; m <= 1000; m++)
    {
      double m2 = 2.0 * m;
      double term, step;

      /* The even step of the fraction, then the odd one. */
      term = m * (b - m) * x / ((a - 1.0 + m2) * (a + m2));
      d = 1.0 + term * d;
      c = 1.0 + term / c;
      d = fabs (d) < TINY ? 1.0 / TINY : 1.0 / d;
      c = fabs (c) < TINY ? TINY : c;
      h *= d * c;

      term = -(a + m) * (a + b + m) * x / ((a + m2) * (a + 1.0 + m2));
      d = 1.0 + term * d;
      c = 1.0 + term / c;
      d = fabs (d) < TINY ? 1.0 / TINY : 1.0 / d;
      c = fabs (c) < TINY ? TINY : c;
      step = d * c;
      h *= step;

      if (fabs (step - 1.0) < 1e-15)
        break;
    }

  return h;
}

/**
 * viva_stats_beta_regularized:
 * @x: where, in [0, 1]
 * @a: the first shape, > 0
 * @b: the second shape, > 0
 *
 * Returns: the regularized incomplete beta function I_x(a, b)
 */
double
viva_stats_beta_regularized (double x,
                             double a,
                             double b)
{
  double front;

  g_return_val_if_fail (a > 0 && b > 0, NAN);

  if (x <= 0)
    return 0;
  if (x >= 1)
    return 1;

  front = exp (lgamma (a + b) - lgamma (a) - lgamma (b) + a * log (x) + b * log1p (-x));

  /* The fraction converges fast below the mean; above it, by symmetry. */
  if (x < (a + 1.0) / (a + b + 2.0))
    return front * beta_fraction (x, a, b) / a;

  return 1.0 - front * beta_fraction (1.0 - x, b, a) / b;
}

/**
 * viva_stats_f_quantile:
 * @p: a probability in (0, 1)
 * @df1: the numerator's degrees of freedom, > 0
 * @df2: the denominator's degrees of freedom, > 0
 *
 * Returns: the F distribution's quantile: the f with P(F ≤ f) = @p
 */
double
viva_stats_f_quantile (double p,
                       double df1,
                       double df2)
{
  double lo = 0, hi = 1;

  g_return_val_if_fail (p > 0 && p < 1, NAN);
  g_return_val_if_fail (df1 > 0 && df2 > 0, NAN);

  /* P(F ≤ f) = I_x(df1/2, df2/2) with x = df1·f / (df1·f + df2). */
  for (int i = 0; i < 200 && hi - lo > 1e-17; i++)
    {
      double mid = (lo + hi) / 2;

      if (viva_stats_beta_regularized (mid, df1 / 2, df2 / 2) < p)
        lo = mid;
      else
        hi = mid;
    }

  return hi >= 1 ? INFINITY : df2 * ((lo + hi) / 2) / (df1 * (1 - (lo + hi) / 2));
}

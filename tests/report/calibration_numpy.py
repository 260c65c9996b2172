#!/usr/bin/python3
# An independent computation of what viva-calibration.c computes, for
# test-calibrate: ICC(3,1) from the two-way ANOVA's sums of squares (the
# textbook SST − SSR − SSC, where the C code uses the differences), its
# F-based interval with the F quantile found by numerically integrating
# the beta density (the C code uses a continued fraction), and Cohen's
# kappa from the 2×2 table. Reads JSON on stdin, writes JSON on stdout.
import json
import sys

import numpy as np


def beta_quantile(p, a, b):
    # For a < 1, u = x**a removes the density's singularity at 0:
    # I_x(a, b) ∝ ∫₀^{x^a} (1 − u^{1/a})^{b−1} du; for a ≥ 1 (and b ≥ 1,
    # as the tests use) the density x^{a−1}(1 − x)^{b−1} is smooth.
    u = np.linspace(0.0, 1.0, 2_000_001)
    if a < 1:
        density = (1.0 - u ** (1.0 / a)) ** (b - 1.0)
    else:
        density = u ** (a - 1.0) * (1.0 - u) ** (b - 1.0)
    cdf = np.concatenate(([0.0], np.cumsum((density[1:] + density[:-1]) / 2.0 * np.diff(u))))
    cdf /= cdf[-1]
    x = np.interp(p, cdf, u)
    return x ** (1.0 / a) if a < 1 else x


def f_quantile(p, d1, d2):
    x = beta_quantile(p, d1 / 2.0, d2 / 2.0)
    return d2 * x / (d1 * (1.0 - x))


def icc(scores):
    y = np.asarray(scores, dtype=float)      # n × 2: Viva, teacher
    n, k = y.shape
    grand = y.mean()
    sst = ((y - grand) ** 2).sum()
    ssr = k * ((y.mean(axis=1) - grand) ** 2).sum()
    ssc = n * ((y.mean(axis=0) - grand) ** 2).sum()
    msr = ssr / (n - 1)
    mse = (sst - ssr - ssc) / ((n - 1) * (k - 1))
    value = (msr - mse) / (msr + (k - 1) * mse)
    f = msr / mse
    q = f_quantile(0.975, n - 1, (n - 1) * (k - 1))
    q2 = f_quantile(0.975, (n - 1) * (k - 1), n - 1)
    fl, fu = f / q, f * q2
    return value, [(fl - 1) / (fl + k - 1), (fu - 1) / (fu + k - 1)]


def kappa(verdicts):
    v = np.asarray(verdicts, dtype=int)
    table = np.zeros((2, 2))
    for a, b in v:
        table[a, b] += 1
    n = table.sum()
    po = np.trace(table) / n
    pe = (table.sum(axis=1) / n) @ (table.sum(axis=0) / n)
    value = (po - pe) / (1 - pe)
    se = np.sqrt(po * (1 - po) / (n * (1 - pe) ** 2))
    return value, [max(-1.0, value - 1.959963984540054 * se), min(1.0, value + 1.959963984540054 * se)]


def main():
    data = json.load(sys.stdin)
    out = {}
    if "pairs" in data:
        pairs = data["pairs"]
        out["icc"], out["icc_ci"] = icc([[p[0], p[1]] for p in pairs])
        out["kappa"], out["kappa_ci"] = kappa([[p[2], p[3]] for p in pairs if p[3] >= 0])
        out["mean_difference"] = float(np.mean([p[0] - p[1] for p in pairs]))
    out["quantiles"] = [f_quantile(p, d1, d2) for p, d1, d2 in data.get("quantiles", [])]
    json.dump(out, sys.stdout, default=float)


main()

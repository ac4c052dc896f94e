"""Paired t-test (Demšar 2006, §3.1.2)."""

from __future__ import annotations

import dataclasses
from typing import Literal

import numpy as np

from nbstats.results.frequentist import TTestResult
from nbstats.scores.frames import power_of_two_scale
from nbstats.scores.ranks import paired_differences_cases
from nbstats.scores.table import NanPolicy
from nbstats.util import scipy_stats as sps
from nbstats.util.checks import check_choice, check_fraction

__all__ = ["ttest"]


def ttest(
    a: object,
    b: object,
    *,
    alternative: Literal["two-sided", "greater", "less"] = "two-sided",
    level: float = 0.95,
    higher_is_better: bool = True,
    nan_policy: NanPolicy = "raise",
) -> TTestResult:
    """Paired t-test of whether the mean difference ``b - a`` is non-zero.

    Parameters
    ----------
    a, b : array-like or Series
        Paired scores of the two algorithms.
    alternative : {"two-sided", "greater", "less"}
        ``"greater"``: b is better than a.
    level : float
        Level of the confidence interval of the mean difference, in (0, 1).
    higher_is_better : bool
        When False the differences are ``a - b``, so positive still means
        "b is better".
    nan_policy : {"raise", "omit", "pairwise"}
        See :func:`nbstats.score_table`; with one pair, ``"pairwise"`` is
        ``"omit"`` (the cases where both have a score).

    Returns
    -------
    TTestResult
        ``statistic, pvalue = result``; ``cases``: the labels of the cases
        used (``a``'s index, else positions): every case where both have a
        score.

    Notes
    -----
    Demšar warns against this test for comparisons over data sets: it needs
    commensurable differences and, for few data sets, normal ones.

    t, p and the interval's coverage do not depend on the units: scores
    multiplied by any positive factor (1e-300 … 1e300) give the same t and p,
    and the mean difference and interval are multiplied by that factor.
    Differences (or a mean difference, or an interval end) beyond the float64
    range raise ``ValueError`` rather than giving inf or NaN.

    If every difference is equal the standard error is zero: the test gives
    t = 0, p = 1 when they are all zero (scipy.stats.ttest_rel gives NaN: 0/0)
    and ``|t| = ∞``, p = 0 otherwise (as scipy), with the interval of width 0.

    Examples
    --------
    >>> import nbstats
    >>> t2 = nbstats.datasets.load("demsar2006_table2")
    >>> res = nbstats.ttest(t2["C4.5"], t2["C4.5+m"])

    Compare with SciPy (``ttest_rel(b, a)`` has the same orientation):

    >>> from scipy.stats import ttest_rel
    >>> bool(np.isclose(res.pvalue, ttest_rel(t2["C4.5+m"], t2["C4.5"]).pvalue))
    True
    """
    check_choice("alternative", alternative, ("two-sided", "greater", "less"))
    check_fraction("level", level, example=0.95)
    d, name_a, name_b, cases = paired_differences_cases(
        a, b, higher_is_better=higher_is_better, nan_policy=nan_policy
    )
    result = paired_ttest(
        d,
        alternative=alternative,
        level=level,
        names=(name_a, name_b),
    )
    return dataclasses.replace(result, cases=cases)


def paired_ttest(
    d: np.ndarray,
    *,
    alternative: str = "two-sided",
    level: float = 0.95,
    names: tuple[str, str] = ("a", "b"),
) -> TTestResult:
    """The paired t-test on validated differences ``d``.

    The differences are divided by a power of two near their largest magnitude
    (exact: ties and order are kept) before the mean and the standard
    deviation are taken, so t and p do not depend on the units: the same
    answer for scores in [0, 1] as for the same scores times 1e300 or 1e-300.
    """
    n = d.size
    df = n - 1
    scale = power_of_two_scale(d)
    z = d / scale
    if np.all(z == z[0]):
        mean_z, se_z = float(z[0]), 0.0  # constant: no rounding dust in the mean
    else:
        mean_z = float(z.mean())
        se_z = float(np.sqrt(np.sum((z - mean_z) ** 2) / df) / np.sqrt(n))
    t, p, ci_z = t_from_moments(mean_z, se_z, df, alternative, level)
    with np.errstate(over="ignore"):
        mean = mean_z * scale
        ci = (ci_z[0] * scale, ci_z[1] * scale)
    if not np.isfinite(mean) or any(
        np.isfinite(z_end) and not np.isfinite(end)
        for z_end, end in zip(ci_z, ci, strict=True)
    ):
        raise ValueError(
            "the mean difference or its confidence interval overflows float64 "
            f"(beyond ±{np.finfo(float).max:.3g}); rescale both columns by the "
            "same factor, e.g. divide by 1e10."
        )
    return TTestResult(
        statistic=float(t),
        pvalue=float(min(1.0, p)),
        df=df,
        mean_difference=mean,
        confidence_interval=(float(ci[0]), float(ci[1])),
        level=level,
        alternative=alternative,
        name_a=names[0],
        name_b=names[1],
    )


def t_from_moments(
    mean: float, se: float, df: int, alternative: str, level: float
) -> tuple[float, float, tuple[float, float]]:
    """``(t, p-value, confidence interval of the mean)`` from a mean and its
    standard error (in any unit; the interval comes in the same unit).

    A zero standard error gives t = 0 (p = 1) for a zero mean and ±∞ (p = 0)
    otherwise; one-sided intervals have an infinite end.

    Examples
    --------
    >>> t, p, ci = t_from_moments(1.0, 0.5, 9, "two-sided", 0.95)
    >>> t, round(p, 4), [round(x, 3) for x in ci]
    (2.0, 0.0766, [-0.131, 2.131])
    """
    if se == 0.0:
        t = 0.0 if mean == 0.0 else float(np.copysign(np.inf, mean))
    else:
        t = mean / se
    if alternative == "greater":
        p = sps.t.sf(t, df)
    elif alternative == "less":
        p = sps.t.cdf(t, df)
    else:
        p = 2 * sps.t.sf(abs(t), df)
    if alternative == "two-sided":
        half = sps.t.ppf(0.5 + level / 2, df) * se
        ci = (mean - half, mean + half)
    elif alternative == "greater":
        ci = (mean - sps.t.ppf(level, df) * se, np.inf)
    else:
        ci = (-np.inf, mean + sps.t.ppf(level, df) * se)
    return float(t), float(min(1.0, p)), (float(ci[0]), float(ci[1]))

"""Paired t-test (Demšar 2006, §3.1.2)."""

from __future__ import annotations

from typing import Literal

import numpy as np

from nbstats import _scipy_stats as sps
from nbstats.results.frequentist import TTestResult
from nbstats.scores import NanPolicy, check_choice, paired_differences

__all__ = ["ttest"]


def ttest(
    a: object,
    b: object,
    *,
    alternative: Literal["two-sided", "greater", "less"] = "two-sided",
    confidence_level: float = 0.95,
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
    confidence_level : float
        Level of the confidence interval of the mean difference.
    higher_is_better : bool
        When False the differences are ``a - b``, so positive still means
        "b is better".
    nan_policy : {"raise", "omit"}
        See :func:`nbstats.score_table`.

    Returns
    -------
    TTestResult
        ``statistic, pvalue = result``.

    Notes
    -----
    Demšar warns against this test for comparisons over data sets: it needs
    commensurable differences and, for few data sets, normal ones. If every
    difference is equal the standard error is zero: the test gives p = 1 when
    they are all zero and p = 0 (|t| = ∞) otherwise, without a warning.

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
    if not 0 < confidence_level < 1:
        raise ValueError(
            f"confidence_level must lie strictly between 0 and 1, got "
            f"{confidence_level!r}."
        )
    d, name_a, name_b = paired_differences(
        a, b, higher_is_better=higher_is_better, nan_policy=nan_policy
    )
    return paired_ttest(
        d,
        alternative=alternative,
        confidence_level=confidence_level,
        names=(name_a, name_b),
    )


def paired_ttest(
    d: np.ndarray,
    *,
    alternative: str = "two-sided",
    confidence_level: float = 0.95,
    names: tuple[str, str] = ("a", "b"),
) -> TTestResult:
    """The paired t-test on validated differences ``d``."""
    n = d.size
    df = n - 1
    mean = float(d.mean())
    se = float(d.std(ddof=1) / np.sqrt(n))
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
        half = sps.t.ppf(0.5 + confidence_level / 2, df) * se
        ci = (mean - half, mean + half)
    elif alternative == "greater":
        ci = (mean - sps.t.ppf(confidence_level, df) * se, np.inf)
    else:
        ci = (-np.inf, mean + sps.t.ppf(confidence_level, df) * se)
    return TTestResult(
        statistic=float(t),
        pvalue=float(min(1.0, p)),
        df=df,
        mean_difference=mean,
        confidence_interval=(float(ci[0]), float(ci[1])),
        confidence_level=confidence_level,
        alternative=alternative,
        name_a=names[0],
        name_b=names[1],
    )

"""Critical differences of mean ranks (Demšar 2006, §3.2.2, Table 5)."""

from __future__ import annotations

import functools
from typing import Literal

import numpy as np

from nbstats.util import scipy_stats as sps
from nbstats.util.checks import check_choice, check_count, check_fraction

__all__ = [
    "critical_difference",
    "critical_value",
    "nemenyi_pvalues",
    "rank_standard_error",
]


def rank_standard_error(n_algorithms: int, n_cases: int) -> float:
    """Standard error of a difference of mean ranks, ``sqrt(k(k+1) / (6N))``."""
    return float(np.sqrt(n_algorithms * (n_algorithms + 1) / (6 * n_cases)))


def critical_value(
    n_algorithms: int,
    alpha: float = 0.05,
    method: Literal["nemenyi", "bonferroni-dunn"] = "nemenyi",
    *,
    n_comparisons: int | None = None,
) -> float:
    """The critical value q_α of Demšar's Table 5.

    ``"nemenyi"``: the studentized range quantile for k groups and infinite
    degrees of freedom, divided by √2. ``"bonferroni-dunn"``: the two-sided
    normal quantile at α / c, with c = k - 1 comparisons against a control
    unless ``n_comparisons`` says otherwise.

    Examples
    --------
    >>> round(critical_value(4, 0.05, "nemenyi"), 3)
    2.569
    >>> round(critical_value(4, 0.05, "bonferroni-dunn"), 3)
    2.394
    """
    _check_sizes(n_algorithms, 2, alpha)
    check_choice("method", method, ("nemenyi", "bonferroni-dunn"))
    return _critical_value(int(n_algorithms), float(alpha), method, n_comparisons)


@functools.lru_cache(maxsize=1024)
def _critical_value(
    n_algorithms: int, alpha: float, method: str, n_comparisons: int | None
) -> float:
    # cached: the studentized-range quantile is a root search over a numerical
    # integral (slow for a slider), and dashboards ask for the same one often
    if method == "nemenyi":
        return float(
            sps.studentized_range.ppf(1 - alpha, n_algorithms, np.inf) / np.sqrt(2)
        )
    c = n_algorithms - 1 if n_comparisons is None else n_comparisons
    return float(sps.norm.isf(alpha / (2 * c)))


def critical_difference(
    n_algorithms: int,
    n_cases: int,
    alpha: float = 0.05,
    method: Literal["nemenyi", "bonferroni-dunn"] = "nemenyi",
) -> float:
    """Critical difference of mean ranks, ``CD = q_α sqrt(k(k+1) / (6N))``.

    Two algorithms whose mean ranks differ by more than CD are significantly
    different (Nemenyi: all pairs; Bonferroni–Dunn: against a control, k - 1
    comparisons). The critical values are computed (scipy's studentized range
    and normal distributions), not looked up, so any k and α work.

    Parameters
    ----------
    n_algorithms : int
        k, the number of algorithms (including the control).
    n_cases : int
        N, the number of cases (data sets).
    alpha : float
        Family-wise significance level.
    method : {"nemenyi", "bonferroni-dunn"}

    Returns
    -------
    float

    Examples
    --------
    Demšar's Table 6 (k = 4, N = 14):

    >>> import nbstats
    >>> round(nbstats.critical_difference(4, 14, 0.05), 2)
    1.25
    >>> round(nbstats.critical_difference(4, 14, 0.10), 2)
    1.12
    >>> round(nbstats.critical_difference(4, 14, 0.05, "bonferroni-dunn"), 3)
    1.168

    (Demšar prints 1.16 for the last one: 2.394 × 0.488 = 1.168, truncated.)
    """
    _check_sizes(n_algorithms, n_cases, alpha)
    check_choice("method", method, ("nemenyi", "bonferroni-dunn"))
    return critical_value(n_algorithms, alpha, method) * rank_standard_error(
        n_algorithms, n_cases
    )


def nemenyi_pvalues(z: np.ndarray, n_algorithms: int) -> np.ndarray:
    """Nemenyi's adjusted p-values of z statistics of mean-rank differences.

    ``P(range of k standard normals > |z| √2)``, the studentized range's
    tail with infinite degrees of freedom, for ``z = ΔR / se`` (se the
    standard error of a difference of two mean ranks, e.g.
    :func:`rank_standard_error`). The one formula of
    ``nbstats.posthoc(method="nemenyi").adjusted`` and of
    ``nbstats.rank_ci(method="id-nemenyi")``.

    The range exceeds |z|√2 when one of the k(k-1)/2 pairs does, so the
    result is kept between the raw two-sided normal p-value and Bonferroni's
    k(k-1)/2 times it: this also removes the integral's floor of 1e-16 far
    in the tail (a raw p of 0 gives 0).

    Parameters
    ----------
    z : array-like
        z statistics, any shape; NaN stays NaN.
    n_algorithms : int
        k, the number of algorithms compared (the range is of k means).

    Returns
    -------
    ndarray
        The adjusted p-values, the shape of ``z``.

    Examples
    --------
    Demšar's Table 6 at α = 0.05: C4.5+m+cf against C4.5 (mean ranks 2.000
    and 3.143, k = 4, N = 14):

    >>> z = (3.143 - 2.000) / rank_standard_error(4, 14)
    >>> p = nemenyi_pvalues(z, 4)
    >>> bool(0.05 < p < 0.10)
    True
    """
    # pandas for its hash-based factorize: a sort of millions of |z| (np.unique)
    # takes longer than the integrals themselves
    import pandas as pd

    z = np.asarray(z, dtype=float)
    check_count("n_algorithms", n_algorithms, minimum=2)
    # the tail is a numerical integral per value; mean ranks are multiples of
    # 1/(2N), so many pairs share one |z|
    codes, distinct = pd.factorize(np.abs(z).ravel())
    k = int(n_algorithms)
    tail = sps.studentized_range.sf(distinct * np.sqrt(2), k, np.inf)
    raw = 2 * sps.norm.sf(distinct)
    tail = np.minimum(1.0, np.clip(tail, raw, k * (k - 1) / 2 * raw))
    # NaN has the code -1: index a NaN appended at the end
    out = np.append(tail, np.nan)[codes]
    return out.reshape(z.shape)


def _check_sizes(n_algorithms: int, n_cases: int, alpha: float) -> None:
    check_count("n_algorithms", n_algorithms, minimum=2)
    check_count("n_cases", n_cases, minimum=2)
    check_fraction("alpha", alpha, example=0.05)

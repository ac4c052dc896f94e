"""Friedman's aligned-ranks test (Hodges & Lehmann 1962; García et al. 2010).

Friedman's test ranks the algorithms within each case, so it only compares
the k algorithms of one case with each other. The aligned-ranks test first
removes each case's location (the mean of its scores) and ranks all ``kn``
aligned scores together, so a large win on one case can outweigh small
losses on others: with few algorithms it is often more powerful than
Friedman's (García et al. 2010, §4).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from nbstats import _scipy_stats as sps
from nbstats.results.aligned import FriedmanAlignedResult
from nbstats.scores import NanPolicy, oriented, power_of_two_scale, score_table

__all__ = ["aligned_ranks", "aligned_standard_error", "friedman_aligned"]

#: Aligned scores closer than this (relative to the largest) are ties: the
#: exact differences of decimal scores carry binary round-off.
TIE_TOLERANCE = 1e-9


def friedman_aligned(
    scores: pd.DataFrame | np.ndarray,
    *,
    higher_is_better: bool = True,
    nan_policy: NanPolicy = "raise",
) -> FriedmanAlignedResult:
    """Friedman's aligned-ranks test of whether the algorithms differ.

    Each score is aligned by subtracting its case's mean over the k
    algorithms; the ``kn`` aligned scores are ranked together (1 = best,
    ties averaged). With ``R̂_j`` the rank total of algorithm j and ``R̂_i``
    that of case i,

    .. math::

        T = \\frac{(k - 1)\\left[\\sum_j \\hat R_j^2
              - \\frac{k n^2}{4} (kn + 1)^2\\right]}
             {\\frac{kn (kn + 1)(2kn + 1)}{6} - \\frac{1}{k}\\sum_i \\hat R_i^2}
        \\sim \\chi^2(k - 1).

    The aligned scores must be commensurable across cases (as for
    :func:`nbstats.quade`); on scores of different scales per case use
    Friedman's test.

    Parameters
    ----------
    scores : DataFrame or 2-D array-like
        Score table, rows = cases, columns = algorithms.
    higher_is_better : bool
        Orients the ranks (1 = best); T does not depend on it.
    nan_policy : {"raise", "omit"}
        See :func:`nbstats.score_table`.

    Returns
    -------
    FriedmanAlignedResult
        ``statistic, pvalue = result``; ``mean_aligned_ranks`` (1 to kn).

    Notes
    -----
    Aligned scores that are equal up to round-off (relative ``1e-9``) are
    tied: 0.803 − 0.75 and 0.845 − 0.792 are the same difference, though
    not in binary. scmamp's ``friedmanAlignedRanksTest`` ranks the
    round-off instead, so on tables with such ties it differs slightly
    (García & Herrera's 30 × 5 table: T = 41.73 here, 41.69 there); on
    tables without ties the two agree to machine precision.

    References
    ----------
    J. L. Hodges, E. L. Lehmann (1962). Rank methods for combination of
    independent experiments in analysis of variance. Annals of Mathematical
    Statistics 33, 482-497. S. García, A. Fernández, J. Luengo, F. Herrera
    (2010). Advanced nonparametric tests for multiple comparisons in the
    design of experiments in computational intelligence and data mining.
    Information Sciences 180, 2044-2064.

    Examples
    --------
    >>> import nbstats
    >>> table = nbstats.datasets.load("demsar2006")
    >>> res = nbstats.friedman_aligned(table)
    >>> round(res.statistic, 3), res.df
    (11.553, 3)
    >>> res.mean_aligned_ranks.idxmin()
    'C4.5+m+cf'
    """
    table = score_table(scores, nan_policy=nan_policy)
    n, k = table.shape
    if k < 2:
        raise ValueError(f"the aligned-ranks test needs 2 algorithms, got {k}.")
    ranks = aligned_ranks(table.to_numpy(), higher_is_better=higher_is_better)
    kn = k * n
    by_algorithm = ranks.sum(axis=0)
    by_case = ranks.sum(axis=1)
    numerator = (k - 1) * (np.sum(by_algorithm**2) - (k * n**2 / 4) * (kn + 1) ** 2)
    denominator = kn * (kn + 1) * (2 * kn + 1) / 6 - np.sum(by_case**2) / k
    if denominator <= 0:  # every aligned score tied: no evidence at all
        statistic, pvalue = 0.0, 1.0
    else:
        statistic = float(max(numerator / denominator, 0.0))
        pvalue = float(sps.chi2.sf(statistic, k - 1))
    return FriedmanAlignedResult(
        statistic=statistic,
        pvalue=pvalue,
        df=k - 1,
        mean_aligned_ranks=pd.Series(
            by_algorithm / n, index=table.columns, name="mean aligned rank"
        ),
        n_cases=n,
        n_algorithms=k,
    )


def aligned_ranks(values: np.ndarray, *, higher_is_better: bool = True) -> np.ndarray:
    """Ranks (1 = best) of the case-aligned scores, all ``kn`` together.

    Examples
    --------
    >>> aligned_ranks(np.array([[0.9, 0.7], [0.5, 0.45]])).tolist()
    [[1.0, 4.0], [2.0, 3.0]]
    """
    better = oriented(np.asarray(values, dtype=float), higher_is_better)
    # a power of two (exact: keeps ties and order) so that k x does not
    # overflow, whatever the units
    better = better / power_of_two_scale(better)
    k = better.shape[1]
    # k x - Σ x: the aligned scores times k, without a division
    aligned = (k * better - better.sum(axis=1, keepdims=True)).ravel()
    order = np.argsort(-aligned, kind="stable")  # best first
    ordered = -aligned[order]
    scale = float(np.max(np.abs(aligned))) if aligned.size else 0.0
    # a new group of ties starts wherever the gap exceeds the tolerance;
    # chained gaps merge (scipy's rankdata would rank the round-off)
    starts = np.concatenate([[True], np.diff(ordered) > TIE_TOLERANCE * scale])
    group = np.cumsum(starts) - 1
    first = np.flatnonzero(starts)
    last = np.concatenate([first[1:], [ordered.size]]) - 1
    ranks = np.empty(aligned.size)
    ranks[order] = (first[group] + last[group]) / 2 + 1
    return ranks.reshape(better.shape)


def aligned_standard_error(n_cases: int, n_algorithms: int) -> float:
    """Standard error of a difference of two mean aligned ranks,
    ``sqrt(k (kn + 1) / 6)``.

    The kn ranks are a permutation of 1..kn; a mean of n of them has
    variance ``(kn + 1)(kn − n) / (12 n)``, and two algorithms' means are
    negatively correlated (−1/(k − 1)), which gives ``k (kn + 1) / 6`` for
    the difference. (García et al. 2010 print ``sqrt(k (n + 1) / 6)``, about
    √k times too small; scmamp uses this one.)

    Examples
    --------
    >>> round(aligned_standard_error(30, 5), 4)
    11.2176
    """
    k, kn = n_algorithms, n_algorithms * n_cases
    return float(np.sqrt(k * (kn + 1) / 6))

"""Conover's t-tests of every pair after a rank test (Conover 1999, §5.8–5.9).

After Friedman's test on the rank sums, after Quade's on the weighted scores
and after Durbin's on the rank sums of a balanced incomplete design. Their
error term is the residual variance of the ranks, so they are more powerful
than the z-tests on mean ranks when the cases agree.
:func:`nbstats.posthoc` (``method="conover"``) adjusts and reports them.
"""

from __future__ import annotations

import numpy as np

from nbstats.scores.ranks import rank_rows
from nbstats.stats.frequentist.quade import quade_scores
from nbstats.util import scipy_stats as sps

__all__ = ["conover", "durbin_conover"]


def conover(
    values: np.ndarray,
    first: np.ndarray,
    second: np.ndarray,
    higher_is_better: bool,
    ranking: str = "friedman",
) -> tuple[np.ndarray, np.ndarray]:
    """Conover's t statistics (> 0: the second is better) and p-values.

    On Friedman's ranks: rank sums R_j, error ``2 (n A − Σ R_j²) / ((n−1)(k−1))``
    with A the sum of squared ranks. On Quade's: the weighted scores
    ``S_ij = Q_i (r_ij − (k+1)/2)``, their sums S_j, and error
    ``2 n (A − B) / ((n−1)(k−1))`` with ``A = Σ S_ij²``, ``B = Σ S_j² / n``
    (Conover 1999, §5.8). ``first`` and ``second`` index the pairs' columns.

    Examples
    --------
    Rank sums 11, 8, 5 (1 = best), A = 56: the error is 2 (4·56 − 210)/6
    and the first against the third is t = 6 / √(14/3) on 6 df.

    >>> values = np.array([[1.0, 2, 3], [1, 3, 2], [2, 1, 3], [1, 2, 3]])
    >>> stats, p = conover(values, np.array([0]), np.array([2]), True)
    >>> round(float(stats[0]), 3), round(float(p[0]), 4)
    (2.777, 0.0321)
    """
    n, k = values.shape
    if ranking == "quade":
        scores = quade_scores(values, higher_is_better=higher_is_better)[2]
        sums = scores.sum(axis=0)
        total = float(np.sum(scores**2))
        residual = n * (total - float(np.sum(sums**2)) / n)
    else:
        ranks = rank_rows(values, higher_is_better=higher_is_better)
        sums = ranks.sum(axis=0)
        total = float(np.sum(ranks**2))
        residual = n * total - float(np.sum(sums**2))
    df = (n - 1) * (k - 1)
    difference = sums[first] - sums[second]
    if residual <= 1e-9 * n * total:
        # every case ranks the algorithms alike: no residual variance
        return _certain(difference)
    stats = difference / np.sqrt(2 * residual / df)
    return stats, 2 * sps.t.sf(np.abs(stats), df)


def durbin_conover(
    ranks: np.ndarray,
    present: np.ndarray,
    first: np.ndarray,
    second: np.ndarray,
    k: int,
    r: int,
) -> tuple[np.ndarray, np.ndarray]:
    """Conover's t-tests after Durbin's test (Conover 1999, §5.9).

    ``ranks`` are the within-case ranks of a balanced incomplete design (NaN
    where a case lacks an algorithm; 1 = best), k scores per case and r cases
    per algorithm. With R_j the rank sums, ``A − C = Σ (r_ij − (k+1)/2)²``
    and Durbin's tie-corrected T₁,

    ``t = (R_i − R_j) / sqrt((A − C) 2r (1 − T₁/(b(k−1))) / (bk − b − t + 1))``

    on ``bk − b − t + 1`` degrees of freedom (> 0: the second is better); on
    a complete table (k = t) it is :func:`conover` on Friedman's ranks.

    Examples
    --------
    Three cases of two algorithms each: rank sums 2, 3, 4, A − C = 1.5,
    T₁ = 8/3, so the error is 1.5 (1 − 8/9) · 4 on 1 df:

    >>> nan = np.nan
    >>> ranks = np.array([[1.0, 2, nan], [nan, 1, 2], [1, nan, 2]])
    >>> stats, p = durbin_conover(ranks, ~np.isnan(ranks), np.array([0]),
    ...                           np.array([2]), k=2, r=2)
    >>> round(float(stats[0]), 3), round(float(p[0]), 4)
    (-2.449, 0.2468)
    """
    b, t = present.shape
    sums = np.nansum(ranks, axis=0)
    # A − C: Σ (r_ij − (k+1)/2)², summed from centred ranks (exact)
    spread = float(np.nansum((ranks - (k + 1) / 2) ** 2))
    deviations = float(np.sum((sums - r * (k + 1) / 2) ** 2))
    df = b * k - b - t + 1
    difference = sums[first] - sums[second]  # > 0: the second is better
    statistic = (t - 1) * deviations / spread if spread > 0 else 0.0
    residual = spread * (1 - statistic / (b * (k - 1)))
    if spread <= 0 or residual <= 1e-12 * spread:
        # every case ties throughout (no differences), or ranks the
        # algorithms alike (no residual variance)
        return _certain(difference)
    stats = difference / np.sqrt(residual * 2 * r / df)
    return stats, 2 * sps.t.sf(np.abs(stats), df)


def _certain(difference: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Statistics and p-values without residual variance: any difference of
    rank sums is certain (±inf, p = 0) and none is not (0, p = 1)."""
    stats = np.where(difference > 0, np.inf, np.where(difference < 0, -np.inf, 0.0))
    return stats, np.where(difference == 0, 1.0, 0.0)

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

from nbstats.results.aligned import FriedmanAlignedResult
from nbstats.scores.frames import power_of_two_scale
from nbstats.scores.table import NanPolicy, score_table
from nbstats.util import scipy_stats as sps
from nbstats.util.checks import check_flag

__all__ = [
    "aligned_ranks",
    "aligned_standard_error",
    "friedman_aligned",
    "tie_group_starts",
]

#: Round-off each score may carry from its own computation before it reaches
#: nbstats, in units of ``eps |x|`` (eps = 2⁻⁵², so at least one unit in the
#: last place): 64 covers, in the worst case, a mean of up to 128 folds summed
#: in any order, and decimal scores read from text (half a unit).
SCORE_ULPS = 64


def friedman_aligned(
    scores: pd.DataFrame | np.ndarray,
    *,
    higher_is_better: bool = True,
    nan_policy: NanPolicy = "raise",
) -> FriedmanAlignedResult:
    """Friedman's aligned-ranks test of whether the algorithms differ.

    Each score is aligned by subtracting its case's mean over the k
    algorithms; the ``kn`` aligned scores are ranked together (1 = best,
    ties averaged; see :func:`aligned_ranks` for what counts as a tie). With
    ``r_ij`` the aligned ranks, ``r̄_i`` their mean on case i and ``R̂_j`` the
    rank total of algorithm j,

    .. math::

        T = \\frac{(k - 1) \\sum_j \\left(\\hat R_j - n(kn + 1)/2\\right)^2}
             {\\sum_i \\sum_j (r_{ij} - \\bar r_i)^2}
        \\sim \\chi^2(k - 1).

    The denominator is ``kn(kn + 1)(2kn + 1)/6 − Σ_i R̂_i²/k`` (Hodges &
    Lehmann's and García et al.'s form) when no aligned scores tie; with
    ties it is the sum of the tied ranks' squares, so T is the statistic of
    the within-case permutation distribution either way.

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
    Aligned scores that are equal up to the round-off of their own
    computation are tied: 0.803 − 0.75 and 0.845 − 0.792 are the same
    difference, though not in binary. Each value's round-off bound comes from
    its own case (:func:`aligned_ranks`), so a case of large scores never
    absorbs a distinct value of a small-scale case. scmamp's
    ``friedmanAlignedRanksTest`` ranks the round-off instead, and keeps the
    tie-free denominator even for exactly equal aligned scores, so on tables
    with ties it differs slightly (García & Herrera's 30 × 5 table:
    T = 41.73 here, 41.69 there); on tables without ties the two agree to
    machine precision.

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
    (11.559, 3)
    >>> res.mean_aligned_ranks.idxmin()
    'C4.5+m+cf'
    """
    check_flag("higher_is_better", higher_is_better)
    table = score_table(scores, nan_policy=nan_policy)
    n, k = table.shape
    if k < 2:
        raise ValueError(f"the aligned-ranks test needs 2 algorithms, got {k}.")
    ranks = aligned_ranks(table.to_numpy(), higher_is_better=higher_is_better)
    kn = k * n
    by_algorithm = ranks.sum(axis=0)
    numerator = (k - 1) * np.sum((by_algorithm - n * (kn + 1) / 2) ** 2)
    # Σ_i Σ_j (r_ij − r̄_i)²: kn(kn+1)(2kn+1)/6 − Σ_i R̂_i²/k without ties
    denominator = float(np.sum((ranks - ranks.mean(axis=1, keepdims=True)) ** 2))
    if denominator <= 0:  # each case a complete tie: no evidence at all
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

    The aligned score of cell (i, j) is ``x_ij − x̄_i``, computed as
    ``a_ij = k x_ij − Σ_l x_il`` (k times it, without a division). Two
    aligned scores tie only when they differ by no more than the round-off
    of their own computations. Each value's bound comes from its own case
    and the arithmetic that produced it: with ``m_ij = k |x_ij| + Σ_l |x_il|``
    and ``eps = 2⁻⁵²``,

    .. math::

        e_{ij} = (k + 1 + 64) \\, \\varepsilon \\, m_{ij},

    where ``k + 1`` bounds the rounding of ``k x_ij``, of the sum over the
    case's k scores (in any order) and of the subtraction, and 64
    (:data:`SCORE_ULPS`) the round-off each score may bring from its own
    computation (each score's relative error ``δ`` moves ``a_ij`` by at most
    ``δ m_ij``). Two values ``a ≤ b`` tie when ``b − a ≤ e_a + e_b``, the
    sum of *their* bounds: a case of large scores cannot absorb a value of a
    small-scale case that really differs, and exactly equal values always
    tie.

    A group of ties is a set of values that all tie pairwise, formed from the
    lowest value up: a value (with the values exactly equal to it) joins the
    current group when it ties every member, else it starts a new group. So
    a chain of near-equal values never merges two values that do not tie.

    Examples
    --------
    >>> aligned_ranks(np.array([[0.9, 0.7], [0.5, 0.45]])).tolist()
    [[1.0, 4.0], [2.0, 3.0]]

    Equal differences of decimal scores tie (their binary round-off
    differs):

    >>> aligned_ranks(np.array([[0.803, 0.75], [0.845, 0.792]])).tolist()
    [[1.5, 3.5], [1.5, 3.5]]

    A difference of 2e-9 in a case of scale 10⁻⁴ does not vanish beside a
    case of scale 1000 (whose round-off is about 10⁻¹³):

    >>> aligned_ranks(np.array([[1000.0003, 1000.0, 999.9997],
    ...                         [0.0003 + 2e-9, 0.0, -0.0003 - 2e-9]])).tolist()
    [[2.0, 3.5, 5.0], [1.0, 3.5, 6.0]]
    """
    x = np.asarray(values, dtype=float)
    # a power of two (exact: keeps ties and order) so that k x does not
    # overflow, whatever the units; the orientation is applied to the ranks
    # at the end, so that the groups of ties do not depend on it
    x = x / power_of_two_scale(x)
    k = x.shape[1]
    aligned = (k * x - x.sum(axis=1, keepdims=True)).ravel()
    magnitude = (k * np.abs(x) + np.abs(x).sum(axis=1, keepdims=True)).ravel()
    bound = (k + 1 + SCORE_ULPS) * np.finfo(float).eps * magnitude
    order = np.argsort(aligned, kind="stable")  # lowest first
    starts = tie_group_starts(aligned[order], bound[order])
    group = np.cumsum(starts) - 1
    first = np.flatnonzero(starts)
    last = np.concatenate([first[1:], [order.size]]) - 1
    ascending = np.empty(aligned.size)
    ascending[order] = (first[group] + last[group]) / 2 + 1
    ranks = aligned.size + 1 - ascending if higher_is_better else ascending
    return ranks.reshape(x.shape)


def tie_group_starts(ordered: np.ndarray, bound: np.ndarray) -> np.ndarray:
    """Where each group of ties begins among nondecreasing ``ordered`` values.

    Values ``a ≤ b`` tie when ``b − a ≤ bound_a + bound_b``, and exactly
    equal values always tie. Walking up from the lowest value, a value and
    the values exactly equal to it join the current group when each of them
    ties every member of the group; otherwise they start a new group. Every
    group is therefore a set of values that tie pairwise.

    Parameters
    ----------
    ordered : ndarray
        Values sorted in nondecreasing order.
    bound : ndarray
        Each value's round-off bound (``>= 0``), in the same order.

    Returns
    -------
    ndarray of bool
        True where a new group begins.

    Examples
    --------
    1.0 ties 1.5 (0.5 <= 0.3 + 0.3) and 1.5 ties 2.1, but 2.1 does not tie
    1.0, so it starts a group of its own:

    >>> tie_group_starts(np.array([1.0, 1.5, 2.1]), np.full(3, 0.3)).tolist()
    [True, False, True]

    A large bound does not let two values of small bounds merge:

    >>> tie_group_starts(np.array([0.0, 1.0, 1.1]),
    ...                  np.array([5.0, 0.01, 0.01])).tolist()
    [True, False, True]
    """
    ordered = np.asarray(ordered, dtype=float)
    bound = np.asarray(bound, dtype=float)
    starts = np.ones(ordered.size, dtype=bool)
    if ordered.size < 2:
        return starts
    # no tie reaches across a gap wider than twice the largest bound, so only
    # the stretches between such gaps need the walk (usually short: distinct
    # scores differ by far more than their round-off)
    wide = np.diff(ordered) > 2 * float(bound.max())
    edges = np.flatnonzero(np.concatenate([[True], wide, [True]]))
    for stretch in np.flatnonzero(np.diff(edges) >= 2):
        _walk(ordered, bound, starts, int(edges[stretch]), int(edges[stretch + 1]))
    return starts


def _walk(
    ordered: np.ndarray, bound: np.ndarray, starts: np.ndarray, begin: int, end: int
) -> None:
    """Mark the group starts of ``ordered[begin:end]`` in ``starts``."""
    reach = -np.inf  # min over the group's members of value + bound
    j = begin
    while j < end:
        stop = j + 1  # values exactly equal to ordered[j] form one unit
        while stop < end and ordered[stop] == ordered[j]:
            stop += 1
        least = float(bound[j:stop].min())
        starts[j + 1 : stop] = False
        if j > begin and ordered[j] - least <= reach:
            starts[j] = False
            reach = min(reach, ordered[j] + least)
        else:
            reach = ordered[j] + least
        j = stop


def aligned_standard_error(ranks: np.ndarray) -> float:
    """Standard error of a difference of two mean aligned ranks under the
    null hypothesis that the algorithms are exchangeable within each case.

    Under that null the k aligned ranks of case i, ``r_i1 … r_ik``, are
    assigned to the algorithms in random order, independently across cases,
    while the kn ranks as a whole are *not* a random permutation (each case's
    aligned scores sum to zero, so its ranks are spread more than a random
    draw of k). With ``s_i² = Σ_j (r_ij − r̄_i)² / k``, two distinct cells of
    case i drawn without replacement have
    ``Var(r_ia − r_ib) = 2 s_i² + 2 s_i²/(k − 1) = 2k s_i² / (k − 1)``, so

    .. math::

        \\operatorname{Var}(\\bar R_a - \\bar R_b)
        = \\frac{2k}{k - 1} \\frac{\\sum_i s_i^2}{n^2}
        = \\frac{2 \\sum_i \\sum_j (r_{ij} - \\bar r_i)^2}{(k - 1) n^2},

    the denominator of the omnibus statistic T of
    :func:`friedman_aligned`, so the squared z-tests of all pairs add up to
    ``Σ_{a<b} z_ab² = k T / 2`` (as they add up to ``k χ²_F / 2`` for
    Friedman's ranks with the standard error ``sqrt(k (k + 1) / (6n))``).
    This is conditional on the observed ranks, and exact with ties.

    García et al. (2010) print ``sqrt(k (n + 1) / 6)``, and scmamp's
    ``friedmanAlignedRanksPost`` uses ``sqrt(k (kn + 1) / 6)``: the standard
    deviation of a difference of two means of n ranks drawn at random from
    all kn, which holds only if the kn ranks were a random permutation. Each
    case's aligned scores sum to zero, so its ranks spread more than k ranks
    drawn at random and the variance above is larger on average. The ratio of
    scmamp's variance to this one is *approximately* ``(kn − n)/(kn − 1)``;
    it is not an identity: simulated under the null the mean ratio is
    somewhat larger and depends on n, k and the distribution of the scores
    (``benchmarks/bench_aligned_variance_ratio.py``; its table is in the
    scmamp migration notes). Either way scmamp's z-tests reject too often.

    Examples
    --------
    Two cases of three algorithms, each with ``Σ_j (r_ij − r̄_i)² = 8``:
    ``sqrt(2 · 16 / 2) / 2 = 2``.

    >>> ranks = np.array([[1.0, 3.0, 5.0], [2.0, 4.0, 6.0]])
    >>> round(aligned_standard_error(ranks), 4)
    2.0
    """
    ranks = np.asarray(ranks, dtype=float)
    n, k = ranks.shape
    spread = float(np.sum((ranks - ranks.mean(axis=1, keepdims=True)) ** 2))
    return float(np.sqrt(2 * spread / (k - 1)) / n)

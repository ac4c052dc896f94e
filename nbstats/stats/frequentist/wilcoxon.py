"""Wilcoxon signed-ranks test with exact p-values that stay exact under ties."""

from __future__ import annotations

import dataclasses
import functools
from typing import Literal

import numpy as np

from nbstats.results.frequentist import WilcoxonResult
from nbstats.scores.ranks import paired_differences_cases
from nbstats.scores.table import NanPolicy
from nbstats.util import scipy_stats as sps
from nbstats.util.checks import check_choice, check_flag

__all__ = [
    "EXACT_LIMIT_N",
    "EXACT_MAX_N",
    "signed_rank_cdf",
    "signed_rank_null_pmf",
    "signed_rank_pvalues",
    "wilcoxon",
]

#: With ``method="auto"`` the exact conditional distribution is used up to this
#: many ranked differences, the normal approximation above it. The dynamic
#: programme costs O(n³) operations, cheap at n = 200.
EXACT_MAX_N = 200

#: ``method="exact"`` refuses more ranked differences than this: the null
#: distribution of 2R+ has n(n + 1) + 1 points (8 MB at n = 1000, 74.5 GiB at
#: n = 10⁵) and costs O(n³) operations, while the normal approximation's
#: error there is far below any p-value's meaning.
EXACT_LIMIT_N = 1000

ZeroMethod = Literal["zsplit", "pratt", "wilcox"]
Alternative = Literal["two-sided", "greater", "less"]


def wilcoxon(
    a: object,
    b: object,
    *,
    zero_method: ZeroMethod = "zsplit",
    alternative: Alternative = "two-sided",
    method: Literal["auto", "exact", "approx"] = "auto",
    correction: bool = False,
    higher_is_better: bool = True,
    nan_policy: NanPolicy = "raise",
) -> WilcoxonResult:
    """Wilcoxon signed-ranks test of whether b is better than a.

    The differences ``d = b - a`` (``a - b`` when lower is better) are ranked by
    absolute value with average ranks for ties; ``R+`` sums the ranks where b
    is better, ``R-`` where a is better (Demšar 2006, §3.1.3).

    Parameters
    ----------
    a, b : array-like or Series
        Paired scores of the two algorithms, one per case.
    zero_method : {"zsplit", "pratt", "wilcox"}
        Zero differences: ``"zsplit"`` ranks them and adds half of their ranks
        to each sum (Demšar's rule, as in scipy; Demšar additionally drops one
        zero when their number is odd, which nbstats does not); ``"pratt"``
        ranks them, then drops them; ``"wilcox"`` drops them before ranking.
    alternative : {"two-sided", "greater", "less"}
        ``"greater"``: b is better than a; ``"less"``: a is better than b.
    method : {"auto", "exact", "approx"}
        ``"exact"`` uses the permutation distribution of R+ conditional on the
        observed (mid)ranks, computed by dynamic programming over doubled rank
        sums, so it stays exact with ties and zeros. ``"approx"`` is the normal
        approximation with the same conditional mean and variance (this
        includes the tie correction). ``"auto"`` is exact for at most
        :data:`EXACT_MAX_N` ranked differences. ``"exact"`` refuses more
        than :data:`EXACT_LIMIT_N` (a ``ValueError`` naming the size): its
        distribution grows as n² in memory and n³ in time.
    correction : bool
        Continuity correction of half a rank in the normal approximation.
    higher_is_better : bool
        Whether higher scores are better.
    nan_policy : {"raise", "omit", "pairwise"}
        See :func:`nbstats.score_table`; with one pair, ``"pairwise"`` is
        ``"omit"`` (the cases where both have a score).

    Returns
    -------
    WilcoxonResult
        ``statistic, pvalue = result``; ``statistic`` is ``T = min(R+, R-)``
        for the two-sided test and ``R+`` otherwise. ``cases``: the labels of
        the ``n`` cases ranked (``a``'s index, else positions): those where
        both have a score; zero differences count as used under ``"zsplit"``
        and ``"pratt"`` (their ranks enter the sums or the others' ranks) and
        not under ``"wilcox"`` (dropped before ranking).

    Notes
    -----
    The null distribution is conditional on the ranks: each non-zero
    difference is equally likely positive or negative, and zero differences
    contribute a fixed half rank to each sum under ``"zsplit"``. scipy's
    normal approximation for ``"zsplit"`` instead counts the zeros in the
    variance, so its z differs from ours when there are zeros.

    Examples
    --------
    Demšar's Table 2 (C4.5 vs C4.5 with tuned m):

    >>> import nbstats
    >>> t2 = nbstats.datasets.load("demsar2006_table2")
    >>> res = nbstats.wilcoxon(t2["C4.5"], t2["C4.5+m"])
    >>> res.r_plus, res.r_minus, res.statistic
    (93.0, 12.0, 12.0)
    >>> round(res.pvalue, 4)
    0.0078

    Compare with SciPy (no zeros, so both definitions agree):

    >>> from scipy.stats import wilcoxon as scipy_wilcoxon
    >>> x, y = [1.0, 2.5, 3.1, 4.7, 5.2], [1.8, 2.2, 4.0, 5.9, 7.0]
    >>> bool(nbstats.wilcoxon(x, y).pvalue == scipy_wilcoxon(y, x).pvalue)
    True
    """
    check_choice("zero_method", zero_method, ("zsplit", "pratt", "wilcox"))
    check_choice("alternative", alternative, ("two-sided", "greater", "less"))
    check_choice("method", method, ("auto", "exact", "approx"))
    check_flag("correction", correction)
    d, name_a, name_b, cases = paired_differences_cases(
        a, b, higher_is_better=higher_is_better, nan_policy=nan_policy
    )
    result = signed_rank_test(
        d,
        zero_method=zero_method,
        alternative=alternative,
        method=method,
        correction=correction,
        names=(name_a, name_b),
    )
    used = cases[d != 0] if zero_method == "wilcox" else cases
    return dataclasses.replace(result, cases=used)


def signed_rank_test(
    d: np.ndarray,
    *,
    zero_method: ZeroMethod = "zsplit",
    alternative: Alternative = "two-sided",
    method: str = "auto",
    correction: bool = False,
    names: tuple[str, str] = ("a", "b"),
) -> WilcoxonResult:
    """The Wilcoxon test on validated differences ``d`` (> 0 where b is better)."""
    zero = d == 0
    n_zero = int(zero.sum())
    if zero_method == "wilcox":
        d = d[~zero]
        zero = np.zeros(d.size, dtype=bool)
    r = sps.rankdata(np.abs(d), method="average") if d.size else np.zeros(0)
    random_ranks = r[~zero]  # ranks whose sign is random under H0
    r_plus = float(r[d > 0].sum())
    r_minus = float(r[d < 0].sum())
    if zero_method == "zsplit":
        r_plus += float(r[zero].sum()) / 2
        r_minus += float(r[zero].sum()) / 2
    fixed_part = r_plus - float(r[d > 0].sum())  # zsplit's half ranks of zeros

    n_random = random_ranks.size
    if method == "auto":
        method = "exact" if n_random <= EXACT_MAX_N else "approx"
    elif method == "exact" and n_random > EXACT_LIMIT_N:
        raise ValueError(
            f"method='exact' needs the null distribution of {n_random} ranked "
            f"differences: n(n + 1) + 1 = {n_random * (n_random + 1) + 1:,} "
            f"points and O(n³) operations; it is refused above {EXACT_LIMIT_N}. "
            "Use method='approx' (the normal approximation with the tie "
            "correction), or method='auto', which switches to it above "
            f"{EXACT_MAX_N}."
        )

    zstatistic = np.nan
    if n_random == 0:
        pvalue = 1.0
    elif method == "exact":
        pvalue = _exact_pvalue(random_ranks, r_plus - fixed_part, alternative)
    else:
        zstatistic, pvalue = _normal_pvalue(
            random_ranks, r_plus - fixed_part, alternative, correction
        )

    total = r_plus + r_minus
    statistic = min(r_plus, r_minus) if alternative == "two-sided" else r_plus
    return WilcoxonResult(
        statistic=float(statistic),
        pvalue=float(pvalue),
        r_plus=r_plus,
        r_minus=r_minus,
        n_cases=int(d.size),
        n_zero=n_zero,
        zstatistic=float(zstatistic),
        effect_size=float((r_plus - r_minus) / total) if total > 0 else 0.0,
        method=method,
        zero_method=zero_method,
        alternative=alternative,
        name_a=names[0],
        name_b=names[1],
    )


def signed_rank_pvalues(d: np.ndarray, alternative: Alternative) -> np.ndarray:
    """The Wilcoxon p-value of every column of ``d`` at once.

    ``d`` is cases × pairs of differences, NaN where a pair lacks a case.
    Each column gets exactly ``signed_rank_test(column without NaN,
    zero_method="wilcox", alternative=alternative).pvalue`` (zeros dropped,
    ``method="auto"``, no continuity correction): the same ranks, the same
    cached null distributions, sums of multiples of ½ that are exact in any
    order. One ranking of the matrix instead of one per pair: the rank
    intervals of 50 algorithms make 2,450 such tests.

    Examples
    --------
    >>> d = np.array([[1.0, -1.0], [2.0, np.nan], [3.0, -2.0], [-0.5, 0.0]])
    >>> signed_rank_pvalues(d, "greater").tolist()
    [0.125, 1.0]
    >>> float(signed_rank_test(d[:, 0], zero_method="wilcox",
    ...                        alternative="greater").pvalue)
    0.125
    """
    check_choice("alternative", alternative, ("two-sided", "greater", "less"))
    d = np.asarray(d, dtype=float)
    if d.ndim != 2:
        raise ValueError(f"d must be cases × pairs (2-D), got shape {d.shape}.")
    kept = np.where(d == 0, np.nan, d)  # zero_method="wilcox": zeros dropped
    valid = ~np.isnan(kept)
    pvalues = np.ones(d.shape[1])
    if not valid.any():
        return pvalues
    ranks = sps.rankdata(np.abs(kept), axis=0, nan_policy="omit")
    ranks = np.where(valid, ranks, 0.0)
    r_plus = (ranks * (kept > 0)).sum(axis=0)
    n_random = valid.sum(axis=0)
    for j in np.flatnonzero(n_random > 0):
        column = ranks[valid[:, j], j]
        if n_random[j] <= EXACT_MAX_N:
            pvalues[j] = _exact_pvalue(column, r_plus[j], alternative)
        else:
            pvalues[j] = _normal_pvalue(column, r_plus[j], alternative, False)[1]
    return pvalues


def signed_rank_null_pmf(ranks: np.ndarray) -> np.ndarray:
    """Null distribution of twice the positive rank sum, given the ranks.

    Each rank is independently counted with probability ½. Midranks are
    multiples of ½, so doubled ranks are integers and the distribution of
    ``S = 2 R+`` lives on ``0 … 2 Σ r``; it is the coefficient vector of
    ``Π (1 + x^{2 r_i}) / 2``, built one factor at a time.

    Parameters
    ----------
    ranks : ndarray
        Positive (mid)ranks of the non-zero differences.

    Returns
    -------
    ndarray
        ``pmf[s] = P(2 R+ = s)``.

    Examples
    --------
    >>> signed_rank_null_pmf(np.array([1.0, 2.0])) * 4
    array([1., 0., 1., 0., 1., 0., 1.])
    """
    doubled = np.rint(2 * np.asarray(ranks, dtype=float)).astype(np.int64)
    if np.any(np.abs(doubled - 2 * np.asarray(ranks)) > 1e-9) or np.any(doubled < 1):
        raise ValueError("ranks must be positive multiples of 1/2")
    pmf = np.zeros(int(doubled.sum()) + 1)
    pmf[0] = 1.0
    reach = 0
    for step in np.sort(doubled):
        shifted = pmf[: reach + 1].copy()
        reach += int(step)
        pmf[: reach + 1] *= 0.5
        pmf[step : reach + 1] += 0.5 * shifted
    return pmf


def signed_rank_cdf(n: int) -> np.ndarray:
    """``P(T⁺ ≤ t)`` for t = 0 … n(n + 1)/2, without ties (ranks 1 … n).

    R's ``psignrank(t, n)``; read-only, cached up to :data:`EXACT_MAX_N`.

    Examples
    --------
    >>> (signed_rank_cdf(3) * 8).tolist()  # 1, 1, 1, 2, 1, 1, 1 ways
    [1.0, 2.0, 3.0, 5.0, 6.0, 7.0, 8.0]
    """
    if n > EXACT_LIMIT_N:
        raise ValueError(
            f"the exact signed-rank distribution of {n} differences is refused "
            f"above {EXACT_LIMIT_N} (O(n²) memory, O(n³) time); use the normal "
            "approximation."
        )
    doubled = (2 * np.arange(1, n + 1, dtype=np.int64)).tobytes()
    tails = _null_tails if n <= EXACT_MAX_N else _null_tails.__wrapped__
    return tails(doubled)[0][::2]  # the pmf is over 2T⁺


def _exact_pvalue(ranks: np.ndarray, r_plus_random: float, alternative: str) -> float:
    doubled = np.sort(np.rint(2 * np.asarray(ranks, dtype=float)).astype(np.int64))
    if np.any(np.abs(doubled - 2 * np.sort(ranks)) > 1e-9):
        raise ValueError("ranks must be positive multiples of 1/2")
    observed = round(2 * r_plus_random)
    total = int(doubled.sum())
    n = doubled.size
    if n <= EXACT_MAX_N and np.array_equal(doubled, np.arange(2, 2 * n + 1, 2)):
        # no ties: the one null distribution of n ranks, shared by every test
        # of n differences (cached)
        at_most, at_least = _null_tails(doubled.tobytes())
        lower = float(at_most[observed])  # P(2R+ <= observed)
        upper = float(at_least[observed])  # P(2R+ >= observed)
        p = {"greater": upper, "less": lower}.get(alternative, 2 * min(lower, upper))
        return min(1.0, p)
    # ties make each test's null its own: only the tail the alternative needs
    # (P(2R+ >= s) = P(2R+ <= total - s) by symmetry, and the smaller of the
    # two tails is the one at the sum nearer 0)
    at = {"less": observed, "greater": total - observed}.get(
        alternative, min(observed, total - observed)
    )
    p = at_most_tail(doubled, at) * (1 if alternative in ("less", "greater") else 2)
    return min(1.0, p)


def at_most_tail(doubled: np.ndarray, s: int) -> float:
    """``P(2R+ <= s)`` under the null, given the doubled ranks (integers).

    The dynamic programme of :func:`signed_rank_null_pmf` kept to the sums
    ``0 … min(s, total - s - 1)``: the distribution is symmetric about half
    the total, so a tail beyond the middle is one minus the other tail. A
    test far from significance costs half the full distribution, a
    significant one a small part of it.

    Examples
    --------
    >>> doubled = np.array([3, 3, 6, 8])  # ranks 1.5, 1.5, 3, 4
    >>> [at_most_tail(doubled, s) * 16 for s in (0, 3, 9, 19, 20)]
    [1.0, 3.0, 8.0, 15.0, 16.0]
    >>> signed_rank_null_pmf(doubled / 2).cumsum()[[0, 3, 9, 19, 20]] * 16
    array([ 1.,  3.,  8., 15., 16.])
    """
    steps = np.sort(np.asarray(doubled, dtype=np.int64))
    total = int(steps.sum())
    if s < 0:
        return 0.0
    if s >= total:
        return 1.0
    if 2 * s >= total:  # P(<= s) = 1 - P(>= s + 1) = 1 - P(<= total - s - 1)
        return 1.0 - at_most_tail(steps, total - s - 1)
    # imported here: the kernel compiles with numba, which `import nbstats`
    # should not load
    from nbstats.stats.frequentist.signed_rank_tail import capped_tail

    return float(capped_tail(steps, s))


@functools.lru_cache(maxsize=256)
def _null_tails(doubled: bytes) -> tuple[np.ndarray, np.ndarray]:
    """``(P(2R+ <= s), P(2R+ >= s))`` for every s, given the sorted doubled ranks.

    Kept because many tests share one null distribution: without ties the
    ranks are 1 … n, so every pair of a post-hoc or rank-CI table with the
    same number of non-zero differences has the same one, which would
    otherwise be recomputed for every pair (``benchmarks/bench_frequentist.py``).
    """
    pmf = signed_rank_null_pmf(np.frombuffer(doubled, dtype=np.int64) / 2)
    at_most = np.cumsum(pmf)
    at_least = np.cumsum(pmf[::-1])[::-1]
    for tail in (at_most, at_least):
        tail.setflags(write=False)
    return at_most, at_least


def _normal_pvalue(
    ranks: np.ndarray, r_plus_random: float, alternative: str, correction: bool
) -> tuple[float, float]:
    mean = ranks.sum() / 2
    sd = np.sqrt((ranks**2).sum() / 4)
    diff = r_plus_random - mean
    if correction:
        if alternative == "greater":
            diff -= 0.5
        elif alternative == "less":
            diff += 0.5
        else:
            diff -= 0.5 * np.sign(diff)
    z = diff / sd
    if alternative == "greater":
        p = sps.norm.sf(z)
    elif alternative == "less":
        p = sps.norm.cdf(z)
    else:
        p = 2 * sps.norm.sf(abs(z))
    return float(z), float(min(1.0, p))

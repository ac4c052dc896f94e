"""Confidence intervals for ranks (Foucart, Elskens and Decaestecker 2025).

Five procedures from the supplement of "Ranking the scores of algorithms with
confidence" (ESANN 2025): bootstrap percentiles of the rank of the mean score,
and four test-based intervals, ``[L, U] = [1 + #significantly better,
m - #significantly worse]`` (Al Mohamad, Goeman and van Zwet 2022), after an
omnibus test: Iman–Davenport then Nemenyi, two-sided Wilcoxon or one-sided
Wilcoxon (Holm per algorithm), or a repeated-measures ANOVA on rank-transformed
scores then Tukey's HSD.

The supplement ranks 1 = *lowest* score; nbstats ranks 1 = *best*. The
conversion happens once, at the input: scores are oriented so that larger is
better (``higher_is_better``), and "better" always means "ahead in the
ranking".
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import numpy as np
import pandas as pd

from nbstats.results.frequentist import frame_of_pairs
from nbstats.results.ranking import RankCIResult
from nbstats.scores.frames import power_of_two_scale
from nbstats.scores.missing import observed_mean_ranks, pairwise_table
from nbstats.scores.names import name_index
from nbstats.scores.ranks import oriented, rank_rows
from nbstats.scores.table import NanPolicy, score_table
from nbstats.stats.frequentist.adjust import adjust_pvalues
from nbstats.stats.frequentist.anova import rm_anova
from nbstats.stats.frequentist.critical_difference import (
    critical_value,
    rank_standard_error,
)
from nbstats.stats.frequentist.friedman import friedman
from nbstats.stats.frequentist.skillings_mack import skillings_mack
from nbstats.stats.frequentist.studentized import studentized_range_sf
from nbstats.stats.frequentist.wilcoxon import signed_rank_pvalues
from nbstats.stats.pairs_memory import check_bootstrap_fits, check_pairs_fit
from nbstats.util import scipy_stats as sps
from nbstats.util.checks import (
    check_choice,
    check_count,
    check_flag,
    check_fraction,
    check_random_state,
)
from nbstats.util.memory import budget
from nbstats.util.random import seed_sequence

__all__ = ["RANK_CI_METHODS", "nemenyi_min_cases", "rank_ci"]

#: The methods that take ``nan_policy="pairwise"`` (pairwise tests).
PAIRWISE_RANK_CI_METHODS = ("id-wilcoxon-2s", "id-wilcoxon-1s")
RANK_CI_METHODS = (
    "bootstrap",
    "id-nemenyi",
    "id-wilcoxon-2s",
    "id-wilcoxon-1s",
    "anova-tukey",
)

#: The bootstrap computes the resampled means in blocks of at most this many
#: gathered scores (8 bytes each), so memory stays bounded for large tables;
#: under a low memory ceiling, in blocks of at most a sixteenth of it.
_BOOTSTRAP_BLOCK = 2**22
#: Copies of a block of differences that ranking them takes (the
#: differences, without zeros, their absolute values, ranks, masks, sums).
_RANKING_COPIES = 12
#: The estimate of :mod:`nbstats.stats.pairs_memory` of each pair method.
_PAIR_COST_OF = {
    "id-nemenyi": "rank_ci",
    "anova-tukey": "rank_ci_tukey",
    "id-wilcoxon-2s": "rank_ci_wilcoxon",
    "id-wilcoxon-1s": "rank_ci_wilcoxon_one_sided",
}


def _bootstrap_block(n: int, m: int) -> int:
    """Bytes of one block of gathered scores (at least one resample's)."""
    scores = min(_BOOTSTRAP_BLOCK, budget(1 / 16) // 8)
    return 8 * max(n * m, scores)


def rank_ci(
    scores: pd.DataFrame | np.ndarray,
    *,
    method: str = "id-wilcoxon-2s",
    alpha: float = 0.05,
    n_resamples: int = 1000,
    higher_is_better: bool = True,
    nan_policy: NanPolicy = "raise",
    random_state: object = None,
) -> RankCIResult:
    """Confidence intervals for the ranks of the algorithms (1 = best).

    Implements the five procedures of Foucart, Elskens and Decaestecker
    (2025, supplement §1). The supplement ranks 1 = lowest score; here rank 1
    is the best algorithm (``higher_is_better`` says which way is better), so
    an interval ``[L, U]`` of the supplement is ``[m + 1 - U, m + 1 - L]``
    here when higher is better.

    The test-based methods give ``L = 1 + (number of algorithms significantly
    better)`` and ``U = m - (number significantly worse)`` (Al Mohamad et al.
    2022). All of them first run an omnibus test; if it is not rejected
    (p-value ≥ α) every interval is ``[1, m]`` — the data cannot resolve the
    ranks, which is not the same as a tie. As in the supplement, a test is
    significant when its (adjusted) p-value is ``< alpha``.

    Parameters
    ----------
    scores : DataFrame or 2-D array-like
        Score table, rows = cases, columns = algorithms.
    method : str
        - ``"bootstrap"``: ``n_resamples`` resamples of the cases with replacement;
          in each, the algorithms are ranked by their mean score (1 = best,
          average ranks for ties); the interval runs from the α/2 to the
          1 - α/2 percentile of each algorithm's bootstrap ranks. The
          percentiles are ``np.quantile(..., method="lower")`` and
          ``method="higher"``: both ends are ranks that occurred in some
          resample (an interpolated end such as 1.3 is not a rank), and the
          interval is never narrower than the interpolated one. Algorithms
          tied in a resample take every position their tie spans: the lower
          percentile is taken over the best of those positions, the upper
          over the worst, so k algorithms tied at positions p..p+k−1 get
          intervals that cover p..p+k−1.
        - ``"id-nemenyi"``: Iman–Davenport F test at α; if rejected, Nemenyi's
          test on every pair (studentized range, as
          ``nbstats.posthoc(method="nemenyi")``), direction from the mean
          ranks. See :func:`nemenyi_min_cases` for why it lacks power.
        - ``"id-wilcoxon-2s"`` (default): Iman–Davenport, then the two-sided
          Wilcoxon signed-rank test on every pair; each algorithm's m - 1
          p-values are Holm-adjusted together (Holm per row), and a
          significant pair counts as better or worse by the sign of the
          difference of mean scores (equal means count as neither).
        - ``"id-wilcoxon-1s"``: Iman–Davenport, then one-sided Wilcoxon tests.
          For each algorithm a, the m - 1 p-values of "b is better than a"
          are Holm-adjusted together, and separately the m - 1 p-values of
          "b is worse than a" (Holm per row and per side, as the supplement's
          worked example). Although each one-sided test is more powerful, the
          per-side families can make the intervals *wider* than the two-sided
          ones (see the supplement's last section).
        - ``"anova-tukey"``: every score is replaced by its rank among all
          n·m scores (Conover and Iman's rank transform), a repeated-measures
          ANOVA is run on these ranks (:func:`nbstats.rm_anova` with
          ``rank_transform=True``, uncorrected p-value), and if rejected,
          Tukey's HSD (``scipy.stats.tukey_hsd``) compares the columns of
          ranks, direction from their means. As in the supplement, Tukey's
          HSD treats the columns as independent groups (it ignores the
          pairing by case).
    alpha : float
        Significance level, ``0 < alpha < 1``; the intervals have confidence
        ``1 - alpha``.
    n_resamples : int
        Number of bootstrap resamples (only used by ``"bootstrap"``, checked
        whatever the method), a whole number >= 1.
    higher_is_better : bool
        Whether a higher score is better. ``False`` is the same as negating
        every score.
    nan_policy : {"raise", "omit", "pairwise"}
        ``"raise"`` and ``"omit"`` as for :func:`nbstats.score_table`.
        ``"pairwise"`` (``"id-wilcoxon-2s"`` and ``"id-wilcoxon-1s"`` only):
        every case is kept; the omnibus test is Skillings and Mack's (Friedman's
        test for missing cells, :func:`nbstats.skillings_mack`), each pair's
        Wilcoxon test uses the cases where both algorithms have a score, and
        ``mean_ranks`` rank each case among the algorithms it has. The other
        methods rank every algorithm on the same cases or resample whole
        cases, and refuse it with an error that names the alternatives.
        See :func:`nbstats.score_table`.
    random_state : None, int or numpy Generator
        Seed of the bootstrap: the resampled case indices are
        ``rng.integers(0, n, size=(n_resamples, n))`` with
        ``rng = np.random.default_rng(seed_sequence(random_state))``, indices
        into the table in a canonical order: the columns sorted by name, the
        rows by their scores (oriented so that larger is better), compared
        lexicographically in that column order. So the same seed gives the
        same intervals, bit for bit, whatever the order of the rows and
        columns. ``None`` takes fresh entropy from the operating system: two
        bootstrap calls then give slightly different intervals; give an int
        to reproduce them (the test-based methods draw nothing).

    Returns
    -------
    RankCIResult
        ``lower`` and ``upper`` (Series of int, 1 = best), the omnibus
        p-value, the pairwise decisions ``better``/``worse`` and the adjusted
        p-values behind them, and the Friedman ``mean_ranks``.

    Raises
    ------
    ValueError
        Unknown ``method``, ``alpha`` outside (0, 1), ``n_resamples < 1``, and the
        score-table errors (missing scores, fewer than 2 algorithms or cases).
    TypeError
        Non-numeric ``alpha``, non-integer ``n_resamples``, non-boolean
        ``higher_is_better``.

    Notes
    -----
    The Wilcoxon tests use the supplement's choice, scipy.stats.wilcoxon's
    defaults: ``zero_method="wilcox"`` (zero differences dropped), no
    continuity correction, ``method="auto"``. They are computed by nbstats'
    own signed-rank test, which equals scipy's p-values when both are exact:
    n ≤ 50 without ties or zeros, or n ≤ 13 (scipy's exhaustive permutation
    test). Otherwise, up to 200 non-zero differences, nbstats stays exact
    (conditional on the midranks) where scipy uses the normal approximation.

    The Iman–Davenport statistic is Demšar's, without tie correction
    (:func:`nbstats.friedman`'s ``f_pvalue``).

    Examples
    --------
    Demšar's (2006) Table 6, four decision-tree variants on 14 data sets:

    >>> import nbstats
    >>> from nbstats import rank_ci
    >>> table = nbstats.datasets.load("demsar2006")
    >>> res = rank_ci(table, method="id-wilcoxon-2s")
    >>> round(res.omnibus_pvalue, 4)
    0.0198
    >>> res.intervals()
    {'C4.5': (3, 4), 'C4.5+m': (1, 3), 'C4.5+cf': (1, 4), 'C4.5+m+cf': (1, 3)}

    Nemenyi, with 14 cases, cannot order any pair here:

    >>> rank_ci(table, method="id-nemenyi").upper.tolist()
    [4, 4, 4, 4]

    The bootstrap is deterministic given ``random_state``:

    >>> boot = rank_ci(table, method="bootstrap", random_state=0)
    >>> boot.lower.tolist(), boot.upper.tolist()
    ([3, 1, 3, 1], [4, 2, 4, 2])
    """
    check_choice("method", method, RANK_CI_METHODS)
    check_fraction("alpha", alpha, example=0.05)
    check_count("n_resamples", n_resamples)
    check_flag("higher_is_better", higher_is_better)
    check_choice("nan_policy", nan_policy, ("raise", "omit", "pairwise"))
    check_random_state(random_state)
    pairwise = nan_policy == "pairwise"
    if pairwise and method not in PAIRWISE_RANK_CI_METHODS:
        raise ValueError(
            f"nan_policy='pairwise' keeps incomplete cases, which "
            f"method={method!r} cannot use (it ranks every algorithm on the same "
            "cases, or resamples whole cases). Use method='id-wilcoxon-2s' or "
            "'id-wilcoxon-1s' (pairwise Wilcoxon tests after Skillings and "
            "Mack's test), or nan_policy='omit' to drop incomplete cases."
        )
    table = (
        pairwise_table(scores)
        if pairwise
        else score_table(scores, nan_policy=nan_policy)
    )
    names = list(table.columns)
    values = oriented(table.to_numpy(), higher_is_better)  # larger = better
    # divided by a power of two (exact: keeps every tie and order) so that no
    # difference or bootstrap mean overflows, whatever the units
    values = values / power_of_two_scale(values[~np.isnan(values)])
    n, m = values.shape
    if method == "bootstrap":
        check_bootstrap_fits(m, n, n_resamples, _bootstrap_block(n, m))
    else:
        check_pairs_fit(
            _PAIR_COST_OF[method],
            m,
            n,
            what=f"rank_ci(method={method!r})",
            fix=" (method='bootstrap' keeps no table of pairs)",
            block_cells=budget() // (_RANKING_COPIES * 8),
        )
    if pairwise:
        mean_ranks = observed_mean_ranks(
            pd.DataFrame(values, columns=name_index(names, name="algorithm"))
        ).rename("mean rank")
    else:
        mean_ranks = pd.Series(
            rank_rows(values).mean(axis=0),
            index=name_index(names, name="algorithm"),
            name="mean rank",
        )
    nothing = np.zeros((m, m), dtype=bool)
    common = {
        "method": method,
        "alpha": float(alpha),
        "mean_ranks": mean_ranks,
        "n_cases": n,
        # with missing cells: the cases at least one pair shares
        "cases": table.index[table.notna().sum(axis=1).to_numpy() >= 2].copy(),
    }

    if method == "bootstrap":
        lower, upper = _bootstrap_intervals(
            values, names, alpha, n_resamples, random_state
        )
        return RankCIResult(
            lower=_int_series(lower, names, "lower"),
            upper=_int_series(upper, names, "upper"),
            omnibus_pvalue=float("nan"),
            omnibus_rejected=None,
            better=frame_of_pairs(names, nothing),
            worse=frame_of_pairs(names, nothing),
            pvalues=None,
            pvalues_worse=None,
            n_resamples=int(n_resamples),
            **common,
        )

    oriented_table = pd.DataFrame(values, columns=name_index(names))
    if method == "anova-tukey":
        omnibus_pvalue = rm_anova(oriented_table, rank_transform=True).pvalue
    elif pairwise:
        omnibus_pvalue = skillings_mack(oriented_table).pvalue
    else:
        omnibus_pvalue = friedman(oriented_table).f_pvalue
    rejected = bool(omnibus_pvalue < alpha)
    if not rejected:
        better = worse = nothing
        p_better = p_worse = None
    elif method == "id-nemenyi":
        p_better = _nemenyi_pvalues(mean_ranks.to_numpy(), n)
        p_worse = p_better
        # b ahead of a: a smaller mean rank
        ahead = mean_ranks.to_numpy()[None, :] < mean_ranks.to_numpy()[:, None]
        better, worse = _directed(p_better, alpha, ahead, ahead.T)
    elif method == "anova-tukey":
        p_better, ahead = _tukey_on_global_ranks(values)
        p_worse = p_better
        better, worse = _directed(p_better, alpha, ahead, ahead.T)
    elif method == "id-wilcoxon-2s":
        p_better, ahead, behind = _wilcoxon_two_sided(values)
        p_worse = p_better
        better, worse = _directed(p_better, alpha, ahead, behind)
    else:  # id-wilcoxon-1s
        p_better, p_worse = _wilcoxon_one_sided(values)
        better = np.nan_to_num(p_better, nan=1.0) < alpha
        worse = np.nan_to_num(p_worse, nan=1.0) < alpha

    lower = 1 + better.sum(axis=1)
    upper = m - worse.sum(axis=1)
    # one frame when both sides share their p-values (m² floats each)
    pvalues = None if p_better is None else frame_of_pairs(names, p_better)
    return RankCIResult(
        lower=_int_series(lower, names, "lower"),
        upper=_int_series(upper, names, "upper"),
        omnibus_pvalue=float(omnibus_pvalue),
        omnibus_rejected=rejected,
        better=frame_of_pairs(names, better),
        worse=frame_of_pairs(names, worse),
        pvalues=pvalues,
        pvalues_worse=pvalues
        if p_worse is p_better
        else frame_of_pairs(names, p_worse),
        n_resamples=None,
        incomplete=pairwise,
        **common,
    )


def nemenyi_min_cases(n_algorithms: int, alpha: float = 0.05) -> int:
    """Fewest cases for which Nemenyi can separate neighbouring mean ranks.

    With m algorithms ordered identically on every case, the mean ranks are
    1, 2, …, m, so neighbours differ by exactly 1. Nemenyi's test finds them
    different only if the critical difference is at most 1, that is
    (Foucart et al. 2025, supplement §3)

    .. math::

        n \\ge \\frac{m(m+1)}{12}\\, q^2_{m,\\infty,\\alpha}

    with :math:`q_{m,\\infty,\\alpha}` the ``1 - alpha`` quantile of the
    studentized range for m groups and infinite degrees of freedom. Below
    this many cases, ``rank_ci(method="id-nemenyi")`` cannot give every
    algorithm its own rank however well separated the scores are.

    Parameters
    ----------
    n_algorithms : int
        Number of algorithms m, at least 2.
    alpha : float
        Significance level, ``0 < alpha < 1``.

    Returns
    -------
    int
        The smallest such n.

    Examples
    --------
    >>> from nbstats import nemenyi_min_cases
    >>> nemenyi_min_cases(5), nemenyi_min_cases(10)
    (38, 184)
    """
    m = check_count("n_algorithms", n_algorithms, minimum=2)
    check_fraction("alpha", alpha, example=0.05)
    q = critical_value(int(m), float(alpha), "nemenyi") * math.sqrt(2)
    return math.ceil(m * (m + 1) / 12 * q**2)


def _int_series(values: np.ndarray, names: list[str], label: str) -> pd.Series:
    return pd.Series(
        np.asarray(values, dtype=np.int64),
        index=name_index(names, name="algorithm"),
        name=label,
    )


def _bootstrap_intervals(
    values: np.ndarray,
    names: list[str],
    alpha: float,
    n_resamples: int,
    random_state: object,
) -> tuple[np.ndarray, np.ndarray]:
    """Percentile intervals of the rank of the mean score over resampled cases.

    The resamples are drawn from the table in a canonical order — columns
    sorted by name, rows sorted by their scores in that column order — and
    the intervals mapped back to the given columns, so the same seed gives
    the same intervals, bit for bit, whatever the order of the rows and
    columns (rows that sort equal have equal scores, so which comes first
    does not matter). Lexicographic order is also kept by a shift or a
    positive factor applied to every score, so these do not change the
    draws either.
    """
    columns = np.argsort(np.array(names, dtype=object), kind="stable")
    values = values[:, columns]
    values = values[np.lexsort(values.T[::-1])]  # the first column decides first
    n, m = values.shape
    rng = np.random.default_rng(seed_sequence(random_state))
    resamples = rng.integers(0, n, size=(n_resamples, n))
    # per block of resamples: their means and ranks (rankdata takes about
    # 17 floats per value), of which only the two ranks are kept, as int32
    first = np.empty((n_resamples, m), dtype=np.int32)
    last = np.empty((n_resamples, m), dtype=np.int32)
    block = max(1, _bootstrap_block(n, m) // (8 * m * max(n, 17)))
    for start in range(0, n_resamples, block):  # blocks of resamples, not one by one
        rows = slice(start, start + block)
        means = values[resamples[rows]].mean(axis=1)
        # a tie in a resample spans positions: the lower end takes the best
        # of them, the upper end the worst (average ranks put three
        # algorithms tied at 2..4 all at 3, and their intervals missed 2 and 4)
        first[rows] = sps.rankdata(-means, method="min", axis=1)  # 1 = best
        last[rows] = sps.rankdata(-means, method="max", axis=1)
        del means
    low = np.quantile(first, alpha / 2, axis=0, method="lower")
    high = np.quantile(last, 1 - alpha / 2, axis=0, method="higher")
    lower, upper = np.empty(m, dtype=np.int64), np.empty(m, dtype=np.int64)
    lower[columns] = np.floor(low).astype(np.int64)
    upper[columns] = np.ceil(high).astype(np.int64)
    return lower, upper


def _nemenyi_pvalues(mean_ranks: np.ndarray, n: int) -> np.ndarray:
    """Nemenyi's adjusted p-values of every pair, NaN on the diagonal.

    ``nbstats.posthoc(method="nemenyi").adjusted`` (the same function,
    :func:`~nbstats.stats.frequentist.critical_difference.nemenyi_pvalues`),
    but only the p-values: the post-hoc result also holds every pair's
    statistic and effect size, matrices of 128 MB each at 4000 algorithms.
    """
    from nbstats.stats.frequentist.critical_difference import nemenyi_pvalues

    m = mean_ranks.size
    z = mean_ranks[None, :] - mean_ranks[:, None]
    np.abs(z, out=z)
    z /= rank_standard_error(m, n)
    pvalues = nemenyi_pvalues(z, m)
    del z
    np.fill_diagonal(pvalues, np.nan)
    return pvalues


def _directed(
    pvalues: np.ndarray, alpha: float, ahead: np.ndarray, behind: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Significant pairs split by direction: (b better than a, b worse than a)."""
    significant = np.nan_to_num(pvalues, nan=1.0) < alpha
    return significant & ahead, significant & behind


def _holm_per_row(raw: np.ndarray) -> np.ndarray:
    """Holm over each row's m - 1 off-diagonal p-values; NaN diagonal."""
    m = raw.shape[0]
    adjusted = np.full((m, m), np.nan)
    for i in range(m):
        others = np.arange(m) != i
        adjusted[i, others] = adjust_pvalues(raw[i, others], "holm")
    return adjusted


def _wilcoxon_two_sided(
    values: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Row-wise Holm-adjusted two-sided p-values and the mean-score directions.

    Returns ``(adjusted, ahead, behind)``: ``ahead[a, b]`` when b's mean score
    is higher (better) than a's, ``behind[a, b]`` when lower.
    """
    m = values.shape[1]
    first, second = np.triu_indices(m, k=1)
    raw = np.full((m, m), np.nan)
    mean_difference = np.zeros((m, m))
    for block in _pair_blocks(values.shape[0], first.size):
        i, j = first[block], second[block]
        d = values[:, j] - values[:, i]  # > 0 where the second is better
        # zeros dropped (scipy.stats.wilcoxon's default, as the supplement of
        # Foucart et al. used it); each pair on its own cases (NaN elsewhere)
        raw[i, j] = raw[j, i] = signed_rank_pvalues(d, "two-sided")
        for a, b, column in zip(i, j, d.T, strict=True):
            # per pair, as np.mean of its own cases: an exact 0 stays 0 (no
            # direction), which a sum over the whole matrix might not keep
            common = column[~np.isnan(column)]
            mean_difference[a, b] = float(np.mean(common)) if common.size else 0.0
            mean_difference[b, a] = -mean_difference[a, b]
    return _holm_per_row(raw), mean_difference > 0, mean_difference < 0


def _pair_blocks(n: int, n_pairs: int) -> Iterator[slice]:
    """Blocks of pairs whose differences (n cases each) and their ranking
    (about ten copies) take at most an eighth of the memory ceiling."""
    step = max(1, budget() // (_RANKING_COPIES * 8 * max(n, 1)))
    return (slice(start, start + step) for start in range(0, n_pairs, step))


def _wilcoxon_one_sided(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Holm per row and per side of the one-sided p-values.

    ``greater[a, b]`` is the p-value of "b is better than a" (the test of
    ``d = b - a`` with ``alternative="greater"``); "b is worse than a" is the
    same test as "a is better than b", ``greater[b, a]``. Row a's better side
    is ``greater[a, :]``, its worse side ``greater[:, a]``; each is adjusted
    over its own m - 1 p-values.
    """
    m = values.shape[1]
    rows, cols = np.nonzero(~np.eye(m, dtype=bool))
    greater = np.full((m, m), np.nan)
    # zeros dropped, each pair on its own cases, as in _wilcoxon_two_sided
    for block in _pair_blocks(values.shape[0], rows.size):
        i, j = rows[block], cols[block]
        greater[i, j] = signed_rank_pvalues(values[:, j] - values[:, i], "greater")
    return _holm_per_row(greater), _holm_per_row(greater.T)


def _tukey_on_global_ranks(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Tukey's HSD p-values on the globally ranked scores, and who is ahead.

    The global ranks are taken of the oriented scores, so a larger rank is a
    better score; ``ahead[a, b]`` when b's mean global rank is the larger.
    """
    n, m = values.shape
    ranks = sps.rankdata(values, method="average").reshape(n, m)
    column_means = ranks.mean(axis=0)
    ahead = column_means[None, :] > column_means[:, None]
    within = float(np.sum((ranks - column_means) ** 2))
    if within == 0:
        # every column constant: Tukey's standard error is 0, so any difference
        # of means is infinitely significant (scipy would divide by zero)
        pvalues = np.where(ahead | ahead.T, 0.0, 1.0)
    else:
        # scipy.stats.tukey_hsd's p-values (equal group sizes: q = |Δ mean| /
        # sqrt(MSE / n) on n m − m degrees of freedom), with the studentized
        # range's tail tabulated once (studentized_range_sf) instead of
        # integrated per pair, which is slow at many algorithms with scipy's
        df = n * m - m
        mse = within / df
        q = np.abs(column_means[None, :] - column_means[:, None]) / np.sqrt(mse / n)
        pvalues = studentized_range_sf(q, m, df)
    np.fill_diagonal(pvalues, np.nan)
    return pvalues, ahead

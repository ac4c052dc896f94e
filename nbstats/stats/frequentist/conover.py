"""Conover's t-tests of every pair after a rank test (Conover 1999, §5.8–5.9).

After Friedman's test on the rank sums, after Quade's on the weighted scores
and after Durbin's on the rank sums of a balanced incomplete design. Their
error term is the residual variance of the ranks, so they are more powerful
than the z-tests on mean ranks when the cases agree. :func:`conover` adjusts
and reports them; :func:`conover_ttests` and :func:`durbin_conover` compute
the statistics.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from nbstats.results.frequentist import PosthocResult
from nbstats.scores.ranks import rank_rows
from nbstats.scores.table import score_table
from nbstats.stats.frequentist.adjust import ADJUSTMENTS, adjust_pvalues
from nbstats.stats.frequentist.posthoc import pairs_result, pairs_to_test
from nbstats.stats.frequentist.quade import quade_scores
from nbstats.util import scipy_stats as sps
from nbstats.util.checks import check_choice, check_flag, check_fraction

__all__ = ["CONOVER_RANKS", "conover", "conover_ttests", "durbin_conover"]

#: The rank sums Conover's t-tests compare (``conover(ranks=...)``).
CONOVER_RANKS = ("friedman", "quade", "durbin")


def conover(
    scores: pd.DataFrame | np.ndarray,
    *,
    ranks: str = "friedman",
    adjust: str = "holm",
    control: str | None = None,
    alpha: float = 0.05,
    higher_is_better: bool = True,
) -> PosthocResult:
    """Conover's t-tests on rank sums, all pairs or against a control
    (Conover 1999, §5.8–5.9).

    ``t = (R_i − R_j) / sqrt(2 (n A − Σ R_j²) / ((n−1)(k−1)))`` on
    Friedman's rank sums ``R_j`` (A the sum of all squared ranks), with
    ``(n−1)(k−1)`` degrees of freedom — scikit-posthocs'
    ``posthoc_conover_friedman`` —, adjusted by ``adjust``. Its error term is
    the residual variance of the ranks, so it is more powerful than the
    z-tests of :func:`nbstats.posthoc` when the cases agree.

    Parameters
    ----------
    scores : DataFrame or 2-D array-like
        Score table, rows = cases, columns = algorithms. Missing scores
        (NaN) mark the cells a balanced incomplete design leaves out with
        ``ranks="durbin"``; with the other ranks they are refused (drop the
        incomplete cases first with ``nbstats.score_table(scores,
        nan_policy="omit")``).
    ranks : {"friedman", "quade", "durbin"}
        ``"friedman"``: Friedman's within-case ranks. ``"quade"``: the same
        t-tests on Quade's weighted scores ``S_ij = Q_i (r_ij − (k+1)/2)``
        (scikit-posthocs' ``posthoc_quade``). ``"durbin"``: a balanced
        incomplete block design, NaN where an algorithm was not run (see
        :func:`nbstats.durbin`); each case ranks the scores it has, the
        error is ``(A − C) 2r (1 − T₁/(b(k−1))) / (bk − b − t + 1)`` with T₁
        tie-corrected — scikit-posthocs' ``posthoc_durbin``; on a complete
        table the same as ``"friedman"``. ``mean_ranks`` are then the rank
        sums over r, the cases per algorithm.
    adjust : str
        The correction of the p-values: ``"holm"``, ``"hochberg"``,
        ``"hommel"``, ``"bonferroni"``, ``"finner"``, ``"li"``, ``"rom"``,
        ``"shaffer"``, ``"bergmann-hommel"`` or ``"none"``. Against a
        control, Shaffer's and Bergmann and Hommel's are Holm's (the
        comparisons with one algorithm can be true in any combination): the
        result's ``adjust`` is ``"holm"`` and its ``note`` says why.
    control : str, optional
        Compare every algorithm against this one (k − 1 hypotheses).
    alpha : float
        Family-wise significance level, in (0, 1).
    higher_is_better : bool
        Whether higher scores are better.

    Returns
    -------
    PosthocResult
        ``method="conover"``, ``ranks``, ``adjust`` (the correction
        applied) and the matrices (Series against ``control``) of
        :func:`nbstats.posthoc`'s result; no critical difference.

    Examples
    --------
    Demšar's Table 6: Conover's t-tests on Friedman's rank sums, Holm's
    correction.

    >>> import nbstats
    >>> table = nbstats.datasets.load("demsar2006")
    >>> res = nbstats.conover(table, control="C4.5")
    >>> res.method, res.adjust
    ('conover', 'holm')
    >>> res.adjusted.round(4).tolist()
    [0.0231, 0.5546, 0.0231]
    """
    check_choice("ranks", ranks, CONOVER_RANKS)
    check_choice("adjust", adjust, ADJUSTMENTS)
    alpha = check_fraction("alpha", alpha, example=0.05)
    check_flag("higher_is_better", higher_is_better)
    if ranks == "durbin":
        return _durbin(scores, adjust, control, alpha, higher_is_better)
    table = _complete_table(scores, ranks)
    n, k = table.shape
    control, first, second, adjust, note = pairs_to_test(
        list(table.columns), control, adjust, "conover", n
    )
    values = table.to_numpy()
    mean_ranks = pd.Series(
        rank_rows(values, higher_is_better=higher_is_better).mean(axis=0),
        index=table.columns,
        name="mean rank",
    )
    stats, raw = conover_ttests(values, first, second, higher_is_better, ranks)
    adjusted = adjust_pvalues(raw, adjust, n_algorithms=k)
    tested = {"stats": stats, "raw": raw, "adjusted": adjusted}
    del stats, raw, adjusted
    return pairs_result(
        table, ~np.isnan(values), first, second, tested, mean_ranks,
        method="conover", adjust=adjust, alpha=alpha, control=control,
        higher_is_better=higher_is_better, ranks=ranks, note=note,
    )  # fmt: skip


def _complete_table(scores: pd.DataFrame | np.ndarray, ranks: str) -> pd.DataFrame:
    """The validated table; missing scores refused with the two ways out."""
    try:
        return score_table(scores)
    except ValueError as error:
        if not str(error).startswith("missing scores"):
            raise
        raise ValueError(
            f"{error} conover(ranks={ranks!r}) ranks every algorithm in every "
            "case: for a balanced incomplete design, where NaN marks the cells "
            "left out, pass ranks='durbin'; otherwise drop the incomplete cases "
            "with nbstats.score_table(scores, nan_policy='omit')."
        ) from None


def _durbin(
    scores: pd.DataFrame | np.ndarray,
    adjust: str,
    control: str | None,
    alpha: float,
    higher_is_better: bool,
) -> PosthocResult:
    """Conover's t-tests after Durbin's test (Conover 1999, §5.9)."""
    from nbstats.stats.frequentist.durbin import balanced_design
    from nbstats.stats.frequentist.skillings_mack import observed_ranks

    table, present, ranks = observed_ranks(scores, higher_is_better=higher_is_better)
    names = list(table.columns)
    control, first, second, adjust, note = pairs_to_test(
        names, control, adjust, "conover", len(table)
    )
    k, r, _ = balanced_design(table, present, names)
    t = present.shape[1]
    sums = np.nansum(ranks, axis=0)
    mean_ranks = pd.Series(sums / r, index=table.columns, name="mean rank")
    stats, raw = durbin_conover(ranks, present, first, second, k, r)
    adjusted = adjust_pvalues(raw, adjust, n_algorithms=t)
    tested = {"stats": stats, "raw": raw, "adjusted": adjusted}
    return pairs_result(
        table, present, first, second, tested, mean_ranks,
        method="conover", adjust=adjust, alpha=alpha, control=control,
        higher_is_better=higher_is_better, ranks="durbin", note=note,
    )  # fmt: skip


def conover_ttests(
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
    >>> stats, p = conover_ttests(values, np.array([0]), np.array([2]), True)
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
    a complete table (k = t) it is :func:`conover_ttests` on Friedman's ranks.

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

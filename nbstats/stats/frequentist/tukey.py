"""Tukey's honestly significant differences after a repeated-measures ANOVA."""

from __future__ import annotations

import functools
from itertools import combinations

import numpy as np
import pandas as pd

from nbstats.results.frequentist import PosthocResult, frame_of_pairs
from nbstats.scores.frames import power_of_two_scale
from nbstats.scores.names import name_index
from nbstats.scores.ranks import oriented, rank_rows
from nbstats.scores.table import NanPolicy, score_table
from nbstats.stats.frequentist.studentized import studentized_range_sf
from nbstats.stats.groups import nonsignificant_groups
from nbstats.stats.pairs_memory import check_pairs_fit
from nbstats.util import scipy_stats as sps
from nbstats.util.checks import check_flag, check_fraction

__all__ = ["tukey_hsd"]


def tukey_hsd(
    scores: pd.DataFrame | np.ndarray,
    *,
    alpha: float = 0.05,
    higher_is_better: bool = True,
    nan_policy: NanPolicy = "raise",
) -> PosthocResult:
    """All pairs of algorithms by Tukey's HSD on the repeated-measures ANOVA.

    The parametric post-hoc of :func:`nbstats.rm_anova` (Demšar 2006, §3.2.1):
    with the ANOVA's error mean square ``MSE`` on ``(k - 1)(N - 1)`` degrees
    of freedom, the pair (a, b) has ``t = (mean_b - mean_a) / sqrt(2 MSE/N)``
    and the p-value ``P(Q > |t| √2)`` of the studentized range of k means.
    This is the Tukey test of the additive two-way model
    ``score ~ algorithm + case`` (what R's ``TukeyHSD(aov(...), "algorithm")``
    computes). It assumes normal errors and sphericity; see
    :func:`nbstats.analyze` for the checks.

    Parameters
    ----------
    scores : DataFrame or 2-D array-like
        Score table, rows = cases, columns = algorithms.
    alpha : float
        Family-wise significance level.
    higher_is_better : bool
        Whether higher scores are better (the sign of ``t``).
    nan_policy : {"raise", "omit"}
        See :func:`nbstats.score_table`.

    Returns
    -------
    PosthocResult
        ``method`` and ``adjust`` are ``"tukey"``; ``statistics`` holds t
        (positive when the column algorithm is better), ``pvalues`` the
        unadjusted two-sided t p-values, ``adjusted`` Tukey's; ``mean_ranks``
        the usual mean ranks (the order of ``groups``). If every case has
        exactly the same differences between the algorithms (no error), a
        pair that differs has t = ±∞ and p = 0, a pair that does not t = 0
        and p = 1, as :func:`nbstats.ttest`; with two algorithms t is the
        paired t-test's.

    Notes
    -----
    The error mean square is computed from the differences within each case
    (see :func:`nbstats.stats.frequentist.anova.within_case_deviations`), so
    a large case effect (tasks of 0 to 1000 s) cannot drown a consistent small
    difference (0.2 ms) in round-off.

    Examples
    --------
    >>> import nbstats
    >>> from nbstats.stats.frequentist.tukey import tukey_hsd
    >>> table = nbstats.datasets.load("demsar2006")
    >>> res = tukey_hsd(table)
    >>> round(float(res.adjusted.loc["C4.5", "C4.5+m+cf"]), 3)
    0.013
    """
    from nbstats.stats.frequentist.anova import within_case_deviations

    check_fraction("alpha", alpha, example=0.05)
    check_flag("higher_is_better", higher_is_better)
    table = score_table(scores, nan_policy=nan_policy)
    names = list(table.columns)
    n, k = table.shape
    check_pairs_fit("tukey", k, n, what="tukey_hsd()", fix="")
    # each score's deviation from its case's mean, from the differences within
    # the case (exact up to one rounding each): the case effect cancels before
    # anything is summed, so a task of 1000 s cannot drown a 0.2 ms difference
    # in its round-off; powers of two keep the squares in range
    values = oriented(table.to_numpy(), higher_is_better)
    deviations = within_case_deviations(values)
    means = deviations.values.mean(axis=0)
    df_error = (n - 1) * (k - 1)
    first, second = np.array(list(combinations(range(k), 2)), dtype=int).T
    difference = means[second] - means[first]
    if deviations.identical_cases:
        # every case the same deviations: no error at all, only round-off in
        # the means (the paired t-test's "all differences equal", t = ±∞)
        se = 0.0
    else:
        residual, unit = _residuals(values)
        se = np.sqrt(2 * float((residual**2).sum()) / df_error / n) * unit
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        t = difference / se if se > 0 else np.sign(difference) * np.inf
    t = np.where(difference == 0, 0.0, t)
    raw = 2 * sps.t.sf(np.abs(t), df_error)
    tail = studentized_range_sf(np.abs(t) * np.sqrt(2), k, df_error)
    # the range exceeds |t|√2 when one of the k(k-1)/2 pairs does: raw <= Tukey
    # <= k(k-1)/2 raw (Bonferroni); the bounds also remove the tabulated
    # tail's floor far out (t = ±∞ gives 0)
    adjusted = np.minimum(1.0, np.clip(tail, raw, k * (k - 1) / 2 * raw))
    reject = adjusted <= alpha
    mean_ranks = pd.Series(
        rank_rows(table.to_numpy(), higher_is_better=higher_is_better).mean(axis=0),
        index=name_index(names, name=table.columns.name),
        name="mean rank",
    )
    square = functools.partial(_square, names, first, second)
    reject_out = square(reject.astype(float)).fillna(0).astype(bool)
    return PosthocResult(
        method="tukey",
        adjust="tukey",
        alpha=alpha,
        control=None,
        mean_ranks=mean_ranks,
        statistics=square(t, mirrored=-t),
        pvalues=square(raw),
        adjusted=square(adjusted),
        reject=reject_out,
        critical_difference=None,
        groups=nonsignificant_groups(reject_out, mean_ranks),
        n_cases=n,
        cases=table.index.copy(),
    )


def _residuals(x: np.ndarray) -> tuple[np.ndarray, float]:
    """The residuals of ``score ~ algorithm + case``, in units of the result's
    ``unit`` times those of :func:`within_case_deviations`.

    The differences to each case's first score (as ``within_case_deviations``
    takes them, in its units) lose the case effect; their column means are
    then subtracted before the row means, so that what is left is of the
    size of the residuals, and the last centring rounds relative to them,
    not to the algorithms' differences (which may be a million times larger).
    """
    z = x / power_of_two_scale(x)
    w = z - z[:, :1]
    w = w / power_of_two_scale(w)
    v = w - w.mean(axis=0)
    unit = power_of_two_scale(v)
    v = v / unit
    residual = v - v.mean(axis=1, keepdims=True)
    return residual - residual.mean(axis=0), unit


def _square(
    names: list[str],
    first: np.ndarray,
    second: np.ndarray,
    values: np.ndarray,
    *,
    mirrored: np.ndarray | None = None,
) -> pd.DataFrame:
    square = np.full((len(names), len(names)), np.nan)
    square[first, second] = values
    square[second, first] = values if mirrored is None else mirrored
    return frame_of_pairs(names, square)

"""The comparison matrix: every pair of algorithms in one table.

For each pair of algorithms it gathers what a reader asks about that pair:
how often one beat the other (wins, ties, losses over the cases), by how much
on average (the mean difference, in score units), whether that is
significant after the multiple-comparison correction (a paired test with
adjusted p-values, :func:`nbstats.posthoc`) and how large it is (an effect
size, :func:`nbstats.effect_size`). aeon calls this figure a Multiple
Comparison Matrix; here it is a result with a table and a plot.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from nbstats.results.comparison import ComparisonMatrixResult
from nbstats.scores.table import NanPolicy, score_table
from nbstats.stats import frequentist
from nbstats.stats.effect_size import EFFECT_KINDS, magnitude, paired_effect
from nbstats.stats.frequentist.pair_matrices import effect_block_cells
from nbstats.stats.pairs_memory import check_pairs_fit
from nbstats.util.checks import check_choice, check_flag

__all__ = ["COMPARISON_TESTS", "comparison_matrix"]

#: The paired tests the matrix takes its p-values from.
COMPARISON_TESTS = ("wilcoxon", "sign", "ttest")


def comparison_matrix(
    scores: pd.DataFrame | np.ndarray,
    *,
    test: str = "wilcoxon",
    adjust: str = "holm",
    effect: str = "rank-biserial",
    alpha: float = 0.05,
    higher_is_better: bool = True,
    nan_policy: NanPolicy = "raise",
) -> ComparisonMatrixResult:
    """Every pair of algorithms: wins/ties/losses, mean difference, adjusted
    p-value and effect size.

    Parameters
    ----------
    scores : DataFrame or 2-D array-like
        Score table, rows = cases, columns = algorithms.
    test : {"wilcoxon", "sign", "ttest"}
        The paired test of each pair (:func:`nbstats.posthoc` with
        ``method=test``).
    adjust : str
        The correction of the p-values for the m(m − 1)/2 pairs (the
        ``adjust`` of :func:`nbstats.posthoc`: "holm", "hochberg", "hommel",
        "bonferroni", "shaffer", "bergmann-hommel", "none", ...).
    effect : str
        The effect size (:func:`nbstats.effect_size`'s ``effect``). Default
        "rank-biserial": the matched-pairs effect of the Wilcoxon test, from
        the paired differences, like the record and the tests; "cohen-d",
        "hedges-g" and "hodges-lehmann" (in score units) are paired too.
        "cliff" and "vargha-delaney" compare the two columns as independent
        samples, so the spread between cases (data sets) dilutes them.
    alpha : float
        Significance level of the adjusted p-values.
    higher_is_better : bool
        When False, lower scores are better: wins, differences and effects
        are oriented so that positive always means "the row is better".
    nan_policy : {"raise", "omit", "pairwise"}
        Missing scores: refuse, drop every incomplete case, or compare each
        pair on the cases where both have a score (``n`` says how many).

    Returns
    -------
    ComparisonMatrixResult
        Square frames in mean-rank order (best first), cell (row, column)
        describing the row against the column: ``wins``, ``ties``,
        ``losses``, ``mean_difference`` (row − column, oriented),
        ``effect`` (the row's effect over the column), ``magnitude``,
        ``pvalues``, ``adjusted``, ``reject`` and ``n``; ``to_frame()`` one row
        per pair; ``plot()`` the annotated matrix.

    Raises
    ------
    ValueError
        Fewer than 2 algorithms, an unknown test, correction or effect, or
        input :func:`nbstats.score_table` refuses.

    Examples
    --------
    >>> import nbstats
    >>> table = nbstats.datasets.load("demsar2006")
    >>> res = nbstats.comparison_matrix(table)
    >>> list(res.names)
    ['C4.5+m+cf', 'C4.5+m', 'C4.5+cf', 'C4.5']
    >>> int(res.wins.loc["C4.5+m", "C4.5"]), int(res.losses.loc["C4.5+m", "C4.5"])
    (10, 2)
    >>> round(float(res.adjusted.loc["C4.5+m", "C4.5"]), 4)
    0.0469
    """
    check_choice("test", test, COMPARISON_TESTS)
    check_choice("effect", effect, EFFECT_KINDS)
    check_flag("higher_is_better", higher_is_better)
    if nan_policy == "pairwise":
        from nbstats.scores.missing import pairwise_table

        table = pairwise_table(scores)
    else:  # checked (and the dropped cases named) once
        table = score_table(scores, nan_policy=nan_policy)
        nan_policy = "raise"
    check_pairs_fit(
        "comparison_matrix",
        table.shape[1],
        table.shape[0],
        what="comparison_matrix()",
        fix=" (or nbstats.posthoc(control=...): m - 1 pairs)",
        block_cells=effect_block_cells(),
    )
    posthoc = frequentist.posthoc(
        table,
        method=test,
        adjust=adjust,
        alpha=alpha,
        higher_is_better=higher_is_better,
        nan_policy=nan_policy,
    )
    order = list(posthoc.mean_ranks.sort_values(kind="stable").index)
    values = table[order].to_numpy(dtype=float)
    if not higher_is_better:
        values = -values
    m = len(order)
    wins = np.zeros((m, m), dtype=int)
    ties = np.zeros((m, m), dtype=int)
    count = np.zeros((m, m), dtype=int)
    mean_diff = np.full((m, m), np.nan)
    effects = np.full((m, m), np.nan)
    present = ~np.isnan(values)
    # one pair at a time: each pair has its own cases under "pairwise"
    for i in range(m):
        for j in range(i + 1, m):
            both = present[:, i] & present[:, j]
            row, col = values[both, i], values[both, j]
            half = row / 2 - col / 2  # (row − col)/2: finite for any finite scores
            wins[i, j], wins[j, i] = int(np.sum(half > 0)), int(np.sum(half < 0))
            ties[i, j] = ties[j, i] = int(np.sum(half == 0))
            count[i, j] = count[j, i] = half.size
            unit = float(np.max(np.abs(half))) if half.size else 0.0
            mean = 2 * unit * float(np.mean(half / unit)) if unit else 0.0
            mean_diff[i, j], mean_diff[j, i] = mean, -mean
            # the row's effect; every kind but Hodges–Lehmann is scale-free
            value = paired_effect(effect, col, row, half)
            if effect == "hodges-lehmann":
                value *= 2
            effects[i, j] = value
            # every kind is antisymmetric; Vargha–Delaney's A about ½
            effects[j, i] = 1 - value if effect == "vargha-delaney" else -value

    def square(data: np.ndarray) -> pd.DataFrame:
        return pd.DataFrame(data, index=order, columns=order)

    words = np.full((m, m), None, dtype=object)
    for i, j in zip(*np.nonzero(~np.eye(m, dtype=bool)), strict=True):
        words[i, j] = magnitude(effect, float(effects[i, j]))
    losses = wins.T.copy()
    reject = posthoc.reject.reindex(index=order, columns=order).to_numpy(
        dtype=bool, copy=True
    )
    np.fill_diagonal(reject, False)
    return ComparisonMatrixResult(
        names=tuple(order),
        mean_ranks=posthoc.mean_ranks.reindex(order),
        wins=square(wins),
        ties=square(ties),
        losses=square(losses),
        n=square(count),
        mean_difference=square(mean_diff),
        effect=square(effects),
        magnitude=square(words),
        pvalues=posthoc.pvalues.reindex(index=order, columns=order),
        adjusted=posthoc.adjusted.reindex(index=order, columns=order),
        reject=square(reject),
        test=test,
        adjust=posthoc.adjust,
        effect_kind=effect,
        alpha=float(alpha),
        higher_is_better=higher_is_better,
        n_cases=int(table.shape[0]),
    )

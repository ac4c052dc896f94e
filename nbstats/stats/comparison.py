"""The comparison matrix: every pair of algorithms in one table.

For each pair of algorithms it gathers what a reader asks about that pair:
how often one beat the other (wins, ties, losses over the cases), by how much
on average (the mean difference, in score units), whether that is
significant after the multiple-comparison correction (a paired test — the
Wilcoxon signed-rank, sign or t-test — with adjusted p-values) and how large
it is (an effect size, :func:`nbstats.effect_size`). aeon calls this figure a
Multiple Comparison Matrix; here it is a result with a table and a plot, and
its decisions give groups, letters (:func:`nbstats.letters`) and a
critical-difference diagram like a post-hoc test's.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np
import pandas as pd

from nbstats.results.comparison import ComparisonMatrixResult
from nbstats.scores.frames import power_of_two_scale
from nbstats.scores.missing import observed_mean_ranks, pairwise_table
from nbstats.scores.ranks import oriented, rank_rows
from nbstats.scores.table import score_table
from nbstats.stats.effect_size import EFFECT_KINDS, magnitude, paired_effect
from nbstats.stats.frequentist.adjust import ADJUSTMENTS, adjust_pvalues
from nbstats.stats.frequentist.pair_matrices import (
    all_pairs,
    effect_block_cells,
    pair_square,
)
from nbstats.stats.frequentist.pairwise_tests import WilcoxonTest, pairwise_tests
from nbstats.stats.groups import nonsignificant_groups
from nbstats.stats.pairs_memory import check_pairs_fit
from nbstats.util.checks import check_choice, check_flag, check_fraction

__all__ = [
    "COMPARISON_TESTS",
    "WilcoxonTest",
    "comparison_matrix",
    "readjusted_matrix",
]

#: The paired tests the matrix takes its p-values from.
COMPARISON_TESTS = ("wilcoxon", "sign", "ttest")


def comparison_matrix(
    scores: pd.DataFrame | np.ndarray,
    *,
    test: str | WilcoxonTest = "wilcoxon",
    adjust: str = "holm",
    effect: str = "rank-biserial",
    alpha: float = 0.05,
    higher_is_better: bool = True,
    nan_policy: str = "raise",
    progress: bool | None = None,
) -> ComparisonMatrixResult:
    """Every pair of algorithms: wins/ties/losses, mean difference, a paired
    test's adjusted p-value and an effect size.

    Parameters
    ----------
    scores : DataFrame or 2-D array-like
        Score table, rows = cases, columns = algorithms.
    test : {"wilcoxon", "sign", "ttest"} or WilcoxonTest
        The paired test of each pair, on the scores: ``"wilcoxon"``
        (:func:`nbstats.wilcoxon`, exact or normal, zero differences split),
        ``"sign"`` (ties split) or ``"ttest"`` (paired t); a
        :class:`nbstats.WilcoxonTest` sets the Wilcoxon test's options, e.g.
        ``WilcoxonTest(zero_method="wilcox", method="approx",
        correction=True)`` is R's ``pairwise.wilcox.test(..., paired = TRUE,
        exact = FALSE)`` and ``WilcoxonTest(zero_method="wilcox")``
        scikit-posthocs' ``posthoc_wilcoxon`` on ties-free data.
    adjust : str
        The correction of the p-values for the m(m − 1)/2 pairs (the
        ``method`` of :func:`nbstats.adjust_pvalues`): "holm", "hochberg",
        "hommel", "bonferroni", "finner", "li", "rom", "shaffer",
        "bergmann-hommel" or "none".
    effect : str
        The effect size (:func:`nbstats.effect_size`'s ``effect``). Default
        "rank-biserial": the matched-pairs effect of the Wilcoxon test, from
        the paired differences, like the record and the tests; "cohen-d",
        "hedges-g" and "hodges-lehmann" (in score units) are paired too.
        "cliff" and "vargha-delaney" compare the two columns as independent
        samples, so the spread between cases (data sets) dilutes them.
    alpha : float
        Significance level of the adjusted p-values, in (0, 1).
    higher_is_better : bool
        When False, lower scores are better: wins, differences and effects
        are oriented so that positive always means "the row is better".
    nan_policy : {"raise", "omit", "pairwise"}
        Missing scores: refuse, drop every incomplete case, or compare each
        pair on the cases where both have a score (``pair_cases`` says how
        many; ``mean_ranks`` then rank each case among the algorithms it
        has, see :func:`nbstats.scores.missing.observed_mean_ranks`).
    progress : bool, optional
        A progress bar over the pairs (``tqdm.auto``): ``None`` shows one in
        a terminal or a notebook when the call lasts more than a second, not
        in scripts whose output is redirected nor under pytest; True/False
        force it. Each pair is a test of its own, so hundreds of algorithms
        take minutes; Ctrl-C stops the call between two pairs.

    Returns
    -------
    ComparisonMatrixResult
        Square frames in mean-rank order (best first), cell (row, column)
        describing the row against the column: ``wins``, ``ties``,
        ``losses``, ``mean_difference`` (row − column, oriented),
        ``effect_sizes`` (the row's effect over the column), ``magnitude``,
        ``statistics``, ``pvalues``, ``adjusted``, ``reject`` and
        ``pair_cases``; ``groups`` (the maximal sets with no significant
        difference inside); ``to_frame()`` one row per pair; ``plot()`` the
        annotated matrix. :func:`nbstats.letters` and
        :func:`nbstats.plots.cd_diagram` take it as they take a post-hoc
        result.

    Raises
    ------
    ValueError
        Fewer than 2 algorithms, an unknown test, correction or effect, or
        input :func:`nbstats.score_table` refuses.

    See Also
    --------
    nbstats.posthoc : z-tests on mean ranks (Nemenyi, Holm, ...).
    nbstats.conover : Conover's t-tests on rank sums.

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
    >>> nbstats.letters(res).letters.to_dict()
    {'C4.5+m+cf': 'ab', 'C4.5+m': 'a', 'C4.5+cf': 'ab', 'C4.5': 'b'}
    """
    if isinstance(test, WilcoxonTest):
        options = test
    else:
        check_choice("test", test, COMPARISON_TESTS)
        options = WilcoxonTest() if test == "wilcoxon" else None
    name = "wilcoxon" if options is not None else str(test)
    check_choice("adjust", adjust, ADJUSTMENTS)
    check_choice("effect", effect, EFFECT_KINDS)
    alpha = check_fraction("alpha", alpha, example=0.05)
    check_flag("higher_is_better", higher_is_better)
    check_choice("nan_policy", nan_policy, ("raise", "omit", "pairwise"))
    pairwise = nan_policy == "pairwise"
    if pairwise:
        table = pairwise_table(scores)
    else:  # checked (and the dropped cases named) once
        table = score_table(scores, nan_policy=nan_policy)
    check_pairs_fit(
        "comparison_matrix",
        table.shape[1],
        table.shape[0],
        what="comparison_matrix()",
        fix=" (or nbstats.posthoc(control=...): m - 1 pairs)",
        block_cells=effect_block_cells(),
    )
    columns = list(table.columns)
    k = len(columns)
    values = table.to_numpy(dtype=float)
    if pairwise:
        mean_ranks = observed_mean_ranks(table, higher_is_better=higher_is_better)
    else:
        mean_ranks = pd.Series(
            rank_rows(values, higher_is_better=higher_is_better).mean(axis=0),
            index=table.columns,
            name="mean rank",
        )
    better = oriented(values, higher_is_better)
    # a power of two (exact: keeps ties and order) so that no difference of
    # two scores overflows, whatever the units
    better = better / power_of_two_scale(better)
    first, second = all_pairs(k)
    stats, raw, mirrored = pairwise_tests(
        better, first, second, name,
        {} if options is None else options.options(),
        pairwise=pairwise, progress=progress,
    )  # fmt: skip
    order = list(mean_ranks.sort_values(kind="stable").index)

    def tested(data: np.ndarray, below: np.ndarray | None = None) -> pd.DataFrame:
        frame = pair_square(columns, data, mirrored=below)
        return frame.reindex(index=order, columns=order)

    decisions = _decisions(raw, columns, order, mean_ranks, adjust, alpha)
    frames = _records(table[order].to_numpy(dtype=float), higher_is_better, effect)

    def square(data: np.ndarray) -> pd.DataFrame:
        return pd.DataFrame(data, index=order, columns=order)

    return ComparisonMatrixResult(
        names=tuple(order),
        mean_ranks=mean_ranks.reindex(order),
        wins=square(frames["wins"]),
        n_ties=square(frames["ties"]),
        losses=square(frames["wins"].T.copy()),
        pair_cases=square(frames["count"]),
        mean_difference=square(frames["mean"]),
        effect_sizes=square(frames["effects"]),
        magnitude=square(frames["words"]),
        # the row against the column: (a, b) holds the test of a vs b
        statistics=tested(mirrored, stats),
        pvalues=tested(raw),
        **decisions,
        test=name,
        test_options=options,
        effect=effect,
        higher_is_better=higher_is_better,
        n_cases=int(table.shape[0]),
        cases=table.index.copy(),
    )


def readjusted_matrix(
    result: ComparisonMatrixResult,
    columns: Sequence[str],
    adjust: str,
    alpha: float,
) -> ComparisonMatrixResult:
    """``result`` with its raw p-values adjusted by ``adjust`` and decided at
    ``alpha``: what :func:`comparison_matrix` of the same table with these
    settings returns, without running its tests again.

    ``columns`` are the algorithms in the order of the score table: the
    adjustment gets the p-values of the pairs (i, j), i < j, of that order,
    as in :func:`comparison_matrix` (the same vector, not only the same
    set). Everything but ``adjusted``, ``reject``, ``groups``, ``adjust``
    and ``alpha`` is ``result``'s own (not copied).

    Examples
    --------
    >>> import nbstats
    >>> table = nbstats.datasets.load("demsar2006")
    >>> base = nbstats.comparison_matrix(table, adjust="holm")
    >>> again = readjusted_matrix(base, list(table.columns), "hommel", 0.1)
    >>> again == nbstats.comparison_matrix(table, adjust="hommel", alpha=0.1)
    True
    """
    columns = [str(name) for name in columns]
    if sorted(columns) != sorted(map(str, result.names)):
        raise ValueError(
            f"columns must name the matrix's algorithms, in the score table's "
            f"order: got {columns!r} for {list(result.names)!r}."
        )
    check_choice("adjust", adjust, ADJUSTMENTS)
    alpha = check_fraction("alpha", alpha, example=0.05)
    first, second = all_pairs(len(columns))
    # the raw p-values are symmetric in the square: (a, b) as the tests gave them
    square = result.pvalues.reindex(index=columns, columns=columns)
    raw = square.to_numpy(dtype=float)[first, second]
    mean_ranks = result.mean_ranks.reindex(columns)
    decisions = _decisions(raw, columns, list(result.names), mean_ranks, adjust, alpha)
    return dataclasses.replace(result, **decisions)


def _decisions(
    raw: np.ndarray,
    columns: list[str],
    order: list[str],
    mean_ranks: pd.Series,
    adjust: str,
    alpha: float,
) -> dict[str, object]:
    """The adjusted p-values, decisions and groups of the raw p-values
    ``raw`` of the pairs of ``columns`` (the table's order), as squares in
    ``order``; ``mean_ranks`` in the table's order."""
    adjusted = adjust_pvalues(raw, adjust, n_algorithms=len(columns))
    square = pair_square(columns, adjusted).reindex(index=order, columns=order)
    reject = square <= alpha  # NaN diagonal: False
    return {
        "adjusted": square,
        "reject": reject,
        "groups": nonsignificant_groups(reject, mean_ranks),
        "adjust": adjust,
        "alpha": alpha,
    }


def _records(
    values: np.ndarray, higher_is_better: bool, effect: str
) -> dict[str, np.ndarray]:
    """Wins, ties, cases compared, mean differences, effect sizes and their
    words of every (row, column) pair of ``values`` (in the matrix's order)."""
    if not higher_is_better:
        values = -values
    m = values.shape[1]
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
    words = np.full((m, m), None, dtype=object)
    for i, j in zip(*np.nonzero(~np.eye(m, dtype=bool)), strict=True):
        words[i, j] = magnitude(effect, float(effects[i, j]))
    return {
        "wins": wins,
        "ties": ties,
        "count": count,
        "mean": mean_diff,
        "effects": effects,
        "words": words,
    }

"""The result of :func:`nbstats.comparison_matrix`."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pandas as pd

from nbstats.results.base import Result
from nbstats.results.effect_size import _NAMES as EFFECT_NAMES
from nbstats.results.procedure_names import adjustment_clause
from nbstats.scores.names import name_array

_frozen = dataclasses.dataclass(frozen=True, eq=False, repr=False)

#: Short names of the tests, for titles.
TEST_NAMES = {
    "wilcoxon": "Wilcoxon signed-rank",
    "sign": "sign",
    "ttest": "paired t",
}


@_frozen
class ComparisonMatrixResult(Result):
    """Every pair of algorithms: wins/ties/losses, mean difference, adjusted
    p-value, effect size.

    The square frames are in mean-rank order (best first); cell (row,
    column) describes the row against the column, oriented so that positive
    means the row is better (for lower-is-better scores too). It carries
    what a post-hoc result's views read (``pvalues``, ``adjusted``,
    ``reject``, ``groups``, ``mean_ranks``, ``method``, with no
    ``critical_difference`` and no ``control``), so :func:`nbstats.letters`,
    :func:`nbstats.plots.cd_diagram` and
    :func:`nbstats.plots.pairwise_heatmap` take it.

    Attributes
    ----------
    names : tuple of str
        The algorithms, best mean rank first.
    mean_ranks : pandas.Series
    wins, n_ties, losses : pandas.DataFrame of int
        Cases where the row scored better than, the same as, worse than the
        column (``losses`` is the transpose of ``wins``).
    pair_cases : pandas.DataFrame of int
        Cases the pair was compared on (all, unless ``nan_policy="pairwise"``).
    mean_difference : pandas.DataFrame
        Mean of row − column over the pair's cases, in score units, oriented.
    effect_sizes : pandas.DataFrame
        The row's effect size over the column (of the kind ``effect``).
    magnitude : pandas.DataFrame of str
        "negligible", "small", "medium", "large" (None for Hodges–Lehmann).
    statistics : pandas.DataFrame
        The paired test's statistic of the row against the column: t of
        row − column (``"ttest"``), the row's wins with ties split
        (``"sign"``), T = min(R+, R−) (``"wilcoxon"``, symmetric).
    pvalues, adjusted : pandas.DataFrame
        The paired test's p-values, raw and corrected (``adjust``).
    reject : pandas.DataFrame of bool
        Adjusted p-value ≤ ``alpha``.
    groups : list of tuple of str
        The maximal sets of algorithms with no significant difference
        inside, ordered by mean rank.
    test : str
        ``"wilcoxon"``, ``"sign"`` or ``"ttest"``.
    test_options : WilcoxonTest or None
        The Wilcoxon test's options (None for the sign and t-tests).
    adjust, effect : str
        The correction and the kind of effect size.
    alpha : float
    higher_is_better : bool
    n_cases : int
    cases : pandas.Index
        The cases of the table the tests read (under ``nan_policy="omit"``
        the complete ones; under ``"pairwise"`` every case, each pair using
        those where both have a score: ``pair_cases``).

    Examples
    --------
    >>> import nbstats
    >>> res = nbstats.comparison_matrix(nbstats.datasets.load("demsar2006"))
    >>> [str(v) for v in res.to_frame().loc[0, ["a", "b", "wins", "ties", "losses"]]]
    ['C4.5+m+cf', 'C4.5+m', '6', '3', '5']
    """

    names: tuple[str, ...]
    mean_ranks: pd.Series
    wins: pd.DataFrame
    n_ties: pd.DataFrame
    losses: pd.DataFrame
    pair_cases: pd.DataFrame
    mean_difference: pd.DataFrame
    effect_sizes: pd.DataFrame
    magnitude: pd.DataFrame
    statistics: pd.DataFrame
    pvalues: pd.DataFrame
    adjusted: pd.DataFrame
    reject: pd.DataFrame
    groups: list[tuple[str, ...]]
    test: str
    test_options: Any
    adjust: str
    effect: str
    alpha: float
    higher_is_better: bool
    n_cases: int
    cases: pd.Index

    @property
    def test_name(self) -> str:
        """The paired test, in words ("Wilcoxon signed-rank")."""
        return TEST_NAMES[self.test]

    @property
    def effect_name(self) -> str:
        """The effect size, in words ("Cliff's δ")."""
        return EFFECT_NAMES[self.effect]

    @property
    def method(self) -> str:
        """The test, as a post-hoc result names its procedure (the figures'
        captions read it)."""
        return self.test

    @property
    def critical_difference(self) -> None:
        """None: paired tests have no critical difference of mean ranks."""
        return None

    @property
    def control(self) -> None:
        """None: every pair is compared."""
        return None

    def _title(self) -> str:
        # the adjustment in the post-hoc titles' words ("unadjusted", "Holm
        # adjustment")
        return (
            f"Comparison matrix: {self.test_name} tests"
            f"{adjustment_clause(self.test, self.adjust)}, {self.effect_name}"
        )

    def _scalars(self) -> list[tuple[str, object]]:
        significant = int(np.triu(self.reject.to_numpy(dtype=bool), 1).sum())
        m = len(self.names)
        rows: list[tuple[str, object]] = [
            ("algorithms", m),
            ("cases", self.n_cases),
            (
                f"pairs significant at α = {self.alpha:g}",
                f"{significant} of {m * (m - 1) // 2}",
            ),
        ]
        counts = self.pair_cases.to_numpy()[np.triu_indices(m, 1)]
        if counts.size and counts.min() != counts.max():
            rows.append(("cases per pair", f"{counts.min()}–{counts.max()}"))
        return rows

    def to_frame(self) -> pd.DataFrame:
        """One row per pair, a (better mean rank) against b, in rank order.

        Columns: ``a``, ``b``, ``n``, ``wins``, ``ties``, ``losses`` (of a
        against b), ``mean_difference`` (a − b, oriented), ``effect`` (a's
        effect over b) and ``magnitude``, ``pvalue``, ``adjusted``,
        ``reject``.
        """
        m = len(self.names)
        i, j = np.triu_indices(m, 1)

        def pick(frame: pd.DataFrame) -> Any:
            return frame.to_numpy()[i, j]

        names = name_array(self.names)
        return pd.DataFrame(
            {
                "a": names[i],
                "b": names[j],
                "n": pick(self.pair_cases).astype(int),
                "wins": pick(self.wins).astype(int),
                "ties": pick(self.n_ties).astype(int),
                "losses": pick(self.losses).astype(int),
                "mean_difference": pick(self.mean_difference).astype(float),
                "effect": pick(self.effect_sizes).astype(float),
                "magnitude": pick(self.magnitude),
                "pvalue": pick(self.pvalues).astype(float),
                "adjusted": pick(self.adjusted).astype(float),
                "reject": pick(self.reject).astype(bool),
            }
        )

    def _table(self) -> pd.DataFrame:
        """One row per pair, named "a vs b", headers in words."""
        frame = self.to_frame()
        frame.index = pd.Index(
            [f"{a} vs {b}" for a, b in zip(frame["a"], frame["b"], strict=True)],
            name="comparison",
        )
        return frame.drop(columns=["a", "b", "magnitude"]).rename(
            columns={
                "mean_difference": "mean difference",
                "pvalue": "p",
                "adjusted": "adjusted p",
                "reject": "significant",
            }
        )

    def _kinds(self) -> dict[object, str]:
        return {
            "n": "count",
            "wins": "count",
            "ties": "count",
            "losses": "count",
            "mean difference": "score",
            "effect": "effect",
            "p": "pvalue",
            "adjusted p": "pvalue",
        }

    def plot(self, **kwargs: Any) -> Any:
        """The annotated matrix; see :func:`nbstats.plots.comparison_matrix_plot`."""
        from nbstats.plots.comparison import comparison_matrix_plot

        return comparison_matrix_plot(self, **kwargs)

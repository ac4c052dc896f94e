"""The frequentist dashboard's pairwise tests, run once per test.

:func:`nbstats.comparison_matrix` runs one paired test (Wilcoxon, sign or t)
per pair of algorithms and computes every pair's record and effect size;
for 50 algorithms those are 1225 tests. None of that depends on the
adjustment of the p-values or on α. :class:`PairwiseTests` keeps each
test's matrix and, for a new adjustment or α, only adjusts the kept raw
p-values again, by the code :func:`nbstats.comparison_matrix` adjusts them
with (:func:`nbstats.stats.comparison.readjusted_matrix`).
"""

from __future__ import annotations

import pandas as pd

from nbstats.results.comparison import ComparisonMatrixResult
from nbstats.stats.comparison import comparison_matrix, readjusted_matrix

__all__ = ["PairwiseTests"]


class PairwiseTests:
    """The comparison matrix of each paired test of one score table, kept.

    Parameters
    ----------
    scores : DataFrame
        The dashboard's score table (validated, no missing values).
    higher_is_better : bool
        Whether higher scores are better.

    Examples
    --------
    >>> import nbstats
    >>> table = nbstats.datasets.load("demsar2006")
    >>> tests = PairwiseTests(table, higher_is_better=True)
    >>> res = tests.result("wilcoxon", "hommel", 0.05)  # the tests, once
    >>> tests.result("wilcoxon", "none", 0.1) == nbstats.comparison_matrix(
    ...     table, adjust="none", alpha=0.1)
    True
    """

    def __init__(self, scores: pd.DataFrame, *, higher_is_better: bool) -> None:
        self.scores = scores
        self.higher_is_better = higher_is_better
        self._columns = [str(c) for c in scores.columns]
        self._base: dict[str, ComparisonMatrixResult] = {}

    def result(self, test: str, adjust: str, alpha: float) -> ComparisonMatrixResult:
        """:func:`nbstats.comparison_matrix` of ``test`` with ``adjust`` at α:
        computed on the first call of each test, re-adjusted after."""
        base = self._base.get(test)
        if base is None:
            base = comparison_matrix(
                self.scores,
                test=test,
                adjust=adjust,
                alpha=alpha,
                higher_is_better=self.higher_is_better,
            )
            self._base[test] = base
        if base.adjust == adjust and base.alpha == alpha:
            return base
        return readjusted_matrix(base, self._columns, adjust, alpha)

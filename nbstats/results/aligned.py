"""The result of Friedman's aligned-ranks test."""

from __future__ import annotations

import dataclasses

import pandas as pd

from nbstats.results.base import TestResult

_frozen = dataclasses.dataclass(frozen=True, eq=False, repr=False)


@_frozen
class FriedmanAlignedResult(TestResult):
    """Friedman's aligned-ranks test (Hodges & Lehmann 1962; García et al. 2010).

    Attributes
    ----------
    statistic : float
        T, χ²-distributed with ``df`` degrees of freedom under the null.
    pvalue : float
    df : int
        ``k − 1``.
    mean_aligned_ranks : Series
        Each algorithm's mean rank among all ``kn`` aligned scores (1 = best).
    n_cases, n_algorithms : int
    """

    df: int
    mean_aligned_ranks: pd.Series
    n_cases: int
    n_algorithms: int

    def _title(self) -> str:
        return (
            f"Friedman aligned-ranks test: {self.n_algorithms} algorithms on "
            f"{self.n_cases} cases"
        )

    def _scalars(self) -> list[tuple[str, object]]:
        return [("T", self.statistic), ("df", self.df), ("p-value", self.pvalue)]

    def to_frame(self) -> pd.DataFrame:
        return self._row("statistic pvalue df n_cases n_algorithms")

    def _table(self) -> pd.DataFrame:
        return self.mean_aligned_ranks.to_frame()

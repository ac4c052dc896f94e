"""The result of the Quade test."""

from __future__ import annotations

import dataclasses

import pandas as pd

from nbstats.results.base import TestResult

_frozen = dataclasses.dataclass(frozen=True, eq=False, repr=False)


@_frozen
class QuadeResult(TestResult):
    """Quade test (Quade 1979; Conover 1999, §5.8).

    Attributes
    ----------
    statistic : float
        F = (n − 1) B / (A − B).
    pvalue : float
        From F with ``f_df`` degrees of freedom.
    f_df : tuple of int
        ``(k − 1, (n − 1)(k − 1))``.
    weighted_mean_ranks : Series
        Each algorithm's within-case rank (1 = best), cases weighted by the
        rank of their range.
    n_cases, n_algorithms : int
    """

    f_df: tuple[int, int]
    weighted_mean_ranks: pd.Series
    n_cases: int
    n_algorithms: int

    def _title(self) -> str:
        return f"Quade test: {self.n_algorithms} algorithms on {self.n_cases} cases"

    def _scalars(self) -> list[tuple[str, object]]:
        return [
            ("F", self.statistic),
            ("df", self.f_df),
            ("p-value", self.pvalue),
        ]

    def to_frame(self) -> pd.DataFrame:
        return self._row(
            "statistic pvalue df1 df2 n_cases n_algorithms",
            df1=self.f_df[0],
            df2=self.f_df[1],
        )

    def _table(self) -> pd.DataFrame:
        return self.weighted_mean_ranks.rename("weighted mean rank").to_frame()

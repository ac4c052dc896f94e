"""Results of the rank tests for incomplete designs (Skillings–Mack, Durbin)."""

from __future__ import annotations

import dataclasses

import pandas as pd

from nbstats.results.base import TestResult
from nbstats.results.render import Label

_frozen = dataclasses.dataclass(frozen=True, eq=False, repr=False)

_T1 = Label("T₁", html="T<sub>1</sub>", latex=r"$T_{1}$")
_T2 = Label("T₂ (F)", html="T<sub>2</sub> (F)", latex=r"$T_{2}$ (F)")


@_frozen
class SkillingsMackResult(TestResult):
    """Skillings–Mack test (Skillings and Mack 1981).

    Attributes
    ----------
    statistic : float
        T = Aᵀ Σ⁻ A.
    pvalue : float
        From χ²(df) (``method="asymptotic"``) or the permutation distribution.
    df : int
        m − 1 for a connected design (see :func:`nbstats.skillings_mack`).
    adjusted_sums : Series
        A_j = Σ_i √(12/(k_i + 1)) (r_ij − (k_i + 1)/2), ranks 1 = best, so a
        negative sum means better than average.
    mean_ranks : Series
        Each case's ranks stretched onto 1..m and averaged
        (:func:`nbstats.scores.missing.observed_mean_ranks`), for display only.
    cases_per_algorithm : Series
        Cases used in which each algorithm has a score.
    covariance : DataFrame
        Σ, the null covariance of ``adjusted_sums``.
    n_cases : int
        Cases used (those with at least two scores).
    n_dropped : int
        Cases dropped for having fewer than two scores.
    n_algorithms : int
    n_missing : int
        Missing cells among the cases used.
    tie_correction : bool
    method : str
        ``"asymptotic"`` or ``"permutation"``.
    n_resamples : int or None
        Permutations evaluated (all of them when ``exact``).
    exact : bool
        Whether the permutation p-value enumerated every arrangement.
    cases : Index or None
        The labels of the cases (rows of the score table) the analysis used,
        those with at least two scores (``n_cases`` of them).

    Examples
    --------
    >>> import numpy as np
    >>> from nbstats.stats.frequentist.skillings_mack import skillings_mack
    >>> res = skillings_mack([[1.0, 2, 3], [2, 3, np.nan], [1, np.nan, 2],
    ...                               [3, 1, 2], [np.nan, np.nan, 5]])
    >>> res.n_cases, res.n_dropped, res.df
    (4, 1, 2)
    >>> res.to_frame().columns[:3].tolist()
    ['statistic', 'pvalue', 'df']
    """

    df: int
    adjusted_sums: pd.Series
    mean_ranks: pd.Series
    cases_per_algorithm: pd.Series
    covariance: pd.DataFrame
    n_cases: int
    n_dropped: int
    n_algorithms: int
    n_missing: int
    tie_correction: bool
    method: str
    n_resamples: int | None
    exact: bool
    cases: pd.Index | None = None

    def _title(self) -> str:
        return (
            f"Skillings–Mack test: {self.n_algorithms} algorithms on "
            f"{self.n_cases} cases"
        )

    def _pvalue_label(self) -> str:
        if self.method == "asymptotic":
            return "p-value (χ² approximation)"
        if not self.n_resamples:  # T = 0: every arrangement is as extreme
            return "p-value (permutation, T = 0)"
        if self.exact:
            return f"p-value (exact, {self.n_resamples} permutations)"
        return f"p-value ({self.n_resamples} random permutations)"

    def _scalars(self) -> list[tuple[str, object]]:
        return [
            ("T", self.statistic),
            ("df", self.df),
            (self._pvalue_label(), self.pvalue),
            ("missing cells", self.n_missing),
            ("cases dropped (< 2 scores)", self.n_dropped),
            ("tie correction", self.tie_correction),
        ]

    def to_frame(self) -> pd.DataFrame:
        """One row: the test's figures (``adjusted_sums`` etc. hold the rest)."""
        return self._row(
            "statistic pvalue df method n_resamples exact n_cases n_dropped "
            "n_algorithms n_missing tie_correction"
        )

    def _table(self) -> pd.DataFrame:
        return pd.DataFrame(
            {
                "cases": self.cases_per_algorithm,
                "mean rank": self.mean_ranks,
                "adjusted rank sum": self.adjusted_sums,
            }
        )

    def _kinds(self) -> dict[object, str]:
        return {"cases": "count", "mean rank": "rank", "adjusted rank sum": "statistic"}


@_frozen
class DurbinResult(TestResult):
    """Durbin test for a balanced incomplete block design (Durbin 1951).

    Attributes
    ----------
    statistic : float
        Durbin's T₁ (Conover 1999, §5.9), tie-corrected if ``tie_correction``.
    pvalue : float
        From χ² with ``df`` degrees of freedom.
    df : int
        t − 1.
    f_statistic : float
        T₂ = (T₁/(t − 1)) / ((b(k − 1) − T₁)/(bk − b − t + 1)).
    f_pvalue : float
        From F with ``f_df`` degrees of freedom.
    f_df : tuple of int
        ``(t − 1, bk − b − t + 1)``.
    rank_sums : Series
        R_j, each algorithm's sum of within-case ranks (1 = best).
    mean_ranks : Series
        R_j / r, on the 1..k scale.
    n_cases, n_algorithms : int
        b and t.
    block_size, replications, pair_count : int
        k (scores per case), r (cases per algorithm), λ (cases per pair).
    tie_correction : bool

    Examples
    --------
    >>> import numpy as np
    >>> from nbstats.stats.frequentist.durbin import durbin
    >>> res = durbin([[1.0, 2, np.nan], [np.nan, 1, 2], [2, np.nan, 1],
    ...                       [1, 2, np.nan], [np.nan, 1, 2], [2, np.nan, 1]])
    >>> res.block_size, res.replications, res.pair_count
    (2, 4, 2)
    >>> res.to_frame()["df"].item()
    2
    """

    df: int
    f_statistic: float
    f_pvalue: float
    f_df: tuple[int, int]
    rank_sums: pd.Series
    mean_ranks: pd.Series
    n_cases: int
    n_algorithms: int
    block_size: int
    replications: int
    pair_count: int
    tie_correction: bool

    def _title(self) -> str:
        return (
            f"Durbin test: {self.n_algorithms} algorithms on {self.n_cases} cases, "
            f"{self.block_size} per case"
        )

    def _scalars(self) -> list[tuple[str, object]]:
        return [
            (_T1, self.statistic),
            ("df", self.df),
            ("p-value", self.pvalue),
            (_T2, self.f_statistic),
            ("F df", self.f_df),
            ("F p-value", self.f_pvalue),
            ("design (k, r, λ)", (self.block_size, self.replications, self.pair_count)),
            ("tie correction", self.tie_correction),
        ]

    def to_frame(self) -> pd.DataFrame:
        """One row: the test's figures (``rank_sums`` holds the ranks)."""
        return self._row(
            "statistic pvalue df f_statistic f_pvalue f_df1 f_df2 n_cases "
            "n_algorithms block_size replications pair_count tie_correction",
            f_df1=self.f_df[0],
            f_df2=self.f_df[1],
        )

    def _table(self) -> pd.DataFrame:
        return pd.DataFrame({"rank sum": self.rank_sums, "mean rank": self.mean_ranks})

    def _kinds(self) -> dict[object, str]:
        return {"rank sum": "statistic", "mean rank": "rank"}

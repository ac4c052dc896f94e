"""Result object of the confidence intervals for ranks (Foucart et al. 2025)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pandas as pd

from nbstats.results import methods_text, render, render_text
from nbstats.results.base import Result
from nbstats.results.prose import Paragraph

__all__ = ["RankCIResult"]

_METHOD_TEXT = {
    "bootstrap": "bootstrap percentiles",
    "id-nemenyi": "Iman–Davenport + Nemenyi",
    "id-wilcoxon-2s": "Iman–Davenport + two-sided Wilcoxon, Holm per algorithm",
    "id-wilcoxon-1s": (
        "Iman–Davenport + one-sided Wilcoxon, Holm per algorithm and side"
    ),
    "anova-tukey": "rank-transformed ANOVA + Tukey HSD",
}

_OMNIBUS_TEXT = {
    "id-nemenyi": "Iman–Davenport F",
    "id-wilcoxon-2s": "Iman–Davenport F",
    "id-wilcoxon-1s": "Iman–Davenport F",
    "anova-tukey": "rm-ANOVA on global ranks",
}


@dataclasses.dataclass(frozen=True, eq=False, repr=False)
class RankCIResult(Result):
    """Confidence intervals for the ranks of m algorithms (Foucart et al. 2025).

    Ranks are **1 = best** (the supplement ranks 1 = lowest score; nbstats
    converts). Attribute-only: it does not unpack.

    Attributes
    ----------
    lower, upper : Series of int
        The interval ``[lower, upper]`` of each algorithm's rank (index =
        algorithm names), with ``1 <= lower <= upper <= m``. For the test-based
        methods ``lower = 1 + better.sum(axis=1)`` and
        ``upper = m - worse.sum(axis=1)`` (Al Mohamad et al. 2022).
    method : str
        ``"bootstrap"``, ``"id-nemenyi"``, ``"id-wilcoxon-2s"``,
        ``"id-wilcoxon-1s"`` or ``"anova-tukey"``.
    alpha : float
        Significance level (``1 - alpha`` is the confidence level).
    omnibus_pvalue : float
        p-value of the omnibus test run first: Iman–Davenport for the ``id-*``
        methods, the repeated-measures ANOVA on rank-transformed scores for
        ``"anova-tukey"``; NaN for ``"bootstrap"``.
    omnibus_rejected : bool or None
        ``omnibus_pvalue < alpha``. When False no pairwise test is run and
        every interval is ``[1, m]``. None for ``"bootstrap"``.
    better : DataFrame of bool
        m × m; ``better.loc[a, b]`` is True when b was found significantly
        better than a *among a's comparisons* (the decisions behind
        ``lower[a]``). All False for ``"bootstrap"`` (it makes no pairwise
        decisions) and when the omnibus test is not rejected.
    worse : DataFrame of bool
        m × m; ``worse.loc[a, b]`` is True when b was found significantly worse
        than a among a's comparisons (the decisions behind ``upper[a]``). For
        ``"id-nemenyi"`` and ``"anova-tukey"`` it is ``better.T``; the
        Wilcoxon methods adjust each algorithm's comparisons separately (Holm
        per row), so ``worse.loc[a, b]`` and ``better.loc[b, a]`` can differ.
    pvalues : DataFrame or None
        m × m adjusted p-values behind ``better`` (NaN diagonal); a decision
        is ``pvalue < alpha``. Nemenyi's studentized-range p-values and
        Tukey's HSD p-values (symmetric); for ``"id-wilcoxon-2s"`` row a holds
        a's two-sided p-values Holm-adjusted over a's m - 1 comparisons; for
        ``"id-wilcoxon-1s"`` row a holds the one-sided p-values of "b is better
        than a", Holm-adjusted over those m - 1. None for ``"bootstrap"`` and
        when the omnibus test is not rejected.
    pvalues_worse : DataFrame or None
        The adjusted p-values behind ``worse``: for ``"id-wilcoxon-1s"`` the
        one-sided p-values of "b is worse than a", Holm-adjusted over a's m - 1
        comparisons on that side; for the other methods the same frame as
        ``pvalues`` (one two-sided test decides both directions).
    mean_ranks : Series
        Friedman mean ranks (within-case ranks averaged over the cases,
        1 = best, average ties), for every method; they order ``to_frame()``.
    n_resamples : int or None
        Number of bootstrap resamples (None for the other methods).
    n_cases : int
        Number of cases used.
    incomplete : bool
        ``nan_policy="pairwise"``: cases with missing scores were kept, the
        omnibus test is Skillings and Mack's and each pairwise test used the
        cases where both algorithms have a score.
    cases : Index or None
        The labels of the cases (rows of the score table) the analysis used;
        with ``incomplete``, every case kept, each pairwise test using those
        where both algorithms have a score.
    """

    lower: pd.Series
    upper: pd.Series
    method: str
    alpha: float
    omnibus_pvalue: float
    omnibus_rejected: bool | None
    better: pd.DataFrame
    worse: pd.DataFrame
    pvalues: pd.DataFrame | None
    pvalues_worse: pd.DataFrame | None
    mean_ranks: pd.Series
    n_resamples: int | None
    n_cases: int
    incomplete: bool = False
    cases: pd.Index | None = None

    @property
    def n_algorithms(self) -> int:
        """m, the number of algorithms."""
        return len(self.lower)

    @property
    def level(self) -> float:
        """``1 - alpha``."""
        return 1.0 - self.alpha

    def intervals(self) -> dict[str, tuple[int, int]]:
        """``{algorithm: (lower, upper)}`` in the order of the score table."""
        return {
            str(name): (int(lo), int(hi))
            for name, lo, hi in zip(
                self.lower.index, self.lower, self.upper, strict=True
            )
        }

    def _method_text(self) -> str:
        text = _METHOD_TEXT[self.method]
        if self.incomplete:
            text = text.replace("Iman–Davenport", "Skillings–Mack") + ", pairwise cases"
        return text

    def methods_sentence(self, context: methods_text.MethodsContext) -> Paragraph:
        """This result's sentence in a report's Methods paragraph
        (:func:`nbstats.results.methods_text.rank_ci`)."""
        return methods_text.rank_ci(self, context)

    def _title(self) -> str:
        return (
            f"Confidence intervals for ranks ({self._method_text()}), "
            f"{self.level:.0%}: {self.n_algorithms} algorithms on "
            f"{self.n_cases} cases"
        )

    def _scalars(self) -> list[tuple[str, object]]:
        rows: list[tuple[str, object]] = [
            ("method", self.method),
            ("α", self.alpha),
        ]
        if self.method == "bootstrap":
            rows.append(("resamples", self.n_resamples))
        else:
            decision = (
                "rejected: pairwise tests decide the intervals"
                if self.omnibus_rejected
                else "not rejected: every interval is [1, m]"
            )
            rows += [
                (
                    "Skillings–Mack p-value"
                    if self.incomplete
                    else f"{_OMNIBUS_TEXT[self.method]} p-value",
                    self.omnibus_pvalue,
                ),
                ("omnibus test", decision),
            ]
        return rows

    def to_frame(self) -> pd.DataFrame:
        """One row per algorithm, by mean rank: mean_rank, lower, upper."""
        frame = pd.DataFrame(
            {
                "algorithm": self.lower.index,
                "mean_rank": self.mean_ranks.reindex(self.lower.index).to_numpy(),
                "lower": self.lower.to_numpy(),
                "upper": self.upper.to_numpy(),
            }
        )
        return frame.sort_values("mean_rank", kind="stable").reset_index(drop=True)

    def _table(self) -> pd.DataFrame:
        frame = self.to_frame().set_index("algorithm")
        frame.insert(
            1,
            "rank interval",
            [
                f"[{lo}, {hi}]"
                for lo, hi in zip(frame["lower"], frame["upper"], strict=True)
            ],
        )
        frame.columns = ["mean rank", "rank interval", "lower", "upper"]
        return frame

    def summary(self) -> str:
        """Plain-text report: the test figures, then ``name: [lower, upper]``."""
        head = render_text.text_block(self._title(), self._scalars(), None)
        frame = self.to_frame()
        width = max(len(str(name)) for name in frame["algorithm"])
        lines = [
            f"{name!s:<{width}} : [{lo}, {hi}]   mean rank "
            f"{render.format_number(float(mr), 'rank')}"
            for name, mr, lo, hi in frame.itertuples(index=False)
        ]
        return (
            head + "\n\nrank intervals (1 = best), by mean rank:\n" + "\n".join(lines)
        )

    def plot(self, ax: Any = None, **kwargs: Any) -> Any:
        """Forest plot of the intervals (:func:`nbstats.plots.rank_intervals`)."""
        import nbstats.plots as plots  # lazy: matplotlib only when drawing

        return plots.rank_intervals(self, ax=ax, **kwargs)

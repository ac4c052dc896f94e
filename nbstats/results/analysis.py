"""Results of the automatic analysis: the checks, the choices and why."""

from __future__ import annotations

import dataclasses
import html
from typing import Any

import pandas as pd

from nbstats.results import render, render_text
from nbstats.results.base import Result, TestResult

_frozen = dataclasses.dataclass(frozen=True, eq=False, repr=False)

__all__ = ["AnalysisResult", "SphericityResult"]


@_frozen
class SphericityResult(TestResult):
    """Mauchly's test of sphericity (see
    :func:`nbstats.stats.frequentist.assumptions.mauchly`).

    Attributes
    ----------
    statistic : float
        Mauchly's W (1 = spherical).
    pvalue : float
        NaN when the test cannot be made (fewer cases than algorithms).
    chi2 : float
        The χ² statistic ``-(N − 1) ρ ln W``.
    df : int
        ``p(p + 1)/2 − 1`` with ``p = k − 1``.
    epsilon : float
        Greenhouse–Geisser ε.
    testable : bool
    n_cases, n_algorithms : int
    """

    chi2: float
    df: int
    epsilon: float
    testable: bool
    n_cases: int
    n_algorithms: int

    def _title(self) -> str:
        return (
            f"Mauchly's test of sphericity: {self.n_algorithms} algorithms on "
            f"{self.n_cases} cases"
        )

    def _scalars(self) -> list[tuple[str, object]]:
        return [
            ("W", self.statistic),
            ("χ²", self.chi2),
            ("df", self.df),
            ("p-value", self.pvalue),
            ("ε (Greenhouse–Geisser)", self.epsilon),
        ]

    def _kinds(self) -> dict[object, str]:
        # W and ε lie in [0, 1]: three decimals show them, as statistics
        return {
            "W": "statistic",
            "χ²": "statistic",
            "ε (Greenhouse–Geisser)": "statistic",
        }

    def to_frame(self) -> pd.DataFrame:
        return self._row("W chi2 df pvalue epsilon testable", W=self.statistic)

    def _table(self) -> None:
        return None


@_frozen
class AnalysisResult(Result):
    """What :func:`nbstats.analyze` checked, chose and found.

    Attributes
    ----------
    n_cases, n_algorithms : int
    alpha : float
    parametric : bool
        Whether the parametric tests were chosen (t-test; rm-ANOVA + Tukey).
    assumptions : DataFrame
        One row per check: ``check``, ``test``, ``statistic``, ``pvalue`` and
        ``verdict``.
    omnibus : Result or None
        ``rm_anova`` or ``friedman`` (None for two algorithms).
    pairwise : Result or None
        Two algorithms: the paired t-test or Wilcoxon's; more: the post-hoc
        (Tukey's HSD or Nemenyi's), None when the omnibus test did not reject.
    effect_sizes : DataFrame
        One row per pair (a, b): ``kind``, ``value`` (positive when b is
        better), ``magnitude``.
    bayes : Result or None
        The Bayesian counterpart: ``bayes_signrank`` for two algorithms,
        ``bayes_signrank_pairs`` for more.
    ranking : Result or None
        With three or more algorithms and the Bayesian counterpart: the
        Bayesian Plackett–Luce ranking (``bayes_plackett_luce``), which
        algorithm is best and how sure that is.
    log : DataFrame
        The decision log: ``step``, ``choice`` and ``reason``, in order.
    text : str
        A paragraph for a paper that states the checks, the tests and the
        findings.
    coverage : CoverageResult or None
        With missing cells (``nan_policy="omit"``): :func:`nbstats.coverage`
        of the table before the incomplete cases were dropped -- the holes,
        what leaving algorithms out would keep, and the analyses that use
        incomplete tables as they are. Shown after the log.
    """

    n_cases: int
    n_algorithms: int
    alpha: float
    parametric: bool
    assumptions: pd.DataFrame
    omnibus: Any
    pairwise: Any
    effect_sizes: pd.DataFrame
    bayes: Any
    log: pd.DataFrame
    text: str
    ranking: Any = None
    coverage: Any = None

    def _title(self) -> str:
        return (
            f"Analysis of {self.n_algorithms} algorithms on {self.n_cases} cases"
            f" (α = {self.alpha:g})"
        )

    def _scalars(self) -> list[tuple[str, object]]:
        rows: list[tuple[str, object]] = [
            ("analysis", "parametric" if self.parametric else "rank-based"),
        ]
        if self.omnibus is not None:
            rows.append(("omnibus", self.omnibus._title()))
        if self.pairwise is not None:
            rows.append(("pairwise", self.pairwise._title()))
        if self.bayes is not None:
            rows.append(("Bayesian", self.bayes._title()))
        if self.ranking is not None:
            rows.append(("Bayesian ranking", self.ranking._title()))
        return rows

    def to_frame(self) -> pd.DataFrame:
        """The decision log (``step``, ``choice``, ``reason``)."""
        return self.log.copy()

    def _table(self) -> pd.DataFrame:
        return self.log.set_index("step")

    def summary(self) -> str:
        parts = [
            render_text.text_block(self._title(), self._scalars(), self._table()),
            self.text,
            render_text.text_block(
                "Assumptions", [], self.assumptions.set_index("check")
            ),
        ]
        if self.coverage is not None:
            parts.append(self.coverage.summary())
        parts += [r.summary() for r in self._components()]
        return "\n\n".join(parts)

    def _repr_html_(self) -> str:
        parts = [
            render.html_block(
                self._title(), self._scalars(), self._table(), names=self._names()
            ),
            f"<p>{html.escape(self.text)}</p>",
            render.html_block("Assumptions", [], self.assumptions.set_index("check")),
        ]
        if self.coverage is not None:
            parts.append(self.coverage._repr_html_())
        parts += [r._repr_html_() for r in self._components()]
        return "\n".join(parts)

    def _components(self) -> list[Result]:
        return [
            r
            for r in (self.omnibus, self.pairwise, self.bayes, self.ranking)
            if r is not None
        ]

"""Result objects of the correlated t-tests on one data set's folds."""

from __future__ import annotations

import dataclasses
from typing import Any

import pandas as pd

from nbstats.results import methods_text
from nbstats.results.base import Result, region_rows
from nbstats.results.decisions import describe
from nbstats.results.prose import Paragraph
from nbstats.results.two_sample import MeanDifferenceResult, hypothesis_text

_frozen = dataclasses.dataclass(frozen=True, eq=False, repr=False)


def _design_text(rho: float, folds: int | None, runs: int | None) -> str:
    if folds is None:
        return f"hold-out, test fraction ρ = {rho:g}"
    times = "" if runs in (None, 1) else f"{runs} × "
    return f"{times}{folds}-fold CV, ρ = 1/{folds}"


def _folds_text(n: pd.Series) -> str:
    """``"8–10 (paired folds used)"``: the span of a column of fold counts."""
    if not len(n):
        return "none"
    low, high = int(n.min()), int(n.max())
    return f"{low if low == high else f'{low}–{high}'} paired folds used"


@_frozen
class CorrelatedTTestResult(MeanDifferenceResult):
    """Corrected resampled t-test (Nadeau & Bengio 2003).

    Attributes
    ----------
    statistic : float
        ``t = mean(d) / standard_error`` with ``d = b − a`` (> 0 where b is
        better).
    pvalue : float
    df : int
        ``n_folds − 1``.
    mean_difference, standard_error : float
        Mean of d and its corrected standard error
        ``sqrt((1/n + ρ/(1 − ρ)) var(d))``.
    confidence_interval : tuple of float
        Of the mean difference (a one-sided interval has an infinite end).
    level : float
    alternative : str
    n_folds : int
        Fold scores per algorithm.
    rho : float
        n_test / n_total of one fold (1/k for k-fold cross-validation).
    folds, runs : int or None
        k and the repetitions, when known.
    name_a, name_b : hashable
    """

    df: int
    mean_difference: float
    standard_error: float
    confidence_interval: tuple[float, float]
    level: float
    alternative: str
    n_folds: int
    rho: float
    folds: int | None
    runs: int | None
    name_a: str
    name_b: str

    def _title(self) -> str:
        return (
            f"Corrected resampled t-test: {self.name_a} vs {self.name_b} "
            f"(H1: {hypothesis_text(self.name_a, self.name_b, self.alternative)})"
        )

    _frame_columns = (
        "a b statistic df pvalue mean_difference ci_low ci_high n_folds rho alternative"
    )

    def _scalars(self) -> list[tuple[str, object]]:
        design = _design_text(self.rho, self.folds, self.runs)
        return [*super()._scalars(), ("folds", design)]


@_frozen
class BayesCorrelatedTTestResult(Result):
    """Bayesian correlated t-test (Corani & Benavoli 2015).

    The posterior of the mean difference μ of ``d = b − a`` is Student's t
    with ``df`` degrees of freedom, location ``mean`` and scale ``scale``.

    Attributes
    ----------
    prob_left, prob_rope, prob_right : float
        ``P(μ < −rope)``, ``P(−rope ≤ μ ≤ rope)`` (None without a rope) and
        ``P(μ > rope)``: a better, practically equivalent, b better.
    mean, scale : float
        Location and scale of the posterior Student distribution.
    df : int
        ``n_folds − 1``.
    rope, threshold : float
    decision : str
        ``"b"``, ``"a"`` or ``"equivalent"`` when that region's probability
        exceeds ``threshold``, else ``"undecided"``.
    n_folds : int
        Fold scores per algorithm.
    rho : float
        n_test / n_total of one fold.
    folds, runs : int or None
    name_a, name_b : hashable

    Examples
    --------
    >>> import numpy as np, nbstats
    >>> res = nbstats.bayes_correlated_ttest(
    ...     [0.80, 0.82, 0.79, 0.81], [0.82, 0.83, 0.80, 0.84], folds=4)
    >>> low, high = res.credible_interval(0.9)
    >>> bool(low < res.mean < high)
    True
    """

    prob_left: float
    prob_rope: float | None
    prob_right: float
    mean: float
    scale: float
    df: int
    rope: float
    threshold: float
    decision: str
    n_folds: int
    rho: float
    folds: int | None
    runs: int | None
    name_a: str
    name_b: str

    def posterior(self) -> Any:
        """The posterior of μ as a frozen ``scipy.stats.t`` (None if degenerate:
        every difference equal, all mass at ``mean``)."""
        from scipy import stats

        if self.scale == 0:
            return None
        return stats.t(self.df, loc=self.mean, scale=self.scale)

    def credible_interval(self, level: float = 0.95) -> tuple[float, float]:
        """Equal-tailed credible interval of μ."""
        if not 0 < level < 1:
            raise ValueError(f"level must lie strictly between 0 and 1, got {level!r}.")
        posterior = self.posterior()
        if posterior is None:
            return (self.mean, self.mean)
        low, high = posterior.interval(level)
        return (float(low), float(high))

    def _title(self) -> str:
        return f"Bayesian correlated t-test: {self.name_a} vs {self.name_b}"

    def _scalars(self) -> list[tuple[str, object]]:
        rows = region_rows(self)
        rows += [
            (f"posterior mean of {self.name_b} − {self.name_a}", self.mean),
            ("95% credible interval", self.credible_interval(0.95)),
            ("folds", _design_text(self.rho, self.folds, self.runs)),
            (
                f"decision (threshold {self.threshold:g})",
                describe(self.decision, self.name_a, self.name_b, rope=self.rope > 0),
            ),
        ]
        return rows

    def _kinds(self) -> dict[object, str]:
        # a score difference, whatever the algorithms' names say
        return {f"posterior mean of {self.name_b} − {self.name_a}": "score"}

    def to_frame(self) -> pd.DataFrame:
        return self._row(
            "a b prob_left prob_rope prob_right mean scale df rope n_folds rho decision"
        )

    def _table(self) -> None:
        return None

    def plot(self, ax: Any = None, **kwargs: Any) -> Any:
        """The posterior density of μ with the rope; see
        :func:`nbstats.plots.correlated_posterior`. Returns the Axes."""
        import nbstats.plots as plots  # lazy: matplotlib only when drawing

        return plots.correlated_posterior(self, ax=ax, **kwargs)


@_frozen
class CorrelatedPairsResult(Result):
    """Correlated t-tests of pairs of algorithms on every data set's folds.

    Attributes
    ----------
    table : DataFrame
        One row per (a, b, case): ``n`` folds, ``mean_difference`` (b − a),
        the corrected resampled ``t`` and two-sided ``pvalue``, the Bayesian
        ``prob_left`` / ``prob_rope`` (NaN without a rope) / ``prob_right``
        and the ``decision`` (``"b"``, ``"a"``, ``"equivalent"``,
        ``"undecided"``).
    by_pair : DataFrame
        One row per pair: the number of cases and of each decision (and,
        with ``min_folds``, of the cases ``left out``).
    rope, threshold : float
    names : list
        The algorithms, in column order.
    min_folds : int or None
        With failed folds: the fewest folds on which both algorithms of a
        pair had to have a score on a case (None: every fold was required).
        ``table["n"]`` is then each (pair, data set)'s number of folds used.
    left_out : DataFrame
        The (a, b, case) left out for fewer than ``min_folds`` paired folds:
        ``folds`` (those paired folds) of ``of`` (the case's folds). Empty
        when none was.
    """

    table: pd.DataFrame
    by_pair: pd.DataFrame
    rope: float
    threshold: float
    names: list[str]
    min_folds: int | None = None
    left_out: pd.DataFrame = dataclasses.field(
        default_factory=lambda: pd.DataFrame(columns=["a", "b", "case", "folds", "of"])
    )

    def methods_sentence(self, context: methods_text.MethodsContext) -> Paragraph:
        """This result's sentence in a report's Methods paragraph
        (:func:`nbstats.results.methods_text.correlated_pairs`)."""
        return methods_text.correlated_pairs(self, context)

    def _title(self) -> str:
        cases = self.table["case"].nunique()
        pairs = len(self.by_pair)
        return (
            f"Correlated t-tests on each data set's folds: {pairs} pair"
            f"{'s' if pairs != 1 else ''} × {cases} data sets"
        )

    def _scalars(self) -> list[tuple[str, object]]:
        rope = f"±{self.rope:g}" if self.rope > 0 else "none"
        rows: list[tuple[str, object]] = [
            ("rope", rope),
            ("decided when a region's probability exceeds", self.threshold),
        ]
        if self.min_folds is not None:
            rows += [
                ("folds per (pair, data set)", _folds_text(self.table["n"])),
                ("paired folds required (min_folds)", self.min_folds),
                ("(pair, data set) left out", len(self.left_out)),
            ]
        return rows

    def to_frame(self) -> pd.DataFrame:
        return self.table.copy()

    def _table(self) -> pd.DataFrame:
        """One row per pair, named "a vs b": the counts of decisions."""
        frame = self.by_pair
        if {"a", "b"} <= set(frame.columns):
            frame = frame.set_index(
                pd.Index(
                    [
                        f"{a} vs {b}"
                        for a, b in zip(frame["a"], frame["b"], strict=True)
                    ],
                    name="comparison",
                )
            ).drop(columns=["a", "b"])
        return frame

    def _kinds(self) -> dict[object, str]:
        kinds = {c: "count" for c in self.by_pair.columns if c not in ("a", "b")}
        kinds["paired folds required (min_folds)"] = "count"
        kinds["(pair, data set) left out"] = "count"
        return kinds

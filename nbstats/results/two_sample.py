"""Result objects of the frequentist tests of two algorithms: the sign test,
Wilcoxon's signed-ranks test and the paired t-test (Demšar 2006, §3.1).

Their titles and key figures name the algorithms (``H1: C4.5 and C4.5+m
differ``, ``mean difference (C4.5+m − C4.5)``), never a bare "a" or "b".
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pandas as pd

from nbstats.results import methods_text
from nbstats.results.base import TestResult
from nbstats.results.prose import Paragraph
from nbstats.results.render import Label

__all__ = [
    "MeanDifferenceResult",
    "SignTestResult",
    "TTestResult",
    "WilcoxonResult",
    "difference_label",
    "hypothesis_text",
]

_frozen = dataclasses.dataclass(frozen=True, eq=False, repr=False)


#: Wilcoxon's rank sums, with true super- and subscripts in HTML and LaTeX.
_R_PLUS = Label("R+", html="R<sup>+</sup>", latex=r"$R^{+}$")


_T_MIN = Label(
    "T = min(R+, R−)",
    html="T = min(R<sup>+</sup>, R<sup>−</sup>)",
    latex=r"$T = \min(R^{+}, R^{-})$",
)


_R_SUMS = Label(
    "R+ / R−", html="R<sup>+</sup> / R<sup>−</sup>", latex=r"$R^{+}$ / $R^{-}$"
)


def hypothesis_text(name_a: str, name_b: str, alternative: str) -> str:
    """The alternative hypothesis in words, naming the algorithms.

    Examples
    --------
    >>> hypothesis_text("C4.5", "C4.5+m", "two-sided")
    'C4.5 and C4.5+m differ'
    """
    return {
        "two-sided": f"{name_a} and {name_b} differ",
        "greater": f"{name_b} is better than {name_a}",
        "less": f"{name_a} is better than {name_b}",
    }[alternative]


def difference_label(name_a: str, name_b: str) -> str:
    """The label of a mean difference, naming the algorithms (b − a)."""
    return f"mean difference ({name_b} − {name_a})"


def _pair_title(test: str, name_a: str, name_b: str, alternative: str) -> str:
    hypothesis = hypothesis_text(name_a, name_b, alternative)
    return f"{test}: {name_a} vs {name_b} (H1: {hypothesis})"


@_frozen
class SignTestResult(TestResult):
    """Sign test (Demšar 2006, §3.1.4).

    Attributes
    ----------
    statistic : float
        Wins of b, counting half of the ties (see ``ties``).
    pvalue : float
        Exact binomial p-value.
    wins, losses, n_ties : int
        Cases where b is better, worse, equal.
    n_cases : int
        Number of cases counted as binomial trials.
    alternative, ties : str
        As passed (``ties``: the tie policy, "split" or "drop").
    name_a, name_b : hashable
        Names of the two algorithms, as given (a tuple such as ``("RF", 100)``
        stays the tuple; text, HTML and LaTeX show ``str(name)``).
    cases : Index or None
        The labels of the ``n_cases`` cases counted as trials (see
        :func:`nbstats.sign_test`), or None when built from bare differences.
    """

    wins: int
    losses: int
    n_ties: int
    n_cases: int
    alternative: str
    ties: str
    name_a: str
    name_b: str
    cases: pd.Index | None = None

    def methods_clause(
        self, context: methods_text.MethodsContext, *, also: bool = False
    ) -> Paragraph:
        """This test as a clause of a Methods sentence (``also``: after the
        Wilcoxon test's; :func:`nbstats.results.methods_text.sign`)."""
        return methods_text.sign(self, context, also=also)

    def methods_sentence(self, context: methods_text.MethodsContext) -> Paragraph:
        """This result's sentence in a report's Methods paragraph."""
        return methods_text.sentence(self.methods_clause(context))

    def _title(self) -> str:
        return _pair_title("Sign test", self.name_a, self.name_b, self.alternative)

    def _scalars(self) -> list[tuple[str, object]]:
        return [
            (f"wins of {self.name_b}", self.statistic),
            ("p-value", self.pvalue),
            ("wins / losses / ties", f"{self.wins} / {self.losses} / {self.n_ties}"),
            ("trials", self.n_cases),
            ("ties", self.ties),
        ]

    def to_frame(self) -> pd.DataFrame:
        return self._row("a b wins losses n_ties statistic n_cases pvalue alternative")

    def _table(self) -> None:
        return None


@_frozen
class WilcoxonResult(TestResult):
    """Wilcoxon signed-ranks test (Demšar 2006, §3.1.3).

    Attributes
    ----------
    statistic : float
        ``T = min(R+, R-)`` for the two-sided test, ``R+`` for one-sided ones.
    pvalue : float
    r_plus, r_minus : float
        Rank sums of the cases where b is better (R+) and worse (R-).
    n_cases : int
        Number of differences ranked (zeros included unless
        ``zero_method="wilcox"``).
    n_zero : int
        Number of zero differences.
    zstatistic : float
        Standardised R+ (NaN for the exact test).
    effect_size : float
        Matched-pairs rank-biserial correlation ``(R+ - R-) / (R+ + R-)``,
        positive when b is better.
    method, zero_method, alternative : str
    name_a, name_b : hashable
    cases : Index or None
        The labels of the ``n_cases`` cases whose differences were ranked (zeros
        included unless ``zero_method="wilcox"``), or None when built from
        bare differences.
    """

    r_plus: float
    r_minus: float
    n_cases: int
    n_zero: int
    zstatistic: float
    effect_size: float
    method: str
    zero_method: str
    alternative: str
    name_a: str
    name_b: str
    cases: pd.Index | None = None

    def methods_clause(self, context: methods_text.MethodsContext) -> Paragraph:
        """This test as a clause of a Methods sentence
        (:func:`nbstats.results.methods_text.wilcoxon`)."""
        return methods_text.wilcoxon(self, context)

    def methods_sentence(self, context: methods_text.MethodsContext) -> Paragraph:
        """This result's sentence in a report's Methods paragraph."""
        return methods_text.sentence(self.methods_clause(context))

    def _title(self) -> str:
        return _pair_title(
            "Wilcoxon signed-ranks test", self.name_a, self.name_b, self.alternative
        )

    def _scalars(self) -> list[tuple[str, object]]:
        label = _T_MIN if self.alternative == "two-sided" else _R_PLUS
        rows: list[tuple[str, object]] = [
            (label, self.statistic),
            ("p-value", self.pvalue),
            (_R_SUMS, f"{self.r_plus:g} / {self.r_minus:g}"),
            ("n (zeros)", f"{self.n_cases} ({self.n_zero})"),
            ("p-value by", methods_text.P_METHODS.get(self.method, self.method)),
            (
                "zero differences",
                methods_text.ZERO_METHODS_SHORT.get(self.zero_method, self.zero_method),
            ),
            ("rank-biserial r", self.effect_size),
        ]
        if self.method == "approx":
            rows.insert(2, ("z", self.zstatistic))
        return rows

    def to_frame(self) -> pd.DataFrame:
        return self._row(
            "a b r_plus r_minus statistic zstatistic pvalue n_cases n_zero effect_size "
            "method zero_method alternative"
        )

    def _table(self) -> None:
        return None


@_frozen
class MeanDifferenceResult(TestResult):
    """A t-test of the mean difference b − a of two algorithms: the key
    figures and the one-row frame that the paired t-test and the corrected
    resampled t-test share (their attributes: ``df``, ``mean_difference``,
    ``confidence_interval``, ``level``, ``alternative``,
    ``name_a``, ``name_b``)."""

    #: The columns of ``to_frame()``, in order.
    _frame_columns = (
        "a b statistic df pvalue mean_difference ci_low ci_high alternative"
    )

    def _scalars(self) -> list[tuple[str, object]]:
        r: Any = self
        return [
            ("t", r.statistic),
            ("df", r.df),
            ("p-value", r.pvalue),
            (difference_label(r.name_a, r.name_b), r.mean_difference),
            (f"{r.level:.0%} CI", r.confidence_interval),
        ]

    def _kinds(self) -> dict[object, str]:
        # a score difference, whatever the names say ("rank", "effect", …)
        r: Any = self
        return {difference_label(r.name_a, r.name_b): "score"}

    def to_frame(self) -> pd.DataFrame:
        r: Any = self
        low, high = r.confidence_interval
        return self._row(self._frame_columns, ci_low=low, ci_high=high)

    def _table(self) -> None:
        return None


@_frozen
class TTestResult(MeanDifferenceResult):
    """Paired t-test (Demšar 2006, §3.1.2).

    Attributes
    ----------
    statistic : float
        ``t = mean(d) / (sd(d) / sqrt(n))`` with ``d`` > 0 where b is better.
    pvalue : float
    df : int
        ``n - 1``.
    mean_difference : float
        Mean of ``d``.
    confidence_interval : tuple of float
        Confidence interval of the mean difference (one-sided intervals have an
        infinite end).
    level : float
        The interval's level, as passed.
    alternative : str
    name_a, name_b : hashable
    cases : Index or None
        The labels of the ``df + 1`` cases whose differences were averaged
        (every case with both scores), or None when built from bare
        differences.
    """

    df: int
    mean_difference: float
    confidence_interval: tuple[float, float]
    level: float
    alternative: str
    name_a: str
    name_b: str
    cases: pd.Index | None = None

    def _title(self) -> str:
        return _pair_title("Paired t-test", self.name_a, self.name_b, self.alternative)

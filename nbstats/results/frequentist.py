"""Result objects of the frequentist tests (Demšar 2006).

The omnibus tests and the post-hoc procedures are here; the tests of two
algorithms are in :mod:`nbstats.results.two_sample` (importable from here
too).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pandas as pd

from nbstats.results import methods_text
from nbstats.results.base import Result, TestResult
from nbstats.results.effect_size import magnitude
from nbstats.results.procedure_names import (
    adjustment_clause,
    posthoc_name,
    ranking_name,
)
from nbstats.results.prose import Paragraph
from nbstats.results.render import Label
from nbstats.results.two_sample import (  # noqa: F401  (importable from here too)
    MeanDifferenceResult,
    SignTestResult,
    TTestResult,
    WilcoxonResult,
    difference_label,
    hypothesis_text,
)
from nbstats.scores.names import name_index

_frozen = dataclasses.dataclass(frozen=True, eq=False, repr=False)

#: Friedman's statistics, with their subscripts in HTML and LaTeX.
CHI2_F = Label("χ²_F", html="χ²<sub>F</sub>", latex=r"$\chi^{2}_{F}$")
F_F = Label(
    "Iman–Davenport F_F",
    html="Iman–Davenport F<sub>F</sub>",
    latex=r"Iman--Davenport $F_{F}$",
)


@_frozen
class FriedmanResult(TestResult):
    """Friedman test with the Iman–Davenport correction (Demšar 2006, §3.2.2).

    Attributes
    ----------
    statistic : float
        Friedman's χ²_F (tie-corrected if ``tie_correction``).
    pvalue : float
        From χ² with ``df`` degrees of freedom.
    df : int
        ``k - 1``.
    f_statistic : float
        Iman–Davenport ``F_F = (N - 1) χ²_F / (N (k - 1) - χ²_F)``.
    f_pvalue : float
        From F with ``f_df`` degrees of freedom.
    f_df : tuple of int
        ``(k - 1, (k - 1)(N - 1))``.
    mean_ranks : Series
        Average rank of each algorithm, 1 = best.
    n_cases, n_algorithms : int
    tie_correction : bool
    cases : Index or None
        The labels of the cases (rows of the score table) the analysis used.
    """

    df: int
    f_statistic: float
    f_pvalue: float
    f_df: tuple[int, int]
    mean_ranks: pd.Series
    n_cases: int
    n_algorithms: int
    tie_correction: bool
    cases: pd.Index | None = None

    def methods_sentence(self, context: methods_text.MethodsContext) -> Paragraph:
        """This result's sentence in a report's Methods paragraph
        (:func:`nbstats.results.methods_text.friedman`)."""
        return methods_text.friedman(self, context)

    def _title(self) -> str:
        return f"Friedman test: {self.n_algorithms} algorithms on {self.n_cases} cases"

    def _scalars(self) -> list[tuple[str, object]]:
        return [
            (CHI2_F, self.statistic),
            ("df", self.df),
            ("p-value", self.pvalue),
            (F_F, self.f_statistic),
            ("F df", self.f_df),
            ("F p-value", self.f_pvalue),
            ("tie correction", self.tie_correction),
        ]

    def to_frame(self) -> pd.DataFrame:
        """One row: the test's figures (``mean_ranks`` holds the ranks)."""
        return self._row(
            "statistic pvalue df f_statistic f_pvalue f_df1 f_df2 n_cases "
            "n_algorithms tie_correction",
            f_df1=self.f_df[0],
            f_df2=self.f_df[1],
        )

    def _table(self) -> pd.DataFrame:
        """The mean ranks by rank, best first (ties in column order)."""
        return self.mean_ranks.sort_values(kind="stable").rename("mean rank").to_frame()


@_frozen
class AnovaResult(TestResult):
    """Repeated-measures ANOVA (Demšar 2006, §3.2.1).

    Attributes
    ----------
    statistic : float
        F of the algorithm effect.
    pvalue : float
        Uncorrected p-value (assumes sphericity).
    df : tuple of int
        ``(k - 1, (k - 1)(N - 1))``.
    epsilon : float
        Greenhouse–Geisser sphericity estimate (1 = spherical, 1/(k-1) worst).
    pvalue_gg : float
        p-value with both degrees of freedom multiplied by ``epsilon``.
    table : DataFrame
        ANOVA table: sum of squares, df, mean square, F, p for algorithms,
        cases and error.
    rank_transform : bool
        Whether all scores were replaced by their global ranks first.
    n_cases, n_algorithms : int
    """

    df: tuple[int, int]
    epsilon: float
    pvalue_gg: float
    table: pd.DataFrame
    rank_transform: bool
    n_cases: int
    n_algorithms: int

    def _title(self) -> str:
        kind = " on rank-transformed scores" if self.rank_transform else ""
        return (
            f"Repeated-measures ANOVA{kind}: {self.n_algorithms} algorithms on "
            f"{self.n_cases} cases"
        )

    def _scalars(self) -> list[tuple[str, object]]:
        return [
            ("F", self.statistic),
            ("df", self.df),
            ("p-value", self.pvalue),
            ("Greenhouse–Geisser ε", self.epsilon),
            ("p-value (GG)", self.pvalue_gg),
        ]

    def to_frame(self) -> pd.DataFrame:
        return self.table

    def _kinds(self) -> dict[object, str]:
        # sums of squares are in squared score units: the data's precision
        return {
            "sum_sq": "number",
            "mean_sq": "number",
            "df": "count",
            "F": "statistic",
            "pvalue": "pvalue",
        }


@_frozen
class PosthocResult(Result):
    """Post-hoc comparisons after an omnibus test (Demšar 2006, §3.2.2).

    Attributes
    ----------
    method : str
        The procedure applied: ``"nemenyi"``, ``"bonferroni-dunn"``,
        ``"holm"``, ``"hochberg"``, ``"hommel"``, ``"finner"``, ``"li"``,
        ``"rom"``, ``"shaffer"``, ``"bergmann-hommel"`` (z-tests on mean
        ranks, :func:`nbstats.posthoc`) or ``"conover"`` (t-tests on rank
        sums, :func:`nbstats.conover`). Against a control, the procedure the
        one asked for is there (``note`` says why).
    adjust : str
        The multiplicity adjustment applied to ``pvalues`` (the procedure
        itself for the z-tests).
    alpha : float
    control : str or None
        The control algorithm, if comparisons are against one.
    mean_ranks : Series
        Average ranks (1 = best), the order used by ``groups``.
    statistics : DataFrame or Series
        Entry (row a, column b) is the statistic of the test "b vs a":
        ``z = (R_a - R_b) / SE`` for the z-tests, Conover's t of the rank
        sums for ``"conover"`` (positive when b ranks better). Series
        (index = the other algorithms, the control as a) against a control.
    pvalues, adjusted : DataFrame or Series
        Unadjusted and adjusted p-values (symmetric matrices; NaN diagonal).
    reject : DataFrame or Series
        ``adjusted <= alpha``.
    critical_difference : float or None
        Critical difference of mean ranks, for ``nemenyi`` and
        ``bonferroni-dunn`` on Friedman's ranks.
    groups : list of tuple of str
        The maximal sets of algorithms with no significant difference inside,
        ordered by mean rank. Against a control there is one group: the control
        and every algorithm not significantly different from it.
    n_cases : int
        Cases in the table.
    ranks : str
        The ranks compared: ``"friedman"``, ``"aligned"``, ``"quade"``, or
        ``"durbin"`` (a balanced incomplete design's within-case ranks,
        Conover's t-tests).
    effect_sizes : DataFrame or Series or None
        The matched-pairs rank-biserial correlation of each pair (shaped
        like ``pvalues``; entry (a, b) > 0 when b is better, −1 to 1), on the
        cases the pair used: how large a difference is, beside whether it
        is significant.
    cases : Index or None
        The labels of the cases (rows of the score table) the analysis used.
    note : str or None
        Why ``method`` (or ``adjust``) is not the procedure asked for, when
        it is not: against a control Nemenyi's test is Bonferroni–Dunn's,
        Shaffer's and Bergmann and Hommel's procedures Holm's.
    """

    method: str
    adjust: str
    alpha: float
    control: str | None
    mean_ranks: pd.Series
    statistics: pd.DataFrame | pd.Series
    pvalues: pd.DataFrame | pd.Series
    adjusted: pd.DataFrame | pd.Series
    reject: pd.DataFrame | pd.Series
    critical_difference: float | None
    groups: list[tuple[str, ...]]
    n_cases: int
    ranks: str = "friedman"
    effect_sizes: pd.DataFrame | pd.Series | None = None
    cases: pd.Index | None = None
    note: str | None = None

    def methods_clause(
        self, context: methods_text.MethodsContext, *, also: bool = False
    ) -> Paragraph:
        """This procedure as a clause of a Methods sentence (``also``: after
        another procedure's clause;
        :func:`nbstats.results.methods_text.posthoc_clause`)."""
        return methods_text.posthoc_clause(self, context, also=also)

    def methods_sentence(self, context: methods_text.MethodsContext) -> Paragraph:
        """This result's sentence in a report's Methods paragraph."""
        return methods_text.sentence(self.methods_clause(context))

    def _title(self) -> str:
        against = f" against {self.control}" if self.control is not None else ""
        how = posthoc_name(self.method) + adjustment_clause(self.method, self.adjust)
        if self.ranks == "durbin":
            how += " after Durbin's test, incomplete design"
        elif self.ranks != "friedman":
            how += f" on {ranking_name(self.ranks)}"
        return f"Post-hoc comparisons ({how}){against}, α = {self.alpha:g}"

    def _scalars(self) -> list[tuple[str, object]]:
        rows: list[tuple[str, object]] = []
        if self.critical_difference is not None:
            rows.append(("critical difference", self.critical_difference))
        rows.append(("significant pairs", int(self.to_frame()["reject"].sum())))
        rows.append(
            (
                "groups",
                "; ".join("{" + ", ".join(map(str, g)) + "}" for g in self.groups),
            )
        )
        if self.note is not None:
            rows.append(("note", self.note))
        return rows

    def to_frame(self) -> pd.DataFrame:
        """One row per comparison: a, b, mean ranks, statistic, p-values,
        reject, effect size and its magnitude."""
        if isinstance(self.pvalues, pd.Series):
            b = list(self.pvalues.index)
            a = [self.control] * len(b)

            def pick(obj: pd.DataFrame | pd.Series) -> np.ndarray:
                return obj.loc[b].to_numpy()

        else:
            names = list(self.pvalues.columns)
            rows, cols = np.triu_indices(len(names), k=1)  # row-major: a, then b
            a = [names[i] for i in rows]
            b = [names[j] for j in cols]

            def pick(obj: pd.DataFrame | pd.Series) -> np.ndarray:
                return obj.loc[names, names].to_numpy()[rows, cols]

        ranks = self.mean_ranks
        frame = pd.DataFrame(
            {
                "a": a,
                "b": b,
                "mean_rank_a": ranks.loc[a].to_numpy(dtype=float),
                "mean_rank_b": ranks.loc[b].to_numpy(dtype=float),
                "statistic": pick(self.statistics).astype(float),
                "pvalue": pick(self.pvalues).astype(float),
                "adjusted": pick(self.adjusted).astype(float),
                "reject": pick(self.reject).astype(bool),
            }
        )
        if self.effect_sizes is not None:
            effect = pick(self.effect_sizes).astype(float)
            frame["effect"] = effect
            frame["magnitude"] = [magnitude("rank-biserial", v) for v in effect]
        return frame

    def _table(self) -> pd.DataFrame:
        frame = self.to_frame()
        frame.index = pd.Index(
            [f"{a} vs {b}" for a, b in zip(frame["a"], frame["b"], strict=True)],
            name="comparison",
        )
        # the mean ranks are the omnibus test's table (and in to_frame), the
        # magnitude word in to_frame: a comparison's row fits a page beside
        # two long names
        return frame.drop(
            columns=["a", "b", "magnitude", "mean_rank_a", "mean_rank_b"],
            errors="ignore",
        ).rename(
            columns={
                "pvalue": "p",
                "adjusted": "adjusted p",
                "reject": "significant",
                "effect": "r",
            }
        )

    def _kinds(self) -> dict[object, str]:
        return {
            "mean rank a": "rank",
            "mean rank b": "rank",
            "statistic": "statistic",
            "p": "pvalue",
            "adjusted p": "pvalue",
            "r": "effect",
            "n": "count",
            "critical difference": "rank",
        }

    def significant_pairs(self) -> list[tuple[str, str]]:
        """The pairs found significantly different, as (better, worse) by rank."""
        frame = self.to_frame()
        pairs = []
        for a, b, ra, rb in frame.loc[
            frame["reject"], ["a", "b", "mean_rank_a", "mean_rank_b"]
        ].itertuples(index=False):
            pairs.append((a, b) if ra <= rb else (b, a))
        return pairs

    def plot(self, ax: Any = None, *, kind: str = "cd", **kwargs: Any) -> Any:
        """Critical-difference diagram (``kind="cd"``) or p-value heatmap
        (``kind="heatmap"``); see :func:`nbstats.plots.cd_diagram` and
        :func:`nbstats.plots.pairwise_heatmap`. Returns the Axes."""
        import nbstats.plots as plots  # lazy: matplotlib only when drawing

        if kind == "cd":
            return plots.cd_diagram(self, ax=ax, **kwargs)
        if kind == "heatmap":
            return plots.pairwise_heatmap(self, ax=ax, **kwargs)
        raise ValueError(f"unknown kind={kind!r}; choose 'cd' or 'heatmap'.")


def frame_of_pairs(names: list[str], values: np.ndarray) -> pd.DataFrame:
    """An m × m DataFrame indexed and labelled by algorithm names."""
    index = name_index(names, name="algorithm")
    # pandas 3 copies an array by default: m × m pairs at thousands of algorithms
    return pd.DataFrame(values, index=index, columns=index.copy(), copy=False)

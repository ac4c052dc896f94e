"""Result object of the Bayesian Plackett–Luce ranking."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pandas as pd

from nbstats.results import methods_text
from nbstats.results.base import Result
from nbstats.results.prose import Paragraph

__all__ = ["PlackettLuceResult"]


@dataclasses.dataclass(frozen=True, eq=False, repr=False)
class PlackettLuceResult(Result):
    """Bayesian Plackett–Luce model of the rankings (attribute-only).

    Attributes
    ----------
    ranking : DataFrame
        One row per algorithm, in the input's column order: ``prob_best`` (the
        posterior probability that its worth is the largest) and
        ``prob_best_mc_error`` (its Monte Carlo standard error),
        ``expected_rank`` (posterior mean of its rank among the worths, 1 =
        best) with ``expected_rank_mc_error``, ``median_rank`` and
        ``rank_lower``/``rank_upper`` (the posterior median and equal-tailed
        credible interval of the rank at ``level``), ``worth`` (the
        posterior mean of the normalised worth: the probability of ranking
        first on a new case) with ``worth_lower``/``worth_upper``. Worths
        exactly equal in a draw are ordered at random for that draw.
    prob_above : DataFrame
        ``prob_above.loc[i, j]``: the posterior probability that ``i``'s worth
        exceeds ``j``'s (``i`` ranks above ``j``). ``prob_above + prob_above.T``
        is 1 off the diagonal.
    diagnostics : DataFrame
        Split R̂ and effective sample size of each log worth. R̂ above 1.01
        or an ESS below 400 means the draws are too few to trust the second
        decimal.
    worths : ndarray, shape (n_samples, m)
        The posterior draws of the normalised worths (chains one after the
        other), columns in the input's order. Read-only.
    n_chains : int
    s : float
        Prior strength: the concentration of the Dirichlet prior of the worths.
    level : float
        Level of the credible intervals.
    n_cases : int
        Cases that ranked at least two algorithms.
    n_left_out : int
        Cases with fewer than two scores, which carry no ranking.
    n_partial : int
        Cases that rank only some of the algorithms (``nan_policy="partial"``).
    higher_is_better : bool
    cases : Index or None
        The labels of the cases (rows of the score table) the analysis used,
        those that rank at least two algorithms (``n_cases`` of them).
    """

    ranking: pd.DataFrame
    prob_above: pd.DataFrame
    diagnostics: pd.DataFrame
    worths: np.ndarray
    n_chains: int
    s: float
    level: float
    n_cases: int
    n_left_out: int
    n_partial: int
    higher_is_better: bool
    cases: pd.Index | None = None

    def __post_init__(self) -> None:
        self.worths.setflags(write=False)

    @property
    def prob_best(self) -> pd.Series:
        """Posterior probability that each algorithm's worth is the largest."""
        return self.ranking["prob_best"].rename("P(best)")

    @property
    def expected_rank(self) -> pd.Series:
        """Posterior mean rank of each algorithm's worth (1 = best)."""
        return self.ranking["expected_rank"].rename("expected rank")

    @property
    def rank_interval(self) -> pd.DataFrame:
        """Credible interval of each algorithm's rank, at ``level``."""
        return self.ranking[["rank_lower", "rank_upper"]]

    @property
    def n_samples(self) -> int:
        """Posterior draws kept, over all chains."""
        return int(self.worths.shape[0])

    @property
    def mc_error(self) -> float:
        """The largest Monte Carlo standard error of a P(best)."""
        return float(self.ranking["prob_best_mc_error"].max())

    @property
    def max_rhat(self) -> float:
        """The largest split R̂ (1 = the chains agree)."""
        return float(self.diagnostics["rhat"].max())

    @property
    def min_ess(self) -> float:
        """The smallest effective sample size of a log worth."""
        return float(self.diagnostics["ess"].min())

    def methods_sentence(self, context: methods_text.MethodsContext) -> Paragraph:
        """This result's sentence in a report's Methods paragraph
        (:func:`nbstats.results.methods_text.plackett_luce`)."""
        return methods_text.plackett_luce(self, context)

    def _title(self) -> str:
        m = self.ranking.shape[0]
        return f"Bayesian Plackett–Luce ranking: {m} algorithms on {self.n_cases} cases"

    def _scalars(self) -> list[tuple[str, object]]:
        best = self.ranking["prob_best"]
        rows: list[tuple[str, object]] = [
            ("most probably best", best.idxmax()),
            ("its P(best)", float(best.max())),
            ("Dirichlet prior strength s", self.s),
            ("draws", self.n_samples),
            ("chains", self.n_chains),
            ("MC error of P(best), at most", self.mc_error),
            ("largest R̂", self.max_rhat),
            ("smallest ESS", self.min_ess),
        ]
        if self.n_partial:
            rows.append(("cases ranking only some algorithms", self.n_partial))
        if self.n_left_out:
            rows.append(("cases left out (fewer than two scores)", self.n_left_out))
        return rows

    def to_frame(self) -> pd.DataFrame:
        """One row per algorithm, best first by expected rank."""
        frame = self.ranking.sort_values(
            ["expected_rank", "prob_best"], ascending=[True, False]
        )
        return frame.reset_index().rename(
            columns={frame.index.name or "index": "algorithm"}
        )

    def _table(self) -> pd.DataFrame:
        frame = self.ranking.sort_values(
            ["expected_rank", "prob_best"], ascending=[True, False]
        )
        percent = f"{self.level * 100:g} %"
        table = pd.DataFrame(
            {
                "P(best)": frame["prob_best"],
                "expected rank": frame["expected_rank"],
                f"rank {percent} interval": [
                    f"[{lo}, {hi}]"
                    for lo, hi in zip(
                        frame["rank_lower"], frame["rank_upper"], strict=True
                    )
                ],
                "worth": frame["worth"],
            },
            index=frame.index,
        )
        return table

    def _kinds(self) -> dict[object, str]:
        # a worth is the probability of being ranked first (worths sum to 1)
        return {
            "P(best)": "probability",
            "expected rank": "rank",
            "worth": "probability",
        }

    def plot(self, ax: Any = None, **kwargs: Any) -> Any:
        """P(best) bars beside the expected ranks and their credible intervals
        (:func:`nbstats.plots.plackett_luce`)."""
        import nbstats.plots as plots  # lazy: matplotlib only when drawing

        return plots.plackett_luce(self, ax=ax, **kwargs)

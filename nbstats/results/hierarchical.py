"""Result of the Bayesian hierarchical test on many data sets' folds."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pandas as pd

from nbstats.results.base import Result, region_rows
from nbstats.results.decisions import describe
from nbstats.results.folds import _design_text

_frozen = dataclasses.dataclass(frozen=True, eq=False, repr=False)


@_frozen
class BayesHierarchicalResult(Result):
    """Bayesian hierarchical test (Corani et al. 2017) of b − a over data sets.

    Attributes
    ----------
    prob_left, prob_rope, prob_right : float
        For the next data set: the share of posterior draws in which
        δ_new < −rope (a better), the rope, or δ_new > rope (b better) is the
        most probable region, δ_new ~ Student-t(ν, δ0, σ0) — baycomp's
        summary. ``prob_rope`` is None without a rope.
    mean_prob_left, mean_prob_rope, mean_prob_right : float
        The mean over draws of those three probabilities: the posterior
        predictive probabilities of δ_new's region.
    delta0, std0, nu : float
        Posterior means of the location and scale (score units) and degrees
        of freedom of the distribution of the δ_i.
    datasets : DataFrame
        One row per data set: ``case``, the ``observed`` mean difference, the
        posterior ``mean`` and ``low``/``high`` credible bounds of the shrunk
        δ_i (score units), and its ``rhat`` and ``ess``; with ``min_folds``
        also ``folds``, the folds on which both algorithms have a score
        (those the data set's likelihood uses).
    region_samples : ndarray
        Draws × 3: each draw's (left, rope, right) probabilities.
    rope, threshold : float
    decision : str
        ``"b"``, ``"a"``, ``"equivalent"`` or ``"undecided"``.
    level : float
        Level of the intervals in ``datasets``.
    rhat, ess : float
        Largest split R̂ and smallest bulk effective sample size over the
        sampled parameters; ``divergences``: divergent transitions.
    leapfrog_steps : float
        Mean leapfrog steps (gradient evaluations) per NUTS transition, warm-up
        included: the sampler's cost per draw (NaN when not recorded).
    n_samples, chains, warmup : int
    n_folds : int
        Folds per data set (with ``min_folds``: the design's, before failed
        folds; ``datasets["folds"]`` counts each data set's folds used).
    rho : float
    folds, runs : int or None
    name_a, name_b : hashable
    min_folds : int or None
        With failed folds: the fewest paired folds a data set needed (None:
        every fold was required).
    left_out : DataFrame
        The data sets left out for fewer than ``min_folds`` paired folds:
        ``case``, ``folds`` (paired) and ``of`` (the design's). Empty when none.
    """

    prob_left: float
    prob_rope: float | None
    prob_right: float
    mean_prob_left: float
    mean_prob_rope: float | None
    mean_prob_right: float
    delta0: float
    std0: float
    nu: float
    datasets: pd.DataFrame
    region_samples: np.ndarray
    rope: float
    threshold: float
    decision: str
    level: float
    rhat: float
    ess: float
    divergences: int
    n_samples: int
    chains: int
    warmup: int
    n_folds: int
    rho: float
    folds: int | None
    runs: int | None
    name_a: str
    name_b: str
    leapfrog_steps: float = float("nan")
    min_folds: int | None = None
    left_out: pd.DataFrame = dataclasses.field(
        default_factory=lambda: pd.DataFrame(columns=["case", "folds", "of"])
    )

    def _title(self) -> str:
        return (
            f"Bayesian hierarchical test: {self.name_a} vs {self.name_b} "
            f"on {len(self.datasets)} data sets"
        )

    def _scalars(self) -> list[tuple[str, object]]:
        rows = region_rows(self)
        rows += [
            (f"δ0 (posterior mean of {self.name_b} − {self.name_a})", self.delta0),
            ("σ0 (spread among data sets)", self.std0),
            ("ν", self.nu),
            ("folds", _design_text(self.rho, self.folds, self.runs)),
            *self._failed_rows(),
            ("max R̂", self.rhat),
            ("min effective sample size", self.ess),
            ("divergent transitions", self.divergences),
            ("leapfrog steps per transition", self.leapfrog_steps),
            (
                f"decision (threshold {self.threshold:g})",
                describe(self.decision, self.name_a, self.name_b, rope=self.rope > 0),
            ),
        ]
        return rows

    def _failed_rows(self) -> list[tuple[str, object]]:
        """With ``min_folds``: the folds used and the data sets left out."""
        if self.min_folds is None:
            return []
        used = self.datasets.get("folds")
        span = (
            f"{int(used.min())}–{int(used.max())}"
            if used is not None and used.min() != used.max()
            else str(self.n_folds if used is None else int(used.min()))
        )
        return [
            ("paired folds per data set", f"{span} of {self.n_folds}"),
            ("paired folds required (min_folds)", self.min_folds),
            ("data sets left out", len(self.left_out)),
        ]

    def _kinds(self) -> dict[object, str]:
        # a score difference, whatever the algorithms' names say
        return {
            f"δ0 (posterior mean of {self.name_b} − {self.name_a})": "score",
            # sampler diagnostics: ν and R̂ as statistics, counts of draws whole
            "ν": "statistic",
            "max R̂": "statistic",
            "min effective sample size": "count",
            "leapfrog steps per transition": "statistic",
            "paired folds required (min_folds)": "count",
            "data sets left out": "count",
            "ess": "count",
            "rhat": "statistic",
        }

    def to_frame(self) -> pd.DataFrame:
        return self._row(
            "a b prob_left prob_rope prob_right mean_prob_left mean_prob_rope "
            "mean_prob_right delta0 std0 nu rope datasets n_folds rho rhat ess "
            "divergences leapfrog_steps decision",
            datasets=len(self.datasets),
        )

    def _table(self) -> pd.DataFrame:
        return self.datasets.set_index("case")

    def plot(self, ax: Any = None, *, kind: str = "simplex", **kwargs: Any) -> Any:
        """``kind="simplex"``: the (left, rope, right) draws on a triangle
        (:func:`nbstats.plots.hierarchical_simplex`); ``kind="datasets"``: the
        shrunk δ_i with their intervals
        (:func:`nbstats.plots.hierarchical_datasets`). Returns the Axes."""
        from nbstats.plots import hierarchical as plots  # lazy: matplotlib

        if kind == "simplex":
            return plots.hierarchical_simplex(self, ax=ax, **kwargs)
        if kind == "datasets":
            return plots.hierarchical_datasets(self, ax=ax, **kwargs)
        raise ValueError(f"kind must be 'simplex' or 'datasets', got {kind!r}.")

"""Result object of the Bayesian Friedman test (Benavoli et al. 2015, §5.2)."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pandas as pd

from nbstats.results import methods_text
from nbstats.results.base import Result
from nbstats.results.monte_carlo import format_mc_error
from nbstats.results.prose import Paragraph

__all__ = ["BayesFriedmanResult"]

_METHOD_TEXT = {"ellipsoid": "ellipsoid", "montecarlo": "Monte Carlo"}


@dataclasses.dataclass(frozen=True, eq=False, repr=False)
class BayesFriedmanResult(Result):
    """Bayesian Friedman test (Benavoli et al. 2015, §5.2, Theorem 1).

    The posterior of the vector of mean ranks under a Dirichlet process with
    prior strength ``s`` centred on "all algorithms equal", and whether the
    point ``μ0 = ((m + 1)/2, …)`` of no difference lies outside its
    ``threshold`` credible region. Attribute-only: it does not unpack.

    Attributes
    ----------
    mean_ranks : Series
        Exact posterior mean of each algorithm's mean rank, **1 = best**
        (index = algorithm names). With ``s = 0`` these are the Friedman mean
        ranks.
    covariance : DataFrame
        Exact m × m posterior covariance of the mean ranks (Theorem 1). Its
        rows sum to 0: the ranks of a case always sum to m(m + 1)/2.
    statistic : float
        Squared Mahalanobis distance of μ0 from the posterior (over m - 1
        coordinates): ``(μ - μ0)ᵀ Σ⁻¹ (μ - μ0)`` for the ellipsoid, the same
        with the Monte Carlo sample mean and covariance for ``"montecarlo"``.
        ``inf`` when μ0 lies off the (degenerate) support of the posterior.
    rho : float
        The region's boundary on the same scale: ``ρ_F = F⁻¹(1 - γ; m - 1,
        n - m + 1) (n - 1)(m - 1)/(n - m + 1)`` for the ellipsoid; for
        ``"montecarlo"`` the ``1 - γ`` empirical quantile of the samples'
        distances times ``ρ_F / χ²⁻¹(1 - γ; m - 1)``, the small-sample factor
        that keeps the test's error rate near ``γ`` (see
        :mod:`nbstats.stats.bayes.friedman_calibration`).
    credibility : float
        The level of the smallest (calibrated) credible region that still
        contains μ0: ``reject`` is ``credibility > threshold``. Ellipsoid: the
        F relation solved for the level; Monte Carlo: the level at which the
        calibrated radius reaches μ0's distance.
    reject : bool
        ``statistic > rho``: μ0 lies outside the region, the algorithms differ.
    threshold : float
        The credible level of the region (γ = 1 − threshold in the paper).
    s : float
        Prior strength (``0`` = Bayesian bootstrap).
    method : str
        ``"ellipsoid"`` or ``"montecarlo"``.
    n_cases, n_algorithms : int
    n_samples : int or None
        Monte Carlo draws (``None`` for the ellipsoid).
    samples : ndarray or None
        The Monte Carlo draws of the mean-rank vector, ``n_samples × m``
        (columns in the order of ``mean_ranks``, 1 = best); ``None`` for the
        ellipsoid. Read-only.
    degenerate_directions : int
        How many of the m - 1 directions carry no posterior variance (see
        :func:`nbstats.stats.bayes.friedman.bayes_friedman`); 0 normally.
    higher_is_better : bool
        The score direction used to rank.
    posterior_mass : float or None
        Monte Carlo only: the share of draws closer to their mean than μ0,
        the posterior probability of the uncalibrated region through μ0
        (what the Monte Carlo test compared with ``threshold`` before the
        calibration; far above ``1 - threshold`` too often with few cases).
        ``None`` for the ellipsoid.
    calibration : str
        ``"benavoli"`` (the paper's radius, default) or ``"permutation"``
        (the radius from within-case permutations of the ranks: then
        ``credibility`` is ``1 - p`` with the permutation p-value ``p``,
        ``reject`` is ``p <= 1 - threshold``, and ``rho`` the permuted distance the
        statistic must exceed).
    n_permutations : int or None
        Permutations of ``calibration="permutation"``, else ``None``.
    cases : Index or None
        The labels of the cases (rows of the score table) the analysis used.
    """

    mean_ranks: pd.Series
    covariance: pd.DataFrame
    statistic: float
    rho: float
    credibility: float
    reject: bool
    threshold: float
    s: float
    method: str
    n_cases: int
    n_algorithms: int
    n_samples: int | None
    samples: np.ndarray | None
    degenerate_directions: int
    higher_is_better: bool
    posterior_mass: float | None = None
    calibration: str = "benavoli"
    n_permutations: int | None = None
    cases: pd.Index | None = None

    @property
    def null_ranks(self) -> pd.Series:
        """μ0: every algorithm at the mean rank ``(m + 1)/2``."""
        return pd.Series(
            (self.n_algorithms + 1) / 2,
            index=self.mean_ranks.index,
            name="mean rank under H0",
        )

    @property
    def decision(self) -> str:
        """The test's conclusion in words."""
        level = f"{100 * self.threshold:g}%"
        region = (
            "region calibrated by permutations"
            if self.calibration == "permutation"
            else "credible region"
        )
        if self.reject:
            return (
                f"the algorithms differ (equal mean ranks lie outside the {level} "
                f"{region})"
            )
        return f"no evidence they differ at {level}"

    def methods_sentence(self, context: methods_text.MethodsContext) -> Paragraph:
        """This result's sentence in a report's Methods paragraph
        (:func:`nbstats.results.methods_text.bayes_friedman`)."""
        return methods_text.bayes_friedman(self, context)

    def _title(self) -> str:
        return (
            f"Bayesian Friedman test ({_METHOD_TEXT[self.method]}): "
            f"{self.n_algorithms} algorithms on {self.n_cases} cases"
        )

    def _scalars(self) -> list[tuple[str, object]]:
        rows: list[tuple[str, object]] = [
            ("decision", self.decision),
            ("distance² of equal ranks", self.statistic),
            (f"threshold at {self.threshold:g}", self.rho),
            ("credibility", self.credibility),
            ("prior strength s", self.s),
        ]
        if self.calibration == "permutation":
            rows.append(
                (
                    "radius calibrated by",
                    f"{self.n_permutations:,} within-case permutations of the ranks",
                )
            )
        if self.n_samples is not None:
            # the credibility is a share of the draws
            p = float(self.credibility)
            error = float(np.sqrt(max(p * (1 - p), 0.0) / self.n_samples))
            rows.append(
                (
                    "posterior draws",
                    f"{self.n_samples:,} ({format_mc_error(error, self.n_samples)})",
                )
            )
        if self.degenerate_directions:
            rows.append(("directions without variance", self.degenerate_directions))
        return rows

    def to_frame(self) -> pd.DataFrame:
        """One row per algorithm: posterior mean rank (1 = best) and its sd."""
        return pd.DataFrame(
            {
                "algorithm": self.mean_ranks.index,
                "mean_rank": self.mean_ranks.to_numpy(),
                "sd": np.sqrt(np.clip(np.diag(self.covariance.to_numpy()), 0, None)),
            }
        )

    def _table(self) -> pd.DataFrame:
        frame = self.to_frame().set_index("algorithm")
        frame.columns = ["mean rank", "sd"]
        return frame

    def _kinds(self) -> dict[object, str]:
        return {
            "mean rank": "rank",
            "sd": "rank",
            "distance² of equal ranks": "statistic",
            f"threshold at {self.threshold:g}": "statistic",
            "credibility": "probability",
        }

    def plot(self, ax: Any = None, **kwargs: Any) -> Any:
        """For three algorithms, the posterior of the mean-rank vector and the
        credible ellipse (:func:`nbstats.plots.friedman_posterior`)."""
        import nbstats.plots as plots  # lazy: matplotlib only when drawing

        return plots.friedman_posterior(self, ax=ax, **kwargs)

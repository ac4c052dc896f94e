"""Result objects of the Bayesian Dirichlet-process tests (Benavoli et al.)."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pandas as pd

from nbstats.results import methods_text
from nbstats.results.base import Result, region_rows
from nbstats.results.bayes_posthoc import BayesPosthocResult
from nbstats.results.decisions import DECISION_LABEL, describe
from nbstats.results.monte_carlo import format_mc_error
from nbstats.results.number_policy import format_number
from nbstats.results.prose import Paragraph

__all__ = [
    "BayesPosthocResult",
    "BayesSignTestResult",
    "BayesSignedRankPairsResult",
    "BayesSignedRankResult",
    "interval_text",
]

_frozen = dataclasses.dataclass(frozen=True, eq=False, repr=False)


#: The pairs' counts per decision (other than a better algorithm), in words.
_COUNT_WORDS = {
    "equivalent": "decided equivalent",
    "undecided": "undecided",
    "indeterminate": "indeterminate",
}


def interval_text(lower: float, upper: float) -> str:
    """A probability's interval [lower, upper] over the prior set, both ends
    by the number policy (:func:`~nbstats.results.number_policy.format_number`,
    kind ``"probability"``), as every table and report writes them.

    Examples
    --------
    >>> interval_text(0.00002, 0.01234)
    '< 0.001 to 0.012'
    """
    return (
        f"{format_number(lower, 'probability')} to "
        f"{format_number(upper, 'probability')}"
    )


def _decision_text(decision: str, name_a: str, name_b: str, rope: float) -> str:
    return describe(decision, name_a, name_b, rope=bool(rope))


@_frozen
class BayesSignTestResult(Result):
    """Bayesian sign test (Benavoli et al. 2015, §5.1 and Theorem 2).

    θ = P(b > a) + ½ P(b = a) under the posterior Dirichlet process with prior
    strength ``s`` put on "a = b".

    Attributes
    ----------
    prob_right : float
        Posterior probability that b is better: P(θ > ½) without rope (exact,
        Theorem 2), or the share of draws in which "b better by more than the
        rope" is the most probable region.
    prob_left : float
        The same for a.
    prob_rope : float or None
        With ``rope > 0``: share of draws in which the rope is most probable.
    wins, losses, n_ties : int
        Cases where b is better than a by more than the rope, worse, within it.
    samples : ndarray
        Posterior draws of θ (without rope), for plots and
        :meth:`prob_equivalent`.
    region_samples : ndarray or None
        With a rope: posterior draws (S × 3) of (θ_left, θ_rope, θ_right).
    s, rope, threshold : float
    decision : str
        ``"b"``, ``"a"``, ``"equivalent"`` or ``"undecided"``: the region
        (b better, a better, the rope) whose probability exceeds
        ``threshold`` (see :mod:`nbstats.results.decisions`).
    credible_interval : tuple of float
        Equal-tail interval of θ at level ``threshold`` (two-sided test:
        b and a differ if ½ lies outside).
    name_a, name_b : hashable
    n_samples : int or None
        Posterior draws (of the rope's regions, and of θ for the interval).
    mc_error : float
        Monte Carlo standard error of the sampled probabilities (with a
        rope): the largest ``√(p (1 − p) / N)``; 0 without a rope, where the
        probabilities are exact (Theorem 2).
    cases : Index or None
        The labels of the ``wins + losses + n_ties`` cases counted (every case
        with both scores: a tie or a difference within the rope counts
        toward "a = b"), or None when built from bare differences.
    """

    prob_left: float
    prob_rope: float | None
    prob_right: float
    wins: int
    losses: int
    n_ties: int
    samples: np.ndarray
    region_samples: np.ndarray | None
    s: float
    rope: float
    threshold: float
    decision: str
    credible_interval: tuple[float, float]
    name_a: str
    name_b: str
    prior_at: str = "rope"
    n_samples: int | None = None
    mc_error: float = float("nan")
    cases: pd.Index | None = None

    def prob_equivalent(self, epsilon: float = 0.05) -> float:
        """Posterior probability that ½ − ε < θ < ½ + ε: a and b are
        indistinguishable (Benavoli et al. 2015, §7.1)."""
        if not 0 < epsilon < 0.5:
            raise ValueError(f"epsilon must lie in (0, 0.5), got {epsilon!r}.")
        return float(np.mean(np.abs(self.samples - 0.5) < epsilon))

    def _prior_place(self) -> str:
        if self.prior_at == "left":
            return f"{self.name_a} better"
        if self.prior_at == "right":
            return f"{self.name_b} better"
        return "a = b"

    def methods_sentence(self, context: methods_text.MethodsContext) -> Paragraph:
        """This result's sentence in a report's Methods paragraph
        (:func:`nbstats.results.methods_text.bayes_sign`)."""
        return methods_text.bayes_sign(self, context)

    def _title(self) -> str:
        return f"Bayesian sign test: {self.name_a} vs {self.name_b}"

    def _scalars(self) -> list[tuple[str, object]]:
        rows = region_rows(self)
        rows += [
            ("wins / losses / ties", f"{self.wins} / {self.losses} / {self.n_ties}"),
            (f"prior strength s (on {self._prior_place()})", self.s),
            (f"{self.threshold:.0%} credible interval of θ", self.credible_interval),
            (
                f"decision (threshold {self.threshold:g})",
                _decision_text(self.decision, self.name_a, self.name_b, self.rope),
            ),
        ]
        if self.n_samples is not None:
            precision = (
                format_mc_error(self.mc_error, self.n_samples)
                if self.prob_rope is not None
                else "probabilities exact; draws for the interval"
            )
            rows.append(("posterior draws", f"{self.n_samples:,} ({precision})"))
        return rows

    def to_frame(self) -> pd.DataFrame:
        return self._row(
            "a b prob_left prob_rope prob_right wins losses n_ties s rope decision "
            "n_samples mc_error"
        )

    def _table(self) -> None:
        return None

    def plot(self, ax: Any = None, **kwargs: Any) -> Any:
        """Beta posterior (no rope) or region probabilities (rope); see
        :func:`nbstats.plots.sign_posterior`. Returns the Axes."""
        import nbstats.plots as plots  # lazy: matplotlib only when drawing

        return plots.sign_posterior(self, ax=ax, **kwargs)


@_frozen
class BayesSignedRankResult(Result):
    """Bayesian Wilcoxon signed-rank test (Benavoli et al. 2014).

    θ = P(Z + Z' > 0) + ½ P(Z + Z' = 0) for two independent differences
    ``Z = b - a`` under the posterior Dirichlet process.

    Attributes
    ----------
    prior : str
        ``"idp"`` (near-ignorance: lower and upper posteriors), ``"bb"``
        (Bayesian bootstrap, s → 0) or ``"point"`` (pseudo-observation at
        ``prior_at``).
    prob_right, prob_left, prob_rope : float
        Posterior probabilities that b is better, a is better, and (with a
        rope) that they are practically equivalent. Without rope,
        ``prob_right = P(θ > ½)``. With ``rope > 0`` they are the shares of
        draws in which each region is the most probable (as baycomp). Under
        IDP these are the *lower* probabilities over the prior set (the
        ``*_lower`` attributes).
    prob_left_lower, prob_left_upper, prob_rope_lower, prob_rope_upper, \
prob_right_lower, prob_right_upper : float
        Under IDP, each probability's interval [lower, upper] over the prior
        set (``prob_rope_*`` None without a rope); for a single prior lower
        = upper. The decision uses them: b (or a) better if its lower
        probability exceeds ``threshold``, equivalent if the rope's does,
        undecided if no upper one does, indeterminate otherwise.
    prob_lower, prob_upper : float
        Lower and upper posterior probability that b is better, i.e.
        ``prob_right_lower`` and ``prob_right_upper``.
    posterior_mean, posterior_mean_lower, posterior_mean_upper : float
        Exact posterior means of θ (Theorems 2–3 of the 2014 paper). Under
        IDP there is no single posterior: ``posterior_mean`` is NaN and the
        lower and upper means bound that of every prior of strength s.
    samples, samples_lower, samples_upper : ndarray
        Posterior draws of θ (lower/upper under IDP; ``samples`` is the lower
        one then).
    region_samples : ndarray or None
        With a rope: posterior draws (S × 3) of the probabilities of the
        regions (left, rope, right) — for IDP, under the lower prior.
    threshold : float
        Probability needed to prefer b, ``l1 / (l0 + l1)``.
    decision : str
        ``"b"``, ``"a"``, ``"equivalent"``, ``"undecided"`` or, under IDP,
        ``"indeterminate"`` (see :mod:`nbstats.results.decisions`).
    credible_interval : tuple of float
        Equal-tail interval of θ at level ``threshold`` (for IDP, from the
        lower end of the lower posterior to the upper end of the upper one).
    differs : bool
        Two-sided decision: ½ lies outside ``credible_interval``.
    s, prior_at, rope : float
        Prior strength, the place of the point prior's pseudo-observation
        (a difference) and the rope's half-width.
    n_cases : int
        The cases (paired differences) the test used.
    name_a, name_b : hashable
    n_samples : int or None
        Posterior draws behind the probabilities.
    mc_error : float
        Their Monte Carlo standard error: the largest ``√(p (1 − p) / N)``
        over the reported probabilities and bounds p (N = ``n_samples``).
    method : str
        ``"montecarlo"`` (draws of the Dirichlet process) or ``"normal"``
        (draws of its normal approximation, for many cases; see
        :func:`nbstats.bayes_signrank`).
    cases : Index or None
        The labels of the ``n`` cases used (every case with both scores:
        zero differences included), or None when built from bare
        differences or as one pair of a table.
    """

    prior: str
    prob_left: float
    prob_rope: float | None
    prob_right: float
    prob_lower: float
    prob_upper: float
    posterior_mean: float
    posterior_mean_lower: float
    posterior_mean_upper: float
    samples: np.ndarray
    samples_lower: np.ndarray
    samples_upper: np.ndarray
    region_samples: np.ndarray | None
    threshold: float
    decision: str
    credible_interval: tuple[float, float]
    differs: bool
    s: float
    prior_at: float
    rope: float
    n_cases: int
    name_a: str
    name_b: str
    n_samples: int | None = None
    mc_error: float = float("nan")
    method: str = "montecarlo"
    prob_left_lower: float | None = None
    prob_left_upper: float | None = None
    prob_rope_lower: float | None = None
    prob_rope_upper: float | None = None
    prob_right_lower: float | None = None
    prob_right_upper: float | None = None
    cases: pd.Index | None = None

    def __post_init__(self) -> None:
        # results made before the bounds existed: the bounds they had
        defaults = {
            "prob_left_lower": self.prob_left,
            "prob_left_upper": self.prob_left,
            "prob_rope_lower": self.prob_rope,
            "prob_rope_upper": self.prob_rope,
            "prob_right_lower": self.prob_lower,
            "prob_right_upper": self.prob_upper,
        }
        for name, value in defaults.items():
            if getattr(self, name) is None:
                object.__setattr__(self, name, value)

    def bounds(self) -> dict[str, tuple[float, float] | None]:
        """Each region's (lower, upper) probability: keys ``"left"``
        (a better), ``"rope"`` (None without a rope) and ``"right"``."""
        rope = None
        if self.prob_rope is not None:
            rope = (self.prob_rope_lower, self.prob_rope_upper)
        return {
            "left": (self.prob_left_lower, self.prob_left_upper),
            "rope": rope,
            "right": (self.prob_right_lower, self.prob_right_upper),
        }

    def prob_equivalent(self, epsilon: float = 0.05) -> float:
        """Posterior probability that ½ − ε < θ < ½ + ε (lower posterior for IDP)."""
        if not 0 < epsilon < 0.5:
            raise ValueError(f"epsilon must lie in (0, 0.5), got {epsilon!r}.")
        return float(np.mean(np.abs(self.samples - 0.5) < epsilon))

    def methods_sentence(self, context: methods_text.MethodsContext) -> Paragraph:
        """This result's sentence in a report's Methods paragraph, for
        ``context.n_pairs`` pairs tested alike (default one;
        :func:`nbstats.results.methods_text.bayes_signrank`)."""
        return methods_text.bayes_signrank(self, context, context.n_pairs or 1)

    def _title(self) -> str:
        prior = {
            "idp": f"near-ignorance prior (IDP), s = {self.s:.3g}",
            "bb": "Bayesian bootstrap (s → 0)",
            "point": f"prior s = {self.s:g} at prior_at = {self.prior_at:g}",
        }[self.prior]
        return f"Bayesian signed-rank test: {self.name_a} vs {self.name_b} ({prior})"

    def _scalars(self) -> list[tuple[str, object]]:
        rows: list[tuple[str, object]] = []
        labels = {
            "right": f"P({self.name_b} better)",
            "left": f"P({self.name_a} better)",
            "rope": f"P(within rope ±{self.rope:g})",
        }
        for key, label in labels.items():
            bounds = self.bounds()[key]
            if bounds is None:
                continue
            if self.prior == "idp":  # an interval over the prior set
                rows.append((f"{label}, lower to upper", interval_text(*bounds)))
            else:
                rows.append((label, bounds[0]))
        if self.prior == "idp":
            rows.append(
                (
                    "posterior mean of θ, lower to upper",
                    f"{format_number(self.posterior_mean_lower, 'probability')} to "
                    f"{format_number(self.posterior_mean_upper, 'probability')}",
                )
            )
        else:
            rows.append(("posterior mean of θ", self.posterior_mean))
        rows += [
            (f"{self.threshold:.0%} credible interval of θ", self.credible_interval),
            ("two-sided: ½ outside the interval", self.differs),
            (
                f"decision (threshold {self.threshold:g})",
                _decision_text(self.decision, self.name_a, self.name_b, self.rope),
            ),
            ("cases", self.n_cases),
        ]
        if self.n_samples is not None:
            how = "normal approximation, " if self.method == "normal" else ""
            rows.append(
                (
                    "posterior draws",
                    f"{how}{self.n_samples:,} "
                    f"({format_mc_error(self.mc_error, self.n_samples)})",
                )
            )
        return rows

    def _kinds(self) -> dict[object, str]:
        # θ is a probability: its mean is written as the intervals' ends
        return {"posterior mean of θ": "probability"}

    def to_frame(self) -> pd.DataFrame:
        return self._row(
            "a b prior s rope prob_left prob_rope prob_right prob_lower prob_upper "
            "prob_left_lower prob_left_upper prob_rope_lower prob_rope_upper "
            "prob_right_lower prob_right_upper posterior_mean decision n_samples "
            "mc_error"
        )

    def _table(self) -> None:
        return None

    def plot(self, ax: Any = None, *, kind: str = "posterior", **kwargs: Any) -> Any:
        """Posterior density of θ (``kind="posterior"``), or with a rope the
        region probabilities as a bar (``"rope"``) or simplex (``"simplex"``).
        Returns the Axes."""
        import nbstats.plots as plots  # lazy: matplotlib only when drawing

        if kind == "posterior":
            return plots.signrank_posterior(self, ax=ax, **kwargs)
        if kind in ("rope", "simplex"):
            bar_or_simplex = "bar" if kind == "rope" else "simplex"
            return plots.rope_probabilities(self, ax=ax, kind=bar_or_simplex, **kwargs)
        raise ValueError(
            f"unknown kind={kind!r}; choose 'posterior', 'rope' or 'simplex'."
        )


@_frozen
class BayesSignedRankPairsResult(Result):
    """The Bayesian signed-rank test on every pair of algorithms.

    Attributes
    ----------
    pairs : DataFrame
        One row per pair (a, b), a before b in column order: ``prob_left``,
        ``prob_rope`` (NaN without rope), ``prob_right``, ``prob_lower`` and
        ``prob_upper``, each region's bounds ``prob_left_lower`` …
        ``prob_right_upper`` (as :class:`BayesSignedRankResult`: under IDP
        ``prob_left``/``prob_rope``/``prob_right`` are the lower bounds, and
        the summary and HTML table show each as "lower to upper"), the exact
        posterior means ``mean_lower`` / ``mean_upper`` of θ, the credible
        interval ``ci_low`` / ``ci_high``, ``differs`` (½ outside it),
        ``decision`` (the vocabulary of :mod:`nbstats.results.decisions`)
        and ``effect``, the matched-pairs rank-biserial correlation of b − a
        (> 0 when b is better, −1 to 1; :func:`nbstats.effect_size`), as in
        the frequentist post-hoc tables.
    probabilities : DataFrame
        m × m: entry (row i, column j) is the posterior probability that
        column j is better than row i — the lower probability under IDP;
        with a rope, the share of draws in which that region is the most
        probable.
    mean_ranks : Series
        Average ranks (1 = best), for ordering.
    prior : str
    s, prior_at, rope, threshold : float
    n_cases, n_samples : int
    mc_error : float
        The largest Monte Carlo standard error of any pair's probabilities.
    method : str
        ``"montecarlo"`` or ``"normal"`` (see :func:`nbstats.bayes_signrank`).
    cases : Index or None
        The labels of the cases (rows of the score table) the analysis used;
        with ``nan_policy="pairwise"`` every case some pair used, and
        ``pairs["n"]`` how many each pair used.
    mc_target : float or None
        The target of ``mc_error=`` (each pair drawn until its probabilities'
        errors were below it; ``pairs["draws"]`` holds its draws and
        ``n_samples`` the most), or None (``n_samples`` draws each).
    joint : BayesPosthocResult or None
        With ``bayes_signrank_pairs(..., joint=True)``: the joint statements
        made on this table's draws (a statement's probability is its pair's
        lower probability here); else None.
    """

    pairs: pd.DataFrame
    probabilities: pd.DataFrame
    mean_ranks: pd.Series
    prior: str
    s: float
    prior_at: float
    rope: float
    threshold: float
    n_cases: int
    n_samples: int
    mc_error: float = float("nan")
    method: str = "montecarlo"
    cases: pd.Index | None = None
    mc_target: float | None = None
    joint: Any = None

    def methods_sentence(self, context: methods_text.MethodsContext) -> Paragraph:
        """This result's sentence in a report's Methods paragraph
        (:func:`nbstats.results.methods_text.bayes_signrank`)."""
        return methods_text.bayes_signrank(self, context, len(self.pairs))

    def _draws_text(self) -> str:
        """The draws, and under a precision target their range per pair."""
        error = format_mc_error(self.mc_error, self.n_samples)
        if self.mc_target is None or "draws" not in self.pairs:
            return f"{self.n_samples:,} ({error})"
        low = int(self.pairs["draws"].min()) if len(self.pairs) else self.n_samples
        return (
            f"{low:,} to {self.n_samples:,} per pair, until every probability's "
            f"Monte Carlo error < {self.mc_target:g} ({error})"
        )

    def _title(self) -> str:
        rope = f", rope ±{self.rope:g}" if self.rope else ""
        return (
            f"Bayesian signed-rank test, all pairs ({self.prior}, s = {self.s:.3g}"
            f"{rope})"
        )

    def _scalars(self) -> list[tuple[str, object]]:
        counts = self.pairs["decision"].value_counts()
        decided = [
            (
                "pairs with one algorithm better",
                int(counts.get("a", 0) + counts.get("b", 0)),
            )
        ] + [
            (f"pairs {_COUNT_WORDS[d]}", int(counts.get(d, 0)))
            for d in _COUNT_WORDS
            if d in counts or d == "undecided"
        ]
        return [
            ("pairs", len(self.pairs)),
            ("cases", self.n_cases),
            ("threshold", self.threshold),
            *decided,
            (
                "posterior draws",
                f"{'normal approximation, ' if self.method == 'normal' else ''}"
                + self._draws_text(),
            ),
        ]

    def to_frame(self) -> pd.DataFrame:
        return self.pairs.copy()

    def _table(self) -> pd.DataFrame:
        columns = ["a", "b", "prob_left", "prob_rope", "prob_right", "decision"]
        if "effect" in self.pairs:  # (results saved before it existed lack it)
            columns.append("effect")
        frame = self.pairs[columns].dropna(axis=1, how="all")
        if self.prior == "idp" and "prob_right_upper" in self.pairs:
            # every probability an interval [lower, upper] over the prior set
            for key in ("left", "rope", "right"):
                if f"prob_{key}" in frame:
                    frame[f"prob_{key}"] = [
                        interval_text(lo, hi)
                        for lo, hi in zip(
                            self.pairs[f"prob_{key}_lower"],
                            self.pairs[f"prob_{key}_upper"],
                            strict=True,
                        )
                    ]
        # the decision in words naming the algorithm ("to_frame()" keeps
        # the codes of nbstats.results.decisions)
        frame["decision"] = [
            DECISION_LABEL[d].format(a=a, b=b)
            for a, b, d in zip(frame["a"], frame["b"], frame["decision"], strict=True)
        ]
        if "effect" in frame:  # two decimals, as effect sizes are reported
            frame["effect"] = frame["effect"].round(2)
        frame.index = pd.Index(
            [f"{a} vs {b}" for a, b in zip(frame["a"], frame["b"], strict=True)],
            name="comparison",
        )
        return frame.drop(columns=["a", "b"])

    def plot(self, ax: Any = None, **kwargs: Any) -> Any:
        """The probability matrix as an annotated heatmap. Returns the Axes."""
        import nbstats.plots as plots  # lazy: matplotlib only when drawing

        return plots.pairwise_heatmap(self, ax=ax, **kwargs)

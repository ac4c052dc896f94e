"""Bayesian Wilcoxon signed-rank test, Dirichlet process (Benavoli et al. 2014)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from nbstats.results.bayes import BayesSignedRankResult
from nbstats.scores import NanPolicy, check_choice, paired_differences
from nbstats.stats.bayes.canonical import flipped
from nbstats.stats.bayes.decision import (
    IDP_DEFAULT_S,
    check_n_samples,
    check_rope,
    check_s,
    decide,
    region_shares,
    resolve_threshold,
    signrank_bounds,
)
from nbstats.stats.bayes.memory import check_fits
from nbstats.stats.bayes.signrank_sums import (
    _heaviside,
    mc_error,
    posterior_means,
    shared_components,
)
from nbstats.stats.bayes.walsh import Region, WalshPlan
from nbstats.stats.bayes.weights import DirichletWeights, gamma_quantile

__all__ = [
    "SignedRankPosterior",
    "bayes_signrank",
    "canonical_posterior",
    "check_options",
    "credible_interval",
    "mc_error",
    "mirror_counts",
    "mirror_draws",
    "monte_carlo_bytes",
    "posterior_means",
    "prior_strength",
    "shared_components",
]

Prior = Literal["idp", "bb", "point"]
Method = Literal["auto", "montecarlo", "normal"]

#: Above this many cases ``method="auto"`` uses the normal approximation.
NORMAL_CASES = 1000

# θ within this distance of ½ counts as exactly ½ (e.g. all differences zero,
# where θ = ½ up to the rounding of the weights' sum)
_HALF_TOLERANCE = 1e-12


def bayes_signrank(
    a: object,
    b: object,
    *,
    prior: Prior = "idp",
    s: float | None = None,
    z0: float = 0.0,
    rope: float = 0.0,
    threshold: float | None = None,
    loss: tuple[float, float] = (1, 19),
    n_samples: int = 50_000,
    higher_is_better: bool = True,
    nan_policy: NanPolicy = "raise",
    random_state: object = None,
    method: Method = "auto",
) -> BayesSignedRankResult:
    """Bayesian signed-rank test: posterior probability that b is better than a.

    With ``z = b - a`` and two independent draws Z, Z' of it, the test is about
    θ = P(Z + Z' > 0) + ½ P(Z + Z' = 0), the quantity whose frequentist
    estimate is Wilcoxon's R⁺ / (n(n+1)/2). A posterior draw of the Dirichlet
    process puts weights ``(w_0, w_1, …, w_n) ~ Dir(s, 1, …, 1)`` on the
    prior's pseudo-observation and the n differences, and
    ``θ(w) = Σ_i Σ_j w_i w_j H(z_i + z_j)`` with ``H(0) = ½``.

    Parameters
    ----------
    a, b : array-like or Series
        Paired scores of the two algorithms.
    prior : {"idp", "bb", "point"}
        - ``"idp"``: the near-ignorance model (2014, Theorems 3–4): every prior
          of strength s; the pseudo-observation at −∞ gives the lower
          posterior (``prob_lower``), at +∞ the upper one (``prob_upper``).
        - ``"bb"``: the Bayesian bootstrap, s → 0.
        - ``"point"``: one pseudo-observation at ``z0`` with weight s — the
          formulation of baycomp and of the authors' tutorial.
    s : float, optional
        Prior strength; default (√17 − 3)/2 for IDP (2014, §3.1), 0.5 for
        ``"point"``; must be left unset for ``"bb"``.
    z0 : float
        Position of the pseudo-observation (``"point"`` only).
    rope : float
        Half-width of the region of practical equivalence. With ``rope > 0``
        the posterior draws give the probabilities that the average of two
        differences is below −rope, inside the rope, above +rope; the
        reported (left, rope, right) are the shares of draws in which each
        region is the most probable, as baycomp reports them.
    threshold : float, optional
        Posterior probability needed to prefer b; default ``l1 / (l0 + l1)``
        from ``loss``. It is the Bayesian analogue of a one-sided test at
        α = ``l0 / (l0 + l1)``, and the level of the two-sided credible
        interval.
    loss : (l0, l1)
        Loss of a Type II error (not declaring b better when it is) and of a
        Type I error (declaring b better when it is not); (1, 19) gives 0.95.
    n_samples : int
        Posterior draws (a warning below 1000).
    higher_is_better : bool
        Whether higher scores are better.
    nan_policy : {"raise", "omit"}
        See :func:`nbstats.score_table`.
    random_state : None, int or Generator
        Seed; the same seed gives the same draws, and, through common random
        numbers, nearby ``s`` give nearby posteriors.
    method : {"auto", "montecarlo", "normal"}
        ``"montecarlo"`` draws the Dirichlet process: exact up to Monte Carlo
        error, O(n) per draw. ``"normal"`` draws θ (and the rope's regions)
        from the normal approximation of its posterior, O(n log n) in all:
        for many cases, where the posterior is close to normal (see
        :mod:`nbstats.stats.bayes.signrank_normal`; tested against Monte Carlo
        at 1,000–4,000 cases). ``"auto"``: Monte Carlo up to
        :data:`NORMAL_CASES` (1,000) cases, the normal form beyond — 100,000
        cases take a fraction of a second instead of hours.

    Returns
    -------
    BayesSignedRankResult
        ``decision`` (see :func:`~nbstats.stats.bayes.decision.decide`):
        ``"b"`` (b better: P(b better) > threshold), ``"a"`` (a better),
        ``"equivalent"`` (with a rope: P(rope) > threshold), ``"undecided"``
        (no region reaches the threshold; without a rope: no evidence that b
        is better than a) or, under IDP, ``"indeterminate"`` (a region
        passes for some priors of the set but not for all). ``method``,
        ``n_samples`` and ``mc_error`` (the Monte Carlo standard error of the
        reported probabilities) say how precise they are.

    Notes
    -----
    Each draw costs O(n): z is sorted once and θ(w) is a cumulative sum and a
    gather (see :mod:`nbstats.stats.bayes.walsh`); no n × n matrix is built,
    and draws are processed in chunks within the memory ceiling of
    :mod:`nbstats.stats.bayes.memory` (512 MiB by default, configurable).

    The draws do not depend on how the data are laid out: the weights go to
    the sorted differences (not to the rows), and the pair is drawn in one
    canonical orientation (:mod:`nbstats.stats.bayes.canonical`) and
    mirrored when asked the other way round, so ``bayes_signrank(b, a)`` is
    exactly the mirror image of ``bayes_signrank(a, b)`` (left and right
    swap; under IDP the lower and upper posteriors swap), and
    :func:`nbstats.bayes_signrank_pairs`, the report and the dashboard give
    every pair the same numbers whatever the column order.

    Examples
    --------
    The published figure on the UCI data (nbc vs aode, rope 0.01):

    >>> import nbstats
    >>> uci = nbstats.datasets.load("uci_accuracy")
    >>> res = nbstats.bayes_signrank(uci["nbc"], uci["aode"], prior="point",
    ...                              rope=0.01, random_state=0)
    >>> round(res.prob_left, 3), round(res.prob_rope, 2), round(res.prob_right, 2)
    (0.0, 0.12, 0.88)
    """
    s, z0, rope, threshold, n_samples = check_options(
        prior, s, z0, rope, threshold, loss, n_samples
    )
    d, name_a, name_b = paired_differences(
        a, b, higher_is_better=higher_is_better, nan_policy=nan_policy
    )
    check_choice("method", method, ("auto", "montecarlo", "normal"))
    posterior = canonical_posterior(d, prior, z0, rope, (name_a, name_b))
    names = (name_a, name_b)
    if method == "normal" or (method == "auto" and d.size > NORMAL_CASES):
        return posterior.normal_result(
            n_samples, random_state, s=s, threshold=threshold, names=names
        )
    check_fits(
        monte_carlo_bytes(d.size),
        f"Monte Carlo draws over {d.size:,} cases",
        "use method='normal' (or 'auto'), or raise the ceiling",
    )
    draws = DirichletWeights(d.size, n_samples, random_state)
    return posterior.result(draws, s=s, threshold=threshold, names=names)


def canonical_posterior(
    d: np.ndarray,
    prior: str,
    z0: float,
    rope: float,
    names: tuple[str, str],
    prior_gammas: Callable[[float, np.ndarray], np.ndarray] | None = None,
) -> SignedRankPosterior:
    """The posterior of the differences ``d = b - a``, drawn in the pair's
    canonical orientation (:func:`~nbstats.stats.bayes.canonical.flipped`)
    and mirrored back when that is (b, a): so ``(a, b)`` and ``(b, a)`` get
    mirror-image results from the same draws.

    Examples
    --------
    >>> canonical_posterior(np.array([0.3, -0.1]), "bb", 0.0, 0.0, ("a", "b")).mirrored
    True
    """
    d = np.asarray(d, dtype=float)
    if flipped(d, *names):
        return SignedRankPosterior(
            -d, prior, -z0 + 0.0, rope, prior_gammas, mirrored=True
        )
    return SignedRankPosterior(d, prior, z0, rope, prior_gammas)


def monte_carlo_bytes(n: int) -> int:
    """Working memory of the Monte Carlo sums over n cases, whatever the draws:
    the compiled kernel's buffers (64 draws side by side: weights, prefix and
    suffix sums) and a chunk of at least 16 draws' weights.

    Examples
    --------
    >>> monte_carlo_bytes(100_000) // 2**20
    161
    """
    from nbstats.stats.bayes.walsh_kernel import LANES

    return 8 * (n + 1) * (3 * LANES + 16 + 4)


def check_options(
    prior: str,
    s: float | None,
    z0: float,
    rope: float,
    threshold: float | None,
    loss: tuple[float, float],
    n_samples: int,
) -> tuple[float, float, float, float, int]:
    """Validated ``(s, z0, rope, threshold, n_samples)`` of :func:`bayes_signrank`."""
    check_choice("prior", prior, ("idp", "bb", "point"))
    s = prior_strength(prior, s)
    z0 = float(z0)
    if prior != "point" and z0 != 0.0:
        raise ValueError(
            f"z0 places the pseudo-observation of prior='point'; it has no meaning "
            f"for prior={prior!r}."
        )
    if not np.isfinite(z0):
        raise ValueError("z0 must be finite; for ±infinity use prior='idp'.")
    rope = check_rope(rope)
    threshold = resolve_threshold(threshold, loss)
    n_samples = check_n_samples(n_samples, stacklevel=4)
    return s, z0, rope, threshold, n_samples


def prior_strength(prior: str, s: float | None) -> float:
    """Validated s for a prior; its default when None (see :func:`bayes_signrank`)."""
    if prior == "bb":
        if s not in (None, 0, 0.0):
            raise ValueError(
                "prior='bb' is the s → 0 limit (Bayesian bootstrap); leave s unset, "
                "or choose prior='point' or 'idp' for s > 0."
            )
        return 0.0
    if s is None:
        return IDP_DEFAULT_S if prior == "idp" else 0.5
    return check_s(s, allow_zero=False)


@dataclass(frozen=True)
class SignedRankPosterior:
    """Precomputed structure of one signed-rank posterior; draws come later.

    Separating the O(n log n) set-up from the draws lets a dashboard change
    s, the threshold or the loss and re-evaluate on the same draws.

    Each draw's exponential weights are assigned to the differences in sorted
    order: the weights are i.i.d., so this is a relabelling that saves a
    permutation per draw (the joint procedure of :func:`bayes_posthoc`, which
    needs the same weight on the same case across pairs, permutes instead).
    So the draws depend on the sorted differences only, not on the order of
    the cases.

    ``mirrored``: ``z`` and ``z0`` are the pair's canonical orientation (see
    :func:`canonical_posterior`), the caller's is ``-z``; results are then
    reported for ``-z``: θ becomes 1 − θ, left and right swap, and the IDP's
    lower and upper posteriors swap (a pseudo-observation at −∞ for ``-z`` is
    one at +∞ for ``z``).
    """

    z: np.ndarray
    prior: str
    z0: float
    rope: float
    #: optional ``(s, uniforms) -> Gamma(s) quantiles``, so that many
    #: posteriors on the same draws (a dashboard's pairs) share one computation;
    #: if it also has ``terms(s, uniforms, total)`` returning
    #: :func:`~nbstats.stats.bayes.summary_kernel.prior_terms`, those are shared too
    prior_gammas: Callable[[float, np.ndarray], np.ndarray] | None = field(
        default=None, compare=False, repr=False
    )
    mirrored: bool = False

    def __post_init__(self) -> None:
        plan = WalshPlan.build(self.z)
        theta = plan.region(+1, 0.0)
        # H(2z) = H(z) (the same sign): 2z would overflow near 1.8e308
        a_sum = plan.count(theta) + _heaviside(plan.sorted_z).sum()
        self._set_regions(plan, theta, float(a_sum))

    def _set_regions(self, plan: WalshPlan, theta: Region, walsh_sum: float) -> None:
        regions = {"theta": theta}
        if self.rope > 0:
            regions["right"] = plan.region(+1, 2 * self.rope)
            regions["left"] = plan.region(-1, 2 * self.rope)
        points = None
        if self.prior == "point":
            points = [plan.point_index(self.z0, r) for r in regions.values()]
        object.__setattr__(self, "_plan", plan)
        object.__setattr__(self, "_regions", regions)
        object.__setattr__(self, "_points", points)
        object.__setattr__(self, "_walsh_sum", walsh_sum)

    def with_rope(self, rope: float) -> SignedRankPosterior:
        """The same posterior with another rope (θ's set-up is shared, not redone).

        Examples
        --------
        >>> z = np.array([0.3, -0.1, 0.2])
        >>> wide = SignedRankPosterior(z, "bb", 0.0, 0.0).with_rope(0.15)
        >>> wide.rope, list(wide._regions)
        (0.15, ['theta', 'right', 'left'])
        """
        rope = check_rope(rope)
        other = object.__new__(SignedRankPosterior)
        for name in ("z", "prior", "z0", "prior_gammas", "mirrored"):
            object.__setattr__(other, name, getattr(self, name))
        object.__setattr__(other, "rope", rope)
        other._set_regions(self._plan, self._regions["theta"], self._walsh_sum)
        return other

    def with_prior(self, prior: Prior, z0: float = 0.0) -> SignedRankPosterior:
        """The same posterior under another prior (the sorted differences and
        the regions are shared, not set up again; a point prior finds its
        pseudo-observation's positions).

        Examples
        --------
        >>> z = np.array([0.3, -0.1, 0.2])
        >>> point = SignedRankPosterior(z, "idp", 0.0, 0.1).with_prior("point")
        >>> fresh = SignedRankPosterior(z, "point", 0.0, 0.1)
        >>> point.prior, point.rope, point._points == fresh._points
        ('point', 0.1, True)
        """
        check_choice("prior", prior, ("idp", "bb", "point"))
        z0 = float(z0)
        if prior != "point" and z0 != 0.0:
            raise ValueError(
                f"z0 places the pseudo-observation of prior='point'; it has no "
                f"meaning for prior={prior!r}."
            )
        if not np.isfinite(z0):
            raise ValueError("z0 must be finite; for ±infinity use prior='idp'.")
        other = object.__new__(SignedRankPosterior)
        names = ("z", "rope", "prior_gammas", "mirrored", "_plan", "_regions")
        for name in (*names, "_walsh_sum"):
            object.__setattr__(other, name, getattr(self, name))
        object.__setattr__(other, "prior", prior)
        object.__setattr__(other, "z0", z0)
        points = None
        if prior == "point":
            points = [self._plan.point_index(z0, r) for r in self._regions.values()]
        object.__setattr__(other, "_points", points)
        return other

    def with_mirrored(self, mirrored: bool) -> SignedRankPosterior:
        """The same posterior reported for ``-z`` (``mirrored``) or for ``z``.

        Examples
        --------
        >>> z = np.array([0.3, -0.1, 0.2])
        >>> SignedRankPosterior(z, "bb", 0.0, 0.0).with_mirrored(True).mirrored
        True
        """
        if bool(mirrored) == self.mirrored:
            return self
        other = self.with_prior(self.prior, self.z0)
        object.__setattr__(other, "mirrored", bool(mirrored))
        return other

    def components(self, draws: DirichletWeights) -> dict[str, np.ndarray]:
        """The parts of every draw that do not depend on s (computed once).

        With unnormalised weights e (cases) and g0 (prior), each region's sum
        is ``(Q + 2 g0 L + g0² h) / (g0 + T)²``: Q (the cases' Walsh sum), L
        (the cases against the pseudo-observation) and T (Σ e) are kept here,
        with the uniforms behind g0, so a new s costs a few vector operations
        and no new random numbers (see :meth:`combine`).
        """
        return shared_components([self], draws)[0]

    def combine(self, parts: dict[str, np.ndarray], s: float) -> dict[str, np.ndarray]:
        """Posterior draws of θ and of the rope regions for prior strength s.

        Keys: ``theta``, and with a rope ``left`` and ``right``; IDP adds the
        upper-prior versions ``theta_upper``, ``left_upper``, ``right_upper``
        (the plain keys then hold the lower prior: pseudo-observation at -∞).
        Each region's draw is ``(Q + 2 g0 L + g0² h) / (g0 + T)²`` (see
        :meth:`components`); for IDP, Theorem 4: a pseudo-observation at +∞
        wins every pair it is in (``h = 1``, ``L = T``), one at -∞ loses them
        all, which puts that mass in the left region.
        """
        return self._evaluate(parts, s, store_regions=True)[0]

    def _evaluate(
        self,
        parts: dict[str, np.ndarray],
        s: float,
        *,
        store_regions: bool,
        theta_draws: tuple[np.ndarray, np.ndarray] | None = None,
    ) -> tuple[dict[str, np.ndarray], np.ndarray]:
        """:meth:`combine` (the rope's regions only if ``store_regions``) and the
        draws' counts: ``[θ_lower > ½, θ_upper > ½, θ_upper < ½]`` then, with a
        rope, the region winners of the lower and the upper posterior (see
        :mod:`~nbstats.stats.bayes.summary_kernel`).

        The rope's regions are counted straight from their sums, so storing
        their draws is only for plots: a dashboard keeps every pair's result,
        and fresh memory for four more arrays per pair cost more (page
        faults) than the arithmetic. ``theta_draws`` (lower, upper) are θ's
        draws for this s under another rope, reused as they are.
        """
        from nbstats.stats.bayes.summary_kernel import (
            combine_region,
            prior_terms,
            rope_counts,
            theta_counts,
        )

        quantiles = self.prior_gammas or gamma_quantile
        g0 = np.asarray(quantiles(s, parts["uniforms"]), dtype=float)
        shared_terms = getattr(self.prior_gammas, "terms", None)
        if shared_terms is not None:
            scale, inverse, extra = shared_terms(s, parts["uniforms"], parts["total"])
        else:
            scale, inverse, extra = prior_terms(g0, parts["total"])
        point = self.prior == "point"
        idp = self.prior == "idp"
        steps = {
            key: float(np.heaviside(region.sign * 2 * self.z0 - region.c, 0.5))
            for key, region in self._regions.items()
        }

        def region_draws(key: str) -> tuple[np.ndarray, np.ndarray]:
            """(lower, upper) draws; θ divides (exactly 1 when every pair is
            in it), the rope's regions multiply by the reciprocal."""
            lower = np.empty(parts["total"].size)
            upper = np.empty_like(lower) if idp else lower
            combine_region(
                parts[f"quad_{key}"],
                parts[f"cross_{key}"] if point else parts[f"quad_{key}"],
                g0,
                scale if key == "theta" else inverse,
                key == "theta",
                extra,
                steps[key],
                idp and key == "left",  # Theorem 4: at -∞ the prior's
                idp and key != "left",  # pairs go left, at +∞ right
                point,
                lower,
                upper,
            )
            return lower, upper

        theta = theta_draws if theta_draws is not None else region_draws("theta")
        out = {"theta": theta[0]}
        counts = np.zeros(10, dtype=np.int64)
        counts[[0, 1, 2, 9]] = theta_counts(theta[0], theta[1], _HALF_TOLERANCE)
        if self.rope > 0:
            counts[3:9] = rope_counts(
                parts["quad_right"],
                parts["quad_left"],
                parts["cross_right"] if point else parts["quad_right"],
                parts["cross_left"] if point else parts["quad_left"],
                g0,
                inverse,
                extra,
                steps["right"],
                steps["left"],
                point,
                idp,
            )
            if store_regions:
                for key in ("right", "left"):
                    out[key], upper = region_draws(key)
                    if idp:
                        out[f"{key}_upper"] = upper
        if idp:
            out["theta_upper"] = theta[1]
        return out, counts

    def means(self, s: float) -> tuple[float, float]:
        """Exact posterior means of θ (lower, upper) in the caller's
        orientation (:func:`posterior_means`); mirrored, the Walsh count of
        ``-z`` is ``n (n + 1) − A``, exactly (a sum of halves)."""
        if not self.mirrored:
            return posterior_means(
                self.z, self.prior, s, self.z0, walsh_sum=self._walsh_sum
            )
        n = np.asarray(self.z).size
        return posterior_means(
            -np.asarray(self.z),
            self.prior,
            s,
            -self.z0 + 0.0,
            walsh_sum=n * (n + 1) - self._walsh_sum,
        )

    def sample(self, draws: DirichletWeights, s: float) -> dict[str, np.ndarray]:
        """Posterior draws for prior strength s: :meth:`components`, :meth:`combine`."""
        return self.combine(self.components(draws), s)

    def result(
        self,
        draws: DirichletWeights | dict[str, np.ndarray],
        *,
        s: float,
        threshold: float,
        names: tuple[str, str],
        interval: bool = True,
        region_samples: bool = True,
        theta_draws: tuple[np.ndarray, np.ndarray] | None = None,
    ) -> BayesSignedRankResult:
        """Summarise into a :class:`BayesSignedRankResult`.

        ``draws`` is a :class:`DirichletWeights` or, to re-evaluate for a new
        s or threshold without recomputing anything per case, the output of
        :meth:`components`. ``interval=False`` skips the credible interval
        (two quantiles of every draw; NaN then, ``differs`` False) and the
        rope's ``region_samples`` (None) when only the probabilities are
        needed, as in a dashboard's all-pairs matrix. ``region_samples=False``
        skips only the latter (a table of many pairs needs the interval but
        not the draws of the regions). ``theta_draws`` (lower, upper) are θ's
        draws for this s from an earlier result on the same components under
        another rope — θ does not depend on the rope — so a dashboard's new
        rope does not recompute them.
        """
        parts = draws if isinstance(draws, dict) else self.components(draws)
        # a matrix's results (no interval) need only θ's draws and the counts
        keep_regions = interval and region_samples
        out, counts = self._evaluate(
            parts, s, store_regions=keep_regions, theta_draws=theta_draws
        )
        return self._summarise(
            out,
            counts,
            s=s,
            threshold=threshold,
            names=names,
            interval=interval,
            keep_regions=keep_regions,
            method="montecarlo",
        )

    def normal_result(
        self,
        n_samples: int,
        random_state: object,
        *,
        s: float,
        threshold: float,
        names: tuple[str, str],
    ) -> BayesSignedRankResult:
        """:meth:`result` from draws of the normal approximation of the
        posterior (:mod:`~nbstats.stats.bayes.signrank_normal`): O(n log n)
        set-up and O(1) per draw, for many cases.

        Examples
        --------
        >>> z = np.random.default_rng(1).normal(0.05, 1.0, 3000)
        >>> res = SignedRankPosterior(z, "bb", 0.0, 0.0).normal_result(
        ...     20_000, 0, s=0.0, threshold=0.95, names=("a", "b"))
        >>> res.method, res.n_samples, res.mc_error < 0.004
        ('normal', 20000, True)
        """
        from nbstats.stats.bayes.signrank_normal import normal_draws

        out = normal_draws(self, s, n_samples, random_state)
        theta = out["theta"]
        upper = out.get("theta_upper", theta)
        tol = _HALF_TOLERANCE
        counts = np.zeros(10, dtype=np.int64)
        counts[0] = np.count_nonzero(theta > 0.5 + tol)
        counts[1] = np.count_nonzero(upper > 0.5 + tol)
        counts[2] = np.count_nonzero(upper < 0.5 - tol)
        counts[9] = np.count_nonzero(theta < 0.5 - tol)
        if self.rope > 0:
            for at, suffix in ((3, ""), (6, "_upper")):
                left = out.get(f"left{suffix}", out["left"])
                right = out.get(f"right{suffix}", out["right"])
                shares = region_shares(left, 1 - left - right, right)
                counts[at : at + 3] = np.round(shares * n_samples).astype(np.int64)
        return self._summarise(
            out,
            counts,
            s=s,
            threshold=threshold,
            names=names,
            interval=True,
            keep_regions=True,
            method="normal",
        )

    def _summarise(
        self,
        out: dict[str, np.ndarray],
        counts: np.ndarray,
        *,
        s: float,
        threshold: float,
        names: tuple[str, str],
        interval: bool,
        keep_regions: bool,
        method: str,
    ) -> BayesSignedRankResult:
        """The result from θ's (and the regions') draws and their counts
        (``[θ_lower > ½, θ_upper > ½, θ_upper < ½]``, the rope's winners of
        the lower and the upper posterior, ``θ_lower < ½``); mirrored for the
        caller's orientation when :attr:`mirrored`."""
        if self.mirrored:
            counts, out = mirror_counts(counts), mirror_draws(out)
        with_rope = self.rope > 0
        n_draws = out["theta"].size
        counts = counts / n_draws
        theta = out["theta"]
        theta_upper = out.get("theta_upper", theta)
        prob_lower, prob_upper = float(counts[0]), float(counts[1])
        prob_left, prob_right = float(counts[2]), prob_lower
        prob_rope = None
        regions = None
        if with_rope:
            if keep_regions:  # for plots; a matrix needs only the shares
                left, right = out["left"], out["right"]
                regions = np.column_stack([left, 1 - left - right, right])
            prob_left, prob_rope, prob_right = (float(p) for p in counts[3:6])
            prob_lower = prob_right
            prob_upper = float(counts[8]) if self.prior == "idp" else prob_right
        bounds = signrank_bounds(
            counts[:3], counts[3:9] if with_rope else None, idp=self.prior == "idp"
        )
        if interval:
            low, high = credible_interval(theta, theta_upper, threshold)
        else:
            low = high = float("nan")
        mean_lower, mean_upper = self.means(s)
        return BayesSignedRankResult(
            prior=self.prior,
            prob_left=prob_left,
            prob_rope=prob_rope,
            prob_right=prob_right,
            prob_lower=prob_lower,
            prob_upper=prob_upper,
            posterior_mean=mean_lower if self.prior != "idp" else float("nan"),
            posterior_mean_lower=mean_lower,
            posterior_mean_upper=mean_upper,
            samples=theta,
            samples_lower=theta,
            samples_upper=theta_upper,
            region_samples=regions,
            threshold=threshold,
            decision=decide(*bounds[0], threshold, upper=bounds[1]),
            credible_interval=(low, high),
            differs=bool(low > 0.5 or high < 0.5),
            s=s,
            z0=self.z0,
            rope=self.rope,
            n=int(np.asarray(self.z).size),
            name_a=names[0],
            name_b=names[1],
            n_samples=int(n_draws),
            mc_error=mc_error(
                [prob_lower, prob_upper, prob_left, prob_right, prob_rope], n_draws
            ),
            method=method,
        )


def credible_interval(
    theta: np.ndarray, theta_upper: np.ndarray, threshold: float
) -> tuple[float, float]:
    """The two-sided credible interval at level ``threshold``: from the lower
    posterior's draws ``theta`` and the upper one's (the same array for a
    single prior).

    Examples
    --------
    >>> theta = np.linspace(0, 1, 101)
    >>> credible_interval(theta, theta, 0.9)
    (0.05, 0.95)
    """
    tail = (1 - threshold) / 2
    if theta_upper is theta:  # one partition for both ends
        low, high = (float(q) for q in np.quantile(theta, [tail, 1 - tail]))
        return low, high
    return float(np.quantile(theta, tail)), float(np.quantile(theta_upper, 1 - tail))


def mirror_counts(counts: np.ndarray) -> np.ndarray:
    """The counts of :meth:`SignedRankPosterior._summarise` for the mirrored
    pair: θ' = 1 − θ with the lower and upper posteriors swapped, the rope's
    winners reversed (left ↔ right) and swapped.

    Examples
    --------
    >>> mirror_counts(np.arange(10)).tolist()
    [2, 9, 0, 8, 7, 6, 5, 4, 3, 1]
    """
    return np.asarray(counts)[[2, 9, 0, 8, 7, 6, 5, 4, 3, 1]]


def mirror_draws(out: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The draws of :meth:`SignedRankPosterior.combine` for the mirrored pair.

    Examples
    --------
    >>> draws = {"theta": np.array([0.2]), "theta_upper": np.array([0.3])}
    >>> mirrored = mirror_draws(draws)
    >>> mirrored["theta"].tolist(), mirrored["theta_upper"].tolist()
    ([0.7], [0.8])
    """
    mirrored = {"theta": 1.0 - out.get("theta_upper", out["theta"])}
    if "theta_upper" in out:
        mirrored["theta_upper"] = 1.0 - out["theta"]
    if "left" in out:
        mirrored["left"] = out.get("right_upper", out["right"])
        mirrored["right"] = out.get("left_upper", out["left"])
        if "left_upper" in out:
            mirrored["left_upper"] = out["right"]
            mirrored["right_upper"] = out["left"]
    return mirrored

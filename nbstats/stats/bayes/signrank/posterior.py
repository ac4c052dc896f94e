"""The signed-rank posterior of one pair: set up once, evaluated on draws.

:class:`SignedRankPosterior` holds what does not depend on the draws (the
sorted differences, the regions' boundaries, a point prior's positions);
:meth:`~SignedRankPosterior.components` evaluates its Walsh sums on a set of
:class:`~nbstats.stats.bayes.weights.DirichletWeights`, and
:meth:`~SignedRankPosterior.result` combines them for a prior strength s and
counts the draws (:mod:`nbstats.stats.bayes.signrank.bounds`) into a result
(:mod:`nbstats.stats.bayes.signrank.summary`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from nbstats.results.bayes import BayesSignedRankResult
from nbstats.stats.bayes.canonical import flipped
from nbstats.stats.bayes.signrank.summary import summarise
from nbstats.stats.bayes.signrank.sums import (
    _heaviside,
    posterior_means,
    shared_components,
)
from nbstats.stats.bayes.signrank.walsh import Region, WalshPlan
from nbstats.stats.bayes.weights import DirichletWeights, gamma_quantile
from nbstats.util.checks import check_choice, check_number, check_positive

__all__ = [
    "HALF_TOLERANCE",
    "Prior",
    "SignedRankPosterior",
    "canonical_posterior",
    "check_prior_place",
]

Prior = Literal["idp", "bb", "point"]

#: θ within this distance of ½ counts as exactly ½ (e.g. all differences zero,
#: where θ = ½ up to the rounding of the weights' sum)
HALF_TOLERANCE = 1e-12


def check_prior_place(prior: str, z0: float) -> float:
    """``z0`` (the public ``prior_at``) as a float, checked against
    ``prior``: only ``prior="point"`` places its pseudo-observation, and at a
    finite difference.

    >>> check_prior_place("point", 1)
    1.0
    """
    check_choice("prior", prior, ("idp", "bb", "point"))
    if isinstance(z0, (int, float, np.integer, np.floating)) and not np.isfinite(z0):
        raise ValueError(
            f"prior_at must be a finite number, got {z0!r}; for ±infinity "
            "use prior='idp'."
        )
    z0 = check_number("prior_at", z0)
    if prior != "point" and z0 != 0.0:
        raise ValueError(
            f"prior_at places the pseudo-observation of prior='point'; it has "
            f"no meaning for prior={prior!r}."
        )
    return z0


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
    #: :func:`~nbstats.stats.bayes.signrank.summary_kernel.prior_terms`, those
    #: are shared too
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
        rope = check_positive("rope", rope, allow_zero=True)
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
        z0 = check_prior_place(prior, z0)
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
        weights: DirichletWeights | None = None,
    ) -> tuple[dict[str, np.ndarray], np.ndarray]:
        """:meth:`combine` (the rope's regions only if ``store_regions``) and the
        draws' counts: ``[θ_lower > ½, θ_upper > ½, θ_upper < ½]`` then, with a
        rope, the region winners of the lower and the upper posterior (see
        :mod:`~nbstats.stats.bayes.signrank.summary_kernel`).

        The rope's regions are counted straight from their sums, so storing
        their draws is only for plots: a dashboard keeps every pair's result,
        and fresh memory for four more arrays per pair cost more (page
        faults) than the arithmetic. ``theta_draws`` (lower, upper) are θ's
        draws for this s under another rope, reused as they are.

        Under IDP with a rope the regions' bounds are the minimum and maximum
        over every placement of the prior's pseudo-observation
        (:mod:`~nbstats.stats.bayes.signrank.placements`), which needs the draws'
        ``weights`` (the per-case exponentials of the draws the sums were
        made from); without them (:meth:`combine`, which keeps no counts)
        those six counts are -1.
        """
        from nbstats.stats.bayes.signrank.summary_kernel import (
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
        counts[[0, 1, 2, 9]] = theta_counts(theta[0], theta[1], HALF_TOLERANCE)
        if self.rope > 0:
            if idp:
                counts[3:9] = -1
                if weights is not None:
                    counts[3:9] = self._placement_counts(
                        parts, weights, g0, inverse, extra
                    )
            else:
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

    def _placement_counts(
        self,
        parts: dict[str, np.ndarray],
        weights: DirichletWeights,
        g0: np.ndarray,
        inverse: np.ndarray,
        extra: np.ndarray,
    ) -> np.ndarray:
        """The rope's six counts under IDP: each region's fewest and most
        draws won over every placement of the pseudo-observation."""
        from nbstats.stats.bayes.signrank.placements import (
            placement_bounds,
            placement_counts,
            placement_states,
        )

        if weights.n_samples != parts["total"].size:
            raise ValueError(
                f"the weights hold {weights.n_samples} draws but the sums "
                f"{parts['total'].size}: give the draws the sums were made from."
            )
        states = placement_states(self._plan.sorted_z[None, :], self.rope)
        right = np.ascontiguousarray(parts["quad_right"])[None, :]
        left = np.ascontiguousarray(parts["quad_left"])[None, :]
        base, placed = placement_counts(
            weights, states, right, left, g0, inverse, extra
        )
        return placement_bounds(base, placed)[0]

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
        weights: DirichletWeights | None = None,
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
        rope does not recompute them. ``weights``: the draws behind a dict of
        components, needed under IDP with a rope (the bounds search every
        placement of the pseudo-observation, which needs each draw's
        weights, not only its sums).
        """
        if isinstance(draws, dict):
            parts = draws
            if self.prior == "idp" and self.rope > 0 and weights is None:
                raise ValueError(
                    "the near-ignorance bounds with a rope need the draws: pass "
                    "weights=the DirichletWeights the components were made from."
                )
        else:
            parts, weights = self.components(draws), draws
        # a matrix's results (no interval) need only θ's draws and the counts
        keep_regions = interval and region_samples
        out, counts = self._evaluate(
            parts,
            s,
            store_regions=keep_regions,
            theta_draws=theta_draws,
            weights=weights,
        )
        return summarise(
            self,
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
        posterior (:mod:`~nbstats.stats.bayes.signrank.normal`): O(n log n)
        set-up and O(1) per draw, for many cases.

        Examples
        --------
        >>> z = np.random.default_rng(1).normal(0.05, 1.0, 3000)
        >>> res = SignedRankPosterior(z, "bb", 0.0, 0.0).normal_result(
        ...     20_000, 0, s=0.0, threshold=0.95, names=("a", "b"))
        >>> res.method, res.n_samples, res.mc_error < 0.004
        ('normal', 20000, True)
        """
        from nbstats.stats.bayes.signrank.normal import normal_draws

        out = normal_draws(self, s, n_samples, random_state)
        theta = out["theta"]
        upper = out.get("theta_upper", theta)
        tol = HALF_TOLERANCE
        counts = np.zeros(10, dtype=np.int64)
        counts[0] = np.count_nonzero(theta > 0.5 + tol)
        counts[1] = np.count_nonzero(upper > 0.5 + tol)
        counts[2] = np.count_nonzero(upper < 0.5 - tol)
        counts[9] = np.count_nonzero(theta < 0.5 - tol)
        if self.rope > 0:
            from nbstats.stats.bayes.signrank.summary_kernel import rope_counts

            # the cases' shares (lower posterior's right, upper's left) and
            # the pseudo-observation's, as the Monte Carlo counts them
            low = np.ascontiguousarray(out.get("left_upper", out["left"]))
            high = np.ascontiguousarray(out["right"])
            extra = out.get("extra", np.zeros_like(high))
            ones, zeros = np.ones_like(high), np.zeros_like(high)
            idp = self.prior == "idp"
            counts[3:9] = rope_counts(
                high, low, high, low, zeros, ones, extra, 0.0, 0.0, False, idp
            )
        return summarise(
            self,
            out,
            counts,
            s=s,
            threshold=threshold,
            names=names,
            interval=True,
            keep_regions=True,
            method="normal",
        )


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

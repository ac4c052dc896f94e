"""Every pair's signed-rank posterior on one set of draws, summarised at once.

The Bayesian dashboard shows a decision for every pair of algorithms: 1225
pairs for 50 algorithms. What depends on the cases (the Walsh sums of each
pair, per draw) is computed once per (prior, rope) by
:func:`~nbstats.stats.bayes.signrank.shared_components` and kept as one
pairs × draws array per region. A new s, ε or threshold then costs one
compiled pass over those arrays (:func:`pair_counts`) that turns the sums into
θ's draws and counts them, for all pairs together — no per-pair Python, no
result objects, no stored θ draws. Only the pair that is shown gets a full
:class:`~nbstats.results.bayes.BayesSignedRankResult` (with its credible
interval and draws, for the plot).

The arithmetic per draw is that of
:func:`~nbstats.stats.bayes.summary_kernel.combine_region` and
:func:`~nbstats.stats.bayes.summary_kernel.theta_counts`, in the same order,
so every probability equals :func:`nbstats.bayes_signrank` on the same seed
bit for bit (tested).
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import numba
import numpy as np

from nbstats.results.bayes import BayesSignedRankResult
from nbstats.stats.bayes.shared_prior import SharedPrior
from nbstats.stats.bayes.signrank import SignedRankPosterior, shared_components
from nbstats.stats.bayes.summary_kernel import rope_counts
from nbstats.stats.bayes.weights import DirichletWeights

__all__ = ["PairPosteriors", "default_draws", "pair_counts"]

# θ within this distance of ½ counts as exactly ½ (as bayes_signrank)
HALF_TOLERANCE = 1e-12
#: Case-dependent sums kept for earlier (prior, rope) settings, bytes.
CACHE_BYTES = 256 * 2**20
#: Draws for up to this many pairs (10 algorithms) by default ...
FULL_PAIRS = 45
FULL_DRAWS = 50_000
#: ... and at least this many for more pairs (see :func:`default_draws`).
MIN_DRAWS = 5_000


def default_draws(n_algorithms: int) -> int:
    """Posterior draws for a dashboard of ``n_algorithms`` algorithms.

    50,000 draws up to 10 algorithms (45 pairs); beyond, the draws shrink so
    that pairs × draws stays at 45 × 50,000, rounded to thousands, but never
    below 5,000, whose Monte Carlo standard error of a probability is at most
    0.5/√5000 ≈ 0.007 (0.003 near a threshold of 0.95). That keeps every
    control of a 50-algorithm dashboard (1225 pairs) interactive.

    Examples
    --------
    >>> [default_draws(m) for m in (4, 10, 15, 20, 50, 100)]
    [50000, 50000, 21000, 12000, 5000, 5000]
    """
    pairs = n_algorithms * (n_algorithms - 1) // 2
    if pairs <= FULL_PAIRS:
        return FULL_DRAWS
    budget = FULL_PAIRS * FULL_DRAWS / pairs
    return int(max(MIN_DRAWS, 1000 * round(budget / 1000)))


@numba.njit(nogil=True, cache=True)
def pair_counts(
    quad: np.ndarray,
    cross: np.ndarray,
    g0: np.ndarray,
    scale: np.ndarray,
    extra: np.ndarray,
    steps: np.ndarray,
    point_prior: bool,
    idp: bool,
    tolerance: float,
    epsilon: float,
    out: np.ndarray,
) -> None:  # pragma: no cover - compiled; tested against bayes_signrank
    """θ's draws of every pair, counted without being stored.

    ``quad`` (and ``cross`` for the point prior) are pairs × draws Walsh sums
    of θ. Per pair k, ``out[k]`` gets the numbers of draws with θ_lower > ½,
    θ_upper > ½, θ_upper < ½ ("> ½" meaning above ½ + tolerance), and with
    |θ_lower − ½| < ε and |θ_upper − ½| < ε. θ_upper is θ_lower plus the
    prior's share ``extra`` under IDP, θ_lower itself otherwise.
    """
    n_pairs, n_draws = quad.shape
    for k in range(n_pairs):
        step = steps[k]
        above_lower = above_upper = below_upper = near_lower = near_upper = 0
        for r in range(n_draws):
            g = g0[r]
            value = (
                quad[k, r] + (2.0 * g * cross[k, r] + step * g * g)
                if point_prior
                else quad[k, r]
            )
            value = value / scale[r]
            upper = value + extra[r] if idp else value
            above_lower += value > 0.5 + tolerance
            above_upper += upper > 0.5 + tolerance
            below_upper += upper < 0.5 - tolerance
            near_lower += abs(value - 0.5) < epsilon
            near_upper += abs(upper - 0.5) < epsilon
        out[k, 0] = above_lower
        out[k, 1] = above_upper
        out[k, 2] = below_upper
        out[k, 3] = near_lower
        out[k, 4] = near_upper


@dataclass
class _Group:
    """The posteriors and pairs × draws sums of one (prior, rope)."""

    posteriors: list[SignedRankPosterior]
    arrays: dict[str, np.ndarray]
    steps: dict[str, np.ndarray] = field(default_factory=dict)

    def nbytes(self) -> int:
        return sum(a.nbytes for a in self.arrays.values())


class PairPosteriors:
    """The signed-rank posteriors of many pairs on shared draws, cached.

    Parameters
    ----------
    diffs : ndarray
        n cases × K pairs of differences (b − a, oriented: > 0 when b is
        better).
    draws : DirichletWeights
        The draws every pair shares.
    gammas : SharedPrior
        Memo of the Gamma(s) quantiles of the draws' uniforms.
    shared : dict
        ``"uniforms"`` and ``"total"`` arrays of the draws, shared with the
        joint statements (filled here if missing).

    Examples
    --------
    >>> from nbstats.stats.bayes.weights import DirichletWeights
    >>> diffs = np.array([[0.1, 0.2], [0.3, -0.1], [-0.05, 0.4]])
    >>> engine = PairPosteriors(diffs, DirichletWeights(3, 2000, 0), SharedPrior())
    >>> probs = engine.probabilities("bb", 0.0, 0.0, 0.05)
    >>> probs["prob_lower"].shape
    (2,)
    """

    def __init__(
        self,
        diffs: np.ndarray,
        draws: DirichletWeights,
        gammas: SharedPrior,
        shared: dict[str, np.ndarray] | None = None,
        *,
        cache_bytes: int = CACHE_BYTES,
    ) -> None:
        self.diffs = diffs
        self.draws = draws
        self.gammas = gammas
        self.shared: dict[str, np.ndarray] = {} if shared is None else shared
        self.cache_bytes = cache_bytes
        self.groups: OrderedDict[tuple[str, float], _Group] = OrderedDict()
        self._theta: tuple[tuple, np.ndarray] | None = None
        self._rope: tuple[tuple, np.ndarray] | None = None
        self._single: OrderedDict[tuple, tuple[SignedRankPosterior, dict]] = (
            OrderedDict()
        )

    @property
    def n_pairs(self) -> int:
        return int(self.diffs.shape[1])

    # -- per-case sums -----------------------------------------------------------

    def group(self, prior: str, rope: float) -> _Group:
        """The (prior, rope) sums of every pair, computed once and kept."""
        key = (prior, rope)
        if key in self.groups:
            self.groups.move_to_end(key)
            return self.groups[key]
        # θ does not depend on the rope, and the sums do not depend on the
        # prior but for the point prior's own terms: another setting's
        # posteriors lend their set-up and their sums
        found = next(
            (
                (key, g)
                for key, g in reversed(self.groups.items())
                if _same_sums(key[0], prior)
            ),
            None,
        )
        source = None if found is None else found[1]
        if found is not None:
            (source_prior, source_rope), source = found
            posteriors = source.posteriors
            if source_prior != prior:
                posteriors = [_with_prior(p, prior) for p in posteriors]
            if source_rope != rope:
                posteriors = [p.with_rope(rope) for p in posteriors]
        else:
            source_rope = None
            posteriors = [
                SignedRankPosterior(
                    self.diffs[:, k], prior, 0.0, rope, prior_gammas=self.gammas
                )
                for k in range(self.n_pairs)
            ]
        theta_keys = [
            k
            for k in ("quad_theta", "cross_theta")
            if k in (source.arrays if source is not None else {})
        ]
        arrays: dict[str, np.ndarray] = {}
        if source is not None and source_rope == rope:
            arrays = dict(source.arrays)
        elif source is not None and rope == 0:
            arrays = {k: source.arrays[k] for k in theta_keys}
        else:
            known = None
            if source is not None:
                known = [
                    {k: source.arrays[k][i] for k in theta_keys}
                    for i in range(self.n_pairs)
                ]
            parts = shared_components(posteriors, self.draws, known_theta=known)
            self._share(parts[0])
            for name in parts[0]:
                if name.startswith(("quad_", "cross_")):
                    if known is not None and name in theta_keys:
                        arrays[name] = source.arrays[name]
                    else:
                        arrays[name] = _stack_rows(parts, name)
        group = _Group(posteriors, arrays)
        for region in posteriors[0]._regions:
            group.steps[region] = np.array(
                [_step(p, region) for p in posteriors], dtype=float
            )
        self.groups[key] = group
        self._evict()
        return group

    def _share(self, parts: dict[str, np.ndarray]) -> None:
        """Keep one copy of the draws' uniforms and totals (same draws)."""
        for name in ("uniforms", "total"):
            known = self.shared.get(name)
            if known is None or not np.array_equal(known, parts[name]):
                self.shared[name] = parts[name]
        self.gammas.uniforms = self.shared["uniforms"]
        self.gammas.total = self.shared["total"]

    def _evict(self) -> None:
        """Forget the oldest settings beyond the memory budget (never the last)."""
        while (
            len(self.groups) > 1
            and sum(g.nbytes() for g in self.groups.values()) > self.cache_bytes
        ):
            self.groups.popitem(last=False)

    # -- summaries ---------------------------------------------------------------

    def _terms(self, s: float) -> tuple[np.ndarray, ...]:
        uniforms, total = self.shared["uniforms"], self.shared["total"]
        g0 = np.asarray(self.gammas(s, uniforms), dtype=float)
        scale, inverse, extra = self.gammas.terms(s, uniforms, total)
        return g0, scale, inverse, extra

    def probabilities(
        self, prior: str, s: float, rope: float, epsilon: float
    ) -> dict[str, np.ndarray]:
        """Every pair's probabilities, as :meth:`SignedRankPosterior.result`.

        Keys ``prob_lower``, ``prob_upper``, ``prob_left``, ``prob_rope``
        (NaN without a rope), ``prob_right`` and ``prob_equivalent``
        (P(|θ − ½| < ε), the smaller of the lower and upper posterior's).
        """
        group = self.group(prior, rope)
        n_draws = self.draws.n_samples
        idp, point = prior == "idp", prior == "point"
        theta_key = (prior, s, epsilon)
        if self._theta is None or self._theta[0] != theta_key:
            g0, scale, _, extra = self._terms(s)
            quad = group.arrays["quad_theta"]
            counts = np.empty((self.n_pairs, 5), dtype=np.int64)
            pair_counts(
                quad,
                group.arrays["cross_theta"] if point else quad,
                g0,
                scale,
                extra,
                group.steps["theta"],
                point,
                idp,
                HALF_TOLERANCE,
                float(epsilon),
                counts,
            )
            self._theta = (theta_key, counts)
        counts = self._theta[1] / n_draws
        out = {
            "prob_lower": counts[:, 0],
            "prob_upper": counts[:, 1],
            "prob_left": counts[:, 2],
            "prob_rope": np.full(self.n_pairs, np.nan),
            "prob_right": counts[:, 0],
            "prob_equivalent": np.minimum(counts[:, 3], counts[:, 4]),
        }
        if rope > 0:
            shares = self._rope_counts(group, prior, s, rope) / n_draws
            out["prob_left"] = shares[:, 0]
            out["prob_rope"] = shares[:, 1]
            out["prob_right"] = out["prob_lower"] = shares[:, 2]
            out["prob_upper"] = shares[:, 5] if idp else shares[:, 2]
        return out

    def _rope_counts(
        self, group: _Group, prior: str, s: float, rope: float
    ) -> np.ndarray:
        key = (prior, s, rope)
        if self._rope is None or self._rope[0] != key:
            g0, _, inverse, extra = self._terms(s)
            point = prior == "point"
            a = group.arrays
            right, left = a["quad_right"], a["quad_left"]
            cross_right = a["cross_right"] if point else right
            cross_left = a["cross_left"] if point else left
            steps_right, steps_left = group.steps["right"], group.steps["left"]
            counts = np.empty((self.n_pairs, 6), dtype=np.int64)
            for k in range(self.n_pairs):
                counts[k] = rope_counts(
                    right[k],
                    left[k],
                    cross_right[k],
                    cross_left[k],
                    g0,
                    inverse,
                    extra,
                    float(steps_right[k]),
                    float(steps_left[k]),
                    point,
                    prior == "idp",
                )
            self._rope = (key, counts)
        return self._rope[1]

    # -- one pair in full -------------------------------------------------------

    def result(
        self,
        k: int | None,
        prior: str,
        s: float,
        rope: float,
        threshold: float,
        names: tuple[str, str],
        diff: np.ndarray | None = None,
    ) -> BayesSignedRankResult:
        """The full result (interval, draws) of pair k, or of ``diff`` (a pair
        the matrix holds the other way round), on the shared draws."""
        if k is not None:
            group = self.group(prior, rope)
            posterior = group.posteriors[k]
            parts = {name: array[k] for name, array in group.arrays.items()}
        else:
            posterior, parts = self._single_parts(diff, names, prior, rope)
        parts["uniforms"] = self.shared["uniforms"]
        parts["total"] = self.shared["total"]
        return posterior.result(parts, s=s, threshold=threshold, names=names)

    def _single_parts(
        self, diff: Any, names: tuple[str, str], prior: str, rope: float
    ) -> tuple[SignedRankPosterior, dict]:
        key = (names, prior, rope)
        if key not in self._single:
            posterior = SignedRankPosterior(
                np.asarray(diff, dtype=float),
                prior,
                0.0,
                rope,
                prior_gammas=self.gammas,
            )
            parts = shared_components([posterior], self.draws)[0]
            self._share(parts)
            self._single[key] = (posterior, parts)
            if len(self._single) > 8:
                self._single.popitem(last=False)
        posterior, parts = self._single[key]
        return posterior, dict(parts)


def _same_sums(prior: str, other: str) -> bool:
    """Whether two priors' posteriors have the same per-case sums: the same
    prior, or IDP and the Bayesian bootstrap (neither has a pseudo-observation
    among the cases; the prior's weight enters only when the sums are
    combined)."""
    return prior == other or {prior, other} == {"idp", "bb"}


def _with_prior(posterior: SignedRankPosterior, prior: str) -> SignedRankPosterior:
    """The same posterior under another prior with the same sums (IDP ↔ the
    Bayesian bootstrap): its sorted differences and regions are shared, not
    set up again, as :meth:`SignedRankPosterior.with_rope` shares them for a
    new rope. Tested equal to a posterior built afresh (through
    :func:`nbstats.bayes_signrank`)."""
    other = object.__new__(SignedRankPosterior)
    for name in ("z", "z0", "rope", "prior_gammas"):
        object.__setattr__(other, name, getattr(posterior, name))
    object.__setattr__(other, "prior", prior)
    for name in ("_plan", "_regions", "_points", "_walsh_sum"):
        object.__setattr__(other, name, getattr(posterior, name))
    return other


def _step(posterior: SignedRankPosterior, region: str) -> float:
    """The point prior's own term in a region, as ``_evaluate`` computes it."""
    r = posterior._regions[region]
    return float(np.heaviside(r.sign * 2 * posterior.z0 - r.c, 0.5))


def _stack_rows(parts: list[dict[str, np.ndarray]], name: str) -> np.ndarray:
    """The pairs' rows of one sum as a pairs × draws array, without a copy
    when they are already rows of one array (as shared_components makes them)."""
    first = parts[0][name]
    base = first.base
    if base is not None and base.ndim == 3 and base.shape[0] == len(parts):
        for q in range(base.shape[1]):
            view = base[:, q, :]
            if view.shape[1] == first.size and all(
                part[name].ctypes.data == view[k].ctypes.data
                and part[name].strides == view[k].strides
                for k, part in enumerate(parts)
            ):
                return view
    return np.stack([part[name] for part in parts])

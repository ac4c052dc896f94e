"""Every pair's signed-rank posterior on one set of draws, summarised at once.

The Bayesian dashboard shows a decision for every pair of algorithms: 1225
pairs for 50 algorithms. What depends on the cases (the Walsh sums of each
pair, per draw) is computed once per (prior, rope) by
:class:`~nbstats.stats.bayes.signrank.pair_sums.PairSums` and kept as one
pairs × draws array per region. A new s, ε or threshold then costs one
compiled pass over those arrays (:func:`pair_counts`) that turns the sums into
θ's draws and counts them, for all pairs together — no per-pair Python, no
result objects, no stored θ draws. Only the pair that is shown gets a full
:class:`~nbstats.results.bayes.BayesSignedRankResult` (with its credible
interval and draws, for the plot).

The arithmetic per draw is that of
:func:`~nbstats.stats.bayes.signrank.summary_kernel.combine_region` and
:func:`~nbstats.stats.bayes.signrank.summary_kernel.theta_counts`, in the same order,
so every probability equals :func:`nbstats.bayes_signrank` on the same seed
bit for bit (tested): each pair is drawn in its canonical orientation
(:mod:`nbstats.stats.bayes.canonical`) and mirrored when the dashboard shows
it the other way round, as that function does. The compiled passes and the
block-by-block engine are :mod:`nbstats.stats.bayes.signrank.pair_kernel` and
:mod:`nbstats.stats.bayes.signrank.blocks`, shared with
:func:`nbstats.bayes_signrank_pairs`.

Memory: the sums of a (prior, rope) are kept only when they fit the cache
together (half the memory ceiling of :mod:`nbstats.util.memory`,
``NBSTATS_MAX_MEMORY``; :meth:`PairPosteriors.fits`); beyond (e.g. 200
algorithms: 19,900 pairs × 5,000 draws, 800 MB per region; or 100 algorithms
with a rope), every change of that setting recomputes the counts block by
block within the ceiling — slower, the same numbers.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field

import numpy as np

from nbstats.results.bayes import BayesSignedRankResult
from nbstats.stats.bayes.canonical import flipped_many
from nbstats.stats.bayes.shared_prior import SharedPrior
from nbstats.stats.bayes.signrank.blocks import PairBlocks, mirror_rows
from nbstats.stats.bayes.signrank.bounds import signrank_bounds_many
from nbstats.stats.bayes.signrank.one_pair import SignedRankPosterior, shared_components
from nbstats.stats.bayes.signrank.pair_kernel import pair_counts, pair_rope_counts
from nbstats.stats.bayes.signrank.pair_sums import PairSums, in_halves, rope_regions
from nbstats.stats.bayes.signrank.placement_kernel import unsettled_count
from nbstats.stats.bayes.signrank.placements import (
    MARGIN,
    placement_bounds,
    placement_counts,
    placement_states,
)
from nbstats.stats.bayes.weights import DirichletWeights
from nbstats.util.memory import budget, trim_heap
from nbstats.util.recent import Recent

__all__ = ["PairPosteriors", "pair_counts"]

# θ within this distance of ½ counts as exactly ½ (as bayes_signrank)
HALF_TOLERANCE = 1e-12
#: Share of the memory ceiling (:mod:`nbstats.util.memory`) for the
#: case-dependent sums of the last rope and the point prior (256 MiB of
#: the default 512).
CACHE_SHARE = 0.5
#: Counts kept per setting ((prior, s, ε) for θ, (prior, s, rope) for the
#: rope): pairs × 6 integers each, so that going back to a setting (another
#: prior and back) counts nothing again.
KEEP_COUNTS = 16
#: Pairs whose posterior (the pair shown in full) is kept.
KEEP_PAIRS = 8
#: Share of the memory ceiling a block of pairs' sums may take when a
#: setting's sums are not kept (32 MiB of the default 512): they are made
#: beside the kept ones, and smaller blocks cost little.
STREAM_SHARE = 1 / 16
#: Evaluations of the pairs at their placement states (unsettled draws ×
#: states, estimated) from which :meth:`PairPosteriors.idp_bounds_quick`
#: says no, about 10 ms of counting on two processors: at 50 algorithms and
#: s = 20 the exact IDP bounds evaluate about 7.7·10⁸ (300 ms), at the
#: default s 8 % of that (45 ms, a third of a change's time); the dashboard
#: then computes them in the background.
QUICK_PLACEMENTS = 25_000_000
#: Pairs whose draws are sampled to estimate that work.
SAMPLED_PAIRS = 32
#: Pairs × draws × states per block of the exact IDP bounds: a background
#: count checks between blocks whether it is still wanted.
PLACEMENT_BLOCK = 100_000_000


@dataclass
class _Group:
    """The pairs × draws sums of one (prior, rope), as views of cached arrays."""

    arrays: dict[str, np.ndarray]
    steps: dict[str, np.ndarray] = field(default_factory=dict)


class PairPosteriors:
    """The signed-rank posteriors of many pairs on shared draws, cached.

    Parameters
    ----------
    diffs : ndarray
        n cases × K pairs of differences (b − a, oriented: > 0 when b is
        better).
    names : list of (str, str), optional
        Each pair's (a, b), for the rare ties of the canonical orientation
        (:func:`~nbstats.stats.bayes.canonical.flipped`).
    draws : DirichletWeights
        The draws every pair shares.
    gammas : SharedPrior
        Memo of the Gamma(s) quantiles of the draws' uniforms.
    shared : dict
        ``"uniforms"`` and ``"total"`` arrays of the draws, shared with the
        joint statements (filled here if missing).
    cache_bytes : int, optional
        Memory for the sums of the rope and of the point prior (default:
        half the memory ceiling).

    Notes
    -----
    The sums are kept by what they depend on: θ's on nothing but the draws
    (computed once), the rope's two regions on the rope, the point prior's
    cross terms on the rope. IDP and the Bayesian bootstrap need no cross
    terms, and the point prior's quadratic sums are theirs, so a change of
    prior computes at most the cross terms (one prefix sum per draw for all
    pairs). No per-pair object is made for the matrix; the pair shown in
    full gets its :class:`~nbstats.stats.bayes.signrank.one_pair.SignedRankPosterior`
    when asked. The rope's sums and the cross terms are kept for the last
    rope only: a new rope writes into the previous one's arrays rather than
    fresh memory (page faults made the first rope changes slower).

    Examples
    --------
    >>> from nbstats.stats.bayes.weights import DirichletWeights
    >>> diffs = np.array([[0.1, 0.2], [0.3, -0.1], [-0.05, 0.4]])
    >>> engine = PairPosteriors(diffs, DirichletWeights(3, 2000, 0), SharedPrior(),
    ...                         names=[("a", "b"), ("a", "c")])
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
        names: list[tuple[str, str]] | None = None,
        cache_bytes: int | None = None,
    ) -> None:
        diffs = np.asarray(diffs, dtype=float)
        if names is None:
            names = [("a", "b")] * diffs.shape[1]
        self.names = names
        # every pair drawn in its canonical orientation, mirrored when shown
        self.flip = flipped_many(diffs, names)
        self.diffs = np.where(self.flip, -diffs, diffs)
        self.draws = draws
        self.gammas = gammas
        self.shared: dict[str, np.ndarray] = {} if shared is None else shared
        self.cache_bytes = budget(CACHE_SHARE) if cache_bytes is None else cache_bytes
        # θ's sums kept for every pair only when they fit the cache; else
        # every change counts block by block (bounded memory, more time)
        self.streaming = 8 * self.n_pairs * draws.n_samples > self.cache_bytes
        self.sums = None if self.streaming else PairSums(self.diffs, draws)
        self._quad_theta: np.ndarray | None = None
        # ("rope", rope) → K × 2 × draws; ("cross", rope) → K × R × draws
        self._cache: OrderedDict[tuple[str, float], np.ndarray] = OrderedDict()
        self._free: list[np.ndarray] = []
        self._theta: tuple[tuple, np.ndarray] | None = None  # streamed
        # the counts of recent settings (no sums: pairs × 6 each)
        self._theta_counts: Recent[np.ndarray] = Recent(KEEP_COUNTS)
        self._rope_counts_kept: Recent[np.ndarray] = Recent(KEEP_COUNTS)
        self._placement_states: tuple[float, np.ndarray] | None = None
        self._posteriors: Recent[SignedRankPosterior] = Recent(KEEP_PAIRS)
        self._single: Recent[tuple[SignedRankPosterior, dict]] = Recent(KEEP_PAIRS)
        #: held by every public method: a background count of the IDP
        #: bounds (:meth:`count_idp_bounds`) takes it only to start and end
        self.lock = threading.RLock()
        # that count, while it reads a kept array of sums without the lock
        self._reader: _Reader | None = None

    @property
    def n_pairs(self) -> int:
        return int(self.diffs.shape[1])

    # -- per-case sums -----------------------------------------------------------

    def fits(self, prior: str, rope: float) -> bool:
        """Whether the sums of (prior, rope) fit the cache together: θ's, the
        rope's two regions, and under the point prior a cross term for each.
        When they do not (at 100 algorithms the point prior's with a rope
        would take 1.2 GB), that setting's counts are made block by block,
        as when nothing is kept: the same numbers, within the ceiling."""
        if self.streaming:
            return False
        regions = 3 if rope > 0 else 1
        if prior == "point":
            regions *= 2
        return 8 * self.n_pairs * self.draws.n_samples * regions <= self.cache_bytes

    def group(self, prior: str, rope: float) -> _Group:
        """The (prior, rope) sums of every pair (computed once and kept)."""
        arrays = {"quad_theta": self._theta_sums()}
        keys = ["theta"]
        if rope > 0:
            both = self._cached(("rope", rope), 2, self._rope_sums)
            arrays["quad_right"], arrays["quad_left"] = both[:, 0], both[:, 1]
            keys += ["right", "left"]
        if prior == "point":
            cross = self._cached(("cross", rope), len(keys), self._cross_sums)
            for q, key in enumerate(keys):
                arrays[f"cross_{key}"] = cross[:, q]
        group = _Group(arrays)
        specs = [(+1, 0.0), *rope_regions(rope)]
        for key, (sign, c) in zip(keys, specs, strict=True):
            # the point prior's own term (z0 = 0), as SignedRankPosterior's
            step = float(np.heaviside(sign * 2 * 0.0 - c, 0.5))
            group.steps[key] = np.full(self.n_pairs, step)
        return group

    def _theta_sums(self) -> np.ndarray:
        if self._quad_theta is None:
            out = np.empty((self.n_pairs, 1, self.draws.n_samples))
            total, uniforms = self.sums.quads([(+1, 0.0)], out)
            self._share(total, uniforms)
            self._quad_theta = out[:, 0]
        return self._quad_theta

    def _rope_sums(self, key: tuple[str, float], out: np.ndarray) -> None:
        self.sums.quads(rope_regions(key[1]), out)

    def _cross_sums(self, key: tuple[str, float], out: np.ndarray) -> None:
        self.sums.crosses([(+1, 0.0), *rope_regions(key[1])], out)

    def _cached(self, key: tuple[str, float], n_regions: int, compute) -> np.ndarray:
        """The cached array of ``key``, or a new one (in the buffer of a
        forgotten setting when one fits) filled by ``compute(key, out)``."""
        if key in self._cache:
            self._cache.move_to_end(key)
            return self._cache[key]
        shape = (self.n_pairs, n_regions, self.draws.n_samples)
        need = 8 * int(np.prod(shape))
        # one setting of each kind: a slider's next rope reuses the last
        # one's buffer (fresh memory costs page faults: the first rope
        # changes were slower than the later ones with two kept); then the
        # oldest beyond the budget, never what the group being built uses
        for old in [k for k in self._cache if k[0] == key[0]]:
            self._release(self._cache.pop(old))
        for old in [k for k in self._cache if k[1] != key[1]]:
            if self._nbytes() + need <= self.cache_bytes:
                break
            self._release(self._cache.pop(old))
        out = next((a for a in self._free if a.shape == shape), None)
        if out is None:
            out = np.empty(shape)
        else:
            self._free = [a for a in self._free if a is not out]
        self._free = self._free[-2:]  # a few spare buffers, no more
        compute(key, out)
        self._cache[key] = out
        trim_heap()  # the passes' blocks, freed: given back, not kept
        return out

    def _release(self, array: np.ndarray) -> None:
        """A forgotten setting's array, to be written again: first stop a
        background count reading it (it is no longer wanted)."""
        reader = self._reader
        if reader is not None and reader.array is array:
            reader.cancel.set()
            reader.done.wait()
        self._free.append(array)

    def _nbytes(self) -> int:
        return sum(a.nbytes for a in self._cache.values())

    def _share(self, total: np.ndarray, uniforms: np.ndarray) -> None:
        """Keep one copy of the draws' uniforms and totals (same draws)."""
        for name, value in (("uniforms", uniforms), ("total", total)):
            known = self.shared.get(name)
            if known is None or not np.array_equal(known, value):
                self.shared[name] = value
        self.gammas.uniforms = self.shared["uniforms"]
        self.gammas.total = self.shared["total"]

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

        Keys ``prob_lower``, ``prob_upper`` (P(b better), lower and upper),
        ``prob_left``, ``prob_rope`` (NaN without a rope), ``prob_right``
        (lower), as :class:`~nbstats.results.bayes.BayesSignedRankResult`;
        ``prob_left_upper``, ``prob_rope_upper`` (their upper bounds over the
        IDP's priors; equal to the lower under a single prior);
        ``prob_equivalent`` (P(|θ − ½| < ε), the smaller of the lower and
        upper posterior's: ε-indistinguishability, not the rope); and
        ``bounds``, the lower and upper (left, rope, right) that decide
        (:func:`~nbstats.stats.bayes.decision.signrank_bounds_many`).
        """
        n_draws = self.draws.n_samples
        idp = prior == "idp"
        with self.lock:
            counts, near = self._counts(prior, s, rope, epsilon)
        # canonical → the dashboard's orientation (b − a in column order)
        counts = mirror_rows(counts, self.flip) / n_draws
        near = near / n_draws
        regions = counts[:, 3:9] if rope > 0 else None
        # the lower and upper (left, rope, right), as bayes_signrank decides
        low, high = signrank_bounds_many(counts[:, [0, 1, 2, 9]], regions, idp=idp)
        out = {
            "prob_lower": low[2],
            "prob_upper": high[2],
            "prob_left": counts[:, 2],
            "prob_rope": np.full(self.n_pairs, np.nan),
            "prob_right": low[2],
            # |θ − ½| < ε is symmetric: the mirror swaps lower and upper only
            "prob_equivalent": np.minimum(near[:, 0], near[:, 1]),
            "prob_left_upper": high[0],
            "prob_rope_upper": high[1],
            "bounds": (low, high),
        }
        if regions is not None:  # the lower posterior's, as bayes_signrank's
            out["prob_left"], out["prob_rope"] = regions[:, 0], regions[:, 1]
        return out

    def _counts(
        self, prior: str, s: float, rope: float, epsilon: float
    ) -> tuple[np.ndarray, np.ndarray]:
        """Canonical counts (pairs × 10, see
        :meth:`~nbstats.stats.bayes.signrank.blocks.PairBlocks.counts`) and the
        draws near ½ (pairs × 2)."""
        if not self.fits(prior, rope):
            return self._streamed(prior, s, rope, epsilon)
        group = self.group(prior, rope)
        idp, point = prior == "idp", prior == "point"
        theta_key = (prior, s, epsilon)
        theta = self._theta_counts.get(theta_key)
        if theta is None:
            g0, scale, _, extra = self._terms(s)
            quad = group.arrays["quad_theta"]
            counts = np.empty((self.n_pairs, 6), dtype=np.int64)
            cross = group.arrays["cross_theta"] if point else quad
            steps = group.steps["theta"]

            def count(a: int, b: int) -> None:
                pair_counts(
                    quad[a:b], cross[a:b], g0, scale, extra, steps[a:b], point,
                    idp, HALF_TOLERANCE, float(epsilon), counts[a:b],
                )  # fmt: skip

            in_halves(count, self.n_pairs, quad.size)
            theta = self._theta_counts.put(theta_key, _read_only(counts))
        full = np.zeros((self.n_pairs, 10), dtype=np.int64)
        full[:, :3], full[:, 9] = theta[:, :3], theta[:, 5]
        if rope > 0:
            full[:, 3:9] = self._rope_counts(group, prior, s, rope)
        return full, theta[:, 3:5]

    def _streamed(
        self, prior: str, s: float, rope: float, epsilon: float
    ) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`_counts` without keeping any sums: the pairs in blocks within
        :data:`STREAM_SHARE` of the memory ceiling, their sums made and
        counted."""
        key = (prior, s, rope, epsilon)
        if self._theta is None or self._theta[0] != key:
            engine = PairBlocks(self.draws, prior, 0.0, rope, s, self.gammas)
            regions = len(engine.regions) * (2 if prior == "point" else 1)
            per_pair = 8 * self.draws.n_samples * regions
            size = max(1, budget(STREAM_SHARE) // per_pair)
            full = np.empty((self.n_pairs, 10), dtype=np.int64)
            near = np.empty((self.n_pairs, 2), dtype=np.int64)
            for start in range(0, self.n_pairs, size):
                block = slice(start, start + size)
                parts = engine.sums(self.diffs[:, block], 0.0)
                self._share(parts["total"], parts["uniforms"])
                full[block], near[block] = engine.counts(parts, epsilon)
                del parts
            trim_heap()  # the blocks' sums, freed: given back, not kept
            self._theta = (key, (full, near))
        return self._theta[1]

    def _rope_counts(
        self, group: _Group, prior: str, s: float, rope: float
    ) -> np.ndarray:
        key = (prior, s, rope)
        kept = self._rope_counts_kept.get(key)
        if kept is None:
            g0, _, inverse, extra = self._terms(s)
            point = prior == "point"
            a = group.arrays
            right, left = a["quad_right"], a["quad_left"]
            cross_right = a["cross_right"] if point else right
            cross_left = a["cross_left"] if point else left
            counts = np.empty((self.n_pairs, 6), dtype=np.int64)
            steps_right, steps_left = group.steps["right"], group.steps["left"]

            def count(a: int, b: int) -> None:
                pair_rope_counts(
                    right[a:b], left[a:b], cross_right[a:b], cross_left[a:b], g0,
                    inverse, extra, steps_right[a:b], steps_left[a:b], point,
                    prior == "idp", counts[a:b],
                )  # fmt: skip

            if prior == "idp":  # every placement of the pseudo-observation
                counts = self._placement_bounds(
                    self._states(rope), right, left, (g0, inverse, extra)
                )
            else:
                in_halves(count, self.n_pairs, right.size)
            kept = self._rope_counts_kept.put(key, _read_only(counts))
        return kept

    def _states(self, rope: float) -> np.ndarray:
        """Every pair's placement states for ``rope`` (kept for the last rope:
        a new s needs them again)."""
        if self._placement_states is None or self._placement_states[0] != rope:
            states = placement_states(self.sums.sorted, rope)
            self._placement_states = (rope, states)
        return self._placement_states[1]

    def _placement_bounds(
        self,
        states: np.ndarray,
        right: np.ndarray,
        left: np.ndarray,
        terms: tuple[np.ndarray, np.ndarray, np.ndarray],
        cancel: threading.Event | None = None,
    ) -> np.ndarray | None:
        """Every pair's exact IDP counts of the rope's regions (pairs × 6,
        :func:`~nbstats.stats.bayes.signrank.placements.placement_bounds`),
        in blocks of pairs; None if ``cancel`` was set between two blocks."""
        g0, inverse, extra = terms
        k, width = states.shape[0], states.shape[1]
        size = max(1, PLACEMENT_BLOCK // (self.draws.n_samples * width))
        counts = np.empty((k, 6), dtype=np.int64)
        for start in range(0, k, size):
            if cancel is not None and cancel.is_set():
                return None
            block = slice(start, start + size)
            found = placement_counts(
                self.draws, states[block], right[block], left[block], g0,
                inverse, extra,
            )  # fmt: skip
            counts[block] = placement_bounds(*found)
        return counts

    # -- the exact IDP bounds, later -----------------------------------------------

    def idp_bounds_quick(self, s: float, rope: float) -> bool:
        """Whether the pairs' exact IDP bounds at (s, rope) are quick: kept,
        no rope, sums not kept (counted block by block anyway), or an
        estimated work under :data:`QUICK_PLACEMENTS` — the draws that no
        quick check settles (on :data:`SAMPLED_PAIRS` pairs; see
        :func:`~nbstats.stats.bayes.signrank.placement_kernel.unsettled_count`)
        times the pairs' placement states.
        Computes the rope's sums if they are missing (the pair shown needs
        them too)."""
        with self.lock:
            if rope <= 0 or not self.fits("idp", rope):
                return True
            if ("idp", s, rope) in self._rope_counts_kept:
                return True
            group = self.group("idp", rope)
            _, _, inverse, extra = self._terms(s)
            sample = np.unique(np.linspace(0, self.n_pairs - 1, SAMPLED_PAIRS))
            sample = sample.astype(np.int64)
            unsettled = unsettled_count(
                group.arrays["quad_right"][sample], group.arrays["quad_left"][sample],
                inverse, extra, MARGIN,
            )  # fmt: skip
            share = unsettled / (sample.size * self.draws.n_samples)
            states = self._states(rope)
            work = share * self.n_pairs * self.draws.n_samples * states.shape[1]
            return work <= QUICK_PLACEMENTS

    def count_idp_bounds(self, s: float, rope: float) -> bool:
        """Count the pairs' exact IDP bounds at (s, rope) and keep them, with
        the engine's lock held only to start and to keep them (a background
        thread's work: the controls stay live meanwhile). False if a change
        of the rope overwrote the sums before the end (then nothing is kept).
        Without a rope, or when the sums do not fit the cache, there is
        nothing to do ahead: the matrix counts them block by block."""
        key = ("idp", s, rope)
        with self.lock:
            if rope <= 0 or not self.fits("idp", rope):
                return True
            if key in self._rope_counts_kept:
                return True
            group = self.group("idp", rope)
            right, left = group.arrays["quad_right"], group.arrays["quad_left"]
            g0, _, inverse, extra = self._terms(s)
            states = self._states(rope)
            reader = _Reader(self._cache[("rope", rope)])
            self._reader = reader
        try:
            counts = self._placement_bounds(
                states, right, left, (g0, inverse, extra), reader.cancel
            )
        finally:
            reader.done.set()
        with self.lock:
            if self._reader is reader:
                self._reader = None
            if counts is None:
                return False
            self._rope_counts_kept.put(key, _read_only(counts))
        return True

    # -- one pair in full -------------------------------------------------------

    def result(
        self,
        k: int,
        prior: str,
        s: float,
        rope: float,
        threshold: float,
        names: tuple[str, str],
        reverse: bool = False,
    ) -> BayesSignedRankResult:
        """The full result (interval, draws) of pair k on the shared draws;
        ``reverse``: asked as (b, a), the mirror of the matrix's (a, b)."""
        mirrored = bool(self.flip[k]) != bool(reverse)
        with self.lock:
            if self.fits(prior, rope):
                group = self.group(prior, rope)
                posterior = self._posterior(k, prior, rope)
                parts = {name: array[k] for name, array in group.arrays.items()}
            else:
                posterior, parts = self._single_parts(k, prior, rope)
            parts["uniforms"] = self.shared["uniforms"]
            parts["total"] = self.shared["total"]
            posterior = posterior.with_mirrored(mirrored)
            return posterior.result(
                parts, s=s, threshold=threshold, names=names, weights=self.draws
            )

    def _posterior(self, k: int, prior: str, rope: float) -> SignedRankPosterior:
        """Pair k's canonical posterior, made when first shown (the matrix
        needs none)."""
        base = self._posteriors.get(k)
        if base is None:
            base = SignedRankPosterior(
                self.diffs[:, k], "bb", 0.0, 0.0, prior_gammas=self.gammas
            )
            self._posteriors.put(k, base)
        posterior = base.with_prior(prior)
        return posterior.with_rope(rope) if rope > 0 else posterior

    def _single_parts(
        self, k: int, prior: str, rope: float
    ) -> tuple[SignedRankPosterior, dict]:
        """Pair k's canonical posterior and sums alone (when the matrix keeps
        no sums)."""
        key = (k, prior, rope)
        found = self._single.get(key)
        if found is None:
            posterior = SignedRankPosterior(
                self.diffs[:, k], prior, 0.0, rope, prior_gammas=self.gammas
            )
            parts = shared_components([posterior], self.draws)[0]
            self._share(parts["total"], parts["uniforms"])
            found = self._single.put(key, (posterior, parts))
        posterior, parts = found
        return posterior, dict(parts)


class _Reader:
    """A background count reading a kept ``array`` without the engine's
    lock: ``cancel`` asks it to stop, ``done`` says it has."""

    def __init__(self, array: np.ndarray) -> None:
        self.array = array
        self.cancel = threading.Event()
        self.done = threading.Event()


def _read_only(counts: np.ndarray) -> np.ndarray:
    """``counts``, made read-only: callers share the kept counts."""
    counts.setflags(write=False)
    return counts

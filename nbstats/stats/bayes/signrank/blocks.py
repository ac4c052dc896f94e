"""Signed-rank posteriors of many pairs on one set of draws, block by block.

The one engine behind :func:`nbstats.bayes_signrank` (:meth:`PairBlocks.result`,
one pair in full), :func:`nbstats.bayes_signrank_pairs`
(:meth:`PairBlocks.table`, any number of pairs within the memory ceiling)
and the Bayesian dashboard's pair matrix (:meth:`PairBlocks.counts` on kept
sums): a block of pairs is drawn in each pair's canonical
orientation (:mod:`~nbstats.stats.bayes.canonical`), its Walsh sums come from
:class:`~nbstats.stats.bayes.signrank.pair_sums.PairSums` (every pair's set-up in one
compiled call, no per-pair object), and the compiled passes of
:mod:`~nbstats.stats.bayes.signrank.pair_kernel` count each pair's draws without
storing them. Pairs whose canonical orientation is (b, a) are mirrored back
(:func:`mirror_rows`). Every count, probability, interval and mean equals
:func:`nbstats.bayes_signrank` on the same pair and seed bit for bit: the
same sums, the same per-draw arithmetic in the same order (tested).

Memory: a block's sums are pairs × regions × draws floats; callers size the
blocks within the ceiling of :mod:`nbstats.util.memory`, so the work
is bounded whatever the number of pairs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import numpy as np

from nbstats.results.bayes import BayesSignedRankResult
from nbstats.stats.bayes.canonical import flipped_many
from nbstats.stats.bayes.decision import decide_many
from nbstats.stats.bayes.shared_prior import SharedPrior
from nbstats.stats.bayes.signrank.bounds import MIRROR, bounds_of_counts
from nbstats.stats.bayes.signrank.pair_sums import PairSums, in_halves, rope_regions
from nbstats.stats.bayes.signrank.placements import placement_bounds
from nbstats.stats.bayes.signrank.posterior import canonical_posterior
from nbstats.stats.bayes.signrank.shared_draws import CaseWeights
from nbstats.stats.bayes.signrank.summary import credible_interval, mirror_draws
from nbstats.stats.bayes.weights import DirichletWeights
from nbstats.util.memory import budget

__all__ = ["GROUP_SHARE", "MIRROR", "PairBlocks", "mirror_rows", "pair_blocks"]

# θ within this distance of ½ counts as exactly ½ (as bayes_signrank)
HALF_TOLERANCE = 1e-12


def mirror_rows(counts: np.ndarray, flip: np.ndarray) -> np.ndarray:
    """``counts`` (pairs × 10, canonical orientation) with the rows of the
    ``flip`` pairs mirrored.

    Examples
    --------
    >>> mirror_rows(np.arange(20).reshape(2, 10), np.array([False, True]))[1].tolist()
    [12, 19, 10, 15, 14, 13, 18, 17, 16, 11]
    """
    out = np.array(counts, copy=True)
    out[flip] = out[flip][:, MIRROR]
    return out


class PairBlocks:
    """Counts and summaries of blocks of pairs on shared draws.

    Parameters
    ----------
    draws : DirichletWeights
        The draws every pair shares.
    prior : {"idp", "bb", "point"}
    z0 : float
        The point prior's pseudo-observation, in the caller's orientation.
    rope : float
    s : float
        Prior strength (0 for ``"bb"``).
    gammas : SharedPrior, optional
        Memo of the prior's Gamma weights (shared with other posteriors on
        the same draws).

    Examples
    --------
    >>> draws = DirichletWeights(3, 2000, 0)
    >>> blocks = PairBlocks(draws, "bb", 0.0, 0.0, 0.0)
    >>> diffs = np.array([[0.1, -0.2], [0.3, 0.1], [-0.05, -0.4]])
    >>> out = blocks.summaries(diffs, [("a", "b"), ("a", "c")], threshold=0.95)
    >>> out["prob_lower"].shape, out["decision"].tolist()
    ((2,), ['undecided', 'undecided'])
    """

    def __init__(
        self,
        draws: DirichletWeights,
        prior: str,
        z0: float,
        rope: float,
        s: float,
        gammas: SharedPrior | None = None,
    ) -> None:
        self.draws = draws
        self.prior = prior
        self.z0 = float(z0)
        self.rope = float(rope)
        self.s = float(s)
        self.gammas = SharedPrior() if gammas is None else gammas
        self.regions = [(+1, 0.0), *rope_regions(self.rope)]

    # -- the per-draw parts --------------------------------------------------------

    def terms(
        self, total: np.ndarray, uniforms: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """``(g0, scale, inverse, extra)`` of the draws for s (computed once)."""
        if isinstance(self.draws, CaseWeights):
            # a subset of a shared stream's cases: the stream's Gamma(s)
            # quantiles (once for every subset), this subset's own total
            from nbstats.stats.bayes.signrank.summary_kernel import prior_terms

            g0 = np.asarray(self.draws.prior_gamma(self.s, uniforms), dtype=float)
            return (g0, *prior_terms(g0, total))
        if self.gammas.uniforms is None:
            self.gammas.uniforms, self.gammas.total = uniforms, total
        uniforms, total = self.gammas.uniforms, self.gammas.total
        g0 = np.asarray(self.gammas(self.s, uniforms), dtype=float)
        scale, inverse, extra = self.gammas.terms(self.s, uniforms, total)
        return g0, scale, inverse, extra

    def sums(self, canonical: np.ndarray, x0: float) -> dict[str, np.ndarray]:
        """The Walsh sums of a block of canonical differences (n × K):
        ``quad`` (K × regions × draws: θ, then with a rope right and left),
        ``cross`` (the point prior's, with its pseudo-observation at ``x0``;
        else None), ``steps`` (the pseudo-observation's own term per region),
        ``total``, ``uniforms``, and the :class:`PairSums`."""
        pair_sums = PairSums(canonical, self.draws)
        k, n_draws = canonical.shape[1], self.draws.n_samples
        quad = np.empty((k, len(self.regions), n_draws))
        total, uniforms = pair_sums.quads(self.regions, quad)
        cross = None
        if self.prior == "point":
            cross = np.empty_like(quad)
            pair_sums.crosses(self.regions, cross, x0)
        steps = [
            float(np.heaviside(sign * 2 * x0 - c, 0.5)) for sign, c in self.regions
        ]
        return {
            "quad": quad, "cross": cross, "steps": steps, "total": total,
            "uniforms": uniforms, "pair_sums": pair_sums,
        }  # fmt: skip

    def counts(
        self,
        parts: dict[str, np.ndarray],
        epsilon: float = 0.0,
        *,
        placements: list[tuple[np.ndarray, np.ndarray]] | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """Every pair's ten counts (K × 10) in its canonical orientation, as
        :mod:`~nbstats.stats.bayes.signrank.bounds` lays them out (the rope's zeros
        without a rope); and the draws with ``|θ − ½| < ε`` (K × 2: lower,
        upper posterior). ``placements``: a list that gets, under the
        near-ignorance prior with a rope, the ``(base, placed)`` counts at
        every placement state behind the rope's bounds (to pool them over
        batches of draws, :mod:`~nbstats.stats.bayes.signrank.pooled`)."""
        # compiled kernels: numba loads on first use, not with ``import nbstats``
        from nbstats.stats.bayes.signrank.pair_kernel import (
            pair_counts,
            pair_rope_counts,
        )

        quad, cross = parts["quad"], parts["cross"]
        g0, scale, inverse, extra = self.terms(parts["total"], parts["uniforms"])
        point, idp = self.prior == "point", self.prior == "idp"
        k = quad.shape[0]
        work = k * quad.shape[2]
        theta = np.empty((k, 6), dtype=np.int64)
        theta_cross = cross[:, 0] if point else quad[:, 0]
        theta_steps = np.full(k, parts["steps"][0])

        def count(a: int, b: int) -> None:
            pair_counts(
                quad[a:b, 0], theta_cross[a:b], g0, scale, extra, theta_steps[a:b],
                point, idp, HALF_TOLERANCE, float(epsilon), theta[a:b],
            )  # fmt: skip

        in_halves(count, k, work)
        out = np.zeros((k, 10), dtype=np.int64)
        out[:, :3] = theta[:, :3]
        out[:, 9] = theta[:, 5]
        if self.rope > 0:
            regions = np.empty((k, 6), dtype=np.int64)
            right, left = quad[:, 1], quad[:, 2]
            cross_right = cross[:, 1] if point else right
            cross_left = cross[:, 2] if point else left
            steps_right = np.full(k, parts["steps"][1])
            steps_left = np.full(k, parts["steps"][2])

            def count_rope(a: int, b: int) -> None:
                pair_rope_counts(
                    right[a:b], left[a:b], cross_right[a:b], cross_left[a:b], g0,
                    inverse, extra, steps_right[a:b], steps_left[a:b], point, idp,
                    regions[a:b],
                )  # fmt: skip

            if idp:  # every placement of the pseudo-observation, exactly
                found = self.placement_counts(
                    parts["pair_sums"].sorted, right, left, g0, inverse, extra,
                    raw=True, orders=self._orders(parts["pair_sums"]),
                )  # fmt: skip
                out[:, 3:9] = placement_bounds(*found)
                if placements is not None:
                    placements.append(found)
            else:
                in_halves(count_rope, k, work)
                out[:, 3:9] = regions
        return out, theta[:, 3:5]

    def placement_counts(
        self,
        sorted_z: np.ndarray,
        right: np.ndarray,
        left: np.ndarray,
        g0: np.ndarray,
        inverse: np.ndarray,
        extra: np.ndarray,
        states: np.ndarray | None = None,
        *,
        raw: bool = False,
        orders: np.ndarray | None = None,
    ) -> Any:
        """The rope's six counts of K pairs under IDP (K × 6): each region's
        fewest and most draws won over every placement of the prior's
        pseudo-observation (:mod:`~nbstats.stats.bayes.signrank.placements`), on
        these draws. ``states``: the pairs' placement states if known (they
        depend on the sorted differences and the rope only). ``raw``: return
        the counts at every state, ``(base, placed)``
        (:func:`~nbstats.stats.bayes.signrank.placements.placement_counts`), instead."""
        from nbstats.stats.bayes.signrank.placements import (
            placement_counts,
            placement_states,
        )

        if states is None:
            states = placement_states(sorted_z, self.rope)
        base, placed = placement_counts(
            self.draws, states, right, left, g0, inverse, extra, orders=orders
        )
        return (base, placed) if raw else placement_bounds(base, placed)

    def _orders(self, pair_sums: PairSums) -> np.ndarray | None:
        """Each pair's sort order when the draws' weights are by case
        (:mod:`~nbstats.stats.bayes.signrank.shared_draws`), else None (the weights
        are taken in each pair's sorted order)."""
        return pair_sums.orders if getattr(self.draws, "by_case", False) else None

    # -- the views: one pair in full, many pairs in blocks --------------------------

    def result(
        self, d: np.ndarray, names: tuple[str, str], *, threshold: float
    ) -> BayesSignedRankResult:
        """One pair in full — θ's draws, the credible interval, the rope's
        region draws for plots — on these draws (:func:`nbstats.bayes_signrank`'s
        Monte Carlo path): every probability equals :meth:`table`'s for the
        same pair bit for bit.

        Examples
        --------
        >>> blocks = PairBlocks(DirichletWeights(3, 2000, 0), "bb", 0.0, 0.0, 0.0)
        >>> d = np.array([0.1, 0.3, -0.05])
        >>> one = blocks.result(d, ("a", "b"), threshold=0.95)
        >>> many = blocks.table(d[:, None], [("a", "b")], threshold=0.95)
        >>> bool(one.prob_right == many["prob_right"][0])
        True
        """
        posterior = canonical_posterior(d, self.prior, self.z0, self.rope, names)
        return posterior.result(self.draws, s=self.s, threshold=threshold, names=names)

    def table(
        self,
        diffs: np.ndarray | Callable[[slice], np.ndarray],
        names: Sequence[tuple[str, str]],
        *,
        threshold: float,
        interval: bool = True,
        out: dict[str, np.ndarray] | None = None,
        bar: Any = None,
        sink: Callable[[slice, np.ndarray, Any], None] | None = None,
        codes: Callable[[slice, np.ndarray], None] | None = None,
    ) -> dict[str, np.ndarray]:
        """:meth:`summaries` of any number of pairs, in blocks whose sums fit
        :data:`GROUP_SHARE` of the memory ceiling: memory does not grow with
        the number of pairs. ``diffs`` is n × K, or a function giving the
        differences of a slice of the pairs (so that 2,000,000 pairs'
        differences never exist at once). ``out``: arrays of K values to
        write the columns into (the caller's table, no copy; arrays it
        holds twice under two names are written twice, to the same values).
        ``bar``: a progress bar told of each block's pairs. ``sink``: told
        ``(block, counts, placements)`` of each block of pairs, as
        :meth:`summaries` tells its own ``sink`` (to pool batches of draws).
        ``codes``: told ``(block, codes)`` of each block of pairs, as
        :meth:`summaries` tells its own ``codes``.
        """
        k = len(names)
        columns: dict[str, np.ndarray] = {} if out is None else out
        for block in pair_blocks(
            k, self.draws.n_samples, prior=self.prior, with_rope=self.rope > 0
        ):
            part = diffs(block) if callable(diffs) else diffs[:, block]
            told = None if sink is None else partial(sink, block)
            coded = None if codes is None else partial(codes, block)
            found = self.summaries(
                part, names[block], threshold=threshold, interval=interval,
                sink=told, codes=coded,
            )  # fmt: skip
            for key, value in found.items():
                if key not in columns:
                    columns[key] = np.empty(k, dtype=value.dtype)
                columns[key][block] = value
            if bar is not None:
                bar.update(block.stop - block.start)
        return columns

    # -- summaries -------------------------------------------------------------

    def summaries(
        self,
        diffs: np.ndarray,
        names: Sequence[tuple[str, str]],
        *,
        threshold: float,
        interval: bool = True,
        sink: Callable[[np.ndarray, Any], None] | None = None,
        codes: Callable[[np.ndarray], None] | None = None,
    ) -> dict[str, np.ndarray]:
        """The columns of :func:`nbstats.bayes_signrank_pairs` for a block of
        pairs with differences ``diffs`` (n × K, b − a in the caller's
        orientation) and ``names[k] = (a, b)``: probabilities, means,
        interval, ``differs``, ``decision`` and ``_mc_error``.

        ``sink``: told ``(counts, placements)`` -- the ten counts (K × 10,
        the caller's orientation) and, under the near-ignorance prior with a
        rope, the ``(base, placed)`` counts at every placement state behind
        the rope's bounds (caller's orientation; else None) -- for
        :class:`~nbstats.stats.bayes.signrank.pooled.PooledCounts`.

        ``codes``: told each draw's region code of every pair (draws × K,
        int8, the caller's orientation: :data:`~.joint_events.LEFT`,
        ``ROPE``, ``RIGHT`` or, under the near-ignorance prior, ``UNSETTLED``
        when the region depends on the prior), as the joint statements of
        :mod:`~nbstats.stats.bayes.joint_events` code them: only with weights
        by case (:mod:`~nbstats.stats.bayes.signrank.shared_draws`), where every pair
        puts the same weight on the same case."""
        diffs = np.asarray(diffs, dtype=float)
        flip = flipped_many(diffs, names)
        canonical = np.where(flip, -diffs, diffs)
        k, n_draws = diffs.shape[1], self.draws.n_samples
        counts = np.zeros((k, 10), dtype=np.int64)
        walsh = np.empty(k)
        low, high = np.full(k, np.nan), np.full(k, np.nan)
        # a point prior off zero sits at -z0 for the flipped pairs
        kept: list[tuple[np.ndarray, np.ndarray]] = []
        base = placed = None
        if codes is not None:
            if not getattr(self.draws, "by_case", False) or self.z0 != 0.0:
                raise ValueError(
                    "region codes for joint statements need weights by case "
                    "(a shared stream, shared_draws.py) and z0 = 0."
                )
            found_codes = np.empty((n_draws, k), dtype=np.int8)
        groups = [np.arange(k)]
        if self.prior == "point" and self.z0 != 0.0:
            groups = [np.flatnonzero(~flip), np.flatnonzero(flip)]
        for members in groups:
            if members.size == 0:
                continue
            x0 = -self.z0 + 0.0 if flip[members[0]] and len(groups) > 1 else self.z0
            parts = self.sums(canonical[:, members], x0)
            counts[members] = self.counts(parts, placements=kept)[0]
            if codes is not None:
                found_codes[:, members] = self.codes(parts, flip[members])
            if kept:  # under IDP with a rope: one group, every pair
                base, placed = kept.pop()
            walsh[members] = _walsh_sums(parts["pair_sums"], self.regions)
            if interval:
                found = self._intervals(parts, flip[members], threshold)
                low[members], high[members] = found
            del parts
        counts = mirror_rows(counts, flip)
        if codes is not None:
            codes(found_codes)
        if sink is not None:
            if placed is not None:  # left and right swap in a mirrored pair
                base = np.where(flip[:, None], base[:, ::-1], base)
                placed = np.where(flip[:, None, None], placed[:, :, ::-1], placed)
            sink(counts, None if placed is None else (base, placed))
        counts = counts / n_draws
        n = diffs.shape[0]
        walsh = np.where(flip, n * (n + 1) - walsh, walsh)
        return self._columns(counts, walsh, diffs, low, high, threshold)

    def codes(self, parts: dict[str, np.ndarray], flip: np.ndarray) -> np.ndarray:
        """Each draw's region code of the pairs of ``parts`` (draws × K,
        int8), mirrored where ``flip`` (the caller's orientation): the rule of
        :meth:`~.joint_events.SignedRankEvents.codes` on these sums."""
        from nbstats.stats.bayes.joint_kernel import idp_codes, signed_rank_codes

        quad = parts["quad"]
        with_rope = self.rope > 0
        # the joint's regions: θ without a rope, else right and left
        quad = np.ascontiguousarray(quad[:, 1:3]) if with_rope else quad
        cross = parts["cross"]
        if cross is None:  # no pseudo-observation's cross terms (g0 = 0 or IDP)
            cross = quad
        elif with_rope:
            cross = np.ascontiguousarray(cross[:, 1:3])
        g0 = self.terms(parts["total"], parts["uniforms"])[0]
        total = np.ascontiguousarray(parts["total"], dtype=float)
        g0 = np.ascontiguousarray(g0, dtype=float)
        k, n_draws = quad.shape[0], quad.shape[2]
        out = np.empty((n_draws, k), dtype=np.int8)
        counts = np.zeros((k, 3), dtype=np.int64)

        def run(first: int, last: int) -> None:
            if self.prior == "idp":
                idp_codes(
                    quad, total, g0, with_rope, HALF_TOLERANCE, out, counts,
                    first, last,
                )  # fmt: skip
            else:
                signed_rank_codes(
                    quad, cross, total, g0, with_rope, HALF_TOLERANCE, out,
                    counts, first, last,
                )  # fmt: skip

        in_halves(run, k, k * n_draws)
        if flip.any():  # LEFT (0) and RIGHT (2) swap; ROPE and UNSETTLED stay
            mirrored = np.where(out == 0, 2, np.where(out == 2, 0, out))
            out[:, flip] = mirrored[:, flip].astype(np.int8)
        return out

    def _intervals(
        self, parts: dict[str, np.ndarray], flip: np.ndarray, threshold: float
    ) -> tuple[np.ndarray, np.ndarray]:
        """Each pair's credible interval from its θ draws, as
        :meth:`~nbstats.stats.bayes.signrank.one_pair.SignedRankPosterior.result`."""
        # compiled kernel: numba loads on first use, not with ``import nbstats``
        from nbstats.stats.bayes.signrank.summary_kernel import combine_region

        quad, cross = parts["quad"], parts["cross"]
        g0, scale, _, extra = self.terms(parts["total"], parts["uniforms"])
        point, idp = self.prior == "point", self.prior == "idp"
        k, n_draws = quad.shape[0], quad.shape[2]
        low, high = np.empty(k), np.empty(k)
        lower = np.empty(n_draws)
        upper = np.empty(n_draws) if idp else lower
        for at in range(k):
            combine_region(
                quad[at, 0], cross[at, 0] if point else quad[at, 0], g0, scale,
                True, extra, parts["steps"][0], False, idp, point, lower, upper,
            )  # fmt: skip
            draws = {"theta": lower, "theta_upper": upper} if idp else {"theta": lower}
            if flip[at]:
                draws = mirror_draws(draws)
            low[at], high[at] = credible_interval(
                draws["theta"], draws.get("theta_upper", draws["theta"]), threshold
            )
        return low, high

    def _columns(
        self,
        counts: np.ndarray,
        walsh: np.ndarray,
        diffs: np.ndarray,
        low: np.ndarray,
        high: np.ndarray,
        threshold: float,
    ) -> dict[str, np.ndarray]:
        """The result columns from the caller-oriented shares (K × 10), as
        :func:`~nbstats.stats.bayes.signrank.summary.summarise` makes them."""
        with_rope = self.rope > 0
        found = bounds_of_counts(counts, with_rope=with_rope)
        # as summarise: left and right to 15 decimals for the decision
        lower, upper = (
            (
                np.round(found[f"left_{end}"], 15),
                found[f"rope_{end}"],
                np.round(found[f"right_{end}"], 15),
            )
            for end in ("lower", "upper")
        )
        decision = decide_many(*lower, threshold, upper=upper)
        probs = np.column_stack(
            [found[key] for key in sorted(found) if with_rope or "rope" not in key]
        )
        n_draws = self.draws.n_samples
        errors = np.sqrt(probs * (1 - probs) / n_draws).max(axis=1)
        mean_lower, mean_upper = self._means(walsh, diffs)
        return {
            "prob_left": found["left_lower"],
            "prob_rope": found["rope_lower"],
            "prob_right": found["right_lower"],
            "prob_lower": found["right_lower"],
            "prob_upper": found["right_upper"],
            **{f"prob_{key}": value for key, value in found.items()},
            "mean_lower": mean_lower,
            "mean_upper": mean_upper,
            "ci_low": low,
            "ci_high": high,
            "differs": (low > 0.5) | (high < 0.5),
            "decision": decision,
            "_mc_error": errors,
            # P(a better), lower: the matrix's cell below the diagonal
            "_lower_left": found["left_lower"],
        }

    def _means(
        self, walsh: np.ndarray, diffs: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """:func:`~nbstats.stats.bayes.signrank.sums.posterior_means` of every
        pair (caller's orientation), element by element the same arithmetic."""
        n, s = diffs.shape[0], self.s
        alpha = s + n
        scale = alpha * (alpha + 1)
        if self.prior == "idp":
            return walsh / scale, (walsh + s * s + 2 * n * s + s) / scale
        if self.prior == "point":
            z0 = self.z0
            half = np.heaviside(z0 / 2 + diffs / 2, 0.5).sum(axis=0)
            extra = 2 * s * half + s * (s + 1) * np.heaviside(z0, 0.5)
            mean = (walsh + extra) / scale
            return mean, mean
        mean = walsh / (n * (n + 1))
        return mean, mean


#: Share of the memory ceiling (:mod:`nbstats.util.memory`) for the
#: per-draw sums held at once: pairs are evaluated in groups that fit (50,000
#: draws with a rope, 64 MiB of the default 512: about 25 pairs a group), so
#: memory does not grow with the number of pairs (4950 pairs would need 5.9
#: GB in one group).
GROUP_SHARE = 0.125


def pair_blocks(
    n_pairs: int, n_samples: int, *, prior: str, with_rope: bool
) -> list[slice]:
    """Blocks of pairs whose per-draw sums fit :data:`GROUP_SHARE` of the
    memory ceiling.

    Examples
    --------
    >>> len(pair_blocks(10, 50_000, prior="idp", with_rope=True)) >= 1
    True
    """
    # θ (and with a rope, two regions), plus a cross term each for the point
    # prior, float64 per draw; and a pair's θ draws for its interval
    regions = 3 if with_rope else 1
    per_pair = 8 * n_samples * regions * (2 if prior == "point" else 1)
    size = max(1, (budget(GROUP_SHARE) - 16 * n_samples) // per_pair)
    return [slice(a, min(n_pairs, a + size)) for a in range(0, n_pairs, size)]


def _walsh_sums(pair_sums: PairSums, regions: list[tuple[int, float]]) -> np.ndarray:
    """Every pair's ``A = Σ_i Σ_j H(z_i + z_j) + Σ_i H(z_i)`` (canonical z),
    as :class:`~nbstats.stats.bayes.signrank.one_pair.SignedRankPosterior` counts it
    (an exact sum of halves), from the boundaries the sums of ``regions``
    (θ first) were evaluated with."""
    packed = pair_sums.packed(regions)
    main = packed["mains"][:, 0]
    n_regions, n = len(regions), main.shape[1]
    # the ties at the boundary of θ: region 0 of every pair
    steps = np.concatenate([[0], np.cumsum(packed["tie_high"] - packed["tie_low"])])
    starts = packed["tie_start"]
    k = np.arange(main.shape[0]) * n_regions
    half = steps[starts[k + 1]] - steps[starts[k]]
    count = (n - main).sum(axis=1) + 0.5 * half
    return count + np.heaviside(pair_sums.sorted, 0.5).sum(axis=1)

"""Each pair's region in every posterior draw, for the joint statements of
:mod:`nbstats.stats.bayes.joint`: :class:`SignEvents` (sign test, one matrix
product per chunk) and :class:`SignedRankEvents` (signed-rank test, the Walsh
sums of :class:`~nbstats.stats.bayes.signrank.pair_sums.PairSums` with the same weight
on the same case in every pair). Under the near-ignorance prior a pair's code
in a draw is the region that holds there for every prior of the set, or
:data:`~nbstats.stats.bayes.joint_kernel.UNSETTLED`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

from nbstats.stats.bayes.signrank.pair_sums import PairSums, in_halves, rope_regions
from nbstats.stats.bayes.weights import WeightChunk
from nbstats.util.memory import budget

__all__ = ["LEFT", "RIGHT", "ROPE", "SignEvents", "SignedRankEvents", "event_regions"]

#: The region codes of a draw: a better, rope, b better.
LEFT, ROPE, RIGHT = 0, 1, 2
# θ within this distance of ½ counts as exactly ½ (a pair that always ties)
_HALF_TOLERANCE = 1e-12


def event_regions(rope: float) -> list[tuple[int, float]]:
    """The regions whose sums a pass over the draws evaluates: θ without a
    rope; with one, H(z_i + z_j - 2 rope) and H(-(z_i + z_j) - 2 rope), the
    right and left regions of :func:`nbstats.bayes_signrank`.

    Examples
    --------
    >>> event_regions(0.0), event_regions(0.01)
    ([(1, 0.0)], [(1, 0.02), (-1, 0.02)])
    """
    return rope_regions(rope) if rope > 0 else [(+1, 0.0)]


class SignEvents:
    """Sign-test θ of many pairs on a chunk of draws: one matrix product.

    ``diffs`` holds one column per pair (> 0 where its second member is
    better); calling with a chunk and s gives θ per draw and pair. With a
    ``rope``, :meth:`region_blocks` compares the three regions' weights
    instead (cases beyond ±rope, inside it, and the prior's mass, which sits
    on "equal", in the rope).
    """

    def __init__(
        self,
        diffs: np.ndarray,
        rope: float = 0.0,
        prior_at: str | Sequence[str] = "rope",
    ) -> None:
        self.rope = rope
        places = [prior_at] * diffs.shape[1] if isinstance(prior_at, str) else prior_at
        # what the prior's pseudo-observation adds to θ: H(0) = ½ in the
        # rope, 0 as a win of the first algorithm, 1 as one of the second
        step = {"rope": 0.5, "left": 0.0, "right": 1.0}
        self.prior_step = np.array([step[p] for p in places])
        self.to_right = np.array([p == "right" for p in places], dtype=float)
        self.to_left = np.array([p == "left" for p in places], dtype=float)
        self.indicators = np.heaviside(diffs, 0.5)  # n × K
        if rope > 0:
            self.right = (diffs > rope).astype(float)
            self.left = (diffs < -rope).astype(float)

    def __call__(self, chunk: WeightChunk, s: float) -> np.ndarray:
        e = chunk.exponentials
        g0 = chunk.prior_gamma(s)
        total = g0 + e.sum(axis=1)
        # the prior's mass sits on "equal": it contributes H(0) = ½. In place:
        # the same operations as (e @ I + ½ g0) / total, one array instead of
        # three (a chunk of 50 algorithms' 1225 pairs is 40 MB)
        theta = e @ self.indicators
        theta += self.prior_step * g0[:, None]
        theta /= total[:, None]
        return theta

    def blocks(
        self, chunk: WeightChunk, s: float, columns: np.ndarray | None = None
    ) -> Iterator[tuple[slice, np.ndarray]]:
        """θ of the pairs ``columns`` (default all) in blocks that fit the
        memory budget: ``(positions in columns, draws × block)``. One block,
        the same numbers as ``self(chunk, s)``, when everything fits."""
        e = chunk.exponentials
        g0 = chunk.prior_gamma(s)
        total = g0 + e.sum(axis=1)
        k = self.indicators.shape[1] if columns is None else len(columns)
        for cols in _column_blocks(k, e.shape[0]):
            # the columns of this block only: a caller that stops early (the
            # joint statements once no draw holds) never copies the rest
            at = cols if columns is None else columns[cols]
            theta = e @ self.indicators[:, at]
            theta += self.prior_step[at] * g0[:, None]
            theta /= total[:, None]
            yield cols, theta

    def region_blocks(
        self, chunk: WeightChunk, s: float, columns: np.ndarray | None = None
    ) -> Iterator[tuple[slice, np.ndarray]]:
        """As :meth:`blocks`, but each draw's region code (LEFT, ROPE, RIGHT)."""
        if self.rope == 0:
            for cols, theta in self.blocks(chunk, s, columns):
                yield cols, _theta_codes(theta)
            return
        e = chunk.exponentials
        g0 = chunk.prior_gamma(s)[:, None]
        total = g0 + e.sum(axis=1)[:, None]
        k = self.right.shape[1] if columns is None else len(columns)
        for cols in _column_blocks(k, e.shape[0]):
            at = cols if columns is None else columns[cols]
            high = e @ self.right[:, at]
            low = e @ self.left[:, at]
            # the prior's pseudo-observation on its side (all of g0 or none)
            high += g0 * self.to_right[at]
            low += g0 * self.to_left[at]
            yield cols, _region_codes(low, total - high - low, high)


def _theta_codes(theta: np.ndarray) -> np.ndarray:
    """RIGHT where θ > ½, LEFT where θ < ½, ROPE where θ is ½ (all ties)."""
    codes = np.full(theta.shape, ROPE, dtype=np.int8)
    codes[theta > 0.5 + _HALF_TOLERANCE] = RIGHT
    codes[theta < 0.5 - _HALF_TOLERANCE] = LEFT
    return codes


def _region_codes(left: np.ndarray, rope: np.ndarray, right: np.ndarray) -> np.ndarray:
    """The most probable region of each draw, ties to the first (as
    :func:`~nbstats.stats.bayes.decision.region_shares` and baycomp)."""
    left_wins = (left >= rope) & (left >= right)
    rope_wins = ~left_wins & (rope >= right)
    codes = np.full(left.shape, RIGHT, dtype=np.int8)
    codes[rope_wins] = ROPE
    codes[left_wins] = LEFT
    return codes


def _column_blocks(k: int, rows: int) -> list[slice]:
    """Blocks of k columns: θ and three temporaries of that size per block
    within :func:`~nbstats.util.memory.budget`."""
    width = max(1, budget() // (4 * 8 * max(rows, 1)))
    return [slice(a, min(k, a + width)) for a in range(0, k, width)]


class SignedRankEvents:
    """Signed-rank θ (or, with a rope, its three regions) for every pair on a
    chunk, the same weight on each case: ``prior="point"``, the prior's
    pseudo-observation at a zero difference; ``"idp"``, the region that holds
    for every prior of the near-ignorance set (see the module's docstring).

    The sums are :class:`~nbstats.stats.bayes.signrank.pair_sums.PairSums`' (every
    pair's boundaries found in one compiled call, the pairs evaluated in two
    threads), with the weights permuted into each pair's sorted order.
    """

    def __init__(
        self,
        diffs: np.ndarray,
        rope: float = 0.0,
        prior: str = "point",
        *,
        pass_share: float = 0.125,
    ) -> None:
        if prior not in ("point", "idp"):
            raise ValueError(
                f"prior must be 'point' (at a zero difference) or 'idp', got {prior!r}."
            )
        self.rope = rope
        self.prior = prior
        self.diffs = diffs
        self.sums = PairSums(diffs, None)
        # engines of consecutive blocks of the statements in a given order
        # (see ordered_blocks), built as far as a pass ever reached
        self._order: np.ndarray | None = None
        self._ordered: list[tuple[slice, SignedRankEvents]] = []
        self.regions = event_regions(rope)
        #: (states, base, placed) while a pass tallies every placement of the
        #: IDP's pseudo-observation (see :meth:`start_tally`), else None
        self.tally: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        #: share of the memory ceiling one pass's per-draw arrays may take
        #: (:attr:`batch_rows`; :func:`~nbstats.util.memory.budget`'s default)
        self.pass_share = pass_share

    @property
    def n_pairs(self) -> int:
        return self.sums.n_pairs

    @property
    def batch_rows(self) -> int:
        """Draws per pass of the compiled sums: a multiple of their 64 lanes,
        as many as the pairs' per-draw arrays (sums, cross terms, codes) fit
        in ``pass_share`` of the memory ceiling. The draws' chunks are
        sized for many columns per case and can hold fewer than 64 draws; a
        pass costs the same for 20 draws as for 64, which made the joint
        signed-rank statements grow as m^3.3 (issue 30)."""
        from nbstats.stats.bayes.signrank.walsh_kernel import LANES

        per_draw = self.n_pairs * (16 * len(self.regions) + 2) + 64
        fit = budget(self.pass_share) // per_draw
        return int(max(LANES, fit - fit % LANES))

    def evaluate(
        self,
        exponentials: np.ndarray,
        out: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
        offset: int = 0,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The s-free ``(total, quad, cross)`` of a chunk's draws, quad and
        cross pairs × regions × draws (written from column ``offset`` of
        ``out`` when given)."""
        if out is None:
            rows = exponentials.shape[0]
            shape = (self.n_pairs, len(self.regions), rows)
            out, offset = (np.empty(rows), np.empty(shape), np.empty(shape)), 0
        self.sums.evaluate(
            np.ascontiguousarray(exponentials, dtype=float),
            self.regions,
            out,
            offset,
            permute=True,
        )
        return out

    def region_blocks(
        self, chunk: WeightChunk, s: float, columns: np.ndarray | None = None
    ) -> Iterator[tuple[slice, np.ndarray]]:
        """As :meth:`SignEvents.region_blocks`. With ``columns`` (the
        statements' order) each block's sums are evaluated only when the
        caller asks for the block: :func:`joint_shares` stops once no draw
        of the chunk holds every statement so far, and the rest is never
        computed (the joint probability of those prefixes is 0 there)."""
        g0 = chunk.prior_gamma(s)
        if columns is None:
            parts = self.evaluate(chunk.exponentials)
            if self.tally is not None:
                self.count_placements(chunk.exponentials, parts, g0)
            codes = self.codes(parts, g0)
            for cols in _column_blocks(codes.shape[1], codes.shape[0]):
                yield cols, codes[:, cols]
            return
        exponentials = np.ascontiguousarray(chunk.exponentials, dtype=float)
        # every pair's θ divides by the same total, summed (as the compiled
        # sums do) in the order of the first pair's cases: the same bits as
        # one pass over all the pairs
        total = np.cumsum(exponentials[:, self.sums.orders[0]], axis=1)[:, -1]
        for cols, events in self.ordered_blocks(columns):
            _, quad, cross = events.evaluate(exponentials)
            yield cols, events.codes((total, quad, cross), g0)

    def ordered_blocks(
        self, columns: np.ndarray
    ) -> Iterator[tuple[slice, SignedRankEvents]]:
        """Engines of consecutive blocks of the pairs ``columns`` (positions
        in that order), growing from 64 pairs to an eighth of them: a pass
        that stops after the first t statements evaluates at most about 2t
        pairs. Built on first use and kept for the next chunks."""
        columns = np.asarray(columns, dtype=np.int64)
        if self._order is None or not np.array_equal(self._order, columns):
            self._order, self._ordered = columns.copy(), []
        k, start, width, at = columns.size, 0, 64, 0
        while start < k:
            if at == len(self._ordered):
                cols = slice(start, min(k, start + width))
                events = SignedRankEvents(
                    self.diffs[:, columns[cols]], self.rope, self.prior
                )
                self._ordered.append((cols, events))
            cols, events = self._ordered[at]
            events.prior = self.prior  # the same sums; the codes follow the prior
            yield cols, events
            start, width, at = cols.stop, min(2 * width, max(64, k // 8)), at + 1

    def start_tally(self) -> None:
        """Tally, in the next pass of :meth:`region_blocks` over all pairs,
        each pair's winners at every placement of the pseudo-observation
        (IDP with a rope: its exact marginal bounds,
        :mod:`~nbstats.stats.bayes.signrank.placements`); read them with
        :meth:`placement_bounds`."""
        from nbstats.stats.bayes.signrank.placements import placement_states

        states = placement_states(self.sums.sorted, self.rope)
        k, width = states.shape[:2]
        base = np.zeros((k, 3), dtype=np.int64)
        self.tally = (states, base, np.zeros((k, width, 3), dtype=np.int64))

    def count_placements(
        self,
        exponentials: np.ndarray,
        parts: tuple[np.ndarray, np.ndarray, np.ndarray],
        g0: np.ndarray,
    ) -> None:
        """Add a block of draws (their exponentials and :meth:`evaluate`'s
        sums) to the tally of :meth:`start_tally`."""
        from nbstats.stats.bayes.signrank.placements import count_block
        from nbstats.stats.bayes.signrank.summary_kernel import prior_terms

        states, base, placed = self.tally
        total, quad, _ = parts
        _, inverse, extra = prior_terms(np.asarray(g0, dtype=float), total)
        count_block(
            exponentials, states, quad[:, 0], quad[:, 1], g0, inverse, extra,
            base, placed, orders=self.sums.orders,
        )  # fmt: skip

    def placement_bounds(self) -> np.ndarray:
        """Pairs × 6: the tallied lower then upper counts of (LEFT, ROPE,
        RIGHT); the tally ends."""
        from nbstats.stats.bayes.signrank.placements import placement_bounds

        _, base, placed = self.tally
        self.tally = None
        return placement_bounds(base, placed)

    def codes(
        self, parts: tuple[np.ndarray, np.ndarray, np.ndarray], g0: np.ndarray
    ) -> np.ndarray:
        """Region codes (draws × pairs, int8) from the s-free ``(total, quad,
        cross)`` of :meth:`evaluate` and the prior's Gamma weights ``g0`` of
        the same draws."""
        return self.codes_and_counts(parts, g0)[0]

    def codes_and_counts(
        self, parts: tuple[np.ndarray, np.ndarray, np.ndarray], g0: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Region codes (draws × pairs, int8) and each pair's count per code
        (pairs × 3); a dashboard keeps ``parts`` and re-combines them for
        each s."""
        from nbstats.stats.bayes.joint_kernel import idp_codes, signed_rank_codes

        total, quad, cross = parts
        pairs, _, draws = quad.shape
        codes = np.empty((draws, pairs), dtype=np.int8)
        counts = np.zeros((pairs, 3), dtype=np.int64)
        total = np.ascontiguousarray(total, dtype=float)
        g0 = np.ascontiguousarray(g0, dtype=float)
        with_rope = self.rope > 0

        def run(first: int, last: int) -> None:
            if self.prior == "idp":
                idp_codes(
                    quad, total, g0, with_rope, _HALF_TOLERANCE, codes, counts,
                    first, last,
                )  # fmt: skip
                return
            signed_rank_codes(
                quad, cross, total, g0, with_rope, _HALF_TOLERANCE,
                codes, counts, first, last,
            )  # fmt: skip

        in_halves(run, pairs, pairs * draws)
        return codes, counts

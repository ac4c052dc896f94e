"""Joint statements: each pair's region in every posterior draw, and the share
of draws in which statements hold together (Benavoli et al. 2015, §5.3).

:class:`SignEvents` (sign test, one matrix product per chunk) and
:class:`SignedRankEvents` (signed-rank test, the Walsh sums of
:class:`~nbstats.stats.bayes.pair_sums.PairSums` with the same weight on the
same case in every pair) give each draw's region code per pair;
:func:`region_shares` counts them, :func:`joint_shares` /
:func:`joint_from_codes` give the joint probability of every prefix of the
sorted statements, and :func:`statement_table` writes the statements of
:func:`nbstats.bayes_posthoc` and of the dashboard's joint panel.

Under the near-ignorance prior (``SignedRankEvents(..., prior="idp")``) a
pair's code in a draw is the region that holds there for every prior of the
set, or :data:`~nbstats.stats.bayes.joint_kernel.UNSETTLED`: the shares are
then lower probabilities and the joint ones lower joint probabilities, so an
accepted statement holds whatever the prior (the pair tables' lower bounds,
:mod:`nbstats.stats.bayes.bounds`, on the joint procedure's draws).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np
import pandas as pd

from nbstats.stats.bayes.memory import budget
from nbstats.stats.bayes.pair_sums import PairSums, in_halves, rope_regions
from nbstats.stats.bayes.weights import DirichletWeights, WeightChunk, gamma_quantile

__all__ = [
    "LEFT",
    "RIGHT",
    "ROPE",
    "STATEMENT_COLUMNS",
    "JointDraws",
    "SignEvents",
    "SignedRankEvents",
    "cap_joint",
    "joint_from_codes",
    "joint_shares",
    "keeps_codes",
    "region_shares",
    "statement_table",
]

# θ within this distance of ½ counts as exactly ½ (a pair that always ties)
_HALF_TOLERANCE = 1e-12
#: Region codes of a pair (i, j) in a posterior draw: i better (θ < ½ or the
#: left region), the rope (θ exactly ½ without one), j better.
LEFT, ROPE, RIGHT = 0, 1, 2
#: Columns of ``BayesPosthocResult.statements``.
STATEMENT_COLUMNS = ("better", "worse", "relation", "prob", "joint", "accepted")


def statement_table(
    shares: np.ndarray,
    joint_of: Callable[[np.ndarray, np.ndarray], np.ndarray],
    pairs: list[tuple[int, int]],
    names: list[str],
    mean_rank: np.ndarray,
    *,
    gamma: float,
    rope: float,
) -> pd.DataFrame:
    """The sorted statements of :func:`bayes_posthoc` from each pair's region
    shares (pairs × (LEFT, ROPE, RIGHT)); ``joint_of(chosen, order)`` gives
    the joint probability of every prefix of the statements in ``order``."""
    chosen = _statement_regions(shares, rope)
    prob = shares[np.arange(len(pairs)), chosen]
    order = np.argsort(-prob, kind="stable")
    joint = cap_joint(joint_of(chosen, order), prob[order])
    rows = []
    for rank, k in enumerate(order):
        i, j = pairs[k]
        if chosen[k] == RIGHT:
            better, worse = j, i
        elif chosen[k] == LEFT:
            better, worse = i, j
        else:  # equivalent: the better-ranked one first
            better, worse = (j, i) if mean_rank[j] < mean_rank[i] else (i, j)
        rows.append(
            {
                "better": names[better],
                "worse": names[worse],
                "relation": "equivalent" if chosen[k] == ROPE else "better",
                "prob": float(prob[k]),
                "joint": float(joint[rank]),
                "accepted": bool(joint[rank] > 1 - gamma),
            }
        )
    return pd.DataFrame(rows, columns=list(STATEMENT_COLUMNS))


def joint_from_codes(
    codes: np.ndarray, chosen: np.ndarray, order: np.ndarray
) -> np.ndarray:
    """Share of draws (rows of ``codes``, draws × pairs region codes) in which
    the statements ``chosen[order[:k + 1]]`` all hold, for every k."""
    from nbstats.stats.bayes.joint_kernel import joint_prefix_counts

    counts = joint_prefix_counts(
        np.ascontiguousarray(codes, dtype=np.int8),
        np.ascontiguousarray(order, dtype=np.int64),
        np.ascontiguousarray(chosen, dtype=np.int8),
    )
    return counts / codes.shape[0]


def _statement_regions(shares: np.ndarray, rope: float) -> np.ndarray:
    """Each pair's statement: the region with the largest marginal share.

    Without a rope only the two directions compete (the second on a tie, as
    before ropes existed); with one, the rope wins ties (the cautious
    reading), then the second algorithm.
    """
    if rope == 0:
        return np.where(shares[:, RIGHT] >= shares[:, LEFT], RIGHT, LEFT)
    best = shares.max(axis=1)
    return np.where(
        shares[:, ROPE] >= best,
        ROPE,
        np.where(shares[:, RIGHT] >= best, RIGHT, LEFT),
    )


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
    within :func:`~nbstats.stats.bayes.memory.budget`."""
    width = max(1, budget() // (4 * 8 * max(rows, 1)))
    return [slice(a, min(k, a + width)) for a in range(0, k, width)]


class SignedRankEvents:
    """Signed-rank θ (or, with a rope, its three regions) for every pair on a
    chunk, the same weight on each case: ``prior="point"``, the prior's
    pseudo-observation at a zero difference; ``"idp"``, the region that holds
    for every prior of the near-ignorance set (see the module's docstring).

    The sums are :class:`~nbstats.stats.bayes.pair_sums.PairSums`' (every
    pair's boundaries found in one compiled call, the pairs evaluated in two
    threads), with the weights permuted into each pair's sorted order.
    """

    def __init__(
        self, diffs: np.ndarray, rope: float = 0.0, prior: str = "point"
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
        # θ; with a rope H(z_i + z_j - 2 rope) and H(-(z_i + z_j) - 2 rope),
        # the right and left regions of bayes_signrank
        self.regions = rope_regions(rope) if rope > 0 else [(+1, 0.0)]

    @property
    def n_pairs(self) -> int:
        return self.sums.n_pairs

    @property
    def batch_rows(self) -> int:
        """Draws per pass of the compiled sums: a multiple of their 64 lanes,
        as many as the pairs' per-draw arrays (sums, cross terms, codes) fit
        in :func:`~nbstats.stats.bayes.memory.budget`. The draws' chunks are
        sized for many columns per case and can hold fewer than 64 draws; a
        pass costs the same for 20 draws as for 64, which made the joint
        signed-rank statements grow as m^3.3 (issue 30)."""
        from nbstats.stats.bayes.walsh_kernel import LANES

        per_draw = self.n_pairs * (16 * len(self.regions) + 2) + 64
        fit = budget() // per_draw
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
            codes = self.codes(self.evaluate(chunk.exponentials), g0)
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


def keeps_codes(n_samples: int, n_pairs: int) -> bool:
    """Whether :func:`region_shares` keeps the draws' region codes (one byte
    per draw and pair within :func:`~nbstats.stats.bayes.memory.budget`):
    if not, the joint probabilities take a second pass over the draws."""
    return n_samples * n_pairs <= budget()


def region_shares(
    draws: DirichletWeights,
    evaluate: object,
    s: float,
    n_pairs: int,
    bar: Any = None,
) -> tuple[np.ndarray, list[np.ndarray] | None]:
    """Monte Carlo shares of (LEFT, ROPE, RIGHT) per pair (n_pairs × 3).

    ``evaluate`` is a :class:`SignEvents` or :class:`SignedRankEvents`; the
    draws' region codes are kept (second value) if they fit in the memory
    ceiling, for :func:`joint_shares`, else ``None``. Used by
    :func:`bayes_posthoc` and the dashboard's joint statements. ``bar``: a
    progress bar told of each piece of draws done.
    """
    keep = keeps_codes(draws.n_samples, n_pairs)
    stored: list[np.ndarray] = []
    counts = np.zeros((n_pairs, 3))
    for chunk in _pieces(draws, evaluate):
        if keep:
            codes_all = np.empty((chunk.exponentials.shape[0], n_pairs), np.int8)
        for cols, codes in evaluate.region_blocks(chunk, s):
            for region in (LEFT, ROPE, RIGHT):
                counts[cols, region] += np.count_nonzero(codes == region, axis=0)
            if keep:
                codes_all[:, cols] = codes
        if keep:
            stored.append(codes_all)
        _advance(bar, chunk)
    return counts / draws.n_samples, stored if keep else None


def _advance(bar: Any, chunk: WeightChunk) -> None:
    """Tell a progress bar (or None) that ``chunk``'s draws are done."""
    if bar is not None:
        bar.update(chunk.rows.stop - chunk.rows.start)


def _pieces(draws: DirichletWeights, evaluate: object) -> Iterator[WeightChunk]:
    """The draws in the pieces ``evaluate`` works on best (its
    ``batch_rows``, else the draws' own chunks): the same numbers either way."""
    rows = getattr(evaluate, "batch_rows", None)
    return iter(draws) if rows is None else draws.batches(rows)


def cap_joint(joint: np.ndarray, sorted_marginals: np.ndarray) -> np.ndarray:
    """Monte Carlo joint probabilities, never above any statement's marginal.

    With the sign test the marginals are exact (Theorem 2) while the joint
    probabilities are estimated from draws; P(S_1 ∧ … ∧ S_k) ≤ min_i P(S_i)
    is a fact, so the estimate is capped by it (this only moves it towards
    the truth).
    """
    return np.minimum(joint, np.minimum.accumulate(sorted_marginals))


def joint_shares(
    draws: DirichletWeights,
    evaluate: object,
    s: float,
    chosen: np.ndarray,
    order: np.ndarray,
    stored: list[np.ndarray] | None,
    bar: Any = None,
) -> np.ndarray:
    """Share of draws in which every statement of each prefix holds.

    ``chosen`` is each pair's region, ``order`` the statements by decreasing
    marginal; ``stored`` the codes kept by :func:`region_shares` (``None``:
    the regions are computed again from ``draws``, statement by statement
    in ``order`` until no draw of a piece holds them all). Used by
    :func:`bayes_posthoc` and the dashboard's joint statements. ``bar``: a
    progress bar told of each piece of draws done (without ``stored``).
    """
    counts = np.zeros(order.size)
    ordered_choice = chosen[order]
    if stored is not None:
        from nbstats.stats.bayes.joint_kernel import joint_prefix_counts

        ordered = np.ascontiguousarray(order, dtype=np.int64)
        statements = np.ascontiguousarray(chosen, dtype=np.int8)
        for codes in stored:
            counts += joint_prefix_counts(codes, ordered, statements)
        return counts / draws.n_samples
    for chunk in _pieces(draws, evaluate):
        carry = None  # every earlier statement holds, per draw
        for cols, codes in evaluate.region_blocks(chunk, s, order):
            holds = codes == ordered_choice[cols]
            if carry is not None:
                holds[:, 0] &= carry
            held = np.logical_and.accumulate(holds, axis=1)
            counts[cols] += held.sum(axis=0)
            carry = held[:, -1]
            if not carry.any():
                # no draw of this chunk holds every statement so far: it
                # adds 0 to every longer prefix, exactly; the rest of the
                # statements are not evaluated
                break
        _advance(bar, chunk)
    return counts / draws.n_samples


class JointDraws:
    """The signed-rank joint statements of many pairs on one set of draws.

    The one engine behind :func:`nbstats.bayes_posthoc` (``test="signrank"``)
    and the dashboard's joint panel: per rope the pairs' Walsh sums (the
    same weight on the same case in every pair) are kept when they fit
    ``keep_share`` of the memory budget, so a new s or prior only
    re-combines them with the prior's Gamma weights; otherwise every call
    passes over the draws again. The numbers are the same either way.

    Parameters
    ----------
    diffs : ndarray
        n cases × K pairs of oriented differences (> 0: the pair's second
        algorithm better), in the table's canonical layout.
    draws : DirichletWeights
        Their shared draws (``columns_per_case=K``).
    keep_share : float
        Share of :func:`~nbstats.stats.bayes.memory.budget` the kept sums
        may take (0: never keep them, as :func:`nbstats.bayes_posthoc`).

    Examples
    --------
    >>> diffs = np.array([[0.1], [0.2], [0.3], [-0.1]])
    >>> engine = JointDraws(diffs, DirichletWeights(4, 1000, 0, columns_per_case=1))
    >>> shares, joint_of = engine.probabilities(1.0, 0.0, "point")
    >>> shares.shape, bool(shares[0, RIGHT] > 0.5)
    ((1, 3), True)
    """

    def __init__(
        self, diffs: np.ndarray, draws: DirichletWeights, keep_share: float = 0.5
    ) -> None:
        self.diffs = diffs
        self.draws = draws
        self.keep_share = keep_share
        self.events: SignedRankEvents | None = None
        self._rope: float | None = None
        self._parts: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        # the kept sums' memory, reused by the next rope (fresh memory costs
        # page faults on every change of a slider)
        self._buffers: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self._uniforms: np.ndarray | None = None

    def kept(self, rope: float) -> bool:
        """Whether the sums of ``rope`` are kept: a new s or prior is quick."""
        return self._rope == rope and self._parts is not None

    def prepare(self, rope: float) -> None:
        """Set up the regions of ``rope`` and keep the draws' sums if they fit."""
        if self._rope == rope:
            return
        # the kept sums are overwritten in place below: until they hold this
        # rope's, nothing may take them for the previous rope's (an error
        # half-way would otherwise leave a silent mixture)
        self._rope = self._parts = self.events = None
        events = SignedRankEvents(self.diffs, rope)
        draws, k = self.draws.n_samples, self.diffs.shape[1]
        regions = len(events.regions)
        parts = uniforms = None
        if self.keep_share > 0 and 8 * draws * (2 + 2 * regions * k) <= budget(
            self.keep_share
        ):
            # pairs × regions × draws, as the compiled passes read them
            if self._buffers is None or self._buffers[1].shape[1] != regions:
                self._buffers = (
                    np.empty(draws),
                    np.empty((k, regions, draws)),
                    np.empty((k, regions, draws)),
                )
            parts = self._buffers
            uniforms = np.empty(draws)
            for chunk in self.draws.blocks():
                events.evaluate(chunk.exponentials, out=parts, offset=chunk.rows.start)
                uniforms[chunk.rows] = chunk.uniforms
        self.events, self._parts, self._uniforms = events, parts, uniforms
        self._rope = rope

    def probabilities(
        self, s: float, rope: float, prior: str, bar: Any = None
    ) -> tuple[np.ndarray, Callable[[np.ndarray, np.ndarray], np.ndarray]]:
        """Each pair's shares of (LEFT, ROPE, RIGHT) — lower probabilities
        under ``prior="idp"`` — and ``joint_of(chosen, order)``, the joint
        probability of every prefix of the statements ``chosen[order]``.
        ``bar``: a progress bar told of the draws of each pass over them
        (sums not kept: one, or two, see :func:`keeps_codes`)."""
        self.prepare(rope)
        events = self.events
        events.prior = prior  # the same sums; the codes follow the prior
        k = self.diffs.shape[1]
        if self._parts is not None:
            codes, counts = events.codes_and_counts(
                self._parts, gamma_quantile(s, self._uniforms)
            )
            shares = counts[:, [LEFT, ROPE, RIGHT]] / float(codes.shape[0])

            def joint_of(chosen: np.ndarray, order: np.ndarray) -> np.ndarray:
                return joint_from_codes(codes, chosen, order)

            return shares, joint_of
        shares, stored = region_shares(self.draws, events, s, k, bar)

        def joint_of(chosen: np.ndarray, order: np.ndarray) -> np.ndarray:
            return joint_shares(self.draws, events, s, chosen, order, stored, bar)

        return shares, joint_of

"""Joint statements: each pair's region in every posterior draw, and the share
of draws in which statements hold together (Benavoli et al. 2015, §5.3).

:class:`SignEvents` (sign test, one matrix product per chunk) and
:class:`SignedRankEvents` (signed-rank test, the Walsh sums of
:class:`~nbstats.stats.bayes.signrank.pair_sums.PairSums` with the same weight on the
same case in every pair) give each draw's region code per pair;
:func:`region_shares` counts them, :func:`joint_shares` /
:func:`joint_from_codes` give the joint probability of every prefix of the
sorted statements, and :func:`statement_table` writes the statements of
:func:`nbstats.bayes_posthoc` and of the dashboard's joint panel.

Under the near-ignorance prior (``SignedRankEvents(..., prior="idp")``) a
pair's code in a draw is the region that holds there for every prior of the
set, or :data:`~nbstats.stats.bayes.joint_kernel.UNSETTLED`: the share of
draws in which statements all hold is then a lower joint probability. With a
rope each pair's marginal is its exact lower probability over every placement
of the pseudo-observation (:mod:`nbstats.stats.bayes.signrank.placements`, on the joint
procedure's draws, as the pair tables' bounds), and a prefix's joint
probability is raised to the Fréchet bound of those marginals where that is
higher; so an accepted statement holds whatever the prior.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pandas as pd

from nbstats.stats.bayes.joint_events import (
    LEFT,
    RIGHT,
    ROPE,
    SignedRankEvents,
    event_regions,
)
from nbstats.stats.bayes.weights import DirichletWeights, WeightChunk, gamma_quantile
from nbstats.util.memory import budget

__all__ = [
    "STATEMENT_COLUMNS",
    "JointDraws",
    "cap_joint",
    "joint_from_codes",
    "joint_shares",
    "keeps_codes",
    "region_shares",
    "statement_table",
    "with_frechet",
]

#: Region codes of a pair (i, j) in a posterior draw: i better (θ < ½ or the
#: left region), the rope (θ exactly ½ without one), j better.
#: Columns of ``BayesPosthocResult.statements``.
STATEMENT_COLUMNS = ("better", "worse", "relation", "prob", "joint", "accepted")


def statement_table(
    shares: np.ndarray,
    joint_of: Callable[[np.ndarray, np.ndarray], np.ndarray],
    pairs: list[tuple[int, int]],
    names: list[str],
    mean_rank: np.ndarray,
    *,
    threshold: float,
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
                "accepted": bool(joint[rank] > threshold),
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


def keeps_codes(n_samples: int, n_pairs: int) -> bool:
    """Whether :func:`region_shares` keeps the draws' region codes (one byte
    per draw and pair within :func:`~nbstats.util.memory.budget`):
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


def with_frechet(
    joint_of: Callable[[np.ndarray, np.ndarray], np.ndarray], shares: np.ndarray
) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """``joint_of`` under the near-ignorance prior with a rope, raised to the
    Fréchet bound of its marginals where that is higher.

    The per-draw joint (a draw counts when every statement holds there for
    every placement of the pseudo-observation) is a lower joint
    probability; so is ``Σ_i P_lower(S_i) − (k − 1)`` for the first k
    statements (Fréchet: P(∩ S_i) ≥ Σ P(S_i) − (k − 1) for every prior,
    with each pair's exact lower marginal, ``shares``). The larger of two
    lower bounds is one; neither is the exact lower joint probability (an
    infimum over every placement of one pseudo-observation for all pairs at
    once, which no finite search here covers).
    """

    def joint(chosen: np.ndarray, order: np.ndarray) -> np.ndarray:
        marginal = shares[np.arange(shares.shape[0]), chosen][order]
        frechet = np.cumsum(marginal) - np.arange(marginal.size)
        return np.maximum(joint_of(chosen, order), frechet)

    return joint


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
        Share of :func:`~nbstats.util.memory.budget` the kept sums
        may take (0: never keep them, as :func:`nbstats.bayes_posthoc`).
    pass_share : float
        Share of the memory ceiling one pass over the draws may take when the
        sums are not kept (its draws per batch,
        :attr:`~nbstats.stats.bayes.joint_events.SignedRankEvents.batch_rows`):
        less memory at once, more batches, the same numbers.

    Examples
    --------
    >>> diffs = np.array([[0.1], [0.2], [0.3], [-0.1]])
    >>> engine = JointDraws(diffs, DirichletWeights(4, 1000, 0, columns_per_case=1))
    >>> shares, joint_of = engine.probabilities(1.0, 0.0, "point")
    >>> shares.shape, bool(shares[0, RIGHT] > 0.5)
    ((1, 3), True)
    """

    def __init__(
        self,
        diffs: np.ndarray,
        draws: DirichletWeights,
        keep_share: float = 0.5,
        pass_share: float = 0.125,
    ) -> None:
        self.diffs = diffs
        self.draws = draws
        self.keep_share = keep_share
        self.pass_share = pass_share
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

    def keeps(self, rope: float) -> bool:
        """Whether the sums of ``rope`` fit ``keep_share`` (and are kept)."""
        regions = len(event_regions(rope))
        need = 8 * self.draws.n_samples * (2 + 2 * regions * self.diffs.shape[1])
        return self.keep_share > 0 and need <= budget(self.keep_share)

    def let_go(self, rope: float) -> None:
        """Let the kept sums go now if ``rope``'s will not be kept: another
        engine on the same draws may need the memory before this one's next
        pass (which would let them go anyway)."""
        if self._rope != rope and not self.keeps(rope):
            self._rope = self._parts = self.events = self._uniforms = None
            self._buffers = None

    def prepare(self, rope: float) -> None:
        """Set up the regions of ``rope`` and keep the draws' sums if they fit."""
        if self._rope == rope:
            return
        # the kept sums are overwritten in place below: until they hold this
        # rope's, nothing may take them for the previous rope's (an error
        # half-way would otherwise leave a silent mixture)
        self._rope = self._parts = self.events = None
        events = SignedRankEvents(self.diffs, rope, pass_share=self.pass_share)
        draws, k = self.draws.n_samples, self.diffs.shape[1]
        regions = len(events.regions)
        parts = uniforms = None
        if self.keeps(rope):
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
        else:
            # this rope's sums are not kept: the buffers of an earlier rope
            # would only hold memory the passes over the draws need
            self._buffers = None
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
        exact = prior == "idp" and rope > 0
        if self._parts is not None:
            g0 = gamma_quantile(s, self._uniforms)
            codes, counts = events.codes_and_counts(self._parts, g0)
            shares = counts[:, [LEFT, ROPE, RIGHT]] / float(codes.shape[0])
            if exact:
                shares = self._placement_shares(g0)

            def joint_of(chosen: np.ndarray, order: np.ndarray) -> np.ndarray:
                return joint_from_codes(codes, chosen, order)

        else:
            if exact:
                events.start_tally()
            shares, stored = region_shares(self.draws, events, s, k, bar)
            if exact:
                shares = events.placement_bounds()[:, :3] / self.draws.n_samples

            def joint_of(chosen: np.ndarray, order: np.ndarray) -> np.ndarray:
                return joint_shares(self.draws, events, s, chosen, order, stored, bar)

        if not exact:
            return shares, joint_of
        return shares, with_frechet(joint_of, shares)

    def _placement_shares(self, g0: np.ndarray) -> np.ndarray:
        """Each pair's exact lower (LEFT, ROPE, RIGHT) over every placement of
        the IDP's pseudo-observation, from the kept sums."""
        from nbstats.stats.bayes.signrank.placements import (
            placement_bounds,
            placement_counts,
            placement_states,
        )
        from nbstats.stats.bayes.signrank.summary_kernel import prior_terms

        events = self.events
        total, quad, _ = self._parts
        _, inverse, extra = prior_terms(np.asarray(g0, dtype=float), total)
        states = placement_states(events.sums.sorted, events.rope)
        base, placed = placement_counts(
            self.draws, states, quad[:, 0], quad[:, 1], g0, inverse, extra,
            orders=events.sums.orders,
        )  # fmt: skip
        return placement_bounds(base, placed)[:, :3] / self.draws.n_samples

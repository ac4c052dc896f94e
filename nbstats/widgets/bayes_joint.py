"""The dashboard's joint statements (Benavoli et al. 2015, §5.3).

Exactly :func:`nbstats.bayes_posthoc` with ``test="signrank"``, the
dashboard's rope and the s of its pairs (the prior's pseudo-observation at a
zero difference), so the statements use the same test and the same regions
as the pair matrix beside them and the two cannot disagree on a pair. The
s-independent part of every draw (each pair's Walsh sums and their cross
terms with the pseudo-observation) is computed once per rope; a new s
re-combines them with the prior's Gamma weights, and γ only compares.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from nbstats.stats.bayes.memory import budget
from nbstats.stats.bayes.posthoc import (
    LEFT,
    RIGHT,
    ROPE,
    SignedRankEvents,
    _joint,
    _marginals,
    joint_from_codes,
    statement_table,
)
from nbstats.stats.bayes.weights import DirichletWeights, gamma_quantile

__all__ = ["SignedRankJoint"]

#: Share of the memory ceiling (:mod:`nbstats.stats.bayes.memory`) the kept
#: per-draw sums may take (45 pairs × 50,000 draws with a rope: 72 MB; 1225
#: pairs × 5,000: 196 MB). Beyond, every change of s or rope passes over the
#: draws again, as :func:`nbstats.bayes_posthoc` does (seconds, not
#: milliseconds, at 100 algorithms).
KEEP_SHARE = 0.5


class SignedRankJoint:
    """The signed-rank joint statements of every pair, kept for new s.

    Parameters
    ----------
    diffs : ndarray
        n cases × K pairs of oriented differences (b − a > 0: b better).
    pairs : list of (int, int)
        The K pairs (a, b) as column indices.
    names : list of str
        The algorithms' names.
    mean_rank : array-like
        The algorithms' mean ranks (1 = best), to name the better-ranked one
        first in a statement of equivalence.
    n_samples : int
        Posterior draws.
    seed : None, int or SeedSequence
        As ``random_state`` of :func:`nbstats.bayes_posthoc`: with the same
        int seed the statements are that function's, number for number.

    Examples
    --------
    >>> diffs = np.array([[0.1], [0.2], [0.3], [-0.1]])
    >>> joint = SignedRankJoint(diffs, [(0, 1)], ["a", "b"], [2.0, 1.0], 1000, 0)
    >>> joint.table(1.0, 0.05, 0.0)[["better", "worse", "relation"]].values.tolist()
    [['b', 'a', 'better']]
    """

    def __init__(
        self,
        diffs: np.ndarray,
        pairs: list[tuple[int, int]],
        names: list[str],
        mean_rank: Sequence[float],
        n_samples: int,
        seed: object,
    ) -> None:
        self.pairs = pairs
        self.names = names
        self._diffs = diffs
        self._mean_rank = np.asarray(mean_rank, dtype=float)
        # the draws of bayes_posthoc(test="signrank"): same chunks, same numbers
        self.draws = DirichletWeights(
            diffs.shape[0], n_samples, seed, columns_per_case=len(pairs)
        )
        self._rope: float | None = None
        self._events: SignedRankEvents | None = None
        self._parts: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        # the kept sums' memory, reused by the next rope (fresh memory costs
        # page faults on every change of a slider)
        self._buffers: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self._weights: tuple[np.ndarray, np.ndarray] | None = None
        self._uniforms: np.ndarray | None = None
        self._key: tuple[float, float] | None = None
        self._statements: pd.DataFrame | None = None
        self._shares: np.ndarray | None = None

    def _prepare(self, rope: float) -> None:
        """Set up the regions of ``rope`` and keep the draws' sums if they fit."""
        if self._rope == rope:
            return
        events = SignedRankEvents(self._diffs, rope)
        draws, k = self.draws.n_samples, len(self.pairs)
        regions = len(events.regions)
        parts = None
        uniforms = None
        if 8 * draws * (2 + 2 * regions * k) <= budget(KEEP_SHARE):
            # pairs × regions × draws, as the compiled passes read them
            if self._buffers is None or self._buffers[1].shape[1] != regions:
                self._buffers = (
                    np.empty(draws),
                    np.empty((k, regions, draws)),
                    np.empty((k, regions, draws)),
                )
            parts = self._buffers
            if self._weights is None:
                # every draw in one block: one call (two threads) instead of
                # one per chunk, whose last 64-draw block is mostly padding
                chunks = list(self.draws)
                self._weights = (
                    np.concatenate([chunk.exponentials for chunk in chunks]),
                    np.concatenate([chunk.uniforms for chunk in chunks]),
                )
            events.evaluate(self._weights[0], out=parts)
            uniforms = self._weights[1]
        self._events, self._parts, self._uniforms = events, parts, uniforms
        self._rope = rope

    def table(self, s: float, gamma: float, rope: float) -> pd.DataFrame:
        """Statements by probability (``better``, ``worse``, ``relation``,
        ``prob``, ``joint``, ``accepted``), as ``bayes_posthoc(...).statements``."""
        if self._key != (s, rope):
            self._prepare(rope)
            events = self._events
            if self._parts is not None:
                codes, counts = events.codes_and_counts(
                    self._parts, gamma_quantile(s, self._uniforms)
                )
                shares = counts[:, [LEFT, ROPE, RIGHT]] / float(codes.shape[0])

                def joint_of(chosen: np.ndarray, order: np.ndarray) -> np.ndarray:
                    return joint_from_codes(codes, chosen, order)
            else:
                shares, stored = _marginals(self.draws, events, s, len(self.pairs))

                def joint_of(chosen: np.ndarray, order: np.ndarray) -> np.ndarray:
                    return _joint(self.draws, events, s, chosen, order, stored)

            self._statements = statement_table(
                shares,
                joint_of,
                self.pairs,
                self.names,
                self._mean_rank,
                gamma=0.5,  # "accepted" is set per γ below
                rope=rope,
            )
            self._shares = shares
            self._key = (s, rope)
        frame = self._statements.copy()
        frame["accepted"] = frame["joint"] > 1 - gamma
        return frame

    def __repr__(self) -> str:  # pragma: no cover - for debugging
        return f"SignedRankJoint({len(self.pairs)} statements)"

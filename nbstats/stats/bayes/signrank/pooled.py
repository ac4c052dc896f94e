"""Signed-rank counts of many pairs pooled over batches of draws.

Every probability of the signed-rank test is a share of draws
(:mod:`~nbstats.stats.bayes.signrank.bounds`), and for most of its ten counts the
count over several batches of draws is the sum of the batches' counts: they
are counted draw by draw at fixed posteriors (θ at z0 = ∓∞ under the
near-ignorance prior, the one posterior of ``"bb"`` and ``"point"``). Not
the rope's bounds under the near-ignorance prior: each is a minimum or a
maximum over the placements of the prior's pseudo-observation, and the
minimum of a sum is not the sum of the minima (the average of the batches'
minima is below the minimum of the pooled shares — a valid but looser
bound). For those, :class:`PooledCounts` adds each batch's count at every
placement state (:func:`~nbstats.stats.bayes.signrank.placements.placement_counts`;
a pair's states depend on its differences and the rope, not on the draws)
and takes the extremes of the sums
(:func:`~nbstats.stats.bayes.signrank.placements.placement_bounds`): the exact bounds
over all the pooled draws, as one run on their concatenation would find.

Memory: a pair holds ``(4n + 6) × 3`` counts (n cases; 32-bit while the
draws fit) from its first batch until it stops (:meth:`PooledCounts.keep`
lets go of the others); :func:`~nbstats.stats.bayes.precision.precise_table`
runs the pairs in groups whose counts fit a share of the memory ceiling
(:func:`pooled_bytes`), so memory does not grow with the number of pairs.
"""

from __future__ import annotations

import numpy as np

from nbstats.stats.bayes.signrank.bounds import N_COUNTS
from nbstats.stats.bayes.signrank.placements import placement_bounds

__all__ = ["PooledCounts", "pooled_bytes"]


def _count_type(max_draws: int) -> type[np.integer]:
    return np.int32 if max_draws < 2**31 else np.int64


def pooled_bytes(n_pairs: int, n_cases: int, max_draws: int) -> int:
    """Bytes of the per-placement counts of ``n_pairs`` pairs (the most
    :class:`PooledCounts` holds at once): ``(4n + 5)`` states and the counts
    won at every state, three regions each.

    Examples
    --------
    >>> pooled_bytes(1225, 30, 62_501)  # 50 algorithms, 30 cases
    1852200
    """
    width = 4 * n_cases + 5
    return n_pairs * (width + 1) * 3 * np.dtype(_count_type(max_draws)).itemsize


class PooledCounts:
    """The ten counts of ``n_pairs`` pairs added over batches of draws.

    In the layout of :mod:`~nbstats.stats.bayes.signrank.bounds`, in the
    caller's orientation.

    Parameters
    ----------
    n_pairs : int
    max_draws : int
        The most draws a pair may get (the counts' integer width).

    Examples
    --------
    Two batches of one pair with two placement states: the pooled lower
    count of "left" is the minimum of the sums (3 + 0 at the second state),
    not the sum of the batches' minima (1 + 0).

    >>> pool = PooledCounts(1, 20)
    >>> counts = np.zeros((1, 10), np.int64)
    >>> base = np.zeros((1, 3), np.int64)
    >>> pool.add([0], counts, 10, (base, np.array([[[1, 9, 0], [3, 7, 0]]])))
    >>> pool.add([0], counts, 10, (base, np.array([[[4, 6, 0], [0, 10, 0]]])))
    >>> pool.counts[0, 3:9].tolist(), pool.draws.tolist()
    ([3, 15, 0, 5, 17, 0], [20])
    >>> pool.shares([0])[0, 3]
    np.float64(0.15)
    """

    def __init__(self, n_pairs: int, max_draws: int) -> None:
        self.counts = np.zeros((n_pairs, N_COUNTS), dtype=np.int64)
        self.draws = np.zeros(n_pairs, dtype=np.int64)
        self._type = _count_type(max_draws)
        # each pair's row in the placement counts (-1: none kept)
        self._rows = np.full(n_pairs, -1, dtype=np.int64)
        self._base: np.ndarray | None = None
        self._placed: np.ndarray | None = None

    def add(
        self,
        pairs: np.ndarray | list[int],
        counts: np.ndarray,
        size: int,
        placements: tuple[np.ndarray, np.ndarray] | None = None,
    ) -> None:
        """Add a batch of ``size`` draws of the pairs numbered ``pairs``:
        their ten counts (len(pairs) × 10) and, under the near-ignorance prior
        with a rope, their ``(base, placed)`` placement counts (len(pairs) × 3
        and len(pairs) × states × 3, the caller's orientation); the rope's
        bounds (columns 3–8) are then the extremes of the pooled placement
        counts, whatever ``counts`` holds there."""
        pairs = np.asarray(pairs, dtype=np.int64)
        self.draws[pairs] += size
        if placements is None:
            self.counts[pairs] += counts
            return
        self.counts[pairs, :3] += counts[:, :3]
        self.counts[pairs, 9] += counts[:, 9]
        base, placed = placements
        rows = self._rows_of(pairs, placed.shape[1])
        self._base[rows] += base.astype(self._type)
        self._placed[rows] += placed.astype(self._type)
        self.counts[pairs, 3:9] = placement_bounds(self._base[rows], self._placed[rows])

    def _rows_of(self, pairs: np.ndarray, width: int) -> np.ndarray:
        """The pairs' rows in the placement counts (at the first batch, one
        for every pair: each pair has its row until :meth:`keep`)."""
        if self._placed is None:
            n_pairs = self._rows.size
            self._base = np.zeros((n_pairs, 3), dtype=self._type)
            self._placed = np.zeros((n_pairs, width, 3), dtype=self._type)
            self._rows[:] = np.arange(n_pairs)
        rows = self._rows[pairs]
        if (rows < 0).any():
            raise ValueError(
                "placement counts added for a pair let go of by keep(): add a "
                "pair's batches before keep() drops it."
            )
        return rows

    def keep(self, pairs: np.ndarray) -> None:
        """Let go of the placement counts of every pair but ``pairs`` (those
        still drawing): the others' bounds stay in :attr:`counts`."""
        if self._placed is None:
            return
        pairs = np.asarray(pairs, dtype=np.int64)
        pairs = pairs[self._rows[pairs] >= 0]
        rows = self._rows[pairs]
        self._placed, self._base = self._placed[rows], self._base[rows]
        self._rows[:] = -1
        self._rows[pairs] = np.arange(pairs.size)

    def shares(self, pairs: np.ndarray | list[int] | None = None) -> np.ndarray:
        """The pooled counts divided by the pairs' draws (len(pairs) × 10)."""
        at = slice(None) if pairs is None else np.asarray(pairs, dtype=np.int64)
        return self.counts[at] / self.draws[at][:, None]

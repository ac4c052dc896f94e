"""The Walsh sums of many pairs on shared draws, set up without per-pair objects.

:func:`~nbstats.stats.bayes.signrank.one_pair.shared_components` takes one
:class:`~nbstats.stats.bayes.signrank.one_pair.SignedRankPosterior` per pair; for the
1225 pairs of a 50-algorithm dashboard building those (a plan, two binary
searches per region, Python objects) cost as much as the sums. A
:class:`PairSums` sorts every pair's differences once, finds every pair's
region boundaries in one compiled call, and evaluates the sums with
:func:`~nbstats.stats.bayes.signrank.walsh_kernel.walsh_sums`, over two halves of the
pairs in two threads (the kernel releases the GIL; each thread writes its own
pairs, so the values do not depend on the threads). The inputs to the kernel
are those a per-pair :class:`~nbstats.stats.bayes.signrank.walsh.WalshBatch` would
pack, so every value equals the per-pair computation bit for bit (tested).
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import partial

import numpy as np

from nbstats.stats.bayes.weights import DirichletWeights
from nbstats.util.pools import default_threads, thread_pool

__all__ = ["PairSums", "RegionSpec", "in_halves", "rope_regions"]

#: ``(sign, c)`` of a region ``H(sign (z_i + z_j) - c)`` (see :mod:`.walsh`)
RegionSpec = tuple[int, float]

#: pairs × draws below which one thread does it all (starting threads costs
#: more than it saves)
THREAD_WORK = 200_000


def _pool() -> ThreadPoolExecutor:
    return thread_pool("nbstats-walsh")


def in_halves(function, n_items: int, work: int, threads: int | None = None) -> None:
    """``function(start, stop)`` over two halves of ``range(n_items)`` in two
    threads (one call when ``work`` — items × draws — is small or the machine
    has one processor). For compiled ``nogil`` kernels that write only their
    own items' outputs: the results do not depend on the threads.

    Examples
    --------
    >>> seen = []
    >>> in_halves(lambda a, b: seen.append((a, b)), 10, 10**9, threads=2)
    >>> sorted(seen)
    [(0, 5), (5, 10)]
    """
    if threads is None:
        threads = default_threads()
    if threads < 2 or n_items < 2 or work < THREAD_WORK:
        function(0, n_items)
        return
    middle = n_items // 2
    future = _pool().submit(function, middle, n_items)
    function(0, middle)
    future.result()


def rope_regions(rope: float) -> list[RegionSpec]:
    """The regions of
    :class:`~nbstats.stats.bayes.signrank.one_pair.SignedRankPosterior`
    beyond θ for a rope: right ``(+1, 2 rope)`` and left ``(-1, 2 rope)``.

    Examples
    --------
    >>> rope_regions(0.01)
    [(1, 0.02), (-1, 0.02)]
    """
    return [(+1, 2 * rope), (-1, 2 * rope)] if rope > 0 else []


class PairSums:
    """Sorted differences of K pairs and their sums on one set of draws.

    Parameters
    ----------
    diffs : ndarray
        n cases × K pairs of differences.
    draws : DirichletWeights or None
        The draws every pair shares (:meth:`quads`, :meth:`crosses`); None
        when only :meth:`evaluate` is called, on chunks the caller draws.
    threads : int, optional
        Threads for the sums (default: 2 when the machine has 2 or more
        processors, else 1).

    Examples
    --------
    >>> from nbstats.stats.bayes.weights import DirichletWeights
    >>> diffs = np.array([[0.1, 0.2], [0.3, -0.1], [-0.05, 0.4]])
    >>> sums = PairSums(diffs, DirichletWeights(3, 100, 0))
    >>> quad = np.empty((2, 1, 100))
    >>> total, uniforms = sums.quads([(+1, 0.0)], quad)
    >>> bool(np.all(quad <= total ** 2 + 1e-12))
    True
    """

    def __init__(
        self,
        diffs: np.ndarray,
        draws: DirichletWeights | None,
        *,
        threads: int | None = None,
    ) -> None:
        diffs = np.asarray(diffs, dtype=float)
        order = np.argsort(diffs, axis=0, kind="stable")  # as WalshPlan.build
        self.orders = np.ascontiguousarray(order.T)
        self.sorted = np.ascontiguousarray(np.take_along_axis(diffs, order, axis=0).T)
        self.draws = draws
        if threads is None:
            threads = default_threads()
        self.threads = max(1, int(threads))
        self._last_packed: tuple | None = None

    @property
    def n_pairs(self) -> int:
        return int(self.sorted.shape[0])

    # -- set-up --------------------------------------------------------------------

    def boundaries(self, sign: int, c: float) -> tuple[np.ndarray, np.ndarray]:
        """``(main, other)`` K × n: :meth:`WalshPlan.region`'s searches, all pairs."""
        from nbstats.stats.bayes.signrank.pair_kernel import first_rows

        zs = self.sorted
        if sign > 0:
            return first_rows(zs, zs, float(c), True), first_rows(
                zs, zs, float(c), False
            )
        c = -c
        return first_rows(zs, zs, float(c), False), first_rows(zs, zs, float(c), True)

    def points(self, regions: Sequence[RegionSpec], x: float = 0.0) -> np.ndarray:
        """K × R × 2: :meth:`WalshPlan.point_index` of x for every pair and region."""
        from nbstats.stats.bayes.signrank.pair_kernel import first_rows

        xs = np.full((self.n_pairs, 1), float(x))
        out = np.empty((self.n_pairs, len(regions), 2), dtype=np.int64)
        for q, (sign, c) in enumerate(regions):
            cut = float(c) if sign > 0 else float(-c)
            strict = (True, False) if sign > 0 else (False, True)
            out[:, q, 0] = first_rows(xs, self.sorted, cut, strict[0])[:, 0]
            out[:, q, 1] = first_rows(xs, self.sorted, cut, strict[1])[:, 0]
        return out

    def batch(self, regions: Sequence[RegionSpec]) -> dict[str, np.ndarray]:
        """The arrays :class:`~nbstats.stats.bayes.signrank.walsh.WalshBatch` packs."""
        n = self.sorted.shape[1]
        mains, highs, lows, full = [], [], [], []
        for sign, c in regions:
            main, other = self.boundaries(sign, c)
            high, low = (main, other) if sign > 0 else (other, main)
            everything = 0 if sign > 0 else n
            mains.append(main)
            highs.append(high)
            lows.append(low)
            full.append(
                np.all(high == low, axis=1) & np.all(main == everything, axis=1)
            )
        main = np.stack(mains, axis=1)  # K × R × n
        high, low = np.stack(highs, axis=1), np.stack(lows, axis=1)
        ties = high != low
        # the ties in plan-major, region, row order: as WalshBatch concatenates
        _, _, rows = np.nonzero(ties)
        counts = ties.sum(axis=2).ravel()
        return {
            "mains": main,
            "signs": np.array([sign for sign, _ in regions], dtype=np.int64),
            "full": np.stack(full, axis=1),
            "tie_start": np.concatenate([[0], np.cumsum(counts)]).astype(np.int64),
            "tie_rows": rows.astype(np.int64),
            "tie_high": high[ties].astype(np.int64),
            "tie_low": low[ties].astype(np.int64),
        }

    # -- sums --------------------------------------------------------------------

    def quads(
        self, regions: Sequence[RegionSpec], out: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Fill ``out[k, q, r]`` (K × R × draws) with the Walsh sums of region q
        of pair k; return the draws' ``(total, uniforms)``."""
        n_draws = self.draws.n_samples
        # weights by case (a shared stream's subset, shared_draws.py): each
        # pair takes them in its own order, the same weight on the same case
        permute = getattr(self.draws, "by_case", False)
        total, uniforms = np.empty(n_draws), np.empty(n_draws)
        for chunk in self.draws.blocks():
            # a subset of a shared stream's cases: read in place, no gather
            columns = getattr(chunk, "columns", None)
            self.evaluate(
                chunk.exponentials if columns is None else chunk.full,
                regions, (total, out, None), chunk.rows.start,
                permute=permute, columns=columns,
                blocked=None if columns is None else chunk.blocked,
            )  # fmt: skip
            if chunk.rows == slice(0, n_draws):
                uniforms = chunk.uniforms  # the draws' own: memos know it
            else:
                uniforms[chunk.rows] = chunk.uniforms
        return total, uniforms

    def evaluate(
        self,
        exponentials: np.ndarray,
        regions: Sequence[RegionSpec],
        out: tuple[np.ndarray, np.ndarray, np.ndarray | None],
        offset: int = 0,
        *,
        permute: bool = False,
        columns: np.ndarray | None = None,
        blocked: np.ndarray | None = None,
    ) -> None:
        """:meth:`~nbstats.stats.bayes.signrank.walsh.WalshBatch.evaluate`
        of every pair on one chunk of draws, written from column ``offset`` of
        ``out = (total, quad, cross)`` (K × R × draws; ``cross`` None: no
        pseudo-observation, else the cross terms of one at 0).

        ``permute=True`` puts the same weight on the same case in every pair
        (what joint statements need); ``False`` hands each pair the weights
        in its own sorted order, a relabelling that is exact for one pair's
        posterior and saves the permutation. ``columns``: the pairs' cases
        are these columns of ``exponentials`` (default: all, in order);
        ``blocked``: the same draws block by block
        (:meth:`~nbstats.stats.bayes.signrank.shared_draws.SharedDraws.blocked`).
        """
        from nbstats.stats.bayes.signrank.walsh_kernel import walsh_sums

        packed = self._packed(tuple(regions), cross=out[2] is not None)
        n_regions = len(regions)
        total, quad, cross = out
        halves = self._halves(exponentials.shape[0])
        # one total is enough: every pair's draws have the same weights
        totals = [total] + [np.empty(total.shape) for _ in halves[1:]]
        no_cross = no_blocks = np.empty((0, 0, 0))
        columns = (
            np.empty(0, dtype=np.int64)
            if columns is None
            else np.ascontiguousarray(columns, dtype=np.int64)
        )

        def run(half: int) -> None:
            a, b = halves[half]
            ties = packed["tie_start"][a * n_regions : b * n_regions + 1]
            lo, hi = int(ties[0]), int(ties[-1])
            walsh_sums(
                exponentials,
                self.orders[a:b],
                permute,
                packed["mains"][a:b],
                packed["signs"],
                packed["full"][a:b],
                ties - lo,
                packed["tie_rows"][lo:hi],
                packed["tie_high"][lo:hi],
                packed["tie_low"][lo:hi],
                packed["point_main"][a:b],
                packed["point_other"][a:b],
                cross is not None,
                totals[half],
                quad[a:b],
                cross[a:b] if cross is not None else no_cross,
                offset,
                columns,
                no_blocks if blocked is None else blocked,
            )

        self._parallel(run, len(halves))

    def packed(self, regions: Sequence[RegionSpec], cross: bool = False) -> dict:
        """:meth:`batch` of ``regions`` as the sums use it (kept for the last
        regions asked): ``mains`` (K × R × n), the ties, the points.

        Examples
        --------
        >>> sums = PairSums(np.array([[0.1], [-0.1], [0.3]]), None)
        >>> sums.packed([(+1, 0.0)])["mains"].shape
        (1, 1, 3)
        """
        return self._packed(tuple(regions), cross)

    def _packed(self, regions: tuple[RegionSpec, ...], cross: bool) -> dict:
        """:meth:`batch` of ``regions`` with the points of a pseudo-observation
        at 0 (zeros without ``cross``); the last one kept (a dashboard asks
        for the same regions chunk after chunk)."""
        key = (regions, cross)
        if self._last_packed is None or self._last_packed[0] != key:
            packed = self.batch(regions)
            if cross:
                index = self.points(regions, 0.0)
                packed["point_main"] = np.ascontiguousarray(index[:, :, 0])
                packed["point_other"] = np.ascontiguousarray(index[:, :, 1])
            else:
                empty = np.zeros((self.n_pairs, len(regions)), dtype=np.int64)
                packed["point_main"] = packed["point_other"] = empty
            self._last_packed = (key, packed)
        return self._last_packed[1]

    def crosses(
        self, regions: Sequence[RegionSpec], out: np.ndarray, x: float = 0.0
    ) -> None:
        """Fill ``out[k, q, r]`` with the cross terms of a pseudo-observation at
        x (the point prior's; see :meth:`WalshBatch.evaluate`)."""
        from nbstats.stats.bayes.signrank.pair_kernel import cross_sums

        index = self.points(regions, x)
        main = np.ascontiguousarray(index[:, :, 0])
        other = np.ascontiguousarray(index[:, :, 1])
        signs = np.array([sign for sign, _ in regions], dtype=np.int64)
        halves = self._halves(self.draws.n_samples)

        def run(half: int, *, chunk) -> None:
            a, b = halves[half]
            cross_sums(
                chunk.exponentials, main[a:b], other[a:b], signs, out[a:b],
                chunk.rows.start,
            )  # fmt: skip

        by_case = getattr(self.draws, "by_case", False)
        for chunk in self.draws.blocks():
            if by_case:  # each pair's weights in its sorted order, one by one
                for k in range(self.n_pairs):
                    cross_sums(
                        np.ascontiguousarray(chunk.exponentials[:, self.orders[k]]),
                        main[k : k + 1], other[k : k + 1], signs, out[k : k + 1],
                        chunk.rows.start,
                    )  # fmt: skip
                continue
            self._parallel(partial(run, chunk=chunk), len(halves))

    def _halves(self, n_draws: int) -> list[tuple[int, int]]:
        k = self.n_pairs
        if self.threads < 2 or k < 2 or k * n_draws < THREAD_WORK:
            return [(0, k)]
        middle = k // 2
        return [(0, middle), (middle, k)]

    @staticmethod
    def _parallel(run, n: int) -> None:
        if n == 1:
            run(0)
            return
        futures = [_pool().submit(run, h) for h in range(1, n)]
        run(0)
        for future in futures:
            future.result()

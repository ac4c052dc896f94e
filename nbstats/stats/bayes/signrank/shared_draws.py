"""One stream of Dirichlet weights over every case, restricted to each pair's cases.

With missing cells (``nan_policy="pairwise"``) each pair of algorithms is
compared on the cases both have. Instead of drawing a stream of weights per
set of cases, :class:`SharedDraws` draws one ``Dir(s, 1, …, 1)`` stream over
all n cases -- the prior's ``Gamma(s)`` weight ``g0`` and one ``Exp(1)``
variate ``e_i`` per case and draw -- and :meth:`SharedDraws.restrict` hands a
pair with the cases S the weights ``(g0, e_S) / (g0 + Σ_{i∈S} e_i)``.

Why that is the right posterior: ``g0`` and the ``e_i`` are independent
Gamma variates, and a vector of independent ``Gamma(a_k)`` variates divided
by its sum is ``Dir(a_1, …, a_K)`` (the Gamma construction of the Dirichlet
distribution). The renormalised sub-vector of ``Dir(s, 1, …, 1)`` on S (the
Dirichlet restriction, or aggregation, property) is therefore
``Dir(s, 1, …, 1)`` on S: exactly the law of the weights a standalone
:func:`nbstats.bayes_signrank` on that pair draws. A pair's row of the table
then equals a standalone call in law, not draw for draw (its draws are the
shared stream's), and the same seed still gives the same table. When every
pair reads the same weight of the same case in the same draw
(:class:`CaseWeights` with ``by_case``), the pairs' posteriors are the
marginals of one joint posterior: the joint statements of
:func:`nbstats.bayes_posthoc` can be evaluated on the very draws of the
pairs' table (:mod:`~nbstats.stats.bayes.signrank.pairs_joint`).

The cost is one stream of weights (and one set of Gamma quantiles) per batch
of draws, whatever the number of different sets of cases.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator

import numpy as np

from nbstats.stats.bayes.shared_prior import SharedPrior
from nbstats.stats.bayes.weights import DirichletWeights, WeightChunk

__all__ = ["BatchStream", "CaseChunk", "CaseWeights", "SharedDraws"]


class SharedDraws:
    """``n_samples`` draws of ``Dir(s, 1, …, 1)`` over ``n_cases`` cases,
    to be restricted to subsets of the cases (:meth:`restrict`).

    Parameters
    ----------
    n_cases : int
        Every case of the table.
    n_samples : int
    random_state : None, int, Generator or SeedSequence
        As for :class:`~nbstats.stats.bayes.weights.DirichletWeights`: the
        draws over all the cases are exactly that class's.

    Examples
    --------
    The weights a pair on cases 0 and 2 sees are the stream's, renormalised:

    >>> shared = SharedDraws(3, 4, 0)
    >>> sub = shared.restrict(np.array([True, False, True]))
    >>> (chunk,) = sub.blocks()
    >>> (full,) = DirichletWeights(3, 4, 0).blocks()
    >>> bool(np.array_equal(chunk.exponentials, full.exponentials[:, [0, 2]]))
    True
    >>> w0, w = chunk.weights(1.0)
    >>> bool(np.allclose(w0 + w.sum(axis=1), 1.0))
    True
    """

    def __init__(self, n_cases: int, n_samples: int, random_state: object) -> None:
        self.draws: DirichletWeights | None = DirichletWeights(
            n_cases, n_samples, random_state
        )
        self.n_cases = int(n_cases)
        self.n_samples = int(n_samples)
        #: the prior's Gamma(s) quantiles of the stream's uniforms, once per s
        self.gammas = SharedPrior()
        # all the draws at once, block by block (see whole), when they fit
        self._whole: tuple[np.ndarray, np.ndarray] | None = None
        # the sets of cases of a pairs table may be evaluated in two threads
        self._lock = threading.Lock()

    def restrict(self, cases: np.ndarray, *, by_case: bool = True) -> CaseWeights:
        """The draws seen by a pair whose cases are ``cases`` (a boolean mask
        or indices of the stream's cases); ``by_case``: see
        :class:`CaseWeights`."""
        index = np.asarray(cases)
        if index.dtype == bool:
            index = np.flatnonzero(index)
        return CaseWeights(self, index.astype(np.int64), by_case=by_case)

    def whole(self) -> tuple[np.ndarray, np.ndarray] | None:
        """``(blocked, uniforms)``: every draw laid out ``[draw // 64, case,
        draw % 64]`` (zero-padded), so that the 64 draws the compiled sums
        take side by side are one contiguous run for every case
        (:func:`~nbstats.stats.bayes.signrank.walsh_kernel.load_blocked`), and the
        draws' uniforms; made once, when the draws fit in memory (else
        None: :meth:`transposed_blocks`). The generator's own copies are
        let go of: this is the only copy of the exponentials.

        Examples
        --------
        >>> blocked, uniforms = SharedDraws(2, 70, 0).whole()
        >>> (full,) = DirichletWeights(2, 70, 0).blocks()
        >>> blocked.shape, bool(blocked[1, 1, 5] == full.exponentials[69, 1])
        ((2, 2, 64), True)
        """
        with self._lock:
            return self._make_whole()

    def _make_whole(self) -> tuple[np.ndarray, np.ndarray] | None:
        from nbstats.stats.bayes.signrank.walsh_kernel import LANES
        from nbstats.util.memory import budget

        if self._whole is None and self.draws is not None:
            # two copies at once while laying them out, within a quarter of
            # the memory ceiling; else chunk by chunk (transposed_blocks)
            if 16 * self.n_samples * (self.n_cases + 1) > budget(0.25):
                return None
            n_blocks = -(-self.n_samples // LANES)
            padded = np.zeros((n_blocks * LANES, self.n_cases))
            uniforms = np.empty(self.n_samples)
            for chunk in self.draws:
                padded[chunk.rows] = chunk.exponentials
                uniforms[chunk.rows] = chunk.uniforms
            self.draws = None  # its chunks: a copy of the draws
            blocked = np.ascontiguousarray(
                padded.reshape(n_blocks, LANES, self.n_cases).transpose(0, 2, 1)
            )
            self._whole = (blocked, uniforms)
            self.gammas.uniforms = uniforms
        return self._whole

    def transposed_blocks(self) -> Iterator[tuple[WeightChunk, np.ndarray]]:
        """The stream's blocks, with their exponentials as cases × draws,
        when they do not fit in memory at once (generated again each time)."""
        for chunk in self.draws.blocks():
            yield chunk, np.ascontiguousarray(chunk.exponentials.T)


class CaseChunk:
    """A block of a shared stream's draws on some of its cases: the
    interface of :class:`~nbstats.stats.bayes.weights.WeightChunk`
    (``rows``, ``exponentials``, ``uniforms``, ``weights``), plus what the
    compiled sums read in place
    (:meth:`~nbstats.stats.bayes.signrank.pair_sums.PairSums.quads`): ``columns``
    (these cases among the stream's), ``blocked`` (every draw block by
    block, :meth:`SharedDraws.whole`; or None) and ``full`` (draws × every
    case, a view; no columns when ``blocked`` holds the draws).

    Examples
    --------
    >>> by_case = np.arange(12.0).reshape(3, 4)  # 3 cases × 4 draws
    >>> chunk = CaseChunk(slice(0, 4), by_case, np.array([2, 0]), np.zeros(4))
    >>> chunk.exponentials[0].tolist(), chunk.full.shape
    ([8.0, 0.0], (4, 3))
    """

    def __init__(
        self,
        rows: slice,
        by_case: np.ndarray | None,
        columns: np.ndarray,
        uniforms: np.ndarray,
        *,
        blocked: np.ndarray | None = None,
    ) -> None:
        self.rows, self.columns, self.uniforms = rows, columns, uniforms
        #: every draw block by block (SharedDraws.whole), or None
        self.blocked = blocked
        self._by_case = by_case
        self._chunk: WeightChunk | None = None

    @property
    def full(self) -> np.ndarray:
        """Draws × every case of the stream (a view, no copy); with
        ``blocked``, draws × no case (the sums read ``blocked``)."""
        if self._by_case is None:
            return np.empty((self.rows.stop - self.rows.start, 0))
        return self._by_case.T

    @property
    def exponentials(self) -> np.ndarray:
        """Draws × these cases (gathered once, when asked for)."""
        return self._gathered().exponentials

    def weights(self, s: float) -> tuple[np.ndarray, np.ndarray]:
        """As :meth:`WeightChunk.weights`, on these cases."""
        return self._gathered().weights(s)

    def prior_gamma(self, s: float) -> np.ndarray:
        """As :meth:`WeightChunk.prior_gamma`."""
        return self._gathered().prior_gamma(s)

    def _gathered(self) -> WeightChunk:
        if self._chunk is None:
            if self._by_case is None:  # from the blocks: [block, case, lane]
                picked = self.blocked[:, self.columns, :].transpose(0, 2, 1)
                rows = self.rows.stop - self.rows.start
                exponentials = picked.reshape(-1, self.columns.size)[:rows]
            else:
                exponentials = self._by_case[self.columns].T
            self._chunk = WeightChunk(self.rows, exponentials, self.uniforms)
        return self._chunk


class CaseWeights:
    """The draws of :class:`SharedDraws` restricted to some cases: the
    interface of :class:`~nbstats.stats.bayes.weights.DirichletWeights`
    (``n_cases``, ``n_samples``, ``blocks()``, iteration, ``weights``) for
    the engines of :mod:`~nbstats.stats.bayes.signrank.blocks`.

    Its exponentials are in the order of the cases. ``by_case`` True tells
    the sums to permute them into each pair's sorted order, so that weight i
    stays with case i in every pair (what joint statements need); False lets
    each pair take them in its own sorted order as they come -- a
    relabelling of exchangeable weights, the same posterior for each pair,
    and cheaper (one prefix sum per draw for every pair of the same cases).
    """

    def __init__(
        self, shared: SharedDraws, cases: np.ndarray, *, by_case: bool = True
    ) -> None:
        self.shared = shared
        self.by_case = by_case
        self.cases = cases
        self.n_cases = int(cases.size)
        self.n_samples = shared.n_samples
        self.bar = None

    def blocks(self) -> Iterator[CaseChunk]:
        """The stream's blocks on these cases (:class:`CaseChunk`)."""
        whole = self.shared.whole()
        if whole is not None:  # every draw at once, block by block
            blocked, uniforms = whole
            yield CaseChunk(
                slice(0, self.n_samples), None, self.cases, uniforms, blocked=blocked
            )
            return
        for chunk, by_case in self.shared.transposed_blocks():
            yield CaseChunk(chunk.rows, by_case, self.cases, chunk.uniforms)

    def __iter__(self) -> Iterator[WeightChunk]:
        return self.blocks()

    def prior_gamma(self, s: float, uniforms: np.ndarray) -> np.ndarray:
        """Gamma(s) quantiles of ``uniforms``, shared by every subset of the
        cases when they are the stream's uniforms of all the draws."""
        return self.shared.gammas(s, uniforms)


class BatchStream:
    """The batches of draws of :func:`~nbstats.stats.bayes.precision.schedule`
    as one stream over every case (:class:`SharedDraws` of the batch's seed),
    the latest kept: the sets of cases ask for batch after batch in step.

    Parameters
    ----------
    n_cases : int
    seeds : callable
        ``seeds(batch)``: the seed of a batch's draws (e.g.
        :func:`~nbstats.stats.bayes.precision.batch_seed` of the call's seed).
    position : ndarray
        Each row's case in the stream (e.g. its place in a canonical order).
    by_case : bool
        Weight i stays with case i in every pair (:class:`CaseWeights`).

    Examples
    --------
    >>> seeds = lambda batch: np.random.SeedSequence([0, batch])
    >>> stream = BatchStream(3, seeds, np.array([2, 0, 1]))
    >>> sub = stream.restrict(0, 10, cases=np.array([True, False, True]))
    >>> sub.cases.tolist(), sub.n_samples
    ([2, 1], 10)
    """

    def __init__(
        self,
        n_cases: int,
        seeds: Callable[[int], np.random.SeedSequence],
        position: np.ndarray,
        *,
        by_case: bool = True,
    ) -> None:
        self.n_cases, self.seeds, self.by_case = n_cases, seeds, by_case
        self.position = position  # each row's case in the stream
        self.batch: tuple[int, int, SharedDraws] | None = None
        self._lock = threading.Lock()  # sets of cases in two threads

    def restrict(self, batch: int, size: int, *, cases: np.ndarray) -> CaseWeights:
        """Batch ``batch`` of ``size`` draws on the rows ``cases`` (a mask)."""
        with self._lock:
            if self.batch is None or self.batch[:2] != (batch, size):
                self.batch = None  # the previous batch's draws go first
                draws = SharedDraws(self.n_cases, size, self.seeds(batch))
                self.batch = (batch, size, draws)
            shared = self.batch[2]
        found = self.position[np.flatnonzero(cases)]
        if not self.by_case:  # taken in sorted order: the rows' order is moot
            found = np.sort(found)
        return shared.restrict(found, by_case=self.by_case)

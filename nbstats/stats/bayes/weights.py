"""Posterior Dirichlet weights ``Dir(s, 1, …, 1)`` with common random numbers.

A draw is ``(g0, e1, …, en) / (g0 + Σ e)`` with ``e_i ~ Exp(1)`` and
``g0 ~ Gamma(s)``. The exponentials and the uniforms behind ``g0`` are drawn
once; ``g0 = gammaincinv(s, u)`` turns the same uniforms into Gamma(s) variates
for any ``s``. So a new ``s`` needs no new sampling, and a posterior computed
for neighbouring values of ``s`` moves smoothly instead of re-rolling the Monte
Carlo noise (the dashboards rely on this).

Draws come in chunks whose random streams are derived from the seed and the
chunk index alone, so memory stays bounded for any number of cases and the
same ``random_state`` always gives the same weights.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from nbstats.util.random import seed_sequence

__all__ = ["DirichletWeights"]

#: Memory budget of the weights kept in memory, in bytes.
CHUNK_BYTES = 64 * 2**20
#: Target size of one chunk's weight matrix: small enough that the few arrays
#: a chunk's computation makes stay in the processor's cache.
CACHE_BYTES = 2**20


def gamma_quantile(s: float, u: np.ndarray) -> np.ndarray:
    """Quantile function of Gamma(s, 1) at ``u``; 0 for ``s = 0``.

    ``gammaincinv`` is exact but slow and holds the GIL; the common cases have
    closed forms: Gamma(½) is ½ χ²₁, so its quantile is ``erfinv(u)²``, and
    Gamma(1) is Exp(1), ``-log1p(-u)``.
    """
    # scipy.special (~70 modules) loads on first use, not with ``import nbstats``
    from scipy.special import erfinv, gammaincinv

    if s == 0:
        return np.zeros_like(u)
    if s == 0.5:
        return erfinv(u) ** 2
    if s == 1.0:
        return -np.log1p(-u)
    return gammaincinv(s, u)


@dataclass(frozen=True)
class WeightChunk:
    """Raw material of one chunk: exponentials (rows × n) and uniforms (rows)."""

    rows: slice
    exponentials: np.ndarray
    uniforms: np.ndarray

    def prior_gamma(self, s: float) -> np.ndarray:
        """Unnormalised weight of the prior, ``Gamma(s)`` (0 for ``s = 0``)."""
        return gamma_quantile(s, self.uniforms)

    def weights(self, s: float) -> tuple[np.ndarray, np.ndarray]:
        """``(w0, w)``: prior weight (rows) and case weights (rows × n).

        ``s = 0`` is the Bayesian bootstrap: ``w0 = 0``, ``w ~ Dir(1, …, 1)``.
        """
        g0 = self.prior_gamma(s)
        total = g0 + self.exponentials.sum(axis=1)
        return g0 / total, self.exponentials / total[:, None]


class DirichletWeights:
    """Common random numbers for ``n_samples`` draws of ``Dir(s, 1, …, 1)``.

    Parameters
    ----------
    n_cases : int
        Number of observations (cases), excluding the prior's pseudo-observation.
    n_samples : int
        Number of posterior draws.
    random_state : None, int, Generator or SeedSequence
        Seed; equal seeds give equal draws.
    columns_per_case : int
        How many float64 values per (draw, case) the caller will hold at once;
        only used to size chunks within :data:`CHUNK_BYTES`.

    Examples
    --------
    >>> crn = DirichletWeights(n_cases=3, n_samples=4, random_state=0)
    >>> w0, w = next(iter(crn)).weights(s=1.0)
    >>> np.allclose(w0 + w.sum(axis=1), 1.0)
    True
    """

    def __init__(
        self,
        n_cases: int,
        n_samples: int,
        random_state: object = None,
        *,
        columns_per_case: int = 6,
    ) -> None:
        self.n_cases = int(n_cases)
        self.n_samples = int(n_samples)
        self._seed = seed_sequence(random_state)
        per_row = 8 * max(1, self.n_cases + 1)
        budget = min(CACHE_BYTES, CHUNK_BYTES // max(1, columns_per_case))
        self.chunk_rows = int(max(1, min(self.n_samples, max(16, budget // per_row))))
        self._whole: WeightChunk | None = None
        #: a progress bar (``update(draws)``) told of every chunk generated,
        #: or None; the caller opens and closes it
        self.bar: Any = None

    def map(self, function: Callable[[WeightChunk], None]) -> None:
        """Call ``function`` on every chunk (it writes to rows ``chunk.rows``).

        Sequential on purpose: a thread pool over chunks gave no speed-up
        (``gammaincinv`` holds the GIL and the rest is
        memory-bound), and one thread keeps the order of work obvious.
        """
        for chunk in self:
            function(chunk)

    def blocks(self) -> Iterator[WeightChunk]:
        """The draws as one chunk when they are kept in memory (small
        problems), else chunk by chunk; the same numbers either way.

        For compiled passes that work on 64 draws side by side: one call over
        all draws pads one block, not one per chunk, and threads meet once.

        Examples
        --------
        >>> crn = DirichletWeights(n_cases=3, n_samples=1000, random_state=0)
        >>> (whole,) = crn.blocks()
        >>> bool(np.array_equal(whole.exponentials,
        ...                     np.concatenate([c.exponentials for c in crn])))
        True
        """
        chunks = self._cached
        if chunks is None or len(chunks) == 1:
            yield from self
            return
        if self._whole is None:
            self._whole = WeightChunk(
                rows=slice(0, self.n_samples),
                exponentials=np.concatenate([c.exponentials for c in chunks]),
                uniforms=np.concatenate([c.uniforms for c in chunks]),
            )
        yield self._whole

    def batches(self, rows: int) -> Iterator[WeightChunk]:
        """Consecutive chunks merged into batches of at least ``rows`` draws
        (the last may hold fewer): the same numbers as iterating, in fewer and
        larger pieces.

        For compiled passes that work on 64 draws side by side: chunks sized
        for many columns per case (a joint procedure's pairs) can hold fewer
        draws than that, and a pass over a 20-draw chunk costs what one over
        64 draws does.

        Examples
        --------
        >>> crn = DirichletWeights(n_cases=3, n_samples=100, random_state=0,
        ...                        columns_per_case=10**6)
        >>> crn.chunk_rows, [b.rows for b in crn.batches(64)]
        (16, [slice(0, 64, None), slice(64, 100, None)])
        """
        pending: list[WeightChunk] = []
        held = 0
        for chunk in self:
            pending.append(chunk)
            held += chunk.rows.stop - chunk.rows.start
            if held >= rows:
                yield _merged(pending)
                pending, held = [], 0
        if pending:
            yield _merged(pending)

    def __iter__(self) -> Iterator[WeightChunk]:
        if self._cached is not None:
            yield from self._cached
            return
        yield from self._generate()

    def _generate(self) -> Iterator[WeightChunk]:
        n_chunks = -(-self.n_samples // self.chunk_rows)
        for index in range(n_chunks):
            chunk = self._chunk(index)
            if self.bar is not None:
                self.bar.update(chunk.rows.stop - chunk.rows.start)
            yield chunk

    def _chunk(self, index: int) -> WeightChunk:
        start = index * self.chunk_rows
        stop = min(start + self.chunk_rows, self.n_samples)
        stream = np.random.SeedSequence(
            self._seed.entropy, spawn_key=(*self._seed.spawn_key, index)
        )
        # compiled SFC64 + ziggurat: numpy's algorithms, ~1.6x numpy's speed here
        from nbstats.stats.bayes.exponentials import fill_weights_raw, sfc64_state

        exponentials = np.empty((stop - start, self.n_cases))
        uniforms = np.empty(stop - start)
        fill_weights_raw(sfc64_state(stream), exponentials, uniforms)
        return WeightChunk(
            rows=slice(start, stop), exponentials=exponentials, uniforms=uniforms
        )

    @cached_property
    def _cached(self) -> list[WeightChunk] | None:
        # keep small problems in memory: re-evaluating for a new s (dashboards)
        # then costs no random number generation at all
        from nbstats.util.memory import budget

        if 8 * self.n_samples * (self.n_cases + 1) <= min(CHUNK_BYTES, budget()):
            return list(self._generate())
        return None


def _merged(chunks: list[WeightChunk]) -> WeightChunk:
    """Consecutive chunks as one."""
    if len(chunks) == 1:
        return chunks[0]
    return WeightChunk(
        rows=slice(chunks[0].rows.start, chunks[-1].rows.stop),
        exponentials=np.concatenate([c.exponentials for c in chunks]),
        uniforms=np.concatenate([c.uniforms for c in chunks]),
    )

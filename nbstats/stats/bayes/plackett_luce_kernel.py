"""Compiled Gibbs chain of the Plackett–Luce sampler (:mod:`.plackett_luce_sampler`).

Why numba and not numpy: an iteration needs, per case, the worths in ranking
order, their sums from the end, the latent exponentials and their running
sums scattered back to the algorithms, then one Gamma draw per algorithm.
numpy makes a pass and a temporary array for each and a Python round trip
per iteration (thousands per chain); :func:`run_chain` runs a whole stretch
of a chain in one call, releases the GIL, and draws its random numbers from
the chain's own SFC64 stream (:mod:`.exponentials`, :mod:`.gamma_variates`),
so chains can run in threads and give the same draws whichever thread runs
them.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from nbstats.stats.bayes.exponentials import _F, _K, _W, _fill, _sfc64, _unit
from nbstats.stats.bayes.gamma_variates import draw_log_gamma
from nbstats.stats.compiled import announce

__all__ = ["LINEAR_FLOOR", "ChainWork", "latent_rates", "run_chain"]


#: Below this log-worth (relative to a chain's largest) the linear-domain pass
#: could underflow a case's remaining worth to 0: the chain takes the log pass.
LINEAR_FLOOR = -600.0


@numba.njit(nogil=True, cache=True, inline="always")
def _logaddexp(a: float, b: float) -> float:
    if a == -np.inf:
        return b
    if b == -np.inf:
        return a
    top = max(a, b)
    return top + np.log1p(np.exp(-abs(a - b)))


@numba.njit(nogil=True, cache=True)
def latent_rates(
    order: np.ndarray,
    log_worths: np.ndarray,
    exponentials: np.ndarray,
    n_ranked: np.ndarray,
    log_sums: np.ndarray,
    counts: np.ndarray,
) -> None:
    """Add one chain's latent exposures and choice counts, in the log domain.

    For case ``i`` ranking ``k`` algorithms in ``order[i]`` (best first),
    stage ``r < k - 1`` has the latent ``Z = E / Σ_{s≥r} w_{o_s}`` with
    ``E = exponentials[i, r]``. The algorithm in slot ``r`` takes part in
    stages ``0 … min(r, k − 2)``: its exposure gains the running sum of ``Z``
    up to that stage, and ``log_sums[o_r]`` becomes the log of its total
    exposure; ``counts[o_r]`` gains 1 when it was chosen at stage ``r`` (it
    is not last).

    The worths come as logs (``log_worths``; any common shift), so no worth
    can underflow: worths that span less than ``exp(LINEAR_FLOOR)`` take a
    linear pass relative to the largest (fast), wider ones the same sums with
    log-sum-exp (slower, never 0 or infinite).

    Parameters
    ----------
    order : int array, shape (cases, width)
    log_worths : float array, shape (m,)
    exponentials : float array, shape (cases, width)
    n_ranked : int array, shape (cases,)
    log_sums, counts : float arrays, shape (m,)
        Updated in place (``log_sums`` starts at ``-inf``, ``counts`` at 0).

    Examples
    --------
    >>> order = np.array([[0, 1]])
    >>> log_worths = np.log(np.array([1.0, 3.0]))
    >>> log_sums, counts = np.full(2, -np.inf), np.zeros(2)
    >>> latent_rates(order, log_worths, np.array([[2.0, 5.0]]), np.array([2]),
    ...              log_sums, counts)
    >>> np.exp(log_sums).round(12).tolist(), counts.tolist()  # Z = 2 / (1 + 3)
    ([0.5, 0.5], [1.0, 0.0])
    """
    cases, width = order.shape
    m = log_worths.shape[0]
    remaining = np.empty(width)
    top = log_worths[0]
    low = log_worths[0]
    for j in range(1, m):
        top = max(top, log_worths[j])
        low = min(low, log_worths[j])
    if low - top >= LINEAR_FLOOR:
        linear = np.empty(m)
        sums = np.zeros(m)
        for j in range(m):
            linear[j] = np.exp(log_worths[j] - top)
        for i in range(cases):
            k = n_ranked[i]
            tail = 0.0
            for r in range(k - 1, -1, -1):
                tail += linear[order[i, r]]
                remaining[r] = tail
            running = 0.0
            for r in range(k):
                j = order[i, r]
                if r < k - 1:
                    running += exponentials[i, r] / remaining[r]
                    counts[j] += 1.0
                sums[j] += running
        for j in range(m):
            if sums[j] > 0.0:
                log_sums[j] = _logaddexp(log_sums[j], np.log(sums[j]) - top)
        return
    for i in range(cases):
        k = n_ranked[i]
        tail = -np.inf
        for r in range(k - 1, -1, -1):
            tail = _logaddexp(tail, log_worths[order[i, r]])
            remaining[r] = tail
        running = -np.inf
        for r in range(k):
            j = order[i, r]
            if r < k - 1:
                step = exponentials[i, r]
                if step > 0.0:
                    running = _logaddexp(running, np.log(step) - remaining[r])
                counts[j] += 1.0
            log_sums[j] = _logaddexp(log_sums[j], running)


@numba.njit(nogil=True, cache=True)
def _gibbs_chain(
    state, log_worths, fixed_order, n_ranked, group_start, starts, sizes,
    prior, start, iterations, skip, out, columns, order, exponentials, no_uniforms,
    log_sums, counts, k_table, w_table, f_table,
):  # fmt: skip
    cases, width = fixed_order.shape
    m = log_worths.shape[0]
    block = order.shape[0]
    total_prior = m * prior
    # iteration -1: the chain's start, a draw from the prior (no cases seen)
    for iteration in range(-1 if start else 0, iterations):
        for j in range(m):
            log_sums[j] = -np.inf
            counts[j] = 0.0
        for low in range(0, cases if iteration >= 0 else 0, block):
            rows = min(block, cases - low)
            # every group of tied ranks in a random order (Fisher–Yates);
            # element by element: a whole-row assignment would compile
            # numba's broadcasting checks and their messages
            a, b, c, counter = state[0], state[1], state[2], state[3]
            for i in range(rows):
                for k in range(width):
                    order[i, k] = fixed_order[low + i, k]
                for g in range(group_start[low + i], group_start[low + i + 1]):
                    first, size = starts[g], sizes[g]
                    for t in range(size - 1, 0, -1):
                        bits, a, b, c, counter = _sfc64(a, b, c, counter)
                        pick = int(_unit(bits) * (t + 1))
                        left, right = first + t, first + pick
                        order[i, left], order[i, right] = (
                            order[i, right],
                            order[i, left],
                        )
            state[0], state[1], state[2], state[3] = a, b, c, counter
            # every slot of the rows (a case ranking k uses k − 1): the
            # weights' generator, compiled once for both
            _fill(state, exponentials[:rows], no_uniforms, k_table, w_table, f_table)
            latent_rates(
                order[:rows], log_worths, exponentials[:rows],
                n_ranked[low : low + rows], log_sums, counts,
            )  # fmt: skip
        # the total s = Σw is redrawn from its prior Gamma(mα, 1): the
        # likelihood does not depend on it. The rate of w_j is 1 + S_j / s
        # (S_j: its exposure); its log less the common log(1/s), which the
        # normalisation takes out anyway, is logaddexp(log s, log S_j): no
        # huge log s is added to the small differences between the S_j
        log_scale = draw_log_gamma(state, total_prior) if iteration >= 0 else 0.0
        top = -np.inf
        for j in range(m):
            log_worths[j] = draw_log_gamma(state, prior + counts[j])
            log_worths[j] -= _logaddexp(log_scale, log_sums[j])
            top = max(top, log_worths[j])
        total = 0.0
        for j in range(m):
            total += np.exp(log_worths[j] - top)
        shift = top + np.log(total)
        for j in range(m):
            log_worths[j] -= shift
        if iteration >= skip:
            row = iteration - skip
            for j in range(m):
                out[row, columns[j]] = log_worths[j]


class ChainWork:
    """The working arrays of one chain's call, ``block`` cases at a time
    (default: every case): made once, reused by every call of a thread.

    Examples
    --------
    >>> from nbstats.stats.bayes.plackett_luce_sampler import RankingData
    >>> ChainWork(RankingData(np.array([[1.0, 2.0], [2.0, 1.0]])), block=1).order.shape
    (1, 2)
    """

    def __init__(self, data: Any, block: int | None = None) -> None:
        rows = data.n_cases if block is None else max(1, min(int(block), data.n_cases))
        self.order = np.empty((rows, data.width), dtype=np.int64)
        self.exponentials = np.empty((rows, data.width))
        self.no_uniforms = np.empty(0)
        self.log_sums = np.empty(data.m)
        self.counts = np.empty(data.m)


def run_chain(
    state: np.ndarray,
    log_worths: np.ndarray,
    data: Any,
    *,
    prior: float,
    iterations: int,
    skip: int,
    out: np.ndarray,
    columns: np.ndarray,
    start: bool = False,
    work: ChainWork | None = None,
) -> None:
    """Run ``iterations`` Gibbs iterations of one chain, keeping all but ``skip``.

    ``state`` (the chain's SFC64 words) and ``log_worths`` (its normalised
    log-worths, shape ``(m,)``) are advanced in place; kept iteration ``t``
    writes ``out[t − skip, columns]``. With ``start``, the chain first draws
    its worths from the prior (``log_worths`` is overwritten). ``data`` is a
    :class:`~nbstats.stats.bayes.plackett_luce_sampler.RankingData`. The
    cases are taken as many at a time as ``work`` holds (default: a
    :class:`ChainWork` of every case), which bounds the working arrays;
    another block gives other random numbers from the same posterior.

    Examples
    --------
    >>> from nbstats.stats.bayes.exponentials import sfc64_state
    >>> from nbstats.stats.bayes.plackett_luce_sampler import RankingData
    >>> data = RankingData(np.array([[1.0, 2.0], [1.0, 2.0], [2.0, 1.0]]))
    >>> out = np.empty((3, 2))
    >>> run_chain(sfc64_state(np.random.SeedSequence(0)), np.log([0.5, 0.5]), data,
    ...           prior=1.0, iterations=5, skip=2, out=out, columns=np.arange(2))
    >>> np.exp(out).sum(axis=1).round(12).tolist()
    [1.0, 1.0, 1.0]
    """
    work = ChainWork(data) if work is None else work
    _gibbs_chain(
        state, log_worths, data.fixed_order, data.n_ranked, data.group_start,
        data.tie_starts, data.tie_sizes, float(prior), bool(start), int(iterations),
        int(skip), out, columns, work.order, work.exponentials, work.no_uniforms,
        work.log_sums, work.counts, _K, _W, _F,
    )  # fmt: skip


# one line on stderr before the first compilation (nbstats.stats.compiled)
announce(latent_rates, _gibbs_chain)

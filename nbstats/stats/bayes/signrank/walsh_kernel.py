"""Compiled inner loop of the weighted Walsh sums (see :mod:`.walsh`).

Why numba and not numpy: per draw the work is one prefix sum and a gather +
dot product per region, all O(n). In numpy each of these is a separate pass
that writes an (rows × n) temporary, so a chunk is read and written five to
ten times, and for many pairs (the joint procedure, the dashboards) each pair
needs its own permuted copy of the weights. Here every draw's weights stay in
a small buffer in the processor's cache: the prefix sums are built once per
pair and draw and every region is read from them, with no temporaries. This
made the sums several times faster than the numpy version, leaving the
exponential random numbers as the main cost (``benchmarks/bench_bayes.py``).

The function releases the GIL (``nogil``), so callers may run chunks in
threads; it is single-threaded itself, which keeps it safe to call from
several threads at once (numba's default parallel layer is not).
"""

from __future__ import annotations

import numba
import numpy as np

from nbstats.stats.compiled import announce

__all__ = ["cross_term", "first_true", "walsh_sums"]


#: draws processed side by side. A prefix sum is a chain of dependent
#: additions, but the chains of different draws are independent; with the
#: draws as the inner loop (64 long, so that the compiler vectorises it, and
#: short enough that a block's buffers stay in the processor's cache) the
#: sums run faster than one draw at a time (64 was the fastest width tried:
#: benchmarks/bench_bayes.py)
LANES = 64


@numba.njit(inline="always")
def load_block(cases, start, lanes, order, weights):  # pragma: no cover
    """Draws ``start …`` side by side into ``weights[j, lane]`` (zero-padded),
    case ``order[j]`` in row j; ``cases`` is cases × draws, so that each row
    is one contiguous run (a permuted pass is faster than a strided gather
    from draws × cases)."""
    n = weights.shape[0]
    for j in range(n):
        column = order[j]
        for b in range(lanes):
            weights[j, b] = cases[column, start + b]
        for b in range(lanes, LANES):
            weights[j, b] = 0.0


@numba.njit(inline="always")
def load_blocked(blocked, start, lanes, order, weights):  # pragma: no cover
    """:func:`load_block` from draws laid out block by block,
    ``blocked[start // LANES, case, lane]`` (zero-padded): a block's cases
    are one contiguous run, so a plan of few pairs does not pay a strided
    read of every case's row per block."""
    n = weights.shape[0]
    at = start // LANES
    for j in range(n):
        column = order[j]
        for b in range(lanes):
            weights[j, b] = blocked[at, column, b]
        for b in range(lanes, LANES):
            weights[j, b] = 0.0


@numba.njit(inline="always")
def cross_term(prefix, n, at, other, sign, lane):  # pragma: no cover
    """The cross term of one draw (``lane``) from its prefix sums: the weight
    beyond the boundary ``at`` plus half the weight between it and ``other``
    (below ``at`` when ``sign`` is negative)."""
    p_at, p_other = prefix[at, lane], prefix[other, lane]
    if sign > 0:
        return prefix[n, lane] - p_at + 0.5 * (p_at - p_other)
    return p_at + 0.5 * (p_other - p_at)


@numba.njit(nogil=True, cache=True)
def walsh_sums(
    exponentials: np.ndarray,
    orders: np.ndarray,
    permute: bool,
    mains: np.ndarray,
    signs: np.ndarray,
    full: np.ndarray,
    tie_start: np.ndarray,
    tie_rows: np.ndarray,
    tie_high: np.ndarray,
    tie_low: np.ndarray,
    point_main: np.ndarray,
    point_other: np.ndarray,
    with_cross: bool,
    total: np.ndarray,
    quad: np.ndarray,
    cross: np.ndarray,
    offset: int,
    columns: np.ndarray,
    blocked: np.ndarray,
) -> None:  # pragma: no cover - compiled; tested through its callers
    """Fill ``total[o]``, ``quad[k, q, o]`` and ``cross[k, q, o]``, o = offset + r,
    for every draw r (the outputs may hold more draws than this chunk).

    ``exponentials`` is rows × n (one draw per row). Plan k sees the weights
    in the order ``orders[k]`` when ``permute`` (else as given, already in
    its sorted order). Region q of plan k is ``H(signs[q] (z_i + z_j) - c)``
    with the prefix-sum positions ``mains[k, q]`` and the boundary ties
    ``tie_rows/high/low[tie_start[k*R + q] : tie_start[k*R + q + 1]]``;
    ``point_main/other[k, q]`` locate the pseudo-observation for ``cross``.
    ``columns`` (empty: all of them, in order): the columns of
    ``exponentials`` that are the plans' n cases -- a subset of a wider
    stream's cases read in place (case j of a plan is column ``columns[j]``).
    ``blocked`` (empty: unused): the same draws as ``exponentials``, laid out
    ``[draw // LANES, column, draw % LANES]`` (:func:`load_blocked`).
    """
    rows = exponentials.shape[0]
    subset = columns.size > 0
    use_blocked = blocked.size > 0
    n = columns.size if subset else exponentials.shape[1]
    n_plans, n_regions = mains.shape[0], mains.shape[1]
    cases = np.ascontiguousarray(exponentials.T)
    identity = columns.copy() if subset else np.arange(n)
    mapped = np.empty(n, dtype=np.int64)
    weights = np.zeros((n, LANES))  # draws side by side: [case, lane]
    prefix = np.zeros((n + 1, LANES))
    # suffix[j] = T - prefix[j]: Σ_i w_i suffix[g_i] is a region "above", and
    # exactly 0 when no pair is in it (suffix[n] = 0), rather than
    # T² - Σ_i w_i prefix[g_i] with a rounding error of either sign
    suffix = np.zeros((n + 1, LANES))
    dot = np.zeros(LANES)
    half = np.zeros(LANES)
    for start in range(0, rows, LANES):
        lanes = min(LANES, rows - start)
        for k in range(n_plans):
            # unpermuted, every plan sees the same weights: reuse the prefix sums
            if permute or k == 0:
                if permute and subset:
                    for j in range(n):
                        mapped[j] = columns[orders[k, j]]
                    order = mapped
                elif permute:
                    order = orders[k]
                else:
                    order = identity
                if use_blocked:
                    load_blocked(blocked, start, lanes, order, weights)
                else:
                    load_block(cases, start, lanes, order, weights)
                for j in range(n):
                    for b in range(LANES):
                        prefix[j + 1, b] = prefix[j, b] + weights[j, b]
                for j in range(n + 1):
                    for b in range(LANES):
                        suffix[j, b] = prefix[n, b] - prefix[j, b]
            if k == 0:
                for b in range(lanes):
                    total[offset + start + b] = prefix[n, b]
            for q in range(n_regions):
                main = mains[k, q]
                for b in range(LANES):
                    dot[b] = 0.0
                    half[b] = 0.0
                # eight cases per update of the accumulators: they live in
                # memory (64 lanes), and their loads and stores bound this
                # loop (the dashboard's sums are faster than with one)
                whole = n - n % 8
                sums = prefix if signs[q] < 0 else suffix
                for i in range(0, whole, 8):
                    a0, a1, a2, a3 = main[i], main[i + 1], main[i + 2], main[i + 3]
                    a4, a5, a6, a7 = main[i + 4], main[i + 5], main[i + 6], main[i + 7]
                    for b in range(LANES):
                        dot[b] += (
                            (
                                weights[i, b] * sums[a0, b]
                                + weights[i + 1, b] * sums[a1, b]
                            )
                            + (
                                weights[i + 2, b] * sums[a2, b]
                                + weights[i + 3, b] * sums[a3, b]
                            )
                        ) + (
                            (
                                weights[i + 4, b] * sums[a4, b]
                                + weights[i + 5, b] * sums[a5, b]
                            )
                            + (
                                weights[i + 6, b] * sums[a6, b]
                                + weights[i + 7, b] * sums[a7, b]
                            )
                        )
                for i in range(whole, n):
                    at = main[i]
                    for b in range(LANES):
                        dot[b] += weights[i, b] * sums[at, b]
                index = k * n_regions + q
                for t in range(tie_start[index], tie_start[index + 1]):
                    i, high, low = tie_rows[t], tie_high[t], tie_low[t]
                    for b in range(LANES):
                        half[b] += weights[i, b] * (prefix[high, b] - prefix[low, b])
                first = offset + start
                if full[k, q]:
                    # every pair is in the region: exactly T², so that θ = 1
                    # exactly (an empty one gives exactly 0 by the suffix form)
                    for b in range(lanes):
                        quad[k, q, first + b] = prefix[n, b] * prefix[n, b]
                else:
                    for b in range(lanes):
                        quad[k, q, first + b] = dot[b] + 0.5 * half[b]
                if with_cross:
                    at, other = point_main[k, q], point_other[k, q]
                    for b in range(lanes):
                        cross[k, q, first + b] = cross_term(
                            prefix, n, at, other, signs[q], b
                        )


@numba.njit(nogil=True, cache=True)
def first_true(
    xs: np.ndarray, zs: np.ndarray, c: float, strict: bool
) -> np.ndarray:  # pragma: no cover - compiled; tested through first_index
    """For each x, the first j with ``x + zs[j] > c`` (``>= c`` unless strict)."""
    n = zs.size
    out = np.empty(xs.size, dtype=np.int64)
    for i in range(xs.size):
        x, low, high = xs[i], 0, n
        while low < high:
            middle = (low + high) // 2
            total = x + zs[middle]
            if total > c or (not strict and total == c):
                high = middle
            else:
                low = middle + 1
        out[i] = low
    return out


# one line on stderr before the first compilation (nbstats.stats.compiled)
announce(walsh_sums, first_true)

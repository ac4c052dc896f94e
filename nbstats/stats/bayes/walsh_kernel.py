"""Compiled inner loop of the weighted Walsh sums (see :mod:`.walsh`).

Why numba and not numpy: per draw the work is one prefix sum and a gather +
dot product per region, all O(n). In numpy each of these is a separate pass
that writes an (rows × n) temporary, so a chunk is read and written five to
ten times, and for many pairs (the joint procedure, the dashboards) each pair
needs its own permuted copy of the weights. Here every draw's weights stay in
a small buffer in the processor's cache: the prefix sums are built once per
pair and draw and every region is read from them, with no temporaries. On a
2-vCPU machine this made the sums 5–10× faster than the numpy version, leaving
the exponential random numbers (drawn by numpy) as the main cost.

The function releases the GIL (``nogil``), so callers may run chunks in
threads; it is single-threaded itself, which keeps it safe to call from
several threads at once (numba's default parallel layer is not).
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = ["walsh_sums"]


@numba.njit(nogil=True, cache=True)
def walsh_sums(
    exponentials: np.ndarray,
    orders: np.ndarray,
    permute: bool,
    mains: np.ndarray,
    signs: np.ndarray,
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
) -> None:  # pragma: no cover - compiled; tested through its callers
    """Fill ``total[r]``, ``quad[r, k, q]`` and ``cross[r, k, q]`` for every draw r.

    ``exponentials`` is rows × n (one draw per row). Plan k sees the weights
    in the order ``orders[k]`` when ``permute`` (else as given, already in
    its sorted order). Region q of plan k is ``H(signs[q] (z_i + z_j) - c)``
    with the prefix-sum positions ``mains[k, q]`` and the boundary ties
    ``tie_rows/high/low[tie_start[k*R + q] : tie_start[k*R + q + 1]]``;
    ``point_main/other[k, q]`` locate the pseudo-observation for ``cross``.
    """
    rows, n = exponentials.shape
    n_plans, n_regions = mains.shape[0], mains.shape[1]
    weights = np.empty(n)
    prefix = np.empty(n + 1)
    for r in range(rows):
        row = exponentials[r]
        prefix[0] = 0.0
        for k in range(n_plans):
            acc = 0.0
            if permute:
                order = orders[k]
                for j in range(n):
                    x = row[order[j]]
                    weights[j] = x
                    acc += x
                    prefix[j + 1] = acc
            else:
                for j in range(n):
                    x = row[j]
                    weights[j] = x
                    acc += x
                    prefix[j + 1] = acc
            if k == 0:
                total[r] = acc
            for q in range(n_regions):
                main = mains[k, q]
                dot = 0.0
                for i in range(n):
                    dot += weights[i] * prefix[main[i]]
                value = acc * acc - dot if signs[q] > 0 else dot
                half = 0.0
                index = k * n_regions + q
                for t in range(tie_start[index], tie_start[index + 1]):
                    half += weights[tie_rows[t]] * (
                        prefix[tie_high[t]] - prefix[tie_low[t]]
                    )
                quad[r, k, q] = value + 0.5 * half
                if with_cross:
                    at, other = point_main[k, q], point_other[k, q]
                    if signs[q] > 0:
                        step = acc - prefix[at] + 0.5 * (prefix[at] - prefix[other])
                    else:
                        step = prefix[at] + 0.5 * (prefix[other] - prefix[at])
                    cross[r, k, q] = step

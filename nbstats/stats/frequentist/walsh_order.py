"""Order statistics of the Walsh averages without forming them.

The Hodges–Lehmann estimate and the Wilcoxon confidence interval
(:mod:`nbstats.stats.effect_size`) are order statistics of the n(n + 1)/2
Walsh averages; these are found by selection in O(n) memory.
"""

from __future__ import annotations

import numpy as np

__all__ = ["walsh_order_statistics"]

#: Pivots are drawn from this many random candidates per round.
_PIVOT_SAMPLE = 1 << 16


def walsh_order_statistics(
    d: np.ndarray, ranks: object, *, materialize: int | None = None
) -> np.ndarray:
    """The ``ranks``-th smallest Walsh averages of ``d``, in O(n) memory.

    The Walsh averages are ``d_i/2 + d_j/2`` for ``i ≤ j`` (halves first, so
    no sum overflows), N = n(n + 1)/2 of them; ``ranks`` counts from 1. The
    result equals ``np.sort(w)[ranks - 1]`` of the materialised averages
    ``w`` bit for bit (the same float sums), without storing the N values.

    With ``h`` = the sorted halves, the averages are the upper triangle of
    the matrix ``h_i + h_j`` whose rows and columns are sorted (float
    addition is monotone), so how many averages of a row are below p is one
    ``searchsorted``, checked (and corrected where ``p - h_i`` rounded) with
    the float sum itself. The candidates are a column range per row. Each
    round draws random candidates and takes two of them as pivots around
    the target's expected position (Floyd & Rivest 1975; Monahan 1984
    selects in the same sorted matrix), then keeps each row's range between
    them. Once at most ``materialize`` candidates are left (default 2n,
    within 2²⁰ … 2²²) they are formed and partitioned. Memory is O(n +
    materialize); expected time O(n log n) per round and a few rounds
    (the band around the target shrinks about 80-fold per round). A rank
    that follows the one just found costs one more count.

    Parameters
    ----------
    d : ndarray
        Finite differences.
    ranks : int or array of int
        Ranks 1 … N.
    materialize : int, optional
        How many candidates are formed at most (tests set it small to run
        the pivot rounds on small inputs).

    Returns
    -------
    ndarray
        One value per rank, in the order of ``ranks``.

    Examples
    --------
    >>> d = np.array([3.0, -1.0, 2.0])  # averages -1, 0.5, 1, 2, 2.5, 3
    >>> walsh_order_statistics(d, [1, 3, 6]).tolist()
    [-1.0, 1.0, 3.0]
    """
    half = np.sort(np.asarray(d, dtype=float).ravel() / 2)
    n = half.size
    total = n * (n + 1) // 2
    wanted = np.atleast_1d(np.asarray(ranks, dtype=np.int64))
    if wanted.size and (wanted.min() < 1 or wanted.max() > total):
        raise ValueError(f"ranks must lie in 1 … {total} (n = {n}), got {ranks!r}.")
    cap = _materialize(n) if materialize is None else max(int(materialize), 1)
    rng = np.random.default_rng(0)  # only the speed depends on the draws
    found: dict[int, float] = {}
    for k in sorted(set(wanted.tolist())):
        if k - 1 in found:
            found[k] = _next_walsh(half, found[k - 1], k)
        else:
            found[k] = _select_walsh(half, k, cap, rng)
    return np.array([found[k] for k in wanted.tolist()], dtype=float)


def _materialize(n: int) -> int:
    """How many candidates are formed at most: 2n between 2²⁰ and 2²²."""
    return min(max(2 * n, 1 << 20), 1 << 22)


def _select_walsh(
    half: np.ndarray, k: int, cap: int, rng: np.random.Generator
) -> float:
    """The k-th smallest ``half_i + half_j`` (i ≤ j) of the sorted ``half``.

    Every average left of a row's range is below every candidate and every
    one right of it above: the counts below a pivot need only the rows that
    still hold candidates.
    """
    n = half.size
    rows = np.arange(n)
    low, high = rows.copy(), np.full(n, n)  # each row's candidates: [low, high)
    while True:
        live = np.flatnonzero(high > low)
        width = high[live] - low[live]
        size = int(width.sum())
        below = int((low - rows).sum())
        if size <= cap:
            row = np.repeat(live, width)
            col = np.arange(size) - np.repeat(
                np.cumsum(width) - width - low[live], width
            )
            values = half[row] + half[col]
            return float(np.partition(values, k - below - 1)[k - below - 1])
        p_lo, p_hi = _pivots(half, live, low[live], width, k - below, rng)
        window = (low[live], high[live])
        lt_lo = _row_bounds(half, live, p_lo, window, strict=True)
        if k <= below + int((lt_lo - window[0]).sum()):
            high[live] = lt_lo  # the target is below p_lo, a candidate: progress
            continue
        le_hi = _row_bounds(half, live, p_hi, window, strict=False)
        if k > below + int((le_hi - window[0]).sum()):
            low[live] = le_hi  # the target is above p_hi
            continue
        if int((le_hi - lt_lo).sum()) < size:
            low[live], high[live] = lt_lo, le_hi  # the target is in [p_lo, p_hi]
            continue
        # no progress: every candidate lies in [p_lo, p_hi] (ties)
        le_lo = _row_bounds(half, live, p_lo, window, strict=False)
        if k <= below + int((le_lo - window[0]).sum()):
            return p_lo
        lt_hi = _row_bounds(half, live, p_hi, window, strict=True)
        if k > below + int((lt_hi - window[0]).sum()):
            return p_hi
        low[live], high[live] = le_lo, lt_hi  # strictly between: both pivots go


def _next_walsh(half: np.ndarray, value: float, k: int) -> float:
    """The k-th smallest average, given that the (k − 1)-th is ``value``."""
    n = half.size
    rows = np.arange(n)
    window = (rows, np.full(n, n))
    at_most = _row_bounds(half, rows, value, window, strict=False)
    if int((at_most - rows).sum()) >= k:
        return value  # a tie
    first = at_most[at_most < n]  # each row's first average above value
    return float(np.min(half[rows[at_most < n]] + half[first]))


def _pivots(
    half: np.ndarray,
    live: np.ndarray,
    low: np.ndarray,
    width: np.ndarray,
    target: int,
    rng: np.random.Generator,
) -> tuple[float, float]:
    """Two sampled candidates that bracket the target with high probability."""
    ends = np.cumsum(width)
    size = int(ends[-1])
    m = min(_PIVOT_SAMPLE, max(32, size // 16))  # less only for tiny test caps
    position = rng.integers(0, size, m)
    at = np.searchsorted(ends, position, side="right")
    col = low[at] + position - (ends[at] - width[at])
    sample = np.sort(half[live[at]] + half[col])
    q = target / size
    spread = 3 * np.sqrt(m * q * (1 - q)) + 2
    at_lo = min(max(int(m * q - spread), 0), m - 1)
    at_hi = min(max(int(m * q + spread), 0), m - 1)
    return float(sample[at_lo]), float(sample[at_hi])


def _row_bounds(
    half: np.ndarray,
    rows: np.ndarray,
    p: float,
    window: tuple[np.ndarray, np.ndarray],
    *,
    strict: bool,
) -> np.ndarray:
    """For each of ``rows``, where ``half_i + half_j < p`` (or ≤ p) stops, in
    its window: ``searchsorted`` of ``p - half_i`` may be off where that
    difference rounds; rows whose answer fails the float sum itself get a
    binary search.
    """
    n = half.size
    side = "left" if strict else "right"
    first = half[rows]
    # the keys p - half are decreasing: searched in ascending order they are
    # found faster (searchsorted starts from the previous key's position)
    bounds = np.searchsorted(half, (p - first)[::-1], side=side)[::-1].copy()

    def inside(at: np.ndarray | slice, j: np.ndarray) -> np.ndarray:
        s = first[at] + half[j]
        return s < p if strict else s <= p

    # right: the last j inside is bounds - 1 and the next one is outside
    wrong = (bounds > 0) & ~inside(slice(None), np.maximum(bounds - 1, 0))
    wrong |= (bounds < n) & inside(slice(None), np.minimum(bounds, n - 1))
    fix = np.flatnonzero(wrong)
    if fix.size:
        lo, hi = np.zeros(fix.size, dtype=np.int64), np.full(fix.size, n)
        while np.any(lo < hi):
            go = lo < hi
            mid = (lo + hi) // 2
            ok = np.zeros(fix.size, dtype=bool)
            ok[go] = inside(fix[go], mid[go])
            lo = np.where(go & ok, mid + 1, lo)
            hi = np.where(go & ~ok, mid, hi)
        bounds[fix] = lo
    return np.clip(bounds, window[0], window[1])

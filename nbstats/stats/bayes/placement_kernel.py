"""Compiled kernels of the exact near-ignorance bounds with a rope (:mod:`.placements`).

:func:`placement_states` lists, for every pair, the finitely many states of
the prior's pseudo-observation as its placement z0 runs over the extended
real line; :func:`placement_counts` counts, on a block of draws, how often
each region wins at each state. A draw whose winner is provably the same at
every placement (the three corners of the triangle that holds every
placement's shares agree, with a margin) is counted once; only the others
are evaluated at every state, 64 draws side by side.

numba's on-disk cache keys a function on its own file only: after a change
to :func:`~.summary_kernel.region_code`, this file must change too.
"""

from __future__ import annotations

import numba
import numpy as np

from nbstats.stats.bayes.summary_kernel import region_code
from nbstats.stats.bayes.walsh_kernel import LANES

__all__ = ["STATE_FIELDS", "clear_code", "placement_counts", "placement_states"]

#: Fields of a state: the pseudo-observation's pairs (0, j) in the left
#: region are the sorted cases ``[0, m1)`` in full and ``[m1, m2)`` by half;
#: in the right region ``[k2, n)`` in full and ``[k1, k2)`` by half; its own
#: pair (0, 0) is left with weight ``hl2 / 2`` and right with ``hr2 / 2``.
STATE_FIELDS = ("m1", "m2", "k1", "k2", "hl2", "hr2")


@numba.njit(inline="always")
def _two_sum(a: float, b: float) -> tuple[float, float]:  # pragma: no cover
    """``(s, t)`` with ``s = fl(a + b)`` and ``s + t = a + b`` exactly (Knuth)."""
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


@numba.njit(nogil=True, cache=True)
def placement_states(
    sorted_z: np.ndarray, rope: float
) -> np.ndarray:  # pragma: no cover - compiled; tested against brute force
    """``out[k, c]``: the :data:`STATE_FIELDS` of every placement state of pair k.

    Row k of ``sorted_z`` holds a pair's differences in ascending order. As
    z0 grows, the pseudo-observation's pair with case j leaves the left
    region at ``z0 = -2 rope - z_j`` and enters the right one at
    ``2 rope - z_j``; its pair with itself at ``-rope`` and ``+rope``. These
    event times are compared exactly (each is held as an unevaluated sum of
    two floats), equal times form one event, and the states are: every open
    interval between consecutive events (±∞ at the ends) and every event
    itself (where each pair that crosses a boundary counts ½, H(0) = ½).
    There are ``2 G + 1`` of them for G distinct event times; the rows are
    padded to ``4 n + 5`` by repeating the last state (+∞), which changes no
    minimum or maximum.
    """
    n_pairs, n = sorted_z.shape
    width = 4 * n + 5
    out = np.empty((n_pairs, width, 6), dtype=np.int64)
    c2 = 2.0 * rope
    n_events = 2 * n + 2
    hi = np.empty(n_events)
    lo = np.empty(n_events)
    kind = np.empty(n_events, dtype=np.int64)  # 0 left case, 1 right case, 2/3 self
    for k in range(n_pairs):
        z = sorted_z[k]
        # left events in ascending time are the cases from the largest down,
        # and so are the right ones; a merge of the four sorted sequences
        # (left, right, the self pair's -rope and +rope) by exact time
        i_left, i_right, i_self = 0, 0, 0
        for t in range(n_events):
            best, best_hi, best_lo = -1, np.inf, np.inf
            if i_left < n:
                h, l_ = _two_sum(-c2, -z[n - 1 - i_left])
                best, best_hi, best_lo = 0, h, l_
            if i_right < n:
                h, l_ = _two_sum(c2, -z[n - 1 - i_right])
                if best < 0 or h < best_hi or (h == best_hi and l_ < best_lo):
                    best, best_hi, best_lo = 1, h, l_
            if i_self < 2:
                h = -rope if i_self == 0 else rope
                if best < 0 or h < best_hi or (h == best_hi and best_lo > 0.0):
                    best, best_hi, best_lo = 2 + i_self, h, 0.0
            hi[t], lo[t], kind[t] = best_hi, best_lo, best
            if best == 0:
                i_left += 1
            elif best == 1:
                i_right += 1
            else:
                i_self += 1
        m, kk, hl2, hr2 = n, n, 2, 0  # at -inf: every pair left
        c = 0
        at = 0
        while at < n_events:
            # the open interval before this event time
            out[k, c, 0], out[k, c, 1], out[k, c, 2] = m, m, kk
            out[k, c, 3], out[k, c, 4], out[k, c, 5] = kk, hl2, hr2
            c += 1
            stop = at
            new_m, new_k, new_hl2, new_hr2 = m, kk, hl2, hr2
            while stop < n_events and hi[stop] == hi[at] and lo[stop] == lo[at]:
                what = kind[stop]
                if what == 0:
                    new_m -= 1
                elif what == 1:
                    new_k -= 1
                elif what == 2:
                    new_hl2 = 0
                else:
                    new_hr2 = 2
                stop += 1
            # the event itself: the crossing pairs count half
            out[k, c, 0], out[k, c, 1] = new_m, m
            out[k, c, 2], out[k, c, 3] = new_k, kk
            out[k, c, 4] = (hl2 + new_hl2) // 2
            out[k, c, 5] = (hr2 + new_hr2) // 2
            c += 1
            m, kk, hl2, hr2 = new_m, new_k, new_hl2, new_hr2
            at = stop
        while c < width:  # the open interval after the last event (+inf), repeated
            out[k, c, 0], out[k, c, 1], out[k, c, 2] = m, m, kk
            out[k, c, 3], out[k, c, 4], out[k, c, 5] = kk, hl2, hr2
            c += 1
    return out


@numba.njit(inline="always")
def clear_code(
    left: float, right: float, margin: float
) -> np.int64:  # pragma: no cover
    """The most probable of (left, rope = 1 - left - right, right) when it
    beats both others by more than ``margin``, else -1."""
    middle = 1.0 - left - right
    if left - middle > margin and left - right > margin:
        return np.int64(0)
    if middle - left > margin and middle - right > margin:
        return np.int64(1)
    if right - left > margin and right - middle > margin:
        return np.int64(2)
    return np.int64(-1)


@numba.njit(nogil=True, cache=True)
def placement_counts(
    exponentials: np.ndarray,
    offset: int,
    orders: np.ndarray,
    permute: bool,
    states: np.ndarray,
    right: np.ndarray,
    left: np.ndarray,
    g0: np.ndarray,
    inverse: np.ndarray,
    extra: np.ndarray,
    margin: float,
    base: np.ndarray,
    placed: np.ndarray,
) -> None:  # pragma: no cover - compiled; tested against brute force
    """Add the winners of a block of draws at every placement state.

    ``exponentials`` (rows × n) are the draws ``offset … offset + rows`` of
    the arrays indexed by draw: ``right[k]``, ``left[k]`` (pair k's Walsh
    sums of the cases, unnormalised), ``g0`` (the prior's Gamma weight),
    ``inverse`` (``1 / (g0 + T)²``) and ``extra`` (the share of the pairs
    that involve the pseudo-observation). Pair k sees the weights in its
    sorted order: as given, or ``orders[k]`` when ``permute``.

    A draw whose region wins by more than ``margin`` at the three corners
    of the triangle of shares that holds every placement (all of the
    pseudo-observation's share left, in the rope, right) wins at every
    placement (the regions where one wins are convex): ``base[k, region]``
    gains 1. Every other draw is evaluated at every state of
    ``states[k]`` (:func:`placement_states`) and ``placed[k, c, region]``
    gains 1 for its winner at state c. Outputs are added to, so blocks of
    draws may come in any order and any size.
    """
    rows, n = exponentials.shape
    n_pairs, width = states.shape[0], states.shape[1]
    pending = np.empty(rows, dtype=np.int64)
    prefix = np.zeros((n + 1, LANES))
    g = np.zeros(LANES)
    inv = np.zeros(LANES)
    low = np.zeros(LANES)
    high = np.zeros(LANES)
    total = np.zeros(LANES)
    for k in range(n_pairs):
        found = 0
        for r in range(rows):
            d = offset + r
            hi = right[k, d] * inverse[d]
            lo = left[k, d] * inverse[d]
            e = extra[d]
            at_left = clear_code(lo + e, hi, margin)
            at_rope = clear_code(lo, hi, margin)
            at_right = clear_code(lo, hi + e, margin)
            if at_left >= 0 and at_left == at_rope and at_rope == at_right:
                base[k, at_left] += 1
            else:
                pending[found] = r
                found += 1
        for start in range(0, found, LANES):
            lanes = min(LANES, found - start)
            for b in range(lanes):
                r = pending[start + b]
                d = offset + r
                g[b], inv[b] = g0[d], inverse[d]
                low[b], high[b] = left[k, d] * inv[b], right[k, d] * inv[b]
                acc = 0.0
                for j in range(n):
                    prefix[j, b] = acc
                    acc += exponentials[r, orders[k, j] if permute else j]
                prefix[n, b] = acc
                total[b] = acc
            for c in range(width):
                m1, m2 = states[k, c, 0], states[k, c, 1]
                k1, k2 = states[k, c, 2], states[k, c, 3]
                hl, hr = 0.5 * states[k, c, 4], 0.5 * states[k, c, 5]
                n_left = 0
                n_rope = 0
                for b in range(lanes):
                    p1 = prefix[m1, b]
                    cross_left = p1 + 0.5 * (prefix[m2, b] - p1)
                    s2 = total[b] - prefix[k2, b]
                    cross_right = s2 + 0.5 * ((total[b] - prefix[k1, b]) - s2)
                    gb = g[b]
                    x = (2.0 * gb * cross_left + hl * gb * gb) * inv[b]
                    y = (2.0 * gb * cross_right + hr * gb * gb) * inv[b]
                    code = region_code(low[b] + x, high[b] + y)
                    n_left += code == 0
                    n_rope += code == 1
                placed[k, c, 0] += n_left
                placed[k, c, 1] += n_rope
                placed[k, c, 2] += lanes - n_left - n_rope

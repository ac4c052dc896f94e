"""Compiled kernels of the exact near-ignorance bounds with a rope (:mod:`.placements`).

:func:`placement_states` lists, for every pair, the finitely many states of
the prior's pseudo-observation as its placement z0 runs over the extended
real line; :func:`placement_counts` counts, on a block of draws, how often
each region wins at each state. A draw whose winner is provably the same at
every placement (:func:`settled`: it leads at the three corners of the
triangle that holds every placement's shares, by more than a rounding
margin) is counted once; only the others are evaluated at every state, 64
draws side by side.
"""

from __future__ import annotations

import numba
import numpy as np

from nbstats.stats.bayes.signrank.walsh_kernel import LANES

__all__ = [
    "STATE_FIELDS",
    "placement_counts",
    "placement_states",
    "settled",
    "unsettled_count",
]

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
def settled(
    low: float, high: float, e: float, margin: float
) -> np.int64:  # pragma: no cover
    """The region that wins by more than ``margin`` at every point of the
    triangle ``(low + x, 1 - low - high - x - y, high + y)``, ``x, y ≥ 0``,
    ``x + y ≤ e``, which holds every placement's shares; else -1.

    A region's lead over another is linear in (x, y), so its smallest lead
    over the triangle is at a corner — all of the pseudo-observation's share
    ``e`` left (x = e), in the rope (0, 0) or right (y = e) — and is read off
    directly: left − rope = ``2 low + high − 1 + 2x + y``, left − right =
    ``low − high + x − y``, rope − right = ``1 − low − 2 high − x − 2y``.
    No branches (the outcomes look random).
    """
    left_rope = 2.0 * low + high - 1.0
    left_right = low - high
    rope_right = 1.0 - low - 2.0 * high
    s0 = np.int64(left_rope > margin) * np.int64(left_right - e > margin)
    s1 = np.int64(left_rope + 2.0 * e < -margin) * np.int64(
        rope_right - 2.0 * e > margin
    )
    s2 = np.int64(left_right + e < -margin) * np.int64(rope_right < -margin)
    return s1 + 2 * s2 - (1 - s0 - s1 - s2)


@numba.njit(nogil=True, cache=True)
def unsettled_count(
    right: np.ndarray,
    left: np.ndarray,
    inverse: np.ndarray,
    extra: np.ndarray,
    margin: float,
) -> int:  # pragma: no cover - compiled; tested against placement_counts
    """How many (pair, draw) :func:`settled` leaves to be evaluated at every
    placement state (K × draws ``right``, ``left``; the per-draw arrays as
    :func:`placement_counts`): the measure of that function's work."""
    found = 0
    for k in range(right.shape[0]):
        for d in range(right.shape[1]):
            code = settled(
                left[k, d] * inverse[d], right[k, d] * inverse[d], extra[d], margin
            )
            found += code < 0
    return found


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
    ``states[k]`` (:func:`placement_states`; the repeated last states once)
    and ``placed[k, c, region]`` gains 1 for its winner at state c: the
    region with the largest unnormalised sum ``Q + 2 g0 C + g0² h`` (the
    common factor ``1 / (g0 + T)²`` changes no comparison), ties to the
    first of left, rope, right. Outputs are added to, so blocks of draws
    may come in any order and any size.
    """
    rows, n = exponentials.shape
    n_pairs, width = states.shape[0], states.shape[1]
    pending = np.empty(rows, dtype=np.int64)
    codes = np.empty(rows, dtype=np.int64)
    prefix = np.zeros((n + 1, LANES))
    g_lane = np.zeros(LANES)
    g_squared = np.zeros(LANES)
    whole = np.zeros(LANES)
    low = np.zeros(LANES)
    high = np.zeros(LANES)
    for k in range(n_pairs):
        won_left = won_rope = won_right = 0
        # two passes: the first vectorises (no store at a moving index)
        for r in range(rows):
            d = offset + r
            code = settled(
                left[k, d] * inverse[d], right[k, d] * inverse[d], extra[d], margin
            )
            codes[r] = code
            won_left += code == 0
            won_rope += code == 1
            won_right += code == 2
        found = 0
        for r in range(rows):
            pending[found] = r  # kept only if unsettled: no branch
            found += codes[r] < 0
        base[k, 0] += won_left
        base[k, 1] += won_rope
        base[k, 2] += won_right
        if found == 0:
            continue
        # the padding repeats the last state: count it once, copy at the end
        used = width
        while used > 1:
            same = True
            for f in range(6):
                same &= states[k, used - 1, f] == states[k, used - 2, f]
            if not same:
                break
            used -= 1
        for start in range(0, found, LANES):
            lanes = min(LANES, found - start)
            for b in range(lanes):
                r = pending[start + b]
                d = offset + r
                acc = 0.0
                for j in range(n):
                    prefix[j, b] = acc
                    acc += exponentials[r, orders[k, j] if permute else j]
                prefix[n, b] = acc
                g = g0[d]
                g_lane[b], g_squared[b] = g, g * g
                whole[b] = (g + acc) * (g + acc)
                # the pseudo-observation's pairs with the cases, with its
                # weight g: 2 g C_left = g (P[m1] + P[m2]) and 2 g C_right =
                # 2 g T - g (P[k1] + P[k2]), P the prefix sums, halves included
                low[b], high[b] = left[k, d], right[k, d] + 2.0 * g * acc
            for c in range(used):
                m1, m2 = states[k, c, 0], states[k, c, 1]
                k1, k2 = states[k, c, 2], states[k, c, 3]
                hl, hr = 0.5 * states[k, c, 4], 0.5 * states[k, c, 5]
                n_left = 0
                n_rope = 0
                for b in range(lanes):
                    gb = g_lane[b]
                    left_sum = low[b] + gb * (prefix[m1, b] + prefix[m2, b])
                    left_sum += hl * g_squared[b]
                    right_sum = high[b] - gb * (prefix[k1, b] + prefix[k2, b])
                    right_sum += hr * g_squared[b]
                    middle = whole[b] - left_sum - right_sum
                    wins_left = (left_sum >= middle) & (left_sum >= right_sum)
                    n_left += wins_left
                    n_rope += np.int64(middle >= right_sum) * (1 - np.int64(wins_left))
                placed[k, c, 0] += n_left
                placed[k, c, 1] += n_rope
                placed[k, c, 2] += lanes - n_left - n_rope
        for c in range(used, width):
            for q in range(3):
                placed[k, c, q] = placed[k, used - 1, q]

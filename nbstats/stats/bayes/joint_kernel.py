"""Compiled passes of the joint signed-rank statements (:mod:`.posthoc`).

Why numba and not numpy: a dashboard re-evaluates every pair's region in
every posterior draw for each new s (1225 pairs × 5,000 draws at 50
algorithms), then the share of draws in which each prefix of the sorted
statements holds. numpy makes a pass and a draws × pairs temporary per
operation, too slow for a slider at that size; one compiled pass per step does the
same arithmetic, in the same order per draw, and the joint count stops at a
draw's first failed statement.

:func:`idp_codes` decides a draw's region with
:func:`~nbstats.stats.bayes.signrank.summary_kernel.region_code`, the rule of the
pair tables' counts; numba's on-disk cache keys a function on its own file
only, so a change there must touch this file too.
"""

from __future__ import annotations

import numba
import numpy as np

from nbstats.stats.bayes.signrank.summary_kernel import region_code
from nbstats.stats.compiled import announce

__all__ = ["UNSETTLED", "idp_codes", "joint_prefix_counts", "signed_rank_codes"]


#: draws per block of :func:`signed_rank_codes`: the block's codes of every
#: pair (1225 pairs × 256 draws: 300 kB) stay in the processor's cache while
#: each pair's sums are read in order
DRAW_BLOCK = 256


@numba.njit(inline="always")
def code_of(is_low: bool, is_middle: bool) -> np.int8:  # pragma: no cover
    """LEFT (0), ROPE (1) or RIGHT (2) as int8 (int literals were slower)."""
    return np.int8(0) if is_low else (np.int8(1) if is_middle else np.int8(2))


@numba.njit(nogil=True, cache=True)
def signed_rank_codes(
    quad: np.ndarray,
    cross: np.ndarray,
    total: np.ndarray,
    g0: np.ndarray,
    rope: bool,
    tolerance: float,
    codes: np.ndarray,
    counts: np.ndarray,
    first_pair: int = 0,
    last_pair: int = -1,
) -> None:  # pragma: no cover - compiled; tested against the numpy definition
    """Region code of every draw and pair, and each pair's count per code.

    ``quad`` and ``cross`` are pairs × regions × draws, as
    :meth:`~nbstats.stats.bayes.signrank.walsh.WalshBatch.evaluate` writes them: the
    cases' Walsh sums and their cross terms with the pseudo-observation at 0
    (region 0: θ without a rope; with one, 0 right and 1 left). Per draw,
    with g the prior's Gamma weight and ``W = (g + T)²``:

    - no rope: ``θ = (Q + 2 g L + ½ g²) / W``; RIGHT (2) if θ > ½ + tolerance,
      LEFT (0) if θ < ½ − tolerance, else ROPE (1);
    - a rope: right ``Q_r + 2 g L_r``, left ``Q_l + 2 g L_l``, rope the
      rest of W; the largest wins, ties to the first of (left, rope, right).

    Writes ``codes`` (draws × pairs, int8) and adds to ``counts`` (pairs × 3),
    for the pairs ``first_pair`` to ``last_pair`` (-1: all; two threads may
    take one half each). The counts are summed as booleans, not looked up by
    code: with random regions, a branch per draw was slower.
    """
    draws, pairs = codes.shape
    if last_pair < 0:
        last_pair = pairs
    whole = np.empty(draws)
    for d in range(draws):
        whole[d] = (g0[d] + total[d]) ** 2
    for first in range(0, draws, DRAW_BLOCK):
        last = min(draws, first + DRAW_BLOCK)
        for k in range(first_pair, last_pair):
            n_low = 0
            n_middle = 0
            # one loop per case (not a test per draw), so that each vectorises
            if rope:
                for d in range(first, last):
                    g = g0[d]
                    high = quad[k, 0, d] + 2.0 * g * cross[k, 0, d]
                    low = quad[k, 1, d] + 2.0 * g * cross[k, 1, d]
                    middle = whole[d] - high - low
                    is_low = (low >= middle) & (low >= high)
                    is_middle = (not is_low) & (middle >= high)
                    codes[d, k] = code_of(is_low, is_middle)
                    n_low += is_low
                    n_middle += is_middle
            else:
                for d in range(first, last):
                    g = g0[d]
                    theta = (
                        quad[k, 0, d] + 2.0 * g * cross[k, 0, d] + 0.5 * g * g
                    ) / whole[d]
                    is_high = theta > 0.5 + tolerance
                    is_low = (not is_high) & (theta < 0.5 - tolerance)
                    is_middle = (not is_high) & (not is_low)
                    codes[d, k] = code_of(is_low, is_middle)
                    n_low += is_low
                    n_middle += is_middle
            counts[k, 0] += n_low
            counts[k, 1] += n_middle
            counts[k, 2] += (last - first) - n_low - n_middle


@numba.njit(nogil=True, cache=True)
def joint_prefix_counts(
    codes: np.ndarray, order: np.ndarray, chosen: np.ndarray
) -> np.ndarray:  # pragma: no cover - compiled; tested against numpy
    """Draws in which statements ``order[0] … order[i]`` all hold, for every i.

    Statement k holds in draw d when ``codes[d, k] == chosen[k]``; a draw
    stops counting at its first failed statement.
    """
    draws = codes.shape[0]
    counts = np.zeros(order.size, dtype=np.int64)
    for d in range(draws):
        for i in range(order.size):
            k = order[i]
            if codes[d, k] != chosen[k]:
                break
            counts[i] += 1
    return counts


#: Region code of a draw in which no region holds for every prior of the
#: near-ignorance set (no statement about the pair holds in it)
UNSETTLED = 3


@numba.njit(nogil=True, cache=True)
def idp_codes(
    quad: np.ndarray,
    total: np.ndarray,
    g0: np.ndarray,
    rope: bool,
    tolerance: float,
    codes: np.ndarray,
    counts: np.ndarray,
    first_pair: int = 0,
    last_pair: int = -1,
) -> None:  # pragma: no cover - compiled; tested against the numpy definition
    """:func:`signed_rank_codes` under the near-ignorance prior (IDP): the
    region that holds in a draw for *every* prior of the set, else
    :data:`UNSETTLED` (3).

    Per draw, with ``W = (g + T)²`` and ``e = (2 T g + g²) / W`` the share of
    the pairs (i, j) that involve the prior's pseudo-observation (Benavoli et
    al. 2014, Theorem 4):

    - no rope: RIGHT if ``Q / W > ½ + tolerance`` (θ with the pseudo-
      observation at −∞), LEFT if ``Q / W + e < ½ − tolerance`` (at +∞);
    - a rope (region 0 right, 1 left): a region holds if it is the most
      probable (ties to the first of left, rope, right) with all of ``e`` in
      either other region (:mod:`nbstats.stats.bayes.signrank.bounds`).

    A statement that holds in a draw under this code holds there for every
    base measure of the set, so the share of draws in which a set of
    statements all hold is a lower joint probability; each pair's count is
    its lower marginal probability (``counts``: pairs × 3, code 3 not
    counted). ``quad`` is pairs × regions × draws.
    """
    draws, pairs = codes.shape
    if last_pair < 0:
        last_pair = pairs
    whole = np.empty(draws)
    extra = np.empty(draws)
    for d in range(draws):
        whole[d] = (g0[d] + total[d]) ** 2
        extra[d] = (2.0 * total[d] * g0[d] + g0[d] * g0[d]) / whole[d]
    for k in range(first_pair, last_pair):
        n_low = 0
        n_middle = 0
        n_high = 0
        for d in range(draws):
            e = extra[d]
            if rope:
                high = quad[k, 0, d] / whole[d]
                low = quad[k, 1, d] / whole[d]
                at_left = region_code(low + e, high)
                in_rope = region_code(low, high)
                at_right = region_code(low, high + e)
                code = UNSETTLED
                if in_rope == 0 and at_right == 0:
                    code = 0
                elif at_left == 1 and at_right == 1:
                    code = 1
                elif at_left == 2 and in_rope == 2:
                    code = 2
            else:
                theta = quad[k, 0, d] / whole[d]
                code = UNSETTLED
                if theta > 0.5 + tolerance:
                    code = 2
                elif theta + e < 0.5 - tolerance:
                    code = 0
            codes[d, k] = np.int8(code)
            n_low += code == 0
            n_middle += code == 1
            n_high += code == 2
        counts[k, 0] += n_low
        counts[k, 1] += n_middle
        counts[k, 2] += n_high


# one line on stderr before the first compilation (nbstats.stats.compiled)
announce(signed_rank_codes, joint_prefix_counts, idp_codes)

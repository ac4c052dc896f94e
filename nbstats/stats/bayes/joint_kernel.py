"""Compiled passes of the joint signed-rank statements (:mod:`.posthoc`).

Why numba and not numpy: a dashboard re-evaluates every pair's region in
every posterior draw for each new s (1225 pairs × 5,000 draws at 50
algorithms), then the share of draws in which each prefix of the sorted
statements holds. numpy makes a pass and a draws × pairs temporary per
operation (about 200 ms at that size); one compiled pass per step does the
same arithmetic, in the same order per draw, and the joint count stops at a
draw's first failed statement.
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = ["joint_prefix_counts", "signed_rank_codes"]


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
) -> None:  # pragma: no cover - compiled; tested against the numpy definition
    """Region code of every draw and pair, and each pair's count per code.

    ``quad`` and ``cross`` are regions × draws × pairs: the cases' Walsh sums
    and their cross terms with the pseudo-observation at 0 (region 0: θ
    without a rope; with one, 0 right and 1 left). Per draw, with g the
    prior's Gamma weight and ``W = (g + T)²``:

    - no rope: ``θ = (Q + 2 g L + ½ g²) / W``; RIGHT (2) if θ > ½ + tolerance,
      LEFT (0) if θ < ½ − tolerance, else ROPE (1);
    - a rope: right ``Q_r + 2 g L_r``, left ``Q_l + 2 g L_l``, rope the
      rest of W; the largest wins, ties to the first of (left, rope, right).

    Writes ``codes`` (draws × pairs, int8) and adds to ``counts`` (pairs × 3).
    """
    draws, pairs = codes.shape
    for d in range(draws):
        g = g0[d]
        whole = (g + total[d]) ** 2
        for k in range(pairs):
            if rope:
                high = quad[0, d, k] + 2.0 * g * cross[0, d, k]
                low = quad[1, d, k] + 2.0 * g * cross[1, d, k]
                middle = whole - high - low
                if low >= middle and low >= high:
                    code = 0
                elif middle >= high:
                    code = 1
                else:
                    code = 2
            else:
                theta = (quad[0, d, k] + 2.0 * g * cross[0, d, k] + 0.5 * g * g) / whole
                if theta > 0.5 + tolerance:
                    code = 2
                elif theta < 0.5 - tolerance:
                    code = 0
                else:
                    code = 1
            codes[d, k] = code
            counts[k, code] += 1


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

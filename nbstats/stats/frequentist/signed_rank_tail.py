"""The compiled dynamic programme of the exact signed-rank tail with ties.

With tied differences each Wilcoxon test has a null distribution of its own,
and a table's pairwise tests (the rank confidence intervals of a report, the
pairwise Wilcoxon post-hoc) run the programme once per pair: one pass per
rank over the sums up to the tail's end. In numpy each pass is a slice
operation of a few thousand sums, and the calls' overhead and temporaries
cost more than the additions (``benchmarks/bench_frequentist.py``).
"""

from __future__ import annotations

import numba
import numpy as np

from nbstats.stats.compiled import announce

__all__ = ["capped_tail"]


@numba.njit(cache=True, nogil=True)
def capped_tail(steps: np.ndarray, s: int) -> float:  # pragma: no cover - compiled
    """``P(2R+ <= s)`` for the doubled ranks ``steps`` (int64, ascending),
    ``0 <= s``: the counts of the sums ``0 … s`` of every sign pattern,
    each step a choice of adding a doubled rank or not, times ``2^-n``.
    The counts are scaled by ``2^-64`` every 64 steps (they stay far from
    overflow, and the tail far from underflow)."""
    pmf = np.zeros(s + 1)
    pmf[0] = 1.0
    reach = 0  # the largest sum reached so far (within the cap)
    halvings = 0
    for step in steps:
        if step <= s:
            top = min(reach + step, s)
            for k in range(top, step - 1, -1):  # downwards: each count once
                pmf[k] += pmf[k - step]
            reach = top
        halvings += 1
        if halvings == 64:
            for k in range(reach + 1):
                pmf[k] *= 2.0**-64
            halvings = 0
    return pmf.sum() * 2.0**-halvings


# one line on stderr before the first compilation (nbstats.stats.compiled)
announce(capped_tail)

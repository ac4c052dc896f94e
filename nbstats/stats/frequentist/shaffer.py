"""Shaffer's (1986) logically related pairwise hypotheses, and step-down
adjustment.

Shared by :func:`nbstats.adjust_pvalues` (``"holm"``, ``"shaffer"``) and by
Bergmann and Hommel's procedure, which falls back on Shaffer's above its
enumeration limit; it imports neither of them.
"""

from __future__ import annotations

from functools import cache

import numpy as np

__all__ = ["shaffer_hypothesis_counts", "shaffer_multipliers", "step_down"]


def step_down(p: np.ndarray, multipliers: np.ndarray) -> np.ndarray:
    """Step-down adjusted p-values: the running maximum of
    ``multiplier_i · p_(i)`` over the increasing p-values, capped at 1.

    Examples
    --------
    Holm's multipliers m, m − 1, …, 1:

    >>> step_down(np.array([0.04, 0.01, 0.03]), np.array([3, 2, 1])).tolist()
    [0.06, 0.03, 0.06]
    """
    order = np.argsort(p, kind="stable")
    stepped = np.maximum.accumulate(np.minimum(1.0, multipliers * p[order]))
    adjusted = np.empty_like(p)
    adjusted[order] = stepped
    return adjusted


@cache
def shaffer_hypothesis_counts(n_algorithms: int) -> frozenset[int]:
    """Numbers of pairwise-equality hypotheses that can be true together.

    A set of true hypotheses corresponds to a partition of the k algorithms
    into groups of equal ones; a group of size j makes ``j(j-1)/2`` true
    pairwise hypotheses (Shaffer 1986).

    Examples
    --------
    >>> sorted(shaffer_hypothesis_counts(4))
    [0, 1, 2, 3, 6]
    """
    bits = _count_bits(int(n_algorithms))
    width = (bits.bit_length() + 7) // 8
    flags = np.unpackbits(
        np.frombuffer(bits.to_bytes(width, "little"), dtype=np.uint8),
        bitorder="little",
    )
    return frozenset(np.flatnonzero(flags).tolist())


#: The sets of :func:`shaffer_hypothesis_counts` as bitsets (bit x set: x
#: hypotheses can be true together), for 0, 1, 2, … algorithms.
_COUNT_BITS: list[int] = [1, 1]


def _count_bits(n_algorithms: int) -> int:
    """The counts of ``n_algorithms`` as a bitset, built up from fewer
    algorithms: the first group of j algorithms adds j(j − 1)/2 to every
    count of the other k − j. Bottom up, not recursive (800 algorithms went
    past Python's recursion limit); a Python int is the bitset, as its shift
    and or run in C over the whole set at once."""
    for k in range(len(_COUNT_BITS), n_algorithms + 1):
        bits = 0
        for group in range(1, k + 1):
            bits |= _COUNT_BITS[k - group] << (group * (group - 1) // 2)
        _COUNT_BITS.append(bits)
    return _COUNT_BITS[max(n_algorithms, 0)]


def shaffer_multipliers(n_algorithms: int) -> np.ndarray:
    """Shaffer's multipliers ``t_1 … t_m`` of the increasing p-values of all
    ``m = k(k − 1)/2`` pairs: before the i-th rejection at most ``m − i + 1``
    hypotheses remain, and ``t_i`` is the largest number of them that can be
    true together.

    Examples
    --------
    >>> shaffer_multipliers(4).tolist()
    [6, 3, 3, 3, 2, 1]
    """
    m = n_algorithms * (n_algorithms - 1) // 2
    possible = np.array(sorted(shaffer_hypothesis_counts(n_algorithms)))
    remaining = np.arange(m, 0, -1)
    # the largest possible count ≤ r: 0 is always possible, so one exists
    return possible[np.searchsorted(possible, remaining, side="right") - 1]

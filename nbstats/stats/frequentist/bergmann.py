"""Bergmann and Hommel's (1988) procedure for all pairwise comparisons.

A set of pairwise hypotheses "a = b" that can all be true at once is
*exhaustive*: it is the set of pairs inside the groups of some partition of
the k algorithms into groups of equal ones. The procedure rejects H_i when
every exhaustive set I that contains it has a p-value below α / |I|; its
adjusted p-value (García & Herrera 2008) is

    APV_i = min(1, max{ |I| · min{p_j : j ∈ I} : I exhaustive, i ∈ I }).

It is closed testing with Bonferroni tests of the exhaustive sets, so it
controls the family-wise error and is at least as powerful as Shaffer's
static procedure. The exhaustive sets are the Bell number B(k) of set
partitions: 4,140 at k = 8, 21,147 at k = 9, 4,213,597 at k = 12. They are
enumerated by a compiled loop (why not numpy: a partition's pairs are found
by one pass over its group labels, with no table of B(k) × k(k−1)/2 bits).
scmamp, the reference implementation in R, stops at k = 9.
"""

from __future__ import annotations

import warnings

import numba
import numpy as np

from nbstats.stats.compiled import announce
from nbstats.stats.frequentist.shaffer import shaffer_multipliers, step_down

__all__ = ["EXACT_MAX_ALGORITHMS", "bergmann_hommel"]

#: Up to this many algorithms the exhaustive sets are enumerated (B(12) =
#: 4.2 million partitions, about a second); above, Shaffer's procedure.
EXACT_MAX_ALGORITHMS = 12


def bergmann_hommel(pvalues: np.ndarray, n_algorithms: int) -> np.ndarray:
    """Bergmann–Hommel adjusted p-values of all k(k−1)/2 pairs.

    Parameters
    ----------
    pvalues : ndarray
        The pairs' p-values in ``itertools.combinations(range(k), 2)`` order:
        (0, 1), (0, 2), …, (k − 2, k − 1).
    n_algorithms : int
        k.

    Returns
    -------
    ndarray
        Adjusted p-values in the same order. Above
        :data:`EXACT_MAX_ALGORITHMS` algorithms, Shaffer's (with a warning):
        still a valid family-wise procedure, a little less powerful.

    Examples
    --------
    >>> import numpy as np
    >>> bergmann_hommel(np.array([0.01, 0.02, 0.04]), 3).round(3)
    array([0.03, 0.03, 0.04])
    """
    k = int(n_algorithms)
    p = np.ascontiguousarray(pvalues, dtype=float)
    if p.shape != (k * (k - 1) // 2,):
        raise ValueError(
            f"Bergmann-Hommel needs the {k * (k - 1) // 2} pairwise p-values of "
            f"{k} algorithms, got {p.size}."
        )
    if k > EXACT_MAX_ALGORITHMS:
        warnings.warn(
            f"Bergmann-Hommel's exhaustive sets of {k} algorithms are too many "
            f"to enumerate (more than {EXACT_MAX_ALGORITHMS}); Shaffer's "
            "procedure is used instead (valid, slightly less powerful).",
            UserWarning,
            stacklevel=3,
        )
        return step_down(p, shaffer_multipliers(k))
    if k < 2:
        return p.copy()
    pair = np.full((k, k), -1, dtype=np.int64)
    first, second = np.triu_indices(k, 1)
    pair[first, second] = np.arange(first.size)
    out = np.zeros_like(p)
    _exhaustive_maxima(p, pair, k, out)
    return np.minimum(1.0, np.maximum(out, p))


@numba.njit(cache=True, nogil=True)
def _exhaustive_maxima(
    p: np.ndarray, pair: np.ndarray, k: int, out: np.ndarray
) -> None:  # pragma: no cover - compiled; tested through bergmann_hommel
    """``out[i] = max |I| min_{j∈I} p_j`` over the exhaustive sets I ∋ i.

    The partitions are the restricted growth strings ``label[0] = 0``,
    ``label[i] <= 1 + max(label[:i])``, visited in lexicographic order.
    """
    label = np.zeros(k, dtype=np.int64)
    top = np.zeros(k, dtype=np.int64)  # max of label[: i + 1]
    members = np.empty(k * (k - 1) // 2, dtype=np.int64)
    while True:
        count = 0
        smallest = 2.0
        for i in range(k):
            for j in range(i + 1, k):
                if label[i] == label[j]:
                    h = pair[i, j]
                    members[count] = h
                    count += 1
                    if p[h] < smallest:
                        smallest = p[h]
        if count > 0:
            value = count * smallest
            for c in range(count):
                h = members[c]
                if value > out[h]:
                    out[h] = value
        # next restricted growth string: the last position that can grow
        i = k - 1
        while i > 0 and label[i] > top[i - 1]:
            i -= 1
        if i == 0:
            return
        label[i] += 1
        top[i] = max(top[i - 1], label[i])
        for j in range(i + 1, k):
            label[j] = 0
            top[j] = top[i]


# one line on stderr before the first compilation (nbstats.stats.compiled)
announce(_exhaustive_maxima)

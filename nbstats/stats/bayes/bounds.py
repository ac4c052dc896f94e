"""Lower and upper probabilities of the signed-rank test, from its counts.

Every signed-rank posterior (:func:`nbstats.bayes_signrank`, the pairs table,
the dashboard) is summarised by ten counts of draws, in this layout:

=====  ==========================================================
index  draws with
=====  ==========================================================
0      θ_lower > ½ — lower P(b better) without a rope
1      θ_upper > ½ — upper P(b better) without a rope
2      θ_upper < ½ — lower P(a better) without a rope
3–5    left, rope, right won for *every* prior of the set (lower)
6–8    left, rope, right won for *some* prior of the set (upper)
9      θ_lower < ½ — upper P(a better) without a rope
=====  ==========================================================

θ_lower and θ_upper are the posteriors with the pseudo-observation at −∞
and +∞ (Benavoli et al. 2014, Theorem 4); for a single prior (``"bb"``,
``"point"``) they coincide and so do the lower and upper counts. Counts
3–8 are those of :func:`~nbstats.stats.bayes.summary_kernel.rope_counts`
(zeros without a rope).

**The near-ignorance bounds with a rope.** In each posterior draw the prior's
pseudo-observation takes a share ``e`` of the pairs (i, j); a base measure
may put that share left, in the rope or right, in any split. A region
therefore wins a draw for some prior iff it wins with all of ``e`` in it, and
for every prior iff it wins with all of ``e`` in either other region. The
shares of such draws enclose the region's probability for every base
measure of the prior set (point masses and mixtures alike). The upper
bounds of "a better" and "b better" are attained (the pseudo-observation at
−∞ and +∞); the bounds of the rope, and the lower bounds, are attained when
one placement serves every draw (e.g. all differences within half the rope:
a pseudo-observation at 0 puts all of ``e`` in the rope) and are otherwise
an outer enclosure of the exact range — never narrower than it, so a
decision on them holds for every prior. Swapping a and b swaps left and
right and leaves the rope's bounds unchanged (:data:`MIRROR`).
"""

from __future__ import annotations

import numpy as np

__all__ = ["MIRROR", "N_COUNTS", "bounds_of_counts", "mirror_counts"]

#: Counts per signed-rank posterior (see the module's table).
N_COUNTS = 10

#: Column permutation of the counts for the mirrored pair (b, a): θ' = 1 − θ
#: with the lower and upper posteriors swapped; left ↔ right, the rope stays.
MIRROR = np.array([2, 9, 0, 5, 4, 3, 8, 7, 6, 1])


def mirror_counts(counts: np.ndarray) -> np.ndarray:
    """The counts of the mirrored pair (b, a); rows of a 2-D array each.

    Examples
    --------
    >>> mirror_counts(np.arange(10)).tolist()
    [2, 9, 0, 5, 4, 3, 8, 7, 6, 1]
    """
    return np.asarray(counts)[..., MIRROR]


def bounds_of_counts(shares: np.ndarray, *, with_rope: bool) -> dict[str, np.ndarray]:
    """Each region's lower and upper probability from the counts' shares.

    ``shares`` is pairs × 10 (the counts divided by the draws). Returns
    arrays ``left_lower``, ``left_upper``, ``rope_lower``, ``rope_upper``
    (NaN without a rope), ``right_lower`` and ``right_upper``. Without a
    rope "b better" is θ > ½ and "a better" θ < ½ (θ exactly ½, all ties,
    is neither).

    Examples
    --------
    >>> shares = np.array([[0.9, 0.97, 0.02, 0, 0, 0, 0, 0, 0, 0.1]])
    >>> found = bounds_of_counts(shares, with_rope=False)
    >>> float(found["right_lower"][0]), float(found["right_upper"][0])
    (0.9, 0.97)
    >>> float(found["left_lower"][0]), float(found["left_upper"][0])
    (0.02, 0.1)
    """
    shares = np.atleast_2d(np.asarray(shares, dtype=float))
    if with_rope:
        return {
            "left_lower": shares[:, 3],
            "rope_lower": shares[:, 4],
            "right_lower": shares[:, 5],
            "left_upper": shares[:, 6],
            "rope_upper": shares[:, 7],
            "right_upper": shares[:, 8],
        }
    nan = np.full(shares.shape[0], np.nan)
    return {
        "left_lower": shares[:, 2],
        "rope_lower": nan,
        "right_lower": shares[:, 0],
        "left_upper": shares[:, 9],
        "rope_upper": nan,
        "right_upper": shares[:, 1],
    }

"""Lower and upper probabilities of the signed-rank test, from its counts.

Every signed-rank posterior (:func:`nbstats.bayes_signrank`, the pairs table,
the dashboard) is summarised by ten counts of draws, in this layout:

=====  ==========================================================
index  draws with
=====  ==========================================================
0      θ_lower > ½ — lower P(b better) without a rope
1      θ_upper > ½ — upper P(b better) without a rope
2      θ_upper < ½ — lower P(a better) without a rope
3–5    left, rope, right: fewest won at one placement of the prior (lower)
6–8    left, rope, right: most won at one placement of the prior (upper)
9      θ_lower < ½ — upper P(a better) without a rope
=====  ==========================================================

θ_lower and θ_upper are the posteriors with the pseudo-observation at −∞
and +∞ (Benavoli et al. 2014, Theorem 4); for a single prior (``"bb"``,
``"point"``) they coincide and so do the lower and upper counts, those of
:func:`~nbstats.stats.bayes.signrank.summary_kernel.rope_counts`. Counts 3–8 are
zeros without a rope.

**The near-ignorance bounds with a rope.** The prior set's extreme points
put the prior's pseudo-observation at one place z0 (±∞ included; Benavoli
et al. 2014, Theorem 4). At each z0 a region's posterior probability is the
share of draws in which it is the most probable region; counts 3–5 are the
fewest draws it wins over all placements (its lower probability times the
draws), counts 6–8 the most (upper), on the same draws — the exact infimum
and supremum over z0 of the Monte Carlo estimate, found among the finitely
many placement states where the pseudo-observation's pairs change region
(:mod:`nbstats.stats.bayes.signrank.placements`). The upper bounds of "a better" and
"b better" are reached at z0 = −∞ and +∞. Swapping a and b swaps left and
right and leaves the rope's bounds unchanged (:data:`MIRROR`). The normal
approximation (``method="normal"``, many cases) keeps the per-draw
enclosure instead — a region wins for some placement if it wins with all
of the pseudo-observation's share in it, for every placement if it wins
with all of it in either other region — an outer bound (never narrower
than the exact range, wider by at most the draws that the
pseudo-observation's share of the pairs, about 2s/n, can tip).
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


def signrank_bounds(
    theta: np.ndarray, regions: np.ndarray | None, *, idp: bool
) -> tuple[tuple[float, float | None, float], tuple[float, float | None, float]]:
    """Lower and upper (left, rope, right) of one signed-rank test's counts.

    ``theta``: the shares of draws with θ_lower > ½, θ_upper > ½, θ_upper <
    ½ and (optionally) θ_lower < ½ (θ_upper = θ_lower for a single prior).
    ``regions``: with a rope, the lower then the upper probability of each of
    (left, rope, right) over the prior set (6 values, see
    :mod:`nbstats.stats.bayes.signrank.bounds`); None without a rope. See
    :func:`signrank_bounds_many`.

    Examples
    --------
    >>> signrank_bounds(np.array([0.9, 0.97, 0.02, 0.1]), None, idp=True)
    ((0.02, None, 0.9), (0.1, None, 0.97))
    """
    lower, upper = signrank_bounds_many(
        np.asarray(theta, dtype=float)[None, :],
        None if regions is None else np.asarray(regions, dtype=float)[None, :],
        idp=idp,
    )

    def one(values: tuple) -> tuple[float, float | None, float]:
        left, rope, right = (float(v[0]) for v in values)
        return (round(left, 15), None if regions is None else rope, round(right, 15))

    return one(lower), one(upper)


def signrank_bounds_many(
    theta: np.ndarray, regions: np.ndarray | None, *, idp: bool
) -> tuple[tuple[np.ndarray, ...], tuple[np.ndarray, ...]]:
    """:func:`signrank_bounds` of many pairs: ``theta`` is n × 4 (or n × 3,
    then the upper P(a better) is 1 − P(θ_lower > ½)), ``regions`` n × 6 or
    None; returns the lower and the upper (left, rope, right), each an array
    (the rope's NaN without a rope).

    Under the near-ignorance prior (IDP) the lower posterior (the prior's
    pseudo-observation at −∞) is the least favourable to b and the most to a;
    the upper the other way round. Without a rope, P(b better) lies between
    P(θ_lower > ½) and P(θ_upper > ½), P(a better) between P(θ_upper < ½)
    and P(θ_lower < ½). With a rope, each region's bounds are the smallest
    and largest share of draws it wins at one placement of the prior's
    pseudo-observation (see :mod:`nbstats.stats.bayes.signrank.bounds`). A single
    prior has lower = upper.
    """
    theta = np.asarray(theta, dtype=float)
    nan = np.full(theta.shape[0], np.nan)
    if regions is None:
        lower = (theta[:, 2], nan, theta[:, 0])
        upper_left = theta[:, 3] if theta.shape[1] > 3 else 1 - theta[:, 0]
        upper = (upper_left, nan, theta[:, 1]) if idp else lower
        return lower, upper
    r = np.asarray(regions, dtype=float)
    lower = (r[:, 0], r[:, 1], r[:, 2])
    upper = (r[:, 3], r[:, 4], r[:, 5]) if idp else lower
    return lower, upper

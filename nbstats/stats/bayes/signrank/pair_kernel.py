"""Compiled set-up and summaries of many pairs' signed-rank posteriors at once.

:class:`~nbstats.stats.bayes.signrank.walsh.WalshPlan` finds one pair's region
boundaries with a binary search per difference; a dashboard of 50 algorithms
has 1225 pairs, and building 1225 plans and regions one by one in Python cost
more than the sums themselves. The kernels here do the same searches, in the
same floating-point arithmetic, for every pair in one call
(:func:`first_rows`), compute the point prior's cross terms without the
quadratic sums (:func:`cross_sums`), and count every pair's rope winners
(:func:`pair_rope_counts`) with the per-draw arithmetic of
:func:`~nbstats.stats.bayes.signrank.summary_kernel.rope_counts`, and count every
pair's θ draws (:func:`pair_counts`) with that of
:func:`~nbstats.stats.bayes.signrank.summary_kernel.combine_region` and
:func:`~nbstats.stats.bayes.signrank.summary_kernel.theta_counts`: every count equals
:func:`nbstats.bayes_signrank`'s on the same draws bit for bit (tested).

numba's on-disk cache (``cache=True``) keys a function on its own file only:
after a change to a kernel it calls from :mod:`.summary_kernel` (such as the
rope's lower and upper counts of :mod:`nbstats.stats.bayes.signrank.bounds`), this
file must change too, or the cached :func:`pair_rope_counts` keeps the old
arithmetic.
"""

from __future__ import annotations

import numba
import numpy as np

from nbstats.stats.bayes.signrank.summary_kernel import rope_counts
from nbstats.stats.bayes.signrank.walsh_kernel import LANES, cross_term
from nbstats.stats.compiled import announce

__all__ = ["cross_sums", "first_rows", "pair_counts", "pair_rope_counts"]


@numba.njit(nogil=True, cache=True)
def first_rows(
    xs: np.ndarray, zs: np.ndarray, c: float, strict: bool
) -> np.ndarray:  # pragma: no cover - compiled; tested against first_index
    """``out[k, i]``: the first j with ``xs[k, i] + zs[k, j] > c`` (``>= c``
    unless strict); row k of ``zs`` sorted. Row by row this is
    :func:`~nbstats.stats.bayes.signrank.walsh.first_index`, the same comparisons."""
    n_rows, width = xs.shape
    n = zs.shape[1]
    out = np.empty((n_rows, width), dtype=np.int64)
    for k in range(n_rows):
        for i in range(width):
            x, low, high = xs[k, i], 0, n
            while low < high:
                middle = (low + high) // 2
                total = x + zs[k, middle]
                if total > c or (not strict and total == c):
                    high = middle
                else:
                    low = middle + 1
            out[k, i] = low
    return out


@numba.njit(nogil=True, cache=True)
def cross_sums(
    exponentials: np.ndarray,
    point_main: np.ndarray,
    point_other: np.ndarray,
    signs: np.ndarray,
    cross: np.ndarray,
    offset: int,
) -> None:  # pragma: no cover - compiled; tested against walsh_sums
    """``cross[k, q, offset + r]`` of :func:`~.walsh_kernel.walsh_sums` alone.

    The cross term of a pseudo-observation needs the prefix sums of a draw's
    weights at two positions, not the quadratic sums: for unpermuted weights
    (every pair sees them as they come) one prefix sum per draw serves all
    pairs. The prefix sums and the arithmetic are those of ``walsh_sums``, so
    the values are equal bit for bit.
    """
    rows, n = exponentials.shape
    n_plans, n_regions = point_main.shape
    prefix = np.zeros((n + 1, LANES))
    for start in range(0, rows, LANES):
        lanes = min(LANES, rows - start)
        for j in range(n):
            for b in range(lanes):
                prefix[j + 1, b] = prefix[j, b] + exponentials[start + b, j]
        first = offset + start
        for k in range(n_plans):
            for q in range(n_regions):
                at, other = point_main[k, q], point_other[k, q]
                for b in range(lanes):
                    cross[k, q, first + b] = cross_term(
                        prefix, n, at, other, signs[q], b
                    )


@numba.njit(nogil=True, cache=True)
def pair_rope_counts(
    right: np.ndarray,
    left: np.ndarray,
    cross_right: np.ndarray,
    cross_left: np.ndarray,
    g0: np.ndarray,
    inverse: np.ndarray,
    extra: np.ndarray,
    steps_right: np.ndarray,
    steps_left: np.ndarray,
    point_prior: bool,
    idp: bool,
    out: np.ndarray,
) -> None:  # pragma: no cover - compiled; tested against bayes_signrank
    """:func:`~.summary_kernel.rope_counts` (each region's lower and upper
    count) of every pair (row k of the
    pairs × draws sums) into ``out[k]``, in one call."""
    for k in range(right.shape[0]):
        out[k] = rope_counts(
            right[k],
            left[k],
            cross_right[k],
            cross_left[k],
            g0,
            inverse,
            extra,
            steps_right[k],
            steps_left[k],
            point_prior,
            idp,
        )


@numba.njit(nogil=True, cache=True)
def pair_counts(
    quad: np.ndarray,
    cross: np.ndarray,
    g0: np.ndarray,
    scale: np.ndarray,
    extra: np.ndarray,
    steps: np.ndarray,
    point_prior: bool,
    idp: bool,
    tolerance: float,
    epsilon: float,
    out: np.ndarray,
) -> None:  # pragma: no cover - compiled; tested against bayes_signrank
    """θ's draws of every pair, counted without being stored.

    ``quad`` (and ``cross`` for the point prior) are pairs × draws Walsh sums
    of θ. Per pair k, ``out[k]`` gets the numbers of draws with θ_lower > ½,
    θ_upper > ½, θ_upper < ½ ("> ½" meaning above ½ + tolerance), with
    |θ_lower − ½| < ε and |θ_upper − ½| < ε, and with θ_lower < ½. θ_upper
    is θ_lower plus the prior's share ``extra`` under IDP, θ_lower itself
    otherwise.
    """
    n_pairs, n_draws = quad.shape
    for k in range(n_pairs):
        step = steps[k]
        above_lower = above_upper = below_upper = near_lower = near_upper = 0
        below_lower = 0
        for r in range(n_draws):
            g = g0[r]
            value = (
                quad[k, r] + (2.0 * g * cross[k, r] + step * g * g)
                if point_prior
                else quad[k, r]
            )
            value = value / scale[r]
            upper = value + extra[r] if idp else value
            above_lower += value > 0.5 + tolerance
            above_upper += upper > 0.5 + tolerance
            below_upper += upper < 0.5 - tolerance
            below_lower += value < 0.5 - tolerance
            near_lower += abs(value - 0.5) < epsilon
            near_upper += abs(upper - 0.5) < epsilon
        out[k, 0] = above_lower
        out[k, 1] = above_upper
        out[k, 2] = below_upper
        out[k, 3] = near_lower
        out[k, 4] = near_upper
        out[k, 5] = below_lower


# one line on stderr before the first compilation (nbstats.stats.compiled)
announce(first_rows, cross_sums, pair_rope_counts, pair_counts)
